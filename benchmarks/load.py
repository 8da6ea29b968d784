"""Load benchmark: many concurrent tables played over real WebSockets on loopback.

Starts ``python -m sequence_stacks.server`` on a free port with a fresh SQLite file,
creates ``--tables`` two-seat tables, and plays every seat from this process with a
simple client policy (play a card if possible, else discard) for ``--seconds``,
rematching finished tables. Reports accepted actions per second and the p50/p99
round trip from sending an action to receiving its acknowledgement (which the server
sends only after committing the action to SQLite).

    python benchmarks/load.py --tables 200 --seconds 20 [--think 0.5]

``--think`` is each client's pause before acting (a player's pace); ``--think 0`` keeps
every seat acting as fast as acknowledgements come back, which saturates the server and
measures its throughput rather than its latency. ``--jitter J`` draws each pause
uniformly from ``think * (1 - J) .. think * (1 + J)`` (same mean): with ``J = 0`` every
table acts in lock step, so the server sees bursts of ``--tables`` actions at once,
which no crowd of real players produces. ``--no-compression`` turns WebSocket
permessage-deflate off (browsers ask for it, so it is on by default).
The server accepts compression only if it is configured to (``SEQUENCE_STACKS_COMPRESSION=1``
in the environment, which the server inherits; off by default): the report says what
was accepted. ``LOAD_SERVER_COMMAND`` replaces the server command (for profiling).

The server runs in its own process; this client process shares the machine with it.
The report includes both processes' CPU use and the client's event-loop lag (how late
a 10 ms timer fires), so a slow client shows up as such rather than as server latency.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

OPTIONS = {"player_count": 2}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


class Seat:
    """One seated client: acts whenever its view has legal actions."""

    def __init__(
        self, base: str, table_id: str, token: str, stats: Stats, *, think: float, jitter: float
    ) -> None:
        self.url = f"ws://{base}/ws/{table_id}"
        self.think = think
        self.jitter = jitter
        self.rng = random.Random(f"{table_id}-{token}")
        self.token = token
        self.stats = stats
        self.version = 0
        self.seat: int | None = None
        self.actions: list[str] = []
        self.sent: dict[str, float] = {}
        self.counter = 0

    async def run(self, stop: float) -> None:
        compression = "deflate" if self.stats.compression else None
        async with connect(self.url, max_size=2**22, compression=compression) as ws:
            if ws.response is not None:
                accepted = ws.response.headers.get("Sec-WebSocket-Extensions", "")
                self.stats.extensions.add(accepted.split(";")[0] or "none")
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            while time.monotonic() < stop:
                try:
                    text = await asyncio.wait_for(
                        ws.recv(), timeout=max(0.01, stop - time.monotonic())
                    )
                except TimeoutError:
                    return
                await self._handle(ws, json.loads(text))

    async def _handle(self, ws: ClientConnection, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "ack":
            started = self.sent.pop(frame["id"], None)
            if started is not None:
                self.stats.latencies.append(time.monotonic() - started)
            return
        if kind == "refused":
            self.sent.pop(frame["id"], None)
            self.stats.refused += 1
            return
        if kind not in ("sync", "update"):
            return
        self.version = frame["version"]
        if kind == "sync":
            self.seat = frame["you"]
        if frame.get("actions"):
            self.actions = frame["actions"]
        view = frame.get("view")
        table = frame.get("table") or {}
        if table.get("status") == "over" and self.seat == 0 and kind == "update":
            await self._send(ws, {"type": "start"})  # rematch
            return
        if not view or not view["legal_action_ids"] or not self.actions:
            return
        legal = [self.actions[i] for i in view["legal_action_ids"]]
        ends = [a for a in legal if a.startswith("discard") or a == "end"]
        plays = [a for a in legal if a not in ends]
        choice = "pass" if "pass" in legal else plays[0] if plays else ends[-1]
        if self.think:
            spread = self.think * self.jitter
            await asyncio.sleep(self.rng.uniform(self.think - spread, self.think + spread))
        await self._send(ws, {"type": "act", "action": choice})

    async def _send(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        self.counter += 1
        client_id = f"{id(self)}-{self.counter}"
        self.sent[client_id] = time.monotonic()
        await ws.send(json.dumps({**message, "id": client_id, "version": self.version}))


class Stats:
    def __init__(self, *, compression: bool = True) -> None:
        self.latencies: list[float] = []
        self.refused = 0
        self.lags: list[float] = []
        self.compression = compression
        self.extensions: set[str] = set()  # what the server accepted


async def _watch_lag(stats: Stats, stop: float, tick: float = 0.01) -> None:
    """Record how late a ``tick`` timer fires in this (the client's) event loop."""
    while time.monotonic() < stop:
        before = time.monotonic()
        await asyncio.sleep(tick)
        stats.lags.append(time.monotonic() - before - tick)


async def _play(
    base: str,
    tables: list[tuple[str, list[str]]],
    seconds: float,
    think: float,
    *,
    jitter: float = 0.0,
    compression: bool = True,
) -> Stats:
    stats = Stats(compression=compression)
    stop = time.monotonic() + seconds
    seats = [
        Seat(base, table_id, token, stats, think=think, jitter=jitter)
        for table_id, tokens in tables
        for token in tokens
    ]
    await asyncio.gather(_watch_lag(stats, stop), *(seat.run(stop) for seat in seats))
    return stats


def _setup(url: str, count: int) -> list[tuple[str, list[str]]]:
    tables = []
    for _ in range(count):
        table_id = _post(f"{url}/api/tables", {"options": OPTIONS, "visibility": "unlisted"})["id"]
        tokens = [
            _post(f"{url}/api/tables/{table_id}/seats", {"name": name})["token"]
            for name in ("A", "B")
        ]
        tables.append((table_id, tokens))
    return tables


async def _start_all(base: str, tables: list[tuple[str, list[str]]]) -> None:
    for table_id, tokens in tables:
        async with connect(f"ws://{base}/ws/{table_id}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
            sync = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "start", "id": "go", "version": sync["version"]}))
            while json.loads(await ws.recv())["type"] != "ack":
                pass


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="seconds each client waits before acting (0 saturates the server)",
    )
    parser.add_argument(
        "--jitter",
        type=float,
        default=0.0,
        help="spread of the think time as a fraction of it (0.5: 0.5-1.5 x think)",
    )
    parser.add_argument(
        "--no-compression", action="store_true", help="no WebSocket permessage-deflate"
    )
    args = parser.parse_args(argv)
    if not 0 <= args.jitter <= 1:
        parser.error("--jitter is between 0 and 1")
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "load.sqlite3"
        server_cmd = os.environ.get("LOAD_SERVER_COMMAND")
        command = (
            server_cmd.split() if server_cmd else [sys.executable, "-m", "sequence_stacks.server"]
        )
        command += ["--port", str(port)]
        command += ["--db", str(database), "--turn-timeout", "600", "--grace-period", "600"]
        # One client address sets up every table: lift the per-address limits (#12).
        limits = {"SEQUENCE_STACKS_CREATE_BURST": "100000", "SEQUENCE_STACKS_SIT_BURST": "100000"}
        env = {**limits, **os.environ}
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    urllib.request.urlopen(f"{url}/api/health", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            tables = _setup(url, args.tables)
            asyncio.run(_start_all(f"127.0.0.1:{port}", tables))
            started = time.monotonic()
            server_cpu = _cpu_seconds(server.pid)
            client_cpu = _own_cpu_seconds()
            stats = asyncio.run(
                _play(
                    f"127.0.0.1:{port}",
                    tables,
                    args.seconds,
                    args.think,
                    jitter=args.jitter,
                    compression=not args.no_compression,
                )
            )
            elapsed = time.monotonic() - started
            cpu = (_cpu_seconds(server.pid) - server_cpu, _own_cpu_seconds() - client_cpu)
        finally:
            server.terminate()
            server.wait(timeout=10)
    _report(args.tables, elapsed, stats, cpu)
    asked = "none" if args.no_compression else "permessage-deflate"
    accepted = ", ".join(sorted(stats.extensions)) or "unknown"
    print(
        f"client think time: {args.think} s, jitter {args.jitter}, "
        f"compression asked {asked}, accepted {accepted}"
    )
    return 0


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) a process has used (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def _report(tables: int, elapsed: float, stats: Stats, cpu: tuple[float, float]) -> None:
    latencies = stats.latencies
    if not latencies:
        print("no action was acknowledged")
        return
    p50 = statistics.median(latencies) * 1000
    p99 = _percentile(latencies, 0.99) * 1000
    print(f"tables: {tables} concurrent, 2 seats each, {elapsed:.1f} s")
    print(f"accepted actions: {len(latencies)} ({len(latencies) / elapsed:.0f} actions/s)")
    print(f"round trip (send -> ack, committed): p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(f"refused (stale or duplicate): {stats.refused}")
    server_cpu, client_cpu = cpu
    print(
        f"cpu: server {100 * server_cpu / elapsed:.0f}%, client {100 * client_cpu / elapsed:.0f}%"
        f" of one core ({1000 * server_cpu / len(latencies):.2f} ms server cpu per action)"
    )
    if stats.lags:
        lag50 = statistics.median(stats.lags) * 1000
        lag99 = _percentile(stats.lags, 0.99) * 1000
        print(f"client event-loop lag: p50 {lag50:.1f} ms, p99 {lag99:.1f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
