"""Accounts in a real browser (#26): Chromium with a virtual passkey authenticator
(CDP ``WebAuthn.addVirtualAuthenticator``, one per browser context, as two devices).

- Sign up with a passkey, sign out, sign in again with it; add a second device with
  the one-time code the first shows; sign that device out from the first.
- A turn-based game of two accounts (and a bot) over simulated days, each closing and
  reopening the page: the seats wait, "My games" puts the games waiting for you first,
  the page's title counts them; a Block window asks both players with the same
  deadline, the prompt differing only by the reader's own hand.
- The service worker's push handler shows a notice (CDP
  ``ServiceWorker.deliverPushMessage``) that opens the game.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page

from sequence_stacks.i18n.translations import translation
from server.harness import FAST

from .accounts_server import LiveServer, live_server
from .conftest import ARTIFACTS
from .play import Tab, answer_window, pass_window, step, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

SCREENS = ARTIFACTS / "accounts"
DESKTOP = {"width": 1180, "height": 860}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    settings = dataclasses.replace(
        FAST,
        bot_delay=(0.05, 0.1),
        bot_block_delay=(0.05, 0.2),
        block_timeout=2.0,
        vapid_key=str(tmp_path / "vapid.pem"),
    )
    with live_server(tmp_path, settings) as server:
        yield server


def _shot(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


@dataclasses.dataclass
class Device:
    """A browser (its own cookies) with a platform passkey authenticator."""

    context: BrowserContext
    page: Page
    cdp: CDPSession
    authenticator: str

    def passkeys(self) -> list[dict[str, Any]]:
        found = self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})
        credentials: list[dict[str, Any]] = found["credentials"]
        return credentials


def _device(browser: Browser) -> Device:
    """A new browser with a passkey authenticator of its own (a phone, a laptop)."""
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return Device(context, page, cdp, str(added["authenticatorId"]))


def _sign_up(page: Page, url: str, name: str) -> None:
    page.goto(url + "/account")
    page.wait_for_selector("#signed-out:not([hidden])")
    page.fill("#sign-up input[name=name]", name)
    page.click("#sign-up button[type=submit]")
    page.wait_for_selector("#signed-in:not([hidden])", timeout=15_000)


def _sessions(page: Page) -> int:
    return page.locator("#sessions li").count()


def test_passkey_sign_up_sign_in_second_device_and_revoke(
    live: LiveServer, browser: Browser
) -> None:
    phone, laptop = _device(browser), _device(browser)
    phone_page, laptop_page = phone.page, laptop.page
    try:
        _sign_up(phone_page, live.url, "Ann")
        assert phone_page.input_value("#profile input[name=name]") == "Ann"
        _shot(phone_page, "account-signed-in")
        # The session cookie is HttpOnly: no script on the page can read it.
        assert "session" not in phone_page.evaluate("document.cookie")
        # Sign out, then in again with the same passkey (a discoverable one: no name asked).
        phone_page.click("#sign-out")
        phone_page.wait_for_selector("#signed-out:not([hidden])")
        (passkey,) = phone.passkeys()
        assert passkey["isResidentCredential"]
        phone_page.click("#sign-in")
        phone_page.wait_for_selector("#signed-in:not([hidden])", timeout=15_000)
        assert _sessions(phone_page) == 1
        # A second device: the code the first shows, typed on the second.
        phone_page.click("#add-device")
        phone_page.wait_for_selector("#device-code:not([hidden])")
        code = phone_page.text_content("#device-code .code") or ""
        qr = phone_page.get_attribute("#device-code img", "src") or ""
        assert qr.startswith("data:image/svg+xml")
        _shot(phone_page, "account-device-code")
        laptop_page.goto(live.url + "/link")
        laptop_page.fill("#link-form input[name=code]", code.lower())
        laptop_page.click("#link-form button")
        laptop_page.wait_for_url(live.url + "/account", timeout=15_000)
        laptop_page.wait_for_selector("#signed-in:not([hidden])")
        assert laptop_page.locator("#passkeys li").count() == 2
        phone_page.reload()
        phone_page.wait_for_selector("#signed-in:not([hidden])")
        assert _sessions(phone_page) == 2
        _shot(phone_page, "account-two-devices")
        # The first device signs the second out: its next page finds it signed out.
        other = phone_page.locator("#sessions li", has_not_text="this device").locator("button")
        other.click()
        wait_until(phone_page, "() => document.querySelectorAll('#sessions li').length === 1")
        laptop_page.reload()
        laptop_page.wait_for_selector("#signed-out:not([hidden])")
    finally:
        phone.context.close()
        laptop.context.close()


class Seat(Tab):
    """A player's seat at one table, in a browser that opens and closes its page."""

    def __init__(self, device: Device, name: str) -> None:  # no Tab.__init__: no page yet
        self.name = name
        self.context = device.context
        self.frames: list[str] = []
        self.sockets = 0
        self.errors: list[str] = []
        self.page = device.page

    def open(self, url: str) -> None:
        """The page opened again (a new tab), the table back on screen."""
        self.page = self.context.new_page()
        self.frames = []
        self.page.on("websocket", self._watch)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(url)
        self.wait_online()
        wait_until(self.page, "() => window.sequenceStacks.game.table !== null")

    def last_timer(self) -> dict[str, Any] | None:
        for raw in reversed(self.frames):
            frame = json.loads(raw)
            if frame["type"] in ("sync", "update"):
                timer: dict[str, Any] | None = frame.get("timer")
                return timer
        return None


def _holds_block(live: LiveServer, table_id: str, seat: int) -> bool:
    from sequence_stacks.engine import CARD_KIND, Kind  # noqa: PLC0415

    runtime = live.app.state.service.tables.current(table_id)
    state = runtime.table.state
    return any(CARD_KIND[card] == Kind.BLOCK for card in state.hands[seat])


def _window_asks_both(live: LiveServer, table_id: str) -> bool:
    from sequence_stacks.engine import Phase  # noqa: PLC0415

    runtime = live.app.state.service.tables.current(table_id)
    state = runtime.table.state
    return (
        state is not None
        and state.phase == Phase.BLOCK_WINDOW
        and {0, 1} <= set(state.window_pending)
    )


def _my_turn_first(device: Device, url: str, table_id: str) -> None:
    page = device.context.new_page()
    page.goto(url + "/games")
    page.wait_for_selector("#games li")
    first = page.locator("#games li").first
    assert first.get_attribute("data-table") == table_id
    assert "mine" in (first.get_attribute("class") or "")
    wait_until(page, "() => document.title.startsWith('(1)')")
    _shot(page, "my-games")
    page.close()


def _sits_as(page: Page, name: str, field: str = "#join-name") -> None:
    """A form that seats the reader shows the account's name, read-only (#26): the
    table's Take a seat, the lobby's Play now."""
    wait_until(page, f"() => document.querySelector({field!r}).value === {name!r}")
    assert page.locator(field).get_attribute("readonly") is not None
    _shot(page, "join-as-account" if field == "#join-name" else "play-now-as-account")


def _turn_based_table(live: LiveServer, ann_device: Device, bob_device: Device) -> str:
    """Ann makes a turn-based table of four (24 hours a turn) from the lobby, she and Bob
    sit at it, she starts the game; its URL."""
    page = ann_device.page
    page.goto(live.url + "/")
    _sits_as(page, "Ann", "#play-now input[name=name]")
    page.select_option("#create select[name=players]", "4")
    pace = page.locator("#create select[name=pace]")
    assert pace.is_visible()  # a live table's pace is asked for ...
    page.select_option("select[name=turn_hours]", "24")
    assert pace.is_hidden()  # ... a turn-based table's turn time sets it
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    table_url = page.url
    # Signed in, she sits as her account: its name is in the form, not asked for.
    _sits_as(page, "Ann")
    page.click("#join button")
    page.wait_for_selector("#start:not([hidden])")
    bob_device.page.goto(table_url)
    _sits_as(bob_device.page, "Bob")
    bob_device.page.click("#join button")
    bob_device.page.wait_for_selector("#start:not([hidden])")
    page.click("#start")
    wait_until(page, "() => window.sequenceStacks.game.table.status === 'playing'")
    _shot(page, "turn-based-started")
    return table_url


def test_a_turn_based_game_over_days(live: LiveServer, browser: Browser) -> None:
    ann_device, bob_device = _device(browser), _device(browser)
    _sign_up(ann_device.page, live.url, "Ann")
    _sign_up(bob_device.page, live.url, "Bob")
    table_url = _turn_based_table(live, ann_device, bob_device)
    table_id = table_url.rsplit("/", 1)[1]
    ann, bob = Seat(ann_device, "ann"), Seat(bob_device, "bob")
    for seat in (ann, bob):
        seat.page.close()
    devices = {0: (ann, ann_device), 1: (bob, bob_device)}
    played = {"ann": 0, "bob": 0}
    prompts: list[tuple[bool, str, int]] = []
    checked_my_games = False
    start = live.clock()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        live.settle(table_id)
        if _window_asks_both(live, table_id):
            prompts += _both_prompted(live, table_id, ann, bob, table_url)
        elif (turn := _awaited(live, table_id)) is not None:
            seat, device = devices[turn]
            if not checked_my_games:
                _my_turn_first(device, live.url, table_id)
                checked_my_games = True
            # The player comes back hours later, plays the turn, closes the page.
            seat.open(table_url)
            ui = seat.ui()
            assert [s["name"] for s in ui["table"]["seats"][:2]] == ["Ann", "Bob"]
            assert [s["kind"] for s in ui["table"]["seats"][:2]] == ["human", "human"]
            for _ in range(30):
                if not step(seat, starts_piles=True):  # the bots complete them: windows
                    break
                played[seat.name] += 1
            seat.page.close()
        live.later(5)  # hours pass; a turn nobody plays times out after 24
        days = live.clock() - start > 2 * 86400
        if min(played.values()) >= 3 and checked_my_games and prompts and days:
            break
    assert min(played.values()) >= 3, played
    assert checked_my_games
    assert prompts, "no Block window asked both players"
    assert live.clock() - start > 2 * 86400  # days went by


def _awaited(live: LiveServer, table_id: str) -> int | None:
    """The person (seat 0 or 1) whose turn it is, else None (a bot's, a window)."""
    from sequence_stacks.engine import Phase  # noqa: PLC0415

    runtime = live.app.state.service.tables.current(table_id)
    state = runtime.table.state
    if state is None or state.phase != Phase.PLAYING or state.current not in (0, 1):
        return None
    return int(state.current)


def _both_prompted(
    live: LiveServer, table_id: str, ann: Seat, bob: Seat, url: str
) -> list[tuple[bool, str, int]]:
    """A window asks both: each opens the page, is prompted alike, and passes."""
    found = []
    for index, seat in enumerate((ann, bob)):
        seat.open(url)
        assert answer_window([seat]) is not None
        text = seat.page.text_content("#block-prompt .text") or ""
        timer = seat.last_timer()
        assert timer is not None
        found.append((_holds_block(live, table_id, index), text, int(timer["remaining_ms"])))
        _shot(seat.page, f"turn-based-window-{seat.name}")
    # Both are told the same completion and given the same deadline; the words after it
    # differ only by what the reader alone knows, their own hand (#24's calm prompt:
    # "Block it?" with a Block, "just wait" without one); nobody else sees either.
    assert found[0][1].split(". ")[0] == found[1][1].split(". ")[0]
    wait = translation("en").text("prompt.watch").split("{pile}.", 1)[1].strip()
    for holds, text, _ in found:
        assert (wait in text) == (not holds), (holds, text)
    assert abs(found[0][2] - found[1][2]) < 60_000  # the same deadline, an eighth of a day
    assert found[0][2] > 2 * 3600 * 1000
    for seat in (ann, bob):
        pass_window([seat])
        seat.page.close()
    live.later(4)  # the window's three hours go by
    return found


def test_the_service_worker_shows_a_push_notice_that_opens_the_game(
    live: LiveServer, browser: Browser
) -> None:
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    try:
        context.grant_permissions(["notifications"], origin=live.url)
        page = context.new_page()
        page.goto(live.url + "/account")
        cdp = context.new_cdp_session(page)
        registrations: list[dict[str, Any]] = []
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.extend(event["registrations"]),
        )
        cdp.send("ServiceWorker.enable")
        # The page's own code registers it (the CSP's one Trusted Types policy).
        scope = page.evaluate(
            "async () => (await (await import('/static/push.js')).registerWorker()).scope"
        )
        assert scope == live.url + "/"  # the site's one worker, /local's too
        wait_until(
            page,
            "() => navigator.serviceWorker.getRegistration('/').then(r => !!(r && r.active))",
        )
        found = [r for r in registrations if r["scopeURL"] == scope and not r["isDeleted"]]
        assert found
        # One service worker for the site: /local's offline worker, which shows alerts too.
        worker = "async () => (await navigator.serviceWorker.getRegistration('/')).active.scriptURL"
        assert page.evaluate(worker) == live.url + "/sw.js"
        # An account's own data goes through it but is never kept on the device.
        page.reload()
        wait_until(page, "() => !!navigator.serviceWorker.controller")
        page.evaluate("async () => { await fetch('/api/me'); await fetch('/api/me/badge'); }")
        kept = (
            "async () => { const urls = []; for (const name of await caches.keys()) {"
            " for (const r of await (await caches.open(name)).keys()) urls.push(r.url); }"
            " return urls; }"
        )
        paths = {urlsplit(url).path for url in page.evaluate(kept)}
        assert "/api/messages" in paths  # what the worker keeps, kept
        assert not {path for path in paths if path == "/api/me" or path.startswith("/api/me/")}
        payload = {
            "title": "Sequence Stacks",
            "body": "It is your turn at Owl table.",
            "url": f"{live.url}/t/some-table",
            "tag": "turn:some-table",
            "kind": "turn",
        }
        shown = (
            "async () => { const r = await navigator.serviceWorker.getRegistration('/');"
            " const n = await r.getNotifications(); return n.map(x => ({title: x.title,"
            " body: x.body, tag: x.tag, url: x.data && x.data.url})); }"
        )
        # The browser's push service is DevTools here: a message it hands over while the
        # worker is still starting can be lost, so it is handed over again (the same tag:
        # one notice however often it arrives).
        for attempt in range(3):
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": live.url,
                    "registrationId": found[-1]["registrationId"],
                    "data": json.dumps(payload),
                },
            )
            try:
                wait_until(page, f"() => ({shown})().then(n => n.length > 0)", timeout=10)
                break
            except AssertionError:
                if attempt == 2:
                    raise
        (notice,) = page.evaluate(shown)
        assert notice == {
            "title": payload["title"],
            "body": payload["body"],
            "tag": payload["tag"],
            "url": payload["url"],
        }
    finally:
        context.close()
