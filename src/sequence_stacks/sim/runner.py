"""Many games across processes: configs, per-game rows, Ctrl-C safe and resumable.

A :class:`SimConfig` names the settings, the bots (cycling over the seats and rotating
one seat each game, as in :func:`~sequence_stacks.sim.selfplay.iter_selfplay`), the
number of games and the base seed. Game ``i`` of a config is fully determined by the
config and ``i`` (:func:`play_row`), so the rows are the same whatever the number of
processes and in whatever order games finish; a resumed run skips the keys it has.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Final, Protocol

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import Event, Settings
from sequence_stacks.engine.events import (
    BlockWindowOpened,
    CardPlayed,
    CardStolen,
    ChipStolen,
    PileBlocked,
    PileCompleted,
    Reshuffled,
    ReversePlayed,
    SkipPlayed,
)

from .play import play_game
from .results import Row
from .selfplay import game_seed, seat_bots

__all__ = [
    "PlayFn",
    "RowSink",
    "RunStats",
    "SimConfig",
    "Task",
    "game_setup",
    "play_row",
    "run_tasks",
    "tasks_of",
    "until",
]

_DEFAULTS: Final = Settings(player_count=2).to_dict()
_PARENT_POLL_S: Final = 0.5
# SIGHUP does not exist on Windows; SIGTERM does.
_TERMINATION: Final = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@dataclasses.dataclass(frozen=True, slots=True)
class SimConfig:
    """One simulated setup: settings, bots by seat rotation, games and base seed."""

    settings: Settings
    bot_names: tuple[str, ...]
    games: int
    seed: int = 0

    @property
    def options(self) -> dict[str, Any]:
        """The variant options that differ from the defaults (player count excluded)."""
        data = self.settings.to_dict()
        return {
            name: value
            for name, value in data.items()
            if name != "player_count" and value != _DEFAULTS[name]
        }

    @property
    def config_id(self) -> str:
        """A readable, stable id: players, bots, options and a short digest."""
        options = self.options
        text = json.dumps(
            {"settings": self.settings.to_dict(), "bots": self.bot_names, "seed": self.seed},
            sort_keys=True,
        )
        digest = hashlib.sha256(text.encode()).hexdigest()[:8]
        parts = [f"p{self.settings.player_count}", "-".join(self.bot_names)]
        parts += [f"{name}={value}" for name, value in sorted(options.items())]
        return "/".join(parts) + f"#{digest}"


Task = tuple[SimConfig, int]
# Plays game ``index`` of a config into a row: module level (or a partial of one), so
# worker processes and Ray tasks can receive it.
PlayFn = Callable[[SimConfig, int, str | None], Row]


class RowSink(Protocol):
    """Where finished games go (a :class:`~.results.ResultsWriter`, a trace file)."""

    def write(self, row: Row) -> None:
        """Record one finished game."""


def tasks_of(configs: Sequence[SimConfig], done: set[tuple[str, int]] | None = None) -> list[Task]:
    """Every (config, game index) still to play, configs interleaved round-robin."""
    done = done or set()
    per_config = [
        [(config, index) for index in range(config.games) if (config.config_id, index) not in done]
        for config in configs
    ]
    tasks: list[Task] = []
    longest = max((len(items) for items in per_config), default=0)
    for position in range(longest):
        tasks += [items[position] for items in per_config if position < len(items)]
    return tasks


class _Tally:
    """Collects a game's per-seat statistics from its events."""

    _SEAT_EVENTS: Final[dict[type, str]] = {
        SkipPlayed: "skips",
        ReversePlayed: "reverses",
        CardStolen: "steal_cards",
        ChipStolen: "steal_chips",
        CardPlayed: "cards_played",
        PileCompleted: "completions",
    }

    def __init__(self, player_count: int) -> None:
        names = (
            *("cards_played", "completions", "blocked_against", "blocks"),
            *("skips", "reverses", "steal_cards", "steal_chips"),
        )
        self.counts = {name: [0] * player_count for name in names}
        self.reshuffles = 0
        self.completer = -1

    def __call__(self, event: Event) -> None:
        if isinstance(event, BlockWindowOpened):
            self.completer = event.completer
        elif isinstance(event, PileBlocked):
            self.counts["blocks"][event.blocker] += 1
            self.counts["blocked_against"][self.completer] += 1
        elif isinstance(event, Reshuffled):
            self.reshuffles += 1
        else:
            column = self._SEAT_EVENTS.get(type(event))
            if column is not None:
                self.counts[column][getattr(event, "seat")] += 1  # noqa: B009 (they all have one)


def _joined(values: Iterable[int]) -> str:
    return "|".join(str(value) for value in values)


def game_setup(config: SimConfig, index: int) -> tuple[tuple[str, ...], int, list[int]]:
    """Game ``index`` of ``config``: the bot at each seat, the shuffle seed and each
    seat's bot seed.

    Seeds follow :func:`~sequence_stacks.sim.selfplay.iter_selfplay`: the games of one
    rotation share a deal, and each bot's seed comes from the game seed and its seat.
    """
    rotation = len(config.bot_names)
    names = seat_bots(config.bot_names, config.settings.player_count, index)
    seed = game_seed(config.seed, index, rotation)
    return names, seed, [seed * 64 + seat * 8 + index % rotation for seat in range(len(names))]


def play_row(config: SimConfig, index: int, records_dir: str | None = None) -> Row:
    """Play game ``index`` of ``config`` (seeds: :func:`game_setup`) and return its
    results row."""
    settings = config.settings
    names, seed, bot_seeds = game_setup(config, index)
    bots = [make_bot(name, seed=bot_seed) for name, bot_seed in zip(names, bot_seeds, strict=True)]
    tally = _Tally(settings.player_count)
    meta = {"config_id": config.config_id, "game_index": index}
    state, record = play_game(settings, seed, bots, on_event=tally, meta=meta)
    result = state.result
    assert result is not None
    if records_dir is not None:
        path = Path(records_dir) / f"{_safe(config.config_id)}-{index:06d}.json"
        path.write_text(json.dumps(record.to_dict()) + "\n", encoding="utf-8")
    row: Row = {
        "config_id": config.config_id,
        "options": json.dumps(config.options, sort_keys=True),
        "game_index": index,
        "seed": seed,
        "player_count": settings.player_count,
        "bots": _joined_names(names),
        "winner_seat": -1 if result.winner is None else result.winner,
        "winner_bot": "" if result.winner is None else names[result.winner],
        "reason": result.reason.value,
        "turns": state.turn_count,
        "actions": len(record.actions),
        "reshuffles": tally.reshuffles,
        "chips_blue": _joined(pair[0] for pair in state.chips),
        "chips_red": _joined(pair[1] for pair in state.chips),
    }
    row.update({name: _joined(values) for name, values in tally.counts.items()})
    return row


def _joined_names(names: Sequence[str]) -> str:
    return "|".join(names)


def _safe(config_id: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-=_" else "_" for ch in config_id)


@dataclasses.dataclass(slots=True)
class RunStats:
    """What a run did: games played now, skipped as done, whether it was stopped (Ctrl-C,
    SIGTERM) and whether its deadline left games unplayed."""

    played: int = 0
    skipped: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    cut: bool = False


def until(items: Iterable[Any], deadline: float | None, stats: RunStats) -> Iterator[Any]:
    """``items`` until the ``time.monotonic()`` deadline passes (marking ``stats.cut``);
    the clock is read as each item is taken, so work already started is not cut."""
    for item in items:
        if deadline is not None and time.monotonic() >= deadline:
            stats.cut = True
            return
        yield item


def _init_worker(parent: int) -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and keeps the rows; and
    a worker whose parent is gone (killed outright, SIGKILL) exits instead of waiting
    for work forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL_S)
    os._exit(1)


class _Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP during a run: stop as on Ctrl-C, keeping the finished rows."""


def _stop(signum: int, frame: object) -> None:
    raise _Stopped(signal.Signals(signum).name)


@contextlib.contextmanager
def _stop_on_termination() -> Iterator[None]:
    """Treat SIGTERM and SIGHUP like Ctrl-C while a run lasts (main thread only), so
    ``kill`` also shuts the worker processes down and keeps the rows."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _stop) for sig in _TERMINATION}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _play_batch(batch: list[Task], records_dir: str | None, play: PlayFn) -> list[Row]:
    return [play(config, index, records_dir) for config, index in batch]


def _batches(tasks: Sequence[Task], size: int) -> Iterator[list[Task]]:
    for start in range(0, len(tasks), size):
        yield list(tasks[start : start + size])


def run_tasks(
    tasks: Sequence[Task],
    writer: RowSink,
    *,
    workers: int = 1,
    records_dir: str | None = None,
    on_row: Callable[[Row], None] | None = None,
    batch_size: int = 4,
    play: PlayFn = play_row,
    deadline: float | None = None,
) -> RunStats:
    """Play ``tasks`` on ``workers`` processes (1: in this process), writing each row
    as soon as its game ends. Ctrl-C (or SIGTERM, SIGHUP) stops the run; finished rows
    are kept, and so are those of the batches the workers were playing (the stop waits
    for them). ``play`` turns a task into its row (:func:`play_row` by default). After
    the ``deadline`` (``time.monotonic()``) no game starts (``stats.cut``)."""
    stats = RunStats()
    start = time.perf_counter()
    if records_dir is not None:
        Path(records_dir).mkdir(parents=True, exist_ok=True)

    def keep(row: Row) -> None:
        writer.write(row)
        stats.played += 1
        if on_row is not None:
            on_row(row)

    try:
        with _stop_on_termination():
            if workers <= 1:
                for config, index in until(tasks, deadline, stats):
                    keep(play(config, index, records_dir))
            else:
                batches = until(_batches(tasks, batch_size), deadline, stats)
                _run_pool(batches, keep, workers, records_dir, play=play)
    except KeyboardInterrupt:
        stats.interrupted = True
    stats.seconds = time.perf_counter() - start
    return stats


def _run_pool(
    batches: Iterator[list[Task]],
    keep: Callable[[Row], None],
    workers: int,
    records_dir: str | None,
    *,
    play: PlayFn,
) -> None:
    context = multiprocessing.get_context("spawn")
    pending: set[Future[list[Row]]] = set()
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_init_worker, initargs=(os.getpid(),)
    )
    try:
        for batch in batches:
            pending.add(pool.submit(_play_batch, batch, records_dir, play))
            if len(pending) >= 2 * workers:
                break
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                pending.discard(future)
                for row in future.result():
                    keep(row)
                for batch in itertools.islice(batches, 1):
                    pending.add(pool.submit(_play_batch, batch, records_dir, play))
    finally:
        # Stopped (Ctrl-C, SIGTERM) or failed: batches not started are cancelled; those
        # already running are waited for, and their games are kept too.
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        for future in pending:
            if not future.cancelled() and future.exception() is None:
                for row in future.result():
                    keep(row)
