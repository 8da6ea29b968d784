"""Plain-text tables of a view, for the adapters' ``ansi`` renders and OpenSpiel strings."""

from __future__ import annotations

from collections.abc import Sequence

from sequence_stacks.engine import CARD_KIND, COLOUR_NAMES, View, kind_text

__all__ = ["view_text"]


def _kinds(cards: Sequence[int]) -> str:
    return " ".join(kind_text(CARD_KIND[card]) for card in cards) or "-"


def view_text(view: View) -> str:
    """Return a few lines describing everything in ``view`` (public parts and own hand)."""
    direction = "left" if view.direction > 0 else "right"
    lines = [
        f"turn {view.turn_count}, seat {view.current} to play, direction {direction}, "
        f"phase {view.phase.key}, pending skips {view.pending_skips}",
        f"draw {view.draw_size}, pool {len(view.pool)}, special {_kinds(view.special)}",
    ]
    per_colour = view.settings.piles_per_colour
    piles = [
        f"{COLOUR_NAMES[slot // per_colour]} {slot % per_colour + 1}: {_kinds(pile)}"
        for slot, pile in enumerate(view.piles)
    ]
    lines.append("piles: " + " | ".join(piles))
    supply = "unlimited" if view.supply is None else f"{view.supply[0]}B {view.supply[1]}R"
    lines.append(f"supply {supply}")
    for seat, size in enumerate(view.hand_sizes):
        blue, red = view.chips[seat]
        hand = f" [{_kinds(view.hand or ())}]" if seat == view.seat else ""
        known = f", known {_kinds(view.known_cards[seat])}" if view.known_cards[seat] else ""
        lines.append(
            f"seat {seat}: hand {size}{hand}{known}, chips {blue}B {red}R, "
            f"discards {_kinds(view.discards[seat])}"
        )
    if view.window_completer is not None:
        lines.append(
            f"block window: seat {view.window_completer} completed slot {view.window_pile}, "
            f"waiting for {list(view.window_pending)}"
            + (
                ""
                if view.my_answer is None
                else f", my answer {'block' if view.my_answer else 'pass'}"
            )
        )
    if view.result is not None:
        lines.append(f"over: {view.result.reason}, winner {view.result.winner}")
    return "\n".join(lines)
