"""A design dossier: a rule variant's qualities, measured with intervals, in one run.

:func:`run_dossier` plays what the spec needs (:mod:`.plan`) into
``traces.jsonl`` in the output folder: first a pilot (four games or one round of deals
per config) that times each config, then the games the budget allows. The plan is saved
as ``plan.json``, so running again with the same folder continues where it stopped;
a plan given explicitly replays another dossier's games exactly. No game starts after
the budget's deadline (the time for the analysis kept back): if the games run slower
than the pilot said, the plan is cut to the games played, so it still names them. Then it writes
``dossier.json`` (every figure with its interval and seeds), the figures as PNGs,
``dossier.md`` (the same as Markdown tables) and ``dossier.html``, one self-contained
page.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

from sequence_stacks.sim.results import Row
from sequence_stacks.sim.runner import PlayFn, RunStats, Task, run_tasks, tasks_of

from .analysis import analyse_dossier
from .chances import ModelWinChance, WinChance
from .metrics import NO_CHANCE, Pace
from .plan import DossierSpec, Family, Job, Plan, allocate, build_jobs, pilot_games
from .traces import GameTrace, TraceFileError, TraceWriter, play_trace

__all__ = [
    "DossierError",
    "DossierOutcome",
    "DossierProgress",
    "cut_to_played",
    "run_dossier",
    "write_dossier",
]

PLAN_FILE: Final = "plan.json"
TRACE_FILE: Final = "traces.jsonl"
# Time kept back from the budget for the analysis, figures and page: a fixed part and
# a part per group (bootstraps, plots); and the share of the workers' time that plays.
_RESERVE_S: Final = 15.0
_RESERVE_PER_GROUP_S: Final = 4.0
_RESERVE_SHARE: Final = 0.2  # at most, for short budgets
_EFFICIENCY: Final = 0.9
# More games are planned when the planned ones end with this much time left (seconds,
# and share of the budget, whichever is more).
_TOP_UP_MIN_S: Final = 15.0
_TOP_UP_SHARE: Final = 0.05


class DossierError(Exception):
    """A dossier that cannot go on: a folder holding another study's plan, a damaged
    plan or trace file, a folder that cannot be written."""


class DossierProgress(Protocol):
    """How a run reports progress (the CLI draws a bar; tests may count)."""

    def phase(self, name: str, *, games: int, work: float) -> None:
        """A phase starts: ``games`` to play, worth ``work`` (estimated seconds)."""

    def advance(self, work: float) -> None:
        """A game finished, worth ``work``."""


@dataclasses.dataclass(frozen=True, slots=True)
class DossierOutcome:
    """What a run did: games played now, whether it was stopped, and where the page is
    (None when stopped before the end)."""

    played: int
    interrupted: bool
    page: Path | None
    seconds: float


class _Quiet:
    def phase(self, name: str, *, games: int, work: float) -> None:
        del name, games, work

    def advance(self, work: float) -> None:
        del work


def _load_plan(out: Path) -> Plan | None:
    path = out / PLAN_FILE
    if not path.exists():
        return None
    try:
        return Plan.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise DossierError(
            f"{path} is not a dossier plan ({type(error).__name__}: {error}); use another "
            "--out folder, or delete that one to start again"
        ) from None


def _open_folder(out: Path) -> TraceWriter:
    """The folder made (if new) and its trace file opened to append; DossierError if
    it cannot be written or holds a damaged trace file (nothing is changed then)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        return TraceWriter(out / TRACE_FILE)
    except TraceFileError as error:
        raise DossierError(
            f"{error}; use another --out folder, or delete that one to start again"
        ) from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise DossierError(f"cannot write the dossier in {out}: {reason}") from None


def _save_plan(out: Path, plan: Plan) -> None:
    (out / PLAN_FILE).write_text(json.dumps(plan.to_dict(), indent=2) + "\n", encoding="utf-8")


def _check_folder(out: Path, spec: DossierSpec, given: Plan | None) -> Plan | None:
    saved = _load_plan(out)
    if saved is None:
        return given
    if not saved.spec.same_study(spec) or (given is not None and given.games != saved.games):
        raise DossierError(
            f"{out} holds a dossier of another study ({PLAN_FILE}); use another --out "
            "folder, or delete that one to start again"
        )
    return saved


@dataclasses.dataclass(slots=True)
class _Runner:
    """Plays task lists on the chosen backend into the trace file."""

    writer: TraceWriter
    play: PlayFn
    workers: int
    backend: str
    address: str | None
    progress: DossierProgress

    def run(
        self,
        tasks: Sequence[Task],
        cost: Callable[[Task], float],
        name: str,
        deadline: float | None = None,
    ) -> RunStats:
        costs = {config.config_id: cost((config, 0)) for config, _ in tasks}
        self.progress.phase(name, games=len(tasks), work=sum(cost(task) for task in tasks))

        def on_row(row: Row) -> None:
            self.progress.advance(costs[str(row["config_id"])])

        if self.backend == "ray":
            from sequence_stacks.sim.ray_backend import run_ray  # noqa: PLC0415 (needs the ray extra)

            run = functools.partial(run_ray, address=self.address)
        else:
            run = functools.partial(run_tasks, workers=self.workers)
        return run(
            tasks, self.writer, on_row=on_row, play=self.play, batch_size=2, deadline=deadline
        )


def _cost_of(plan: Plan) -> Callable[[Task], float]:
    seconds = plan.seconds_per_game
    return lambda task: seconds.get(task[0].config_id, 1.0)


@dataclasses.dataclass(slots=True)
class _Session:
    """One run's play into the folder: the pilot and the plan, then the games."""

    runner: _Runner
    out: Path
    workers: int
    played: int = 0

    def _run(
        self,
        tasks: Sequence[Task],
        cost: Callable[[Task], float],
        name: str,
        deadline: float | None,
    ) -> RunStats:
        stats = self.runner.run(tasks, cost, name, deadline)
        self.played += stats.played
        return stats

    def make_plan(self, spec: DossierSpec, start: float) -> tuple[Plan, float] | None:
        """Time every config in a pilot, then share the budget: the plan (saved) and its
        deadline; None when stopped."""
        writer = self.runner.writer
        jobs = build_jobs(spec)
        pilot = [dataclasses.replace(j.config, games=pilot_games(j)) for j in jobs]
        stats = self._run(tasks_of(pilot, writer.done_keys()), lambda _: 1.0, "pilot", None)
        if stats.interrupted:
            return None
        groups = len({(job.variant, job.players) for job in jobs})
        reserve = min(_RESERVE_S + _RESERVE_PER_GROUP_S * groups, _RESERVE_SHARE * spec.budget_s)
        deadline = start + spec.budget_s - reserve
        costs = _pilot_costs(jobs, writer.traces, _overhead(stats, writer.traces, self.workers))
        left = (deadline - time.monotonic()) * self.workers * _EFFICIENCY
        plan = allocate(spec, costs, left)
        _save_plan(self.out, plan)
        return plan, deadline

    def play(self, plan: Plan, deadline: float | None) -> Plan | None:
        """Play the plan's missing games; with a deadline, no game starts after it, and
        time left over goes to more games (:func:`_top_up`). Returns the plan played
        (saved), or None when stopped."""
        writer, phase = self.runner.writer, "games"
        while True:
            configs = [job.config for job in plan.jobs()]
            stats = self._run(
                tasks_of(configs, writer.done_keys()), _cost_of(plan), phase, deadline
            )
            if stats.interrupted:
                return None
            if stats.cut:  # the budget ran out first: the plan is what was played
                plan = cut_to_played(plan, writer.traces)
                _save_plan(self.out, plan)
                return plan
            # Played faster than the pilot said (it ran on a busier machine, or timed
            # too few games): the time left goes to more games of every config.
            grown = (
                None
                if deadline is None
                else _top_up(plan, writer.traces, stats, self.workers, deadline)
            )
            if grown is None:
                return plan
            plan, phase = grown, "more"
            _save_plan(self.out, plan)


def _pilot_costs(
    jobs: Sequence[Job], traces: Sequence[GameTrace], scale: float
) -> dict[str, float]:
    """Seconds per game of each config: its games' own time so far, times ``scale``."""
    seconds: dict[str, list[float]] = {}
    for trace in traces:
        seconds.setdefault(trace.config_id, []).append(trace.seconds)
    return {
        job.config.config_id: scale * statistics.fmean(seconds.get(job.config.config_id, [0.01]))
        for job in jobs
    }


def _overhead(stats: RunStats, traces: Sequence[GameTrace], workers: int) -> float:
    """How much longer the pilot took than its games' own time (workers starting, the
    rows' way back, other programs on the machine): at least 1, at most 3."""
    played = sum(trace.seconds for trace in traces[-stats.played :]) if stats.played else 0.0
    if played <= 0:
        return 1.0
    return min(3.0, max(1.0, stats.seconds * workers / played))


def _top_up(
    plan: Plan, traces: Sequence[GameTrace], stats: RunStats, workers: int, deadline: float
) -> Plan | None:
    """A bigger plan for the time left before ``deadline``, or None when too little is
    left for it to matter. Every config's seconds per game are measured again from all
    its games (times the last phase's overhead); the budget then spent plus the time
    left is shared as at the start, and no config plays fewer games than before."""
    left = deadline - time.monotonic()
    if left < max(_TOP_UP_MIN_S, _TOP_UP_SHARE * plan.spec.budget_s):
        return None
    jobs = plan.jobs()
    costs = _pilot_costs(jobs, traces, _overhead(stats, traces, workers))
    spent = sum(costs[job.config.config_id] * job.config.games for job in jobs)
    wider = allocate(plan.spec, costs, spent + left * workers * _EFFICIENCY)
    games = {cid: max(count, wider.games[cid]) for cid, count in plan.games.items()}
    if games == plan.games:
        return None
    return Plan(plan.spec, games, costs)


def cut_to_played(plan: Plan, traces: Sequence[GameTrace]) -> Plan:
    """The plan cut to the games played: per config, the longest run of games from 0
    that were all played, in whole rounds of deals (never below the pilot's)."""
    done: dict[str, set[int]] = {}
    for trace in traces:
        done.setdefault(trace.config_id, set()).add(trace.game_index)
    games = {}
    for job in plan.jobs():
        config = job.config
        have = done.get(config.config_id, set())
        count = next((i for i in range(config.games) if i not in have), config.games)
        games[config.config_id] = max(count - count % job.rotation, pilot_games(job))
    return dataclasses.replace(plan, games=games)


def run_dossier(
    spec: DossierSpec,
    out: Path,
    *,
    plan: Plan | None = None,
    workers: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: DossierProgress | None = None,
    win_chance: WinChance | None = None,
    pace: Pace | None = None,
    title: str = "Sequence Stacks design dossier",
) -> DossierOutcome:
    """Play what ``spec`` (or ``plan``) needs into ``out`` and write the dossier there.

    Resumes the plan saved in ``out``; raises DossierError if ``out`` holds another
    study. ``plan``, when given, fixes every config's games (a replay). Ctrl-C (or
    SIGTERM) stops the play and keeps the finished games; the page is then not written.
    """
    start = time.monotonic()
    spec = plan.spec if plan is not None else spec
    if (out / PLAN_FILE).exists():  # a damaged or foreign plan stops before anything is written
        _check_folder(out, spec, plan)
    opened = _open_folder(out)
    chosen = _check_folder(out, spec, plan)
    chance = win_chance or ModelWinChance()
    # Only the table's games feed the drama figures: the others keep the cheap chips.
    tables = frozenset(j.config.config_id for j in build_jobs(spec) if j.family == Family.TABLE)
    play: PlayFn = functools.partial(play_trace, win_chance=chance, chances_for=tables)
    with _backend_session(backend, address), opened as writer:
        session = _Session(
            _Runner(writer, play, workers, backend, address, progress or _Quiet()), out, workers
        )
        deadline = None  # a plan already made (resumed, or replayed): play it all
        if chosen is None:
            made = session.make_plan(spec, start)
            if made is None:
                return DossierOutcome(session.played, True, None, time.monotonic() - start)
            chosen, deadline = made
        elif _load_plan(out) is None:
            _save_plan(out, chosen)
        final = session.play(chosen, deadline)
        if final is None:
            return DossierOutcome(session.played, True, None, time.monotonic() - start)
        chosen, traces, played = final, list(writer.traces), session.played
    data = analyse_dossier(chosen, traces, pace=pace, no_chance=NO_CHANCE)
    data["win_chance"] = {
        "name": chance.name,
        "estimate": repr(chance),
        "by_players": {str(n): chance.for_players(n).name for n in spec.players},
    }
    data["runs"] = [
        *_previous_runs(out),
        {
            "seconds": round(time.monotonic() - start, 1),
            "games_played": played,
            "workers": workers,
            "backend": backend,
            "load_average": _load(),
        },
    ]
    page = write_dossier(data, out, title=title)
    return DossierOutcome(played, False, page, time.monotonic() - start)


def _backend_session(backend: str, address: str | None) -> contextlib.AbstractContextManager[None]:
    """Ray, connected once for the pilot and the games; nothing for processes."""
    if backend != "ray":
        return contextlib.nullcontext()
    from sequence_stacks.sim.ray_backend import ray_session  # noqa: PLC0415 (needs the ray extra)

    return ray_session(address)


def _previous_runs(out: Path) -> list[dict[str, Any]]:
    """The runs an earlier ``dossier.json`` in ``out`` lists (a resumed dossier keeps
    the time each run took)."""
    try:
        runs = json.loads((out / "dossier.json").read_text(encoding="utf-8")).get("runs", [])
    except (OSError, ValueError, AttributeError):
        return []
    return runs if isinstance(runs, list) else []


def _load() -> list[float] | None:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return None


def write_dossier(data: dict[str, Any], out: Path, *, title: str) -> Path:
    """Write ``dossier.json``, the figures (PNG), ``dossier.md`` (the figures as Markdown
    tables) and ``dossier.html`` into ``out``; return the page's path."""
    from sequence_stacks.sim.report_figures import save_figures  # noqa: PLC0415

    from .figures import dossier_figures  # noqa: PLC0415 (matplotlib)
    from .markdown import render_markdown  # noqa: PLC0415
    from .page import render_dossier  # noqa: PLC0415

    images = save_figures(dossier_figures(data), out)
    data["figures"] = {
        name: {"file": saved.path.name, "title": saved.title} for name, saved in images.items()
    }
    (out / "dossier.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    (out / "dossier.md").write_text(render_markdown(data), encoding="utf-8")
    page = out / "dossier.html"
    page.write_text(render_dossier(data, images, title=title), encoding="utf-8")
    return page
