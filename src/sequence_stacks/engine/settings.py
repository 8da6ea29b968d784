"""One frozen, validated settings object holding every variant option (R40)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, Final

from .errors import SettingsError, shown

__all__ = ["OPTION_RULES", "OptionsConflictError", "Settings"]

# Each option, the rule it switches, and a one-line help for CLIs and docs.
OPTION_RULES: Final[dict[str, tuple[str, str]]] = {
    "player_count": ("R5", "number of players, 2-6"),
    "piles_per_colour": ("R9", "sequence piles allowed at once per colour"),
    "refill_at_turn_start": ("R13", "draw up to the hand size at the start of each turn"),
    "chip_supply": ("R3/R17", "chips of each colour in the supply, or 'unlimited'"),
    "steal_chip_can_win": ("R28", "may Steal-a-Chip take the winning chip"),
    "two_player_reverses": ("R2/R30", "keep the three Reverse cards with two players"),
    "max_turns": ("R33", "the game ends with no winner after this many turns"),
    "max_turn_actions": ("R33/N17", "no winner if one turn reaches this many plays"),
    "hand_size": ("R6/R13/R18", "cards dealt, refilled to, and drawn on an empty hand"),
    "chips_to_win": ("R31", "chips needed to win"),
    "min_each_colour": ("R31", "of which at least this many of each colour"),
    "first_seat": ("R7", "the seat that plays first"),
}


class OptionsConflictError(SettingsError):
    """Options each in range that together make a game nobody could win (R31, R3).

    ``code`` names the conflict (``min_each_colour``: twice the least of each colour is
    more than the chips to win; ``chip_supply``: the supply cannot make a winning set)
    and ``options`` the options involved, the one to change first; clients word it with
    their own labels of those options, never the options' internal names.
    """

    def __init__(self, message: str, *, code: str, options: tuple[str, ...]) -> None:
        super().__init__(message)
        self.code = code
        self.options = options


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """The variant options of RULES.md, checked on construction.

    ``chip_supply`` is the number of chips of each colour, or ``None`` for unlimited.
    """

    player_count: int = 4
    piles_per_colour: int = 2
    refill_at_turn_start: bool = True
    chip_supply: int | None = 20
    steal_chip_can_win: bool = False
    two_player_reverses: bool = False
    max_turns: int = 2000
    max_turn_actions: int = 500
    hand_size: int = 5
    chips_to_win: int = 5
    min_each_colour: int = 2
    first_seat: int = 0

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            _check_type(field.name, getattr(self, field.name))
        _check_range("player_count", self.player_count, 2, 6, "R5")
        _check_range("piles_per_colour", self.piles_per_colour, 1, 4, "R9")
        _check_range("hand_size", self.hand_size, 1, 10, "R6")
        _check_range("max_turns", self.max_turns, 1, 1_000_000, "R33")
        _check_range("max_turn_actions", self.max_turn_actions, 10, 1_000_000, "R33")
        _check_range("chips_to_win", self.chips_to_win, 1, 40, "R31")
        _check_range("min_each_colour", self.min_each_colour, 0, 20, "R31")
        _check_range("first_seat", self.first_seat, 0, self.player_count - 1, "R7")
        if self.chip_supply is not None:
            _check_range("chip_supply", self.chip_supply, 0, 1000, "R3")
        self._check_winnable()

    def _check_winnable(self) -> None:
        if 2 * self.min_each_colour > self.chips_to_win:
            raise OptionsConflictError(
                f"min_each_colour={self.min_each_colour} twice is more than "
                f"chips_to_win={self.chips_to_win}; nobody could ever win (R31)",
                code="min_each_colour",
                options=("min_each_colour", "chips_to_win"),
            )
        supply = self.chip_supply
        if supply is not None and (supply < self.min_each_colour or 2 * supply < self.chips_to_win):
            raise OptionsConflictError(
                f"chip_supply={supply} per colour cannot make {self.chips_to_win} chips "
                f"with {self.min_each_colour} of each colour; nobody could ever win (R3, R31)",
                code="chip_supply",
                options=("chip_supply", "chips_to_win"),
            )

    def to_dict(self) -> dict[str, Any]:
        """Return every option as JSON-ready data (``chip_supply`` may be ``"unlimited"``)."""
        data = dataclasses.asdict(self)
        if self.chip_supply is None:
            data["chip_supply"] = "unlimited"
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Build settings from a mapping; unknown names are refused with the known ones."""
        if not isinstance(data, Mapping):
            raise SettingsError(f"settings must be a JSON object, not {type(data).__name__}")
        unknown = sorted(set(data) - set(OPTION_RULES))
        if unknown:
            raise SettingsError(
                f"unknown option(s) {', '.join(map(shown, unknown[:5]))}; "
                f"known options: {', '.join(OPTION_RULES)}"
            )
        values = dict(data)
        if values.get("chip_supply") == "unlimited":
            values["chip_supply"] = None
        return cls(**values)

    @classmethod
    def from_options(cls, options: Iterable[str], **base: Any) -> Settings:
        """Parse ``name=value`` strings (as given on a command line) over ``base``."""
        values: dict[str, Any] = dict(base)
        for option in options:
            name, sep, text = option.partition("=")
            name = name.strip().replace("-", "_")
            if not sep:
                raise SettingsError(f"option {shown(option)} is not of the form name=value")
            if name not in OPTION_RULES:
                raise SettingsError(
                    f"unknown option {shown(name)}; known options: {', '.join(OPTION_RULES)}"
                )
            values[name] = _parse_value(name, text.strip())
        return cls.from_dict(values)

    def replace(self, **changes: Any) -> Settings:
        """Return a copy with some options changed, validated again."""
        return dataclasses.replace(self, **changes)


_BOOL_OPTIONS: Final = frozenset(
    {"refill_at_turn_start", "steal_chip_can_win", "two_player_reverses"}
)


def _parse_value(name: str, text: str) -> int | bool | None:
    if name in _BOOL_OPTIONS:
        lowered = text.lower()
        if lowered in {"true", "yes", "1", "on"}:
            return True
        if lowered in {"false", "no", "0", "off"}:
            return False
        raise SettingsError(f"option {name} takes true or false, not {shown(text)}")
    if name == "chip_supply" and text.lower() == "unlimited":
        return None
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise SettingsError(f"option {name} takes a whole number, not {shown(text)}")
    if len(digits) > 9:  # far outside every range; int() of a huge one would fail
        raise SettingsError(f"option {name}={shown(text)} is far outside its range")
    return int(text)


def _check_type(name: str, value: object) -> None:
    if name in _BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise SettingsError(f"option {name} must be true or false, not {shown(value)}")
        return
    if name == "chip_supply" and value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise SettingsError(f"option {name} must be a whole number, not {shown(value)}")


def _check_range(name: str, value: int, low: int, high: int, rule_id: str) -> None:
    if not low <= value <= high:
        raise SettingsError(f"option {name}={shown(value)} is outside {low}-{high} ({rule_id})")
