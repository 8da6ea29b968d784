"""The game session: one game's state, its seats and its log, driven through the engine.

A :class:`GameSession` is the model behind both the Textual interface and the plain
line mode. It holds the :class:`~sequence_stacks.engine.State`, gives each seat its
:func:`~sequence_stacks.engine.observe` view, applies actions with
:func:`~sequence_stacks.engine.apply` (so the engine checks every one, R37), keeps every
event for the log (redacted per seat with :func:`~sequence_stacks.engine.event_for`),
and saves and loads the engine's :class:`~sequence_stacks.engine.GameRecord`. It holds
no rules of its own.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

from sequence_stacks.engine import (
    Action,
    ActionSpace,
    Event,
    GameRecord,
    IllegalActionError,
    RecordError,
    Replay,
    Result,
    Settings,
    State,
    View,
    action_space,
    apply,
    event_for,
    observe,
    position_digest,
)
from sequence_stacks.i18n import MESSAGES, event_line, refusal_message, render, words

__all__ = [
    "HUMAN",
    "BotPlayer",
    "GameSession",
    "SeatSpec",
    "load_record",
    "player_name",
    "refusal_text",
    "seats_from_record",
]

HUMAN = "human"
_META_APP = "sequence-stacks play"


class BotPlayer(Protocol):
    """What the session needs of a bot: choose an action from a view."""

    def choose(self, view: View) -> Action:
        """Return the action to take; it is checked by the engine like any other."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: ``kind`` is ``"human"`` or a bot's name."""

    kind: str = HUMAN

    @property
    def is_human(self) -> bool:
        """True for a seat played from the keyboard."""
        return self.kind == HUMAN

    def label(self, seat: int) -> str:
        """Return a short name for the seat, e.g. ``Player 2 (Greedy)`` for seat 1."""
        name = player_name(seat)
        if self.is_human:
            return name
        bot_key = f"bot.{self.kind}"
        bot = render(bot_key) if bot_key in MESSAGES else self.kind
        return render("term.seat.bot", player=name, bot=bot)


class GameSession:
    """One game: the engine state, who sits where, every event and every action taken.

    Attributes:
        settings: the game's variant options.
        seed: the shuffle seed.
        seats: per seat, a human or a bot.
        space: the action space of this game (ids <-> structured actions).
    """

    def __init__(
        self,
        settings: Settings,
        seed: int | str,
        seats: Sequence[SeatSpec],
        bots: Mapping[int, BotPlayer],
        *,
        actions: Sequence[tuple[int, Action]] = (),
    ) -> None:
        if len(seats) != settings.player_count:
            raise ValueError(f"{len(seats)} seats given for {settings.player_count} players")
        missing = [s for s, spec in enumerate(seats) if not spec.is_human and s not in bots]
        if missing:
            raise ValueError(f"no bot object for seat(s) {missing}")
        self.settings = settings
        self.seed = seed
        self.seats = tuple(seats)
        self.space: ActionSpace = action_space(settings.player_count, settings.piles_per_colour)
        self._bots = dict(bots)
        replay = Replay(GameRecord(settings, seed, tuple(actions)))
        self._events: list[Event] = list(replay.start_events)
        self._actions: list[tuple[int, Action]] = []
        for _, seat, action, events in replay:
            self._actions.append((seat, action))
            self._events.extend(events)
        self._state: State = replay.state

    @classmethod
    def from_record(
        cls, record: GameRecord, seats: Sequence[SeatSpec], bots: Mapping[int, BotPlayer]
    ) -> GameSession:
        """Resume a saved game; raise RecordError if it does not replay to its digest."""
        session = cls(record.settings, record.seed, seats, bots, actions=record.actions)
        if record.digest is not None and position_digest(session._state) != record.digest:
            raise RecordError("the saved game does not replay to the position it recorded")
        return session

    # --- questions --------------------------------------------------------------

    @property
    def player_count(self) -> int:
        """The number of seats."""
        return self.settings.player_count

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._state.is_over

    @property
    def result(self) -> Result | None:
        """How the game ended, or None while it runs."""
        return self._state.result

    @property
    def step_count(self) -> int:
        """The number of actions taken so far (changes after every accepted action)."""
        return len(self._actions)

    @property
    def actions(self) -> tuple[tuple[int, Action], ...]:
        """Every ``(seat, action)`` accepted so far."""
        return tuple(self._actions)

    @property
    def human_seats(self) -> tuple[int, ...]:
        """The seats played from the keyboard."""
        return tuple(s for s, spec in enumerate(self.seats) if spec.is_human)

    def to_act(self) -> int | None:
        """Return the seat that must decide next (None once the game is over)."""
        return self._state.current_player()

    def is_human(self, seat: int) -> bool:
        """True when ``seat`` is played from the keyboard."""
        return self.seats[seat].is_human

    def view(self, seat: int | None) -> View:
        """Return what ``seat`` may see now (None: a spectator)."""
        return observe(self._state, seat)

    def events(self, seat: int | None, start: int = 0) -> list[Event]:
        """Return the events from index ``start``, as ``seat`` may see them."""
        return [event_for(event, seat) for event in self._events[start:]]

    @property
    def event_count(self) -> int:
        """The number of events so far, for incremental logs."""
        return len(self._events)

    def log_lines(self, seat: int | None, start: int = 0) -> list[str]:
        """Return the log in words from event ``start``, redacted for ``seat`` (R36)."""
        return _lines(self._events[start:], seat)

    def action_of(self, action_id: int, seat: int) -> Action:
        """Return the structured action with this id for ``seat``."""
        return self.space.action(action_id, seat)

    # --- changes ----------------------------------------------------------------

    def submit(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Apply ``seat``'s action through the engine and return its events.

        Raises IllegalActionError (with the rule id and reason) and changes nothing if
        the engine refuses the action (R37).
        """
        state, events = apply(self._state, seat, action)
        self._state = state
        self._actions.append((seat, action))
        self._events.extend(events)
        return events

    def bot_for(self, seat: int) -> BotPlayer:
        """Return the bot object playing ``seat``."""
        return self._bots[seat]

    def replay_steps(self, seat: int | None) -> Iterator[tuple[View, list[str]]]:
        """Replay the game from the deal: yield the view and log lines after each step.

        The first item is the position after the deal; then one item per action.
        """
        replay = Replay(self.record())
        yield observe(replay.state, seat), _lines(replay.start_events, seat)
        for _, _, _, events in replay:
            yield observe(replay.state, seat), _lines(events, seat)

    # --- records ----------------------------------------------------------------

    def record(self) -> GameRecord:
        """Return the game so far as the engine's record (R41), with the seats in meta."""
        return GameRecord(
            settings=self.settings,
            seed=self.seed,
            actions=tuple(self._actions),
            result=self._state.result,
            digest=position_digest(self._state),
            meta={"app": _META_APP, "seats": [spec.kind for spec in self.seats]},
        )

    def save(self, path: Path) -> None:
        """Write the record as JSON to ``path`` atomically: a crash or a full disk
        midway leaves the previous file whole (the text goes to a temporary file in
        the same folder, which then replaces ``path``)."""
        text = json.dumps(self.record().to_dict(), indent=2) + "\n"
        folder = path.parent if str(path.parent) else Path()
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def _lines(events: Sequence[Event], seat: int | None) -> list[str]:
    lines = (event_line(event_for(event, seat), player_name) for event in events)
    return [line for line in lines if line]


def refusal_text(error: IllegalActionError) -> str:
    """Why the engine refused an action, in the reader's language: its ``illegal.<code>``
    message filled from the error's data, inside ``term.refused`` with the rule id.
    The reason's own full stop goes: the wrapper ends the sentence (R37)."""
    key, args = refusal_message(error.code, error.params)
    if isinstance(args.get("seat"), int):  # a seat shown to people counts from 1
        args = {**args, "seat": args["seat"] + 1}
    reason = render(key, **words(args, player_name))
    return render("term.refused", rule=error.rule_id, reason=reason.rstrip(_FULL_STOPS))


# The mark that ends a sentence in the six languages.
_FULL_STOPS: Final = ".\u0964\u0589\u3002"  # Latin, danda, Armenian full stop, ideographic


def player_name(seat: int) -> str:
    """A seat as people read it: ``Player N``, counting from 1 as the browser does
    (seat 0 is Player 1); seat numbers stay 0-based inside the engine and records."""
    return render("seat.numbered", number=seat + 1)


def load_record(path: Path) -> GameRecord:
    """Read a record file; raise RecordError, naming the file and what is wrong, if it
    cannot be read or is not a game record (a truncated or edited save, say)."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    except (ValueError, RecursionError) as error:
        raise RecordError(f"{path} is not a saved game (not valid JSON: {error})") from None
    try:
        return GameRecord.from_dict(data)
    except RecordError as error:
        raise RecordError(f"{path} is not a saved game: {error}") from None


def seats_from_record(record: GameRecord) -> list[SeatSpec] | None:
    """Return the seats stored in a record's meta by :meth:`GameSession.record`, if any."""
    kinds = record.meta.get("seats")
    if not isinstance(kinds, list) or len(kinds) != record.settings.player_count:
        return None
    if not all(isinstance(kind, str) for kind in kinds):
        return None
    return [SeatSpec(kind) for kind in kinds]
