// Korean particles chosen by the sound before them (#24): messages.js picks the forms
// on the same cases Python's i18n/render.py is tested on (tests/i18n/korean_particles.json).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { fixture, STATIC } from "./fixtures.mjs";

const { particle, setWords, t } = await import(new URL("messages.js", STATIC));

describe("particle", () => {
  for (const [word, pair, expected] of fixture("particles.json").cases) {
    test(`${word || "(nothing)"} + ${pair} -> ${expected}`, () => {
      assert.equal(particle(word, pair), expected);
    });
  }
});

describe("t with particles", () => {
  test("chooses the particle after a placeholder, keeps it elsewhere", () => {
    const messages = { drew: { forms: { other: "{player}은(는) {card}을(를) 뽑았어요. 은(는) {{x}}" }, count: null } };
    setWords({ messages, catalog: null, lang: "ko" });
    assert.equal(t("drew", { player: "민수 (나)", card: "파란색 3" }), "민수 (나)는 파란색 3을 뽑았어요. 은(는) {x}");
    assert.equal(t("drew", { player: "Ann", card: "빨간색 2" }), "Ann은(는) 빨간색 2를 뽑았어요. 은(는) {x}");
  });
});
