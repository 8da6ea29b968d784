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

import pytest

from support.cluster import Proxy, Worker, running_cluster
from support.postgres import table_log
from support.server_process import get_json, wait_until

from .harness import ClosedError, Frame
from .live import LivePlayer, live_player

pytestmark = pytest.mark.timeout(240)

BLOCK_TIMEOUT = 6.0
OPTIONS = {"player_count": 2, "chips_to_win": 3, "min_each_colour": 1}


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[Proxy, list[Worker], str]]:
    env = {
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": str(BLOCK_TIMEOUT),
        "SEQUENCE_STACKS_TURN_TIMEOUT": "300",
        "SEQUENCE_STACKS_GRACE_PERIOD": "300",
        "SEQUENCE_STACKS_ADOPT_INTERVAL": "1",
        "SEQUENCE_STACKS_RATE_PER_SECOND": "200",
        "SEQUENCE_STACKS_RATE_BURST": "400",
        "SEQUENCE_STACKS_CREATE_BURST": "100",
        "SEQUENCE_STACKS_SIT_BURST": "400",
    }
    with running_cluster(tmp_path, env) as running:
        yield running.proxy, running.workers, running.database


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
        self.close_codes: list[int] = []

    def connect(self) -> Frame:
        for _ in range(150):
            self.stack.close()
            self.stack = contextlib.ExitStack()
            try:
                player = self.stack.enter_context(
                    live_player(self.proxy.ws_url(self.table, self.entry), self.name)
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
        except ClosedError as closed:
            self.close_codes.append(closed.code)
            self.reconnects += 1
            self.connect()
        except OSError:
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


def _owner(workers: list[Worker]) -> Worker:
    owners = [worker for worker in workers if worker.owned() > 0]
    assert len(owners) == 1, [(w.name, w.health()) for w in workers]
    return owners[0]


def _assert_log_holds_every_ack(url: str, table: str, seats: list[Seat]) -> None:
    """The log is gap-free, and holds each acknowledged command at the version it was
    acknowledged with; no version was acknowledged twice."""
    log = table_log(url, table)
    assert [version for version, _ in log] == list(range(1, len(log) + 1))  # no gap
    clients = {payload.get("client"): version for version, payload in log}
    acked = [(client_id, v) for seat in seats for client_id, v in seat.acks.items()]
    for client_id, version in acked:
        assert clients.get(client_id) == version, (client_id, version)
    versions = [version for _, version in acked]
    assert len(versions) == len(set(versions))


def _logged(worker: Worker, message: str, table: str) -> bool:
    """Whether the worker's JSON log has a line about ``table`` containing ``message``."""
    for line in worker.log_path.read_text().splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("table") == table and message in record["msg"]:
                return True
    return False


def _rounds(seats: list[Seat], count: int, choose: Callable[[LivePlayer], str | None]) -> None:
    """Each seat steps ``count`` times in turn."""
    for _ in range(count):
        for seat in seats:
            seat.step(choose)


def _started_table(proxy: Proxy) -> tuple[str, list[Seat]]:
    """A two-seat table whose seats sit and connect through the two entry points; the
    game started."""
    table = proxy.post("/api/tables", {"options": OPTIONS})["id"]
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
    except BaseException:
        for seat in seats:
            seat.close()
        raise
    return table, seats


def test_two_entry_points_play_one_table_owned_by_one_worker(
    cluster: tuple[Proxy, list[Worker], str],
) -> None:
    proxy, workers, _ = cluster
    table, seats = _started_table(proxy)
    try:
        _rounds(seats, 40, _play)
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
    table, seats = _started_table(proxy)
    try:
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
        log = table_log(url, table)
        assert [version for version, _ in log] == list(range(1, len(log) + 1))  # no gap
        clients = {payload.get("client"): version for version, payload in log}
        for seat in seats:
            for client_id, version in seat.acks.items():
                assert clients.get(client_id) == version, (client_id, version)
        assert set(acked_before) <= set(clients)
    finally:
        for seat in seats:
            seat.close()


def test_sigterm_hands_the_owners_tables_over_and_the_worker_exits_0(
    cluster: tuple[Proxy, list[Worker], str],
) -> None:
    """A graceful stop: the owner lets its table go (lock released, sockets told 1012)
    before it exits; the players reconnect through the proxy to the other worker and
    play on; the owner exits with status 0."""
    proxy, workers, url = cluster
    table, seats = _started_table(proxy)
    try:
        _rounds(seats, 6, _cards_first)
        owner = _owner(workers)
        survivor = next(worker for worker in workers if worker is not owner)
        assert owner.process is not None
        last_before = max(v for seat in seats for v in seat.acks.values())
        owner.terminate()
        for _ in range(2000):  # play on while it stops: each socket is moved (1012)
            if owner.process.poll() is not None and all(s.close_codes for s in seats):
                break
            for seat in seats:
                seat.step(_cards_first)
        assert owner.process.wait(timeout=20) == 0
        assert all(1012 in seat.close_codes for seat in seats), [s.close_codes for s in seats]
        assert _logged(owner, "released by worker", table)  # handed over, not left to die
        wait_until(lambda: survivor.owned() == 1, "the other worker owns the table", 10)
        _rounds(seats, 10, _play)
        assert max(v for seat in seats for v in seat.acks.values()) > last_before
        _assert_log_holds_every_ack(url, table, seats)
    finally:
        for seat in seats:
            seat.close()


def _sit(proxy: Proxy, table: str, name: str) -> str:
    token: str = proxy.post(f"/api/tables/{table}/seats", {"name": name})["token"]
    return token


def _reachable(proxy: Proxy, table: str, token: str) -> int:
    """Open the table's socket through the proxy (retrying while it moves); its version."""
    seat = Seat(proxy, table, token, "probe", 1)
    try:
        return int(seat.connect()["version"])
    finally:
        seat.close()


def _routes_to(proxy: Proxy, name: str) -> bool:
    """Whether the proxy sends requests to worker ``name`` (the health check is not
    hashed: a few of them reach every worker the proxy counts as up)."""
    return any(get_json(f"{proxy.url()}/api/health")[1].get("worker") == name for _ in range(6))


def test_a_restarted_worker_gets_its_tables_handed_back_through_the_proxy(
    cluster: tuple[Proxy, list[Worker], str],
) -> None:
    """SIGKILL w1: its tables go to w2 and keep working through the proxy. w1 comes
    back on its port: the proxy routes its share of tables to it again, w2 hands them
    back on request (NOTIFY), and every table still takes seats and sockets."""
    proxy, workers, url = cluster
    first, second = workers
    tables: list[str] = []
    tokens: dict[str, str] = {}
    for _ in range(30):  # until each worker owns two tables (the hash decides which)
        if first.owned() >= 2 and second.owned() >= 2:
            break
        table = proxy.post("/api/tables", {"options": {"player_count": 4}})["id"]
        tables.append(table)
        tokens[table] = _sit(proxy, table, "Ann")
    share = first.owned()
    assert share >= 2, [w.health() for w in workers]
    assert second.owned() >= 2, [w.health() for w in workers]
    first.kill()
    for table in tables:  # the survivor takes every table as it is asked
        _sit(proxy, table, "Bob")
    assert second.owned() == len(tables)
    first.start()
    # Once the proxy sends w1's share to w1 again, w2 lets those tables go on request.
    wait_until(lambda: _routes_to(proxy, "w1"), "the proxy routes to w1 again")
    for table in tables:
        _sit(proxy, table, "Cat")
    assert first.owned() == share
    assert second.owned() == len(tables) - share
    for table in tables:
        assert _reachable(proxy, table, tokens[table]) == 3
        assert [version for version, _ in table_log(url, table)] == [1, 2, 3]
    handed = [t for t in tables if _logged(second, "handed off on request", t)]
    assert len(handed) == share
    assert all(_logged(first, "owned by worker w1", t) for t in handed)
