"""What the table tells a player (#15 items 4, 8, 10, 11), in a real browser: "Play now"
from the lobby, a move made for a player whose time ran out told in the log with a
notice, the timer's last seconds in the warning colour, sounds (an AudioContext stub
records the notes), the sound switch remembered, "your turn" announced, and the log
appending lines instead of rebuilding itself."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from sequence_stacks.i18n import MESSAGES, translation

from .conftest import ARTIFACTS, ServerProcess, running_server
from .play import wait_until
from .seat_sockets import post

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

# Records the notes the page plays: the frequency of every oscillator started.
AUDIO_STUB = """
window.__tones = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.state = "running"; this.destination = {}; }
  resume() {}
  createGain() {
    const gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return { gain, connect: (x) => x };
  }
  createOscillator() {
    const osc = { type: "", frequency: { value: 0 }, connect: (x) => x, stop() {} };
    osc.start = () => window.__tones.push(osc.frequency.value);
    return osc;
  }
};
"""

# Counts the nodes added to and removed from the log list, and keeps every text the
# assertive live region was given (what a screen reader was told, in order).
LOG_WATCH = """
() => {
  window.__log = { added: 0, removed: 0 };
  new MutationObserver((records) => {
    for (const r of records) {
      window.__log.added += r.addedNodes.length;
      window.__log.removed += r.removedNodes.length;
    }
  }).observe(document.querySelector("#log"), { childList: true });
  const announce = document.querySelector("#announce");
  window.__said = [];
  new MutationObserver(() => window.__said.push(announce.textContent)).observe(announce, {
    childList: true, characterData: true, subtree: true,
  });
}
"""

# How many times the turn's note (660 Hz) was played, and how many texts were announced.
_HEARD = """() => ({ turns: window.__tones.filter((f) => f === 660).length,
  said: window.__said.length })"""


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[ServerProcess]:
    env = {
        "SEQUENCE_STACKS_BOT_DELAY": "0.05,0.1",
        "SEQUENCE_STACKS_BOT_BLOCK_DELAY": "0.05,0.1",
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "3",
        "SEQUENCE_STACKS_TURN_TIMEOUT": "3",
        "SEQUENCE_STACKS_GRACE_PERIOD": "120",
    }
    with running_server(tmp_path, env) as process:
        yield process


def _log_has(text: str) -> str:
    """A check that some line of the game log reads exactly ``text``."""
    return (
        f"() => [...document.querySelectorAll('#log li')].some((li) => li.textContent === {text!r})"
    )


def _english(key: str) -> str:
    return MESSAGES[key].text


def _play_now(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#play-now input[name=name]")
    page.select_option("#create select[name=players]", "2")
    page.fill("#play-now input[name=name]", "Mina")
    page.click("#play-now button[type=submit]")
    page.wait_for_url("**/t/**")
    wait_until(page, "() => document.body.dataset.status === 'playing'")


def test_a_timed_out_move_is_marked_sounds_play_and_the_log_only_appends(
    browser: Browser, quick_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.add_init_script(AUDIO_STUB)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    _play_now(page, quick_server)
    page.evaluate(LOG_WATCH)
    # Nobody moves for Mina: her 3 s run out, a bot finishes her turn, she is told.
    notice = _english("table.you_timed_out")
    wait_until(page, f"() => document.querySelector('#notice').textContent === {notice!r}")
    heard = page.evaluate(_HEARD)
    # The log says so in a line of its own, before the move made for her.
    marked = _english("log.timed_out").replace("{player}", "Mina (you)")
    lines = page.locator("#log li").all_text_contents()
    assert marked in lines, lines
    after = lines[lines.index(marked) + 1]
    assert after.startswith("Mina (you)"), lines
    # The last seconds of her own timer were shown in the warning colour and sounded.
    wait_until(page, "() => document.querySelector('#turn-timer.warn') !== null")
    assert 440 in page.evaluate("window.__tones")  # the warning
    # Her turn comes round again (after the bot's): sounded and announced. (Read from what
    # was played and said since she was told: by the time a busy machine looks, her 3 s may
    # have run out again and the live region be empty once more.)
    your_turn = _english("table.your_turn")
    wait_until(
        page,
        f"() => window.__tones.filter((f) => f === 660).length > {heard['turns']} "
        f"&& window.__said.slice({heard['said']}).includes({your_turn!r})",
    )
    # The log list only grew: nothing was removed and rebuilt.
    page.wait_for_timeout(2000)
    log = page.evaluate("window.__log")
    children = page.locator("#log li").count()
    assert log["added"] > 3
    assert children < 120
    assert log["removed"] == 0, log
    page.screenshot(path=str(ARTIFACTS / "e2e-timed-out-desktop.png"))
    # The sound switch: off, remembered after a reload, and then silent.
    page.click("#sound")
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"
    assert page.locator("#sound").text_content() == _english("table.sound_off")
    page.reload()
    wait_until(page, "() => document.body.dataset.status === 'playing'")
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"
    page.evaluate("window.__tones = []")
    page.wait_for_timeout(8000)  # at least one more of her turns times out meanwhile
    assert page.evaluate("window.__tones") == []
    assert errors == []
    context.close()


def test_going_offline_turns_the_indicator_red_at_once_and_coming_back_reconnects(
    browser: Browser, quick_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    _play_now(page, quick_server)
    wait_until(page, "() => document.querySelector('#connection').dataset.state === 'online'")
    context.set_offline(True)
    # At once: the browser's own offline event, not a socket time-out (the heartbeat is
    # 15 s apart; 5 s leaves a loaded CI machine room and still tells the two apart).
    wait_until(page, "() => document.querySelector('#connection').dataset.state === 'offline'", 5)
    text = page.locator("#connection .text").text_content()
    assert text == _english("table.offline")
    colour = page.evaluate(
        "() => getComputedStyle(document.querySelector('#connection .dot')).backgroundColor"
    )
    assert colour == "rgb(255, 92, 92)"
    page.screenshot(path=str(ARTIFACTS / "e2e-offline-phone.png"))
    context.set_offline(False)
    wait_until(page, "() => document.querySelector('#connection').dataset.state === 'online'", 15)
    context.close()


def test_quick_chat_reaches_another_player_in_their_own_language(
    browser: Browser, quick_server: ServerProcess
) -> None:
    created = post(quick_server, "/api/tables", {"options": {"player_count": 3}})
    url = f"{quick_server.url}/t/{created['id']}"
    pages = {}
    for name, language, size in (("Ann", "en", (1366, 768)), ("Min", "ko", (390, 844))):
        context = browser.new_context(
            viewport={"width": size[0], "height": size[1]},
            extra_http_headers={"Accept-Language": language},
        )
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#join-name")
        page.fill("#join-name", name)
        page.click("#join-form button[type=submit]")
        wait_until(page, "() => !document.querySelector('#chat').hidden")
        pages[language] = page
    ann, min_ = pages["en"], pages["ko"]
    ann.click("#chat summary")
    ann.click("#chat .chat-phrase[data-phrase=good_luck]")
    korean = translation("ko").text("chat.good_luck", None)
    wait_until(min_, _log_has("Ann: " + korean))
    wait_until(ann, _log_has("Ann (you): Good luck!"))
    # An emote is drawn, not a font's glyph, and named for screen readers in Korean.
    min_.click("#chat summary")
    emote = min_.locator("#chat .chat-phrase[data-phrase=happy]")
    assert emote.locator("svg").count() == 1
    assert emote.get_attribute("aria-label") == translation("ko").text("chat.happy", None)
    min_.screenshot(path=str(ARTIFACTS / "e2e-chat-ko-phone.png"))
    ann.screenshot(path=str(ARTIFACTS / "e2e-chat-en-desktop.png"))
    for page in pages.values():
        page.context.close()


# Counts the animations the page starts (Element.animate: the cards' travels).
ANIMATION_COUNTER = """
window.__animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animations += 1;
  return animate.apply(this, args);
};
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_moves_are_animated_and_marked_unless_the_reader_asks_for_less_motion(
    browser: Browser, quick_server: ServerProcess, motion: str
) -> None:
    context = browser.new_context(
        viewport={"width": 1366, "height": 768},
        reduced_motion=motion,  # type: ignore[arg-type]
    )
    context.add_init_script(ANIMATION_COUNTER)
    page = context.new_page()
    _play_now(page, quick_server)
    # Moves come (the bot's, and Mina's made for her when her 3 s run out): each is marked.
    wait_until(page, "() => document.querySelectorAll('#log li').length > 8")
    wait_until(page, "() => document.querySelector('.card.last-move') !== null")
    count = page.evaluate("window.__animations")
    if motion == "reduce":
        assert count == 0
    else:
        assert count > 0
    page.screenshot(path=str(ARTIFACTS / f"e2e-last-move-{motion}.png"))
    context.close()


def test_a_name_already_at_the_table_is_refused_with_words_that_say_so(
    browser: Browser, quick_server: ServerProcess
) -> None:
    created = post(quick_server, "/api/tables", {"options": {"player_count": 3}})
    url = f"{quick_server.url}/t/{created['id']}"
    pages = []
    for name, size in (("Ann", (1366, 768)), (" ANN ", (390, 844))):
        context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#join-name")
        page.fill("#join-name", name)
        page.click("#join-form button[type=submit]")
        pages.append(page)
    first, second = pages
    wait_until(first, "() => !document.querySelector('#chat').hidden")  # seated
    refused = _english("refused.name_taken")
    wait_until(second, f"() => document.querySelector('#notice').textContent === {refused!r}")
    assert second.locator("#chat").is_hidden()  # not seated
    assert not second.locator("#join").is_hidden()  # the form is still there to try again
    second.screenshot(path=str(ARTIFACTS / "e2e-name-taken-phone.png"))
    second.fill("#join-name", "Ann B")
    second.click("#join-form button[type=submit]")
    wait_until(second, "() => !document.querySelector('#chat').hidden")
    for page in pages:
        page.context.close()
