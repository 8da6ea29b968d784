// The page's side of its engine (#25): the Web Worker that runs the package's engine
// and bots in Pyodide (local-worker.js), asked one request at a time, each answered by
// a promise. The page's CSP lets only the URLs named here load as scripts (a Trusted
// Types policy of its own, the one the page's `trusted-types` allows).

const POLICY = "sequence-stacks-local";
// The only scripts the page may start: its engine's worker and the service worker.
export const WORKER_URL = "/local/worker.js";
export const SERVICE_WORKER_URL = "/sw.js";
const ALLOWED = new Set([WORKER_URL, SERVICE_WORKER_URL]);

let policy = null;

/** A script URL the page may load (a TrustedScriptURL where the browser has Trusted Types). */
export function scriptURL(url) {
  if (!ALLOWED.has(url)) throw new TypeError(`${url} is not a script of this page`);
  if (!globalThis.trustedTypes) return url;
  policy ??= trustedTypes.createPolicy(POLICY, {
    createScriptURL: (given) => {
      if (!ALLOWED.has(given)) throw new TypeError(`${given} is not a script of this page`);
      return given;
    },
  });
  return policy.createScriptURL(url);
}

/** Where the runtime and the source are, and the bots (the server writes them into the page). */
export function readBuild() {
  const meta = (name) => document.querySelector(`meta[name="sequence-stacks-${name}"]`)?.content ?? "";
  return { runtime: meta("runtime"), stdlib: meta("stdlib"), source: meta("source"), bots: meta("bots").split(/\s+/u).filter(Boolean) };
}

/** True when this browser can run the page's engine (WebAssembly in a module worker). */
export function canRunEngine() {
  return typeof WebAssembly === "object" && typeof WebAssembly.instantiate === "function" && typeof Worker === "function";
}

export class Engine {
  /** Start the worker; `build` is {runtime, source, stdlib}: where the runtime and the source are. */
  constructor(build) {
    this.worker = new Worker(scriptURL(WORKER_URL), { type: "module" });
    this.waiting = new Map();
    this.next = 1;
    this.worker.addEventListener("message", (event) => this.settle(event.data));
    this.worker.addEventListener("error", (event) => this.failAll(event.message || "the engine's worker failed"));
    this.ready = this.ask({ op: "boot", ...build });
  }

  /** Ask the engine: a promise of its answer (data), rejected when the worker failed. */
  ask(request) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, request });
    });
  }

  settle({ id, answer, failed }) {
    const found = this.waiting.get(id);
    if (!found) return;
    this.waiting.delete(id);
    if (failed !== undefined) found.reject(new Error(failed));
    else found.resolve(answer);
  }

  failAll(reason) {
    for (const { reject } of this.waiting.values()) reject(new Error(reason));
    this.waiting.clear();
  }
}
