"""The terminal game in each of its six languages (#14, #15): snapshots of the Textual
table (as it opens, with a card picked, and the help) at 80x24 and 120x40, checked to
fit whole, and of a ``--plain`` transcript; how ``--lang`` and the locale environment
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
from sequence_stacks.tui.app import WIDE_SIZE, PlayApp
from sequence_stacks.tui.cells import use_terminal_widths
from sequence_stacks.tui.command import choose_language
from sequence_stacks.tui.plain import PlainGame
from sequence_stacks.tui.screens import HelpScreen

from .helpers import make_app, make_session, screen_text, settle, wait_for

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


def _shots(language: str, size: tuple[int, int], tmp_path: Path) -> dict[str, str]:
    """The table, the table with a card picked, and the help, at ``size``."""
    set_language(language)
    app = make_app(make_session(players=3, seed=5), tmp_path)
    shots: dict[str, str] = {}

    def keep(name: str) -> None:
        text = screen_text(app)
        shots[name] = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"

    async def body() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            keep("table")
            await pilot.press("1")
            await app.screen.wait_for_refresh()
            await pilot.pause()
            keep("targets")
            await pilot.press("escape", "question_mark")
            assert isinstance(app.screen, HelpScreen)
            await app.screen.wait_for_refresh()
            await pilot.pause()
            keep("help")
            if UPDATE and language in {"ko", "hi"}:
                name = f"play-{language}-{size[0]}x{size[1]}.svg"
                await pilot.press("escape")
                await pilot.pause()
                app.save_screenshot(filename=name, path=str(SNAPSHOTS))

    asyncio.run(body())
    return shots


def _assert_fits(language: str, name: str, text: str, size: tuple[int, int]) -> None:
    """Nothing is cut: the screen's lines fit, the footer shows all its keys whole, and
    each panel's words are on it (in the language, measured in terminal cells)."""
    width, height = size
    lines = text.splitlines()
    assert len(lines) <= height
    assert all(cell_len(line) <= width for line in lines), (language, name)
    footer = lines[-1].rstrip()
    if name == "help":
        assert render("term.help.keys") in text
        assert footer.endswith(render("term.key.close_help"))
        return
    keys = ["help", "quit", "save"] + (["discard", "drop"] if name == "targets" else [])
    for key in [*keys, "bot_speed"]:
        assert render(f"term.key.{key}") in footer, (language, name, key, footer)
    assert footer.endswith(render("term.key.bot_speed"))  # the last key is whole
    for part in ("term.hand.title", "term.piles.title", "term.players.title"):
        assert render(part) in text, (language, name, part)
    for number in (1, 2, 3):
        assert render("seat.numbered", number=number) in text
    if name == "table" or width >= WIDE_SIZE[0]:
        assert render("term.log") in text, (language, name)  # the log, at full width
        assert render("log.TurnStarted", turn=1, player=render("seat.numbered", number=1)) in text


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_table_in_each_language_at_each_size(
    language: str, size: tuple[int, int], tmp_path: Path
) -> None:
    use_terminal_widths()  # measure as the terminal does (test_cells.py)
    shots = _shots(language, size, tmp_path)
    for name, text in shots.items():
        _assert_fits(language, name, text, size)
        _check(f"{name}-{language}-{size[0]}x{size[1]}.txt", text)


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
    assert render("log.TurnStarted", turn=1, player=render("seat.numbered", number=1)) in text
    _check(f"plain-{language}.txt", text)


def test_translated_words_show_in_korean_and_hindi(tmp_path: Path) -> None:
    # Messages the catalogs already translate (card names, the log) reach the screen.
    for language, word in (("ko", "파란색"), ("hi", "नीला")):
        set_language(language)
        assert word in render("colour.blue"), "the catalog's word for blue changed"
        table = _shots(language, SIZE, tmp_path)["table"]
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


def _last_line(app: PlayApp) -> str:
    """The screen's last line (the footer's keys)."""
    lines = screen_text(app).rstrip("\n").splitlines()
    return lines[-1] if lines else ""


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_summary_and_the_replay_fit_80x24(language: str, tmp_path: Path) -> None:
    use_terminal_widths()
    set_language(language)
    session = make_session(players=2, humans=0, seed=9, options=["max_turns=12"])
    app = make_app(session, tmp_path)
    shots: list[str] = []

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            # The footer is drawn after the summary (a busy machine shot it blank once).
            await wait_for(pilot, lambda: _last_line(app).strip() != "")
            shots.append(screen_text(app))
            await pilot.press("r")
            await wait_for(pilot, lambda: type(app.screen).__name__ == "ReplayScreen")
            await pilot.press("right", "right", "right")
            await app.screen.wait_for_refresh()
            await pilot.pause()
            await wait_for(pilot, lambda: _last_line(app).strip() != "")
            shots.append(screen_text(app))

    asyncio.run(body())
    summary, replay = shots
    for text in shots:
        lines = text.rstrip("\n").splitlines()
        assert len(lines) <= SIZE[1]
        assert all(cell_len(line) <= SIZE[0] for line in lines), language
    assert render("term.key.replay") in summary.splitlines()[-1]
    assert render("term.key.bot_speed") not in summary  # no bots left to hurry
    seed = render("term.summary.seed", seed="9")
    assert seed.partition(" (")[0] in summary  # told once the game is over (R36)
    footer = replay.rstrip("\n").splitlines()[-1].rstrip()
    assert render("term.key.next") in footer
    assert footer.endswith(render("term.key.help"))  # the last key is whole
    assert render("term.status.replay", step=3, count=session.step_count) in replay
    player = render("seat.numbered", number=1)
    assert render("log.TurnStarted", turn=1, player=player) in replay  # the log, wide
