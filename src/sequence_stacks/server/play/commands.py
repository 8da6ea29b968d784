"""Client messages, decoded once into typed commands (docs/protocol.md, "Client to server").

:func:`decode` turns one WebSocket text into a :data:`Message`, a tagged union of
frozen msgspec structs keyed by ``"type"``, or raises :class:`~.refusals.Refusal`
with the code the protocol promises: ``bad_json`` (not JSON, ``NaN``, a number out of
range), ``unknown_type`` (no ``type`` or one not listed), ``bad_request`` (a field
missing or of the wrong type: the reason names it) and ``illegal`` R37 (an action whose
notation does not parse). An action given in notation is an
:class:`~sequence_stacks.engine.Action` from here on; one given by its id stays an
``int`` until the table maps it through the seat's action space.
"""

from __future__ import annotations

import enum
from typing import Annotated, Final, TypeAlias

import msgspec

from sequence_stacks.engine import Action, EngineError, parse_action

from .refusals import Refusal, RefusalCode

__all__ = [
    "CHAT_PHRASES",
    "Act",
    "AddBot",
    "Chat",
    "ChatPhrase",
    "Command",
    "Hello",
    "Hint",
    "Leave",
    "Message",
    "Ping",
    "RemoveBot",
    "Start",
    "Sync",
    "client_id_of",
    "decode",
    "decode_body",
]

CLIENT_ID_LIMIT: Final = 64
ClientId = Annotated[str, msgspec.Meta(min_length=1, max_length=CLIENT_ID_LIMIT)]
ShortText = Annotated[str, msgspec.Meta(max_length=CLIENT_ID_LIMIT)]


class ChatPhrase(enum.StrEnum):
    """Quick chat (#15): a fixed set of phrases and emotes, each worded by every
    reader's client in their own language (messages ``chat.<phrase>``); no free text,
    so nothing to moderate at a game for ages 7 and up."""

    HELLO = "hello"
    GOOD_LUCK = "good_luck"
    NICE = "nice"
    WELL_PLAYED = "well_played"
    OOPS = "oops"
    THINKING = "thinking"
    THANKS = "thanks"
    GOOD_GAME = "good_game"
    HAPPY = "happy"
    SURPRISED = "surprised"
    SAD = "sad"


CHAT_PHRASES: Final = tuple(phrase.value for phrase in ChatPhrase)


class _Message(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=False):
    """A client message; its ``type`` on the wire is the struct's tag."""


class Hello(_Message, frozen=True, tag="hello"):
    """Identify (a seat token, or none to watch) and ask for a sync; ``notation``
    asks for the seat's actions in notation too (for scripts: the browser reads the
    action table of fields)."""

    token: str | None = None
    last_version: int | None = None
    notation: bool = False


class Sync(_Message, frozen=True, tag="sync"):
    """Ask again for what was missed since ``last_version``."""

    last_version: int | None = None


class Ping(_Message, frozen=True, tag="ping"):
    """The heartbeat; ``t`` comes back in the pong."""

    t: int | float | ShortText | None = None


class Chat(_Message, frozen=True, tag="chat"):
    """Say a quick-chat phrase to everyone at the table."""

    phrase: ChatPhrase


class Hint(_Message, frozen=True, tag="hint"):
    """Ask what the hint bot would do in the sender's place."""


class _Command(_Message, frozen=True):
    """A message that changes a table: the sender's id for it and the version it saw."""

    id: ClientId
    version: int


class Act(_Command, frozen=True, tag="act"):
    """A game action of the sender's seat: an :class:`Action`, or an id of the seat's
    action space (``action_id`` on the wire)."""

    action: Action | int


class AddBot(_Command, frozen=True, tag="add_bot"):
    """Put a bot (of strength ``bot``, else the server's default) in an empty seat."""

    seat: int | None = None
    bot: str | None = None


class RemoveBot(_Command, frozen=True, tag="remove_bot"):
    """Empty a bot's seat between games."""

    seat: int


class Start(_Command, frozen=True, tag="start"):
    """Start the first game, or a rematch."""


class Leave(_Command, frozen=True, tag="leave"):
    """Give the sender's seat up."""


Command: TypeAlias = Act | AddBot | RemoveBot | Start | Leave
Message: TypeAlias = Hello | Sync | Ping | Chat | Hint | Command


class _ActOnWire(_Command, frozen=True, tag="act"):
    """``act`` as it arrives: the action in notation or as an id."""

    action: str | None = None
    action_id: int | None = None


_DECODER: Final = msgspec.json.Decoder(
    Hello | Sync | Ping | Chat | Hint | _ActOnWire | AddBot | RemoveBot | Start | Leave
)


def decode(text: str | bytes) -> Message:
    """One client message as a typed command; raise Refusal if it is not one."""
    try:
        message: Message | _ActOnWire = _DECODER.decode(text)
    except msgspec.ValidationError as error:
        raise _refusal(str(error), text, command=True) from None
    except msgspec.DecodeError:
        raise Refusal(RefusalCode.BAD_JSON, "the message is not valid JSON") from None
    if isinstance(message, _ActOnWire):
        return _act(message)
    return message


def client_id_of(text: str | bytes) -> str | None:
    """The ``id`` a message that could not be decoded carries, if it has one (so its
    refusal can name the command it answers); None for anything else."""
    try:
        data = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, str) and 0 < len(found) <= CLIENT_ID_LIMIT else None


def decode_body(data: bytes, kind: type[msgspec.Struct]) -> msgspec.Struct:
    """An HTTP request's JSON body as ``kind``; raise Refusal as :func:`decode` does."""
    try:
        return msgspec.json.decode(data or b"{}", type=kind)
    except msgspec.ValidationError as error:
        raise _refusal(str(error), data) from None
    except msgspec.DecodeError:
        raise Refusal(RefusalCode.BAD_JSON, "the request body is not valid JSON") from None


def _refusal(problem: str, text: str | bytes, *, command: bool = False) -> Refusal:
    """The refusal for what msgspec found wrong (its words name the field). The
    typed decoder stops at the first value of a wrong type, so a message that is not
    an object at all is read once more to tell malformed JSON from a JSON non-object.
    In a ``command``, an action that is neither notation nor an id is illegal (R37)."""
    if "out of range" in problem:
        return Refusal(RefusalCode.BAD_JSON, "a number in the message is out of range")
    if "$." not in problem and not _is_json(text):
        return Refusal(RefusalCode.BAD_JSON, "the message is not valid JSON")
    if problem.endswith("`$.type`") or "required field `type`" in problem:
        return Refusal(RefusalCode.UNKNOWN_TYPE, f"unknown message type: {problem}"[:160])
    if command and problem.endswith(("`$.action`", "`$.action_id`")):
        return Refusal(
            RefusalCode.ILLEGAL,
            f"an action is its notation (text) or its id (a number): {problem}"[:160],
            "R37",
        )
    if problem.startswith("Expected `object`") and "$." not in problem:
        return Refusal(RefusalCode.BAD_REQUEST, "a message is a JSON object with a 'type'")
    return Refusal(RefusalCode.BAD_REQUEST, problem[:160])


def _is_json(text: str | bytes) -> bool:
    try:
        msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return False
    return True


def _act(wire: _ActOnWire) -> Act:
    if (wire.action is None) == (wire.action_id is None):
        raise Refusal(
            RefusalCode.ILLEGAL,
            "an action is its notation ('action', text) or its id ('action_id', a number)",
            "R37",
        )
    if wire.action_id is not None:
        return Act(id=wire.id, version=wire.version, action=wire.action_id)
    try:
        action = parse_action(str(wire.action))
    except EngineError as error:
        raise Refusal(RefusalCode.ILLEGAL, str(error), "R37") from None
    return Act(id=wire.id, version=wire.version, action=action)
