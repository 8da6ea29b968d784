"""Accessibility of every page, in a real browser (#15).

npm's axe-core (tests/a11y, installed by scripts/test) scans each page and state: the
lobby, the "no such table" page, a table watched before sitting (its join form), a table
before its start (seated), a game on the player's turn, a card selected, the rules
dialog, a Block prompt, the end screen with its standings and the replay (at its start
and at its end). English is scanned at desktop (1366x768) and phone (390x844) size in
the dark and the light colour scheme; Korean and Hindi at both sizes, each size in one
scheme (Korean: desktop dark, phone light; Hindi the other way round), which keeps the
test near half a minute. No violation may be serious or critical. On a phone every
visible control's box is at least 44x44 px (WCAG 2.5.8's exception for a link inside a
sentence excepted; a checkbox counts with the label that wraps it, as a tap on either
toggles it; a disabled control is no target).

axe-core goes into the page through DevTools (Playwright's evaluate), which the page's
Content-Security-Policy (script-src 'self', Trusted Types) does not govern: the pages
are scanned under the policy they are served with.

A second test plays with the keyboard alone and checks where the focus goes after each
action: a card played (the hand's next card, or the turn line when the turn is over), a
refusal (the notice), a Block prompt (its first live button) and its answer (the board);
that the log, a live region, only gains lines, and that "Your turn" is announced.
Screenshots of the lobby, the table in play, a Block prompt, the end and the replay in both
schemes at both sizes go to artifacts/a11y-<screen>-<scheme>-<size>.png.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .conftest import ARTIFACTS, FAST_BOTS, NO_LIMITS, ServerProcess, running_server
from .seat_sockets import PythonTable, SeatSocket

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(360)]

AXE: Final = (
    Path(__file__).resolve().parents[1] / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
)
# "zoom": the desktop at 200% zoom (its CSS pixels halve: 683x384, WCAG 1.4.4).
SIZES: Final = {
    "desktop": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844},
    "zoom": {"width": 683, "height": 384},
}
SCHEMES: Final = ("dark", "light")
LANGUAGES: Final = ("en", "ko", "hi")
SERIOUS: Final = ("serious", "critical")

# axe's violations, each rule with its impact and the elements it found.
RUN_AXE: Final = """
async () => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  return found.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary.replace(/\\s+/g, " ")}`),
  }));
}
"""

RUN_AXE_ON: Final = RUN_AXE.replace("axe.run(document,", "axe.run(selector,").replace(
    "async () =>", "async (selector) =>"
)

# An event's notice with a real line (the game's first log line), kept on screen.
SHOW_EVENT_NOTICE: Final = """
() => {
  const s = window.sequenceStacks;
  const line = document.querySelector("#log li:last-child").textContent;
  s.notice.show(line, "event");
  s.notice.keep();
}
"""

# A change of scheme fades buttons' backgrounds: scan the colours they end with.
TRANSITIONS_DONE: Final = """
() => Promise.race([
  Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition)
    .map((a) => a.finished.catch(() => null))),
  new Promise((done) => setTimeout(done, 500)),
])
"""

# The visible controls smaller than 44x44 px. A checkbox or radio is measured with the
# label around it; a link inside a sentence (text beside it in its block) is excepted.
SMALL_TARGETS: Final = """
() => {
  const small = [];
  const controls = "button, a[href], select, input:not([type=hidden]), textarea, summary,"
    + " [role=button], [tabindex]:not([tabindex='-1'])";
  for (const el of document.querySelectorAll(controls)) {
    if (el.disabled || el.closest("[inert]")) continue;
    let box = el;
    const label = el.closest("label");
    if (el.matches("input[type=checkbox], input[type=radio]") && label) box = label;
    const rect = box.getBoundingClientRect();
    if (!rect.width || !rect.height || getComputedStyle(box).visibility === "hidden") continue;
    if (el.closest("dialog:not([open]), details:not([open]) > :not(summary)")) continue;
    if (el.matches("a") && getComputedStyle(el).display === "inline") {
      const block = el.parentElement;
      const rest = block.textContent.replace(el.textContent, "").trim();
      if (rest) continue;  // a link within a sentence (WCAG 2.5.8: inline)
    }
    if (rect.width < 43.5 || rect.height < 43.5) {
      const name = (el.getAttribute("aria-label") || el.textContent || el.name || "").trim();
      const tag = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "");
      const size = `${Math.round(rect.width)}x${Math.round(rect.height)}`;
      small.push(`${tag}.${[...el.classList].join(".")} "${name.slice(0, 30)}" ${size}`);
    }
  }
  return small;
}
"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("axe-core is not installed (scripts/test runs npm ci in tests/a11y)")
        pytest.skip("axe-core is not installed: cd tests/a11y && npm ci")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def a11y_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module: fast bots, long timers, no limit Python's players reach."""
    env = {
        **FAST_BOTS,
        **NO_LIMITS,
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "12",
        # A seat's turn outlasts every scan of it (a fast table's turn is half of this).
        "SEQUENCE_STACKS_TURN_TIMEOUT": "1200",
        "SEQUENCE_STACKS_GRACE_PERIOD": "300",
        "SEQUENCE_STACKS_HEARTBEAT_INTERVAL": "300",  # Python's seats idle while pages are scanned
    }
    with running_server(tmp_path_factory.mktemp("a11y"), env) as process:
        yield process


# The sizes and schemes each language is scanned at: English at all four, Korean and
# Hindi at two each (every size and every scheme once), to keep the test short.
COMBINATIONS: Final = {
    "en": (
        ("desktop", "dark"),
        ("desktop", "light"),
        ("phone", "dark"),
        ("phone", "light"),
        ("zoom", "dark"),
        ("zoom", "light"),
    ),
    "ko": (("desktop", "dark"), ("phone", "light"), ("zoom", "light")),
    "hi": (("desktop", "light"), ("phone", "dark"), ("zoom", "dark")),
}


class Scanner:
    """One page that visits each state in each language and scans it; what it found is
    kept in ``problems``."""

    def __init__(self, browser: Browser, server: ServerProcess, axe: str) -> None:
        self.server = server
        self.axe = axe
        self.context: BrowserContext = browser.new_context(viewport=SIZES["desktop"])  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        self.problems: list[str] = []
        self.scans = 0

    def language(self, code: str) -> None:
        self.context.add_cookies([{"name": "lang", "value": code, "url": self.server.url}])

    def take_seat(self, table_id: str, token: str) -> None:
        self.page.evaluate(
            "([key, token]) => localStorage.setItem(key, token)",
            [f"sequence-stacks:token:{table_id}", token],
        )

    def inject(self) -> None:
        """axe-core into the page as it is now (once per page load)."""
        if not self.page.evaluate("typeof window.axe === 'object'"):
            self.page.evaluate(self.axe)

    def scan(self, state: str, language: str, *, shots: bool = False) -> None:
        """Scan the page as it is now at the language's sizes and schemes."""
        page = self.page
        self.inject()
        for size, scheme in COMBINATIONS[language]:
            page.set_viewport_size(SIZES[size])  # type: ignore[arg-type]
            page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            page.evaluate(TRANSITIONS_DONE)
            where = f"{state} [{language}, {size}, {scheme}]"
            for rule in page.evaluate(RUN_AXE):
                if rule["impact"] in SERIOUS:
                    nodes = "\n      ".join(rule["nodes"][:6])
                    self.problems.append(
                        f"{where}: {rule['impact']} {rule['id']} ({rule['help']})\n      {nodes}"
                    )
            self.scans += 1
            if shots:
                page.screenshot(path=str(ARTIFACTS / f"a11y-{state}-{scheme}-{size}.png"))
            if size == "phone":
                for small in page.evaluate(SMALL_TARGETS):
                    self.problems.append(f"{where}: a tap target under 44x44 px: {small}")
        page.set_viewport_size(SIZES["desktop"])  # type: ignore[arg-type]
        page.emulate_media(color_scheme="dark")

    def close(self) -> None:
        self.context.close()


def _ready(page: Page) -> None:
    """The page's words are in (the language menu is filled once they are)."""
    page.wait_for_selector("#language:not([hidden]) option", state="attached")


def _table_ready(page: Page, condition: str) -> None:
    _ready(page)
    page.wait_for_function(
        "() => { const s = window.sequenceStacks; const ui = s && s.game;"
        f" return !!ui && !!ui.table && ({condition}); }}"
    )


def _play_to(
    table: PythonTable,
    done: Callable[[dict[str, Any], dict[str, Any]], bool],
    max_steps: int = 3000,
) -> None:
    """Play every seat from Python (passing every Block window) until ``done(view, table)``."""
    for _ in range(max_steps):
        table.settle()
        first = table.seats[0]
        assert first.view is not None
        if done(first.view, first.table):
            return
        view = first.view
        assert first.table["status"] != "over", "the game ended first"
        if view["phase"] == "block_window":
            table.pass_window()
            continue
        seat = table.seats[view["current"]]
        seat.command("act", action=_choice(seat))
    raise AssertionError("not reached")


def _seen(seat: SeatSocket, version: int) -> bool:
    return seat.version >= version


def _choice(seat: SeatSocket) -> str:
    """The first play, else End turn, else the first discard."""
    legal = seat.legal()
    plays = [a for a in legal if a not in ("pass", "block", "end") and not a.startswith("disc")]
    if plays:
        return plays[0]
    return "end" if "end" in legal else next(a for a in legal if a.startswith("discard "))


class States:
    """The tables whose states are scanned: Python plays their seats, the page takes one.
    ``game`` waits in its lobby, then is started on the first seat's turn; ``block``
    holds a Block window that asks a seat holding a Block; ``short`` is over."""

    def __init__(self, server: ServerProcess, scanner: Scanner) -> None:
        self.server = server
        self.scanner = scanner
        self.page = scanner.page
        self.stack = contextlib.ExitStack()
        # The rule book's five chips (two of each colour): a game this module plays on for
        # several turns must not end before the page's last turn (R32).
        self.game = self._table({"player_count": 2})
        self.block = self._table(
            {"player_count": 3, "hand_size": 10, "chips_to_win": 10}, pace="relaxed"
        )
        self.short = self._table({"player_count": 2, "chips_to_win": 1, "min_each_colour": 0})
        self.open = self._table({"player_count": 3}, seated=2)
        self.short.seats[0].command("start")
        _play_to(self.short, lambda view, table: table["status"] == "over")

    def _table(self, options: dict[str, Any], seated: int = 3, pace: str = "fast") -> PythonTable:
        names = ["Ann", "Bo", "Cy"][: min(seated, options["player_count"])]
        table = PythonTable(self.server, options, names, pace=pace)
        self.stack.callback(table.close)
        return table

    def start_the_game(self, seen: int = 0) -> None:
        """Start the game (if not yet) and play it to the first seat's turn; the seats
        first see version ``seen`` (a move the page made)."""
        for seat in self.game.seats:
            seat.wait(functools.partial(_seen, seat, seen))
        if self.game.seats[0].table["status"] == "lobby":
            self.game.seats[0].command("start")
        _play_to(self.game, lambda view, table: view["phase"] == "playing" and view["current"] == 0)

    def goto(self, path: str) -> None:
        self.page.goto(self.server.url + path)

    def sit(self, table: PythonTable, seat: int, condition: str = "true") -> None:
        if not self.page.url.startswith(self.server.url):
            self.goto("/static/app.css")  # the origin, for its localStorage
        self.scanner.take_seat(table.table_id, table.tokens[seat])
        self.goto(f"/t/{table.table_id}")
        _table_ready(self.page, f"ui.you === {seat} && ({condition})")

    # --- the states: a name and what to scan there, in order (each `None` loads anew) ---

    def lobby(self) -> Iterator[str]:
        self.goto("/")
        _ready(self.page)
        self.page.wait_for_selector("#tables li")
        yield "lobby"

    def missing(self) -> Iterator[str]:
        self.goto("/t/nosuch")
        _ready(self.page)
        yield "missing"

    def watching(self) -> Iterator[str]:
        self.goto(f"/t/{self.open.table_id}")
        _table_ready(self.page, "ui.you === null")
        self.page.wait_for_selector("#join:not([hidden])")
        yield "watching"

    def seated(self) -> Iterator[str]:
        self.sit(self.game, 0, "ui.table.status === 'lobby'")
        yield "seated"

    def playing(self) -> Iterator[str]:
        page = self.page
        self.sit(self.game, 0, "ui.view && ui.view.current === 0 && ui.view.phase === 'playing'")
        page.wait_for_selector("#turn[data-mine=true]")
        yield "your-turn"
        page.locator("#hand .card:not([disabled])").first.click()
        page.wait_for_selector("#choices button.discard")
        yield "card-selected"
        page.keyboard.press("Escape")
        # A transient notice (#24: an event's was dark on navy in the light scheme), kept
        # while it is scanned: a real event's line, as a steal or a Block shows it.
        page.evaluate(SHOW_EVENT_NOTICE)
        page.wait_for_selector("#notice.event:not([hidden])")
        yield "notice-event"
        page.evaluate("window.sequenceStacks.notice.hide()")
        page.click("#help-open")
        page.wait_for_selector("#help[open] .rules-summary")
        yield "rules"
        page.click("#help .rules-switch")
        page.wait_for_selector("#help[open] .rule-book")
        yield "rules-full"

    def block_window(self) -> int:
        """A Block window open now that asks a seat holding a Block; that seat (the
        window lasts its whole time from now: the page must take the seat in it)."""
        return self.block.play_until_a_block_is_held(time_left=12.0)

    def block_prompt(self) -> Iterator[str]:
        self.sit(self.block, self.block_window(), "ui.view && ui.view.phase === 'block_window'")
        self.page.wait_for_selector("#block-prompt:not([hidden])")
        yield "block-prompt"

    def end(self) -> Iterator[str]:
        self.sit(self.short, 0, "ui.table.status === 'over'")
        self.page.wait_for_selector("#result:not([hidden]) .standings-table")
        yield "end"

    def replay(self) -> Iterator[str]:
        self.goto(f"/replay/{self.short.table_id}/{self.short.seats[0].table['game']}")
        _ready(self.page)
        self.page.wait_for_selector("#moves .move")
        yield "replay-start"
        self.page.keyboard.press("End")
        self.page.wait_for_selector("#result:not([hidden]) .standings-table")
        yield "replay-end"


@pytest.fixture(scope="module")
def scanner(browser: Browser, a11y_server: ServerProcess, axe_source: str) -> Iterator[Scanner]:
    found = Scanner(browser, a11y_server, axe_source)
    yield found
    found.close()


@pytest.fixture(scope="module")
def states(a11y_server: ServerProcess, scanner: Scanner) -> Iterator[States]:
    prepared = States(a11y_server, scanner)
    with prepared.stack:
        yield prepared


SHOTS: Final = {
    "lobby",
    "your-turn",
    "notice-event",
    "rules",
    "block-prompt",
    "end",
    "replay-start",
}


def _scan_all(scanner: Scanner, visits: list[Callable[[], Iterator[str]]]) -> None:
    """Visit each state in each language and scan it; no serious problem found."""
    found = len(scanner.problems) + len(scanner.errors)
    scans = scanner.scans
    for language in LANGUAGES:
        scanner.language(language)
        for visit in visits:
            for name in visit():
                scanner.scan(name, language, shots=language == "en" and name in SHOTS)
    scanner.language("en")
    problems = (scanner.problems + scanner.errors)[found:]
    assert scanner.scans > scans
    assert not problems, f"{len(problems)} problems in {scanner.scans - scans} scans:\n" + (
        "\n".join(problems)
    )


def test_every_page_before_a_game_has_no_serious_violation_and_big_targets(
    scanner: Scanner, states: States
) -> None:
    _scan_all(scanner, [states.lobby, states.missing, states.watching, states.seated])


def test_every_state_of_a_game_has_no_serious_violation_and_big_targets(
    scanner: Scanner, states: States
) -> None:
    states.start_the_game()
    _scan_all(scanner, [states.playing, states.block_prompt, states.end, states.replay])


# --- the focus, with the keyboard alone -------------------------------------------------

FOCUSED: Final = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return "body";
  return el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
}
"""


# Counts the log's added and removed lines from now on.
WATCH_LOG: Final = """
() => {
  window.logChanges = { added: 0, removed: 0 };
  new MutationObserver((records) => {
    for (const record of records) {
      window.logChanges.added += record.addedNodes.length;
      window.logChanges.removed += record.removedNodes.length;
    }
  }).observe(document.querySelector("#log"), { childList: true });
}
"""


def _focused(page: Page) -> str:
    found: str = page.evaluate(FOCUSED)
    return found


def _version(page: Page) -> int:
    found: int = page.evaluate("window.sequenceStacks.socket.version")
    return found


def _wait_focus(page: Page, expected: Callable[[str], bool], what: str) -> str:
    for _ in range(100):
        focused = _focused(page)
        if expected(focused):
            return focused
        page.wait_for_timeout(30)
    raise AssertionError(f"{what}: the focus is on {focused}")


def _on_board(focused: str) -> bool:
    return focused == "#turn" or focused.startswith(("button.card", "button.primary"))


def _sit_down_and_start(page: Page, states: States) -> None:
    """Sitting down goes on to Start, Start to the board."""
    states.goto(f"/t/{states.open.table_id}")
    _table_ready(page, "ui.you === null")
    page.fill("#join-name", "Di")
    page.focus("#join-name")
    page.keyboard.press("Enter")
    _wait_focus(page, lambda f: f == "#start", "after sitting down")
    page.keyboard.press("Enter")
    _wait_focus(page, _on_board, "after the game started")


def _in_places(focused: str) -> bool:
    """The focus is on a place the selected card may go (#24): a lit pile, a discard to
    steal from, or one of its choices (never the discard, which ends the turn)."""
    return focused.startswith(("button.pile.", "button.discard.", "button.primary", "button.ghost"))


def _play_a_card(page: Page, states: States) -> None:
    """The turn begins with the focus in the hand (#24). The arrows move in the hand; a
    card's number key selects it and takes the focus to its first place (never the
    discard); Escape lets it go, the focus back on it; Enter selects it again, to its
    first place; a last Enter plays it: the focus goes on; the log only gains lines;
    "Your turn" is emptied when it ends."""
    states.start_the_game()
    states.sit(states.game, 0, "ui.view && ui.view.current === 0 && ui.view.phase === 'playing'")
    page.wait_for_selector("#turn[data-mine=true]")
    _wait_focus(page, lambda f: f.startswith("button.card"), "at the turn's start")
    index = "document.activeElement.dataset.index"
    first = page.evaluate(index)
    cards = page.locator("#hand .card:not([disabled])").count()
    page.keyboard.press("ArrowRight")
    assert _focused(page).startswith("button.card"), _focused(page)
    assert (page.evaluate(index) != first) == (cards > 1), (first, cards)
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(index) == first
    page.keyboard.press("1")
    _wait_focus(page, _in_places, "after a card's number key")
    page.keyboard.press("Escape")
    page.wait_for_selector("#choices button.discard", state="detached")
    assert _focused(page).startswith("button.card"), _focused(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("#choices button.discard")
    focused = _wait_focus(page, _in_places, "after Enter on a card")
    page.evaluate(WATCH_LOG)
    before = _version(page)
    if focused.startswith("button.ghost"):  # a card that may only be discarded: D
        page.keyboard.press("d")
    else:
        page.keyboard.press("Enter")
    page.wait_for_function("v => window.sequenceStacks.socket.version > v", arg=before)
    _wait_focus(page, _on_board, "after a card was played")
    if page.get_attribute("#turn", "data-mine") != "true":  # no longer your turn: unsaid
        page.wait_for_function("() => document.querySelector('#announce').textContent === ''")
    changes = page.evaluate("window.logChanges")
    assert changes["added"] >= 1, changes
    assert changes["removed"] == 0, changes


def _refusal(page: Page, states: States, scanner: Scanner) -> None:
    """On the next turn ("Your turn" said in the assertive live region), a command the
    server refuses (a stale page's): its notice has the focus, reads in both schemes, and
    Escape gives the focus back to the board."""
    states.start_the_game(seen=_version(page))
    page.wait_for_selector("#turn[data-mine=true]")
    page.wait_for_function(
        "() => document.querySelector('#announce').textContent === 'Your turn'", timeout=5_000
    )
    page.evaluate("window.sequenceStacks.socket.command('act', {action_id: 99999})")
    page.wait_for_selector("#notice.error:not([hidden])")
    _wait_focus(page, lambda f: f == "#notice", "after a refusal")
    scanner.inject()
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        page.evaluate(TRANSITIONS_DONE)
        found = page.evaluate(RUN_AXE_ON, "#notice")
        assert not [rule for rule in found if rule["impact"] in SERIOUS], (scheme, found)
    page.emulate_media(color_scheme="dark")
    page.keyboard.press("Escape")
    page.wait_for_selector("#notice", state="hidden")
    _wait_focus(page, _on_board, "after the notice went")


def _block(page: Page, states: States) -> None:
    """The Block prompt: its Block button has the focus; Enter blocks; back to the board."""
    states.sit(states.block, states.block_window(), "ui.view && ui.view.phase === 'block_window'")
    page.wait_for_selector("#block-prompt:not([hidden])")
    _wait_focus(page, lambda f: f == "#answer-block", "when the Block prompt opened")
    page.keyboard.press("Enter")
    page.wait_for_selector("#block-prompt", state="hidden")
    _wait_focus(page, _on_board, "after the Block prompt closed")


def test_the_focus_follows_each_action_made_with_the_keyboard(
    scanner: Scanner, states: States
) -> None:
    """Sitting down goes on to Start, Start to the board; a card played to the next card
    (or the turn line), a refusal to its notice (Escape gives it back to the board), a
    Block prompt to its Block button, and its answer back to the board."""
    page = scanner.page
    _sit_down_and_start(page, states)
    _play_a_card(page, states)
    _refusal(page, states, scanner)
    _block(page, states)
