"""Why an action is illegal during a turn, and the list of legal action ids (R14-R30, R38)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import (
    BLOCK_ID,
    END_ID,
    PASS_ID,
    Action,
    ActionType,
    action_space,
)
from .cards import (
    CARD_KIND,
    COLOUR_NAMES,
    COLOURED_KINDS,
    COLOURS,
    KIND_COUNT,
    Kind,
    kind_colour,
    kind_rank,
    kind_text,
)
from .errors import IllegalActionError, IllegalCode, shown
from .settings import Settings
from .state import BLOCK_WINDOW, OVER, PLAYING, State

__all__ = [
    "check_fields",
    "check_play_phase",
    "checked_action",
    "chips_needed",
    "hand_has",
    "legal_action_ids",
    "meets_win_condition",
    "opponents_in_turn_order",
]


_ANSWERS: Final = (ActionType.PASS, ActionType.BLOCK)


def checked_action(state: State, seat: object, action: object) -> tuple[int, Action]:
    """Return ``(seat, action)`` if ``seat`` may take ``action`` now; otherwise raise
    IllegalActionError naming the rule it breaks (R37).

    The seat and the action are typed ``object``: callers (servers, records) may pass
    anything, and a compiled signature would refuse a wrong type with a bare TypeError
    before these checks could name the rule.
    """
    legal = check_fields(action)
    number = _check_seat(state, seat)
    if state.phase == OVER:
        raise IllegalActionError("R32", "the game is over", code=IllegalCode.GAME_OVER)
    if state.phase == BLOCK_WINDOW:
        _check_window(state, number, legal)
    elif legal.type in _ANSWERS:
        raise IllegalActionError(
            "R29",
            "Block and pass answer a Block window, and none is open",
            code=IllegalCode.NO_BLOCK_WINDOW,
        )
    elif number != state.current:
        raise IllegalActionError(
            "R20",
            f"it is seat {state.current}'s turn, not seat {number}'s",
            code=IllegalCode.NOT_YOUR_TURN,
            params={"player": state.current},
        )
    else:
        check_play_phase(state, number, legal)
    return number, legal


def _check_seat(state: State, seat: object) -> int:
    """R37: callers (servers, records) may pass anything as a seat."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise IllegalActionError(
            "R37", f"there is no seat {seat!r} in this game", code=IllegalCode.NOT_A_SEAT
        )
    if not 0 <= seat < state.player_count:
        raise IllegalActionError(
            "R37",
            f"there is no seat {seat!r} in this game",
            code=IllegalCode.NO_SUCH_SEAT,
            params={"seat": seat},
        )
    return seat


def _check_window(state: State, seat: int, action: Action) -> None:
    if action.type not in _ANSWERS:
        raise IllegalActionError(
            "R29",
            "a Block window is open: the asked opponents must answer block or pass first",
            code=IllegalCode.WINDOW_OPEN,
        )
    if seat not in state.window_pending:
        if seat == state.window_completer:
            raise IllegalActionError(
                "R29",
                "a player cannot block their own sequence",
                code=IllegalCode.OWN_SEQUENCE,
            )
        raise IllegalActionError(
            "R29",
            f"seat {seat} has already answered this Block window",
            code=IllegalCode.ALREADY_ANSWERED,
        )
    if action.type == ActionType.BLOCK and not hand_has(state, seat, Kind.BLOCK):
        raise IllegalActionError(
            "R29",
            "a Block is played from the hand, and there is none in it",
            code=IllegalCode.NO_BLOCK_CARD,
        )


def check_play_phase(state: State, seat: int, action: Action) -> None:
    """Raise IllegalActionError if the turn owner ``seat`` may not take ``action``."""
    kind_type = action.type
    if kind_type == ActionType.END:
        if state.hands[seat]:
            raise IllegalActionError(
                "R19",
                "you still hold cards: end the turn by discarding one",
                code=IllegalCode.HAND_NOT_EMPTY,
            )
        return
    kind = action.kind
    assert kind is not None  # every other type names a card (Action is well formed)
    if kind_type == ActionType.DISCARD:
        if not hand_has(state, seat, kind):
            raise IllegalActionError(
                "R19",
                f"you hold no {kind_text(kind)} to discard",
                code=IllegalCode.NOTHING_TO_DISCARD,
                params={"kind": int(kind)},
            )
        return
    if kind_type == ActionType.PLAY:
        _check_pile_number(state, kind, action.pile)
    _check_source(state, seat, action)
    if kind_type == ActionType.PLAY:
        _check_target(state, action)
    elif kind_type == ActionType.STEAL_CARD:
        _check_steal_card(state, seat, action)
    elif kind_type == ActionType.STEAL_CHIP:
        _check_steal_chip(state, seat, action)


def check_fields(action: object) -> Action:
    """Refuse anything that is not an Action (R37); an Action is always well formed."""
    if not isinstance(action, Action):
        raise IllegalActionError(
            "R37", f"{shown(action)} is not an action", code=IllegalCode.NOT_AN_ACTION
        )
    return action


def _check_pile_number(state: State, kind: int, pile: int | None) -> None:
    """R9: a pile number names one of the ``piles_per_colour`` piles of the card's colour."""
    per_colour = state.settings.piles_per_colour
    if pile is not None and not 0 <= pile < per_colour:
        colour = kind_colour(kind)
        name = COLOUR_NAMES[colour]
        piles = f"{per_colour} {name} pile" + ("" if per_colour == 1 else "s")
        raise IllegalActionError(
            "R37",
            f"there is no {name} pile {shown(pile + 1)}: this game has {piles} "
            f"(piles_per_colour={per_colour}, R9), numbered from 1",
            code=IllegalCode.NO_SUCH_PILE,
            params={"pile": (colour, pile), "colour": colour, "count": per_colour},
        )


def _check_source(state: State, seat: int, action: Action) -> None:
    kind = action.kind
    assert kind is not None
    name = kind_text(kind)
    if action.from_discard:
        pile = state.discards[seat]
        if not pile or CARD_KIND[pile[-1]] != kind:
            raise IllegalActionError(
                "R14",
                f"the top of your discard pile is not a {name}",
                code=IllegalCode.NOT_ON_DISCARD_TOP,
                params={"kind": int(kind)},
            )
    elif not hand_has(state, seat, kind):
        raise IllegalActionError(
            "R14", f"you hold no {name}", code=IllegalCode.NO_SUCH_CARD, params={"kind": int(kind)}
        )


def _check_target(state: State, action: Action) -> None:
    assert action.kind is not None
    colour = kind_colour(action.kind)
    rank = kind_rank(action.kind)
    per_colour = state.settings.piles_per_colour
    piles = state.piles[colour * per_colour : (colour + 1) * per_colour]
    colour_name = COLOUR_NAMES[colour]
    if action.pile is None:
        if rank not in (0, 1):
            raise IllegalActionError(
                "R15",
                "a new sequence pile starts with a 1 or a wild",
                code=IllegalCode.NEW_PILE_NEEDS_ONE,
            )
        if all(piles):
            raise IllegalActionError(
                "R9",
                f"there are already {per_colour} {colour_name} piles; finish one first",
                code=IllegalCode.NO_FREE_PILE,
                params={"colour": colour, "count": per_colour},
            )
        return
    pile = piles[action.pile]
    where = f"{colour_name} pile {action.pile + 1}"
    if not pile:
        raise IllegalActionError(
            "R15",
            f"{where} is empty: start a new pile with a 1 or a wild",
            code=IllegalCode.PILE_EMPTY,
            params={"pile": (colour, action.pile)},
        )
    if rank not in (0, len(pile) + 1):
        needed = len(pile) + 1
        raise IllegalActionError(
            "R15",
            f"{where} needs a {needed} (or a {colour_name} wild)",
            code=IllegalCode.PILE_NEEDS,
            params={"pile": (colour, action.pile), "rank": needed, "colour": colour},
        )


def _check_victim(state: State, seat: int, victim: int | None, rule_id: str) -> int:
    assert victim is not None  # a steal names its victim (Action is well formed)
    if not 0 <= victim < state.player_count or victim == seat:
        raise IllegalActionError(
            rule_id,
            f"seat {victim} is not one of your opponents",
            code=IllegalCode.NOT_AN_OPPONENT,
            params={"seat": victim},
        )
    return victim


def _check_steal_card(state: State, seat: int, action: Action) -> None:
    victim = _check_victim(state, seat, action.victim, "R25")
    if not state.discards[victim]:
        raise IllegalActionError(
            "R30",
            f"seat {victim}'s discard pile is empty: nothing to steal",
            code=IllegalCode.DISCARD_EMPTY,
            params={"victim": victim},
        )


def _check_steal_chip(state: State, seat: int, action: Action) -> None:
    victim = _check_victim(state, seat, action.victim, "R28")
    colour = action.colour
    assert colour is not None  # a Steal-a-Chip names a colour (Action is well formed)
    if state.chips[victim][colour] < 1:
        raise IllegalActionError(
            "R30",
            f"seat {victim} has no {COLOUR_NAMES[colour]} chip",
            code=IllegalCode.NO_CHIP,
            params={"victim": victim, "colour": colour},
        )
    if not state.settings.steal_chip_can_win and _would_win(state, seat, colour):
        raise IllegalActionError(
            "R28", "Steal-a-Chip cannot be used to win", code=IllegalCode.STEAL_CANNOT_WIN
        )


def _would_win(state: State, seat: int, colour: int) -> bool:
    """R28: would taking one more chip of ``colour`` make ``seat`` win?"""
    blue, red = state.chips[seat]
    return meets_win_condition(state.settings, (blue + (colour == 0), red + (colour == 1)))


def chips_needed(settings: Settings, chips: Sequence[int]) -> int:
    """R31: how many more chips a seat holding ``chips`` (blue, red) needs to win:
    ``chips_to_win`` in all, at least ``min_each_colour`` of each; 0 when it has won."""
    blue, red = chips[0], chips[1]
    least = settings.min_each_colour
    short = (least - blue if blue < least else 0) + (least - red if red < least else 0)
    total = settings.chips_to_win - blue - red
    return total if total > short else short


def meets_win_condition(settings: Settings, chips: Sequence[int]) -> bool:
    """R31: does a seat holding ``chips`` (blue, red) win?"""
    return chips_needed(settings, chips) == 0


def hand_has(state: State, seat: int, kind: int) -> bool:
    """Return True if ``seat``'s hand holds a card of ``kind``."""
    return any(CARD_KIND[card] == kind for card in state.hands[seat])


def opponents_in_turn_order(state: State, seat: int) -> list[int]:
    """Return ``seat``'s opponents in the current direction, starting after it (R29)."""
    count = state.player_count
    return [(seat + state.direction * step) % count for step in range(1, count)]


def legal_action_ids(state: State, seat: int) -> list[int]:
    """Return the sorted ids of every legal action of ``seat`` now (empty if it may not
    act, R38)."""
    if state.phase is BLOCK_WINDOW:
        if seat not in state.window_pending:
            return []
        return [PASS_ID, BLOCK_ID] if hand_has(state, seat, Kind.BLOCK) else [PASS_ID]
    if state.phase is not PLAYING or seat != state.current:
        return []
    piles = state.piles
    shape = len(piles)  # the pile count, then each pile's length (0-5) in three bits
    for pile in piles:
        shape = shape << 3 | len(pile)
    cached = _IDS_BY_SHAPE.get(shape)
    by_hand, by_top = cached if cached is not None else _ids_by_kind(state, shape)
    hand = state.hands[seat]
    ids: list[int] = []
    kinds = 0  # bit k is set once the ids of kind k are in
    for card in hand:
        kind = CARD_KIND[card]
        if not kinds >> kind & 1:
            kinds |= 1 << kind
            ids.extend(by_hand[kind])
    if not hand:
        ids.append(END_ID)
    discard = state.discards[seat]
    if discard:
        kind = CARD_KIND[discard[-1]]
        ids.extend(by_top[kind])
        kinds |= 1 << (kind + KIND_COUNT)  # the top's kinds after the hand's
    if kinds & _STEALS:
        _add_steal_ids(state, seat, kinds, ids)
    ids.sort()
    return ids


KindIds = list[tuple[int, ...]]
# Kind bits of legal_action_ids: a steal card in the hand, or on top of the discard pile.
_SCARD_IN_HAND: Final = 1 << Kind.SCARD
_SCHIP_IN_HAND: Final = 1 << Kind.SCHIP
_SCARD_ON_TOP: Final = 1 << (Kind.SCARD + KIND_COUNT)
_SCHIP_ON_TOP: Final = 1 << (Kind.SCHIP + KIND_COUNT)
_STEALS: Final = _SCARD_IN_HAND | _SCHIP_IN_HAND | _SCARD_ON_TOP | _SCHIP_ON_TOP
# Shape of the pile lengths -> per kind, the ids needing no further check (hand, top).
_IDS_BY_SHAPE: Final[dict[int, tuple[KindIds, KindIds]]] = {}


def _add_steal_ids(state: State, seat: int, kinds: int, ids: list[int]) -> None:
    """Add the ids of the steal cards whose bits are set in ``kinds`` (R25, R28, R30)."""
    space = action_space(state.player_count, state.settings.piles_per_colour)
    if kinds & _SCARD_IN_HAND:
        _add_steal_card_ids(state, seat, space.steal_card_base, 0, ids)
    if kinds & _SCARD_ON_TOP:
        _add_steal_card_ids(state, seat, space.steal_card_base, 1, ids)
    if kinds & _SCHIP_IN_HAND:
        _add_steal_chip_ids(state, seat, space.steal_chip_base, 0, ids)
    if kinds & _SCHIP_ON_TOP:
        _add_steal_chip_ids(state, seat, space.steal_chip_base, 1, ids)


def _ids_by_kind(state: State, shape: int) -> tuple[KindIds, KindIds]:
    """For a shape of pile lengths: per kind, the ids needing no further check.

    The first list is for a card held in the hand (its discard id included), the second
    for the same kind on top of the actor's discard pile. These ids depend on the pile
    lengths and ``piles_per_colour`` only (not on the player count), so they are cached
    by shape: shapes are few (at most 6^(2·piles_per_colour)).
    """
    space = action_space(state.player_count, state.settings.piles_per_colour)
    targets = _targets_by_kind(tuple(map(len, state.piles)), space.piles_per_colour)
    by_hand: KindIds = []
    by_top: KindIds = []
    for kind in range(KIND_COUNT):
        for from_discard, table in ((False, by_hand), (True, by_top)):
            offset = 1 if from_discard else 0
            ids = [] if from_discard else [space.discard_base + kind]
            if kind < len(COLOURED_KINDS):
                ids.extend(space.play_id(from_discard, kind, t) for t in targets[kind])
            elif kind == Kind.SKIP:
                ids.append(space.skip_base + offset)
            elif kind == Kind.REV:
                ids.append(space.reverse_base + offset)
            table.append(tuple(ids))
    _IDS_BY_SHAPE[shape] = (by_hand, by_top)
    return by_hand, by_top


def _targets_by_kind(shape: tuple[int, ...], per_colour: int) -> list[list[int]]:
    """For each coloured kind, the pile targets (index, or P for new) it may go on."""
    result: list[list[int]] = []
    for colour in COLOURS:
        lengths = shape[colour * per_colour : (colour + 1) * per_colour]
        by_rank: list[list[int]] = [[] for _ in range(6)]
        wild: list[int] = []
        for index, length in enumerate(lengths):
            if 0 < length < 5:
                by_rank[length + 1].append(index)
                wild.append(index)
        if not all(lengths):
            by_rank[1].append(per_colour)
            wild.append(per_colour)
        result.extend([by_rank[1], by_rank[2], by_rank[3], by_rank[4], by_rank[5], wild])
    return result


def _add_steal_card_ids(state: State, seat: int, base: int, offset: int, ids: list[int]) -> None:
    """Add a Steal-a-Card's ids: one per opponent whose discard pile holds a card (R30)."""
    count = state.player_count
    discards = state.discards
    first = base + offset * (count - 1) - 1  # the id of victim offset 1 is first + 1
    ids.extend([first + step for step in range(1, count) if discards[(seat + step) % count]])


def _add_steal_chip_ids(state: State, seat: int, base: int, offset: int, ids: list[int]) -> None:
    """Add a Steal-a-Chip's ids: per opponent, per colour it holds a chip of, unless
    taking that chip would win the game and the settings forbid it (R28, R30)."""
    count = state.player_count
    chips = state.chips
    can_win = state.settings.steal_chip_can_win
    blue_allowed = can_win or not _would_win(state, seat, 0)
    red_allowed = can_win or not _would_win(state, seat, 1)
    first = base + offset * (count - 1) * 2 - 2  # victim offset 1's blue chip is first + 2
    for step in range(1, count):
        pair = chips[(seat + step) % count]
        if pair[0] and blue_allowed:
            ids.append(first + step * 2)
        if pair[1] and red_allowed:
            ids.append(first + step * 2 + 1)
