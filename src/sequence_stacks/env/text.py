"""Plain text of views and events for researchers: the adapters' ``ansi`` renders and
OpenSpiel's observation and information-state strings.

These are developer-facing English with card notation (``B3#20``), stable for tools that
read them; what players read comes from the message catalog (``sequence_stacks.i18n``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import sequence_stacks.engine.events as ev
from sequence_stacks.engine import (
    CARD_KIND,
    COLOUR_NAMES,
    DrawReason,
    Event,
    State,
    View,
    card_text,
    kind_text,
    observe,
)

__all__ = ["ansi_text", "event_text", "view_text"]


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


_DRAWN: Final = {
    DrawReason.DEAL: "was dealt",
    DrawReason.REFILL: "drew",
    DrawReason.EMPTY_HAND: "emptied the hand and drew",
}


def _player(seat: int) -> str:
    return f"Player {seat}"


def _from(from_discard: bool) -> str:
    return " from the discard pile" if from_discard else ""


def event_text(event: Event) -> str:  # noqa: PLR0911 - one short sentence per event type
    """One sentence for an event, cards in notation (empty for an ordinary end of turn)."""
    if isinstance(event, ev.TurnStarted):
        return f"{_player(event.seat)}'s turn (turn {event.turn_number})."
    if isinstance(event, ev.TurnSkipped):
        return f"{_player(event.seat)} is skipped."
    if isinstance(event, ev.Reshuffled):
        return f"The pool ({event.card_count} cards) is shuffled into a new draw pile."
    if isinstance(event, ev.CardsDrawn):
        shown = f": {', '.join(map(card_text, event.cards))}" if event.cards else ""
        plural = "card" if event.count == 1 else "cards"
        return f"{_player(event.seat)} {_DRAWN[event.reason]} {event.count} {plural}{shown}."
    if isinstance(event, ev.CardPlayed):
        where = f"{COLOUR_NAMES[event.colour]} pile {event.pile + 1}"
        return (
            f"{_player(event.seat)} plays {card_text(event.card)}{_from(event.from_discard)} "
            f"on {where} (now {event.pile_count})."
        )
    if isinstance(event, ev.SkipPlayed | ev.ReversePlayed):
        name = "a Skip" if isinstance(event, ev.SkipPlayed) else "a Reverse"
        return f"{_player(event.seat)} plays {name}{_from(event.from_discard)}."
    if isinstance(event, ev.CardStolen):
        return (
            f"{_player(event.seat)} steals {card_text(event.stolen)} from "
            f"{_player(event.victim)}'s discard pile."
        )
    if isinstance(event, ev.ChipStolen):
        colour = COLOUR_NAMES[event.colour]
        return f"{_player(event.seat)} steals a {colour} chip from {_player(event.victim)}."
    return _late_event_text(event)


def _late_event_text(event: Event) -> str:  # noqa: PLR0911 - one short sentence per event type
    if isinstance(event, ev.BlockWindowOpened):
        colour = COLOUR_NAMES[event.colour]
        return f"{_player(event.completer)} completes a {colour} sequence; opponents may block."
    if isinstance(event, ev.BlockAnswered):
        answer = {None: "answers", True: "answers block", False: "answers pass"}[event.blocked]
        return f"{_player(event.seat)} {answer}."
    if isinstance(event, ev.PileBlocked):
        return (
            f"{_player(event.blocker)} blocks! The {COLOUR_NAMES[event.colour]} sequence is lost."
        )
    if isinstance(event, ev.PileCompleted):
        return f"The {COLOUR_NAMES[event.colour]} sequence goes to the pool."
    if isinstance(event, ev.ChipTaken):
        colour = COLOUR_NAMES[event.colour]
        if event.taken:
            return f"{_player(event.seat)} takes a {colour} chip."
        return f"No {colour} chip is left in the supply for {_player(event.seat)}."
    if isinstance(event, ev.Discarded):
        return f"{_player(event.seat)} discards {card_text(event.card)}."
    if isinstance(event, ev.TurnEnded):
        return "" if event.discarded else f"{_player(event.seat)} ends the turn with no cards."
    if isinstance(event, ev.GameEnded):
        if event.winner is not None:
            return f"{_player(event.winner)} wins!"
        return f"The game ends with no winner ({event.reason.replace('_', ' ')})."
    raise TypeError(f"not an event: {event!r}")


def ansi_text(state: State | None, seat: int | None) -> str:
    """What an adapter's ``render()`` shows in ``ansi`` mode: the view of ``seat``
    (None: a spectator's), or how to start when there is no game yet."""
    if state is None:
        return "no game yet: call reset()"
    return view_text(observe(state, seat))
