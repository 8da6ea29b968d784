"""The client of ``benchmarks/load.py``: seats playing over WebSockets, in processes.

Every table's two seats are played by one client process (asyncio, uvloop when
installed); ``clients`` processes share the tables. All processes measure the same
window of the system-wide monotonic clock (Linux ``CLOCK_MONOTONIC``): an action
counts when it was sent at or after ``measure_from`` and its acknowledgement came
before ``stop``. Each process also reports its own CPU time over the window and its
event-loop lag (how late a 10 ms timer fires), so a client that cannot keep up shows
as such rather than as server latency.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import math
import multiprocessing
import random
import resource
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.sharedctypes import Synchronized
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

OPTIONS: Final = {"player_count": 2}
TableSeats = tuple[str, list[str]]  # table id, the two seats' tokens


@dataclasses.dataclass(frozen=True, slots=True)
class Pace:
    """When a seat acts once its view has legal actions.

    ``think == 0``: at once (saturates the server). ``jitter == 0``: lock step, at the
    next multiple of ``think`` on the shared clock, so every seat that can act acts at
    the same instant. Otherwise after a pause drawn uniformly from ``think * (1 -
    jitter) .. think * (1 + jitter)``.
    """

    think: float
    jitter: float

    def delay(self, rng: random.Random) -> float:
        if self.think <= 0:
            return 0.0
        if self.jitter == 0:
            now = time.monotonic()
            return (math.floor(now / self.think) + 1) * self.think - now
        spread = self.think * self.jitter
        return rng.uniform(self.think - spread, self.think + spread)


@dataclasses.dataclass(slots=True)
class ClientReport:
    """What one client process measured in the window."""

    latencies: list[float] = dataclasses.field(default_factory=list)
    # Block-window answers acknowledged in the window: since #24 an answer is held until
    # the window's whole time is up, so its round trip is the window's length, not the
    # server's latency; they count as actions (throughput, CPU) but not in latencies.
    answers: int = 0
    answer_latencies: list[float] = dataclasses.field(default_factory=list)
    refused: dict[str, int] = dataclasses.field(default_factory=dict)
    lags: list[float] = dataclasses.field(default_factory=list)
    cpu: float = 0.0
    reconnects: int = 0
    extensions: set[str] = dataclasses.field(default_factory=set)
    errors: list[str] = dataclasses.field(default_factory=list)


class _Window:
    def __init__(self, measure_from: float, stop: float) -> None:
        self.measure_from = measure_from
        self.stop = stop


class Seat:
    """One seated client: acts whenever its view has legal actions."""

    def __init__(
        self,
        entry: str,
        table: str,
        token: str,
        report: ClientReport,
        *,
        window: _Window,
        pace: Pace,
        counter: Synchronized[int] | None,
        compression: bool,
    ) -> None:
        self.url = f"ws://{entry}/ws/{table}"
        self.rng = random.Random(f"{table}-{token}")
        self.token = token
        self.report = report
        self.window = window
        self.pace = pace
        self.counter = counter
        self.compression = compression
        self.version = 0
        self.seat: int | None = None
        self.actions: list[str] = []
        self.view: dict[str, Any] | None = None
        self.sent: dict[str, float] = {}
        self.answering: set[str] = set()  # ids of Block-window answers awaiting their ack
        self.count = 0

    async def run(self) -> None:
        """Play until the window ends, reconnecting if the server closes the socket."""
        while time.monotonic() < self.window.stop:
            try:
                await self._session()
            except (ConnectionClosed, InvalidHandshake, OSError) as error:
                self.report.reconnects += 1
                if len(self.report.errors) < 5:
                    self.report.errors.append(f"{type(error).__name__}: {error}"[:200])
                self.sent.clear()
                await asyncio.sleep(0.2)
            else:
                return

    async def _session(self) -> None:
        compression = "deflate" if self.compression else None
        async with connect(self.url, max_size=2**22, compression=compression) as ws:
            if ws.response is not None:
                accepted = ws.response.headers.get("Sec-WebSocket-Extensions", "")
                self.report.extensions.add(accepted.split(";")[0] or "none")
            hello = {"type": "hello", "token": self.token, "notation": True}
            await ws.send(json.dumps(hello))
            # One deadline for the whole window (a timer, not a task per frame as
            # wait_for makes): the client's own CPU per frame stays small.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(self._loop_deadline()):
                    while True:
                        await self._handle(ws, json.loads(await ws.recv()))

    def _acknowledged(self, client_id: str) -> None:
        """Count an ack of the window: a round trip, or (a Block-window answer) an action."""
        started = self.sent.pop(client_id, None)
        answer = client_id in self.answering
        self.answering.discard(client_id)
        now = time.monotonic()
        window = self.window
        if started is None or not window.measure_from <= started or now > window.stop:
            return
        if answer:
            self.report.answers += 1
            self.report.answer_latencies.append(now - started)
        else:
            self.report.latencies.append(now - started)
        if self.counter is not None:
            self.counter.value += 1

    def _loop_deadline(self) -> float:
        """The window's end on the running loop's clock (it may not be monotonic()'s)."""
        loop = asyncio.get_running_loop()
        return loop.time() + max(0.01, self.window.stop - time.monotonic())

    async def _handle(self, ws: ClientConnection, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "ack":
            self._acknowledged(frame["id"])
            return
        if kind == "refused":
            self.sent.pop(frame["id"], None)
            self.answering.discard(frame["id"])
            code = str(frame.get("code", "?"))
            self.report.refused[code] = self.report.refused.get(code, 0) + 1
            return
        if kind not in ("sync", "update"):
            return
        self.version = frame["version"]
        if kind == "sync":
            self.seat = frame["you"]
        if frame.get("actions"):
            self.actions = frame["actions"]
        # Since #23 an update carries only what changed (docs/protocol.md).
        if "view_changes" in frame:
            self.view = {**(self.view or {}), **frame["view_changes"]}
        elif "view" in frame:
            self.view = frame["view"]
        view = self.view
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
        if choice == "pass" and self.answering:
            return  # answered this window already: its answer is held till it closes
        delay = self.pace.delay(self.rng)
        if delay > 0:
            await asyncio.sleep(delay)
        client_id = await self._send(ws, {"type": "act", "action": choice})
        if choice == "pass":
            self.answering.add(client_id)

    async def _send(self, ws: ClientConnection, message: dict[str, Any]) -> str:
        self.count += 1
        client_id = f"{id(self)}-{self.count}"
        self.sent[client_id] = time.monotonic()
        await ws.send(json.dumps({**message, "id": client_id, "version": self.version}))
        return client_id


async def _measure_self(report: ClientReport, window: _Window, tick: float = 0.01) -> None:
    """Own CPU over the window, and how late a ``tick`` timer fires meanwhile."""
    await asyncio.sleep(max(0.0, window.measure_from - time.monotonic()))
    cpu_from = _own_cpu()
    while time.monotonic() < window.stop:
        before = time.monotonic()
        await asyncio.sleep(tick)
        report.lags.append(time.monotonic() - before - tick)
    report.cpu = _own_cpu() - cpu_from


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _play(
    entry: str,
    tables: Sequence[TableSeats],
    *,
    window: _Window,
    pace: Pace,
    counter: Synchronized[int] | None,
    compression: bool,
) -> ClientReport:
    report = ClientReport()
    seats = [
        Seat(
            entry,
            table,
            token,
            report,
            window=window,
            pace=pace,
            counter=counter,
            compression=compression,
        )
        for table, tokens in tables
        for token in tokens
    ]
    outcomes = await asyncio.gather(
        _measure_self(report, window), *(seat.run() for seat in seats), return_exceptions=True
    )
    for outcome in outcomes:  # one seat's failure loses neither the others nor the figures
        if isinstance(outcome, BaseException) and len(report.errors) < 5:
            report.errors.append(f"{type(outcome).__name__}: {outcome}"[:200])
    return report


def _new_loop() -> Callable[[], asyncio.AbstractEventLoop]:
    try:
        import uvloop  # noqa: PLC0415 - optional, installed with uvicorn[standard]
    except ImportError:
        return asyncio.new_event_loop
    return uvloop.new_event_loop


@dataclasses.dataclass(frozen=True, slots=True)
class ClientJob:
    """What one client process plays: its tables, where, when and at what pace."""

    entry: str
    tables: list[TableSeats]
    measure_from: float
    stop: float
    pace: Pace
    compression: bool


def client_process(job: ClientJob, counter: Synchronized[int] | None, results: Any) -> None:
    """The body of one client process: play the job, put a ClientReport on ``results``."""
    window = _Window(job.measure_from, job.stop)
    with asyncio.Runner(loop_factory=_new_loop()) as runner:
        try:
            report = runner.run(
                _play(
                    job.entry,
                    job.tables,
                    window=window,
                    pace=job.pace,
                    counter=counter,
                    compression=job.compression,
                )
            )
        except Exception as error:  # reported, never a hang of the parent
            report = ClientReport(errors=[f"{type(error).__name__}: {error}"[:300]])
    results.put(report)


class Clients:
    """``count`` client processes (spawned) sharing ``tables`` round-robin."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.context = multiprocessing.get_context("spawn")

    def run(
        self,
        entry: str,
        tables: Sequence[TableSeats],
        *,
        measure_from: float,
        stop: float,
        pace: Pace,
        compression: bool,
        progress: Callable[[int], None] | None = None,
    ) -> ClientReport:
        """Play until ``stop``; return every process's reports merged. ``progress`` is
        called every 0.25 s with the actions acknowledged in the window so far, and
        within a few milliseconds after ``measure_from`` and after ``stop``."""
        results = self.context.Queue()
        counters = [self.context.Value("q", 0, lock=False) for _ in range(self.count)]
        processes = [
            self.context.Process(
                target=client_process,
                args=(
                    ClientJob(
                        entry,
                        list(tables[index :: self.count]),
                        measure_from,
                        stop,
                        pace,
                        compression,
                    ),
                    counters[index],
                    results,
                ),
                daemon=True,
            )
            for index in range(self.count)
        ]
        for process in processes:
            process.start()
        reports: list[ClientReport] = []
        try:
            while len(reports) < self.count:
                if progress is not None:
                    progress(sum(counter.value for counter in counters))
                now = time.monotonic()
                wait = min([0.25] + [t - now + 0.002 for t in (measure_from, stop) if t > now])
                with contextlib.suppress(Exception):
                    reports.append(results.get(timeout=max(0.002, wait)))
                if time.monotonic() > stop + 60 and len(reports) < self.count:
                    raise RuntimeError("a client process did not report within 60 s of the end")
        finally:
            for process in processes:
                process.join(timeout=5)
                if process.is_alive():
                    process.kill()
                    process.join()
        merged = ClientReport()
        for report in reports:
            merged.latencies += report.latencies
            merged.answers += report.answers
            merged.answer_latencies += report.answer_latencies
            for code, count in report.refused.items():
                merged.refused[code] = merged.refused.get(code, 0) + count
            merged.lags += report.lags
            merged.cpu += report.cpu
            merged.reconnects += report.reconnects
            merged.extensions |= report.extensions
            merged.errors += report.errors
        return merged


# --- setting the tables up ----------------------------------------------------------------


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON; retried while the table's owner is elsewhere (503) or busy."""
    for attempt in range(100):
        request = urllib.request.Request(
            url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                data: dict[str, Any] = json.loads(response.read())
                return data
        except urllib.error.HTTPError as error:
            if error.code not in (429, 503) or attempt == 99:
                raise
        time.sleep(0.2)
    raise AssertionError("unreachable")


def _new_table(base: str) -> TableSeats:
    # A fast table: every Block window lasts its whole time since #24 (docs/rules-notes.md
    # N19); a server from before then ignores the pace (and closes a window at once).
    body = {"options": OPTIONS, "visibility": "unlisted", "pace": "fast"}
    table = _post(f"{base}/api/tables", body)["id"]
    tokens = [_post(f"{base}/api/tables/{table}/seats", {"name": n})["token"] for n in "AB"]
    return table, tokens


async def _start(entry: str, table: str, token: str) -> None:
    for _ in range(50):
        try:
            async with connect(f"ws://{entry}/ws/{table}", open_timeout=15) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "notation": True}))
                sync = json.loads(await ws.recv())
                await ws.send(json.dumps({"type": "start", "id": "go", "version": sync["version"]}))
                while True:
                    frame = json.loads(await ws.recv())
                    if frame["type"] == "ack":
                        return
                    if frame["type"] == "refused":
                        raise RuntimeError(f"start refused: {frame}")
        except (ConnectionClosed, InvalidHandshake, OSError):
            await asyncio.sleep(0.2)  # the table moved between workers: try again
    raise RuntimeError(f"table {table} could not be started")


async def _start_all(entry: str, tables: Sequence[TableSeats], step: Callable[[], None]) -> None:
    gate = asyncio.Semaphore(16)

    async def one(table: str, token: str) -> None:
        async with gate:
            await _start(entry, table, token)
        step()

    await asyncio.gather(*(one(table, tokens[0]) for table, tokens in tables))


def set_up(entry: str, count: int, step: Callable[[], None]) -> list[TableSeats]:
    """Create ``count`` two-seat tables through ``entry``, seat A and B, start each
    game; ``step`` is called twice a table (created, started)."""

    def create(_: int) -> TableSeats:
        made = _new_table(f"http://{entry}")
        step()
        return made

    with ThreadPoolExecutor(8) as pool:
        tables = list(pool.map(create, range(count)))
    asyncio.run(_start_all(entry, tables, step))
    return tables
