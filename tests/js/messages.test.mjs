// t(): named placeholders, CLDR plural choice, numbers in the page's language, and no
// throw whatever a template or its arguments lack. Needs no fixtures.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { STATIC } from "./fixtures.mjs";

const { formatNumber, has, setWords, t } = await import(new URL("messages.js", STATIC));

const MESSAGES = {
  "hello": { forms: { other: "Hello {player}, meet {other}." }, count: null },
  "drew": { forms: { one: "{player} drew {count} card.", other: "{player} drew {count} cards." }, count: "count" },
  "pile": { forms: { one: "{pile}: {n} card", other: "{pile}: {n} cards" }, count: "n" },
  "cards": { forms: { one: "one card", other: "some cards" }, count: "count" },
  "braces": { forms: { other: "{{literal}} and {name}" }, count: null },
  // Slovenian's four forms, as its catalog gives them by CLDR category.
  "sl": { forms: { one: "{count} karta", two: "{count} karti", few: "{count} karte", other: "{count} kart" }, count: "count" },
};

function use(lang) {
  setWords({ messages: MESSAGES, catalog: null, lang });
}

describe("t", () => {
  beforeEach(() => use("en"));

  test("fills named placeholders", () => {
    assert.equal(t("hello", { player: "Ann", other: "Bob" }), "Hello Ann, meet Bob.");
  });

  test("a name that looks like markup or a placeholder stays text", () => {
    assert.equal(t("hello", { player: "<b>{other}</b>", other: "$&" }), "Hello <b>{other}</b>, meet $&.");
  });

  test("English: one for 1, other for 0, 2 and 21", () => {
    assert.equal(t("drew", { player: "Ann", count: 1 }), "Ann drew 1 card.");
    assert.equal(t("drew", { player: "Ann", count: 0 }), "Ann drew 0 cards.");
    assert.equal(t("drew", { player: "Ann", count: 2 }), "Ann drew 2 cards.");
    assert.equal(t("drew", { player: "Ann", count: 21 }), "Ann drew 21 cards.");
  });

  test("the count placeholder is the one the message names", () => {
    assert.equal(t("pile", { pile: "blue pile 1", n: 1 }), "blue pile 1: 1 card");
    assert.equal(t("pile", { pile: "blue pile 1", n: 3 }), "blue pile 1: 3 cards");
  });

  test("the plural form follows the language's CLDR rules (Intl.PluralRules)", () => {
    const forms = () => [0, 1, 2, 5, 21].map((count) => t("cards", { count }));
    assert.deepEqual(forms(), ["some cards", "one card", "some cards", "some cards", "some cards"]);
    use("fr"); // French: 0 and 1 are "one"
    assert.deepEqual(forms(), ["one card", "one card", "some cards", "some cards", "some cards"]);
    use("ru"); // Russian: 21 is "one", 2 "few", 5 "many": only "one" takes the first form
    assert.deepEqual(forms(), ["some cards", "one card", "some cards", "some cards", "one card"]);
    use("ja"); // Japanese: always "other"
    assert.deepEqual(forms(), ["some cards", "some cards", "some cards", "some cards", "some cards"]);
  });

  test("a language with four forms picks each by its category (Slovenian)", () => {
    use("sl");
    const forms = [1, 2, 3, 4, 5, 0, 101, 102, 103, 111].map((count) => t("sl", { count }));
    assert.deepEqual(forms, [
      "1 karta", "2 karti", "3 karte", "4 karte", "5 kart", "0 kart", "101 karta", "102 karti", "103 karte", "111 kart",
    ]);
  });

  test("numbers are written in the page's language", () => {
    assert.equal(t("drew", { player: "Ann", count: 1234 }), "Ann drew 1,234 cards.");
    assert.equal(formatNumber(1234), "1,234");
    use("de");
    assert.equal(formatNumber(1234), "1.234");
  });

  test("doubled braces are literal braces, as in Python's format", () => {
    assert.equal(t("braces", { name: "x" }), "{literal} and x");
  });

  test("a missing placeholder stays visible and is reported, never thrown", (context) => {
    const error = context.mock.method(console, "error", () => {});
    assert.equal(t("hello", { player: "Ann" }), "Hello Ann, meet {other}.");
    assert.equal(t("hello"), "Hello {player}, meet {other}.");
    assert.equal(t("hello", { player: null, other: undefined }), "Hello {player}, meet {other}.");
    assert.equal(error.mock.callCount(), 5);
  });

  test("a missing count or an unknown key is reported, never thrown", (context) => {
    const error = context.mock.method(console, "error", () => {});
    assert.equal(t("drew", { player: "Ann" }), "Ann drew {count} cards.");
    assert.equal(t("drew", { player: "Ann", count: "two" }), "Ann drew two cards.");
    assert.equal(t("no.such.key", { a: 1 }), "no.such.key");
    assert.equal(has("no.such.key"), false);
    assert.ok(error.mock.callCount() >= 3);
  });

  test("an unknown key with no words loaded at all still returns text", (context) => {
    context.mock.method(console, "error", () => {});
    setWords({ messages: null, catalog: null });
    assert.equal(t("drew", { count: 2 }), "drew");
  });
});
