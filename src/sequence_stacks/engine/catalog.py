"""The engine's vocabulary as plain data, for clients that must not re-derive it.

A browser or a terminal turns a frame's fields into words; to do so it needs to know
what card id 57 is, what kind 12 is, what an action id means for its seat. This module
gives exactly that, generated from the engine's own tables (never written by hand
twice): :func:`catalog` once, :func:`action_fields` per action, :func:`event_fields`
per event, :func:`pile_slots` per game's settings. Everything here is language-free:
keys and numbers, never sentences.

Piles are addressed one way for clients: by *slot*, the index into a view's ``piles``
(``colour * piles_per_colour + index within the colour``, blue first). Actions and
events as fields name slots; :func:`pile_slots` tells what each slot is called.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
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
from .events import DrawReason, Event, event_to_dict
from .settings import OPTION_RULES
from .state import EndReason, Phase

__all__ = [
    "ACTION_KEYS",
    "CATALOG_VERSION",
    "RULE_IDS",
    "action_fields",
    "catalog",
    "event_fields",
    "pile_slots",
    "seat_action_fields",
]

CATALOG_VERSION: Final = 2  # 2: piles as slots in actions and events (#23)
RULE_IDS: Final = tuple(f"R{number}" for number in range(1, 42))  # RULES.md R1-R41
# Each action card kind's key: the catalog's ``kinds[].action``, and the last part of the
# messages that name it (``card.<key>``, ``term.short.<key>``).
ACTION_KEYS: Final[Mapping[Kind, str]] = {
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
        "action": None if coloured else ACTION_KEYS[kind],
    }


def _event_fields() -> dict[str, list[str]]:
    """Each event kind's fields as :func:`event_fields` gives them (a pile as its slot)."""
    kinds: tuple[type[Any], ...] = getattr(Event, "__args__", ())
    return {
        kind.__name__: [_SLOT if f.name == _PILE else f.name for f in dataclasses.fields(kind)]
        for kind in kinds
    }


_PILE: Final = "pile"  # an event's pile: its index within its colour
_SLOT: Final = "slot"  # the same pile as clients address it


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


def action_fields(action: Action, piles_per_colour: int) -> dict[str, Any]:
    """An action as fields: its type's key, the card kind's index, whether the card is
    the top of the actor's discard pile, the slot it goes on (None for a new pile: the
    view's ``new_pile_slots`` says which), the victim seat and the colour (a played
    card's pile colour, a stolen chip's colour); what a client needs to draw it without
    parsing notation."""
    kind = action.kind
    colour = action.colour
    slot = None
    if action.type == ActionType.PLAY and kind is not None:
        colour = kind_colour(kind)
        if action.pile is not None:
            slot = colour * piles_per_colour + action.pile
    return {
        "type": ActionType(action.type).name.lower(),
        "kind": None if kind is None else int(kind),
        "from_discard": action.from_discard,
        "slot": slot,
        "victim": action.victim,
        "colour": colour,
    }


def seat_action_fields(player_count: int, piles_per_colour: int, seat: int) -> list[dict[str, Any]]:
    """Every action id of ``seat``'s action space as :func:`action_fields`, by id."""
    space = action_space(player_count, piles_per_colour)
    return [action_fields(action, piles_per_colour) for action in space.actions_of(seat)]


def pile_slots(piles_per_colour: int) -> list[dict[str, int]]:
    """What each slot of a view's ``piles`` is: its colour and its index within that
    colour (from 0), the data a client names a pile with (``pile.name.<colour>``)."""
    return [
        {"colour": colour, "index": index}
        for colour in range(len(COLOUR_NAMES))
        for index in range(piles_per_colour)
    ]


def event_fields(event: Event, piles_per_colour: int) -> dict[str, Any]:
    """An event as clients get it: :func:`~.events.event_to_dict` with its pile (an
    index within the event's colour) given as the pile's slot."""
    data = event_to_dict(event)
    if _PILE in data:
        index = data.pop(_PILE)
        data[_SLOT] = data["colour"] * piles_per_colour + index
    return data
