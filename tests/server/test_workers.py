"""Two workers behind HAProxy (deploy/haproxy.cfg) on one PostgreSQL schema (#17):
sockets through two entry points play on one table; the owning worker is killed with
SIGKILL inside a Block window and the game finishes on the other one, with every
acknowledged action in a gap-free log."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from .cluster import Proxy, Worker, haproxy
from .harness import ClosedError, Frame
from .live import LivePlayer
from .postgres import fresh_schema

pytestmark = pytest.mark.timeout(240)

BLOCK_TIMEOUT = 6.0
OPTIONS = {"player_count": 2, "chips_to_win": 3, "min_each_colour": 1}


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[Proxy, list[Worker], str]]:
    haproxy()
    env = {
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": str(BLOCK_TIMEOUT),
        "SEQUENCE_STACKS_TURN_TIMEOUT": "300",
        "SEQUENCE_STACKS_GRACE_PERIOD": "300",
        "SEQUENCE_STACKS_ADOPT_INTERVAL": "1",
        "SEQUENCE_STACKS_RATE_PER_SECOND": "200",
        "SEQUENCE_STACKS_RATE_BURST": "400",
    }
    with fresh_schema() as url:
        workers = [Worker(f"w{i}", url, env, tmp_path) for i in (1, 2)]
        proxy = Proxy(workers, tmp_path)
        try:
            for worker in workers:
                worker.start()
            proxy.start()
            yield proxy, workers, url
        finally:
            proxy.stop()
            for worker in workers:
                worker.stop()


class Seat:
    """A seated player that reconnects through the proxy whenever its socket drops,
    as the browser client does, and records every acknowledgement it got."""

    def __init__(self, proxy: Proxy, table: str, token: str, name: str, entry: int) -> None:
        self.proxy, self.table, self.token, self.name, self.entry = proxy, table, token, name, entry
        self.stack = contextlib.ExitStack()
        self.player: LivePlayer | None = None
        self.seen = 0
        self.acks: dict[str, int] = {}
        self.reconnects = 0

    def connect(self) -> Frame:
        for _ in range(150):
            self.stack.close()
            self.stack = contextlib.ExitStack()
            try:
                player = self.stack.enter_context(
                    self.proxy.player(self.table, self.name, self.entry)
                )
                sync = player.hello(self.token, last_version=self.seen or None)
            except (OSError, ClosedError, AssertionError, Exception):
                time.sleep(0.2)
                continue
            self.player = player
            assert sync["version"] >= self.seen  # nothing acknowledged went missing
            self.seen = sync["version"]
            return sync
        raise AssertionError(f"{self.name} could not reconnect")

    def step(self, choose: Callable[[LivePlayer], str | None]) -> None:
        """Drain frames and act once if it is this seat's to act; reconnect on a drop."""
        try:
            assert self.player is not None
            self.player.drain(0.02)
            self.seen = self.player.version
            action = choose(self.player)
            if action is None or self.player.over():
                return
            client_id = self.player.act(action)
            reply = self.player.reply(client_id)
            if reply["type"] == "ack":
                self.acks[client_id] = reply["version"]
            else:
                assert reply["code"] in ("stale", "elsewhere", "unavailable"), reply
        except (ClosedError, OSError):
            self.reconnects += 1
            self.connect()
        except AssertionError as error:
            if "no matching frame" not in str(error):
                raise
            self.reconnects += 1
            self.connect()

    def close(self) -> None:
        self.stack.close()


def _cards_first(player: LivePlayer) -> str | None:
    legal = player.legal()
    if not legal or "pass" in legal:
        return None
    return player.choose()


def _play(player: LivePlayer) -> str | None:
    return player.choose()


def _asked(seat: Seat) -> bool:
    player = seat.player
    view = player.view if player is not None else None
    return bool(
        view
        and view["phase"] == "block_window"
        and player is not None
        and (player.seat in view["window_pending"])
    )


def _until_a_window_asks(seats: list[Seat]) -> Seat:
    """Play cards (no passing) until a Block window asks one of the seats."""
    for _ in range(3000):
        for seat in seats:
            seat.step(_cards_first)
            if _asked(seat):
                return seat
    raise AssertionError("no Block window opened")


def _play_to_the_end(seats: list[Seat]) -> None:
    for _ in range(5000):
        if all(seat.player is not None and seat.player.over() for seat in seats):
            return
        for seat in seats:
            seat.step(_play)
    raise AssertionError("the game did not end")


def _log(url: str, table: str) -> list[tuple[int, dict[str, Any]]]:
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT version, payload FROM log WHERE table_id = %s ORDER BY version", (table,)
        ).fetchall()
    return [(int(v), p if isinstance(p, dict) else json.loads(p)) for v, p in rows]


def _owner(workers: list[Worker]) -> Worker:
    owners = [worker for worker in workers if worker.owned() > 0]
    assert len(owners) == 1, [(w.name, w.health()) for w in workers]
    return owners[0]


def test_two_entry_points_play_one_table_owned_by_one_worker(
    cluster: tuple[Proxy, list[Worker], str],
) -> None:
    proxy, workers, _ = cluster
    table = proxy.post("/api/tables", {"options": OPTIONS}, entry=0)["id"]
    tokens = [
        proxy.post(f"/api/tables/{table}/seats", {"name": name}, entry=entry)["token"]
        for entry, name in enumerate("AB")
    ]
    seats = [
        Seat(proxy, table, token, name, entry)
        for entry, (name, token) in enumerate(zip("ab", tokens, strict=True))
    ]
    try:
        for seat in seats:
            seat.connect()
        assert seats[0].player is not None
        seats[0].player.reply(seats[0].player.command("start"))
        for _ in range(40):
            for seat in seats:
                seat.step(_play)
        owner = _owner(workers)
        assert sum(worker.owned() for worker in workers) == 1
        assert all(seat.reconnects == 0 for seat in seats)
        assert all(seat.acks for seat in seats)
        versions = [seat.player.version for seat in seats if seat.player is not None]
        for seat in seats:
            assert seat.player is not None
            seat.player.drain(0.2)
        final = [seat.player.version for seat in seats if seat.player is not None]
        assert final[0] == final[1]
        assert max(versions) <= final[0]
        # The other worker answers the lobby from the database.
        other = next(worker for worker in workers if worker is not owner)
        with urllib.request.urlopen(f"{other.url}/api/tables/{table}", timeout=5) as response:
            assert json.loads(response.read())["id"] == table
    finally:
        for seat in seats:
            seat.close()


def test_sigkill_of_the_owner_inside_a_block_window_the_game_finishes_elsewhere(
    cluster: tuple[Proxy, list[Worker], str],
) -> None:
    proxy, workers, url = cluster
    table = proxy.post("/api/tables", {"options": OPTIONS})["id"]
    tokens = [proxy.post(f"/api/tables/{table}/seats", {"name": n})["token"] for n in "AB"]
    seats = [
        Seat(proxy, table, token, name, entry)
        for entry, (name, token) in enumerate(zip("ab", tokens, strict=True))
    ]
    try:
        for seat in seats:
            seat.connect()
        assert seats[0].player is not None
        seats[0].player.reply(seats[0].player.command("start"))
        asked = _until_a_window_asks(seats)
        acked_before = {cid: v for seat in seats for cid, v in seat.acks.items()}
        assert acked_before
        owner = _owner(workers)
        survivor = next(worker for worker in workers if worker is not owner)
        owner.kill()
        sync = asked.connect()  # through the proxy: lands on the survivor
        assert sync["view"]["phase"] == "block_window"
        assert sync["you"] in sync["view"]["window_pending"]
        assert sync["timer"]["kind"] == "block"
        assert survivor.owned() == 1
        for seat in seats:
            if seat is not asked:
                seat.connect()
        _play_to_the_end(seats)
        log = _log(url, table)
        assert [version for version, _ in log] == list(range(1, len(log) + 1))  # no gap
        clients = {payload.get("client"): version for version, payload in log}
        for seat in seats:
            for client_id, version in seat.acks.items():
                assert clients.get(client_id) == version, (client_id, version)
        assert set(acked_before) <= set(clients)
    finally:
        for seat in seats:
            seat.close()
