// The game in progress on this device (#25), kept in IndexedDB so that it survives a
// reload and the browser being closed: the save the engine makes after every move
// (players, record, checksum: device/game.py). Loading it is the engine's job, which
// refuses a save that was changed or damaged. Where IndexedDB cannot be opened
// (a private window of some browsers) the game is simply not kept.

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
