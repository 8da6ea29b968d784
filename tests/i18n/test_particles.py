"""Korean particles chosen by the sound before them (#24): ``render`` picks 은/는, 이/가,
을/를 and 과/와 after a filled-in word as docs/translating/ko.md says, on the same cases
the browser's messages.js is tested on (tests/i18n/korean_particles.json, read by
tests/js/particles.test.mjs through tests/test_js_client.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from sequence_stacks.i18n import render, set_language, translation
from sequence_stacks.i18n.render import particle, with_particles

CASES: Final = json.loads((Path(__file__).parent / "korean_particles.json").read_text())["cases"]


@pytest.mark.parametrize(("word", "pair", "expected"), CASES)
def test_a_particle_takes_the_form_of_the_sound_before_it(
    word: str, pair: str, expected: str
) -> None:
    assert particle(word, pair) == expected


def test_only_a_particle_right_after_a_placeholder_is_chosen() -> None:
    text = "{player}은(는) {card}이(가) 좋아요. 은(는) {{player}}을(를)"
    args: dict[str, Any] = {"player": "민수", "card": "파란색 3"}
    assert with_particles(text, args) == "{player}는 {card}이 좋아요. 은(는) {{player}}을(를)"


@pytest.fixture
def korean() -> Iterator[None]:
    set_language("ko")
    yield
    set_language("en")


@pytest.mark.usefixtures("korean")
def test_the_korean_log_reads_without_the_two_form_fallback() -> None:
    template = translation("ko").text("log.CardsDrawn.refill", 2)
    assert "{player}은(는)" in template  # the catalog writes both forms
    assert render("log.CardsDrawn.refill", player="민수", count=2).startswith("민수는 ")
    assert render("log.CardsDrawn.refill", player="지은", count=2).startswith("지은은 ")
    assert render("log.CardsDrawn.refill", player="Ann", count=2).startswith("Ann은(는) ")
