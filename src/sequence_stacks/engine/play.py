"""Performing actions: the state changes of every rule (RULES §4-§6), and dealing.

The engine's hot path, compiled by mypyc when the install can (README, "The compiled
engine"). Everything here but :func:`apply_in_place` trusts its caller:
:func:`apply_in_place` checks first (:func:`~.legality.checked_action`) unless the
caller promises, with ``checked=False``. Events are built only when a list to fill is
given.
"""

from __future__ import annotations

from typing import Final

from .actions import Action, ActionType
from .cards import CARD_COLOUR, CARD_KIND, Kind, deck_for
from .events import (
    BlockAnswered,
    BlockWindowOpened,
    CardPlayed,
    CardsDrawn,
    CardStolen,
    ChipStolen,
    ChipTaken,
    Discarded,
    DrawReason,
    Event,
    GameEnded,
    PileBlocked,
    PileCompleted,
    Reshuffled,
    ReversePlayed,
    SkipPlayed,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from .legality import checked_action, meets_win_condition, opponents_in_turn_order
from .rng import Seed, seeded_shuffle
from .settings import Settings
from .state import (
    AWAITING,
    BLOCK_WINDOW,
    BLOCKED,
    OVER,
    PASSED,
    PLAYING,
    EndReason,
    Result,
    State,
)

__all__ = ["apply_in_place", "pass_window", "perform", "start_game"]

Events = list[Event] | None
# Read at every turn's start: a module global is read ten times faster than an enum member.
_REFILL: Final = DrawReason.REFILL
_EMPTY_HAND: Final = DrawReason.EMPTY_HAND
# The action types as module names for the same reason (an Action's type is a member).
_BLOCK: Final = ActionType.BLOCK
_END: Final = ActionType.END
_DISCARD: Final = ActionType.DISCARD
_PLAY: Final = ActionType.PLAY
_SKIP: Final = ActionType.SKIP
_REVERSE: Final = ActionType.REVERSE
_STEAL_CARD: Final = ActionType.STEAL_CARD


def start_game(settings: Settings, seed: Seed, events: Events = None) -> State:
    """Shuffle, deal and start the first turn (R6, R7); fill ``events`` if given."""
    state = State.empty(settings, seed)
    deck = list(
        deck_for(settings.player_count, keep_two_player_reverses=settings.two_player_reverses)
    )
    seeded_shuffle(seed, 0, deck)
    state.draw = deck
    state.shuffle_count = 1
    for offset in range(settings.player_count):
        seat = (settings.first_seat + offset) % settings.player_count
        _draw(state, seat, settings.hand_size, DrawReason.DEAL, events)
    _start_turn(state, settings.first_seat, events)
    return state


def apply_in_place(
    state: State,
    seat: object,
    action: object,
    events: list[Event] | None = None,
    *,
    checked: bool = True,
) -> None:
    """Apply ``action`` to ``state`` itself (the fast path for simulators and search).

    Checked by default, as :func:`~.rules.check` checks: an illegal action raises
    IllegalActionError (naming the rule) and leaves ``state`` unchanged (R37), whatever
    the caller passed as the seat and the action. With ``checked=False`` the caller
    promises the action came from :func:`~.legality.legal_action_ids` for that seat; an
    illegal one then corrupts the state.
    """
    if checked:
        number, legal = checked_action(state, seat, action)
        perform(state, number, legal, events)
    else:
        # The caller's promise (checked=False): compiled, the two arguments are only
        # unboxed as an int and an Action; pure Python, passed on as they are.
        perform(state, seat, action, events)  # type: ignore[arg-type]


def perform(state: State, seat: int, action: Action, ev: Events) -> None:
    """Perform a checked ``action`` of ``seat`` on ``state``; append its events to ``ev``."""
    kind = action.type
    if kind is _PLAY:
        _play_coloured(state, seat, action, ev)
    elif kind is _DISCARD:
        assert action.kind is not None
        card = _take_from_hand(state, seat, action.kind)
        state.discards[seat].append(card)
        if ev is not None:
            ev.append(Discarded(seat, card))
        _end_turn(state, seat, ev, discarded=True)
    elif kind is _END:
        _end_turn(state, seat, ev, discarded=False)
    elif kind <= _BLOCK:
        _answer_window(state, seat, kind is _BLOCK, ev)
    else:
        _play_action_card(state, seat, action, ev)
    if kind >= _PLAY:  # a card played by the turn owner (not the ending discard)
        _count_turn_action(state, ev)


def _count_turn_action(state: State, ev: Events) -> None:
    """N17: a turn that reaches ``max_turn_actions`` plays ends the game, no winner."""
    state.turn_actions += 1
    if state.turn_actions >= state.settings.max_turn_actions and state.phase is PLAYING:
        _end_game(state, EndReason.MAX_TURN_ACTIONS, None, ev)


def _take_from_hand(state: State, seat: int, kind: int) -> int:
    """Remove and return a card of ``kind`` from the hand (N1).

    A publicly known card of that kind is spent first, so which copy leaves the hand
    never tells the other seats anything about the hidden ones (R36); otherwise the
    first card of that kind in hand order.
    """
    hand = state.hands[seat]
    known = state.known[seat]
    for card in known:
        if CARD_KIND[card] == kind:
            known.remove(card)
            hand.remove(card)
            return card
    for index, card in enumerate(hand):
        if CARD_KIND[card] == kind:
            del hand[index]
            return card
    raise AssertionError("checked action names a card the hand does not hold")


def _take_card(state: State, seat: int, action: Action) -> int:
    if action.from_discard:
        return state.discards[seat].pop()
    assert action.kind is not None
    return _take_from_hand(state, seat, action.kind)


def _play_coloured(state: State, seat: int, action: Action, ev: Events) -> None:
    card = _take_card(state, seat, action)
    colour = CARD_COLOUR[card]
    per_colour = state.settings.piles_per_colour
    if action.pile is None:
        slot = next(
            s for s in range(colour * per_colour, (colour + 1) * per_colour) if not state.piles[s]
        )
    else:
        slot = colour * per_colour + action.pile
    pile = state.piles[slot]
    pile.append(card)
    state.stall_mask = 0  # R33, N7: a card played to a pile restarts the round
    if ev is not None:
        ev.append(
            CardPlayed(
                seat, card, action.from_discard, colour, slot - colour * per_colour, len(pile)
            )
        )
    if len(pile) == 5:
        _open_window(state, seat, slot, ev)
    else:
        _after_own_play(state, seat, ev)


def _play_action_card(state: State, seat: int, action: Action, ev: Events) -> None:
    card = _take_card(state, seat, action)
    state.special.append(card)
    kind = action.type
    source = action.from_discard
    if kind is _SKIP:
        state.pending_skips += 1
        if ev is not None:
            ev.append(SkipPlayed(seat, card, source, state.pending_skips))
    elif kind is _REVERSE:
        if state.player_count > 2:  # R30: with two players a Reverse has no effect
            state.direction = -state.direction
        if ev is not None:
            ev.append(ReversePlayed(seat, card, source, state.direction))
    elif kind is _STEAL_CARD:
        assert action.victim is not None
        stolen = state.discards[action.victim].pop()
        state.hands[seat].append(stolen)
        state.known[seat].append(stolen)
        if ev is not None:
            ev.append(CardStolen(seat, card, source, action.victim, stolen))
    else:
        assert action.victim is not None
        assert action.colour is not None
        state.chips[action.victim][action.colour] -= 1
        state.chips[seat][action.colour] += 1
        if ev is not None:
            ev.append(ChipStolen(seat, card, source, action.victim, action.colour))
        if _has_won(state, seat):  # only reachable with steal_chip_can_win=true (R28, R32)
            _end_game(state, EndReason.WIN, seat, ev)
            return
    _after_own_play(state, seat, ev)


def _after_own_play(state: State, seat: int, ev: Events) -> None:
    """R18: a hand emptied during its owner's turn draws a fresh hand at once."""
    if not state.hands[seat] and state.phase is PLAYING:
        _draw(state, seat, state.settings.hand_size, _EMPTY_HAND, ev)


# --- the Block window (R17, R29) --------------------------------------------------------


def _open_window(state: State, completer: int, slot: int, ev: Events) -> None:
    count = state.player_count
    asked = opponents_in_turn_order(state, completer)
    state.phase = BLOCK_WINDOW
    state.window_slot = slot
    state.window_completer = completer
    state.window_pending = asked
    state.window_answers = [AWAITING] * count
    if ev is not None:
        per_colour = state.settings.piles_per_colour
        colour = slot // per_colour
        ev.append(BlockWindowOpened(completer, colour, slot - colour * per_colour, tuple(asked)))


def pass_window(state: State) -> None:
    """Answer an open Block window with a pass from every asked seat, in turn order, in
    place (R29): how a search plans its own turn. Does nothing when no window is open."""
    while state.phase is BLOCK_WINDOW:
        _answer_window(state, state.window_pending[0], False, None)


def _answer_window(state: State, seat: int, blocked: bool, ev: Events) -> None:
    state.window_pending.remove(seat)
    state.window_answers[seat] = BLOCKED if blocked else PASSED
    if ev is not None:
        ev.append(BlockAnswered(seat, blocked))
    if not state.window_pending:
        _close_window(state, ev)


def _close_window(state: State, ev: Events) -> None:
    completer = state.window_completer
    slot = state.window_slot
    count = state.player_count
    per_colour = state.settings.piles_per_colour
    colour = slot // per_colour
    cards = state.piles[slot]
    state.piles[slot] = []
    state.pool.extend(cards)
    answers = state.window_answers
    order = opponents_in_turn_order(state, completer)
    blocker = next((s for s in order if answers[s] == BLOCKED), None)
    state.phase = PLAYING
    state.window_slot = -1
    state.window_completer = -1
    state.window_answers = [AWAITING] * count
    if blocker is not None:
        block_card = _take_from_hand(state, blocker, Kind.BLOCK)
        state.special.append(block_card)
        if ev is not None:
            ev.append(
                PileBlocked(blocker, block_card, colour, slot - colour * per_colour, tuple(cards))
            )
    else:
        if ev is not None:
            ev.append(PileCompleted(completer, colour, slot - colour * per_colour, tuple(cards)))
        if _take_chip(state, completer, colour, ev):
            return
    _after_own_play(state, completer, ev)


def _take_chip(state: State, seat: int, colour: int, ev: Events) -> bool:
    """R17: take a chip of ``colour`` if the supply has one; return True if it wins."""
    unlimited = state.settings.chip_supply is None
    taken = unlimited or state.supply[colour] > 0
    if taken:
        if not unlimited:
            state.supply[colour] -= 1
        state.chips[seat][colour] += 1
    if ev is not None:
        ev.append(ChipTaken(seat, colour, taken))
    if taken and _has_won(state, seat):
        _end_game(state, EndReason.WIN, seat, ev)
        return True
    return False


def _has_won(state: State, seat: int) -> bool:
    """R31: does ``seat`` hold enough chips of each colour to win?"""
    return meets_win_condition(state.settings, state.chips[seat])


def _end_game(state: State, reason: EndReason, winner: int | None, ev: Events) -> None:
    state.phase = OVER
    state.result = Result.of(reason, winner, state.player_count)
    if ev is not None:
        ev.append(GameEnded(reason, winner, state.result.returns))


# --- turns ------------------------------------------------------------------------


def _end_turn(state: State, seat: int, ev: Events, *, discarded: bool) -> None:
    if ev is not None:
        ev.append(TurnEnded(seat, discarded))
    count = state.player_count
    # R33, N7: every seat has had a turn with nothing to draw and no card played to a pile.
    if state.draw or state.pool:
        state.stall_mask = 0
    elif state.stall_mask == (1 << count) - 1:
        _end_game(state, EndReason.STALEMATE, None, ev)
        return
    if state.turn_count >= state.settings.max_turns:
        _end_game(state, EndReason.MAX_TURNS, None, ev)
        return
    # R20, R26: pass in the current direction, passing over one seat per pending Skip.
    seat_next = seat
    for _ in range(state.pending_skips):
        seat_next = (seat_next + state.direction) % count
        if ev is not None:
            ev.append(TurnSkipped(seat_next))
    state.pending_skips = 0
    _start_turn(state, (seat_next + state.direction) % count, ev)


def _start_turn(state: State, seat: int, ev: Events) -> None:
    """R13: refill to the hand size (or, without refills, draw on an empty hand).

    With nothing left to draw the seat is then marked towards a stalemate (R33, N7); a
    card played to a sequence pile this turn clears the mark with all the others.
    """
    state.current = seat
    state.turn_count += 1
    state.turn_actions = 0
    if ev is not None:
        ev.append(TurnStarted(seat, state.turn_count))
    hand_size = state.settings.hand_size
    missing = hand_size - len(state.hands[seat])
    if state.settings.refill_at_turn_start:
        if missing > 0:
            _draw(state, seat, missing, _REFILL, ev)
    elif missing == hand_size:
        _draw(state, seat, hand_size, _EMPTY_HAND, ev)
    if not state.draw and not state.pool:  # N7: marked until a card is played to a pile
        state.stall_mask |= 1 << seat


def _draw(state: State, seat: int, count: int, reason: DrawReason, ev: Events) -> None:
    """Draw up to ``count`` cards, reshuffling the pool when the pile runs out (R21, R22)."""
    hand = state.hands[seat]
    draw = state.draw
    if 0 < count <= len(draw):  # the common case: no reshuffle needed
        drawn = draw[-count:]
        drawn.reverse()
        del draw[-count:]
        hand.extend(drawn)
        if ev is not None:
            ev.append(CardsDrawn(seat, count, tuple(drawn), reason))
        return
    drawn = []
    for _ in range(count):
        if not draw:
            if not state.pool:
                break
            draw = _reshuffle(state, ev)
        drawn.append(draw.pop())
    hand.extend(drawn)
    if ev is not None:
        ev.append(CardsDrawn(seat, len(drawn), tuple(drawn), reason))


def _reshuffle(state: State, ev: Events) -> list[int]:
    pile = state.pool
    state.pool = []
    epoch = state.shuffle_count
    seeded_shuffle(state.seed, epoch, pile)
    card_epoch = state.card_epoch
    for card in pile:
        card_epoch[card] = epoch
    state.shuffle_count = epoch + 1
    state.draw = pile
    if ev is not None:
        ev.append(Reshuffled(epoch, len(pile)))
    return pile
