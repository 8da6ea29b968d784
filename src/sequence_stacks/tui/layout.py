"""How the play screen is laid out, and its keys.

Two layouts. Wide (at least WIDE_SIZE): piles and players on the left, the log on
the right. Compact (smaller, down to 80x24): everything stacked, the log below the
players at the full width, panels without side borders; while a card is picked its
targets take the log's place, so nothing is cut (#14, #15).
"""

from __future__ import annotations

from typing import Final

from textual.binding import Binding, BindingType

__all__ = [
    "BOT_SPEEDS",
    "CONTEXT_ACTIONS",
    "PLAY_BINDINGS",
    "PLAY_CSS",
    "WIDE_SIZE",
    "is_compact_size",
]

BOT_SPEEDS: Final = (0.0, 0.1, 0.3, 0.6, 1.0, 2.0)
"""Seconds a bot waits before it moves, from fastest to slowest (+ and - step along)."""

WIDE_SIZE: Final = (100, 32)
"""The smallest terminal (columns, rows) given the wide layout; smaller is compact."""


def is_compact_size(size: tuple[int, int]) -> bool:
    """True for a terminal smaller than :data:`WIDE_SIZE` either way (the compact layout)."""
    width, height = size
    return width < WIDE_SIZE[0] or height < WIDE_SIZE[1]


# Keys whose footer entry shows only when they can do something now (check_action).
CONTEXT_ACTIONS: Final = frozenset({"discard", "drop", "pick_top", "end_turn", "speed", "save"})

PLAY_CSS: Final = """
#status { height: auto; max-height: 2; background: $boost; padding: 0 1; }
#table { height: 1fr; layout: horizontal; }
#left { width: 64; min-width: 50; height: auto; max-height: 100%; }
#piles, #players, #replay-piles, #replay-players {
    height: auto; border: round $primary; padding: 0 1;
}
#log { width: 1fr; border: round $secondary; }
#hand { height: auto; min-height: 3; border: round $accent; padding: 0 1; }
#hand:focus { border: round $success; }
#targets { height: auto; max-height: 13; display: none; }
#targets.shown { display: block; }
#message { height: auto; max-height: 3; padding: 0 1; }
.-compact #table { layout: vertical; }
.-compact #left { width: 100%; min-width: 0; }
.-compact #piles, .-compact #players { border: none; padding: 0 1; }
.-compact #players { background: $boost; }
.-compact #log { width: 100%; height: 1fr; min-height: 3; border: round $secondary; }
.-compact #hand { border: none; padding: 0 1; min-height: 1; background: $accent 20%; }
.-compact #hand:focus { border: none; background: $success 20%; }
.-compact.-picking #log { display: none; }
.-compact.-picking #table { height: auto; }
.-compact.-picking #targets { height: 1fr; max-height: 100%; }
#handoff-text { height: 1fr; content-align: center middle; }
#block-box, #quit-box { width: 70; max-width: 100%; height: auto; border: thick $warning;
                        padding: 1 2; background: $surface; }
BlockScreen, HelpScreen, QuitScreen { align: center middle; }
#help-body { width: 90; max-width: 100%; height: 90%; border: round $primary;
             padding: 0 1; background: $surface; }
#summary-text { padding: 1 2; }
#summary-message { padding: 0 2; }
#replay-table { height: 1fr; }
#replay-left { width: 64; }
#replay-log { width: 1fr; height: 1fr; border: round $secondary; padding: 0 1; }
#replay-status { height: auto; max-height: 2; background: $boost; padding: 0 1; }
.-compact #replay-table { layout: vertical; }
.-compact #replay-left { width: 100%; height: auto; }
.-compact #replay-piles, .-compact #replay-players { border: none; padding: 0 1; }
.-compact #replay-players { background: $boost; }
.-compact #replay-log { width: 100%; min-height: 3; }
"""

_BOT_SPEED: Final = Binding.Group("term.key.bot_speed", compact=True)

PLAY_BINDINGS: Final[list[BindingType]] = [
    *(Binding(str(n % 10), f"pick({n})", show=False) for n in range(1, 11)),
    # The footer shows these in this order: help and quit first, so they are never
    # the ones a narrow terminal loses; the others show only when they apply.
    Binding("question_mark,h", "help", "term.key.help"),
    Binding("q", "quit_game", "term.key.quit"),
    Binding("s", "save", "term.key.save"),
    Binding("x", "discard", "term.key.discard"),
    Binding("t", "pick_top", "term.key.discard_top"),
    Binding("e", "end_turn", "term.key.end"),
    Binding("escape", "drop", "term.key.drop"),
    Binding("left", "cursor(-1)", show=False),
    Binding("right", "cursor(1)", show=False),
    Binding("enter", "confirm", show=False),
    # One footer entry for both, "+- Bot speed": two would not fit 80 columns in Malay.
    Binding("plus,equals_sign", "speed(-1)", "term.key.faster", group=_BOT_SPEED),
    Binding("minus", "speed(1)", "term.key.slower", group=_BOT_SPEED),
]
