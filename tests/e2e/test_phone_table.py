"""The table fits a phone during play (#15 item 7), in a real browser.

Games started with "Play now" (2, 4 and 6 players) at 390x844 and 360x740 (a small
Android), in English and in languages with long words or other scripts (Armenian,
Hindi, Slovenian, Korean, Malay), wait for the player's turn and check:

- no vertical scrolling: the document is no taller than the screen, and nothing is
  wider than it;
- every part of the table inside the screen: the turn line and its timer, the decks
  row, every sequence pile with its count, the player's hand, the player's discard top,
  each opponent's name, hand size, discard top and chips, the log's last line;
- every visible live control at least 44x44 px; no text wider than its box, no word
  broken across two lines (test_languages' checks);
- a card selected: the piles it may go on, the discards it may steal and its choices
  are on screen; in one game a discard top played (a rank 1, a wild or an action card is
  discarded, then taken back from the discard top next turn): its targets on screen;
- the Block prompt, opened over the table, inside the screen with 44 px buttons;
- the Log button opens the log as a sheet over the table (still the live region) and
  closes it again.

Screenshots: artifacts/phone-<lang>-<width>x<height>-<players>p-<screen>.png.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from .conftest import ARTIFACTS, FAST_BOTS, NO_LIMITS, ServerProcess, running_server
from .play import wait_until
from .test_languages import _BROKEN_WORDS, _OVERFLOWS, _SETTLED

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

PHONE: Final = ViewportSize(width=390, height=844)
SMALL: Final = ViewportSize(width=360, height=740)
# (language, viewport, players): every language at least once, both sizes, 2 to 6 seats.
CASES: Final = (
    ("en", PHONE, 2),
    ("en", SMALL, 6),
    ("hy", PHONE, 6),
    ("hy", SMALL, 4),
    ("hi", PHONE, 4),
    ("hi", SMALL, 6),
    ("sl", SMALL, 6),
    ("ko", SMALL, 2),
    ("ms", SMALL, 5),
)

MY_TURN: Final = """() => { const u = window.sequenceStacks.game;
  return Boolean(u.view && u.you !== null && u.view.phase === "playing" && !u.view.result
    && u.view.current === u.you && u.view.legal_action_ids.length > 0
    && document.querySelector("#hand .card:not(:disabled)") !== null); }"""

# How the page fits the screen: its scroll size, and each box that leaves the screen.
FIT: Final = """() => {
  const root = document.documentElement;
  const out = [];
  for (const el of document.querySelectorAll(".bar *, #board *, #seats *")) {
    if (!el.getClientRects().length || el.closest(".sr-only, .next-seat, #block-prompt")) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 && r.height <= 1) continue;
    if (r.left < -1 || r.right > innerWidth + 1 || r.top < -1 || r.bottom > innerHeight + 1) {
      const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
      const name = `${el.tagName.toLowerCase()}#${el.id}.${el.className?.baseVal ?? el.className}`;
      out.push(`${name} at ${at}`);
    }
  }
  return { height: root.scrollHeight, width: root.scrollWidth, innerHeight, innerWidth, out };
}"""

# The boxes of the parts a player must see, by name (null for a part not drawn).
PARTS: Final = """() => {
  const box = (el) => { if (!el || !el.getClientRects().length) return null;
    const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const parts = {
    turn: box(document.querySelector("#turn .text")),
    timer: box(document.querySelector("#turn-timer")),
    lastLine: box(document.querySelector("#last-line")),
    logButton: box(document.querySelector("#log-toggle")),
    decks: box(document.querySelector(".decks")),
    myDiscard: box(document.querySelector(".seat.me .discard")),
  };
  document.querySelectorAll(".deck").forEach((el, i) => { parts[`deck ${i}`] = box(el); });
  document.querySelectorAll("#piles .pile").forEach((el, i) => {
    parts[`pile ${i}`] = box(el);
    parts[`pile ${i} count`] = box(el.querySelector(".count"));
  });
  document.querySelectorAll("#hand .card").forEach((el, i) => { parts[`card ${i}`] = box(el); });
  document.querySelectorAll(".seat:not(.me)").forEach((el) => {
    const seat = el.dataset.seat;
    for (const part of [".name", ".mini-hand .count", ".discard", ".chip.blue", ".chip.red"]) {
      parts[`seat ${seat} ${part}`] = box(el.querySelector(part));
    }
  });
  return parts;
}"""

# Visible, live controls smaller than 44x44 px.
SMALL_TARGETS: Final = """() => [...document.querySelectorAll(
    "button, a[href], select, input, summary, [tabindex='0']")]
  .filter((el) => el.getClientRects().length && !el.disabled && !el.closest(".sr-only"))
  .filter((el) => getComputedStyle(el).visibility !== "hidden")
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.bottom > 0 && r.top < innerHeight && (r.width < 43.5 || r.height < 43.5))
  .filter(([el]) => !(el.id === "log" && !el.closest(".log-box.open")))
  .map(([el, r]) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} `
    + `${Math.round(r.width)}x${Math.round(r.height)}`)"""

# The boxes of what a selection lights: piles, discards to steal, choice buttons.
TARGETS: Final = """() => [...document.querySelectorAll(
    "#piles .pile.target, .seat .discard.target, #choices button")]
  .map((el) => { const r = el.getBoundingClientRect();
    return [el.className, r.left, r.top, r.right, r.bottom]; })"""


@pytest.fixture(scope="module")
def phone_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {
        **FAST_BOTS,
        **NO_LIMITS,  # a dozen Play-now tables in a minute, from one address
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "6",
        "SEQUENCE_STACKS_TURN_TIMEOUT": "300",
        "SEQUENCE_STACKS_GRACE_PERIOD": "120",
    }
    with running_server(tmp_path_factory.mktemp("phone"), env) as process:
        yield process


def _settle(page: Page) -> None:
    """Wait for what moves on the page to stop (card flights, the log sheet's slide):
    a frame for a transition to begin, then until no finite animation runs. A loaded
    machine's clock may run animations late; a fixed pause would guess."""
    page.wait_for_timeout(50)
    wait_until(page, _SETTLED, 10)


def _until_my_turn(page: Page, timeout: float = 30) -> None:
    """Wait for the player's turn, answering Pass to any Block prompt on the way; the
    page never scrolls meanwhile (the others' turns, Block windows). Returns at once if
    the game ends (a bot won): the result's page may scroll."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(MY_TURN):
        assert time.monotonic() < deadline, f"waited {timeout}s in vain for the turn"
        # One look: whether the game is over, the page's size, the turn line, and
        # whether a Block window waits for this seat (the page's state, not the prompt's
        # visibility, which lags the answer by a frame).
        look = page.evaluate(f"""() => ({{
          over: document.body.dataset.status === "over", fit: ({FIT})(),
          turn: document.querySelector("#turn .text")?.textContent,
          version: window.sequenceStacks.socket.version,
          asked: (() => {{ const ui = window.sequenceStacks.game;
            return Boolean(ui.view && ui.view.window_pending?.includes(ui.you)); }})() }})""")
        if look["over"]:
            return
        fit = look["fit"]
        assert fit["height"] <= fit["innerHeight"], f"the page scrolls at {look['turn']!r}: {fit}"
        if look["asked"]:
            page.keyboard.press("p")  # Pass; a key does nothing if the prompt just went
            with contextlib.suppress(AssertionError):
                newer = f"() => window.sequenceStacks.socket.version > {look['version']}"
                wait_until(page, newer, 5)
        page.wait_for_timeout(50)
    _settle(page)  # a card's flight, if one is still in the air


def _catalog(server: ServerProcess) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/api/catalog", timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def _inside(box: list[float], view: ViewportSize) -> bool:
    left, top, right, bottom = box
    return left >= -1 and top >= -1 and right <= view["width"] + 1 and bottom <= view["height"] + 1


def _shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _check_fits(page: Page, view: ViewportSize, where: str) -> None:
    fit = page.evaluate(FIT)
    assert fit["height"] <= fit["innerHeight"], f"{where}: the page scrolls ({fit})"
    assert fit["width"] <= fit["innerWidth"], f"{where}: the page is too wide ({fit})"
    assert not fit["out"], f"{where}: off the screen: {fit['out']}"
    parts: dict[str, list[float] | None] = page.evaluate(PARTS)
    missing = [name for name, box in parts.items() if box is None]
    assert not missing, f"{where}: not shown: {missing}"
    outside = {name: box for name, box in parts.items() if box and not _inside(box, view)}
    assert not outside, f"{where}: outside the screen: {outside}"
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"{where}: tap targets under 44x44 px: {small}"
    # No text wider than its box, no word broken across two lines (as test_languages).
    assert not page.evaluate(_OVERFLOWS), f"{where}: {page.evaluate(_OVERFLOWS)}"
    assert not page.evaluate(_BROKEN_WORDS), f"{where}: {page.evaluate(_BROKEN_WORDS)}"


# Every friendly table name in the reader's language, put in the header in turn as the
# page puts its own (dom.js setWholeWords): the name comes from the table's id, so the one
# a test happens to get must not decide the check. A word here is a run of non-spaces
# with its quotes and hyphens ("«Ջրասամույր»", "Lumba-lumba"): none may break or stick
# out of the header.
_EVERY_TABLE_NAME: Final = """async () => {
  const { ANIMALS } = await import("/static/words.js");
  const { t } = await import("/static/messages.js");
  const { setWholeWords } = await import("/static/dom.js");
  const title = document.querySelector("#table-title");
  const kept = title.textContent;
  const range = document.createRange();
  const found = [];
  for (const animal of ANIMALS) {
    const name = t("table.named", { animal: t(`animal.${animal}`) });
    setWholeWords(title, name);
    if (title.textContent !== name) found.push(`changed: ${name} -> ${title.textContent}`);
    const box = title.getBoundingClientRect();
    range.selectNodeContents(title);
    for (const r of range.getClientRects()) {
      const out = r.left < box.left - 1 || r.right > box.right + 1;
      if (r.width > 0 && out) found.push(`sticks out: ${name}`);
    }
    for (const word of title.querySelectorAll(".whole")) {
      range.selectNodeContents(word);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.bottom / 4)));
      if (lines.size > 1) found.push(`broken: ${word.textContent}`);
    }
  }
  setWholeWords(title, kept);
  return [...new Set(found)];
}"""


# Every card kind that carries a word (the actions and the wilds), dealt into the hand
# in turn and fitted as the page fits them (dom.js fitCardWords), five at a time and
# seven at a time (a fuller hand has smaller cards): whether a word fits its card must
# not depend on the deal. A label may take two lines (between words, or after a hyphen),
# but no word breaks and none sticks out of its card.
_EVERY_CARD_WORD: Final = """async () => {
  const { cardElement } = await import("/static/cards.js");
  const { kindInfo } = await import("/static/words.js");
  const { catalog } = await import("/static/messages.js");
  const { fitCardWords } = await import("/static/dom.js");
  const hand = document.querySelector("#hand");
  const kept = [...hand.childNodes];
  const worded = [], plain = [], seen = new Set();
  catalog().cards.forEach((kind, id) => {
    if (seen.has(kind)) return;
    seen.add(kind);
    const info = kindInfo(kind);
    (info.action || info.wild ? worded : plain).push(id);
  });
  const range = document.createRange();
  const found = [];
  for (const size of [5, 7]) {
    for (let at = 0; at < worded.length; at += size) {
      const ids = worded.slice(at, at + size);
      ids.push(...plain.slice(0, size - ids.length));
      hand.replaceChildren(...ids.map((id) => cardElement(id, { button: true })));
      fitCardWords(hand);
      for (const word of hand.querySelectorAll(".card .label .whole")) {
        const card = word.closest(".label").getBoundingClientRect();  // inside the border
        range.selectNodeContents(word);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const lines = new Set(rects.map((r) => Math.round(r.bottom / 4)));
        const out = rects.some((r) => r.left < card.left - 0.5 || r.right > card.right + 0.5);
        if (lines.size > 1 || out) found.push(`${word.textContent} (${size} cards)`);
      }
    }
  }
  hand.replaceChildren(...kept);
  return [...new Set(found)];
}"""


def _check_card_words(page: Page, where: str) -> None:
    found = page.evaluate(_EVERY_CARD_WORD)
    assert not found, f"{where}: a card's word does not fit its card: {found}"


def _check_table_names(page: Page, where: str) -> None:
    found = page.evaluate(_EVERY_TABLE_NAME)
    assert not found, f"{where}: the header's table name: {found}"


def _check_targets(page: Page, view: ViewportSize, where: str) -> None:
    targets = page.evaluate(TARGETS)
    assert targets, f"{where}: a selection lit nothing"
    outside = [t for t in targets if not _inside(t[1:], view)]
    assert not outside, f"{where}: targets off the screen: {outside}"
    _check_fits(page, view, where)


def _start(
    browser: Browser, server: ServerProcess, language: str, view: ViewportSize, players: int
) -> Page:
    context = browser.new_context(
        viewport=view,
        locale=language,
        extra_http_headers={"Accept-Language": language},
        has_touch=True,
        is_mobile=True,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    page.wait_for_selector("#play-now input[name=name]")
    page.select_option("#create select[name=players]", str(players))
    page.fill("#play-now input[name=name]", "Mina")
    page.click("#play-now button[type=submit]")
    page.wait_for_url("**/t/**")
    wait_until(page, "() => document.body.dataset.status === 'playing'")
    assert page.evaluate("document.documentElement.lang") == language
    _until_my_turn(page)
    assert not errors, errors
    return page


def _select_a_card(page: Page) -> None:
    """Select the hand's first card that goes somewhere (else the first live one)."""
    card = page.locator("#hand .card.playable:not(:disabled)")
    if not card.count():
        card = page.locator("#hand .card:not(:disabled)")
    card.first.click()
    wait_until(page, "() => document.querySelector('#hand .card.selected') !== null")


def _check_log(page: Page, view: ViewportSize, name: str) -> None:
    toggle = page.locator("#log-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.querySelector('#log').getAttribute('aria-live')") == "polite"
    toggle.click()
    wait_until(page, "() => document.querySelector('#log-box').classList.contains('open')")
    _settle(page)  # the sheet rises
    assert toggle.get_attribute("aria-expanded") == "true"
    sheet = page.evaluate(
        """() => { const r = document.querySelector('#log-box').getBoundingClientRect();
        const lines = [...document.querySelectorAll('#log li')];
        const last = lines[lines.length - 1].getBoundingClientRect();
        return { box: [r.left, r.top, r.right, r.bottom], lines: lines.length,
          last: [last.left, last.top, last.right, last.bottom],
          focused: document.activeElement.id }; }"""
    )
    assert _inside(sheet["box"], view), sheet
    assert sheet["lines"] > 0, sheet
    assert _inside(sheet["last"], view), sheet
    assert sheet["focused"] == "log", sheet
    _shot(page, f"{name}-log")
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"the open log: tap targets under 44x44 px: {small}"
    page.click("#log-close")
    wait_until(page, "() => !document.querySelector('#log-box').classList.contains('open')")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.id") == "log-toggle"
    _settle(page)  # the sheet goes down
    top = page.evaluate("document.querySelector('#log-box').getBoundingClientRect().top")
    assert top >= view["height"], "the shut log sheet is still on the screen"


def _check_block_prompt(page: Page, view: ViewportSize, name: str) -> None:
    """The Block prompt's place on the screen, shown as a Block window shows it to a
    player holding a Block (its two answers; #24: one without sees no buttons)."""
    page.evaluate(
        """() => { const p = document.querySelector('#block-prompt');
        p.querySelector('.text').textContent = document.querySelector('#turn .text').textContent
          + ' ' + document.querySelector('#answer-block').textContent;
        p.dataset.mode = 'choose';
        for (const b of p.querySelectorAll('button')) b.hidden = false;
        p.hidden = false; }"""
    )
    prompt = page.evaluate(
        """() => [...document.querySelectorAll('#block-prompt, #block-prompt button')].map((el) => {
          const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
    )
    for box in prompt:
        assert _inside(box, view), prompt
    for left, top, right, bottom in prompt[1:]:
        assert right - left >= 44, prompt
        assert bottom - top >= 44, prompt
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= view["height"], "the Block prompt made the page scroll"
    assert not page.evaluate(_BROKEN_WORDS), f"the Block prompt: {page.evaluate(_BROKEN_WORDS)}"
    assert not page.evaluate(_OVERFLOWS), f"the Block prompt: {page.evaluate(_OVERFLOWS)}"
    _shot(page, f"{name}-block-prompt")
    page.evaluate("() => { document.querySelector('#block-prompt').hidden = true; }")


def _discard_for_the_top(page: Page, catalog: dict[str, Any]) -> bool:
    """Discard a card that can come back from the discard top (a 1, a wild, a Skip);
    False when the hand holds none."""
    fields = page.evaluate("window.sequenceStacks.game.actionTable")
    legal = page.evaluate("window.sequenceStacks.game.view.legal_action_ids")
    kinds = catalog["kinds"]
    for action_id in legal:
        action = fields[action_id]
        kind = kinds[action["kind"]] if action.get("kind") is not None else None
        if action["type"] != "discard" or kind is None:
            continue
        if kind["rank"] == 1 or kind["wild"] or kind["action"] == "skip":
            hand = page.evaluate("window.sequenceStacks.game.view.hand")
            index = next(
                i for i, card in enumerate(hand) if catalog["cards"][card] == action["kind"]
            )
            page.click(f"#hand .card[data-index='{index}']")
            page.click("#choices button.discard")
            return True
    return False


@pytest.mark.parametrize(
    ("language", "view", "players"),
    CASES,
    ids=[f"{lang}-{view['width']}x{view['height']}-{n}p" for lang, view, n in CASES],
)
def test_the_table_fits_a_phone(
    browser: Browser,
    phone_server: ServerProcess,
    language: str,
    view: ViewportSize,
    players: int,
) -> None:
    name = f"phone-{language}-{view['width']}x{view['height']}-{players}p"
    page = _start(browser, phone_server, language, view, players)
    try:
        _check_fits(page, view, "your turn")
        _check_table_names(page, "your turn")
        _check_card_words(page, "your turn")
        _shot(page, f"{name}-turn")
        _select_a_card(page)
        _settle(page)
        _check_targets(page, view, "a card selected")
        _shot(page, f"{name}-selected")
        page.keyboard.press("Escape")
        _check_block_prompt(page, view, name)
        _check_log(page, view, name)
        _check_fits(page, view, "after the log")
    finally:
        page.context.close()


def test_a_discard_top_play_has_its_targets_on_screen(
    browser: Browser, phone_server: ServerProcess
) -> None:
    view = SMALL
    catalog = _catalog(phone_server)
    page = _start(browser, phone_server, "sl", view, 6)
    try:
        for _turn in range(12):  # a card the top makes playable comes in most deals by then
            top = page.locator(".seat.me .discard.playable")
            if top.count():
                top.click()
                wait_until(
                    page, "() => document.querySelector('.seat.me .discard.selected') !== null"
                )
                _check_targets(page, view, "the discard top selected")
                _shot(page, "phone-sl-360x740-6p-discard-top")
                return
            version = page.evaluate("window.sequenceStacks.socket.version")
            for _try in range(3):  # a click that crossed an update is tried again
                page.keyboard.press("Escape")
                if not _discard_for_the_top(page, catalog):
                    page.locator("#hand .card:not(:disabled)").first.click()
                    page.click("#choices button.discard")
                with contextlib.suppress(AssertionError):
                    wait_until(page, f"() => window.sequenceStacks.socket.version > {version}", 5)
                    break
            _until_my_turn(page)
            if page.evaluate("document.body.dataset.status") == "over":
                # Six greedy bots can win before a discard top comes back: play again.
                page.click("#start")
                wait_until(page, "() => document.body.dataset.status === 'playing'")
                _until_my_turn(page)
        pytest.fail("no discard top could be played in twelve turns")
    finally:
        page.context.close()


def test_desktop_keeps_the_log_beside_the_table(
    browser: Browser, phone_server: ServerProcess
) -> None:
    view = ViewportSize(width=1366, height=768)
    page = _start(browser, phone_server, "en", view, 4)
    try:
        shown = page.evaluate(
            """() => ({ toggle: document.querySelector('#log-toggle').getClientRects().length,
            last: document.querySelector('#last-line').getClientRects().length,
            close: document.querySelector('#log-close').getClientRects().length,
            log: document.querySelector('#log').getBoundingClientRect().width,
            tab: document.querySelector('#log').tabIndex })"""
        )
        assert shown == {"toggle": 0, "last": 0, "close": 0, "log": shown["log"], "tab": 0}
        assert shown["log"] > 200
        _shot(page, "phone-en-desktop-4p-turn")
    finally:
        page.context.close()


def test_the_language_menu_is_a_globe_on_a_phone(
    browser: Browser, phone_server: ServerProcess
) -> None:
    """On a phone the header's language menu shows a globe and the code in a 44 px box
    (a full name such as "Bahasa Melayu" was cut); the menu itself, laid over it, is
    what is tapped and named, and choosing from it still changes the language."""
    page = _start(browser, phone_server, "ms", SMALL, 2)
    try:
        shown = page.evaluate(
            """() => {
              const select = document.querySelector('#language');
              const face = document.querySelector('.language-face');
              const box = (el) => { const r = el.getBoundingClientRect();
                return [r.left, r.top, r.width, r.height].map(Math.round); };
              const r = face.getBoundingClientRect();
              const middle = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return { face: face.textContent, faceBox: box(face), selectBox: box(select),
                hidden: face.getAttribute('aria-hidden'),
                opacity: getComputedStyle(select).opacity, topmost: middle === select };
            }"""
        )
        assert shown["face"] == "MS"
        assert shown["hidden"] == "true"
        assert shown["opacity"] == "0"
        assert shown["selectBox"] == shown["faceBox"]
        assert min(shown["faceBox"][2:]) >= 44
        assert shown["topmost"], "a tap on the globe must reach the menu"
        menu = page.get_by_role("combobox", name="Bahasa")
        assert menu.count() == 1
        _shot(page, "phone-ms-360x740-language-globe")
        with page.expect_navigation():
            page.select_option("#language", "sl")
        wait_until(page, "() => document.documentElement.lang === 'sl'")
        page.wait_for_selector(".language-face")
        assert page.locator(".language-face").text_content() == "SL"
        assert page.locator("#language").input_value() == "sl"
    finally:
        page.context.close()
