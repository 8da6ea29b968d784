"""The rule book as blocks (#14): the Markdown subset of i18n/rules/*.md, parsed for the
in-game help, loses no rule and keeps bold, code, nesting and tables."""

from __future__ import annotations

import re
from typing import Any

from starlette.testclient import TestClient

from sequence_stacks.i18n.languages import LANGUAGES
from sequence_stacks.i18n.rulebook import RULES_DIR, parse, rule_book, rules_path, runs
from sequence_stacks.server import MemoryStorage, ServerSettings, create_app


def _texts(blocks: list[dict[str, Any]]) -> list[str]:
    """Every run's text, in order."""
    found: list[str] = []

    def items(entries: list[dict[str, Any]]) -> None:
        for item in entries:
            found.extend(run["text"] for run in item["runs"])
            items(item["items"])

    for block in blocks:
        if block["type"] == "ul":
            items(block["items"])
        elif block["type"] == "table":
            for row in [block["header"], *block["rows"]]:
                for cell in row:
                    found.extend(run["text"] for run in cell)
        else:
            found.extend(run["text"] for run in block["runs"])
    return found


def test_every_rule_of_the_english_book_is_in_its_blocks() -> None:
    source = (RULES_DIR / "en.md").read_text()
    book = rule_book("en")
    assert book["language"] == "en"
    text = "\n".join(_texts(book["blocks"]))
    wanted = {f"R{number}" for number in range(1, 42)}
    assert set(re.findall(r"\*\*(R\d+)\b", source)) == wanted
    assert wanted <= set(re.findall(r"\bR\d+\b", text))
    # Every word of the source survives (markup aside).
    words = re.findall(r"[A-Za-z0-9]+", source.replace("**", ""))
    assert sorted(words) == sorted(re.findall(r"[A-Za-z0-9]+", text))


def test_block_types_of_the_english_book() -> None:
    blocks = rule_book("en")["blocks"]
    kinds = [block["type"] for block in blocks]
    assert kinds[0] == "h1"
    assert kinds.count("h2") == 9
    assert kinds[-1] == "table"
    rule_one = next(
        b for b in blocks if b["type"] == "ul" and "R1" in b["items"][0]["runs"][0]["text"]
    )
    first = rule_one["items"][0]
    assert first["runs"][0] == {
        "text": "R1 [P] Deck, 3\u20136 players: 120 cards.",
        "bold": True,
        "code": False,
    }
    assert len(first["items"]) == 3  # nested, each going on over indented lines
    assert first["items"][0]["runs"][0]["text"].endswith(
        "(45 cards) and seven wild cards of that colour (7 cards). 104 coloured cards in all."
    )


def test_inline_runs() -> None:
    assert runs("a **b** `c` d") == [
        {"text": "a ", "bold": False, "code": False},
        {"text": "b", "bold": True, "code": False},
        {"text": " ", "bold": False, "code": False},
        {"text": "c", "bold": False, "code": True},
        {"text": " d", "bold": False, "code": False},
    ]
    assert runs("**x `y=1` z**") == [
        {"text": "x ", "bold": True, "code": False},
        {"text": "y=1", "bold": True, "code": True},
        {"text": " z", "bold": True, "code": False},
    ]
    assert runs("`**not bold**`") == [{"text": "**not bold**", "bold": False, "code": True}]


def test_a_small_book() -> None:
    blocks = parse(
        "# Title\n\nOne line\ngoes on.\n\n## Part\n\n- a\n  - b\n    more b\n- c\n\n"
        "| x | y |\n| --- | --- |\n| `1` | **2** |\n| 3 | 4 |\n\nAfter.\n"
    )
    assert [b["type"] for b in blocks] == ["h1", "p", "h2", "ul", "table", "p"]
    assert blocks[1]["runs"] == [{"text": "One line goes on.", "bold": False, "code": False}]
    items = blocks[3]["items"]
    assert [i["runs"][0]["text"] for i in items] == ["a", "c"]
    assert items[0]["items"][0]["runs"][0]["text"] == "b more b"
    table = blocks[4]
    assert [cell[0]["text"] for cell in table["header"]] == ["x", "y"]
    assert table["rows"][0] == [
        [{"text": "1", "bold": False, "code": True}],
        [{"text": "2", "bold": True, "code": False}],
    ]
    assert len(table["rows"]) == 2


def test_a_language_without_its_own_book_reads_english() -> None:
    assert rules_path("xx").name == "en.md"
    for code in LANGUAGES:
        path = rules_path(code)
        assert path.name in (f"{code}.md", "en.md")
        assert rule_book(code)["language"] == path.stem


def test_the_server_sends_the_rule_book_in_the_readers_language() -> None:
    with TestClient(create_app(ServerSettings(), storage=MemoryStorage())) as client:
        english = client.get("/api/rules")
        assert english.status_code == 200
        assert english.json() == rule_book("en")
        assert "ETag" in english.headers
        for code in LANGUAGES:
            data = client.get(f"/api/rules?lang={code}").json()
            assert data["language"] == rules_path(code).stem
            data = client.get("/api/rules", headers={"accept-language": code}).json()
            assert data["language"] == rules_path(code).stem
        assert client.get("/api/rules?lang=<x>").json()["language"] == "en"
        again = client.get("/api/rules", headers={"if-none-match": english.headers["ETag"]})
        assert again.status_code == 304
