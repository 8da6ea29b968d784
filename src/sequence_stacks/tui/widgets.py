"""The table's widgets: each renders a :class:`~sequence_stacks.engine.View`, nothing more.

The render functions return Rich text and take only a view plus the seats' names, so
the main screen, the replay screen and the tests all draw the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog, Static
from textual.widgets.option_list import Option

from sequence_stacks.engine import Phase, View
from sequence_stacks.i18n import render

from .choices import Source, Target
from .present import (
    COLOUR_MARKS,
    card_rich,
    colour_letter,
    direction_words,
    kind_label,
    pad,
    pile_name,
)

__all__ = [
    "HandPanel",
    "PilesPanel",
    "PlayersPanel",
    "StatusBar",
    "TableLog",
    "flow",
    "render_hand",
    "render_piles",
    "render_players",
    "render_status",
    "target_option",
    "to_act",
]

_LIT = "bold black on bright_green"


def to_act(view: View) -> int | None:
    """Return the seat the view shows as deciding now (None once the game is over)."""
    if view.result is not None or view.phase == Phase.OVER:
        return None
    if view.phase == Phase.BLOCK_WINDOW and view.window_pending:
        return view.window_pending[0]
    return view.current


def render_status(view: View, names: Sequence[str], *, extra: str = "") -> Text:
    """Return the status line: turn, who acts, direction, pending skips."""
    seat = to_act(view)
    if seat is None:
        whose = render("term.status.over")
    elif view.phase == Phase.BLOCK_WINDOW:
        whose = render("term.status.answer", player=names[seat])
    else:
        whose = render("term.status.to_play", player=names[seat])
    text = Text()
    text.append(render("term.status.turn", turn=view.turn_count) + " ", style="bold")
    direction = render("term.status.direction", direction=direction_words(view.direction))
    text.append(f"· {whose} · {direction}")
    skips = view.pending_skips
    text.append(
        " · " + render("term.status.skips", count=skips), style="bold magenta" if skips else ""
    )
    if extra:
        text.append(f" · {extra}")
    return text


def render_piles(view: View, lit: set[int] | None = None, *, width: int = 0) -> Text:
    """Return the sequence-pile slots under a heading with the draw pile, pool, special
    pile and chip supply; the heading's parts wrap at ``width`` cells (0: never)."""
    per_colour = view.settings.piles_per_colour
    text = Text()
    sizes = render(
        "term.piles.sizes", draw=view.draw_size, pool=len(view.pool), special=len(view.special)
    )
    heading = [(render("term.piles.title"), "bold underline"), (sizes, ""), (_supply(view), "")]
    text.append_text(flow(heading, width))
    text.append("\n")
    names = [
        COLOUR_MARKS[slot // per_colour] + pile_name(view, slot) for slot in range(len(view.piles))
    ]
    name_cells = max(cell_len(name) for name in names)
    for slot, pile in enumerate(view.piles):
        is_lit = lit is not None and slot in lit
        style = _LIT if is_lit else "bold"
        text.append(f"{'▶' if is_lit else ' '} {pad(names[slot], name_cells)}", style=style)
        if pile:
            for card in pile:
                text.append(" ")
                text.append_text(card_rich(card))
            count = len(pile)
            key = "term.piles.complete" if count >= 5 else "term.piles.needs"
            text.append("  " + render(key, count=count, next=count + 1))
        else:
            text.append("  " + render("term.piles.empty"), style="dim")
        if slot < len(view.piles) - 1:
            text.append("\n")
    return text


def _supply(view: View) -> str:
    if view.supply is None:
        chips = render("term.supply.unlimited")
    else:
        chips = "  ".join(
            f"{COLOUR_MARKS[colour]}{colour_letter(colour)} {view.supply[colour]}"
            for colour in (0, 1)
        )
    return render("term.supply", chips=chips)


def flow(parts: Sequence[tuple[str, str]], width: int, *, gap: str = "   ") -> Text:
    """Return ``(text, style)`` parts on one line, ``gap`` between them, starting a new
    line before a part that would pass ``width`` terminal cells (measured, never
    ``len``: a Hangul syllable takes two cells, a Devanagari vowel sign none)."""
    text = Text()
    used = 0
    for part, style in parts:
        cells = cell_len(part)
        if used and width and used + cell_len(gap) + cells > width:
            text.append("\n")
            used = 0
        elif used:
            text.append(gap)
            used += cell_len(gap)
        text.append(part, style=style)
        used += cells
    return text


def render_players(view: View, names: Sequence[str]) -> Text:
    """Return one line per player: turn marker, hand size, chips and discard pile."""
    seat_now = to_act(view)
    labels = [
        render("seat.you_named", name=name) if seat == view.seat else name
        for seat, name in enumerate(names)
    ]
    title = render("term.players.title")
    width = max(cell_len(title) - 1, *(cell_len(label) for label in labels)) + 1
    # Column headings over the hand size (5 cells), the chips (8) and the discard pile.
    hand = render("term.players.hand")
    chips = render("term.players.chips")
    hand_cells = max(5, cell_len(hand) + 1)
    chip_cells = max(11, cell_len(chips) + 1)
    text = Text()
    text.append(pad(title, width + 2), style="bold underline")
    heading = f" {pad(hand, hand_cells)} {pad(chips, chip_cells)}{render('term.players.discard')}"
    text.append(heading + "\n", style="bold")
    letters = (colour_letter(0), colour_letter(1))
    top = render("term.players.top")
    for seat, label in enumerate(labels):
        blue, red = view.chips[seat]
        text.append(f"{'▶' if seat == seat_now else ' '} ", style="bold")
        text.append(pad(label, width), style="bold" if seat == seat_now else "")
        text.append(" " + pad(f"{view.hand_sizes[seat]:>3}", hand_cells) + " ")
        blue_text = f"{COLOUR_MARKS[0]}{letters[0]}{blue}"
        red_text = f"{COLOUR_MARKS[1]}{letters[1]}{red}"
        text.append(blue_text, style="bold bright_blue")
        text.append(" ")
        text.append(red_text, style="bold bright_red")
        shown = cell_len(blue_text) + 1 + cell_len(red_text)
        text.append(" " * max(1, chip_cells - 1 - shown))
        discard = view.discards[seat]
        text.append(f"{len(discard):>3}")
        if discard:
            text.append(f" {top} ")
            text.append_text(card_rich(discard[-1]))
        if seat < len(labels) - 1:
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
    text.append(render("term.hand.title") + "  ", style="bold")
    if view.hand is None:
        return text.append(render("term.hand.spectator"), style="dim")
    for index, source in enumerate(shown):
        if source.from_discard:
            text.append(f"  │ {render('term.hand.discard_top')} ", style="dim")
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
        text.append(render("term.hand.empty"), style="dim")
    return text


def target_option(number: int, target: Target) -> Option:
    """Return a picked card's target as a menu line under its number key."""
    key = f"{number % 10}." if number <= 10 else "  "
    return Option(Text(f"{key:<3} {target.label}", style="bold"))


def hand_hint(selected: Source | None) -> str:
    """Return the one-line prompt under the hand."""
    if selected is None:
        return render("term.hint.pick")
    key = "term.hint.target.top" if selected.from_discard else "term.hint.target"
    return render(key, card=kind_label(selected.kind))


class StatusBar(Static):
    """The line at the top: turn, who acts, direction, pending skips."""


class PilesPanel(Static):
    """The sequence piles, the draw pile, the pool and the chip supply; its heading
    wraps at the panel's own width, drawn again when that width changes."""

    _shown: tuple[View, set[int] | None] | None = None

    def show(self, view: View, lit: set[int] | None = None) -> None:
        """Draw ``view``'s piles, lighting the slots in ``lit``."""
        self._shown = (view, lit)
        self.update(render_piles(view, lit, width=self.content_size.width))

    def on_resize(self) -> None:
        """Wrap the heading again at the new width."""
        if self._shown is not None:
            self.show(*self._shown)


class PlayersPanel(Static):
    """Every player's hand size, chips and discard pile."""


class HandPanel(Static, can_focus=True):
    """The viewer's hand; focusable so it takes ← → Enter."""


class TableLog(RichLog):
    """The game's log, wrapped again whenever its width changes.

    A RichLog wraps each line at the width it has when the line is written; when the
    layout changes after that (the compact layout chosen at start-up, a terminal made
    wider or narrower), the lines stayed wrapped at the old width: at 80x24 a turn's
    heading was seen cut into 17-cell pieces. This one keeps what it was given and
    writes it again at the new width."""

    def __init__(self, *, widget_id: str | None = None) -> None:
        super().__init__(wrap=True, markup=False, min_width=20, id=widget_id)
        self._texts: list[str | Text] = []
        self._wrapped_at = 0

    def add(self, text: str | Text) -> None:
        """Write one line (kept, to wrap it again at another width)."""
        self._texts.append(text)
        self._wrapped_at = self.scrollable_content_region.width
        self.write(text)

    def clear(self) -> TableLog:
        """Empty the log (and what it keeps)."""
        self._texts = []
        super().clear()
        return self

    def on_resize(self, event: Resize) -> None:
        """At a new width, every line again (the first sizing is RichLog's own)."""
        del event
        width = self.scrollable_content_region.width
        if not self._size_known:  # RichLog writes what waited for a size, at this one
            self._wrapped_at = width
            return
        if not self._texts or not width or width == self._wrapped_at:
            return
        texts = self._texts
        super().clear()
        self._wrapped_at = width
        for text in texts:
            self.write(text)
