"""The table service's CPU per action without sockets (#23): the pipeline alone.

    python benchmarks/pipeline.py                   # 1, 4 and 100 tables, 10 s each
    python benchmarks/pipeline.py --tables 100 --seconds 20 --profile pipeline.prof

Two-seat tables on a SQLite file are played by random legal moves through
``TableService.command`` (prepare, apply, store, acknowledge, replan, broadcast), each
seat a subscriber that takes its frames as the server encodes them, in one uvloop
event loop: no HTTP, no WebSocket, no client process. Reported: actions per second and
the event loop thread's CPU per action. One table at a time commits every action alone
(as isolated actions do on a server); many tables share group commits (as bursts do).
Against ``benchmarks/load.py``'s figures this says how much of an action's cost is the
service itself and how much the sockets around it; ``benchmarks/floor.py`` says what
the machine's own part is (docs/server.md, "Where an action's CPU goes").

Block windows are short (0.01 s) so games keep moving (a seat that answered waits for
the window's end: its second answer is refused and it waits 2 ms); the driver's own work (choosing
a legal move) is counted in, a few microseconds an action. ``--profile FILE`` writes a
cProfile of one run (its timings are inflated by the profiler; the shares are what to
read).
"""

from __future__ import annotations

import asyncio
import cProfile
import dataclasses
import random
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: python benchmarks/pipeline.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import uvloop

from benchmarks import documented_parser
from sequence_stacks.engine import legal_actions
from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.play import Refusal, TableService, TableStatus, commands
from sequence_stacks.server.play.codec import dumps
from sequence_stacks.server.store.sqlite import SqliteStorage

SETTINGS = ServerSettings(
    database="memory",
    bot_delay=(0.0, 0.0),
    bot_block_delay=(0.0, 0.0),
    turn_timeout=600.0,
    block_timeout=0.01,
    grace_period=600.0,
)


class _Seat:
    """A subscriber that takes frames as a connection would (encoded, then dropped)."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.notation = False
        self.frames = 0

    def send(self, frame: Mapping[str, Any]) -> None:
        dumps(frame)
        self.frames += 1

    def send_text(self, text: str) -> None:
        del text
        self.frames += 1

    def flush(self) -> None:
        pass  # frames are taken as they are queued

    def kick(self, code: int, reason: str) -> None:
        del code, reason


async def _run(tables: int, seconds: float, warmup: float, folder: Path) -> tuple[int, float]:
    """Actions acknowledged in ``seconds`` and the loop thread's CPU seconds for them."""
    storage = SqliteStorage(str(folder / f"pipeline-{tables}.sqlite3"))
    service = TableService(storage, dataclasses.replace(SETTINGS), rng=random.Random(1))
    rng = random.Random(2)
    ids: list[str] = []
    seats: dict[str, list[_Seat]] = {}
    for _ in range(tables):
        table_id = await service.create_table({"player_count": 2}, visibility="unlisted")
        seats[table_id] = []
        for name in ("Ann", "Bob"):
            _, token = await service.sit(table_id, name, None)
            seat = _Seat()
            await service.hello(table_id, seat, token, None)
            seats[table_id].append(seat)
        ids.append(table_id)
    playing = True

    async def play(table_id: str) -> None:
        runtime = await service.tables.get(table_id)
        while playing:
            table = runtime.table
            client_id = f"c{rng.getrandbits(48)}"
            state = table.state
            if state is None or table.status != TableStatus.PLAYING:
                start = commands.Start(id=client_id, version=table.version)
                await service.command(table_id, seats[table_id][0], start)
                continue
            movers = [seat for seat in (0, 1) if legal_actions(state, seat)]
            if not movers:  # a Block window waits for its end
                await asyncio.sleep(0.002)
                continue
            seat = movers[0]
            action = rng.choice(legal_actions(state, seat))
            act = commands.Act(id=client_id, version=table.version, action=action)
            try:
                await service.command(table_id, seats[table_id][seat], act)
            except Refusal:  # its Block-window answer is held until the window ends
                await asyncio.sleep(0.002)
            await asyncio.sleep(0)

    def versions() -> int:
        total = 0
        for table_id in ids:
            runtime = service.tables.current(table_id)
            total += 0 if runtime is None else runtime.table.version
        return total

    players = [asyncio.create_task(play(table_id)) for table_id in ids]
    await asyncio.sleep(warmup)
    actions, cpu = versions(), time.thread_time()
    await asyncio.sleep(seconds)
    actions, cpu = versions() - actions, time.thread_time() - cpu
    playing = False
    await asyncio.gather(*players)
    await service.close()
    storage.close()
    return actions, cpu


def main(argv: list[str] | None = None) -> int:
    parser = documented_parser(__doc__)
    parser.add_argument(
        "--tables", default="1,4,100", help="tables played at once, comma-separated runs"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds a run")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds before measuring")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the runs here")
    args = parser.parse_args(argv)
    try:
        counts = [int(count) for count in args.tables.split(",")]
    except ValueError:
        parser.error(f"--tables takes whole numbers, comma-separated: {args.tables!r}")
    if not counts or min(counts) < 1:
        parser.error("--tables takes at least one table")
    profiler = cProfile.Profile() if args.profile else None
    print(f"# python benchmarks/pipeline.py --tables {args.tables} --seconds {args.seconds:g}")
    print("tables  actions/s  loop CPU us/action")
    with tempfile.TemporaryDirectory(prefix="pipeline-") as folder:
        for count in counts:
            if profiler is not None:
                profiler.enable()
            actions, cpu = uvloop.run(_run(count, args.seconds, args.warmup, Path(folder)))
            if profiler is not None:
                profiler.disable()
            per_action = cpu / max(actions, 1) * 1e6
            print(f"{count:>6}  {actions / args.seconds:>9.0f}  {per_action:>18.0f}")
    if profiler is not None:
        profiler.dump_stats(args.profile)
        print(f"# profile: {args.profile} (python -m pstats {args.profile})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
