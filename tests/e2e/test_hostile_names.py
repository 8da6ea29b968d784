"""Hostile display names in real browsers under the server's Content-Security-Policy (#12).

Six players take a table with names that are markup, entities and quotes: one through
the table page's own form, five through the HTTP API. Python plays every seat through
the WebSocket (holding Steal cards back) until some seat may play Steal-a-Card and some
seat Steal-a-Chip; then a browser page takes that seat, opens the choices, which list
the other players by name, and plays the steal. A spectator watches the whole game.

Every place a name is shown is checked on the real pages: the lobby list, the seats
(lobby and game), the game log, the Steal choices, the end screen and the replay. The
names must show literally (textContent), no element may have been made from one, no
payload may have run, and no page may report a CSP violation, console error or
uncaught exception (the rules help is opened too). Screenshots at desktop and phone
size go to artifacts/hostile-*.png. A second test checks the security headers.
"""

from __future__ import annotations

import contextlib
import functools
import random
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page
from websockets.sync.client import ClientConnection, connect

from .conftest import ARTIFACTS, ServerProcess, running_server
from .seat_sockets import SeatSocket, pass_window, post, reached

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

# At most 24 printable characters each (the server's limit); single spaces only, as
# the server normalises whitespace. Seat 0 types its name into the table page's form.
NAMES = [
    "<img src=x onerror=f()>",
    "<script>x()</script>",
    '"><svg onload=f()>',
    "&lt;b&gt;&amp;",
    'O\'Hara "Q" `${x()}`',
    "<a href=javascript:f()>",
]
STEALS = ("SCARD", "SCHIP")

# Runs before any page script (Playwright injects it through DevTools, so the CSP does
# not apply to it): every CSP violation and every call of a payload's function is
# reported to Python, which survives reloads.
WATCH = """
(() => {
  const report = (kind, detail) => window.__hostileReport(kind, String(detail));
  document.addEventListener("securitypolicyviolation", (e) =>
    report("csp", `${e.violatedDirective} blocked=${e.blockedURI} sample=${e.sample}`), true);
  window.f = () => report("payload", "f() ran");
  window.x = () => report("payload", "x() ran");
})();
"""

# Elements or attributes that only markup made from a name could have created: the
# client makes no iframe/object/embed and no img but its QR codes' (one each, in the
# page's HTML), no inline handler, no javascript: URL, only its 24x24 aria-hidden icons
# as svg, and only its one module script per page.
INJECTED = """
() => {
  const QR_BOXES = ["move-code", "device-code"];
  const found = [];
  for (const el of document.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      if (attr.name.startsWith("on")) found.push(`${el.tagName} has ${attr.name}`);
      if (/^\\s*javascript:/i.test(attr.value)) found.push(`${el.tagName} ${attr.name}: js`);
    }
  }
  for (const el of document.querySelectorAll("img, iframe, object, embed, frame, base")) {
    // The page's own QR code of a seat's move link (#26): written in its HTML, its
    // source only ever the server's SVG data URI.
    const box = el.parentElement;
    const ownQr = el.tagName === "IMG" && QR_BOXES.includes(box.id)
      && document.querySelectorAll(`#${box.id}`).length === 1
      && box.querySelectorAll("img").length === 1
      && (!el.getAttribute("src") || el.getAttribute("src").startsWith("data:image/svg+xml"));
    if (!ownQr) found.push(`a ${el.tagName} element`);
  }
  for (const el of document.querySelectorAll("svg"))
    if (el.getAttribute("viewBox") !== "0 0 24 24" || el.getAttribute("aria-hidden") !== "true")
      found.push("an svg that is not an icon");
  for (const el of document.querySelectorAll("script"))
    if (!el.src.includes("/static/") || el.parentElement !== document.head || el.text.trim())
      found.push("a script element that is not the page's module");
  return found;
}
"""


class Watched:
    """A browser context and page whose problems are all recorded."""

    def __init__(self, browser: Browser, label: str, viewport: dict[str, int]) -> None:
        self.label = label
        self.viewport = viewport
        self.context: BrowserContext = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        self.problems: list[str] = []
        self.context.expose_binding("__hostileReport", self._report)
        self.context.add_init_script(WATCH)
        self.page: Page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.problems.append(f"pageerror: {error}"))
        self.page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def _report(self, source: Any, kind: str, detail: str) -> None:
        self.problems.append(f"{kind}: {detail}")

    def goto(self, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None
        assert response.ok, (url, response.status)
        _check_headers(response.headers, url)

    def inspect(self, where: str) -> None:
        """Record elements that only an injection could have made."""
        for found in self.page.evaluate(INJECTED):
            self.problems.append(f"{where}: {found}")

    def texts(self, selector: str) -> list[str]:
        found: list[str] = self.page.eval_on_selector_all(
            selector, "els => els.map((el) => el.textContent)"
        )
        return found

    def shot(self, name: str, *, phone: bool = True, scroll_to: str | None = None) -> None:
        """Desktop and phone screenshots (artifacts/hostile-NAME-desktop/phone.png)."""
        sizes = [("desktop", DESKTOP), ("phone", PHONE)] if phone else [("desktop", DESKTOP)]
        for size, viewport in sizes:
            self.page.set_viewport_size(viewport)  # type: ignore[arg-type]
            if scroll_to:
                self.page.locator(scroll_to).scroll_into_view_if_needed()
            self.page.screenshot(path=str(ARTIFACTS / f"hostile-{name}-{size}.png"))
        self.page.set_viewport_size(self.viewport)  # type: ignore[arg-type]

    def ui(self) -> dict[str, Any]:
        data: dict[str, Any] = self.page.evaluate(
            "() => { const s = window.sequenceStacks; return {you: s.game.you,"
            " version: s.socket.version, status: s.game.table && s.game.table.status}; }"
        )
        return data

    def close(self) -> None:
        self.context.close()


def _check_headers(headers: dict[str, str], url: str) -> None:
    lower = {name.lower(): value for name, value in headers.items()}
    policy = lower.get("content-security-policy", "")
    directives = {part.strip().split(" ", 1)[0]: part.strip() for part in policy.split(";")}
    assert directives.get("script-src") == "script-src 'self'", (url, policy)
    assert directives.get("style-src") == "style-src 'self'", (url, policy)
    assert directives.get("object-src") == "object-src 'none'", (url, policy)
    assert directives.get("frame-ancestors") == "frame-ancestors 'none'", (url, policy)
    assert directives.get("default-src") == "default-src 'self'", (url, policy)
    assert lower.get("x-content-type-options") == "nosniff", url
    assert lower.get("referrer-policy", "") not in ("", "unsafe-url"), url


# --- playing every seat through the WebSocket ----------------------------------------


class Seat(SeatSocket):
    """One seat's own WebSocket connection (seat_sockets.SeatSocket), its hostile name
    checked as the server tells it back."""

    def __init__(self, ws: ClientConnection, seat: int, token: str) -> None:
        super().__init__(ws, seat, token)
        assert self.table["seats"][seat]["name"] == NAMES[seat]


def _kind(action: str) -> str:
    return action.removeprefix("^").split(">")[0]


def _choose(legal: list[str], keep_steals: bool, rng: random.Random) -> str:
    """Any play, then a discard; Steal cards are neither played nor discarded while
    ``keep_steals`` (played or discarded, they are gone: only the pool is reshuffled, R22)."""
    plays = [a for a in legal if a not in ("pass", "block", "end") and not a.startswith("disc")]
    if keep_steals:
        plays = [a for a in plays if _kind(a) not in STEALS]
    if plays:
        return rng.choice(plays)
    if "end" in legal:
        return "end"
    discards = [a for a in legal if a.startswith("discard ")]
    kept = [a for a in discards if a.removeprefix("discard ") not in STEALS]
    return rng.choice(kept if keep_steals and kept else discards)


def _label(action: str, names: list[str]) -> str:
    """The choice button's text for a steal, as table.js words it."""
    target = action.split(">")[1][1:]
    if _kind(action) == "SCARD":
        return f"Steal {names[int(target)]}'s top discard"
    seat, colour = target.split(":")
    return f"Take a {'blue' if colour == 'B' else 'red'} chip from {names[int(seat)]}"


# --- the test ----------------------------------------------------------------------


@pytest.fixture
def fast_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """The e2e server with a rate limit Python's machine-speed players never reach."""
    env = {
        "SEQUENCE_STACKS_BOT_DELAY": "0.02,0.08",
        "SEQUENCE_STACKS_BOT_BLOCK_DELAY": "0.05,0.2",
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "6",
        "SEQUENCE_STACKS_TURN_TIMEOUT": "120",
        "SEQUENCE_STACKS_GRACE_PERIOD": "120",
        "SEQUENCE_STACKS_RATE_PER_SECOND": "1000",
        "SEQUENCE_STACKS_RATE_BURST": "1000",
    }
    with running_server(tmp_path, env) as process:
        yield process


def _check(problems: list[str], where: str, got: object, expected: object) -> None:
    if got != expected:
        problems.append(f"{where}: shown {got!r}, expected {expected!r}")


class Game:
    """The six seats played from Python, and one browser page that can take any seat."""

    def __init__(
        self,
        server: ServerProcess,
        table_id: str,
        tokens: list[str],
        player: Watched,
        stack: contextlib.ExitStack,
    ) -> None:
        self.table_id = table_id
        self.tokens = tokens
        self.player = player
        url = f"ws://127.0.0.1:{server.port}/ws/{table_id}"
        self.seats = [
            Seat(stack.enter_context(connect(url)), i, token) for i, token in enumerate(tokens)
        ]
        self.rng = random.Random(12)
        self.checked: dict[str, str] = {}  # kind -> the steal played in the browser
        self.newest = 0  # the newest version made by the browser
        self.problems: list[str] = []

    def settle(self) -> None:
        """Wait until every seat has seen the newest version."""
        newest = max(self.newest, *(seat.version for seat in self.seats))
        for seat in self.seats:
            seat.wait(functools.partial(reached, seat, newest))

    def play_to_the_end(self, max_steps: int = 3000) -> None:
        for _ in range(max_steps):
            self.settle()
            first = self.seats[0]
            assert first.view is not None
            view = first.view
            if first.table["status"] == "over":
                return
            if view["phase"] == "block_window":
                pass_window(self.seats)
                continue
            seat = self.seats[view["current"]]
            legal = seat.legal()
            due = [
                kind
                for kind in STEALS
                if kind not in self.checked and any(a.startswith(kind + ">") for a in legal)
            ]
            if due:
                self.steal_in_browser(seat.seat, due[0], legal)
                continue
            keep = len(self.checked) < len(STEALS)
            seat.command("act", action=_choose(legal, keep, self.rng))
        raise AssertionError("the game did not end")

    def take_seat(self, seat: int) -> None:
        page = self.player.page
        if self.player.ui()["you"] != seat:
            page.evaluate(
                "([key, token]) => localStorage.setItem(key, token)",
                [f"sequence-stacks:token:{self.table_id}", self.tokens[seat]],
            )
            page.reload()
        page.wait_for_function(
            "([seat, version]) => { const s = window.sequenceStacks;"
            " return s && s.game.you === seat && s.socket.version === version; }",
            arg=[seat, self.seats[seat].version],
        )

    def steal_in_browser(self, seat: int, kind: str, legal: list[str]) -> None:
        """The browser takes ``seat``, opens the choices of its Steal card, plays one."""
        self.take_seat(seat)
        page = self.player.page
        names = [("You" if i == seat else name) for i, name in enumerate(NAMES)]
        steals = [a for a in legal if a.startswith(kind + ">")]
        victims = [int(a.split(">p")[1].split(":")[0]) for a in steals]
        page.locator(f'#hand .card[data-kind="{kind}"]:not([disabled])').first.click()
        page.wait_for_selector("#choices button.primary")
        # One button per steal, in the order of the legal actions, between the others.
        labels = self.player.texts("#choices button")
        shown = [label for label in labels if label.startswith(("Steal ", "Take a "))]
        _check(self.problems, f"{kind} choices", shown, [_label(a, names) for a in steals])
        if kind == "SCARD":  # the victims' discard piles light up too
            targets = page.eval_on_selector_all(
                "#seats .seat", "els => els.map((el) => !!el.querySelector('.discard.target'))"
            )
            _check(self.problems, "steal targets", targets, [i in victims for i in range(6)])
        seat_names = self.player.texts("#seats .seat .name")
        _check(self.problems, f"seats of seat {seat}", seat_names, names)
        # The seat's turn-timer note (made by script like the rest) counts down.
        page.wait_for_function(
            "() => /^turn timer \\d+s$/.test(document.querySelector('.seat.current .asked-note')"
            "?.textContent ?? '')"
        )
        self.player.inspect(f"{kind} choices")
        self.player.shot(f"steal-{kind.lower()}", scroll_to="#choices")
        # Play the first steal: the log then names its victim.
        before = self.player.ui()["version"]
        page.locator("#choices button").nth(labels.index(shown[0])).click()
        page.wait_for_function("v => window.sequenceStacks.socket.version > v", arg=before)
        self.newest = self.player.ui()["version"]
        self.checked[kind] = steals[0]
        self.player.inspect(f"after {kind}")
        log = self.player.texts("#log li")[-6:]
        victim = NAMES[victims[0]]
        if not any("steals" in line and f" from {victim}" in line for line in log):
            self.problems.append(f"{kind}: no log line names the victim {victim!r}: {log!r}")


class Scene:
    """The table, the three watched pages and every problem found on the way."""

    def __init__(self, server: ServerProcess, browser: Browser) -> None:
        self.server = server
        body = {"options": {"player_count": len(NAMES)}, "visibility": "public", "pace": "fast"}
        self.table_id: str = post(server, "/api/tables", body)["id"]
        self.table_url = f"{server.url}/t/{self.table_id}"
        self.player = Watched(browser, "player", DESKTOP)  # takes seat 0, later any seat
        self.spectator = Watched(browser, "spectator", DESKTOP)
        self.lobby = Watched(browser, "lobby", DESKTOP)
        self.problems: list[str] = []
        self.tokens: list[str] = []

    def check(self, where: str, got: object, expected: object) -> None:
        _check(self.problems, where, got, expected)

    def sit_everyone(self) -> None:
        """Seat 0 through the table page's form, seats 1-5 through the HTTP API."""
        page = self.player.page
        self.player.goto(self.table_url)
        page.fill("#join-name", NAMES[0])
        page.click("#join button")
        page.wait_for_selector("#start:not([hidden])")
        key = f"sequence-stacks:token:{self.table_id}"
        self.tokens = [page.evaluate("key => localStorage.getItem(key)", key)]
        path = f"/api/tables/{self.table_id}/seats"
        self.tokens += [post(self.server, path, {"name": name})["token"] for name in NAMES[1:]]

    def check_lobby_list(self, when: str) -> None:
        lobby = self.lobby
        lobby.goto(self.server.url + "/")
        lobby.page.wait_for_selector("#tables li")
        self.check(f"lobby list {when}", lobby.texts(".table-row .who"), [", ".join(NAMES)])
        lobby.inspect(f"lobby list {when}")

    def check_table_lobby(self) -> None:
        """The table page between games: the seats and the log of who sat down."""
        self.spectator.goto(self.table_url)
        for watched in (self.player, self.spectator):
            watched.page.wait_for_function(
                "n => document.querySelectorAll('.lobby-seat.human').length === n", arg=len(NAMES)
            )
            watched.inspect("table lobby")
        self.check("lobby seats", self.spectator.texts("#lobby-seats .seat-name"), NAMES)
        own = [NAMES[0] + " (you)", *NAMES[1:]]
        self.check("own lobby seats", self.player.texts("#lobby-seats .seat-name"), own)
        lines = [line for line in self.spectator.texts("#log li") if "takes a seat" in line]
        self.check("lobby log", lines, [f"{name} takes a seat." for name in NAMES])

    def play(self) -> Game:
        """Start; Python plays all six seats, the browser takes the stealing seats."""
        self.player.page.click("#start")
        self.spectator.page.wait_for_selector("#board:not([hidden])")
        self.check("game seats", self.spectator.texts("#seats .seat .name"), NAMES)
        self.check_lobby_list("during the game")
        with contextlib.ExitStack() as stack:
            game = Game(self.server, self.table_id, self.tokens, self.player, stack)
            for _ in range(4):  # a game may (rarely) end before both steals came up
                game.play_to_the_end()
                if len(game.checked) == len(STEALS):
                    break
                game.seats[0].command("start")
        self.problems += game.problems
        assert set(game.checked) == set(STEALS), f"not every steal came up: {game.checked}"
        return game

    def check_rules(self) -> None:
        """The rules help (built from data, not markup) opens with the summary for
        players, and "All the rules" shows the rules for players' sections (GET
        /api/rules/players, #24)."""
        page = self.spectator.page
        page.keyboard.press("?")
        page.wait_for_selector("#help[open] .rules-summary")
        self.check(
            "rules title", self.spectator.texts("#help h2"), ["How to play", "Using this page"]
        )
        page.click("#help .rules-switch")
        page.wait_for_selector("#help[open] .rule-book")
        title = "The rules of Sequence Stacks"
        self.check("rules title", self.spectator.texts("#help .rule-book h2"), [title])
        self.check("rules sections", len(self.spectator.texts("#help .rule-book h3")), 8)
        self.check("rules list items", len(self.spectator.texts("#help li")) > 25, True)
        self.spectator.inspect("rules")
        self.spectator.shot("rules", phone=False)
        page.click("#help .close")
        page.wait_for_selector("#help[open]", state="detached")

    def check_end(self, table: dict[str, Any]) -> None:
        winner = table["result"]["winner"]
        assert winner is not None, table["result"]
        wins = f"{NAMES[winner]} wins!"
        for watched in (self.player, self.spectator):
            watched.page.wait_for_selector("#result:not([hidden])")
            watched.inspect("end screen")
        you = self.player.ui()["you"]
        own = "You win!" if you == winner else wins
        self.check("end screen", self.spectator.texts("#result .text"), [wins])
        self.check("own end screen", self.player.texts("#result .text"), [own])
        self.check("end turn line", self.spectator.texts("#turn .text"), [wins])
        self.check("end seats", self.spectator.texts("#seats .seat .name"), NAMES)
        log = self.spectator.texts("#log li")
        self.check("last log line", log[-1:], [wins])
        self.problems += [
            f"log: no line names {n!r}" for n in NAMES if all(n not in x for x in log)
        ]

    def check_replay(self, table: dict[str, Any]) -> None:
        """The replay of the last game: it opens at the deal; its end, then the start."""
        spectator = self.spectator
        spectator.goto(f"{self.server.url}/replay/{self.table_id}/{table['game']}")
        spectator.page.wait_for_selector("#moves .move.current")
        spectator.page.click("#last")
        spectator.page.wait_for_function(
            "() => document.querySelector('#step').value === document.querySelector('#step').max"
        )
        wins = f"{NAMES[table['result']['winner']]} wins!"
        self.check("replay seats", spectator.texts("#replay-seats .seat .name"), NAMES)
        self.check("replay events", spectator.texts("#step-events li")[-1:], [wins])
        spectator.inspect("replay")
        spectator.shot("replay")
        spectator.page.click("#first")
        spectator.page.wait_for_function("() => document.querySelector('#step').value === '0'")
        self.check("replay seats at 0", spectator.texts("#replay-seats .seat .name"), NAMES)
        spectator.inspect("replay at step 0")

    def close(self) -> list[str]:
        for watched in (self.player, self.spectator, self.lobby):
            self.problems += [f"{watched.label}: {problem}" for problem in watched.problems]
            watched.close()
        return self.problems


def test_hostile_names_show_as_text_everywhere_and_run_nothing(
    fast_server: ServerProcess, browser: Browser
) -> None:
    scene = Scene(fast_server, browser)
    try:
        scene.sit_everyone()
        scene.check_lobby_list("before the game")
        scene.lobby.shot("lobby")
        scene.check_table_lobby()
        scene.spectator.shot("table-lobby", phone=False)
        scene.check_rules()
        game = scene.play()
        table = game.seats[0].table
        scene.check_end(table)
        scene.spectator.shot("end")
        scene.player.shot("end-player", phone=False)
        scene.check_replay(table)
    finally:
        problems = scene.close()
    assert not problems, "\n".join(problems)


def test_every_page_and_static_file_carries_the_security_headers(server: ServerProcess) -> None:
    table_id = post(server, "/api/tables", {"options": {}, "visibility": "unlisted"})["id"]
    paths = ["/", f"/t/{table_id}", f"/replay/{table_id}/1", "/static/table.js", "/static/app.css"]
    for path in paths:
        with urllib.request.urlopen(server.url + path, timeout=5) as response:
            assert response.status == 200, path
            _check_headers(dict(response.headers.items()), path)
