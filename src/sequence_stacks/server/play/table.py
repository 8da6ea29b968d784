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
from collections.abc import Iterable
from typing import Any, Final, assert_never

from sequence_stacks.engine import (
    Action,
    ActionType,
    EngineError,
    Event,
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
from sequence_stacks.server.store import LogEntry, TableRow

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
from .options import TableOptions
from .refusals import Refusal, RefusalCode
from .seating import Seating
from .seats import GameArchive, Seat, Tally, bot_seat, count_event, standings

__all__ = [
    "ANSWERS",
    "CATCH_UP_LIMIT",
    "LOG_LIMIT",
    "Effects",
    "Entry",
    "Table",
]

HISTORY_LIMIT: Final = 5000  # entries kept in memory for catching up
# Versions for which a command's id is remembered (answered as a duplicate if sent
# again): at least this many, at most twice as many, so the memory stays bounded.
IDS_REMEMBERED: Final = HISTORY_LIMIT
CATCH_UP_LIMIT: Final = 1000  # most missed entries a sync sends one by one
LOG_LIMIT: Final = 400  # most entries of the current game a reset sync sends
ANSWERS: Final = (ActionType.PASS, ActionType.BLOCK)


@dataclasses.dataclass(frozen=True, slots=True)
class Effects:
    """What an applied entry changes outside the table: who sits where (connections
    are bound to seats anew), the bots (a new game deals them afresh), the clocks (a
    Block window opened, a person took a seat or took it back from a bot)."""

    seats_changed: bool = False
    new_game: bool = False
    seated: int | None = None  # a person sat down here (away until a connection holds it)
    back: int | None = None  # the player this seat's stand-in bot kept it for is back
    window_opened: bool = False


_SEATS_CHANGED: Final = Effects(seats_changed=True)
_NOTHING: Final = Effects()
_WINDOW_OPENED: Final = Effects(window_opened=True)


@dataclasses.dataclass(frozen=True, slots=True)
class Entry:
    """An applied log entry as clients hear of it (events unredacted: redact per
    viewer), and its :class:`Effects`."""

    version: int
    op: Op
    seat: int | None
    game: int
    action: Action | None = None
    events: tuple[Event, ...] = ()
    auto: bool = False
    effects: Effects = _NOTHING


class Table(Seating):
    """A table's seats and games, rebuilt from and extended by log entries."""

    def __init__(self, row: TableRow) -> None:
        self.table_id = row.table_id
        self.visibility = row.visibility
        self.created_at = row.created_at
        self.settings = Settings.from_dict(row.settings)
        # Frames share this dict (read-only): settings never change.
        self.settings_dict = self.settings.to_dict()
        self.space = action_space(self.settings.player_count, self.settings.piles_per_colour)
        self.options = TableOptions.from_dict(row.options)
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

    def summary(self) -> dict[str, Any]:
        """Public facts for the lobby list."""
        return {"seats": [seat.public() for seat in self.seats], "game": self.game_no}

    # --- preparing (validate, build the payload; nothing changes) -------------------

    def prepare_start(self, seed: int, bot: str) -> Start:
        """Start the first game or a rematch; empty seats get ``bot`` bots."""
        if self.status == TableStatus.PLAYING:  # a second Start, or a double click
            raise Refusal(RefusalCode.GAME_STARTED, "the game has already started")
        return Start(self.game_no + 1, seed, bot)

    def prepare_act(self, seat: int, action: Action | int) -> Act:
        """Check a game action (or an id of the seat's action space) with the engine;
        raise Refusal naming the rule (R37 for an id that is no action)."""
        state = self.state
        if state is None or state.is_over:
            raise Refusal(RefusalCode.ILLEGAL, "no game is being played at this table", "R32")
        if not isinstance(action, Action):
            action = self._action_of(seat, action)
        if action.type == ActionType.BLOCK and self._never_blocks(seat):
            detail = {"key": "table.never_blocks", "args": {}}
            raise Refusal(
                RefusalCode.BAD_REQUEST, "your standing answer is never to block", detail=detail
            )
        try:
            check(state, seat, action)
        except IllegalActionError as error:
            detail = _detail(error)
            raise Refusal(RefusalCode.ILLEGAL, error.reason, error.rule_id, detail=detail) from None
        return Act(seat, action.notation(), parsed=action)

    def _action_of(self, seat: int, action_id: int) -> Action:
        try:
            return self.space.action(action_id, seat)
        except EngineError as error:
            raise Refusal(RefusalCode.ILLEGAL, str(error), "R37") from None

    def standings(self) -> list[dict[str, Any]] | None:
        """A finished game's final ranking (see :func:`standings`); None while no game
        has ended."""
        return None if self.state is None else standings(self.state, self.tallies)

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
            self._remember(client, payload, version)
        applied = self._apply(version, payload)
        self.version = version
        self.history.append(applied)
        if len(self.history) > HISTORY_LIMIT:
            del self.history[: len(self.history) - HISTORY_LIMIT]
        return applied

    def accepted(self, token_hash: str | None, client: str) -> int | None:
        """The version a command with this id from this token produced, if it is still
        remembered (a command sent again is then a duplicate, docs/protocol.md)."""
        return self.client_ids.get((token_hash, client))

    def _remember(self, client: str, payload: LogPayload, version: int) -> None:
        """Note a command's id, forgetting those more than ``IDS_REMEMBERED`` versions
        old once there are twice as many. A command sent again after that long was
        decided on a version long gone, so it is refused as stale (docs/protocol.md),
        never applied twice; the ids of a table played for months do not pile up."""
        ids = self.client_ids
        ids[(self._sender_hash(payload), client)] = version
        if len(ids) > 2 * IDS_REMEMBERED:
            oldest = version - IDS_REMEMBERED
            self.client_ids = {key: seen for key, seen in ids.items() if seen > oldest}

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
        effects = _NOTHING
        match payload:
            case Sit(seat=seat, name=name, token_hash=token_hash, never_block=never_block):
                self.seats[seat] = Seat(
                    SeatKind.HUMAN, name, None, token_hash, never_block=bool(never_block)
                )
                effects = Effects(seats_changed=True, seated=seat)
            case Leave(seat=seat, bot=bot):
                if self.status == TableStatus.PLAYING:
                    self._to_bot(seat, bot, keep_claim=False)  # given up
                else:
                    self.seats[seat] = Seat()
                effects = _SEATS_CHANGED
            case AddBot(seat=seat, bot=bot):
                self.seats[seat] = bot_seat(bot, seat)
            case RemoveBot(seat=seat):
                self.seats[seat] = Seat()
            case Replace(seat=seat, bot=bot):
                self._to_bot(seat, bot, keep_claim=True)
                effects = _SEATS_CHANGED
            case Reclaim(seat=seat):
                self._reclaim(seat)
                effects = Effects(seats_changed=True, back=seat)
            case Start():
                return self._start(version, payload)
            case Act():
                return self._act(version, payload)
            case _:
                assert_never(payload)
        return Entry(version, op_of(payload), seat, self.game_no, effects=effects)

    def _to_bot(self, seat: int, bot: str, *, keep_claim: bool) -> None:
        old = self.seats[seat]
        label = {"key": "seat.stand_in", "args": {"name": old.name}}
        self.seats[seat] = Seat(
            SeatKind.BOT, f"{old.name} (bot)", bot, None, label=label, never_block=old.never_block
        )
        if keep_claim:
            self.seats[seat].away_hash = old.token_hash
            self.seats[seat].away_name = old.name

    def _reclaim(self, seat: int) -> None:
        old = self.seats[seat]
        if old.kind != SeatKind.BOT or old.away_hash is None:
            raise ValueError(f"seat {seat} has no player to give it back to")
        self.seats[seat] = Seat(
            SeatKind.HUMAN, old.away_name, None, old.away_hash, never_block=old.never_block
        )

    def _start(self, version: int, payload: Start) -> Entry:
        for index, seat in enumerate(self.seats):
            if seat.kind == SeatKind.EMPTY:
                self.seats[index] = bot_seat(payload.bot, index)
            # A player still away when the next game starts has lost the seat's claim.
            seat.away_hash, seat.away_name = None, ""
        events: list[Event] = []
        self.state = new_game(self.settings, payload.seed, events)
        self.tallies = [Tally() for _ in self.seats]
        self.games.append(GameArchive(payload.game, payload.seed, version))
        effects = Effects(seats_changed=True, new_game=True)
        return Entry(version, Op.START, None, self.game_no, events=tuple(events), effects=effects)

    def _act(self, version: int, payload: Act) -> Entry:
        state = self.state
        if state is None:
            raise ValueError("an action entry with no game")
        action = payload.parsed or parse_action(payload.action)
        events: list[Event] = []
        was_window = state.phase == Phase.BLOCK_WINDOW
        apply_in_place(state, payload.seat, action, events)
        opened = state.phase == Phase.BLOCK_WINDOW and not was_window
        if opened:
            self.window_version = version
        self.games[-1].actions.append((payload.seat, action))
        for event in events:
            count_event(self.tallies, event)
        auto = payload.client is None
        effects = _WINDOW_OPENED if opened else _NOTHING
        return Entry(
            version, Op.ACT, payload.seat, self.game_no, action, tuple(events), auto, effects
        )


def _detail(error: IllegalActionError) -> dict[str, Any]:
    """An engine refusal as the message that tells it: key and data arguments."""
    args = {name: list(v) if isinstance(v, tuple) else v for name, v in error.params.items()}
    return {"key": f"illegal.{error.code.value}", "args": args}
