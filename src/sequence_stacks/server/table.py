"""One table: seats, games, and the log entries that build both (no I/O, no clock).

Every change is first *prepared* here (validated against the table and the engine,
raising :class:`Refusal` with nothing changed; the result is a typed entry of
:mod:`.entries`), then *applied* here, then committed by the service (which reloads
the table from storage if the commit fails). Applying the stored entries in order
rebuilds the table exactly, which is how the server restarts (R41). The engine is the
only judge of a game action's legality.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, assert_never

from sequence_stacks.engine import (
    Action,
    ActionType,
    EngineError,
    Event,
    GameRecord,
    IllegalActionError,
    Phase,
    Settings,
    State,
    action_space,
    apply_in_place,
    check,
    new_game,
    parse_action,
)
from sequence_stacks.engine.events import (
    BlockWindowOpened,
    CardStolen,
    ChipStolen,
    PileBlocked,
    PileCompleted,
    TurnStarted,
)

from .entries import (
    Act,
    AddBot,
    Leave,
    LogPayload,
    Op,
    Reclaim,
    RemoveBot,
    Replace,
    SeatKind,
    Sit,
    Start,
    TableStatus,
    decode,
    op_of,
)
from .storage import LogEntry, TableRow

__all__ = [
    "CATCH_UP_LIMIT",
    "LOG_LIMIT",
    "Entry",
    "GameArchive",
    "Refusal",
    "Seat",
    "Table",
    "Tally",
    "clean_name",
    "standings",
]

NAME_LIMIT: Final = 24
HISTORY_LIMIT: Final = 5000  # entries kept in memory for catching up
CATCH_UP_LIMIT: Final = 1000  # most missed entries a sync sends one by one
LOG_LIMIT: Final = 400  # most entries of the current game a reset sync sends
ANSWERS: Final = (ActionType.PASS, ActionType.BLOCK)


class Refusal(Exception):  # noqa: N818 - an answer to a client, not a server fault
    """A request was refused and nothing changed.

    Attributes:
        code: a stable machine word ("illegal", "stale", "not_seated", "bad_request" ...).
        reason: a plain-language explanation for the person who asked.
        rule_id: the RULES.md id for game rules (R37 for malformed actions), else None.
        detail: for an action the engine refused, why as data: the message key
            ``illegal.<code>`` and its arguments (seats, kinds, piles, colours, numbers);
            else None.
        retry_after: for "rate_limited" over HTTP, whole seconds until a retry may pass.
    """

    def __init__(
        self,
        code: str,
        reason: str,
        rule_id: str | None = None,
        *,
        detail: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.rule_id = rule_id
        self.detail = detail
        self.retry_after: int | None = None


@dataclasses.dataclass(slots=True)
class Seat:
    """Who sits in one seat; ``token_hash`` is the SHA-256 of a human's secret token.

    A bot standing in for a player who was away too long (``replace``) keeps that
    player's token hash and name as ``away_hash`` / ``away_name``: the same token
    takes the seat back (``reclaim``) until the next game starts.
    """

    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    away_hash: str | None = None
    away_name: str = ""
    # A name the server made (a bot's), as a message for clients to word in their
    # reader's language: {"key": "seat.bot", "args": {...}}; None for a person's name.
    label: dict[str, Any] | None = None

    def public(self) -> dict[str, Any]:
        """Return what anyone may know about the seat (never the token hash)."""
        return {"kind": self.kind, "name": self.name, "bot": self.bot, "label": self.label}


@dataclasses.dataclass(slots=True)
class Tally:
    """What one seat did in the current game, counted from its events (public facts):
    sequences it completed that went to the pool, Blocks it played that worked, cards
    and chips it stole."""

    completed: int = 0
    blocks: int = 0
    cards_stolen: int = 0
    chips_stolen: int = 0

    def count(self, event: Event, seat: int) -> None:
        """Add ``event`` when ``seat`` did it."""
        if isinstance(event, PileCompleted) and event.seat == seat:
            self.completed += 1
        elif isinstance(event, PileBlocked) and event.blocker == seat:
            self.blocks += 1
        elif isinstance(event, CardStolen) and event.seat == seat:
            self.cards_stolen += 1
        elif isinstance(event, ChipStolen) and event.seat == seat:
            self.chips_stolen += 1


@dataclasses.dataclass(frozen=True, slots=True)
class Entry:
    """An applied log entry as clients hear of it (events unredacted: redact per viewer)."""

    version: int
    op: Op
    seat: int | None
    game: int
    action: Action | None = None
    events: tuple[Event, ...] = ()
    auto: bool = False


@dataclasses.dataclass(slots=True)
class GameArchive:
    """One game of a table: the secret seed and the actions, for replays (R41)."""

    game: int
    seed: int
    start_version: int
    actions: list[tuple[int, Action]] = dataclasses.field(default_factory=list)

    def record(self, settings: Settings, *, steps: int | None = None) -> GameRecord:
        """Return the game record (first ``steps`` actions); server-side only: has the seed."""
        chosen = self.actions if steps is None else self.actions[:steps]
        return GameRecord(settings=settings, seed=self.seed, actions=tuple(chosen))


class Table:
    """A table's seats and games, rebuilt from and extended by log entries."""

    def __init__(self, row: TableRow) -> None:
        self.table_id = row.table_id
        self.visibility = row.visibility
        self.created_at = row.created_at
        self.settings = Settings.from_dict(row.settings)
        # Frames share this dict (read-only): settings never change.
        self.settings_dict = self.settings.to_dict()
        self.seats = [Seat() for _ in range(self.settings.player_count)]
        self.version = 0
        self.state: State | None = None
        self.games: list[GameArchive] = []
        self.history: list[Entry] = []
        self.tallies: list[Tally] = []
        self.window_version = 0
        # (token hash of the sender, client id) -> the version the command made: a
        # client's command id is its own, never another seat's (docs/protocol.md).
        self.client_ids: dict[tuple[str | None, str], int] = {}

    @classmethod
    def rebuild(cls, row: TableRow, entries: Iterable[LogEntry]) -> Table:
        """Replay stored entries into a table."""
        table = cls(row)
        for entry in entries:
            table.apply(entry)
        return table

    # --- facts ---------------------------------------------------------------------

    @property
    def game_no(self) -> int:
        """The number of the current (or last) game, 0 before the first."""
        return len(self.games)

    @property
    def status(self) -> TableStatus:
        """Lobby before the first game, playing during one, over after one."""
        if self.state is None:
            return TableStatus.LOBBY
        return TableStatus.OVER if self.state.is_over else TableStatus.PLAYING

    def seat_of(self, token_hash: str | None) -> int | None:
        """Return the seat a human token hash holds now, or None."""
        if token_hash is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.kind == SeatKind.HUMAN and seat.token_hash == token_hash:
                return index
        return None

    def holders(self) -> dict[str | None, int]:
        """Every human seat by the token hash that holds it now."""
        return {
            seat.token_hash: index
            for index, seat in enumerate(self.seats)
            if seat.kind == SeatKind.HUMAN and seat.token_hash is not None
        }

    def claim_of(self, token_hash: str) -> int | None:
        """Return the seat a bot holds for the player of this token hash, or None.

        Such a seat was handed to a bot because its player was away (``replace``),
        not given up (``leave``), and its game is still running or just over.
        """
        if self.state is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.kind == SeatKind.BOT and seat.away_hash == token_hash:
                return index
        return None

    def summary(self) -> dict[str, Any]:
        """Public facts for the lobby list."""
        return {"seats": [seat.public() for seat in self.seats], "game": self.game_no}

    # --- preparing (validate, build the payload; nothing changes) -------------------

    def prepare_sit(self, name: str, seat: int | None, token_hash: str) -> Sit:
        """Take an empty seat (the first one when ``seat`` is None) before a game."""
        clean = clean_name(name)
        self._require_between_games("take a seat")
        chosen = self._empty_seat(seat)
        taken = (other.name for other in self.seats if other.kind != SeatKind.EMPTY)
        if any(_same_name(clean, other) for other in taken):
            raise Refusal("name_taken", f"someone at this table is already called {clean!r}")
        return Sit(chosen, clean, token_hash)

    def prepare_leave(self, seat: int, bot: str) -> Leave:
        """Leave a seat: empty between games, a bot takes it over during one."""
        self._require_seat_kind(seat, SeatKind.HUMAN, "only a seated player can leave")
        return Leave(seat, bot)

    def prepare_add_bot(self, seat: int | None, bot: str, bot_names: Iterable[str]) -> AddBot:
        """Put a bot of strength ``bot`` in an empty seat before a game."""
        if bot not in set(bot_names):
            raise Refusal("bad_request", f"unknown bot {bot!r}")
        self._require_between_games("add a bot")
        return AddBot(self._empty_seat(seat), bot)

    def _empty_seat(self, seat: int | None) -> int:
        if seat is None:
            seat = next((i for i, s in enumerate(self.seats) if s.kind == SeatKind.EMPTY), None)
            if seat is None:
                raise Refusal("table_full", "every seat is taken")
        self._require_seat_kind(seat, SeatKind.EMPTY, "that seat is not empty")
        return seat

    def prepare_remove_bot(self, seat: int) -> RemoveBot:
        """Take a bot out of its seat before a game."""
        self._require_between_games("remove a bot")
        self._require_seat_kind(seat, SeatKind.BOT, "there is no bot in that seat")
        return RemoveBot(seat)

    def prepare_start(self, seed: int, bot: str) -> Start:
        """Start the first game or a rematch; empty seats get ``bot`` bots."""
        if self.status == TableStatus.PLAYING:  # a second Start, or a double click
            raise Refusal("game_started", "the game has already started")
        return Start(self.game_no + 1, seed, bot)

    def prepare_replace(self, seat: int, bot: str) -> Replace:
        """Hand an absent player's seat to a bot during a game (grace period over)."""
        if self.status != TableStatus.PLAYING:
            raise Refusal("bad_request", "seats are only handed to bots during a game")
        self._require_seat_kind(seat, SeatKind.HUMAN, "only a player's seat can go to a bot")
        return Replace(seat, bot)

    def prepare_reclaim(self, seat: int) -> Reclaim:
        """Give a seat back from its stand-in bot to the player who was away."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].away_hash is None:
            raise Refusal("bad_request", "no player can take that seat back")
        self._require_seat_kind(seat, SeatKind.BOT, "that seat is not held by a bot")
        return Reclaim(seat)

    def prepare_act(self, seat: int, action: object) -> Act:
        """Check a game action with the engine; raise Refusal naming the rule (R37)."""
        state = self.state
        if state is None or state.is_over:
            raise Refusal("illegal", "no game is being played at this table", "R32")
        parsed = self._parse(seat, action)
        try:
            check(state, seat, parsed)
        except IllegalActionError as error:
            raise Refusal("illegal", error.reason, error.rule_id, detail=_detail(error)) from None
        return Act(seat, parsed.notation())

    def _parse(self, seat: int, action: object) -> Action:
        if isinstance(action, Action):
            return action
        try:
            if isinstance(action, int) and not isinstance(action, bool):
                space = action_space(self.settings.player_count, self.settings.piles_per_colour)
                return space.action(action, seat)
            if isinstance(action, str):
                return parse_action(action)
        except EngineError as error:
            raise Refusal("illegal", str(error), "R37") from None
        raise Refusal("illegal", "an action is its notation (text) or its id (a number)", "R37")

    def is_expected(self, version: int, payload_type: str, seat: int | None) -> bool:
        """True when a client that saw ``version`` may still act (see docs/protocol.md).

        The version must be the current one, except that a Block-window answer only
        needs to have seen the window open: other seats' answers do not change it.
        """
        if version == self.version:
            return True
        state = self.state
        return (
            payload_type == "act"
            and state is not None
            and state.phase == Phase.BLOCK_WINDOW
            and seat in state.window_pending
            and self.window_version <= version <= self.version
        )

    def standings(self) -> list[dict[str, Any]] | None:
        """A finished game's final ranking (see :func:`standings`); None while no game
        has ended."""
        return None if self.state is None else standings(self.state, self.tallies)

    def stale_reason(self, version: int, seat: int) -> str:  # noqa: PLR0911 - one per reason
        """What changed since ``version``, the last one a seat's client saw, in one word
        for its refusal (docs/protocol.md): ``timed_out`` (the server moved for the seat
        when its time ran out), ``game_over``, ``game_started``, ``window_closed`` (a Block
        window it saw open is over), ``turn_over`` (it was the seat's turn and is not now),
        else ``changed``."""
        newer = [entry for entry in self.history if entry.version > version]
        if not newer or len(newer) < self.version - version:
            return "changed"  # older than the history kept: say nothing precise
        human = self.seats[seat].kind == SeatKind.HUMAN
        if human and any(e.op == Op.ACT and e.auto and e.seat == seat for e in newer):
            return "timed_out"
        if any(e.op == Op.START for e in newer):
            return "game_started"
        state = self.state
        if state is None:
            return "changed"
        if state.is_over:
            return "game_over"
        saw = [entry for entry in self.history if entry.version <= version]
        seen_window = _open_window(saw)
        if seen_window and (
            state.phase != Phase.BLOCK_WINDOW or self.window_version != seen_window
        ):
            return "window_closed"
        was_turn = _turn_of(saw) == seat
        if was_turn and state.current_player() != seat:
            return "turn_over"
        return "changed"

    def _require_between_games(self, what: str) -> None:
        if self.status == TableStatus.PLAYING:
            raise Refusal("game_running", f"cannot {what} while a game is being played")

    def _require_seat_kind(self, seat: int, kind: SeatKind, reason: str) -> None:
        if not 0 <= seat < len(self.seats):
            raise Refusal("bad_request", f"there is no seat {seat} at this table")
        if self.seats[seat].kind != kind:
            raise Refusal("bad_request", reason)

    # --- applying (deterministic; entries were prepared before they were stored) ----

    def apply(self, entry: LogEntry) -> Entry:
        """Apply one stored entry and return what clients should hear of it."""
        return self.apply_payload(entry.version, decode(entry.payload))

    def apply_payload(self, version: int, payload: LogPayload) -> Entry:
        """Apply one typed entry as ``version`` (the next one) and return what clients
        should hear of it."""
        if version != self.version + 1:
            raise ValueError(f"entry {version} does not follow version {self.version}")
        client = getattr(payload, "client", None)
        if client is not None:
            self.client_ids[(self._sender_hash(payload), client)] = version
        applied = self._apply(version, payload)
        self.version = version
        self.history.append(applied)
        if len(self.history) > HISTORY_LIMIT:
            del self.history[: len(self.history) - HISTORY_LIMIT]
        return applied

    def _sender_hash(self, payload: LogPayload) -> str | None:
        """The token hash of the seat that sent a client's command, as it was then.

        ``by`` names the sender's seat where the entry's ``seat`` is another one
        (``add_bot``, ``remove_bot``) or absent (``start``); entries stored before
        ``by`` existed name no sender for those and count as None's.
        """
        match payload:
            case Act(seat=sender) | Leave(seat=sender):
                pass
            case AddBot(by=by) | RemoveBot(by=by) | Start(by=by):
                if by is None:
                    return None
                sender = by
            case _:
                return None
        if not 0 <= sender < len(self.seats):
            return None
        return self.seats[sender].token_hash

    def _apply(self, version: int, payload: LogPayload) -> Entry:
        match payload:
            case Sit(seat=seat, name=name, token_hash=token_hash):
                self.seats[seat] = Seat(SeatKind.HUMAN, name, None, token_hash)
            case Leave(seat=seat, bot=bot):
                if self.status == TableStatus.PLAYING:
                    self._to_bot(seat, bot, keep_claim=False)  # given up
                else:
                    self.seats[seat] = Seat()
            case AddBot(seat=seat, bot=bot):
                self.seats[seat] = _new_bot(bot, seat)
            case RemoveBot(seat=seat):
                self.seats[seat] = Seat()
            case Replace(seat=seat, bot=bot):
                self._to_bot(seat, bot, keep_claim=True)
            case Reclaim(seat=seat):
                self._reclaim(seat)
            case Start():
                return self._start(version, payload)
            case Act():
                return self._act(version, payload)
            case _:
                assert_never(payload)
        return Entry(version, op_of(payload), seat, self.game_no)

    def _to_bot(self, seat: int, bot: str, *, keep_claim: bool) -> None:
        old = self.seats[seat]
        label = {"key": "seat.stand_in", "args": {"name": old.name}}
        self.seats[seat] = Seat(SeatKind.BOT, f"{old.name} (bot)", bot, None, label=label)
        if keep_claim:
            self.seats[seat].away_hash = old.token_hash
            self.seats[seat].away_name = old.name

    def _reclaim(self, seat: int) -> None:
        old = self.seats[seat]
        if old.kind != SeatKind.BOT or old.away_hash is None:
            raise ValueError(f"seat {seat} has no player to give it back to")
        self.seats[seat] = Seat(SeatKind.HUMAN, old.away_name, None, old.away_hash)

    def _start(self, version: int, payload: Start) -> Entry:
        for index, seat in enumerate(self.seats):
            if seat.kind == SeatKind.EMPTY:
                self.seats[index] = _new_bot(payload.bot, index)
            # A player still away when the next game starts has lost the seat's claim.
            seat.away_hash, seat.away_name = None, ""
        events: list[Event] = []
        self.state = new_game(self.settings, payload.seed, events)
        self.tallies = [Tally() for _ in self.seats]
        self.games.append(GameArchive(payload.game, payload.seed, version))
        return Entry(version, Op.START, None, self.game_no, events=tuple(events))

    def _act(self, version: int, payload: Act) -> Entry:
        state = self.state
        if state is None:
            raise ValueError("an action entry with no game")
        action = parse_action(payload.action)
        events: list[Event] = []
        was_window = state.phase == Phase.BLOCK_WINDOW
        apply_in_place(state, payload.seat, action, events)
        if state.phase == Phase.BLOCK_WINDOW and not was_window:
            self.window_version = version
        self.games[-1].actions.append((payload.seat, action))
        for event in events:
            for seat, tally in enumerate(self.tallies):
                tally.count(event, seat)
        auto = payload.client is None
        return Entry(version, Op.ACT, payload.seat, self.game_no, action, tuple(events), auto)


def clean_name(name: str) -> str:
    """A display name as a table keeps it: spaces collapsed, at most 24 characters;
    refused when nothing printable is left."""
    clean = " ".join(name.split())[:NAME_LIMIT]
    if not clean or not clean.isprintable():
        raise Refusal("bad_request", "a display name of 1-24 printable characters is needed")
    return clean


def standings(state: State, tallies: Sequence[Tally]) -> list[dict[str, Any]] | None:
    """A finished game's final ranking, best first: the winner, then more chips, then
    more sequences completed (ties keep seat order); each seat's chips by colour,
    sequences completed, Blocks and steals. None while the game runs."""
    if not state.is_over:
        return None
    winner = state.result.winner if state.result is not None else None
    order = sorted(
        range(len(tallies)),
        key=lambda seat: (seat != winner, -sum(state.chips[seat]), -tallies[seat].completed),
    )
    return [
        {
            "seat": seat,
            "chips": list(state.chips[seat]),
            "completed": tallies[seat].completed,
            "blocks": tallies[seat].blocks,
            "steals": tallies[seat].cards_stolen + tallies[seat].chips_stolen,
            "winner": seat == winner,
        }
        for seat in order
    ]


def _same_name(one: str, other: str) -> bool:
    """Two display names read as one: the same letters in any case and Unicode form."""
    return unicodedata.normalize("NFKC", one).casefold() == (
        unicodedata.normalize("NFKC", other).casefold()
    )


def _turn_of(entries: Sequence[Entry]) -> int | None:
    """The seat whose turn the last TurnStarted in ``entries`` began, else None."""
    for entry in reversed(entries):
        for event in reversed(entry.events):
            if isinstance(event, TurnStarted):
                return int(event.seat)
    return None


def _open_window(entries: Sequence[Entry]) -> int:
    """The version of the entry that opened the Block window still open after
    ``entries``, else 0 (none opened, or it was blocked or completed since)."""
    for entry in reversed(entries):
        for event in reversed(entry.events):
            if isinstance(event, PileBlocked | PileCompleted):
                return 0
            if isinstance(event, BlockWindowOpened):
                return entry.version
    return 0


def _detail(error: IllegalActionError) -> dict[str, Any]:
    """An engine refusal as the message that tells it: key and data arguments."""
    args = {name: list(v) if isinstance(v, tuple) else v for name, v in error.params.items()}
    return {"key": f"illegal.{error.code.value}", "args": args}


def _new_bot(bot: str, seat: int) -> Seat:
    """A bot the table made, named "Greedy bot 2" and labelled for clients to word."""
    label = {"key": "seat.bot", "args": {"bot": bot, "number": seat + 1}}
    return Seat(SeatKind.BOT, _bot_name(bot, seat), bot, None, label=label)


def _bot_name(bot: str, seat: int) -> str:
    return f"{bot.capitalize()} bot {seat + 1}"
