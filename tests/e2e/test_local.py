"""The game on one device (#25) in Debian's chromium: pass-and-play through the UI at a
phone's size (every hand out of the page and of the accessibility tree at each hand-off;
the table's Block prompt; the end; the saved record replayed by the CLI), a claimed Block
checked by the engine, a saved game resumed and a changed one refused, play with the
network off after one visit (the game, the tutorial, a reload mid-game), a new release
picked up without losing the game, the same game in the page and in CPython, and
browsers without WebAssembly or service workers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from sequence_stacks.device import DeviceGame, Player
from sequence_stacks.engine import GameRecord, Phase, Settings, position_digest
from sequence_stacks.i18n.render import card_name, set_language

from .conftest import ServerProcess
from .local_play import PHONE, LocalTab, asked_people, holds_block, needs_runtime, prepared_game

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

CLI = Path(sys.executable).with_name("sequence-stacks")
# What a browser logs when a request finds no network: expected once offline.
OFFLINE_NOISE = re.compile(r"ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_REFUSED|Failed to fetch")
PEOPLE = ("Ann", "Ben", "Cy")

# Every card the page shows as a card (piles, discard tops, played actions, a hand).
_CARDS_IN_PAGE = (
    "() => [...document.querySelectorAll('[data-card]')].map((el) => Number(el.dataset.card))"
)


def hands(tab: LocalTab, seats: int) -> dict[int, list[int]]:
    """Every seat's hand, as the engine in the page holds it."""
    return {seat: tab.ask({"op": "view", "viewer": seat})["view"]["hand"] for seat in range(seats)}


def assert_hands_hidden(tab: LocalTab, seats: int) -> None:
    """The hand-off screen: no hand in the page, nor in the accessibility tree (R36)."""
    page = tab.page
    assert page.locator("#hand .card").count() == 0
    assert page.locator("#hand-area").is_hidden()
    # No card still travelling over the hand-off (a copy of a card flying to the pool or to
    # a thief would be drawn above it).
    assert page.locator("#flights > *").count() == 0
    held = {card for hand in hands(tab, seats).values() for card in hand}
    shown = set(page.evaluate(_CARDS_IN_PAGE))
    assert not shown & held, f"cards of a hand in the page: {sorted(shown & held)}"
    tree = accessible_names(tab)
    assert "Your hand" not in tree
    assert "Sequence piles" not in tree  # the table behind the hand-off is out of the tree
    set_language("en")
    for card in held:
        assert not any(card_name(card) in name for name in tree), card_name(card)
    assert any(name.endswith("show my cards") for name in tree)


def accessible_names(tab: LocalTab) -> list[str]:
    """The names of every node of Chromium's own accessibility tree that is not ignored
    (what a screen reader can reach)."""
    session = tab.context.new_cdp_session(tab.page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    return [
        str(node["name"]["value"])
        for node in nodes
        if not node.get("ignored") and node.get("name", {}).get("value")
    ]


def test_pass_and_play_three_people_and_a_bot_at_phone_size(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    needs_runtime()
    tab = LocalTab(browser, server.url, viewport=PHONE)
    tab.open()
    tab.ready()
    tab.set_up([(name, None) for name in PEOPLE] + [("", "greedy")])
    seen = {"handoff": 0, "prompt": 0, "turn": 0, "refused_claim": 0, "claimed": 0}
    while (waiting := tab.waiting(timeout=60)) != "end":
        seen[waiting] += 1
        if waiting == "handoff":
            assert_hands_hidden(tab, 4)
            seat = int(tab.page.get_attribute("#handoff", "data-seat") or -1)
            assert tab.page.inner_text("#handoff-title") == f"Pass to {PEOPLE[seat]}"
            if seen["handoff"] == 1:
                tab.shot("handoff")
            tab.page.click("#handoff-show")
            assert tab.waiting() == "turn"
            assert tab.state()["viewer"] == seat
            shown = tab.page.locator("#hand .card").count()
            assert shown == len(hands(tab, 4)[seat])
        elif waiting == "prompt":
            answer_prompt(tab, seen)
        else:
            tab.play_hint()
    tab.shot("end")
    assert seen["handoff"] >= 3
    assert seen["turn"] >= 3
    assert seen["prompt"] >= 1, "no Block window asked the people in a whole game"
    assert seen["refused_claim"] + seen["claimed"] >= 1
    result = tab.state()["view"]["result"]
    winner = result["winner"]
    if winner is not None:
        name = "Greedy bot 4" if winner == 3 else PEOPLE[winner]
        assert tab.page.inner_text("#end .text") == f"{name} wins!"
    assert tab.page.locator("#end .standings tbody tr").count() == 4
    record_path = export(tab, tmp_path)
    replayed = subprocess.run(
        [str(CLI), "replay", str(record_path)], capture_output=True, text=True, check=False
    )
    assert replayed.returncode == 0, replayed.stderr
    record = json.loads(record_path.read_text())
    assert record["result"] == result
    assert record["meta"]["players"][:3] == list(PEOPLE)
    assert record["digest"] in replayed.stdout
    assert not tab.errors, tab.errors


def answer_prompt(tab: LocalTab, seen: dict[str, int]) -> None:
    """At the table's Block prompt: claim a Block for an asked person with none (once),
    for one holding one (once), else "Nobody blocks"."""
    page = tab.page
    view = tab.state()["view"]
    asked = [seat for seat in view["deciders"] if seat < len(PEOPLE)]
    assert page.locator("#table-prompt .claim").count() == len(asked)
    held = hands(tab, 4)
    without = [seat for seat in asked if not holds_block(held[seat])]
    holders = [seat for seat in asked if holds_block(held[seat])]
    if without and not seen["refused_claim"]:
        seat = without[0]
        claim = page.locator(f'#table-prompt .claim[data-seat="{seat}"]')
        claim.click()
        page.wait_for_selector("#notice:not([hidden])")
        assert page.inner_text("#notice") == f"{PEOPLE[seat]} has no Block card to play."
        tab.wait_for(claim.is_disabled, "the refused claim's button to go off")
        assert tab.state()["view"]["phase"] == "block_window"  # refused: nothing changed
        seen["refused_claim"] += 1
        tab.shot("refused-claim")
    elif holders and not seen["claimed"]:
        seat = holders[0]
        page.click(f'#table-prompt .claim[data-seat="{seat}"]')
        tab.wait_for(lambda: tab.state()["view"]["phase"] != "block_window", "the window to close")
        assert f"{PEOPLE[seat]} blocks!" in page.inner_text("#log")
        seen["claimed"] += 1
    else:
        tab.nobody()


def export(tab: LocalTab, folder: Path) -> Path:
    """Save the game record through the page's button."""
    with tab.page.expect_download() as download:
        tab.page.click("#export")
    path = folder / "record.json"
    download.value.save_as(path)
    return path


def test_a_claimed_block_is_checked_by_the_engine_and_the_others_pass(
    browser: Browser, server: ServerProcess
) -> None:
    """A saved game whose Block window asks a person with a Block and one without:
    the page resumes it at the window; a claim without a Block is refused, one with a
    Block blocks the pile; nobody else is asked any more."""
    needs_runtime()
    players = [Player("Ann"), Player("Ben"), Player("Cy"), Player("Greedy bot 4", "greedy")]

    def ready(game: DeviceGame) -> bool:
        asked = asked_people(game)
        held = {seat: holds_block(game.state.hands[seat]) for seat in asked}
        return any(held.values()) and not all(held.values())

    game = prepared_game(players, ready)
    asked = asked_people(game)
    holder = next(seat for seat in asked if holds_block(game.state.hands[seat]))
    other = next(seat for seat in asked if not holds_block(game.state.hands[seat]))
    tab = LocalTab(browser, server.url, viewport={"width": 1280, "height": 900})
    tab.open()
    tab.ready()
    tab.put_save(game.save())
    tab.page.reload()
    assert tab.waiting() == "prompt"
    assert "The game goes on where you left it." in tab.page.inner_text("#log")
    text = tab.page.inner_text("#table-prompt .text")
    assert text.startswith(f"{players[game.state.window_completer].name} completed")
    tab.page.click(f'#table-prompt .claim[data-seat="{other}"]')
    tab.page.wait_for_selector("#notice:not([hidden])")
    assert tab.page.inner_text("#notice") == f"{players[other].name} has no Block card to play."
    tab.shot("claim-refused")
    tab.page.click(f'#table-prompt .claim[data-seat="{holder}"]')
    tab.wait_for(lambda: tab.state()["view"]["phase"] != "block_window", "the window to close")
    assert f"{players[holder].name} blocks!" in tab.page.inner_text("#log")
    record = GameRecord.from_dict(tab.ask({"op": "record"})["record"])
    answers = record.actions[len(game.actions) :]
    assert (holder, "block") in [(seat, action.notation()) for seat, action in answers]
    assert tab.page.locator("#table-prompt").is_hidden()
    assert not tab.errors, tab.errors


@pytest.mark.parametrize("how", ["an action changed", "no game at all"])
def test_a_changed_save_is_refused_with_a_fresh_start(
    browser: Browser, server: ServerProcess, how: str
) -> None:
    needs_runtime()
    tab = LocalTab(browser, server.url)
    tab.open()
    tab.ready()
    tab.set_up([("Ann", None), ("", "greedy")])
    tab.play_hint()
    save = tab.get_save()
    assert save["record"]["actions"]
    if how == "an action changed":
        save["record"]["actions"][0] = save["record"]["actions"][0].rsplit(" ", 1)[0] + " end"
    else:
        save = "not a saved game"
    tab.put_save(save)
    tab.page.reload()
    tab.page.wait_for_selector("#notice:not([hidden])")
    assert tab.page.inner_text("#notice") == (
        "The saved game could not be read: it was changed or damaged. A new game starts."
    )
    assert tab.page.locator("#setup").is_visible()
    assert tab.page.locator("#board").is_hidden()
    assert tab.get_save() is None  # the refused save is gone
    tab.set_up([("Ann", None), ("", "greedy")])  # and a new game starts as ever
    assert tab.waiting() == "turn"
    assert [error for error in tab.errors if "saved game was refused" not in error] == []


def test_after_one_visit_the_game_and_the_tutorial_work_offline(
    browser: Browser, server: ServerProcess
) -> None:
    needs_runtime()
    tab = LocalTab(browser, server.url)
    tab.open()
    tab.ready()
    tab.page.wait_for_selector("#offline-status[data-ready]", timeout=60_000)
    tab.set_up([("Ann", None), ("", "greedy"), ("", "heuristic")])
    for _ in range(3):
        while tab.waiting() == "prompt":
            tab.nobody()
        tab.play_hint()
    while tab.waiting() == "prompt":
        tab.nobody()
    # A reload mid-game resumes it, at the same move: the page waits for Ann's; its
    # engine starts from the bytecode it compiled from the source on the first visit.
    assert tab.waiting() == "turn"
    before = tab.state()["version"]
    kept_bytecode(tab)
    tab.page.reload()
    assert tab.ready()["bytecode"] is True
    tab.waiting()
    assert tab.state()["version"] == before
    assert "The game goes on where you left it." in tab.page.inner_text("#log")
    # No server, no network.
    server.stop()
    tab.context.set_offline(True)
    tab.page.reload()
    tab.ready()
    while (waiting := tab.waiting(timeout=60)) != "end":
        if waiting == "turn":
            tab.play_hint()
        else:
            assert waiting == "prompt"
            tab.nobody()
    assert tab.state()["view"]["result"] is not None
    tab.shot("offline-end")
    # The tutorial, its moves answered from what was kept.
    tab.open("/learn")
    tab.page.wait_for_selector("#hand .card")
    tab.page.locator("#hand .card.playable").first.click()
    tab.page.locator("#choices button.primary").first.click()
    tab.page.wait_for_selector("#happened:not([hidden])")
    assert tab.page.get_attribute("#lesson", "data-status") in ("done", "other")
    # An online table says it needs the network; the lobby too.
    tab.open("/t/some-table")
    assert tab.page.text_content("main h2") == "No network"
    tab.open("/")
    tab.page.wait_for_selector("#offline-note:not([hidden])")
    unexpected = [error for error in tab.errors if not OFFLINE_NOISE.search(error)]
    assert not unexpected, unexpected


def test_a_new_release_is_picked_up_on_the_next_visit_and_keeps_the_game(
    browser: Browser, server: ServerProcess
) -> None:
    needs_runtime()
    tab = LocalTab(browser, server.url)
    tab.open()
    tab.ready()
    tab.page.wait_for_selector("#offline-status[data-ready]", timeout=60_000)
    tab.set_up([("Ann", None), ("", "greedy")])
    tab.play_hint()
    while tab.waiting() == "prompt":
        tab.nobody()
    version = tab.state()["version"]
    old = build_version(server)
    server.stop()
    server.env["SEQUENCE_STACKS_RELEASE"] = "the next one"
    server.start()
    new = build_version(server)
    assert new != old
    wanted = [f"sequence-stacks-{new}"]
    names: list[str] = []
    # A visit installs the new release (fetching every file it keeps: slow on a busy
    # machine); it takes over once no page of the old one is open, i.e. at the visit
    # after its install ended, and then drops the old copies.
    for _ in range(4):
        tab.visit_again()
        tab.ready()
        tab.page.wait_for_function(_INSTALLED, timeout=180_000)
        deadline = time.monotonic() + 10
        names = tab.page.evaluate(_COPIES)
        while names != wanted and time.monotonic() < deadline:
            tab.page.wait_for_timeout(200)
            names = tab.page.evaluate(_COPIES)
        if names == wanted:
            break
    assert names == wanted
    tab.waiting()
    assert tab.state()["version"] == version  # the game in progress went on
    assert not tab.errors, tab.errors


def test_kept_bytecode_that_does_not_import_is_replaced_by_the_source(
    browser: Browser, server: ServerProcess
) -> None:
    needs_runtime()
    tab = LocalTab(browser, server.url)
    tab.open()
    assert tab.ready()["bytecode"] is False  # the first visit compiles the source
    key = kept_bytecode(tab)
    tab.page.evaluate(
        """async (key) => (await caches.open("sequence-stacks-bytecode"))
             .put(key, new Response(new Uint8Array([1, 2, 3])))""",
        key,
    )
    tab.page.reload()
    assert tab.ready()["bytecode"] is False  # the broken copy was not used ...
    tab.set_up([("Ann", None), ("", "greedy")])  # ... and the game plays from the source
    tab.play_hint()
    assert kept_bytecode(tab) == key  # compiled and kept again
    tab.page.reload()
    assert tab.ready()["bytecode"] is True
    tab.waiting()
    assert [error for error in tab.errors if "the kept bytecode did not import" not in error] == []
    assert any("the kept bytecode did not import" in error for error in tab.errors)


# The service worker's caches of the page's files (not the engine's bytecode).
_COPIES = (
    """async () => (await caches.keys()).filter((name) => name !== "sequence-stacks-bytecode")"""
)
# No service worker of the site is still installing (fetching what it keeps).
_INSTALLED = (
    "async () => { const r = await navigator.serviceWorker.getRegistration(); "
    "return !r || !r.installing; }"
)


def kept_bytecode(tab: LocalTab) -> str:
    """Wait until the page's engine has kept the bytecode it compiled: its cache key."""
    found: str = tab.page.evaluate(
        """async () => { for (;;) {
             const keys = await (await caches.open("sequence-stacks-bytecode")).keys();
             const kept = keys.length ? await caches.match(keys[0]) : null;
             if (kept && (await kept.arrayBuffer()).byteLength > 3) return keys[0].url;
             await new Promise((r) => setTimeout(r, 50)); } }"""
    )
    return found


def build_version(server: ServerProcess) -> str:
    text = server.get("/sw.js")
    version: str = json.loads(text.split("/* build */")[1])["version"]
    return version


@pytest.mark.parametrize(
    ("bots", "seed"),
    [
        (("greedy", "heuristic"), 3),
        (("heuristic", "random", "greedy"), 11),
        (("heuristic", "heuristic", "greedy", "random"), 5),
        (("greedy", "heuristic", "random", "greedy", "heuristic", "greedy"), 8),
    ],
)
def test_a_seeded_game_gives_the_same_record_in_the_page_and_on_the_server(
    browser: Browser, server: ServerProcess, bots: tuple[str, ...], seed: int
) -> None:
    """The same players and seed played by the page's engine (Pyodide, the package's
    Python source) and by this process's (compiled where it could be): the same actions,
    the same final position."""
    needs_runtime()
    tab = LocalTab(browser, server.url, viewport={"width": 800, "height": 600})
    tab.open()
    python = tab.ready()["python"]
    players = [{"name": f"{bot} {seat}", "bot": bot} for seat, bot in enumerate(bots)]
    record: dict[str, Any] = tab.page.evaluate(
        """async ([players, seed]) => {
          const ask = window.sequenceStacks.ask;
          let answer = await ask({op: "new", players, seed});
          while (!answer.view.result) {
            answer = await ask({op: "bot", seat: answer.view.deciders[0]});
          }
          return (await ask({op: "record"})).record;
        }""",
        [players, seed],
    )
    game = DeviceGame(Settings(player_count=len(bots)), seed, [Player(**p) for p in players])
    while game.state.result is None:
        game.bot_move(game.state.deciders()[0], None)
    mine = game.game_record()
    assert record["actions"] == mine["actions"]
    assert record["digest"] == mine["digest"] == position_digest(game.state)
    assert GameRecord.from_dict(record).replay().phase == Phase.OVER
    assert python.startswith("3.")
    assert python != sys.version.split()[0]  # another Python did it


def test_without_webassembly_the_page_says_so_and_online_play_works(
    browser: Browser, server: ServerProcess
) -> None:
    tab = LocalTab(browser, server.url, init_script="delete globalThis.WebAssembly;")
    tab.open()
    tab.page.wait_for_selector("#unsupported:not([hidden])")
    assert "no WebAssembly" in tab.page.inner_text("#unsupported")
    assert tab.page.locator("#setup-form").is_hidden()
    tab.page.click("#unsupported a")
    tab.page.wait_for_selector("#play-now")
    tab.page.fill("#play-now input[name=name]", "Ann")
    tab.page.click("#play-now button")
    tab.page.wait_for_selector('#connection[data-state="online"]', timeout=20_000)
    tab.page.wait_for_selector("#hand .card")
    assert not tab.errors, tab.errors


def test_without_service_workers_the_game_is_played_online(
    browser: Browser, server: ServerProcess
) -> None:
    needs_runtime()
    tab = LocalTab(browser, server.url, init_script="delete Navigator.prototype.serviceWorker;")
    tab.open()
    tab.ready()
    tab.page.wait_for_selector("#offline-status:not(:empty)")
    assert tab.page.inner_text("#offline-status") == (
        "This browser cannot keep the game for playing offline: it works while you are online."
    )
    tab.set_up([("Ann", None), ("", "greedy")])
    assert tab.waiting() == "turn"
    tab.play_hint()
    # The online game works as ever in such a browser.
    tab.open("/")
    tab.page.wait_for_selector("#play-now")
    tab.page.fill("#play-now input[name=name]", "Ann")
    tab.page.click("#play-now button")
    tab.page.wait_for_selector('#connection[data-state="online"]', timeout=20_000)
    tab.page.wait_for_selector("#hand .card")
    assert not tab.errors, tab.errors
