// The table page's account tools (#26): a signed-in player's seat found from any of
// their devices; a seat moved to another device by a one-time code (a link or a QR
// code); a guest's seat kept in the account that signs in afterwards; and whether the
// table is played live or turn-based.


import { call } from "./api.js";
import { showCode } from "./codebox.js";
import { accountNav } from "./nav.js";
import { howPlayed } from "./when.js";

const $ = (selector) => document.querySelector(selector);
let signedIn = false;
let linked = false; // the seat this device holds is the signed-in account's already
let tableId = null;
let tokenKey = null;
let options = {};

/** True at a turn-based table: its players come and go, nobody is shown online. */
export function isTurnBased() {
  return Boolean(options.turn_hours);
}

/**
 * The seat token this device should greet the table with: the one it keeps, else the
 * one of the signed-in account's seat at this table (taken on another device), else
 * null (a spectator).
 */
export async function seatToken(id, key) {
  tableId = id;
  tokenKey = key;
  const kept = localStorage.getItem(key);
  try {
    options = (await call("GET", `/api/tables/${encodeURIComponent(id)}`)).options ?? {};
  } catch {
    options = {};
  }
  try {
    const badge = await call("GET", `/api/me/badge?table=${encodeURIComponent(id)}`);
    signedIn = badge.signed_in;
    if (badge.seated_here) {
      const { token } = await call("GET", `/api/me/seat/${encodeURIComponent(id)}`);
      linked = !kept || kept === token;
      if (!kept) localStorage.setItem(key, token);
      return kept ?? token;
    }
  } catch {
    // No seat of the account here (404), or signed out: the kept token, if any.
  }
  return kept;
}

/** A seat just taken on this page: a signed-in player sits as their account, so the
 * seat is the account's already (nothing to claim). */
export function seatTaken() {
  linked = signedIn;
}

async function withToken(method, path) {
  return call(method, path, undefined, { "x-seat-token": localStorage.getItem(tokenKey) ?? "" });
}

/** Wire the tools once the words are loaded. */
export async function setUpSeatTools() {
  accountNav({ title: false });
  $("#move-seat").addEventListener("click", async () => {
    try {
      const data = await withToken("POST", `/api/tables/${encodeURIComponent(tableId)}/move`);
      showCode($("#move-code"), data, "page.table.move_about", "/move");
    } catch {
      $("#move-code").hidden = true;
    }
  });
  $("#claim-seat").addEventListener("click", async () => {
    try {
      await withToken("POST", `/api/tables/${encodeURIComponent(tableId)}/claim`);
      linked = true;
      $("#claim-seat").hidden = true;
      $("#claim-done").hidden = false;
    } catch {
      $("#claim-seat").disabled = true;
    }
  });
  $("#how-played").textContent = howPlayed(options);
}

/** After each render: the tools of a seated player (`seated`), hidden for a watcher. */
export function showSeatTools(seated) {
  const tools = $("#seat-tools");
  if (!tools) return;
  $("#move-seat").hidden = !seated;
  $("#claim-seat").hidden = !seated || !signedIn || linked;
  if (!seated) $("#move-code").hidden = true;
  tools.hidden = false;
}


