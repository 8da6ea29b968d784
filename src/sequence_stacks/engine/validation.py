"""Is a state possible? Conservation, zones, turn and window checks (R39).

:func:`validate_state` is run on every loaded position (and by test rigs); each refusal
is a :class:`PositionError` saying what is wrong, with the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARD_COLOUR, CARD_KIND, CARD_RANK, COLOUR_NAMES, Kind, card_text, deck_for
from .errors import PositionError, shown
from .state import AWAITING, BLOCK_WINDOW, OVER, EndReason, Phase, Result, State

__all__ = ["validate_state"]


def _cards(cards: Sequence[int]) -> str:
    """Name up to eight cards, and how many more there are."""
    names = ", ".join(card_text(card) for card in cards[:8])
    more = f" and {len(cards) - 8} more" if len(cards) > 8 else ""
    return f"[{names}{more}]"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def validate_state(state: State) -> None:
    """Raise PositionError unless the state obeys conservation and the zone rules (R39)."""
    settings = state.settings
    deck = deck_for(settings.player_count, keep_two_player_reverses=settings.two_player_reverses)
    cards = state.cards_in_play()
    if sorted(cards) != list(deck):
        missing = sorted(set(deck) - set(cards))
        extra = sorted(c for c in set(cards) if cards.count(c) > 1 or c not in deck)
        raise PositionError(
            f"cards are not conserved (R39): missing {_cards(missing)}, duplicated or foreign "
            f"{_cards(extra)}"
        )
    _validate_chips(state)
    phase: object = state.phase  # built by callers that may not be type-checked
    if type(phase) is not Phase:
        raise PositionError(f"phase must be a Phase, not {shown(phase)}")
    if state.phase == BLOCK_WINDOW:
        _validate_window(state)
    _validate_piles(state)
    _validate_turn(state)
    _validate_epochs(state)


def _validate_chips(state: State) -> None:
    if any(value < 0 for pair in state.chips for value in pair) or min(state.supply) < 0:
        raise PositionError("chip counts cannot be negative (R39)")
    limit = state.settings.chip_supply
    for colour, name in enumerate(COLOUR_NAMES):
        held = sum(pair[colour] for pair in state.chips)
        if limit is not None and held + state.supply[colour] != limit:
            raise PositionError(
                f"{name} chips are not conserved (R39): {shown(held)} held + "
                f"{shown(state.supply[colour])} in the supply != {limit}"
            )


def _validate_piles(state: State) -> None:
    per_colour = state.settings.piles_per_colour
    for slot, pile in enumerate(state.piles):
        colour = slot // per_colour
        name = f"{COLOUR_NAMES[colour]} pile {slot % per_colour + 1}"
        longest = 5 if state.phase == BLOCK_WINDOW and slot == state.window_slot else 4
        if len(pile) > longest:
            raise PositionError(
                f"{name} holds {len(pile)} cards; a pile leaves play once it has 5 (R17)"
            )
        for place, card in enumerate(pile):
            if CARD_COLOUR[card] != colour or CARD_RANK[card] not in (0, place + 1):
                raise PositionError(
                    f"{card_text(card)} cannot be card {place + 1} of {name} (R15, R16)"
                )


def _validate_turn(state: State) -> None:
    count = state.player_count
    settings = state.settings
    for seat, known in enumerate(state.known):
        if not set(known) <= set(state.hands[seat]) or len(set(known)) != len(known):
            raise PositionError(f"known[{seat}] names cards not in that hand, or twice (N11)")
    deck = deck_for(count, keep_two_player_reverses=settings.two_player_reverses)
    skips = sum(1 for card in deck if CARD_KIND[card] == Kind.SKIP)
    checks = [
        (state.direction in (1, -1), "direction must be 1 or -1 (R27)"),
        (0 <= state.current < count, f"current must be a seat 0-{count - 1}"),
        (
            0 <= state.pending_skips <= skips,
            f"pending_skips must be 0-{skips}: one per Skip played this turn (R26)",
        ),
        (state.turn_actions >= 0, "turn_actions cannot be negative (N17)"),
        (0 <= state.stall_mask < 1 << count, f"stall_mask must be 0-{(1 << count) - 1} (N7)"),
        (
            0 <= state.turn_count <= settings.max_turns,
            f"turn_count must be 0-{settings.max_turns} (max_turns, R33)",
        ),
        (
            (state.phase == OVER) == (state.result is not None),
            "result is given exactly when phase is 'over'",
        ),
    ]
    for ok, message in checks:
        if not ok:
            raise PositionError(message)
    if state.result is not None:
        _validate_result(state.result, count)


def _validate_epochs(state: State) -> None:
    """R22, N13: shuffle numbers are the ones the turns so far could have made."""
    shuffles = state.shuffle_count
    most = 1 + max(state.turn_count, 1) * state.settings.max_turn_actions
    if not 1 <= shuffles <= most:
        raise PositionError(
            f"shuffle_count must be 1-{most}: the deal is shuffle 1, and each reshuffle "
            "needs a completed pile (R22)"
        )
    for card, epoch in enumerate(state.card_epoch):
        if not 0 <= epoch < shuffles:
            raise PositionError(
                f"card_epoch of {card_text(card)} is {shown(epoch)}: shuffles 0-{shuffles - 1} "
                "have been made (shuffle_count)"
            )
    for card in state.draw:
        if state.card_epoch[card] != shuffles - 1:
            raise PositionError(
                f"the draw pile holds {card_text(card)} from shuffle {state.card_epoch[card]}, "
                f"but the draw pile is shuffle {shuffles - 1} (card_epoch, N13)"
            )


def _validate_result(result: Result, count: int) -> None:
    winner: object = result.winner  # built by a caller: may be anything
    winner_ok = winner is None or (isinstance(winner, int) and not isinstance(winner, bool))
    if not winner_ok or (result.winner is None) != (result.reason != EndReason.WIN):
        raise PositionError("a result names a winning seat exactly when its reason is 'win'")
    if result.winner is not None and not 0 <= result.winner < count:
        raise PositionError(f"result winner {shown(result.winner)} is not a seat")
    if result != Result.of(result.reason, result.winner, count):
        raise PositionError(
            f"result returns {shown(list(result.returns))} are not the standard vector: "
            "+1 for the winner, -1/(players - 1) for the others, 0 for all with no winner"
        )


def _validate_window(state: State) -> None:
    """R29: a full pile, its completer, and every opponent asked or answered, once."""
    _validate_window_pile(state)
    count = state.player_count
    completer = state.window_completer
    pending = state.window_pending
    answered = {s for s, a in enumerate(state.window_answers) if a != AWAITING}
    opponents = set(range(count)) - {completer}
    consistent = (
        0 <= completer < count
        and bool(pending)
        and len(set(pending)) == len(pending)
        and not set(pending) & answered
        and completer not in answered
        and set(pending) | answered == opponents
    )
    if not consistent:
        raise PositionError(
            "the Block window needs a completer, and every opponent either still asked "
            "(window.pending) or answered (window.answers), once (R29)"
        )


def _validate_window_pile(state: State) -> None:
    """R17, R29: ``window.slot`` is the slot of the 5-card pile just completed."""
    per_colour = state.settings.piles_per_colour
    slot = state.window_slot
    slots = len(state.piles)
    if not 0 <= slot < slots:
        raise PositionError(
            f"window.slot {shown(slot)} is not a pile slot: this game has slots 0-{slots - 1}, "
            f"blue first ({per_colour} of each colour, R9)"
        )
    pile = state.piles[slot]
    if len(pile) != 5:
        name = f"{COLOUR_NAMES[slot // per_colour]} pile {slot % per_colour + 1}"
        raise PositionError(
            f"window.slot {slot} is {name}, which holds {_count(len(pile), 'card')}: a Block "
            "window is open on a completed 5-card pile (R17, R29)"
        )
