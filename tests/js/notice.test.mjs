// The notice over the board (#15): shown for a while, hidden when clicked; a game's end
// takes away an event's notice (a steal's words over the result) and leaves others.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { STATIC } from "./fixtures.mjs";

const { Notice } = await import(new URL("notice.js", STATIC));

/** The little of an element Notice uses. */
function fakeBox() {
  const box = {
    hidden: true,
    className: "",
    textContent: "",
    listeners: {},
    addEventListener(type, listener) {
      box.listeners[type] = listener;
    },
    contains: () => false,
    classList: { contains: (name) => box.className.split(/\s+/u).includes(name) },
  };
  return box;
}

describe("Notice", () => {
  let box;
  let notice;
  beforeEach(() => {
    globalThis.document = { activeElement: null };
    box = fakeBox();
    notice = new Notice(box);
  });

  test("shows a text with its kind, and hides when clicked", () => {
    notice.show("Bo steals a blue chip from Ann.", "event");
    assert.equal(box.hidden, false);
    assert.equal(box.textContent, "Bo steals a blue chip from Ann.");
    assert.equal(box.className, "notice event");
    box.listeners.click();
    assert.equal(box.hidden, true);
    notice.hide();
  });

  test("hideKind hides an event's notice", () => {
    notice.show("Bo steals a blue chip from Ann.", "event");
    notice.hideKind("event");
    assert.equal(box.hidden, true);
  });

  test("hideKind leaves a notice of another kind", () => {
    notice.show("That card cannot go there.", "error");
    notice.hideKind("event");
    assert.equal(box.hidden, false);
    notice.hide();
  });

  test("hideKind of a hidden notice does nothing", () => {
    notice.hideKind("event");
    assert.equal(box.hidden, true);
  });
});
