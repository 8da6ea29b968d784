"""A table a family is at ease at (#24), in a real browser, at phone (390x844) and
desktop (1366x768) size, in Korean (Hangul) and Slovenian (Latin letters), Hindi for
large text:

- a Block window asks only who can block: a seat holding a Block chooses (Block or Let
  it go, the focus on Block, a countdown bar that shrinks), even over the log's open
  sheet; a seat with none sees what happened and the countdown with nothing to tap (its
  contrast scanned in both schemes);
- the rules' one-screen summary, each card with a drawn example, and the full rules for
  players one tap further, in plain words (no rule ids); cards told apart in greyscale
  over their whole face;
- the end of a game: the result and the standings at the top, the winner celebrated; the
  replay fits a phone and names the table as its page does;
- chat as a bubble at the sender's seat, the Log button marked until the log is read;
- a player back at a seat a bot kept hears what it did;
- the lobby: the pace and Play now's own number of players chosen, shown at the table; a
  refused combination of options named by the form's labels; the game's name in Latin
  letters; stored table names, the same on the list and at the table;
- the keyboard: the turn starts with the focus in the hand, the hand before the piles, a
  turn in at most four keys; at 150% text (911x512) the hand and the piles on screen;
- Korean particles chosen by the name (민수는, not 민수은(는)) and no "ISMCTS".

Screenshots: artifacts/family-*.png.
"""

from __future__ import annotations

import contextlib
import functools
import io
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from PIL import Image, ImageChops
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError
from websockets.sync.client import connect

from sequence_stacks.i18n import translation

from .conftest import ARTIFACTS, FAST_BOTS, NO_LIMITS, ServerProcess, running_server
from .play import wait_until
from .seat_sockets import PythonTable, SeatSocket, _choose, post, reached

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

PHONE: Final = {"width": 390, "height": 844}
DESKTOP: Final = {"width": 1366, "height": 768}
SIZES: Final = {"phone": PHONE, "desktop": DESKTOP}
# Each item at both sizes, in a language of each kind of script.
PAIRS: Final = [("phone", "ko"), ("desktop", "sl")]
AXE: Final = (
    Path(__file__).resolve().parents[1] / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
)
# axe's serious and critical violations within one element (the page's CSP does not
# govern DevTools).
RUN_AXE_ON: Final = """
async (selector) => (await axe.run(selector, { resultTypes: ["violations"] })).violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 4).join(", ")}`)
"""


def words(language: str, key: str, **args: Any) -> str:
    """A message in the language as Python fills it (the same template the page fills)."""
    count = args.get("count")
    text = translation(language).text(key, count if isinstance(count, int) else None)
    return text.format_map(args)


@pytest.fixture(scope="module")
def family(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module: fast bots, Block windows of 5 s at a normal pace (8 s
    relaxed, 3 s fast), a short grace period (a seat left alone goes to a bot after 2 s)."""
    env = {
        **FAST_BOTS,
        **NO_LIMITS,
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "5",
        "SEQUENCE_STACKS_TURN_TIMEOUT": "300",
        "SEQUENCE_STACKS_GRACE_PERIOD": "2",
        "SEQUENCE_STACKS_HEARTBEAT_INTERVAL": "300",
    }
    with running_server(tmp_path_factory.mktemp("family"), env) as process:
        yield process


class Reader:
    """One browser context at one size in one language, and the errors its pages had."""

    def __init__(self, browser: Browser, server: ServerProcess, size: str, language: str) -> None:
        self.server, self.size, self.language = server, size, language
        self.context: BrowserContext = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
        self.context.add_cookies([{"name": "lang", "value": language, "url": server.url}])
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def words(self, key: str, **args: Any) -> str:
        return words(self.language, key, **args)

    def goto(self, path: str) -> None:
        self.page.goto(self.server.url + path)
        self.page.wait_for_selector("#language:not([hidden]) option", state="attached")

    def take_seat(self, table_id: str, token: str) -> None:
        """Open a table's page holding a seat's token (as the browser that sat there)."""
        if not self.page.url.startswith(self.server.url):
            self.page.goto(self.server.url + "/static/app.css")
        self.page.evaluate(
            "([key, token]) => localStorage.setItem(key, token)",
            [f"sequence-stacks:token:{table_id}", token],
        )
        self.goto(f"/t/{table_id}")
        wait_until(self.page, "() => !!window.sequenceStacks?.game?.table")

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"family-{name}-{self.language}-{self.size}.png"))

    def scan(self, selector: str) -> list[str]:
        """axe-core's serious violations inside ``selector``, in both colour schemes."""
        if not AXE.exists():
            return []
        page = self.page
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.evaluate(AXE.read_text(encoding="utf-8"))
        found: list[str] = []
        for scheme in ("dark", "light"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(250)  # colours fade over .15 s
            found += [f"{scheme}: {v}" for v in page.evaluate(RUN_AXE_ON, selector)]
        page.emulate_media(color_scheme="dark")
        return found

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


@contextlib.contextmanager
def reading(browser: Browser, server: ServerProcess, size: str, language: str) -> Iterator[Reader]:
    reader = Reader(browser, server, size, language)
    try:
        yield reader
    finally:
        reader.close()


def _box(page: Page, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,"
        " width: r.width, height: r.height}; }",
        selector,
    )
    return box


def _on_screen(page: Page, selector: str) -> bool:
    box = _box(page, selector)
    size = page.viewport_size
    assert size is not None
    return (
        box["height"] > 0
        and box["top"] >= -1
        and box["left"] >= -1
        and box["bottom"] <= size["height"] + 1
        and box["right"] <= size["width"] + 1
    )


# --- 1 and 5: Block windows ask only who can block; never under the log's sheet ---------


def _split_window(table: PythonTable, time_left: float) -> tuple[int, int, float]:
    """Play until a Block window asks one seat that holds a Block and one that holds
    none, with ``time_left`` seconds of it to go; (holder, other, the window's end on
    ``time.monotonic``'s clock), nobody answered."""
    table.settle()
    if table.seats[0].table["status"] != "playing":
        table.seats[0].command("start")
    for _ in range(3000):
        table.settle()
        first = table.seats[0]
        assert first.view is not None
        view = first.view
        if first.table["status"] == "over":
            first.command("start")
            continue
        if view["phase"] == "block_window":
            pending = list(view["window_pending"])
            holders = [s for s in pending if "block" in table.seats[s].legal()]
            others = [s for s in pending if s not in holders]
            if holders and others and first.seconds_left() >= time_left:
                return holders[0], others[0], time.monotonic() + first.seconds_left()
            table.pass_window()
            continue
        table.move(lambda held: any(held) and not all(held))
    raise AssertionError("no Block window asked a holder and a seat without a Block")


def _check_holder(reader: Reader) -> None:
    """A seat holding a Block: the question, Block and Let it go (the focus on Block), the
    countdown and its bar shrinking; over the log's sheet when it is opened; Block."""
    page = reader.page
    page.wait_for_selector("#block-prompt[data-mode=choose]")
    text = page.locator("#block-prompt .text").inner_text()
    assert text.endswith(reader.words("prompt.block", player="", pile="").split()[-1]), text
    assert page.locator("#answer-block").is_visible()
    assert page.locator("#answer-pass").inner_text().startswith(reader.words("prompt.let_go"))
    wait_until(page, "() => document.activeElement.id === 'answer-block'", timeout=5)
    bar = (
        "() => Number(getComputedStyle(document.querySelector('#block-prompt .bar'))"
        ".getPropertyValue('--left'))"
    )
    before = page.evaluate(bar)
    page.wait_for_timeout(700)
    after = page.evaluate(bar)
    assert 0 < after < before, (before, after)
    assert before <= 1
    assert page.locator("#block-prompt [data-countdown]").inner_text().strip()
    for button in ("#answer-block", "#answer-pass"):
        box = _box(page, button)
        assert reader.size != "phone" or min(box["width"], box["height"]) >= 44, (button, box)
    log_open = "() => document.querySelector('#log-box').classList.contains('open')"
    if page.locator("#log-toggle").is_visible():  # a phone: the log's sheet opened over it
        if not page.evaluate(log_open):  # (still open from an earlier window's check)
            page.click("#log-toggle")
        wait_until(page, log_open)
    on_top = page.evaluate(
        """() => { const prompt = document.querySelector('#block-prompt');
        if (prompt.hidden || prompt.dataset.mode !== 'choose') return 'the window ended';
        const r = document.querySelector('#answer-block').getBoundingClientRect();
        const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (el && el.closest('#block-prompt')) return '';
        return el ? `${el.tagName.toLowerCase()}#${el.id}.${el.className}` : 'nothing'; }"""
    )
    assert not on_top, f"the Block prompt is under something: {on_top}"
    page.click("#answer-block")
    page.wait_for_selector("#block-prompt[data-mode=answered]")
    assert page.locator("#block-prompt .text").inner_text() == reader.words("prompt.answered_block")
    # Looked at after the tap: a screenshot can take seconds on a busy machine, which the
    # window's last seconds cannot spare (on a phone, the prompt over the log's sheet).
    reader.shot("prompt-answered")


def _check_watcher(reader: Reader, completer: str) -> None:
    """A seat with no Block: what happened and the countdown, nothing to tap, the focus
    left where it was; readable in both schemes."""
    page = reader.page
    page.wait_for_selector("#block-prompt[data-mode=watch]")
    text = page.locator("#block-prompt .text").inner_text()
    assert text.startswith(reader.words("prompt.watch", player=completer, pile="")[:6]), text
    assert completer in text
    assert not page.locator("#block-prompt button:visible").count()
    assert page.locator("#block-prompt [data-countdown]").inner_text().strip()
    assert not page.evaluate(
        "() => document.querySelector('#block-prompt').contains(document.activeElement)"
    )
    reader.shot("prompt-watch")
    assert not (found := reader.scan("#block-prompt")), found


@pytest.mark.parametrize("swap", [False, True], ids=["holder-phone", "holder-desktop"])
def test_a_block_window_asks_only_who_can_block(
    browser: Browser, family: ServerProcess, swap: bool
) -> None:
    """Two pages watch the table while Python plays it; when a window asks a seat with a
    Block and one without, each page takes one of them (its hello with that seat's token,
    as a browser holding it does) and shows the window as that seat sees it."""
    options = {"player_count": 3, "hand_size": 10, "chips_to_win": 10}
    # Relaxed: each window lasts 8 s, time for two pages to show it on a busy machine.
    table = PythonTable(family, options, ["Ann", "Bo", "Cy"], pace="relaxed")
    sizes = ("desktop", "phone") if swap else ("phone", "desktop")
    try:
        with (
            reading(browser, family, sizes[0], "ko") as chooser,
            reading(browser, family, sizes[1], "sl") as watcher,
        ):
            for reader in (chooser, watcher):
                reader.goto(f"/t/{table.table_id}")
                wait_until(reader.page, "() => !!window.sequenceStacks?.game?.table")
            for _ in range(3):
                holder, other, ends = _split_window(table, time_left=6.5)
                view = table.seats[0].view
                assert view is not None
                completer = table.seats[0].table["seats"][view["window_completer"]]["name"]
                for reader, seat in ((chooser, holder), (watcher, other)):
                    reader.page.evaluate(
                        "(t) => window.sequenceStacks.socket.reidentify(t)", table.tokens[seat]
                    )
                try:
                    _check_holder(chooser)
                    _check_watcher(watcher, completer)
                    break
                except (AssertionError, PlaywrightError):
                    # A failure while the window was open is the page's; one after its
                    # end is a machine too busy to look within it: look at the next one.
                    if time.monotonic() < ends:
                        raise
            else:
                raise AssertionError("three Block windows ended before the pages were looked at")
            # The window runs its whole time; then both prompts go.
            for reader in (chooser, watcher):
                reader.page.wait_for_selector("#block-prompt", state="hidden", timeout=15_000)
    finally:
        table.close()


# --- 2 and 3: the rules for players; cards in greyscale ---------------------------------


@pytest.mark.parametrize(("size", "language"), [*PAIRS, ("desktop", "hi"), ("phone", "sl")])
def test_the_rules_open_at_a_one_screen_summary_with_drawn_cards(
    browser: Browser, family: ServerProcess, size: str, language: str
) -> None:
    with reading(browser, family, size, language) as reader:
        page = reader.page
        reader.goto("/learn")
        page.wait_for_selector("#hand .card")
        page.keyboard.press("?")
        page.wait_for_selector("#help[open] .rules-summary")
        titles = page.locator("#help .rules-summary h3").all_inner_texts()
        assert titles == [
            reader.words(f"rules.{part}.title")
            for part in ("goal", "turn", "cards", "block", "win")
        ]
        rows = page.locator("#help .card-rows li")
        assert rows.count() == 7
        for index in range(7):  # each card with its drawn example (cards, arrows, chips)
            assert rows.nth(index).locator(".example .card").count() >= 1
        goal = reader.words("rules.win", count=5, each=2)
        assert page.locator("#help .rules-win p").inner_text() == goal
        # One screen: the summary's end is on it (a phone's screen, the desktop's dialog).
        end = page.evaluate(
            "() => document.querySelector('#help .rules-win').getBoundingClientRect().bottom"
        )
        assert end <= SIZES[size]["height"], f"the summary ends at {end}px"
        reader.shot("rules")
        page.click("#help .rules-switch")
        page.wait_for_selector("#help .rule-book")
        book = page.locator("#help .rule-book")
        assert book.get_attribute("lang") == language
        text = book.inner_text()
        for developers in ("R1", "piles_per_colour", "[D]"):
            assert developers not in text
        reader.shot("rules-full")
        page.click("#help .rules-switch")  # back to the summary
        page.wait_for_selector("#help .rules-summary")


def _grey(page: Page, selector: str) -> Image.Image:
    shot = page.locator(selector).first.screenshot(animations="disabled")
    return Image.open(io.BytesIO(shot)).convert("L")


@pytest.mark.parametrize(("size", "language"), PAIRS)
def test_cards_are_told_apart_in_greyscale_over_their_whole_face(
    browser: Browser, family: ServerProcess, size: str, language: str
) -> None:
    """A blue 4 and a red 4 of the first lesson's hand, in greyscale: they differ over
    most of the face (stripes and dots), not only at the corner's shape (#24)."""
    with reading(browser, family, size, language) as reader:
        page = reader.page
        reader.goto("/learn#1")
        page.wait_for_selector('#hand .card[data-kind="B4"]')
        page.wait_for_timeout(300)  # the hand's cards settle
        blue, red = (
            _grey(page, '#hand .card[data-kind="B4"]'),
            _grey(page, '#hand .card[data-kind="R4"]'),
        )
        red = red.resize(blue.size)
        difference = ImageChops.difference(blue, red).point(lambda value: 255 if value > 24 else 0)
        width, height = blue.size
        cells = 0
        for row in range(3):
            for column in range(3):
                cell = difference.crop(
                    (
                        column * width // 3,
                        row * height // 3,
                        (column + 1) * width // 3,
                        (row + 1) * height // 3,
                    )
                )
                area = cell.width * cell.height
                changed = (area - cell.histogram()[0]) / area  # pixels that differ
                cells += int(changed >= 0.05)
        assert cells >= 7, f"the two cards differ in {cells} of 9 parts of their face"


# --- 4: the end of a game; the replay; the same table name ------------------------------


def _play_to_the_end(table: PythonTable) -> None:
    rng = random.Random(24)
    for _ in range(3000):
        table.settle()
        first = table.seats[0]
        assert first.view is not None
        if first.table["status"] == "over":
            return
        if first.view["phase"] == "block_window":
            table.pass_window()
            continue
        seat = table.seats[first.view["current"]]
        seat.command("act", action=_choose(seat.legal(), rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("size", "language"), PAIRS)
def test_the_end_of_a_game_is_at_the_top_and_celebrated_and_the_replay_fits(
    browser: Browser, family: ServerProcess, size: str, language: str
) -> None:
    options = {"player_count": 2, "chips_to_win": 1, "min_each_colour": 0}
    table = PythonTable(family, options, ["Ann", "Bo"], pace="fast")
    try:
        with reading(browser, family, size, language) as reader:
            page = reader.page
            table.seats[0].command("start")
            reader.take_seat(table.table_id, table.tokens[0])
            page.wait_for_selector("#board:not([hidden])")
            title = page.locator("#table-title").inner_text()
            page.evaluate("() => scrollTo(0, 300)")
            _play_to_the_end(table)
            page.wait_for_selector("#result.celebrate .standings-table")
            wait_until(page, "() => scrollY === 0")
            assert _on_screen(page, "#result .text")
            assert _on_screen(page, "#result .standings-table")
            assert page.locator("#result .trophy").count() == 1
            assert page.locator(".confetti .piece").count() > 10
            assert page.locator("#hand-area").is_hidden()
            reader.shot("end")
            # The replay: one screen on a phone, the table named as its page names it.
            page.locator("#result a.replay-link").click()
            page.wait_for_selector("#moves .move")
            page.keyboard.press("End")
            page.wait_for_selector("#result:not([hidden]) .standings-table")
            assert page.locator("#replay-title").inner_text() == reader.words(
                "replay.title_named", name=title, game=1
            )
            height = page.evaluate("() => document.documentElement.scrollHeight")
            if size == "phone":
                assert height <= PHONE["height"], f"the replay is {height}px tall"
            assert _on_screen(page, ".controls #play")
            reader.shot("replay")
    finally:
        table.close()


# --- 4: chat at the seat ------------------------------------------------------------------


@pytest.mark.parametrize(("size", "language"), PAIRS)
def test_chat_shows_at_the_seat_and_marks_the_log_unread(
    browser: Browser, family: ServerProcess, size: str, language: str
) -> None:
    table = PythonTable(family, {"player_count": 2}, ["Ann", "Bo"], pace="relaxed")
    try:
        with reading(browser, family, size, language) as reader:
            page = reader.page
            table.seats[0].command("start")
            reader.take_seat(table.table_id, table.tokens[0])
            page.wait_for_selector("#hand .card")
            table.seats[1]._send({"type": "chat", "phrase": "good_luck"})
            bubble = page.locator('#seats .seat[data-seat="1"] .bubble')
            bubble.wait_for()
            assert bubble.inner_text() == reader.words("chat.good_luck")
            toggle = page.locator("#log-toggle")
            sheet = toggle.is_visible()  # a phone: the log is a sheet behind the Log button
            if sheet:
                assert "unread" in (toggle.get_attribute("class") or "")
                assert toggle.get_attribute("aria-label") == reader.words("page.table.log_unread")
            reader.shot("chat")
            assert not (found := reader.scan("#seats .bubble")), found
            # Still there after a move and two seconds (it used to go after 1.5 s).
            seat = table.seats[0]
            seat.command("act", action=_choose(seat.legal(), table.rng))
            page.wait_for_timeout(2000)
            assert bubble.is_visible()
            if sheet:
                toggle.click()
                wait_until(
                    page, "() => document.querySelector('#log-box').classList.contains('open')"
                )
                assert "unread" not in (toggle.get_attribute("class") or "")
                assert toggle.get_attribute("aria-label") == reader.words("page.table.log_button")
    finally:
        table.close()


# --- 5: back at a seat a bot kept --------------------------------------------------------


@pytest.mark.parametrize(("size", "language"), PAIRS)
def test_a_returning_player_hears_what_the_bot_did(
    browser: Browser, family: ServerProcess, size: str, language: str
) -> None:
    created = post(family, "/api/tables", {"options": {"player_count": 2}, "pace": "fast"})
    table_id = created["id"]
    ann = post(family, f"/api/tables/{table_id}/seats", {"name": "민수", "seat": 0})["token"]
    bo = post(family, f"/api/tables/{table_id}/seats", {"name": "Bo", "seat": 1})["token"]
    with connect(f"ws://127.0.0.1:{family.port}/ws/{table_id}") as socket:
        bob = SeatSocket(socket, 1, bo)
        with reading(browser, family, size, language) as first:
            first.take_seat(table_id, ann)
            bob.command("start")
            first.page.wait_for_selector("#board:not([hidden])")
        # Ann is gone: after the grace period a bot keeps her seat; Bo plays his turns
        # until the bot has played one of hers.
        rng = random.Random(5)
        kept = False
        deadline = time.monotonic() + 90
        while True:
            assert time.monotonic() < deadline, "the bot never played a turn for Ann"
            view = bob.view
            assert view is not None
            playing = view["phase"] == "playing" and bob.table["status"] == "playing"
            kept |= playing and view["current"] == 0 and bob.table["seats"][0]["kind"] == "bot"
            if kept and playing and view["current"] == 1:
                break
            if playing and view["current"] == 1:
                bob.command("act", action=_choose(bob.legal(), rng))
            else:
                bob.wait(functools.partial(reached, bob, bob.version + 1), timeout=30)
        with reading(browser, family, size, language) as back:
            back.take_seat(table_id, ann)
            back.page.wait_for_selector("#away:not([hidden])")
            lines = back.page.locator("#away li").all_inner_texts()
            assert back.page.locator("#away h2").inner_text() == back.words("away.title")
            turns = [back.words("away.turns", count=count) for count in range(1, 30)]
            assert lines[0] in turns, lines
            wait_until(back.page, "() => document.activeElement.id === 'away-ok'", timeout=5)
            back.shot("away")
            assert not (found := back.scan("#away")), found
            back.page.click("#away-ok")
            back.page.wait_for_selector("#away", state="hidden")


# --- 6, 8, 9: the lobby: pace, Play now's players, names, refusals ------------------------


@pytest.mark.parametrize(("size", "language"), PAIRS)
def test_the_lobby_chooses_pace_and_players_and_names_tables(
    browser: Browser, family: ServerProcess, size: str, language: str
) -> None:
    with reading(browser, family, size, language) as reader:
        page = reader.page
        reader.goto("/")
        assert page.locator("h1").inner_text().strip() == "Sequence Stacks"
        # A refused combination names the form's own labels, never the options' names.
        page.click("#create summary")
        page.fill("input[name=chips_to_win]", "3")
        page.fill("input[name=min_each_colour]", "2")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#create-error:not(:empty)")
        problem = page.locator("#create-error").inner_text()
        for label in ("page.lobby.min_each_colour", "page.lobby.chips_to_win"):
            assert reader.words(label) in problem, problem
        assert "min_each_colour" not in problem
        # A public table at a normal pace: its pace at the table, its name on the list.
        page.fill("input[name=chips_to_win]", "")
        page.fill("input[name=min_each_colour]", "")
        page.select_option("#create select[name=pace]", "normal")
        page.click("#create button[type=submit]")
        page.wait_for_url("**/t/**")
        wait_until(page, "() => !!window.sequenceStacks?.game?.table")
        assert page.locator("#pace").inner_text() == reader.words("table.pace.normal")
        name = page.locator("#table-title").inner_text()
        reader.goto("/")
        page.wait_for_selector("#tables .table-row a")
        listed = page.locator("#tables .table-row a").all_inner_texts()
        assert any(line.startswith(name) for line in listed), (name, listed)
        assert len({line.split(" · ")[0] for line in listed}) == len(listed), listed
        # Play now with its own number of players and a fast pace.
        page.select_option("#play-now select[name=players]", "3")
        assert page.locator("#quick-bots").inner_text() == reader.words(
            "page.lobby.quick_bots", count=2
        )
        page.select_option("#play-now select[name=pace]", "fast")
        page.fill("#play-now input[name=name]", "민수")
        page.click("#play-now button[type=submit]")
        page.wait_for_url("**/t/**")
        wait_until(page, "() => !!window.sequenceStacks?.game?.view")
        assert page.evaluate("window.sequenceStacks.game.view.hand_sizes.length") == 3
        assert page.locator("#pace").inner_text() == reader.words("table.pace.fast")
        reader.shot("play-now")


# --- 7, 8: the keyboard, large text, Korean particles, the Expert bot ---------------------


def _keys_for_a_turn(page: Page) -> int:
    """Play a turn with the keyboard alone from its start: select (Enter) and play
    (Enter) the focused card if it may go somewhere, then select a card (Enter) and
    discard it (D). The number of keys pressed."""
    keys = 0
    turn = page.evaluate("window.sequenceStacks.game.view.turn_count")
    wait_until(page, "() => document.activeElement.closest('#hand') !== null", timeout=10)
    page.keyboard.press("Enter")
    keys += 1
    # The selection moves the focus to the card's first place (or the discard) once the
    # board has drawn them.
    wait_until(page, "() => document.activeElement.closest('#hand') === null")
    focused = page.evaluate("document.activeElement.className")
    if focused.startswith(("pile", "discard", "primary")):
        before = page.evaluate("window.sequenceStacks.socket.version")
        page.keyboard.press("Enter")
        keys += 1
        page.wait_for_function("v => window.sequenceStacks.socket.version > v", arg=before)
        # Back in the hand once the board has drawn the move (the choices only when
        # the hand is empty: then End turn).
        wait_until(
            page,
            "() => document.activeElement.closest('#hand') !== null"
            " || (document.activeElement.closest('#choices') !== null"
            " && !document.querySelector('#hand .card:not([disabled])'))",
        )
        if page.evaluate("document.activeElement.closest('#hand') !== null"):
            page.keyboard.press("Enter")
            keys += 1
    before = page.evaluate("window.sequenceStacks.socket.version")
    page.keyboard.press("d")
    keys += 1
    # The discard is taken (the version moves on) and ends the turn: a bot may have
    # played its whole turn since, so the turn's count is what tells.
    page.wait_for_function("v => window.sequenceStacks.socket.version > v", arg=before)
    wait_until(
        page,
        f"() => {{ const v = window.sequenceStacks.game.view; return v.turn_count > {turn}"
        " || !!v.result; }",
    )
    return keys


@pytest.mark.parametrize(("size", "language"), PAIRS)
def test_a_turn_with_the_keyboard_and_korean_names(
    browser: Browser, family: ServerProcess, size: str, language: str
) -> None:
    with reading(browser, family, size, language) as reader:
        page = reader.page
        reader.goto("/")
        page.fill("#play-now input[name=name]", "민수")
        page.select_option("#play-now select[name=players]", "2")
        page.click("#play-now button[type=submit]")
        page.wait_for_url("**/t/**")
        page.wait_for_selector("#turn[data-mine=true]", timeout=30_000)
        # The hand comes before the piles for the keyboard.
        order = page.evaluate(
            "() => document.querySelector('#hand .card').compareDocumentPosition("
            "document.querySelector('#piles .pile')) & Node.DOCUMENT_POSITION_FOLLOWING"
        )
        assert order, "the piles come before the hand"
        assert _keys_for_a_turn(page) <= 4
        # Every name is Hangul or a bot's: no two-form particle is left in the log.
        log = " ".join(page.locator("#log li").all_inner_texts())
        if language == "ko":
            assert "민수 (나)는" in log or "민수 (나)이" in log or "민수 (나)가" in log, log
            for both_forms in ("은(는)", "이(가)"):
                assert both_forms not in log, log
        # The search bot is named for players.
        assert "ISMCTS" not in page.locator("body").inner_text()
        reader.shot("keyboard")


@pytest.mark.parametrize("language", ["hi", "sl"])
def test_large_text_keeps_the_hand_and_the_piles_on_a_desktop(
    browser: Browser, family: ServerProcess, language: str
) -> None:
    """1366x768 at 150%: 911x512 CSS pixels, each 1.5 device pixels."""
    context = browser.new_context(viewport={"width": 911, "height": 512}, device_scale_factor=1.5)
    try:
        context.add_cookies([{"name": "lang", "value": language, "url": family.url}])
        page = context.new_page()
        page.goto(family.url + "/")
        page.wait_for_selector("#language:not([hidden]) option", state="attached")
        page.select_option("#play-now select[name=players]", "4")
        page.click("#play-now button[type=submit]")
        page.wait_for_url("**/t/**")
        page.wait_for_selector("#turn[data-mine=true]", timeout=30_000)
        page.wait_for_timeout(300)
        for selector in ("#hand .card", "#piles .pile:last-child", "#turn"):
            assert _on_screen(page, selector), selector
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 911, f"the page is {width}px wide"
        page.screenshot(path=str(ARTIFACTS / f"family-large-text-{language}.png"))
    finally:
        context.close()
