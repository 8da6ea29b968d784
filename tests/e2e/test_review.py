"""The review page (#27) in a real browser, at phone and desktop size: a game Python
played to the end over the table WebSocket is reviewed by the server in the
background; the page says it is being computed and asks again until it is ready, then
shows the win-chance chart (one line a player, an SVG built with DOM calls under the
page's strict CSP), each player's start and end in words, the moments and, for the
holder of a seat's token, that seat's decisions with the better moves; a spectator gets
no decisions. Nothing is wider than the screen; the seat's review on a phone in every
language too. Screenshots: artifacts/review-*.png."""

from __future__ import annotations

import functools

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Error

from sequence_stacks.i18n import LANGUAGES, translation

from .conftest import ARTIFACTS, ServerProcess
from .seat_sockets import PythonTable
from .test_replay import SHORT_GAME, SIZES, _play_to_the_end

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def _words(key: str, language: str = "en", **args: object) -> str:
    return translation(language).text(key, None).format_map(args)


def _page_error(errors: list[str], error: Error) -> None:
    errors.append(str(error))


def _console_error(errors: list[str], message: ConsoleMessage) -> None:
    if message.type == "error":
        errors.append(message.text)


def test_the_review_page_shows_the_chart_the_moments_and_the_seat_s_decisions(
    server: ServerProcess, browser: Browser
) -> None:
    table = PythonTable(server, SHORT_GAME, ["Ann", "Bob", "Cyd"])
    try:
        _play_to_the_end(table)
    finally:
        table.close()
    shots = [
        ("desktop", "en", table.tokens[0]),
        ("phone", "en", table.tokens[0]),
        ("phone", "en", None),
    ]
    shots += [("phone", language, table.tokens[0]) for language in LANGUAGES if language != "en"]
    for size, language, token in shots:
        context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
        if token is not None:
            key = f"sequence-stacks:token:{table.table_id}"
            context.add_init_script(f"localStorage.setItem({key!r}, {token!r})")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", functools.partial(_page_error, errors))
        page.on("console", functools.partial(_console_error, errors))
        try:
            page.goto(f"{server.url}/review/{table.table_id}/1?lang={language}")
            # computing first (or at once ready, when it was quick), then the review
            page.wait_for_selector("#graph-box:not([hidden])", timeout=240_000)
            assert page.locator(".chance-chart polyline").count() == 3
            assert page.locator("#graph-rows li").count() == 3
            assert page.locator("#moments li").count() >= 1
            title = page.locator("#review-title").inner_text()
            if token is None:
                assert title == _words("review.title", language)
                assert page.locator("#decisions-box").is_hidden()
            else:
                assert title == _words("review.title.seat", language, player="Ann")
                assert page.locator("#decisions-box").is_visible()
                assert page.locator("#decisions-count").inner_text()
                you = _words("seat.you_named", language, name="Ann")
                assert page.locator("#graph-rows li").first.inner_text().startswith(you)
                # the list of better moves is headed, and only when it has any
                listed = page.locator("#decisions li").count()
                assert page.locator("#better-heading").is_visible() == (listed > 0)
                if listed:
                    assert page.locator("#better-heading").inner_text() == _words(
                        "review.better", language
                    )
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= SIZES[size]["width"], f"{size}: the page is {width}px wide"
            who = "seat" if token else "spectator"
            name = f"review-{size}-{who}" if language == "en" else f"review-{language}-{size}-{who}"
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
            assert not errors, errors
        finally:
            context.close()
