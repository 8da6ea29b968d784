"""The browser game once against the many-worker setup (#17): two workers (real
processes on uvicorn) on one PostgreSQL schema behind HAProxy with deploy/haproxy.cfg.

A page creates a table in the lobby and plays a whole game with two bots through the
UI. Mid-game the worker that owns the table is killed (SIGKILL): the page reconnects
by itself through the proxy and the game finishes on the other worker, with every
action the page saw acknowledged in a gap-free log, and no frame showing a card the
player may not see."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sequence_stacks.server.store.postgres import PostgresStorage
from support.cluster import Cluster, Worker, running_cluster
from support.postgres import table_log

from .play import Tab, act_and_wait, assert_no_leaks, step

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

DESKTOP = {"width": 1280, "height": 860}
ENV = {
    "SEQUENCE_STACKS_BOT_DELAY": "0.02,0.08",
    "SEQUENCE_STACKS_BOT_BLOCK_DELAY": "0.05,0.2",
    "SEQUENCE_STACKS_BLOCK_TIMEOUT": "6",
    "SEQUENCE_STACKS_TURN_TIMEOUT": "120",
    "SEQUENCE_STACKS_GRACE_PERIOD": "120",
    "SEQUENCE_STACKS_ADOPT_INTERVAL": "1",
}
GAME_SECONDS = 150  # a generous bound: the game takes 10-40 s


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path, ENV) as running:
        yield running


def _create_table_with_two_bots(ann: Tab, entry: str) -> str:
    """Through the lobby page: a three-seat table, Ann seated, two greedy bots; started."""
    page = ann.page
    page.goto(entry + "/")
    ann.shot("workers-lobby")
    page.select_option("#create select[name=players]", "3")
    page.click("summary")
    page.fill("input[name=chips_to_win]", "3")
    page.fill("input[name=min_each_colour]", "1")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    ann.sit("Ann")
    for count in (1, 2):
        page.locator("#lobby-seats button", has_text="Add greedy bot").first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('.lobby-seat.bot').length >= n", arg=count
        )
    page.click("#start")
    page.wait_for_selector("#board:not([hidden])")
    return page.url.rsplit("/", 1)[1]


def _owner(workers: list[Worker]) -> Worker:
    owners = [worker for worker in workers if worker.owned() > 0]
    assert len(owners) == 1, [(worker.name, worker.health()) for worker in workers]
    return owners[0]


def _acks(tab: Tab) -> dict[str, int]:
    """Every command the page had acknowledged: client id -> version."""
    frames = [json.loads(raw) for raw in tab.frames]
    return {frame["id"]: frame["version"] for frame in frames if frame["type"] == "ack"}


def _kill_the_owner(ann: Tab, workers: list[Worker]) -> Worker:
    """SIGKILL the owning worker; the page reconnects by itself; return the survivor."""
    owner = _owner(workers)
    survivor = next(worker for worker in workers if worker is not owner)
    ann.shot("workers-before-kill")
    sockets = ann.sockets
    owner.kill()
    ann.page.wait_for_selector('#connection[data-state="reconnecting"]', timeout=10_000)
    ann.wait_online(timeout=30_000)
    ann.shot("workers-after-kill")
    assert ann.sockets > sockets  # a new socket, opened by the page itself
    assert survivor.owned() == 1
    return survivor


def _pass_if_asked(ann: Tab) -> bool:
    """If a Block window asks Ann, pass once its prompt shows (a bot's Block may close
    the window first: then there is nothing to answer; #24: with no Block she has
    nothing to tap, and the window's end moves the table on). True if she was asked."""
    state = ann.ui()
    view = state["view"]
    if not view or view["phase"] != "block_window" or state["you"] not in view["window_pending"]:
        return False
    button = ann.page.locator("#block-prompt:not([hidden]) #answer-pass")

    def click() -> None:
        with contextlib.suppress(PlaywrightTimeout):
            if ann.page.locator("#block-prompt[data-mode=choose]").count():
                button.click(timeout=2_000)

    act_and_wait(ann, click)
    return True


def _play_to_the_end(ann: Tab, workers: list[Worker]) -> tuple[int, Worker | None]:
    """Ann's moves through the UI until the game is over, killing the owner after her
    third; returns how many acks she had when it died, and the survivor."""
    moves = acked_at_kill = 0
    survivor: Worker | None = None
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        if ann.ui()["table"]["status"] == "over":
            return acked_at_kill, survivor
        if _pass_if_asked(ann):
            continue
        acted = step(ann, starts_piles=False)
        moves += acted
        if not acted:
            ann.page.wait_for_timeout(30)  # the bots' turns: leave the CPU to the workers
        if moves >= 3 and survivor is None:
            acked_at_kill = len(_acks(ann))
            survivor = _kill_the_owner(ann, workers)
    raise AssertionError(f"the game did not end in {GAME_SECONDS} s ({moves} moves)")


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        text: str = response.read().decode()
        return text


def test_a_browser_game_finishes_on_the_other_worker_after_its_owner_is_killed(
    cluster: Cluster, browser: Browser
) -> None:
    ann = Tab(browser, "ann", DESKTOP)
    entry = cluster.proxy.url()
    table_id = _create_table_with_two_bots(ann, entry)
    ann.shot("workers-board")
    acked_at_kill, survivor = _play_to_the_end(ann, cluster.workers)
    assert survivor is not None, "the game ended before the owner was killed"
    ann.page.wait_for_selector("#result:not([hidden])")
    ann.shot("workers-result")
    assert survivor.owned() == 1
    assert not ann.errors, ann.errors

    log = table_log(cluster.database, table_id)
    assert [version for version, _ in log] == list(range(1, len(log) + 1))  # no gap
    clients = {payload.get("client"): version for version, payload in log}
    acks = _acks(ann)
    assert acked_at_kill >= 3
    assert len(acks) > acked_at_kill  # she acted on the other worker too
    for client_id, version in acks.items():
        assert clients.get(client_id) == version, (client_id, version)

    # The replay is read from the database by whichever worker the proxy picks.
    ann.page.goto(f"{entry}/replay/{table_id}/1")
    ann.page.wait_for_selector("#replay-seats .seat")
    ann.shot("workers-replay")
    storage = PostgresStorage(cluster.database)
    try:
        pages = [_get(entry + path) for path in ("/", f"/t/{table_id}")]
        assert_no_leaks(storage, table_id, {0: ann}, pages)
    finally:
        storage.close()
