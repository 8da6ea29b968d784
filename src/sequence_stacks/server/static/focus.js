// Where the keyboard focus goes on the table page (#15). A render replaces the hand, the
// piles, the seats and the choices: the control that had the focus gets it back (its
// place in its list); table.js moves it on after an action.

const LISTS = ["#hand .card", "#piles .pile", "#seats .discard", "#choices button", "#lobby-seats button", ".chat-buttons button"];

/** The focused control's place, `{ list, index }`, if it is in one of the rebuilt lists. */
export function focusSpot() {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  for (const list of LISTS) {
    const index = [...document.querySelectorAll(list)].indexOf(el);
    if (index >= 0) return { list, index };
  }
  return null;
}

/** True when nothing has the focus (a render removed the control that had it). */
export function focusLost() {
  const el = document.activeElement;
  return !el || el === document.body || !el.isConnected;
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
  if (!spot || !focusLost()) return;
  const all = [...document.querySelectorAll(spot.list)];
  focusFirst(...all.slice(spot.index), ...all.slice(0, spot.index).reverse());
}
