// JSON requests of the account pages (#26): the answer's data, or an error carrying the
// server's refusal so the page words it in the reader's language (problemText).

import { t } from "./messages.js";
import { refusalLine } from "./words.js";

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

/**
 * What went wrong with a step of an account page, in the reader's language: the
 * server's refusal, a passkey prompt the reader cancelled, or no connection.
 */
export function problemText(error) {
  if (error instanceof Refused) return refusalLine(error.body, (seat) => t("seat.numbered", { number: seat + 1 }));
  if (error?.name === "NotAllowedError" || error?.name === "AbortError") return t("account.cancelled");
  return t("page.lobby.no_connection");
}
