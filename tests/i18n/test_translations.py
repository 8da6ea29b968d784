"""Reading a catalog: forms by the catalog's plural rule, by CLDR category for the
browser, English for what a catalog lacks, numbers as the language writes them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sequence_stacks.i18n import render, set_language, translation, translations
from sequence_stacks.i18n.translations import category_indexes, messages_json

SLOVENIAN = r"""
msgid ""
msgstr ""
"Language: sl\n"
"Plural-Forms: nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || "
"n%100==4 ? 2 : 3);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgctxt "log.CardsDrawn.refill"
msgid "{player} drew {count} card."
msgid_plural "{player} drew {count} cards."
msgstr[0] "{player} je vlekel {count} karto."
msgstr[1] "{player} je vlekel {count} karti."
msgstr[2] "{player} je vlekel {count} karte."
msgstr[3] "{player} je vlekel {count} kart."

msgctxt "seat.you"
msgid "You"
msgstr "Ti"

#, fuzzy
msgctxt "table.rematch"
msgid "Rematch"
msgstr "Povratna"

msgctxt "table.start"
msgid "Start game"
msgstr ""
"""


@pytest.fixture
def slovenian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    folder = tmp_path / "sl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "sequence_stacks.po").write_text(SLOVENIAN, encoding="utf-8")
    monkeypatch.setattr(translations, "LOCALE_DIR", tmp_path)
    translation.cache_clear()
    yield
    set_language("en")
    translation.cache_clear()


@pytest.mark.usefixtures("slovenian")
def test_four_slovenian_forms_follow_the_catalogs_rule() -> None:
    assert set_language("sl-SI") == "sl"
    lines = [
        render("log.CardsDrawn.refill", player="Ana", count=n) for n in (1, 2, 3, 4, 5, 0, 101)
    ]
    assert lines == [
        "Ana je vlekel 1 karto.",
        "Ana je vlekel 2 karti.",
        "Ana je vlekel 3 karte.",
        "Ana je vlekel 4 karte.",
        "Ana je vlekel 5 kart.",
        "Ana je vlekel 0 kart.",
        "Ana je vlekel 101 karto.",
    ]
    assert render("seat.you") == "Ti"
    assert render("log.CardsDrawn.refill", player="Ana", count=1234) == "Ana je vlekel 1.234 kart."


@pytest.mark.usefixtures("slovenian")
def test_fuzzy_empty_or_missing_entries_are_english() -> None:
    set_language("sl")
    assert render("table.rematch") == "Rematch"  # fuzzy: not trusted
    assert render("table.start") == "Start game"  # empty
    assert render("table.your_turn") == "Your turn"  # not in the catalog
    assert not translation("sl").has("table.start")
    assert translation("sl").has("seat.you")


@pytest.mark.usefixtures("slovenian")
def test_the_browser_gets_forms_by_cldr_category() -> None:
    messages = messages_json("sl")
    assert messages["log.CardsDrawn.refill"]["forms"] == {
        "one": "{player} je vlekel {count} karto.",
        "two": "{player} je vlekel {count} karti.",
        "few": "{player} je vlekel {count} karte.",
        "other": "{player} je vlekel {count} kart.",
    }
    assert messages["seat.you"] == {"forms": {"other": "Ti"}, "count": None}
    english = messages["table.your_turn"]
    assert english == {"forms": {"other": "Your turn"}, "count": None}
    drew = messages_json("en")["log.CardsDrawn.refill"]["forms"]
    assert set(drew) == {"one", "other"}


def test_a_plural_rule_that_disagrees_with_cldr_is_refused() -> None:
    with pytest.raises(ValueError, match="CLDR"):
        category_indexes("sl", lambda n: 0 if n == 1 else 1)  # English's rule for Slovenian
    assert category_indexes("hi", lambda n: int(n > 1)) == {"one": 0, "other": 1}
    assert category_indexes("ko", lambda n: 0) == {"other": 0}


def test_an_unknown_language_is_english() -> None:
    assert set_language("xx") == "en"
    assert render("seat.you") == "You"
    assert translation("xx").language == "en"
