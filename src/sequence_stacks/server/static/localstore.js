// The game in progress on this device (#25), kept in IndexedDB so that it survives a
// reload and the browser being closed: the save the engine makes after every move
// (players, record, checksum: device/game.py). Loading it is the engine's job, which
// refuses a save that was changed or damaged. Where IndexedDB cannot be opened
// (a private window of some browsers) the game is simply not kept. Also kept: the
// page itself, for play without a network (the service worker, sw.js), and a finished
// or running game as a record file the reader downloads.

import { h } from "./dom.js";
import { scriptURL, SERVICE_WORKER_URL } from "./localengine.js";
import { t } from "./messages.js";

const DATABASE = "sequence-stacks";
const STORE = "games";
const CURRENT = "current";

let opening = null;

function database() {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.addEventListener("upgradeneeded", () => request.result.createObjectStore(STORE));
    request.addEventListener("success", () => resolve(request.result));
    request.addEventListener("error", () => reject(request.error));
  });
  return opening;
}

async function run(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const request = work(transaction.objectStore(STORE));
    transaction.addEventListener("complete", () => resolve(request.result));
    transaction.addEventListener("error", () => reject(transaction.error));
    transaction.addEventListener("abort", () => reject(transaction.error));
  });
}

/** The saved game, or undefined (none, or no IndexedDB). */
export async function loadSave() {
  try {
    return await run("readonly", (store) => store.get(CURRENT));
  } catch (error) {
    console.error(`the saved game could not be read: ${error}`);
    return undefined;
  }
}

/** Keep `save` as the game in progress. */
export async function keepSave(save) {
  try {
    await run("readwrite", (store) => store.put(save, CURRENT));
  } catch (error) {
    console.error(`the game could not be saved: ${error}`);
  }
}

/** Forget the game in progress. */
export async function dropSave() {
  try {
    await run("readwrite", (store) => store.delete(CURRENT));
  } catch (error) {
    console.error(`the saved game could not be removed: ${error}`);
  }
}

/** `record` (a game record, as `sequence-stacks replay` reads it) downloaded as a file. */
export function downloadRecord(record) {
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
  const link = h("a", { href: URL.createObjectURL(blob), download: `sequence-stacks-${new Date().toISOString().slice(0, 10)}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** Keep the pages, the runtime and the source on the device (sw.js), and say so in `status`. */
export async function keepOffline(status) {
  if (!("serviceWorker" in navigator)) {
    status.textContent = t("local.offline.unsupported");
    return;
  }
  try {
    await navigator.serviceWorker.register(scriptURL(SERVICE_WORKER_URL), { scope: "/", updateViaCache: "none" });
    const ready = await navigator.serviceWorker.ready;
    // The words of the reader's language too, which this page loaded before the worker ran.
    const lang = encodeURIComponent(document.documentElement.lang || "en");
    ready.active?.postMessage({ type: "keep", urls: [`/api/messages?lang=${lang}`, `/api/rules?lang=${lang}`] });
    status.textContent = t("local.offline.ready");
    status.dataset.ready = "true";
  } catch (error) {
    console.error(`the page could not be kept for offline play: ${error}`);
    status.textContent = t("local.offline.unsupported");
  }
}
