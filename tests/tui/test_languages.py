"""The terminal game in each of its six languages (#14): snapshots of the Textual table
at 80x24 and of a ``--plain`` transcript, and how ``--lang`` and the locale environment
choose the language.

The snapshots show each catalog as it is: a message not translated yet reads English.
After translating, regenerate them all with one command::

    UPDATE_TUI_SNAPSHOTS=1 pytest tests/tui/test_languages.py

and review the diff (``tests/tui/snapshots/lang/``).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
from pathlib import Path

import pytest
from rich.cells import cell_len

from sequence_stacks.i18n import LANGUAGES, current_language, render, set_language
from sequence_stacks.tui import configure_play_parser
from sequence_stacks.tui.command import choose_language
from sequence_stacks.tui.plain import PlainGame
from sequence_stacks.tui.screens import HelpScreen

from .helpers import make_app, make_session, screen_text, settle

SNAPSHOTS = Path(__file__).parent / "snapshots" / "lang"
UPDATE = os.environ.get("UPDATE_TUI_SNAPSHOTS") == "1"
SIZE = (80, 24)


def _check(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if UPDATE:
        SNAPSHOTS.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}: run with UPDATE_TUI_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8")


def _table_and_help(language: str, tmp_path: Path) -> tuple[str, str]:
    set_language(language)
    app = make_app(make_session(players=3, seed=5), tmp_path)
    shots: list[str] = []

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("1")
            await app.screen.wait_for_refresh()
            await pilot.pause()
            shots.append(screen_text(app))
            await pilot.press("escape", "question_mark")
            assert isinstance(app.screen, HelpScreen)
            await app.screen.wait_for_refresh()
            await pilot.pause()
            shots.append(screen_text(app))

    asyncio.run(body())
    table, help_text = ("\n".join(line.rstrip() for line in s.splitlines()) + "\n" for s in shots)
    return table, help_text


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_table_at_80x24_in_each_language(language: str, tmp_path: Path) -> None:
    table, help_text = _table_and_help(language, tmp_path)
    lines = table.splitlines()
    assert len(lines) <= SIZE[1]
    assert all(cell_len(line) <= SIZE[0] for line in lines)
    # What a player needs is on the screen, in the language: the hand, the hint, the keys.
    assert render("term.hand.title") in table
    assert render("term.key.help") in lines[-1]
    assert render("term.key.quit") in lines[-1]
    assert render("term.help.keys") in help_text
    _check(f"table-{language}.txt", table)
    _check(f"help-{language}.txt", help_text)


def _transcript(language: str, tmp_path: Path) -> str:
    set_language(language)
    session = make_session(players=2, seed=21, options=["max_turns=6"])
    out = io.StringIO()
    script = "board\nhelp\n1\nxyz\n99\n" + "1\n" * 40 + "n\n"
    game = PlainGame(session, stdin=io.StringIO(script), stdout=out, save_path=tmp_path / "s.json")
    assert game.run() == 0
    return out.getvalue()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_plain_game_in_each_language(language: str, tmp_path: Path) -> None:
    text = _transcript(language, tmp_path)
    assert render("term.plain.moves") in text
    assert render("term.plain.commands") in text
    assert render("log.TurnStarted", turn=1, player=render("seat.numbered", number=0)) in text
    _check(f"plain-{language}.txt", text)


def test_translated_words_show_in_korean_and_hindi(tmp_path: Path) -> None:
    # Messages the catalogs already translate (card names, the log) reach the screen.
    for language, word in (("ko", "파란색"), ("hi", "नीला")):
        set_language(language)
        assert word in render("colour.blue"), "the catalog's word for blue changed"
        table, _ = _table_and_help(language, tmp_path)
        transcript = _transcript(language, tmp_path)
        assert word in table or any(render(f"term.letter.{c}") in table for c in ("blue", "red"))
        assert word in transcript


def _parse(*argv: str) -> argparse.Namespace:
    return configure_play_parser(argparse.ArgumentParser()).parse_args(argv)


def test_lang_chooses_the_language_and_an_unknown_code_is_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert choose_language(_parse("--lang", "ko").lang) == "ko"
    assert current_language() == "ko"
    assert choose_language(_parse("--lang", "hi-IN").lang) == "hi"
    assert choose_language(_parse("--lang", "xx").lang) == "en"
    assert render("term.hand.title") == "YOUR HAND"
    assert choose_language(_parse().lang) == "en"


def test_the_locale_environment_chooses_without_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "sl_SI.UTF-8")
    assert choose_language(None) == "sl"
    monkeypatch.setenv("LANGUAGE", "hy:en")
    assert choose_language(None) == "hy"
    assert choose_language("ms") == "ms"  # --lang wins over the environment
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert choose_language(None) == "en"


def test_play_help_explains_lang() -> None:
    out = io.StringIO()
    parser = configure_play_parser(argparse.ArgumentParser(prog="play"))
    parser.print_help(out)
    text = " ".join(out.getvalue().split())
    assert "--lang CODE" in text
    assert "ko (한국어)" in text
    assert "LC_MESSAGES" in text
    assert "English" in text
