"""Rules for players (#24): the full rules the browser's "Rules" opens one tap past its
summary are in every language, whole (the English one's sections and list items), in
plain words: no rule ids, no option names, no [P]/[D] marks, no notes for developers;
and no message a player reads cites a rule id or calls a bot by its method's name."""

from __future__ import annotations

import json
import re
from typing import Any, Final

import pytest
from starlette.testclient import TestClient

from sequence_stacks.engine.settings import OPTION_RULES
from sequence_stacks.i18n import MESSAGES, translation
from sequence_stacks.i18n.languages import LANGUAGES
from sequence_stacks.i18n.rulebook import PLAYER_RULES_DIR, player_rules, player_rules_path
from sequence_stacks.server import MemoryStorage, ServerSettings, create_app

DEVELOPERS_WORDS: Final = re.compile(
    r"\bR\d+\b|\[P\]|\[D\]|\[P/D\]|seeds/|" + "|".join(re.escape(name) for name in OPTION_RULES)
)


def _shape(blocks: list[dict[str, Any]]) -> tuple[list[str], int]:
    """The headings' levels in order and the number of list items."""
    levels = [block["type"] for block in blocks if block["type"].startswith("h")]
    items = sum(len(block["items"]) for block in blocks if block["type"] == "ul")
    return levels, items


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_each_language_has_the_whole_rules_for_players(language: str) -> None:
    assert player_rules_path(language) == PLAYER_RULES_DIR / f"{language}.md"
    book = player_rules(language)
    assert book["language"] == language
    assert _shape(book["blocks"]) == _shape(player_rules("en")["blocks"])


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_rules_for_players_are_plain_words(language: str) -> None:
    text = json.dumps(player_rules(language), ensure_ascii=False)
    assert not DEVELOPERS_WORDS.findall(text)
    assert '"code": true' not in text


def test_the_server_sends_the_rules_for_players_in_the_readers_language() -> None:
    with TestClient(create_app(ServerSettings(), storage=MemoryStorage())) as client:
        answer = client.get("/api/rules/players", headers={"accept-language": "sl"})
        assert answer.status_code == 200
        assert answer.json() == player_rules("sl")


# Notation a player types in the terminal (B3>1, ^R2>2) names cards, not rules.
NOTATION: Final = {"term.plain.cmd.notation"}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_no_message_cites_a_rule_id_or_a_method_name(language: str) -> None:
    words = translation(language)
    found = [
        (key, form)
        for key in MESSAGES
        if key not in NOTATION
        for form in words.forms(key).values()
        if re.search(r"\bR\d+\b|ISMCTS", form)
    ]
    assert found == []
