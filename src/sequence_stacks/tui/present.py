"""How cards, piles, players and actions look: short labels, words, and Rich text.

Colour is always doubled by a cue that needs no colour: the letter (``B`` or ``R``)
and a shape (``◆`` blue, ``●`` red). The plain mode uses :func:`card_words` ("blue 3")
so a screen reader says what a sighted player sees.
"""

from __future__ import annotations

from typing import Final

from rich.text import Text

from sequence_stacks.engine import (
    CARD_KIND,
    COLOUR_NAMES,
    Action,
    ActionType,
    Kind,
    View,
    kind_colour,
    kind_rank,
)

__all__ = [
    "COLOUR_MARKS",
    "action_words",
    "block_prompt",
    "card_label",
    "card_rich",
    "card_words",
    "direction_words",
    "kind_label",
    "kind_rich",
    "kind_words",
    "pile_words",
    "seat_name",
]

COLOUR_MARKS: Final = ("◆", "●")
COLOUR_LETTERS: Final = ("B", "R")
COLOUR_STYLES: Final = ("bold white on dark_blue", "bold white on dark_red")
ACTION_STYLE: Final = "bold black on yellow"

_ACTION_LABELS: Final = {
    Kind.SKIP: "Skip",
    Kind.REV: "Reverse",
    Kind.SCARD: "StealCard",
    Kind.BLOCK: "Block",
    Kind.SCHIP: "StealChip",
}
_ACTION_WORDS: Final = {
    Kind.SKIP: "Skip",
    Kind.REV: "Reverse",
    Kind.SCARD: "Steal-a-Card",
    Kind.BLOCK: "Block",
    Kind.SCHIP: "Steal-a-Chip",
}


def kind_label(kind: int) -> str:
    """Return a short label with a shape: ``◆B3``, ``●RW``, ``Skip``."""
    colour = kind_colour(kind)
    if colour < 0:
        return _ACTION_LABELS[Kind(kind)]
    rank = kind_rank(kind)
    return f"{COLOUR_MARKS[colour]}{COLOUR_LETTERS[colour]}{'W' if rank == 0 else rank}"


def card_label(card: int) -> str:
    """Return the short label of one card (its kind's label)."""
    return kind_label(CARD_KIND[card])


def kind_words(kind: int) -> str:
    """Return a kind in words: ``blue 3``, ``red wild``, ``Steal-a-Chip``."""
    colour = kind_colour(kind)
    if colour < 0:
        return _ACTION_WORDS[Kind(kind)]
    rank = kind_rank(kind)
    return f"{COLOUR_NAMES[colour]} {'wild' if rank == 0 else rank}"


def card_words(card: int) -> str:
    """Return one card in words."""
    return kind_words(CARD_KIND[card])


def kind_rich(kind: int) -> Text:
    """Return a kind's label styled in its colour (yellow for action cards)."""
    colour = kind_colour(kind)
    style = ACTION_STYLE if colour < 0 else COLOUR_STYLES[colour]
    return Text(f" {kind_label(kind)} ", style=style)


def card_rich(card: int) -> Text:
    """Return one card's label styled in its colour."""
    return kind_rich(CARD_KIND[card])


def seat_name(view: View, seat: int) -> str:
    """Return ``Player N``, with ``(you)`` for the viewer."""
    return f"Player {seat}" + (" (you)" if seat == view.seat else "")


def direction_words(direction: int) -> str:
    """Return the direction of play in words with an arrow."""
    return "left → (seat numbers go up)" if direction > 0 else "right ← (seat numbers go down)"


def pile_words(view: View, slot: int) -> str:
    """Describe a sequence-pile slot: colour, number, size and the number it needs next."""
    per_colour = view.settings.piles_per_colour
    colour = slot // per_colour
    name = f"{COLOUR_NAMES[colour]} pile {slot % per_colour + 1}"
    pile = view.piles[slot]
    if not pile:
        return f"{name}: empty"
    count = len(pile)
    needs = "complete" if count >= 5 else f"needs {count + 1}"
    return f"{name}: {count} card{'' if count == 1 else 's'}, {needs}"


def action_words(action: Action, view: View) -> str:  # noqa: PLR0911 - one phrase per type
    """Describe an action in plain words for menus and the plain mode."""
    kind_type = action.type
    if kind_type == ActionType.PASS:
        return "pass (let the sequence stand)"
    if kind_type == ActionType.BLOCK:
        return "block the sequence"
    if kind_type == ActionType.END:
        return "end the turn (your hand is empty)"
    assert action.kind is not None
    card = kind_words(action.kind)
    source = "your discard top " if action.from_discard else ""
    if kind_type == ActionType.DISCARD:
        return f"discard {card} and end the turn"
    if kind_type == ActionType.PLAY:
        return f"play {source}{card} on {_pile_target(action, view)}"
    if kind_type == ActionType.SKIP:
        return f"play {source}Skip: the next player loses a turn"
    if kind_type == ActionType.REVERSE:
        return f"play {source}Reverse: the direction flips"
    assert action.victim is not None
    victim = seat_name(view, action.victim)
    if kind_type == ActionType.STEAL_CARD:
        top = view.discards[action.victim]
        what = card_words(top[-1]) if top else "nothing: the pile is empty"
        return f"play {source}Steal-a-Card on {victim}'s discard top ({what})"
    assert action.colour is not None
    held = view.chips[action.victim][action.colour]
    colour = COLOUR_NAMES[action.colour]
    return f"play {source}Steal-a-Chip: take a {colour} chip from {victim} (has {held})"


def _pile_target(action: Action, view: View) -> str:
    assert action.kind is not None
    colour = kind_colour(action.kind)
    if action.pile is None:
        return f"a new {COLOUR_NAMES[colour]} pile"
    return pile_words(view, colour * view.settings.piles_per_colour + action.pile)


def block_prompt(view: View) -> str:
    """Return the question of an open Block window put to the viewer, or ``""``."""
    if view.window_completer is None or view.window_pile is None:
        return ""
    if view.seat not in view.window_pending:
        return ""
    per_colour = view.settings.piles_per_colour
    colour = COLOUR_NAMES[view.window_pile // per_colour]
    pile = view.window_pile % per_colour + 1
    return (
        f"Player {view.window_completer} completed a {colour} sequence ({colour} pile {pile}).\n"
        "Block it or pass?"
    )
