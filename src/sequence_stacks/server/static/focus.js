// Where the keyboard focus goes on the table page (#15). A render replaces the hand, the
// piles, the seats and the choices: the control that had the focus gets it back (its
// place in its list); table.js moves it on after an action.

const LISTS = ["#hand .card", "#piles .pile", "#seats .discard", "#choices button", "#lobby-seats button", ".chat-buttons button"];

/**
 * The focused control's place, `{ list, index }`: its list if it is in one of the rebuilt
 * lists (else `list` is null); null when nothing has the focus.
 */
export function focusSpot() {
  if (focusLost()) return null;
  for (const list of LISTS) {
    const index = [...document.querySelectorAll(list)].indexOf(document.activeElement);
    if (index >= 0) return { list, index };
  }
  return { list: null, index: -1 };
}

/** True when nothing has the focus (a render removed or hid the control that had it). */
export function focusLost() {
  const el = document.activeElement;
  return !el || el === document.body || !el.isConnected || el.closest("[hidden]") !== null;
}

/** Focus the first of `candidates` (elements or null) that can take it; whether one did. */
export function focusFirst(...candidates) {
  for (const el of candidates) {
    if (!el || el.disabled || el.closest("[hidden]")) continue;
    el.focus();
    if (document.activeElement === el) return true;
  }
  return false;
}

/** Give the focus back to the control at `spot` (or its nearest neighbour) if it was lost. */
export function restoreFocus(spot) {
  if (!spot?.list || !focusLost()) return;
  const all = [...document.querySelectorAll(spot.list)];
  focusFirst(...all.slice(spot.index), ...all.slice(0, spot.index).reverse());
}
