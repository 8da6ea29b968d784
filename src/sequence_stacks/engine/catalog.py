"""The engine's vocabulary as plain data, for clients that must not re-derive it.

A browser or a terminal turns a frame's fields into words; to do so it needs to know
what card id 57 is, what kind 12 is, what an action id means for its seat. This module
gives exactly that, generated from the engine's own tables (never written by hand
twice): :func:`catalog` once per game's settings, :func:`action_fields` per action.
Everything here is language-free: keys and numbers, never sentences.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from .actions import Action, ActionType, action_space
from .cards import (
    ACTION_KINDS,
    CARD_COUNT,
    CARD_KIND,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    Kind,
    kind_colour,
    kind_rank,
    kind_text,
)
from .events import DrawReason, Event
from .settings import OPTION_RULES
from .state import EndReason, Phase

__all__ = ["CATALOG_VERSION", "RULE_IDS", "action_fields", "catalog", "seat_action_fields"]

CATALOG_VERSION: Final = 1
RULE_IDS: Final = tuple(f"R{number}" for number in range(1, 42))  # RULES.md R1-R41
_ACTION_KEYS: Final = {
    Kind.SKIP: "skip",
    Kind.REV: "reverse",
    Kind.SCARD: "steal_card",
    Kind.BLOCK: "block",
    Kind.SCHIP: "steal_chip",
}


def _kind(kind: Kind) -> dict[str, Any]:
    coloured = kind not in ACTION_KINDS
    rank = kind_rank(kind) if coloured else None
    return {
        "index": int(kind),
        "key": kind_text(kind),
        "colour": kind_colour(kind) if coloured else None,
        "rank": rank or None,  # 1-5; None for a wild and an action card
        "wild": coloured and not rank,
        "action": None if coloured else _ACTION_KEYS[kind],
    }


def _event_fields() -> dict[str, list[str]]:
    kinds: tuple[type[Any], ...] = getattr(Event, "__args__", ())
    return {kind.__name__: [field.name for field in dataclasses.fields(kind)] for kind in kinds}


def catalog() -> dict[str, Any]:
    """Every closed vocabulary of the engine as JSON-ready data (see docs/protocol.md)."""
    return {
        "version": CATALOG_VERSION,
        "colours": [
            {"index": index, "key": name, "letter": COLOUR_LETTERS[index]}
            for index, name in enumerate(COLOUR_NAMES)
        ],
        "kinds": [_kind(kind) for kind in Kind],
        "cards": [int(CARD_KIND[card]) for card in range(CARD_COUNT)],
        "action_types": [kind.name.lower() for kind in ActionType],
        "phases": [phase.key for phase in Phase],
        "end_reasons": [reason.value for reason in EndReason],
        "draw_reasons": [reason.value for reason in DrawReason],
        "events": _event_fields(),
        "rules": list(RULE_IDS),
        "option_rules": dict(OPTION_RULES),
    }


def action_fields(action: Action) -> dict[str, Any]:
    """An action as fields: its type's key, the card kind's index, where it comes from
    and goes (pile index within the card's colour, None for a new pile), the victim
    seat and the chip colour; what a client needs to draw it without parsing notation."""
    return {
        "type": ActionType(action.type).name.lower(),
        "kind": None if action.kind is None else int(action.kind),
        "from_discard": action.from_discard,
        "pile": action.pile,
        "victim": action.victim,
        "colour": action.colour,
    }


def seat_action_fields(player_count: int, piles_per_colour: int, seat: int) -> list[dict[str, Any]]:
    """Every action id of ``seat``'s action space as :func:`action_fields`, by id."""
    space = action_space(player_count, piles_per_colour)
    return [action_fields(action) for action in space.actions_of(seat)]
