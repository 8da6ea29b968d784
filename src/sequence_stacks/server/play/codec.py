"""The JSON codec of frames and stored payloads: msgspec's encoder (compact, several
times faster than the standard library's for the server's frames, docs/deploy.md).

Frames are plain data (dicts, lists, text, whole numbers, booleans, enums as their
values). The only number a client can put in a frame is a ping's ``t``, echoed in the
pong, and :func:`~.commands.decode` refuses every number JSON cannot carry (``NaN``,
``Infinity``, ``1e400``), so no frame holds one.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

__all__ = ["dumps", "dumps_bytes", "loads"]

_ENCODER: Final = msgspec.json.Encoder()
_DECODER: Final = msgspec.json.Decoder()


def dumps_bytes(data: object) -> bytes:
    """Encode compactly, as UTF-8 bytes."""
    return _ENCODER.encode(data)


def dumps(data: object) -> str:
    """Encode compactly, as text."""
    return _ENCODER.encode(data).decode()


def loads(data: str | bytes) -> Any:
    """Decode JSON (raise ``msgspec.DecodeError`` if it is not)."""
    return _DECODER.decode(data)
