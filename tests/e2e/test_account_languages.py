"""The account pages in six languages, in a real browser (#26), looked at as the game's
own tour looks at its screens (test_languages.py's Reader): ``<html lang>``, nothing
overflowing at phone and desktop size, no message key or placeholder left, no English
where the language has its words, real glyphs for every script; screenshots in
artifacts/lang-<lang>-<size>-<screen>.png.

For each language a player signs up with a passkey (a virtual authenticator), shows a
code for another device, sits at a turn-based table (its seat tools), and reads "My
games", the leaderboard (the bots' ratings on it), their public page (with a rated game
against a bot, recorded as a finished table would) and the pages a code or link opens:
an e-mail address verified, a device added, a seat moved, e-mails stopped.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, Page

from sequence_stacks.i18n.languages import LANGUAGES
from sequence_stacks.server.accounts import record_game
from sequence_stacks.server.play import TableNews, TableStatus
from sequence_stacks.server.store import SeatLink
from server.harness import FAST

from .accounts_server import LiveServer, live_server
from .play import wait_until
from .test_languages import CHOSEN_BY, Reader

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

SCREENS: Final = (
    "account-new",
    "account",
    "device-code",
    "table-tools",
    "my-games",
    "leaderboard",
    "player",
    "verify",
    "link",
    "move",
    "unsubscribe",
)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("account-languages")
    settings = dataclasses.replace(
        FAST, bot_delay=(0.05, 0.1), sit_burst=100, create_burst=100, signup_burst=100
    )
    with live_server(folder, settings) as server:
        yield server


def _reader(browser: Browser, language: str, live: LiveServer) -> Reader:
    reader = Reader(browser, language, live)  # type: ignore[arg-type]  # it reads .url
    if CHOSEN_BY[language] == "menu":  # the menu's choice, as its cookie keeps it
        reader.context.add_cookies([{"name": "lang", "value": language, "url": live.url}])
    cdp = reader.context.new_cdp_session(reader.page)
    cdp.send("WebAuthn.enable")
    cdp.send(
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
    return reader


def _rated_game(live: LiveServer, account_id: str) -> None:
    """A finished two-player game of the account against the greedy bot, won by the
    account, recorded (rated) as the ratings room records a table's end."""
    store = live.app.state.rooms.accounts.store
    table_id = f"rated-{account_id}"
    token_hash = hashlib.sha256(table_id.encode()).hexdigest()
    store.link_seat(SeatLink(table_id, token_hash, account_id, "sealed", time.time()))
    standings = [
        {"seat": 0, "chips": [5, 0], "completed": 0, "winner": True},
        {"seat": 1, "chips": [2, 0], "completed": 0, "winner": False},
    ]
    news = TableNews(
        table_id=table_id,
        game=1,
        status=TableStatus.OVER,
        turn_based=True,
        turn_hours=24,
        turn=30,
        window=None,
        awaited=(),
        deadline_in=None,
        connected=(False, False),
        owners=(token_hash, None),
        bots=(None, "greedy"),
        standings=standings,
    )
    assert live.call(record_game(store, news))


def _verify_code(live: LiveServer, account_id: str) -> str:
    """The code the e-mail that checks an address carries (no mail server here)."""
    accounts = live.app.state.rooms.accounts
    account = live.call(accounts.account(account_id))
    code = live.call(accounts.set_email(account, f"{account_id[:8]}@example.org"))
    assert code is not None
    return str(code)


def _pictures(page: Page, picker: str) -> list[int]:
    """Which pictures of an avatar picker are chosen, each checked and ringed in the
    focus colour while every other one's ring is transparent (asserted)."""
    marks: list[tuple[bool, str]] = page.evaluate(
        """(picker) => [...document.querySelectorAll(`${picker} .avatar-choice`)].map(
        (label) => [label.querySelector('input').checked,
                    getComputedStyle(label).borderTopColor])""",
        picker,
    )
    clear = "rgba(0, 0, 0, 0)"
    for checked, ring in marks:
        assert (ring != clear) == checked, marks
    return [index for index, (checked, _) in enumerate(marks) if checked]


def _own_pages(reader: Reader) -> None:
    """Signed out, signed up, a code for another device, a seat at a turn-based table
    and its tools, My games."""
    page = reader.page
    reader.goto("/account")
    page.wait_for_selector("#signed-out:not([hidden])")
    reader.screen("account-new", "#sign-up")
    assert _pictures(page, "#sign-up-avatars") == [0]
    page.fill("#sign-up input[name=name]", f"Ann {reader.language}")
    page.locator("#sign-up .avatar-choice").nth(2).click()
    assert _pictures(page, "#sign-up-avatars") == [2]
    page.click("#sign-up button[type=submit]")
    page.wait_for_selector("#signed-in:not([hidden])", timeout=15_000)
    assert _pictures(page, "#profile-avatars") == [2]  # the one chosen at sign-up
    reader.screen("account", "#profile")
    page.click("#add-device")
    page.wait_for_selector("#device-code:not([hidden])")
    reader.screen("device-code", "#device-code")
    table_id = page.evaluate(
        "async () => (await (await fetch('/api/tables', {method: 'POST', headers:"
        " {'content-type': 'application/json'}, body: JSON.stringify({options:"
        " {player_count: 3}, turn_hours: 72})})).json()).id"
    )
    reader.goto(f"/t/{table_id}")
    # Signed in, she sits as her account: its name is in the form, read-only.
    name = f"Ann {reader.language}"
    wait_until(page, f"() => document.querySelector('#join-name').value === {name!r}")
    assert page.locator("#join-name").get_attribute("readonly") is not None
    page.click("#join button")
    page.wait_for_selector("#move-seat:not([hidden])")
    page.click("#move-seat")
    page.wait_for_selector("#move-code:not([hidden])")
    # Seated while signed in: the seat is the account's, with nothing to claim.
    assert page.is_hidden("#claim-seat")
    reader.screen("table-tools", "#seat-tools")
    reader.goto("/games")
    page.wait_for_selector("#games li")
    # With games to list, the note above them is empty and takes no room: the list
    # starts where the panel's padding ends.
    assert page.locator("#games-note").inner_text() == ""
    gap = page.evaluate(
        """() => { const main = document.querySelector('main.panel');
        const style = getComputedStyle(main);
        return document.querySelector('#games').getBoundingClientRect().top
            - main.getBoundingClientRect().top - parseFloat(style.paddingTop)
            - parseFloat(style.borderTopWidth); }"""
    )
    assert abs(gap) < 1, gap
    reader.screen("my-games", "#games")


def _public_and_code_pages(reader: Reader, live: LiveServer) -> None:
    """The leaderboard, the player's public page with a rated game, and the pages a
    code or link opens."""
    page = reader.page
    reader.goto("/leaderboard")
    page.wait_for_selector("#leaders tr.bot-row .spread")
    reader.screen("leaderboard", "table.leaders")
    account = page.evaluate("async () => (await (await fetch('/api/me')).json()).account.id")
    _rated_game(live, account)
    reader.goto(f"/players/{account}")
    page.wait_for_selector("#ratings .spread")
    page.wait_for_selector("#history li a")
    reader.screen("player", "#history")
    # The code comes after "#" (a language asked for by the query goes before it).
    query = f"?lang={reader.language}" if CHOSEN_BY[reader.language] == "query" else ""
    page.goto(f"{live.url}/verify{query}#{_verify_code(live, account)}")
    reader.words_filled()
    page.wait_for_function("() => document.querySelector('#status').textContent !== ''")
    # The page says it is checking before its request is answered: wait for the answer.
    wait_until(page, "async () => (await (await fetch('/api/me')).json()).account.email_verified")
    assert page.evaluate("() => document.querySelector('#problem').hidden")
    reader.screen("verify", "#verify")
    reader.goto("/link")
    reader.screen("link", "#link-form")
    reader.goto("/move")
    reader.screen("move", "#move-form")
    reader.goto("/unsubscribe/not-a-real-token?kind=turn")
    reader.screen("unsubscribe", "#unsubscribe")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_account_pages_in_each_language(
    live: LiveServer, browser: Browser, language: str
) -> None:
    reader = _reader(browser, language, live)
    try:
        _own_pages(reader)
        _public_and_code_pages(reader, live)
    finally:
        reader.context.close()
    assert not reader.problems, "\n".join(dict.fromkeys(reader.problems))
    assert not reader.broken, "\n".join(dict.fromkeys(reader.broken))
    assert tuple(reader.screens) == SCREENS
