"""A table's own options, beside the engine's settings: its pace (how long a turn and
a Block window last), whether it is turn-based (a turn time of hours or days, #26) and
its friendly name (an animal, unique among the listed tables).

Stored with the table (``TableRow.options``) as :meth:`TableOptions.to_dict`; a table
stored before it had options reads as the defaults with no name (its pages then name it
by its id, as before).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, Final

from sequence_stacks.server.config import ServerSettings

__all__ = [
    "ANIMALS",
    "DEFAULT_PACE",
    "TURN_HOURS",
    "WINDOW_SHARE",
    "Pace",
    "TableName",
    "TableOptions",
    "free_name",
]


class Pace(enum.StrEnum):
    """How fast a table plays (#24): chosen when it is made, shown at the table."""

    RELAXED = "relaxed"
    NORMAL = "normal"
    FAST = "fast"

    def turn_seconds(self, settings: ServerSettings) -> float:
        """How long a person's whole turn may last at this pace."""
        return settings.turn_timeout * _TURN_FACTOR[self]

    def window_seconds(self, settings: ServerSettings) -> float:
        """How long every Block window lasts at this pace (the same for every asked
        player, whatever they hold: docs/rules-notes.md, Block windows at a table)."""
        return settings.block_timeout * _WINDOW_FACTOR[self]


# The server's turn_timeout and block_timeout are the normal pace (90 s and 5 s by
# default); relaxed gives a child or a grandparent twice the turn and 8 s to block.
_TURN_FACTOR: Final = {Pace.RELAXED: 2.0, Pace.NORMAL: 1.0, Pace.FAST: 0.5}
_WINDOW_FACTOR: Final = {Pace.RELAXED: 1.6, Pace.NORMAL: 1.0, Pace.FAST: 0.6}
DEFAULT_PACE: Final = Pace.RELAXED  # a new table's, fit for a 7-year-old

# A turn-based table's turn time (#26): players may close the page and come back.
TURN_HOURS: Final = (1, 12, 24, 72)
# An "ask me" Block window at a turn-based table lasts this share of the turn time, for
# every asked player whatever they hold (docs/rules-notes.md N25).
WINDOW_SHARE: Final = 1 / 8

# The animals a table is named after (messages ``animal.<key>``, ``table.named``).
ANIMALS: Final = (
    "otter",
    "fox",
    "owl",
    "panda",
    "tiger",
    "koala",
    "dolphin",
    "penguin",
    "rabbit",
    "turtle",
    "hedgehog",
    "squirrel",
    "zebra",
    "giraffe",
    "elephant",
    "whale",
)


@dataclasses.dataclass(frozen=True, slots=True)
class TableName:
    """A table's friendly name: "Owl table", or "Owl table 2" when every animal was
    taken among the listed tables (``number`` > 1)."""

    animal: str
    number: int = 1

    def __post_init__(self) -> None:
        if self.animal not in ANIMALS:
            raise ValueError(f"no animal {self.animal!r}")
        if self.number < 1:
            raise ValueError("a table name's number is at least 1")


@dataclasses.dataclass(frozen=True, slots=True)
class TableOptions:
    """What a table is made with beside the game's settings."""

    pace: Pace = Pace.NORMAL  # a table stored before tables had a pace played at this one
    name: TableName | None = None
    turn_hours: int | None = None  # a turn-based table's turn time; None: played live

    def __post_init__(self) -> None:
        if self.turn_hours is not None and self.turn_hours not in TURN_HOURS:
            hours = ", ".join(str(h) for h in TURN_HOURS)
            raise ValueError(f"a turn-based table's turn lasts one of {hours} hours")

    @property
    def turn_based(self) -> bool:
        """True for a table whose players may close the page between turns."""
        return self.turn_hours is not None

    def turn_seconds(self, settings: ServerSettings) -> float:
        """How long a person's whole turn may last at this table."""
        if self.turn_hours is not None:
            return self.turn_hours * 3600.0
        return self.pace.turn_seconds(settings)

    def window_seconds(self, settings: ServerSettings, *, asks_people: bool) -> float:
        """How long a Block window lasts: at a turn-based table that asks a person (one
        whose standing answer is "ask me"), a share of the turn time; else the pace's."""
        if self.turn_hours is not None and asks_people:
            return self.turn_hours * 3600.0 * WINDOW_SHARE
        return self.pace.window_seconds(settings)

    def to_dict(self) -> dict[str, Any]:
        """The options as stored and as the lobby frames carry them."""
        data: dict[str, Any] = {"pace": self.pace.value}
        if self.name is not None:
            data["name"] = {"animal": self.name.animal, "number": self.name.number}
        if self.turn_hours is not None:
            data["turn_hours"] = self.turn_hours
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableOptions:
        """Read stored options (missing ones are the defaults); raise ValueError."""
        unknown = set(data) - {"pace", "name", "turn_hours"}
        if unknown:
            raise ValueError(f"unknown table option {sorted(unknown)[0]!r}")
        pace = Pace(data.get("pace", Pace.NORMAL.value))
        hours = data.get("turn_hours")
        if hours is not None and (not isinstance(hours, int) or isinstance(hours, bool)):
            raise ValueError("a turn time is a whole number of hours")
        name = data.get("name")
        if name is None:
            return cls(pace=pace, turn_hours=hours)
        if not isinstance(name, Mapping):
            raise ValueError("a table's name is {'animal': ..., 'number': ...}")
        number = name.get("number", 1)
        if not isinstance(number, int) or isinstance(number, bool):
            raise ValueError("a table name's number is a whole number")
        return cls(pace=pace, name=TableName(str(name.get("animal")), number), turn_hours=hours)


def free_name(taken: set[TableName], pick: int) -> TableName:
    """A name no listed table has: the animal at ``pick`` (a random index) or the next
    free one after it, else the lowest free number of that animal."""
    count = len(ANIMALS)
    for step in range(count):
        name = TableName(ANIMALS[(pick + step) % count])
        if name not in taken:
            return name
    animal = ANIMALS[pick % count]
    number = 2
    while TableName(animal, number) in taken:
        number += 1
    return TableName(animal, number)
