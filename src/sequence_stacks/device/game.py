"""One game on one device (#25): people passing it round, bots, the engine in the page.

A :class:`DeviceGame` holds the engine's state, who plays each seat (a person's name,
or a bot) and the bots themselves. Everything it answers is JSON-ready and shaped as the
web server's frames are (docs/protocol.md): a view is ``observe(state, viewer).to_dict()``,
an entry carries its events as fields with their log line as data, an action table is
``seat_action_fields``, so the browser's one board draws it as it draws a table.

A game is saved as its record (settings, seed, actions: R41) with the players; loading
replays it with the engine and checks the position's digest, so a save that was changed
by hand or damaged is refused with :class:`SaveError`, never half loaded.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sequence_stacks.bots import BOT_NAMES, Bot, HeuristicBot, make_bot
from sequence_stacks.engine import (
    Action,
    ActionType,
    EngineError,
    Event,
    GameRecord,
    Settings,
    State,
    action_space,
    apply_in_place,
    event_for,
    new_game,
    observe,
    position_digest,
)
from sequence_stacks.engine.catalog import event_fields, pile_slots, seat_action_fields
from sequence_stacks.engine.events import CardStolen, ChipStolen, PileBlocked, PileCompleted
from sequence_stacks.i18n.events import event_message

__all__ = [
    "NAME_LIMIT",
    "SAVE_FORMAT",
    "DeviceGame",
    "Player",
    "SaveError",
    "bot_seed",
]

SAVE_FORMAT: Final = "sequence-stacks/device-save"
SAVE_VERSION: Final = 1
NAME_LIMIT: Final = 24
_ANSWERS: Final = (ActionType.PASS, ActionType.BLOCK)


class SaveError(ValueError):
    """A saved game (or a new game's players) that cannot be played: what is wrong."""


@dataclasses.dataclass(frozen=True, slots=True)
class Player:
    """Who plays a seat: a person (``bot`` None) or a bot of that strength, by name."""

    name: str
    bot: str | None = None

    @classmethod
    def from_dict(cls, data: object) -> Player:
        """A player from ``{"name": ..., "bot": ...}``; raises SaveError."""
        if not isinstance(data, Mapping) or set(data) - {"name", "bot"}:
            raise SaveError("a player is {name, bot}")
        name, bot = data.get("name"), data.get("bot")
        if not isinstance(name, str):
            raise SaveError("a player's name is text")
        clean = " ".join(name.split())[:NAME_LIMIT]
        if not clean or not clean.isprintable():
            raise SaveError("a player's name has 1-24 printable characters")
        if bot is not None and bot not in BOT_NAMES:
            raise SaveError(f"unknown bot {bot!r}; known bots: {', '.join(BOT_NAMES)}")
        return cls(clean, bot)

    def to_dict(self) -> dict[str, Any]:
        """The player as JSON-ready data."""
        return {"name": self.name, "bot": self.bot}


def bot_seed(seed: int | str, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game seeded ``seed``: the same on every
    machine, so a game of bots plays the same in the page and on the server."""
    digest = hashlib.sha256(f"{seed}/bot/{seat}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


@dataclasses.dataclass(slots=True)
class _Tally:
    """What one seat did (public facts), for a finished game's standings."""

    completed: int = 0
    blocks: int = 0
    steals: int = 0


class DeviceGame:
    """A game played on one device: its state, players and bots; JSON-ready answers."""

    def __init__(self, settings: Settings, seed: int | str, players: Sequence[Player]) -> None:
        if len(players) != settings.player_count:
            raise SaveError(f"{settings.player_count} players are needed, not {len(players)}")
        self.players = tuple(players)
        self.record = GameRecord(settings=settings, seed=seed)
        self.actions: list[tuple[int, Action]] = []
        self.version = 0
        start: list[Event] = []
        self.state: State = new_game(settings, seed, start)
        self.start_events = tuple(start)
        self.tallies = [_Tally() for _ in players]
        self.bots: dict[int, Bot] = {
            seat: make_bot(player.bot, seed=bot_seed(seed, seat))
            for seat, player in enumerate(players)
            if player.bot is not None
        }
        self.space = action_space(settings.player_count, settings.piles_per_colour)

    # --- what the page draws ------------------------------------------------------------

    def view(self, viewer: int | None) -> dict[str, Any]:
        """The view of ``viewer`` (None: what everyone at the table may see)."""
        return observe(self.state, viewer).to_dict()

    def action_table(self, seat: int) -> list[dict[str, Any]]:
        """Every action id of ``seat`` as fields (what the board draws legal moves from)."""
        settings = self.state.settings
        return seat_action_fields(settings.player_count, settings.piles_per_colour, seat)

    def table(self) -> dict[str, Any]:
        """The game's fixed facts: settings, players, the piles' slots, each seat's
        action table."""
        settings = self.state.settings
        return {
            "settings": settings.to_dict(),
            "players": [player.to_dict() for player in self.players],
            "slots": pile_slots(settings.piles_per_colour),
            "action_tables": [self.action_table(seat) for seat in range(settings.player_count)],
        }

    def start_entry(self, viewer: int | None) -> dict[str, Any]:
        """The deal as an entry (its events as ``viewer`` may see them)."""
        return self._entry(None, None, self.start_events, viewer)

    # --- playing ------------------------------------------------------------------------

    def act(self, seat: int, action_id: int, viewer: int | None) -> dict[str, Any]:
        """``seat`` takes action ``action_id``; the entry as ``viewer`` hears of it.

        Raises IllegalActionError (R37: nothing changed) or NotationError for an id
        outside the action space.
        """
        if not 0 <= seat < self.state.player_count:
            raise ValueError(f"there is no seat {seat}")
        return self._apply(seat, self.space.action(action_id, seat), viewer)

    def bot_move(self, seat: int, viewer: int | None) -> dict[str, Any]:
        """The bot of ``seat`` chooses from its own view (R36) and acts; the entry as
        ``viewer`` hears of it."""
        bot = self.bots.get(seat)
        if bot is None:
            raise ValueError(f"seat {seat} is not a bot")
        action = bot.choose(observe(self.state, seat))
        return self._apply(seat, action, viewer)

    def hint(self, seat: int) -> int:
        """The action id the heuristic bot would take in ``seat``'s place, from that
        seat's view (as the server's hints, #15)."""
        view = observe(self.state, seat)
        action = HeuristicBot(seed=bot_seed(self.record.seed, seat) + self.version).choose(view)
        return self.space.id_of(action, seat)

    def _apply(self, seat: int, action: Action, viewer: int | None) -> dict[str, Any]:
        events: list[Event] = []
        apply_in_place(self.state, seat, action, events)
        self.actions.append((seat, action))
        self.version += 1
        self._count(events)
        return self._entry(seat, action, events, viewer)

    def _count(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, PileCompleted):
                self.tallies[event.seat].completed += 1
            elif isinstance(event, PileBlocked):
                self.tallies[event.blocker].blocks += 1
            elif isinstance(event, CardStolen | ChipStolen):
                self.tallies[event.seat].steals += 1

    def _entry(
        self, seat: int | None, action: Action | None, events: Sequence[Event], viewer: int | None
    ) -> dict[str, Any]:
        """An entry as the server's (``entry_dict``): a Block answer of another seat is
        only "answer" (R29), the events redacted for ``viewer`` (R36)."""
        per_colour = self.state.settings.piles_per_colour
        hidden = action is not None and action.type in _ANSWERS and seat != viewer
        return {
            "version": self.version,
            "op": "act" if action is not None else "start",
            "seat": seat,
            "action": None if action is None else "answer" if hidden else action.notation(),
            "auto": False,
            "timed_out": False,
            "message": None,
            "events": [_event_dict(event_for(event, viewer), per_colour) for event in events],
        }

    # --- the end --------------------------------------------------------------------------

    def standings(self) -> list[dict[str, Any]] | None:
        """A finished game's ranking, best first, as the server's: the winner, then more
        chips, then more sequences completed; None while the game runs."""
        state = self.state
        if state.result is None:
            return None
        winner = state.result.winner
        order = sorted(
            range(state.player_count),
            key=lambda seat: (
                seat != winner,
                -sum(state.chips[seat]),
                -self.tallies[seat].completed,
            ),
        )
        return [
            {
                "seat": seat,
                "chips": list(state.chips[seat]),
                "completed": self.tallies[seat].completed,
                "blocks": self.tallies[seat].blocks,
                "steals": self.tallies[seat].steals,
                "winner": seat == winner,
            }
            for seat in order
        ]

    # --- saving and loading -------------------------------------------------------------

    def game_record(self) -> dict[str, Any]:
        """The game record (docs/records.md) that ``sequence-stacks replay`` replays:
        the actions so far, the result once over, the position's digest."""
        state = self.state
        record = dataclasses.replace(
            self.record,
            actions=tuple(self.actions),
            result=state.result,
            digest=position_digest(state),
            meta={
                "players": [player.name for player in self.players],
                "bots": [player.bot for player in self.players],
                "played": "one device (pass-and-play)",
            },
        )
        return record.to_dict()

    def save(self) -> dict[str, Any]:
        """The game as the page keeps it (IndexedDB): the players and the record, and a
        checksum of both."""
        body = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "players": [player.to_dict() for player in self.players],
            "record": self.game_record(),
        }
        return {**body, "check": _checksum(body)}

    @classmethod
    def load(cls, data: object) -> DeviceGame:
        """The game a save holds, replayed by the engine; raises SaveError saying what is
        wrong (not a save, a changed checksum, an illegal action, another position)."""
        if not isinstance(data, Mapping):
            raise SaveError("a saved game is a JSON object")
        if data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
            raise SaveError(f"not a saved game of this version ({SAVE_FORMAT} {SAVE_VERSION})")
        body = {key: data.get(key) for key in ("format", "version", "players", "record")}
        if set(data) != {*body, "check"} or data.get("check") != _checksum(body):
            raise SaveError("the saved game was changed after it was saved")
        players = body["players"]
        if not isinstance(players, list):
            raise SaveError("'players' is a list")
        try:
            record = GameRecord.from_dict(body["record"])
        except EngineError as error:
            raise SaveError(f"the game record: {error}") from None
        game = cls(record.settings, record.seed, [Player.from_dict(p) for p in players])
        for index, (seat, action) in enumerate(record.actions):
            try:
                game._apply(seat, action, None)
            except EngineError as error:
                raise SaveError(f"action {index} is not legal: {error}") from None
        if record.digest is None or position_digest(game.state) != record.digest:
            raise SaveError("replaying the saved game does not give the saved position")
        return game


def _checksum(body: Mapping[str, Any]) -> str:
    """The SHA-256 of the canonical JSON of a save's body, as it reads back after a trip
    through the page (JavaScript writes the number 1.0 as 1)."""
    text = json.dumps(
        _as_read_back(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _as_read_back(value: Any) -> Any:
    """``value`` with every whole float made an int, as JavaScript's numbers read back."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {key: _as_read_back(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_as_read_back(item) for item in value]
    return value


def _event_dict(event: Event, piles_per_colour: int) -> dict[str, Any]:
    """An event as the server sends it (``viewdata.event_dict``): its fields, its pile
    as a slot, and its log line as data."""
    data = event_fields(event, piles_per_colour)
    found = event_message(event)
    data["message"] = None if found is None else {"key": found[0], "args": found[1]}
    return data
