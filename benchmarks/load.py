"""Load benchmark: two-seat tables played over real WebSockets, one worker against two.

    python benchmarks/load.py                # issue #17's report (about 6 minutes)
    python benchmarks/load.py --quick        # a smoke run: 5 s a load, half the tables
    python benchmarks/load.py --at HEAD      # serve a commit's code, not the working tree
    python benchmarks/load.py --compare e8c61f9 --configs sqlite,pg2   # #23: one run, both

One run (issue #17) measures three loads on each configuration, with the same client:

    saturated   200 tables, every seat acting as soon as it may (throughput, actions/s)
    lockstep    200 tables, every seat that may act acts at the same instant, every 0.5 s
    jittered    400 tables, each seat pausing 0.25-0.75 s (uniform) before it acts

and the configurations (``--configs``):

    sqlite  ``sequence-stacks serve`` on a SQLite file, one process, reached directly
    pg1     ``sequence-stacks serve --workers 1`` on PostgreSQL, behind HAProxy
    pg2     ``sequence-stacks serve --workers 2`` on PostgreSQL, behind HAProxy

HAProxy runs deploy/haproxy.cfg unchanged (for pg1 both of its server lines name the
one worker), so pg1 and pg2 differ only in the number of workers. PostgreSQL is a
throwaway cluster started like scripts/test-postgres's but with fsync on (``--pg-fsync
off`` turns it off, as the tests do), one fresh database per configuration. Each
configuration sets its tables up once (through its entry point) and plays the loads
on them in turn.

Reported per load and configuration: acknowledged actions per second (an ack is sent
only after the action's commit), the p50/p99 round trip from sending an action to its
ack, and where the CPU went, per acknowledged action: the server processes (and, of
that, their event-loop threads), PostgreSQL (every process of the cluster), HAProxy,
the clients, and "other" (the rest of the machine's busy time: other jobs); the
post-game reviews' worker process (#27, spawned by the server at a lower priority)
apart from the server, in the notes, since its work is per game, not per action; the
machine's busy share; for PostgreSQL the actions per commit and the WAL syncs; worker
restarts, tables changing hands and HAProxy marking a worker down, from their logs.
Then the #17 targets: saturated throughput 2 workers / 1 worker >= 1.6, and p99 under
50 ms with 2 workers in lock step and jittered.

The client is ``--clients`` processes (default 2), each an asyncio loop (uvloop when
installed) playing its share of the tables; their CPU and event-loop lag are
reported, so a client that cannot keep up shows as such rather than as server
latency. An action counts when it is sent after the warm-up and acknowledged before
the end of the window. Lock step is a shared clock: every seat that may act sends at
the next multiple of 0.5 s (before #17 each seat paused 0.5 s after its update, which
lets the bursts spread out over time).

One load only, as before #17 (``--tables``, ``--think`` or ``--jitter`` given): on
``--config`` (default sqlite), e.g. ``--tables 200 --think 0.5 --jitter 0.5``;
``--think 0`` saturates the server; ``--jitter 0`` is lock step. ``--no-compression``
stops asking for permessage-deflate, which the server accepts only with
SEQUENCE_STACKS_COMPRESSION=1 in the environment (the servers inherit it).

``--worker-cpu SHARE`` holds each serving process (the SQLite server, each worker) to
SHARE of one core with a cgroup CPU quota (as root). On a machine with fewer cores than
two workers, PostgreSQL, HAProxy and the clients together need (the 2-core test
machine), two uncapped workers only share what one already half used; held to the
same share each, one worker and two compare as they would on their own cores. The
report says so in its header; PostgreSQL, HAProxy and the clients are never held.

``--compare REV`` (#23) serves each configuration twice in one run, first with the code
of REV, then with the working tree, on the same machine and load, and ends with the
ratios: server CPU per acknowledged action (working tree / REV) and the p99s, against
the #23 targets. ``--at REV`` serves REV alone. Either way REV is installed, compiled
as a user installs it, into ``.bench/<commit>/`` once (git ignores it), so the
comparison is compiled engine against compiled engine.

Since #24 a Block-window answer is held until the window's whole time is up: the client
makes fast tables, the servers get 0.2 s windows, and an answer's round trip (the
window's length) counts as an action for throughput and CPU but not in the round-trip
percentiles.

Linux only (CPU times from /proc); needs PostgreSQL's and HAProxy's Debian packages
for pg1 and pg2.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Final

if not __package__:  # run as a script: python benchmarks/load.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from benchmarks import documented_parser
from benchmarks.load_client import ClientReport, Clients, Pace, TableSeats, set_up
from benchmarks.load_stack import (
    CONFIGS,
    CpuCap,
    CpuCapError,
    CpuSample,
    PgCounters,
    Postgres,
    Stack,
    cpu_model,
    describe_install,
    install_revision,
    postgres_cluster,
    working_tree,
)

P99_TARGET_MS: Final = 50.0
RATIO_TARGET: Final = 1.6
# Issue #23's targets, measured with --compare e8c61f9.
CPU_RATIO_TARGET: Final = 1 / 3
P99_TARGETS_23: Final = {
    ("sqlite", "jittered"): 25.0,
    ("sqlite", "lockstep"): 60.0,
    ("pg2", "lockstep"): 50.0,
}


@dataclasses.dataclass(frozen=True, slots=True)
class Load:
    """One load: how many tables and how their seats pace themselves."""

    key: str
    tables: int
    think: float
    jitter: float

    def describe(self) -> str:
        if self.think <= 0:
            return f"{self.tables} tables, saturated (no think time)"
        if self.jitter == 0:
            return f"{self.tables} tables, lock step every {self.think:g} s"
        low, high = self.think * (1 - self.jitter), self.think * (1 + self.jitter)
        return f"{self.tables} tables, think {low:g}-{high:g} s"


LOADS: Final = {
    "saturated": Load("saturated", 200, 0.0, 0.0),
    "lockstep": Load("lockstep", 200, 0.5, 0.0),
    "jittered": Load("jittered", 400, 0.5, 0.5),
}


@dataclasses.dataclass(slots=True)
class Result:
    """One load on one configuration."""

    config: str
    load: str
    tables: int
    build: str  # "base" (--compare's REV, or --at's), "head" (the working tree)
    seconds: float
    actions: int
    p50_ms: float
    p99_ms: float
    cpu_ms: dict[str, float]  # per acknowledged action, by part
    machine_busy: float  # fraction of all cores
    cores: int
    worker_cpu: float | None  # each serving process's share of a core (--worker-cpu)
    refused: dict[str, int]
    reconnects: int
    client_lag_p99_ms: float
    client_cpu_per_process: float  # fraction of one core
    owned: list[int]
    pg: dict[str, float]
    errors: list[str]
    events: dict[str, int] = dataclasses.field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else 0.0


def _result(
    stack: Stack,
    load: Load,
    report: ClientReport,
    *,
    before: CpuSample,
    after: CpuSample,
    pg: tuple[PgCounters, PgCounters] | None,
    clients: int,
    window: tuple[float, float],
) -> Result:
    measure_from, stop = window
    seconds = stop - measure_from  # the clients' window (the CPU samples are within ms)
    # Every acknowledged action counts for throughput and CPU; round trips are the other
    # actions' (a Block-window answer is held until the window closes since #24).
    actions = len(report.latencies) + report.answers
    per = 1000 / actions if actions else float("nan")
    cpu = {
        "server": (after.server - before.server) * per,
        "reviews": (after.helpers - before.helpers) * per,
        "loops": (sum(after.loops) - sum(before.loops)) * per,
        "postgres": (after.postgres - before.postgres) * per,
        "proxy": (after.proxy - before.proxy) * per,
        "clients": report.cpu * per,
    }
    ours = cpu["server"] + cpu["reviews"] + cpu["postgres"] + cpu["proxy"] + cpu["clients"]
    busy = (after.machine_busy - before.machine_busy) * per
    cpu["other"] = max(0.0, busy - ours)
    cores = os.cpu_count() or 1
    pg_figures: dict[str, float] = {}
    if pg is not None:
        first, last = pg
        commits = last.commits - first.commits
        syncs = last.wal_syncs - first.wal_syncs
        pg_figures = {
            "commits_per_s": commits / seconds,
            "actions_per_commit": actions / commits if commits else float("nan"),
            "wal_bytes_per_action": (last.wal_bytes - first.wal_bytes) / actions if actions else 0,
            "wal_syncs_per_s": syncs / seconds,
            "wal_sync_ms": (last.wal_sync_ms - first.wal_sync_ms) / syncs if syncs else 0.0,
        }
    return Result(
        config=stack.config.key,
        load=load.key,
        tables=load.tables,
        build="head" if stack.python is None else "base",
        seconds=seconds,
        actions=actions,
        p50_ms=statistics.median(report.latencies) * 1000 if report.latencies else float("nan"),
        p99_ms=_percentile(report.latencies, 0.99) * 1000 if report.latencies else float("nan"),
        cpu_ms=cpu,
        machine_busy=(after.machine_busy - before.machine_busy)
        / max(1e-9, after.machine_total - before.machine_total),
        cores=cores,
        worker_cpu=stack.cap.share if stack.cap else None,
        refused=report.refused,
        reconnects=report.reconnects,
        client_lag_p99_ms=_percentile(report.lags, 0.99) * 1000,
        client_cpu_per_process=report.cpu / seconds / clients if seconds else 0.0,
        owned=stack.owned(),
        pg=pg_figures,
        errors=report.errors,
    )


class Bench:
    """Runs loads on configurations, with a progress display on stderr."""

    def __init__(self, args: argparse.Namespace, progress: Progress) -> None:
        self.args = args
        self.progress = progress
        self.clients = Clients(args.clients)

    def run_config(
        self,
        key: str,
        loads: list[Load],
        folder: Path,
        postgres: Postgres | None,
        python: Path | None = None,
    ) -> list[Result]:
        """Start one configuration (served by ``python``'s install, else this one's),
        set up the tables once, run every load on them."""
        config = CONFIGS[key]
        task = self.progress.add_task(f"{key}: starting", total=None)
        results: list[Result] = []
        cap = CpuCap(self.args.worker_cpu) if self.args.worker_cpu else None
        with Stack(config, folder, postgres, cap=cap, python=python) as stack:
            count = max(load.tables for load in loads)
            self.progress.update(task, description=f"{key}: {count} tables", total=2 * count)
            tables = set_up(stack.entry, count, lambda: self.progress.advance(task))
            results = [self._measure(stack, load, tables[: load.tables], task) for load in loads]
        self.progress.remove_task(task)
        return results

    def _measure(self, stack: Stack, load: Load, tables: list[TableSeats], task: Any) -> Result:
        args = self.args
        # The processes start first (spawn takes ~0.5 s each on a busy machine).
        start = time.monotonic() + 1.0 + 0.3 * args.clients
        measure_from = start + args.warmup
        stop = measure_from + args.seconds
        label = f"{stack.config.key} {load.key}"
        self.progress.update(
            task, description=f"{label}: warm-up", total=stop - time.monotonic(), completed=0
        )
        began = time.monotonic()
        marks: dict[str, Any] = {}
        events = stack.events()

        def tick(acks: int) -> None:
            now = time.monotonic()
            if now >= measure_from and "before" not in marks:
                marks["before"] = stack.sample()
                marks["pg_before"] = self._pg(stack)
            if now >= stop and "after" not in marks:
                marks["after"] = stack.sample()
                marks["pg_after"] = self._pg(stack)
            shown = f"{label}: {acks} acks"
            if now >= measure_from:
                shown += f", {acks / max(1e-3, min(now, stop) - measure_from):.0f}/s"
            self.progress.update(task, description=shown, completed=min(now, stop) - began)

        report = self.clients.run(
            stack.entry,
            tables,
            measure_from=measure_from,
            stop=stop,
            pace=Pace(load.think, load.jitter),
            compression=not args.no_compression,
            progress=tick,
        )
        before = marks.get("before") or stack.sample()
        after = marks.get("after") or stack.sample()
        pg = None
        if marks.get("pg_before") is not None and marks.get("pg_after") is not None:
            pg = (marks["pg_before"], marks["pg_after"])
        result = _result(
            stack,
            load,
            report,
            before=before,
            after=after,
            pg=pg,
            clients=args.clients,
            window=(measure_from, stop),
        )
        after_events = stack.events()
        result.events = {
            name: count - events.get(name, 0)
            for name, count in after_events.items()
            if count > events.get(name, 0)
        }
        return result

    @staticmethod
    def _pg(stack: Stack) -> PgCounters | None:
        if stack.postgres is None or not stack.database:
            return None
        return stack.postgres.counters(stack.database)


@contextmanager
def _progress() -> Iterator[Progress]:
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as progress:
        yield progress


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = documented_parser(__doc__)
    parser.add_argument(
        "--configs",
        default="sqlite,pg1,pg2",
        help="configurations, comma-separated, from sqlite, pg1, pg2 (default all three)",
    )
    parser.add_argument(
        "--loads",
        default="saturated,lockstep,jittered",
        help="loads, comma-separated (default all three)",
    )
    parser.add_argument(
        "--seconds", type=float, help="measured seconds per load (default 20; --quick 5)"
    )
    parser.add_argument(
        "--warmup", type=float, help="seconds played before measuring (default 3; --quick 1.5)"
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=2,
        help="client processes sharing the tables (default 2)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="5 s per load after 1.5 s of warm-up, half the tables: a smoke run, not the figures",
    )
    parser.add_argument(
        "--pg-fsync",
        choices=("on", "off"),
        default="on",
        help="the PostgreSQL cluster's fsync (default on: each group commit waits for the disk)",
    )
    parser.add_argument(
        "--at",
        metavar="REV",
        help="serve the code of this commit, installed compiled (default: the working tree)",
    )
    parser.add_argument(
        "--compare",
        metavar="REV",
        help="serve each configuration with REV's code, then the working tree's, in one "
        "run, and report the ratios (#23: --compare e8c61f9)",
    )
    parser.add_argument(
        "--logs", metavar="DIR", type=Path, help="keep the servers' and HAProxy's logs in DIR"
    )
    parser.add_argument(
        "--worker-cpu",
        type=float,
        metavar="SHARE",
        help="hold each serving process to SHARE of one core (0-1; a cgroup CPU quota, "
        "as root): one worker against two without the cores the machine lacks",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    one = parser.add_argument_group("one load only (as before #17)")
    one.add_argument("--tables", type=int, help="concurrent two-seat tables")
    one.add_argument(
        "--think", type=float, help="seconds each seat waits before acting (0 saturates)"
    )
    one.add_argument(
        "--jitter",
        type=float,
        help="spread of the think time as a fraction of it (0: lock step; default 0)",
    )
    one.add_argument("--config", choices=sorted(CONFIGS), default="sqlite", help="default sqlite")
    parser.add_argument(
        "--no-compression", action="store_true", help="no WebSocket permessage-deflate"
    )
    args = parser.parse_args(argv)
    if args.jitter is not None and not 0 <= args.jitter <= 1:
        parser.error("--jitter is between 0 and 1")
    if args.seconds is None:
        args.seconds = 5.0 if args.quick else 20.0
    if args.warmup is None:
        args.warmup = 1.5 if args.quick else 3.0
    if args.tables is not None or args.think is not None or args.jitter is not None:
        args.configs = [args.config]
        args.loads = [
            Load(
                "custom",
                args.tables or 200,
                args.think if args.think is not None else 0.5,
                args.jitter or 0.0,
            )
        ]
    else:
        _choose_runs(parser, args)
    if args.clients < 1:
        parser.error("--clients is at least 1")
    if args.worker_cpu is not None:
        try:
            CpuCap(args.worker_cpu)  # a share of one core, and a cgroup controller here
        except (ValueError, CpuCapError) as error:
            parser.error(f"--worker-cpu: {error}")
    return args


def _choose_runs(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--configs`` and ``--loads`` as lists of configuration keys and loads."""
    args.configs = [key.strip() for key in args.configs.split(",") if key.strip()]
    for key in args.configs:
        if key not in CONFIGS:
            parser.error(f"unknown configuration {key!r}")
    loads = []
    for key in (key.strip() for key in args.loads.split(",")):
        if key not in LOADS:
            parser.error(f"unknown load {key!r}")
        load = LOADS[key]
        if args.quick:
            load = dataclasses.replace(load, tables=load.tables // 2)
        loads.append(load)
    args.loads = loads


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its report."""
    args = _parse(argv)
    args.load_average = os.getloadavg()
    started = datetime.datetime.now(datetime.UTC)
    results: list[Result] = []
    pg_settings: dict[str, str] = {}
    with ExitStack() as stack, _progress() as progress:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="load-")))
        folder.chmod(0o755)  # the cluster runs as user postgres when this runs as root
        builds: list[Path | None] = [None]
        args.source = working_tree()
        for revision in (args.at, args.compare):
            if revision:
                installed = install_revision(revision, progress.console.print)
                builds = [installed] if revision == args.at else [installed, None]
                label = "compared with" if args.compare else "serving"
                args.source = f"{label} {describe_install(installed)}"
                if args.compare:
                    args.source += f"; and the {working_tree()}"
        postgres = None
        if any(CONFIGS[key].postgres for key in args.configs):
            progress.console.print("starting a throwaway PostgreSQL cluster", style="dim")
            postgres = stack.enter_context(
                postgres_cluster(folder / "pg", fsync=args.pg_fsync == "on")
            )
            pg_settings = postgres.settings()
        bench = Bench(args, progress)
        total = len(args.configs) * len(args.loads) * len(builds)
        overall = progress.add_task("runs", total=total)
        try:
            for key in args.configs:
                for python in builds:
                    for result in bench.run_config(key, args.loads, folder, postgres, python):
                        results.append(result)
                        progress.advance(overall)
                        progress.console.print(_line(result), highlight=False)
        finally:
            if args.logs is not None:
                args.logs.mkdir(parents=True, exist_ok=True)
                for log in folder.glob("*.log"):
                    shutil.copy(log, args.logs / log.name)
    if args.json:
        print(json.dumps([dataclasses.asdict(r) for r in results], indent=1))
        return 0
    _report(args, results, started, pg_settings)
    return 0


def _line(r: Result) -> str:
    return (
        f"{r.config}@{r.build} {r.load}: {r.rate:.0f} actions/s, p50 {r.p50_ms:.1f} ms, "
        f"p99 {r.p99_ms:.1f} ms, machine busy {100 * r.machine_busy:.0f}%"
    )


def _report(
    args: argparse.Namespace, results: list[Result], started: Any, pg: dict[str, str]
) -> None:
    command = "python benchmarks/load.py " + " ".join(sys.argv[1:])
    print(f"# {command.strip()}")
    print(f"# server: {args.source}")
    print(
        f"# {started:%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores ({cpu_model()}), "
        f"load average at start {args.load_average[0]:.2f}, {args.clients} client processes, "
        f"{args.seconds:g} s measured after {args.warmup:g} s warm-up"
    )
    if args.worker_cpu:
        print(
            f"# each serving process held to {args.worker_cpu:g} of a core (--worker-cpu: "
            "a cgroup CPU quota); PostgreSQL, HAProxy and the clients are not held"
        )
    if pg:
        print(
            f"# PostgreSQL {pg['server_version']}: fsync {pg['fsync']}, synchronous_commit "
            f"{pg['synchronous_commit']}, wal_sync_method {pg['wal_sync_method']}"
        )
    by_load: dict[str, list[Result]] = {}
    for result in results:
        by_load.setdefault(result.load, []).append(result)
    for key, rows in by_load.items():
        load = next(load for load in args.loads if load.key == key)
        print(f"\n## {key}: {load.describe()}")
        print(
            f"{'config':8} {'actions/s':>9} {'p50 ms':>7} {'p99 ms':>7} | CPU ms per action: "
            f"{'server':>6} {'(loops)':>7} {'pg':>5} {'proxy':>5} {'client':>6} {'other':>5}"
            f" | {'busy':>4}  notes"
        )
        for r in rows:
            c = r.cpu_ms
            notes = _notes(r)
            label = r.config if len({x.build for x in results}) == 1 else f"{r.config}@{r.build}"
            print(
                f"{label:8} {r.rate:9.0f} {r.p50_ms:7.1f} {r.p99_ms:7.1f} | "
                f"{'':19}{c['server']:6.2f} {c['loops']:7.2f} {c['postgres']:5.2f} "
                f"{c['proxy']:5.2f} {c['clients']:6.2f} {c['other']:5.2f} | "
                f"{100 * r.machine_busy:3.0f}%  {'; '.join(notes)}"
            )
            for error in r.errors[:3]:
                print(f"{'':8} client error: {error}")
    if len({r.build for r in results}) > 1:
        _compared(results)
    else:
        _verdict(results)


def _notes(r: Result) -> list[str]:
    """The notes column of one result."""
    c = r.cpu_ms
    notes: list[str] = []
    if r.owned:
        notes.append("owned " + "/".join(str(n) for n in r.owned))
    if r.pg:
        notes.append(
            f"{r.pg['actions_per_commit']:.1f} actions/commit, "
            f"{r.pg['wal_syncs_per_s']:.0f} WAL syncs/s of {r.pg['wal_sync_ms']:.2f} ms"
        )
    notes.append(
        f"client {100 * r.client_cpu_per_process:.0f}% of a core each, "
        f"lag p99 {r.client_lag_p99_ms:.0f} ms"
    )
    if c.get("reviews"):
        notes.append(f"post-game reviews {c['reviews']:.2f} ms")
    if r.refused:
        notes.append(f"refused {r.refused}")
    if r.reconnects:
        notes.append(f"{r.reconnects} reconnects")
    notes += [f"{name}: {count}" for name, count in r.events.items()]
    return notes


def _compared(results: list[Result]) -> None:
    """The working tree against the revision: ratios and the #23 targets."""
    found = {(r.config, r.load, r.build): r for r in results}
    print("\n## working tree / base, in one run (#23 targets)")
    print(
        f"{'config':8} {'load':10} {'server CPU ms/action':>22} {'ratio':>6} | "
        f"{'p99 ms base -> head':>21} | verdicts"
    )
    for (config, load, build), head in found.items():
        base = found.get((config, load, "base"))
        if build != "head" or base is None:
            continue
        ratio = head.cpu_ms["server"] / base.cpu_ms["server"]
        verdicts = [
            f"CPU <= 1/3: {'met' if ratio <= CPU_RATIO_TARGET else 'NOT met'} ({ratio:.2f})"
        ]
        target = P99_TARGETS_23.get((config, load))
        if target is not None:
            met = "met" if head.p99_ms < target else "NOT met"
            verdicts.append(f"p99 < {target:g} ms: {met}")
        print(
            f"{config:8} {load:10} {base.cpu_ms['server']:9.3f} -> {head.cpu_ms['server']:6.3f}"
            f" {ratio:6.2f} | {base.p99_ms:8.1f} -> {head.p99_ms:8.1f} | "
            f"{'; '.join(verdicts)}{_disturbed(base, head)}"
        )


def _disturbed(*results: Result) -> str:
    """Why a figure is not a clean measurement (sockets dropped, workers marked down)."""
    why = []
    for r in results:
        down = r.events.get("proxy marked a worker down", 0)
        if r.reconnects or down:
            why.append(f"{r.config}: {r.reconnects} reconnects, a worker marked down {down}x")
    if not why:
        return ""
    return f" [DISTURBED: {'; '.join(why)}; not a clean figure]"


def _verdict(results: list[Result]) -> None:
    found = {(r.config, r.load): r for r in results}
    print("\n## #17 targets")
    one, two = found.get(("pg1", "saturated")), found.get(("pg2", "saturated"))
    if one and two and one.rate:
        ratio = two.rate / one.rate
        verdict = "met" if ratio >= RATIO_TARGET else "NOT met"
        held = (
            f", each worker held to {two.worker_cpu:g} of a core (--worker-cpu)"
            if two.worker_cpu
            else ""
        )
        print(
            f"saturated throughput, 2 workers / 1 worker: {two.rate:.0f} / {one.rate:.0f} = "
            f"{ratio:.2f}x (target >= {RATIO_TARGET}x: {verdict}){held}{_disturbed(one, two)}"
        )
        server = [r.cpu_ms["server"] for r in (one, two)]
        print(
            f"  server CPU per action {server[0]:.2f} / {server[1]:.2f} ms; the machine was "
            f"{100 * one.machine_busy:.0f}% / {100 * two.machine_busy:.0f}% busy "
            f"({one.cores} cores): {_bound(two)}"
        )
        ours = sum(two.cpu_ms[k] for k in ("server", "postgres", "proxy", "clients"))
        ceiling = two.cores * 1000 / ours
        print(
            f"  ceiling of this machine: {two.cores} cores / {ours:.2f} ms of CPU per action "
            f"(servers, PostgreSQL, HAProxy and clients together, 2 workers) = "
            f"{ceiling:.0f} actions/s = {ceiling / one.rate:.2f}x the 1-worker rate, "
            "if nothing else ran"
        )
    for key in ("lockstep", "jittered"):
        r = found.get(("pg2", key))
        if r:
            verdict = "met" if r.p99_ms < P99_TARGET_MS else "NOT met"
            print(
                f"{key}, {r.tables} tables, 2 workers: p99 {r.p99_ms:.1f} ms "
                f"(target < {P99_TARGET_MS:g} ms: {verdict}){_disturbed(r)}"
            )


def _bound(r: Result) -> str:
    """What limited a saturated run, from where the CPU went."""
    total = sum(v for k, v in r.cpu_ms.items() if k != "loops")
    if r.worker_cpu:
        workers = max(1, len(r.owned))
        used = r.cpu_ms["server"] * r.rate / 1000 / workers
        return (
            f"each worker used {used:.2f} of its {r.worker_cpu:g} core "
            f"({100 * used / r.worker_cpu:.0f}% of its quota)"
        )
    if r.machine_busy < 0.9:
        return "the machine had idle CPU (the limit is elsewhere: latency, locks, the database)"
    shares = ", ".join(
        f"{k} {100 * v / total:.0f}%" for k, v in r.cpu_ms.items() if k != "loops" and total
    )
    return f"every core busy; the action's CPU went to {shares}"


if __name__ == "__main__":
    raise SystemExit(main())
