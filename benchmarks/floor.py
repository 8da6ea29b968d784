"""The floor of one action's server CPU on this machine (#23): what a server must spend
per action when it does nothing but what every design must do.

    python benchmarks/floor.py                 # both loads, 15 s each (about 45 s)
    python benchmarks/floor.py --loads jittered --seconds 30

The server here is a raw uvloop protocol, no HTTP, no WebSocket framing, no game: per
message (one JSON line) it decodes it, inserts one row into SQLite (WAL, synchronous
NORMAL, as ``serve`` opens its database) in a transaction of the messages of one round
of the loop, and only after the commit writes one small frame to each of the two
connections of the message's pair (the ack and the update of a two-seat table). Its
client plays ``benchmarks/load.py``'s loads with the same pacing: ``jittered`` (each
pair's first connection sends every 0.25-0.75 s) and ``lockstep`` (every pair sends at
the same instant every 0.5 s). Reported: acknowledged actions per second and the
server's CPU (user + system, from /proc) per action.

What it is for: the server's CPU per action in ``load.py`` measured against what the
machine itself costs (its system calls, loopback sockets, SQLite's WAL writes), so a
figure such as "a third of e8c61f9's" can be judged against what is possible at all
(docs/server.md, "Where an action's CPU goes"). Linux only.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, cast

if not __package__:  # run as a script: python benchmarks/floor.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec
import uvloop

from benchmarks import documented_parser

LOADS: Final = {"jittered": 400, "lockstep": 200}  # pairs of connections per load
_FRAME: Final = {"type": "update", "entries": [{"op": "act", "events": [1, 2, 3]}]}


def _serve(db_path: Path, port_out: int) -> None:
    """The floor server (runs in a child process until killed)."""
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(
        "CREATE TABLE log (pair INTEGER, version INTEGER, payload TEXT,"
        " PRIMARY KEY (pair, version)) WITHOUT ROWID"
    )
    pairs: dict[int, list[asyncio.Transport]] = {}
    pending: list[tuple[int, int, bytes]] = []
    decoder = msgspec.json.Decoder()
    encoder = msgspec.json.Encoder()
    versions: dict[int, int] = {}

    def commit() -> None:
        batch = pending[:]
        pending.clear()
        db.execute("BEGIN IMMEDIATE")
        for pair, version, payload in batch:
            db.execute("INSERT INTO log VALUES (?, ?, ?)", (pair, version, payload))
        db.execute("COMMIT")
        for pair, version, _ in batch:
            frame = encoder.encode({**_FRAME, "version": version}) + b"\n"
            for transport in pairs[pair]:
                transport.write(frame)

    class Floor(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self.transport = cast(asyncio.Transport, transport)  # uvloop's is its own type
            self.buffer = b""

        def data_received(self, data: bytes) -> None:
            self.buffer += data
            *lines, self.buffer = self.buffer.split(b"\n")
            for line in lines:
                message = decoder.decode(line)
                pair = message["pair"]
                if message.get("hello"):
                    pairs.setdefault(pair, []).append(self.transport)
                    continue
                versions[pair] = version = versions.get(pair, 0) + 1
                pending.append((pair, version, line))
                if len(pending) == 1:
                    asyncio.get_running_loop().call_soon(commit)

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Floor, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        os.write(port_out, f"{port}\n".encode())
        await asyncio.Event().wait()

    uvloop.run(main())


def _play(port: int, load: str) -> None:
    """The client (runs in a child process until killed)."""

    async def main() -> None:
        loop = asyncio.get_running_loop()

        async def pair(index: int) -> None:
            first, _ = await loop.create_connection(asyncio.Protocol, "127.0.0.1", port)
            second, _ = await loop.create_connection(asyncio.Protocol, "127.0.0.1", port)
            hello = json.dumps({"pair": index, "hello": True}).encode() + b"\n"
            first.write(hello)
            second.write(hello)
            action = json.dumps({"pair": index, "type": "act", "action": "P7@B1"}).encode()
            while True:
                if load == "jittered":
                    await asyncio.sleep(random.uniform(0.25, 0.75))
                else:
                    await asyncio.sleep(0.5 - time.time() % 0.5)
                first.write(action + b"\n")

        players = [loop.create_task(pair(index)) for index in range(LOADS[load])]
        await asyncio.gather(*players)

    uvloop.run(main())


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rows(db_path: Path) -> int:
    db = sqlite3.connect(db_path)
    try:
        return int(db.execute("SELECT COUNT(*) FROM log").fetchone()[0])
    finally:
        db.close()


def _child(target: Callable[..., None], *args: object) -> int:
    pid = os.fork()
    if pid == 0:  # the child runs its part until it is killed
        try:
            target(*args)
        finally:
            os._exit(0)
    return pid


def measure(load: str, seconds: float, warmup: float) -> tuple[float, float]:
    """Actions per second and server CPU milliseconds per action of one load."""
    with tempfile.TemporaryDirectory(prefix="floor-") as folder:
        db_path = Path(folder) / "floor.sqlite3"
        read_end, write_end = os.pipe()
        server = _child(_serve, db_path, write_end)
        with os.fdopen(read_end) as port_in:
            port = int(port_in.readline())
        client = _child(_play, port, load)
        try:
            time.sleep(warmup)
            cpu, rows = _cpu_seconds(server), _rows(db_path)
            time.sleep(seconds)
            cpu, rows = _cpu_seconds(server) - cpu, _rows(db_path) - rows
        finally:
            for pid in (client, server):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
    return rows / seconds, cpu / max(rows, 1) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = documented_parser(__doc__)
    parser.add_argument(
        "--loads", default="lockstep,jittered", help="comma-separated (default both)"
    )
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="measured seconds per load (default 15)"
    )
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="seconds before measuring (default 3)"
    )
    args = parser.parse_args(argv)
    loads = [load for load in args.loads.split(",") if load]
    unknown = [load for load in loads if load not in LOADS]
    if unknown:
        parser.error(f"unknown load {unknown[0]!r}: choose from {', '.join(LOADS)}")
    print(f"# python benchmarks/floor.py --loads {','.join(loads)} --seconds {args.seconds:g}")
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"# {now}, load average at start {os.getloadavg()[0]:.2f}")
    print("load       pairs  actions/s  server CPU ms/action")
    for load in loads:
        rate, cpu = measure(load, args.seconds, args.warmup)
        print(f"{load:<10} {LOADS[load]:>5}  {rate:>9.0f}  {cpu:>20.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
