"""The account pages (#26) under the accessibility scan the game's own pages pass
(test_accessibility.py): axe-core finds no serious or critical violation, dark and
light, desktop and phone, and every control on a phone is a 44x44 px target; in
English and in Korean. Signed out and signed in (a passkey from a virtual
authenticator), with a device code shown, My games, the leaderboard, a player's page
and the pages a code or link opens."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, Page

from server.harness import FAST

from .accounts_server import LiveServer, live_server
from .test_accessibility import (
    RUN_AXE,
    SERIOUS,
    SIZES,
    SMALL_TARGETS,
    TRANSITIONS_DONE,
)
from .test_accessibility import axe_source as axe_text

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

SCREENS: Final = (
    "account-new",
    "account",
    "my-games",
    "leaderboard",
    "player",
    "link",
    "move",
    "unsubscribe",
)
LOOKS: Final = (("desktop", "dark"), ("desktop", "light"), ("phone", "dark"), ("phone", "light"))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("account-a11y")
    settings = dataclasses.replace(FAST, sit_burst=100, create_burst=100, signup_burst=100)
    with live_server(folder, settings) as server:
        yield server


@pytest.fixture(scope="module")
def axe() -> str:
    """axe-core's source (skipped, or failed in CI, as the game's own scan is)."""
    return axe_text.__wrapped__()  # type: ignore[attr-defined, no-any-return]


class Scan:
    """One browser context scanning the account pages in one language."""

    def __init__(self, page: Page, axe: str) -> None:
        self.page = page
        self.axe = axe
        self.problems: list[str] = []
        self.screens: list[str] = []

    def __call__(self, name: str) -> None:
        page = self.page
        page.wait_for_selector("#language:not([hidden]) option", state="attached")
        if not page.evaluate("typeof window.axe === 'object'"):
            page.evaluate(self.axe)
        self.screens.append(name)
        for size, scheme in LOOKS:
            page.set_viewport_size(SIZES[size])  # type: ignore[arg-type]
            page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            page.evaluate(TRANSITIONS_DONE)
            where = f"{name} [{size}, {scheme}]"
            for rule in page.evaluate(RUN_AXE):
                if rule["impact"] in SERIOUS:
                    nodes = "\n      ".join(rule["nodes"][:6])
                    self.problems.append(f"{where}: {rule['impact']} {rule['id']}\n      {nodes}")
            if size == "phone":
                for small in page.evaluate(SMALL_TARGETS):
                    self.problems.append(f"{where}: a tap target under 44x44 px: {small}")
        page.set_viewport_size(SIZES["desktop"])  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_account_pages_have_no_serious_violation_and_big_targets(
    live: LiveServer,
    browser: Browser,
    axe: str,
    language: str,
) -> None:
    context = browser.new_context(viewport=SIZES["desktop"], locale=language)  # type: ignore[arg-type]
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
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
        scan = Scan(page, axe)
        page.goto(live.url + "/account")
        page.wait_for_selector("#signed-out:not([hidden])")
        scan("account-new")
        page.fill("#sign-up input[name=name]", f"Scan {language}")
        page.click("#sign-up button[type=submit]")
        page.wait_for_selector("#signed-in:not([hidden])", timeout=15_000)
        page.click("#add-device")
        page.wait_for_selector("#device-code:not([hidden])")
        scan("account")
        page.goto(live.url + "/games")
        page.wait_for_selector("#games-note, #games")
        scan("my-games")
        page.goto(live.url + "/leaderboard")
        page.wait_for_selector("#leaders tr.bot-row")
        scan("leaderboard")
        account = page.evaluate("async () => (await (await fetch('/api/me')).json()).account.id")
        page.goto(f"{live.url}/players/{account}")
        page.wait_for_selector("#ratings li")
        scan("player")
        for path, name in (
            ("/link", "link"),
            ("/move", "move"),
            ("/unsubscribe/not-a-real-token?kind=turn", "unsubscribe"),
        ):
            page.goto(live.url + path)
            scan(name)
    finally:
        context.close()
    assert tuple(scan.screens) == SCREENS
    assert not scan.problems, "\n".join(scan.problems)
