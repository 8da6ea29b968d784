// Every engine event kind renders to the same log line in the browser as in Python
// (sequence_stacks.i18n.render.event_line), from the message the server sends with the
// event and the same templates (#13, #23); and so does every table entry's own line.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { before, describe, test } from "node:test";

import { fixture, player, STATIC } from "./fixtures.mjs";

const { setWords } = await import(new URL("messages.js", STATIC));
const { ANIMALS, eventLine, kindName, line, refusalLine, slotName, tableName, tableTitle } = await import(new URL("words.js", STATIC));

let catalog;
let messages;

before(() => {
  messages = fixture("messages.json");
  catalog = fixture("catalog.json");
  setWords({ messages, catalog, lang: "en" });
});

describe("events", () => {
  test("every event kind of the catalog was sampled, and every event message", () => {
    const samples = fixture("events.json");
    const kinds = new Set(samples.map((sample) => sample.event.type));
    assert.deepEqual([...kinds].sort(), Object.keys(catalog.events).sort());
    const keys = new Set(samples.map((sample) => sample.event.message?.key).filter(Boolean));
    const wanted = Object.keys(messages).filter((key) => /^log\.[A-Z]/.test(key));
    assert.deepEqual(wanted.filter((key) => !keys.has(key)), []);
    assert.ok(samples.some((sample) => sample.redacted), "no redacted event was sampled");
  });

  test("each sample carries exactly the fields the catalog lists for its kind, and its message", () => {
    for (const { event } of fixture("events.json")) {
      const fields = Object.keys(event).filter((name) => name !== "type" && name !== "message").sort();
      assert.deepEqual(fields, [...catalog.events[event.type]].sort(), event.type);
      assert.ok(Object.hasOwn(event, "message"), event.type);
      assert.ok(!Object.hasOwn(event, "pile"), "a pile is named by its slot");
    }
  });

  test("the line equals Python's event_line", () => {
    for (const sample of fixture("events.json")) {
      assert.equal(eventLine(sample.event, player), sample.expected, JSON.stringify(sample.event));
    }
  });

  test("an event is never read through its text", () => {
    for (const sample of fixture("events.json")) {
      const poisoned = { ...sample.event, text: "NOT TO BE READ" };
      assert.equal(eventLine(poisoned, player), sample.expected);
    }
  });
});

describe("table entries", () => {
  test("each op's line, and a timed-out move's, equals Python's", () => {
    const samples = fixture("entries.json");
    for (const sample of samples) {
      const found = sample.entry.message;
      assert.equal(found ? line(found, player) : null, sample.expected, JSON.stringify(sample.entry));
    }
    assert.ok(samples.some((sample) => sample.entry.timed_out && sample.expected));
  });
});

describe("names from the catalog", () => {
  test("every card kind has a name from the messages", () => {
    const names = catalog.kinds.map((kind) => kindName(kind.index));
    assert.deepEqual(names.slice(0, 6), ["blue 1", "blue 2", "blue 3", "blue 4", "blue 5", "blue wild"]);
    assert.deepEqual(names.slice(12), ["Skip", "Reverse", "Steal-a-Card", "Block", "Steal-a-Chip"]);
  });

  test("every key the client builds from data exists", () => {
    const keys = [
      ...catalog.colours.map((colour) => `colour.${colour.key}`),
      ...catalog.kinds.filter((kind) => kind.action).map((kind) => `card.${kind.action}`),
      ...catalog.end_reasons.map((reason) => `end.${reason}`),
      ...catalog.draw_reasons.flatMap((reason) => [`log.CardsDrawn.${reason}`, `log.CardsDrawn.${reason}.seen`]),
      ...fixture("entries.json").map((sample) => sample.entry.message?.key).filter(Boolean),
    ];
    assert.deepEqual(keys.filter((key) => !Object.hasOwn(messages, key)), []);
  });

  test("a pile slot is named from the slots the server sends: its colour and number", () => {
    const slots = [{ colour: 0, index: 0 }, { colour: 0, index: 1 }, { colour: 1, index: 0 }, { colour: 1, index: 1 }];
    assert.deepEqual(slots.map((_, slot) => slotName(slots, slot)), ["blue pile 1", "blue pile 2", "red pile 1", "red pile 2"]);
  });
});

describe("friendly table names (#15)", () => {
  test("a table's name is an animal's, the same for the same id, and every animal is a message", () => {
    for (const animal of ANIMALS) assert.ok(Object.hasOwn(messages, `animal.${animal}`), animal);
    assert.equal(tableName("AbC123xyz"), tableName("AbC123xyz"));
    const names = new Set(["a", "b", "c", "AbC123xyz", "Zz9_-", "qwertyuiop", "x1", "x2"].map(tableName));
    assert.ok(names.size >= 4, `only ${names.size} names for 8 ids`);
    for (const name of names) assert.match(name, /^\S.* table$/);
  });

  test("a table's stored name is its name on every page, numbered when the animal repeats (#24)", () => {
    assert.equal(tableTitle("AbC123xyz", { pace: "relaxed", name: { animal: "owl", number: 1 } }), "Owl table");
    assert.equal(tableTitle("AbC123xyz", { pace: "fast", name: { animal: "owl", number: 3 } }), "Owl table 3");
    // A table stored before tables had names keeps the name its id picks.
    assert.equal(tableTitle("AbC123xyz", { pace: "normal" }), tableName("AbC123xyz"));
    assert.equal(tableTitle("AbC123xyz", undefined), tableName("AbC123xyz"));
  });
});

describe("the static client's messages", () => {
  // A key is a dotted literal of one of these families, anywhere in a script.
  const KEY = /["'`]((?:away|card|choice|colour|end|list|lobby|log|page|pile|prompt|refused|replay|rules|seat|settings|table)\.[A-Za-z0-9_.-]+)["'`]/g;
  const scripts = readdirSync(STATIC).filter((name) => name.endsWith(".js"));
  const pages = readdirSync(STATIC).filter((name) => name.endsWith(".html"));

  test("every literal key in the scripts is defined in messages.py", () => {
    const missing = [];
    let perColour = 0;
    for (const name of scripts) {
      const text = readFileSync(new URL(name, STATIC), "utf8");
      for (const found of text.matchAll(KEY)) {
        // coloured("pile.name", colour) names a message worded per colour (#14).
        const coloured = text.slice(Math.max(0, found.index - 9), found.index) === "coloured(";
        const keys = coloured ? [`${found[1]}.blue`, `${found[1]}.red`] : [found[1]];
        perColour += coloured ? 1 : 0;
        for (const key of keys) if (!Object.hasOwn(messages, key)) missing.push(`${name}: ${key}`);
      }
    }
    // A pile's name and the choices of a new pile and a stolen chip (the events' keys
    // worded per colour come from the server, with the events).
    assert.ok(perColour >= 3, `only ${perColour} keys worded per colour`);
    assert.deepEqual(missing, []);
  });

  test("every key of a page's data-t and data-t-attr is defined in messages.py (#14)", () => {
    assert.ok(pages.length >= 3, "the pages are copied beside the scripts");
    const missing = [];
    let found = 0;
    for (const name of pages) {
      const html = readFileSync(new URL(name, STATIC), "utf8");
      const keys = [...html.matchAll(/data-t="([^"]+)"/g)].map((m) => m[1]);
      for (const [, pairs] of html.matchAll(/data-t-attr="([^"]+)"/g)) {
        keys.push(...pairs.trim().split(/\s+/).map((pair) => pair.split(":")[1]));
      }
      found += keys.length;
      for (const key of keys) if (!Object.hasOwn(messages, key)) missing.push(`${name}: ${key}`);
    }
    assert.ok(found > 50, `only ${found} keys in the pages`);
    assert.deepEqual(missing, []);
  });
});

describe("refusals", () => {
  test("an illegal action's detail renders as Python renders it, for every illegal.* message", () => {
    const samples = fixture("refusals.json");
    assert.ok(samples.length >= 20);
    const player = (seat) => `Player ${seat + 1}`;
    for (const { detail, expected } of samples) {
      assert.equal(refusalLine({ code: "illegal", rule: "R37", detail }, player), expected, detail.key);
    }
  });

  test("every code the messages name renders, and players read no rule id (#24)", () => {
    const codes = Object.keys(messages).filter((key) => key.startsWith("refused.") && key !== "refused.with_rule");
    for (const key of codes) {
      const code = key.slice("refused.".length);
      assert.equal(refusalLine({ code, rule: null }, player), messages[key].forms.other);
      assert.equal(refusalLine({ code, rule: "R37" }, player), messages[key].forms.other);
    }
  });

  test("an illegal action's detail is rendered instead of the plain refusal", () => {
    const detail = { key: "log.Discarded", args: { player: 2, card: 119 } };
    assert.equal(refusalLine({ code: "illegal", rule: "R19", detail }, player), "Player 3 discards Steal-a-Chip.");
    assert.equal(refusalLine({ code: "illegal", rule: null }, player), messages["refused.illegal"].forms.other);
  });

  test("a stale command is told what changed, and a chip's colour picks its message (#14, #15)", () => {
    const stale = { code: "stale", rule: null, detail: { key: "refused.stale.timed_out", args: {} } };
    assert.equal(refusalLine(stale, player), messages["refused.stale.timed_out"].forms.other);
    const chip = { code: "illegal", rule: "R24", detail: { key: "illegal.no_chip", args: { victim: 1, colour: 1 } } };
    assert.equal(refusalLine(chip, player), "Player 2 has no red chip.");
  });

  test("a refused combination of options names them by the lobby's labels (#24)", () => {
    const frame = { code: "bad_request", rule: null, detail: { key: "settings.min_each_colour", args: { option: "min_each_colour", other_option: "chips_to_win" } } };
    const said = refusalLine(frame, player);
    assert.ok(said.includes(messages["page.lobby.min_each_colour"].forms.other), said);
    assert.ok(said.includes(messages["page.lobby.chips_to_win"].forms.other), said);
    assert.ok(!said.includes("min_each_colour"), said);
  });

  test("an unknown code or detail key falls back to words, never to the server's reason", () => {
    const frame = { code: "brand_new", rule: null, reason: "English from the server", detail: { key: "no.such", args: {} } };
    assert.equal(refusalLine(frame, player), messages["refused.bad_request"].forms.other);
  });
});
