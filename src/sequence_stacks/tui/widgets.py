"""The table's widgets: each renders a :class:`~sequence_stacks.engine.View`, nothing more.

The render functions return Rich text and take only a view plus the seats' names, so
the main screen, the replay screen and the tests all draw the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from sequence_stacks.engine import COLOUR_NAMES, View

from .choices import Source
from .present import (
    COLOUR_MARKS,
    card_rich,
    direction_words,
    kind_label,
)

__all__ = [
    "HandPanel",
    "PilesPanel",
    "PlayersPanel",
    "StatusBar",
    "render_hand",
    "render_piles",
    "render_players",
    "render_status",
    "to_act",
]

_LIT = "bold black on bright_green"


def to_act(view: View) -> int | None:
    """Return the seat the view shows as deciding now (None once the game is over)."""
    if view.result is not None or view.phase == "over":
        return None
    if view.phase == "block_window" and view.window_pending:
        return view.window_pending[0]
    return view.current


def render_status(view: View, names: Sequence[str], *, extra: str = "") -> Text:
    """Return the status line: turn, who acts, direction, pending skips."""
    seat = to_act(view)
    if seat is None:
        whose = "game over"
    elif view.phase == "block_window":
        whose = f"Block window: {names[seat]} to answer"
    else:
        whose = f"{names[seat]} to play"
    text = Text()
    text.append(f"Turn {view.turn_count} ", style="bold")
    text.append(f"· {whose} · Direction {direction_words(view.direction)}")
    skips = view.pending_skips
    text.append(f" · Pending skips: {skips}", style="bold magenta" if skips else "")
    if extra:
        text.append(f" · {extra}")
    return text


def render_piles(view: View, lit: set[int] | None = None) -> Text:
    """Return the four (or more) sequence-pile slots, the draw pile, pool and supply."""
    per_colour = view.settings.piles_per_colour
    text = Text()
    text.append("SEQUENCE PILES\n", style="bold underline")
    for slot, pile in enumerate(view.piles):
        colour = slot // per_colour
        is_lit = lit is not None and slot in lit
        name = f"{COLOUR_MARKS[colour]}{COLOUR_NAMES[colour]} pile {slot % per_colour + 1}"
        text.append(f"{'▶' if is_lit else ' '} {name:<14}", style=_LIT if is_lit else "bold")
        if pile:
            for card in pile:
                text.append(" ")
                text.append_text(card_rich(card))
            count = len(pile)
            text.append(f"  {count}/5, " + ("complete" if count >= 5 else f"needs {count + 1}"))
        else:
            text.append("  (empty: starts with a 1 or a wild)", style="dim")
        text.append("\n")
    text.append(f"\nDraw pile {view.draw_size} · Pool {len(view.pool)}")
    text.append(f" · Special discards {len(view.special)}\n")
    text.append("Chip supply: ")
    if view.supply is None:
        text.append("unlimited")
    else:
        text.append(f"{COLOUR_MARKS[0]}B {view.supply[0]}  {COLOUR_MARKS[1]}R {view.supply[1]}")
    return text


def render_players(view: View, names: Sequence[str]) -> Text:
    """Return one line per player: turn marker, hand size, chips and discard pile."""
    seat_now = to_act(view)
    labels = [name + (" (you)" if seat == view.seat else "") for seat, name in enumerate(names)]
    width = max(len(label) for label in labels) + 1
    text = Text()
    text.append(f"{'PLAYERS':<{width + 2}}", style="bold underline")
    text.append(" hand  chips      discard pile\n", style="bold")
    for seat, label in enumerate(labels):
        blue, red = view.chips[seat]
        text.append(f"{'▶' if seat == seat_now else ' '} ", style="bold")
        text.append(f"{label:<{width}}", style="bold" if seat == seat_now else "")
        text.append(f" {view.hand_sizes[seat]:>3}   ")
        text.append(f"{COLOUR_MARKS[0]}B{blue}", style="bold bright_blue")
        text.append(" ")
        text.append(f"{COLOUR_MARKS[1]}R{red}", style="bold bright_red")
        discard = view.discards[seat]
        text.append(f"   {len(discard):>3}")
        if discard:
            text.append(" top ")
            text.append_text(card_rich(discard[-1]))
        text.append("\n")
    return text


def render_hand(
    view: View,
    shown: Sequence[Source],
    *,
    cursor: int,
    selected: Source | None,
    playable: set[tuple[bool, int]],
) -> Text:
    """Return the viewer's hand with keys, the cursor, the selection and playable marks."""
    text = Text()
    text.append("YOUR HAND  ", style="bold")
    if view.hand is None:
        return text.append("(a spectator has none)", style="dim")
    for index, source in enumerate(shown):
        if source.from_discard:
            text.append("  │ discard top ", style="dim")
        is_cursor = index == cursor
        key = "t" if source.from_discard else str(source.position % 10)
        card = card_rich(source.card)
        if source == selected:
            card.stylize("reverse")
        text.append("[" if is_cursor else " ", style="bold yellow")
        text.append(f"{key}:", style="bold")
        text.append_text(card)
        text.append("✓" if (source.from_discard, source.kind) in playable else " ", style="green")
        text.append("]" if is_cursor else " ", style="bold yellow")
    if not shown:
        text.append("(empty: press e to end your turn)", style="dim")
    return text


def hand_hint(selected: Source | None) -> str:
    """Return the one-line prompt under the hand."""
    if selected is None:
        return "Pick a card: 1-9 or ←/→ and Enter, t for your discard top. ? for help."
    name = kind_label(selected.kind)
    where = "your discard top" if selected.from_discard else "your hand"
    return f"{name} from {where}: pick a target (1-9 or ↑/↓ Enter), x to discard, Esc to drop."


class StatusBar(Static):
    """The line at the top: turn, who acts, direction, pending skips."""


class PilesPanel(Static):
    """The sequence piles, the draw pile, the pool and the chip supply."""


class PlayersPanel(Static):
    """Every player's hand size, chips and discard pile."""


class HandPanel(Static, can_focus=True):
    """The viewer's hand; focusable so it takes ← → Enter."""
