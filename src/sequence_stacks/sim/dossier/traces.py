"""Game traces: what a game looked like turn by turn, for the dossier's metrics.

A results row (:mod:`..results`) says how a game ended; a :class:`GameTrace` also says
how it got there: every turn (whose, how many actions, skipped or not), every seat's
chips and win chance at every turn end, and the moves one seat made against another
(Blocks, Steal-a-Chips, Skips). Traces are plain data, so the dossier's metrics are pure
functions of them and tests build them by hand. They are stored one JSON object per
line; a run that stops keeps the lines written, and a resumed one skips their keys.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from sequence_stacks.engine import CARD_KIND, EndReason, Event, State, observe
from sequence_stacks.engine.events import (
    BlockAnswered,
    BlockWindowOpened,
    CardPlayed,
    CardStolen,
    ChipStolen,
    ChipTaken,
    GameEnded,
    PileBlocked,
    ReversePlayed,
    SkipPlayed,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from sequence_stacks.sim.play import play_game
from sequence_stacks.sim.players import Restriction, make_player
from sequence_stacks.sim.results import Row
from sequence_stacks.sim.runner import SimConfig, game_setup

from .chances import ChipsWinChance, WinChance

__all__ = [
    "GameTrace",
    "Move",
    "MoveKind",
    "TraceFileError",
    "TraceWriter",
    "Turn",
    "play_trace",
    "read_traces",
]

_DIGITS: Final = 4


class MoveKind(enum.StrEnum):
    """A move one seat makes against another."""

    BLOCK = "block"
    STEAL_CHIP = "steal-chip"
    SKIP = "skip"


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """One turn: its seat, the actions taken in it (Block answers included), whether a
    Skip took it away (R23, R26), the Block windows it opened (R29) and the answers
    given in them (part of ``actions``)."""

    seat: int
    actions: int
    skipped: bool = False
    windows: int = 0
    answers: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """A Block (victim: the completer), a Steal-a-Chip (victim: the chip's owner) or a
    Skip (victim: the seat skipped), made after ``point`` turns had ended."""

    point: int
    kind: MoveKind
    seat: int
    victim: int


Chips = tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class GameTrace:
    """One game, turn by turn.

    Attributes:
        turns: every turn in order, skipped ones included.
        chips: each seat's (blue, red) chips at each *point*: point 0 is the deal, point
            ``k`` the end of the ``k``-th turn played (the last may end mid-turn, won).
        chances: each seat's win chance at each point (:mod:`.chances`).
        moves: the moves seats made against each other, in order.
        block_windows: completions that opened a Block window (R29).
        chipless_completions: completions that found their colour's supply empty (R17).
        supply_out: whether a colour's supply ran out during the game.
        seconds: how long the game took to play (for planning only; no metric uses it).
        estimate: the name of the win-chance estimate behind ``chances`` (:mod:`.chances`).
        plays: who played which action card: per card (a :class:`~..players.Restriction`
            value: ``skip``, ``reverse``, ``steal-card``, ``steal-chip``, ``block``,
            ``wilds``), each seat's plays (a Block counts when played in a window).
    """

    config_id: str
    game_index: int
    seed: int
    player_count: int
    bots: tuple[str, ...]
    reason: EndReason
    winner: int | None
    actions: int
    turns: tuple[Turn, ...]
    chips: tuple[Chips, ...]
    chances: tuple[tuple[float, ...], ...]
    moves: tuple[Move, ...] = ()
    block_windows: int = 0
    blocks: int = 0
    chipless_completions: int = 0
    supply_out: bool = False
    seconds: float = 0.0
    estimate: str = "chips"
    plays: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)

    @property
    def key(self) -> tuple[str, int]:
        """The game's identity in a trace file: ``(config_id, game_index)``."""
        return self.config_id, self.game_index

    @property
    def played_turns(self) -> int:
        """Turns played (skipped ones not counted): the game's length in turns (R33)."""
        return sum(1 for turn in self.turns if not turn.skipped)

    def to_dict(self) -> Row:
        """The trace as compact JSON-ready data (:meth:`from_dict` reads it back)."""
        data = dataclasses.asdict(self)
        data["reason"] = self.reason.value
        data["turns"] = [
            [t.seat, t.actions, int(t.skipped), t.windows, t.answers] for t in self.turns
        ]
        data["chips"] = [[n for pair in point for n in pair] for point in self.chips]
        data["chances"] = [list(point) for point in self.chances]
        data["moves"] = [[m.point, m.kind.value, m.seat, m.victim] for m in self.moves]
        data["plays"] = {card: list(seats) for card, seats in self.plays.items()}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameTrace:
        """Read :meth:`to_dict` data back."""
        return cls(
            config_id=str(data["config_id"]),
            game_index=int(data["game_index"]),
            seed=int(data["seed"]),
            player_count=int(data["player_count"]),
            bots=tuple(str(name) for name in data["bots"]),
            reason=EndReason(data["reason"]),
            winner=None if data["winner"] is None else int(data["winner"]),
            actions=int(data["actions"]),
            turns=tuple(_turn(values) for values in data["turns"]),
            chips=tuple(
                tuple((int(p[i]), int(p[i + 1])) for i in range(0, len(p), 2))
                for p in data["chips"]
            ),
            chances=tuple(tuple(float(c) for c in point) for point in data["chances"]),
            moves=tuple(Move(int(p), MoveKind(k), int(s), int(v)) for p, k, s, v in data["moves"]),
            block_windows=int(data["block_windows"]),
            blocks=int(data["blocks"]),
            chipless_completions=int(data["chipless_completions"]),
            supply_out=bool(data["supply_out"]),
            seconds=float(data["seconds"]),
            estimate=str(data.get("estimate", "chips")),
            plays={
                str(card): tuple(int(n) for n in seats)
                for card, seats in data.get("plays", {}).items()
            },
        )


def _turn(values: Sequence[Any]) -> Turn:
    """A turn from its JSON list (traces written before windows were counted have 3)."""
    seat, actions, skipped, *rest = values
    windows, answers = (int(rest[0]), int(rest[1])) if rest else (0, 0)
    return Turn(int(seat), int(actions), bool(skipped), windows, answers)


class _Tracer:
    """Follows one game through its events and the state after each action."""

    def __init__(self, state: State, win_chance: WinChance) -> None:
        self.win_chance = win_chance
        self.turns: list[list[int]] = []  # seat, actions, skipped, windows, answers
        self.open: int | None = None
        self.acting = 0  # the turn open when the current action began
        self.closed = 0  # played turns that ended during the current action
        self.chips: list[Chips] = []
        self.chances: list[tuple[float, ...]] = []
        self.moves: list[Move] = []
        self.skippers: list[int] = []
        self.completer = -1
        self.counts = {"block_windows": 0, "blocks": 0, "chipless_completions": 0}
        self.supply_out = False
        seats = state.settings.player_count
        self.plays = {card.value: [0] * seats for card in Restriction}
        self._snapshot(state, 1)

    def _point(self) -> int:
        return len(self.chips) + self.closed

    def event(self, event: Event) -> None:
        """Note one event of the game."""
        self._count_play(event)
        if isinstance(event, TurnStarted):
            self.turns.append([event.seat, 0, 0, 0, 0])
            self.open = len(self.turns) - 1
        elif isinstance(event, TurnSkipped):
            self.turns.append([event.seat, 0, 1, 0, 0])
            if self.skippers:
                self._move(MoveKind.SKIP, self.skippers.pop(0), event.seat)
        elif isinstance(event, TurnEnded | GameEnded):
            self.closed += self.open is not None
            self.open = None
            self.skippers.clear()
        elif isinstance(event, BlockWindowOpened):
            self.completer = event.completer
            self.counts["block_windows"] += 1
            self.turns[self.acting][3] += 1
        elif isinstance(event, BlockAnswered):
            self.turns[self.acting][4] += 1
        elif isinstance(event, PileBlocked):
            self.counts["blocks"] += 1
            self._move(MoveKind.BLOCK, event.blocker, self.completer)
        elif isinstance(event, ChipStolen):
            self._move(MoveKind.STEAL_CHIP, event.seat, event.victim)
        elif isinstance(event, SkipPlayed):
            self.skippers.append(event.seat)
        elif isinstance(event, ChipTaken) and not event.taken:
            self.counts["chipless_completions"] += 1

    def _count_play(self, event: Event) -> None:
        """Who played which action card (or a wild)."""
        if isinstance(event, PileBlocked):
            self.plays[Restriction.BLOCK][event.blocker] += 1
        elif isinstance(event, ChipStolen):
            self.plays[Restriction.STEAL_CHIP][event.seat] += 1
        elif isinstance(event, SkipPlayed):
            self.plays[Restriction.SKIP][event.seat] += 1
        elif isinstance(event, ReversePlayed):
            self.plays[Restriction.REVERSE][event.seat] += 1
        elif isinstance(event, CardStolen):
            self.plays[Restriction.STEAL_CARD][event.seat] += 1
        elif isinstance(event, CardPlayed) and CARD_KIND[event.card] in Restriction.WILDS.kinds:
            self.plays[Restriction.WILDS][event.seat] += 1

    def _move(self, kind: MoveKind, seat: int, victim: int) -> None:
        self.moves.append(Move(self._point(), kind, seat, victim))

    def action(self, state: State) -> None:
        """Count the action just taken and take a snapshot at each turn that ended."""
        self.turns[self.acting][1] += 1
        if self.closed:
            self._snapshot(state, self.closed)
            self.closed = 0
        if self.open is not None:
            self.acting = self.open

    def _snapshot(self, state: State, times: int) -> None:
        view = observe(state, None)
        seats = [observe(state, seat) for seat in range(len(view.chips))]
        chances = tuple(round(c, _DIGITS) for c in self.win_chance(seats))
        chips = tuple((blue, red) for blue, red in view.chips)
        self.supply_out = self.supply_out or (view.supply is not None and 0 in view.supply)
        self.chips += [chips] * times
        self.chances += [chances] * times


def play_trace(
    config: SimConfig,
    index: int,
    records_dir: str | None = None,
    *,
    win_chance: WinChance | None = None,
    chances_for: frozenset[str] | None = None,
) -> Row:
    """Play game ``index`` of ``config`` (seeds: :func:`~..runner.game_setup`; players:
    :func:`~..players.make_player` specs) and return its trace as data. ``records_dir``
    is not used (the runner passes it to every play function).

    Its win chances come from ``win_chance`` (chips by default) when ``chances_for`` is
    None or names the config, else from chips (cheap, for configs no drama figure reads).
    """
    del records_dir
    settings = config.settings
    wanted = chances_for is None or config.config_id in chances_for
    estimate = (win_chance if wanted and win_chance is not None else ChipsWinChance()).for_players(
        settings.player_count
    )
    names, seed, bot_seeds = game_setup(config, index)
    bots = [
        make_player(name, seed=bot_seed, player_count=settings.player_count)
        for name, bot_seed in zip(names, bot_seeds, strict=True)
    ]
    start = time.perf_counter()
    tracer: _Tracer | None = None
    pending: list[Event] = []

    def on_event(event: Event) -> None:
        if tracer is None:
            pending.append(event)
        else:
            tracer.event(event)

    def on_action(state: State) -> None:
        nonlocal tracer
        if tracer is None:  # point 0: no first action can win a chip
            tracer = _Tracer(state, estimate)
            for event in pending:  # the deal's and the first action's
                tracer.event(event)
        tracer.action(state)

    state, record = play_game(settings, seed, bots, on_event=on_event, on_action=on_action)
    assert tracer is not None
    assert state.result is not None
    trace = GameTrace(
        config_id=config.config_id,
        game_index=index,
        seed=seed,
        player_count=settings.player_count,
        bots=names,
        reason=state.result.reason,
        winner=state.result.winner,
        actions=len(record.actions),
        turns=tuple(
            Turn(seat, actions, bool(skipped), windows, answers)
            for seat, actions, skipped, windows, answers in tracer.turns
        ),
        chips=tuple(tracer.chips),
        chances=tuple(tracer.chances),
        moves=tuple(tracer.moves),
        supply_out=tracer.supply_out,
        seconds=round(time.perf_counter() - start, 4),
        estimate=estimate.name,
        plays={card: tuple(seats) for card, seats in tracer.plays.items()},
        **tracer.counts,
    )
    return trace.to_dict()


class TraceFileError(ValueError):
    """A trace file that is not one: a line that no trace reads from."""


def read_traces(path: Path) -> list[GameTrace]:
    """Every trace of a trace file (empty if missing). A last line cut off by a stop
    mid-write (no line end) is skipped; any other line that is not a trace raises
    :class:`TraceFileError` naming the file and the line."""
    return list(_iter_traces(path))


def _iter_traces(path: Path) -> Iterator[GameTrace]:
    if not path.exists():
        return
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise TraceFileError(f"{path} is not a trace file (not UTF-8 text)") from None
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield GameTrace.from_dict(json.loads(line))
        except (ValueError, KeyError, TypeError, IndexError) as error:
            if number == len(lines):
                continue  # the last line, cut off by a stop mid-write
            raise TraceFileError(
                f"{path}, line {number}, is not a game trace ({type(error).__name__}: {error})"
            ) from None


class TraceWriter:
    """Appends traces to a file as games finish (one JSON object a line)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.traces: list[GameTrace] = read_traces(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._repair()
        self._handle = path.open("a", encoding="utf-8")

    def _repair(self) -> None:
        """Rewrite the file without a cut-off last line, so appends start clean."""
        if self.path.exists():
            text = self.path.read_text(encoding="utf-8")
            if text and not text.endswith("\n"):
                self._rewrite(self.traces)

    def _rewrite(self, traces: Sequence[GameTrace]) -> None:
        lines = "".join(json.dumps(t.to_dict(), separators=(",", ":")) + "\n" for t in traces)
        self.path.write_text(lines, encoding="utf-8")

    def done_keys(self) -> set[tuple[str, int]]:
        """The keys of the games the file holds."""
        return {trace.key for trace in self.traces}

    def write(self, row: Row) -> None:
        """Record one finished game's trace data."""
        self.traces.append(GameTrace.from_dict(row))
        self._handle.write(json.dumps(row, separators=(",", ":")) + "\n")
        self._handle.flush()

    def close(self) -> None:
        """Close the file."""
        self._handle.close()

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
