// JSON requests of the account pages (#26): the answer's data, or an error carrying the
// server's refusal so the page words it in the reader's language.

export class Refused extends Error {
  constructor(status, body) {
    super(body?.code ?? String(status));
    this.status = status;
    this.body = body ?? { code: "bad_request" };
  }
}

/** `method` `path` with an optional JSON body and headers; the answer's JSON. */
export async function call(method, path, body = undefined, headers = {}) {
  const init = { method, headers: { ...headers }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new Refused(response.status, data);
  return data;
}
