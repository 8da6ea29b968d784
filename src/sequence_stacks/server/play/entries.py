"""A table's log entries as typed, frozen values, and the one codec to and from JSON.

Every change of a table is one entry (docs/server.md). The table prepares an entry
(validated, nothing changed), the service commits it, then the table applies it; the
database keeps it as JSON. :func:`encode` writes exactly the JSON the server has always
stored (same keys, same order), and :func:`decode` reads every entry ever stored, so an
old database loads unchanged (tests/server/fixtures/schema-1.sqlite3).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from sequence_stacks.engine import Action

__all__ = [
    "Act",
    "AddBot",
    "Leave",
    "LogPayload",
    "Op",
    "PayloadError",
    "Reclaim",
    "RemoveBot",
    "Replace",
    "SeatKind",
    "Sit",
    "Start",
    "TableStatus",
    "decode",
    "encode",
    "op_of",
]


class Op(enum.StrEnum):
    """The kind of a log entry, as stored under ``"op"`` and sent to clients."""

    SIT = "sit"
    LEAVE = "leave"
    ADD_BOT = "add_bot"
    REMOVE_BOT = "remove_bot"
    START = "start"
    REPLACE = "replace"
    RECLAIM = "reclaim"
    ACT = "act"


class SeatKind(enum.StrEnum):
    """Who sits in a seat."""

    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


class TableStatus(enum.StrEnum):
    """Where a table is: before its first game, during a game, after one."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


class PayloadError(ValueError):
    """A stored entry that is not one of the kinds below (a corrupt or foreign log)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Sit:
    """A person took an empty seat between games (HTTP: it issues a secret token);
    ``never_block`` (True, or None) is their standing answer at a turn-based table,
    set before any deal: they are never asked in a Block window (#26, N25)."""

    seat: int
    name: str
    token_hash: str
    never_block: bool | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Leave:
    """The seat's player gave it up: emptied between games, a bot's during one."""

    seat: int
    bot: str
    client: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class AddBot:
    """A bot of strength ``bot`` took an empty seat between games; ``by`` asked."""

    seat: int
    bot: str
    client: str | None = None
    by: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class RemoveBot:
    """A bot left its seat between games; ``by`` asked."""

    seat: int
    client: str | None = None
    by: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Start:
    """Game ``game`` began with its secret ``seed``; empty seats got ``bot`` bots."""

    game: int
    seed: int
    bot: str
    client: str | None = None
    by: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Replace:
    """An absent player's seat went to a bot for the rest of the game (grace period)."""

    seat: int
    bot: str


@dataclasses.dataclass(frozen=True, slots=True)
class Reclaim:
    """The player a bot stood in for came back and took the seat again."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class Act:
    """A game action of ``seat`` in notation; ``client`` is None when the server took it
    (a bot, or a time-out). ``parsed`` is the same action already read (when the table
    prepared it): never stored, never compared."""

    seat: int
    action: str
    client: str | None = None
    parsed: Action | None = dataclasses.field(default=None, compare=False, repr=False)


LogPayload = Sit | Leave | AddBot | RemoveBot | Start | Replace | Reclaim | Act

# Each op's fields in stored order, after "op": (name, reader, kept when None).
_Reader = Callable[[object, str], Any]


def _int(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PayloadError(f"{name} is {value!r}, not a whole number")
    return value


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise PayloadError(f"{name} is {value!r}, not text")
    return value


def _maybe_text(value: object, name: str) -> str | None:
    return None if value is None else _text(value, name)


def _maybe_int(value: object, name: str) -> int | None:
    return None if value is None else _int(value, name)


def _maybe_true(value: object, name: str) -> bool | None:
    if value is None:
        return None
    if value is not True:
        raise PayloadError(f"{name} is {value!r}, not true")
    return True


_SCHEMAS: Final[dict[Op, tuple[type[LogPayload], tuple[tuple[str, _Reader, bool], ...]]]] = {
    Op.SIT: (
        Sit,
        (
            ("seat", _int, True),
            ("name", _text, True),
            ("token_hash", _text, True),
            ("never_block", _maybe_true, False),
        ),
    ),
    Op.LEAVE: (Leave, (("seat", _int, True), ("bot", _text, True), ("client", _maybe_text, False))),
    Op.ADD_BOT: (
        AddBot,
        (
            ("seat", _int, True),
            ("bot", _text, True),
            ("client", _maybe_text, False),
            ("by", _maybe_int, False),
        ),
    ),
    Op.REMOVE_BOT: (
        RemoveBot,
        (("seat", _int, True), ("client", _maybe_text, False), ("by", _maybe_int, False)),
    ),
    Op.START: (
        Start,
        (
            ("game", _int, True),
            ("seed", _int, True),
            ("bot", _text, True),
            ("client", _maybe_text, False),
            ("by", _maybe_int, False),
        ),
    ),
    Op.REPLACE: (Replace, (("seat", _int, True), ("bot", _text, True))),
    Op.RECLAIM: (Reclaim, (("seat", _int, True),)),
    Op.ACT: (Act, (("seat", _int, True), ("action", _text, True), ("client", _maybe_text, True))),
}
_OPTIONAL: Final = (_maybe_text, _maybe_int, _maybe_true)
_OPS: Final = {schema[0]: op for op, schema in _SCHEMAS.items()}


def op_of(payload: LogPayload) -> Op:
    """The op of a typed entry."""
    return _OPS[type(payload)]


def encode(payload: LogPayload) -> dict[str, Any]:
    """The stored JSON object of an entry: ``op`` first, then its fields in order;
    an optional field that is None is left out (``act`` always keeps ``client``)."""
    op = op_of(payload)
    data: dict[str, Any] = {"op": op.value}
    for name, _, keep_none in _SCHEMAS[op][1]:
        value = getattr(payload, name)
        if value is not None or keep_none:
            data[name] = value
    return data


def decode(data: Mapping[str, Any]) -> LogPayload:
    """Read a stored JSON object back; raise PayloadError if it is not an entry."""
    op_text = data.get("op")
    try:
        op = Op(str(op_text))
    except ValueError:
        raise PayloadError(f"unknown log entry op {op_text!r}") from None
    cls, fields = _SCHEMAS[op]
    values: dict[str, Any] = {}
    for name, read, required in fields:
        if name not in data and required and read not in _OPTIONAL:
            raise PayloadError(f"a {op.value} entry has no {name!r}")
        values[name] = read(data.get(name), f"{op.value}.{name}")
    return cls(**values)
