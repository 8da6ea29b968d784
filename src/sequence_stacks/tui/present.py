"""How cards, piles, players and actions look: short labels, words, and Rich text.

Colour is always doubled by a cue that needs no colour: the letter (``B`` or ``R``)
and a shape (``◆`` blue, ``●`` red). The plain mode uses :func:`card_words` ("blue 3")
so a screen reader says what a sighted player sees. Every word comes from a message
(:mod:`sequence_stacks.i18n`), in the language chosen with ``--lang``.
"""

from __future__ import annotations

from typing import Final

from rich.cells import cell_len
from rich.text import Text

from sequence_stacks.engine import (
    ACTION_KEYS,
    CARD_KIND,
    Action,
    ActionType,
    Kind,
    View,
    kind_colour,
    kind_rank,
)
from sequence_stacks.i18n import card_name, coloured, kind_name, render

__all__ = [
    "COLOUR_MARKS",
    "action_words",
    "block_prompt",
    "card_label",
    "card_rich",
    "card_words",
    "colour_letter",
    "direction_words",
    "kind_label",
    "kind_rich",
    "kind_words",
    "pad",
    "pile_name",
    "pile_words",
    "seat_name",
]

COLOUR_MARKS: Final = ("◆", "●")
COLOUR_STYLES: Final = ("bold white on dark_blue", "bold white on dark_red")
ACTION_STYLE: Final = "bold black on yellow"

_LETTER_KEYS: Final = ("term.letter.blue", "term.letter.red")


def pad(text: str, cells: int) -> str:
    """``text`` padded with spaces to ``cells`` terminal cells (a Hangul syllable takes
    two): the width a terminal shows, never ``len()``."""
    return text + " " * max(0, cells - cell_len(text))


def colour_letter(colour: int) -> str:
    """The letter beside a colour's shape mark (``B``, ``R``)."""
    return render(_LETTER_KEYS[colour])


def kind_label(kind: int) -> str:
    """Return a short label with a shape: ``◆B3``, ``●RW``, ``Skip``."""
    colour = kind_colour(kind)
    if colour < 0:
        return render(f"term.short.{ACTION_KEYS[Kind(kind)]}")
    rank = kind_rank(kind)
    shown = render("card.wild_corner") if rank == 0 else str(rank)
    return f"{COLOUR_MARKS[colour]}{colour_letter(colour)}{shown}"


def card_label(card: int) -> str:
    """Return the short label of one card (its kind's label)."""
    return kind_label(CARD_KIND[card])


def kind_words(kind: int) -> str:
    """Return a kind in words: ``blue 3``, ``red wild``, ``Steal-a-Chip``."""
    return kind_name(kind)


def card_words(card: int) -> str:
    """Return one card in words."""
    return card_name(card)


def kind_rich(kind: int) -> Text:
    """Return a kind's label styled in its colour (yellow for action cards)."""
    colour = kind_colour(kind)
    style = ACTION_STYLE if colour < 0 else COLOUR_STYLES[colour]
    return Text(f" {kind_label(kind)} ", style=style)


def card_rich(card: int) -> Text:
    """Return one card's label styled in its colour."""
    return kind_rich(CARD_KIND[card])


def seat_name(view: View, seat: int) -> str:
    """Return ``Player N`` (seat 0 is Player 1), with ``(you)`` for the viewer."""
    name = render("seat.numbered", number=seat + 1)
    return render("seat.you_named", name=name) if seat == view.seat else name


def direction_words(direction: int) -> str:
    """Return the direction of play in words with an arrow."""
    return render("term.direction.up" if direction > 0 else "term.direction.down")


def pile_name(view: View, slot: int) -> str:
    """A sequence-pile slot's name: ``blue pile 1``."""
    per_colour = view.settings.piles_per_colour
    return render(coloured("pile.name", slot // per_colour), number=slot % per_colour + 1)


def pile_words(view: View, slot: int) -> str:
    """Describe a sequence-pile slot: colour, number, size and the number it needs next."""
    name = pile_name(view, slot)
    pile = view.piles[slot]
    if not pile:
        return render("term.pile.empty", pile=name)
    count = len(pile)
    if count >= 5:
        return render("term.pile.complete", pile=name, count=count)
    return render("term.pile.needs", pile=name, count=count, next=count + 1)


def action_words(action: Action, view: View) -> str:  # noqa: PLR0911 - one phrase per type
    """Describe an action in plain words for menus and the plain mode."""
    kind_type = action.type
    if kind_type == ActionType.PASS:
        return render("term.action.pass")
    if kind_type == ActionType.BLOCK:
        return render("term.action.block")
    if kind_type == ActionType.END:
        return render("term.action.end")
    assert action.kind is not None
    card = kind_words(action.kind)
    top = ".top" if action.from_discard else ""
    if kind_type == ActionType.DISCARD:
        return render("term.action.discard", card=card)
    if kind_type == ActionType.PLAY:
        return render(f"term.action.play{top}", card=card, target=_pile_target(action, view))
    if kind_type == ActionType.SKIP:
        return render(f"term.action.skip{top}")
    if kind_type == ActionType.REVERSE:
        return render(f"term.action.reverse{top}")
    assert action.victim is not None
    victim = seat_name(view, action.victim)
    if kind_type == ActionType.STEAL_CARD:
        pile = view.discards[action.victim]
        what = card_words(pile[-1]) if pile else render("term.action.steal_nothing")
        return render(f"term.action.steal_card{top}", victim=victim, card=what)
    assert action.colour is not None
    held = view.chips[action.victim][action.colour]
    key = coloured(f"term.action.steal_chip{top}", action.colour)
    return render(key, victim=victim, count=held)


def _pile_target(action: Action, view: View) -> str:
    assert action.kind is not None
    colour = kind_colour(action.kind)
    if action.pile is None:
        return render(coloured("term.pile.new", colour))
    return pile_words(view, colour * view.settings.piles_per_colour + action.pile)


def block_prompt(view: View) -> str:
    """Return the question of an open Block window put to the viewer, or ``""``."""
    if view.window_completer is None or view.window_pile is None:
        return ""
    if view.seat not in view.window_pending:
        return ""
    per_colour = view.settings.piles_per_colour
    completed = render(
        coloured("term.block.completed", view.window_pile // per_colour),
        player=render("seat.numbered", number=view.window_completer + 1),
        pile=pile_name(view, view.window_pile),
    )
    return f"{completed}\n{render('term.block.ask')}"
