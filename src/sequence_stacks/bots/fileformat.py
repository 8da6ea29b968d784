"""What the bots' JSON files begin with: a format name and a version.

Shared by the review (:mod:`.review_format`, docs/records.md) and the win-chance model
(:mod:`.winchance`), whose ``from_dict`` check their data's header here first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["check_format"]


def check_format(data: Any, *, noun: str, format_: str, version: int) -> None:
    """Raise ValueError unless ``data`` is a mapping naming ``format_`` and ``version``;
    ``noun`` names the data in the message (``"review"``)."""
    if not isinstance(data, Mapping) or data.get("format") != format_:
        raise ValueError(f"not a {noun}: 'format' must be {format_!r}")
    if data.get("version") != version:
        raise ValueError(f"unsupported {noun} version {data.get('version')!r}")
