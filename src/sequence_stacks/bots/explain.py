"""Why a move is good, as data: :func:`explain` gives the reason for a hint in one sentence.

:func:`explain(view, action) <explain>` looks at what ``action`` does in ``view`` (the
seat's own view: nothing hidden is read, R36) and returns an :class:`Explanation`: a
:class:`Reason` and the fields its message needs (a card kind, a colour, a pile, a
count, a seat). The i18n messages ``hint.reason.<reason>`` (one per colour where a
colour word comes before a noun: ``hint.reason.completes.blue``) turn it into words in
every language; :meth:`Explanation.message_key` names the message and
:meth:`Explanation.args` gives its placeholders' raw values.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, Final

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    Kind,
    View,
    chips_needed,
    kind_colour,
    kind_rank,
)

from .heuristic import stacks_on, window_chip_needs

__all__ = ["Explanation", "Reason", "explain"]

_PER_COLOUR: Final = frozenset({"steals_chip"})


class Reason(enum.StrEnum):
    """Why a move is worth making (each has the message ``hint.reason.<value>``)."""

    WINS = "wins"  # completes a pile whose chip wins the game (R31)
    COMPLETES = "completes"  # completes a pile: a chip of its colour (R17)
    STEALS_CHIP = "steals_chip"  # takes a chip from the player closest to winning (R28)
    BLOCKS_WIN = "blocks_win"  # a Block that stops the winning chip (R29)
    BLOCKS = "blocks"  # a Block that stops a chip bringing a player close to winning
    KEEPS_BLOCK = "keeps_block"  # passing while holding a Block: kept for when it matters
    PASSES = "passes"  # passing without a Block in hand
    EXTRA_TURN = "extra_turn"  # a Skip with two players: another turn (R26)
    SKIPS_NEXT = "skips_next"  # a Skip: the next player misses a turn (R23)
    REVERSES = "reverses"  # a Reverse: play turns around (R24)
    STEALS_CARD = "steals_card"  # takes a card that fits a pile (R25)
    TAKES_CARD = "takes_card"  # takes a card from a discard pile (R25)
    STARTS_PILE = "starts_pile"  # starts a new pile (R15, R16)
    BUILDS_PILE = "builds_pile"  # adds to a pile
    FROM_DISCARD = "from_discard"  # plays the top of its own discard pile (R14)
    AVOIDS_FEEDING = "avoids_feeding"  # stops before leaving a pile the next player completes
    STACKS_DISCARD = "stacks_discard"  # a discard that fits just below the old top, for later
    KEEPS_USEFUL = "keeps_useful"  # discards the least useful card, keeps the rest
    ENDS_TURN = "ends_turn"  # nothing left to do (R19)


@dataclasses.dataclass(frozen=True, slots=True)
class Explanation:
    """A move's reason and the facts its sentence names.

    Attributes:
        reason: why.
        card: the card kind the move plays, discards or takes (None if none).
        colour: the colour the sentence names (a pile's or a chip's), or None.
        pile: the pile's number within its colour, from 1 (None for none or a new one).
        count: the pile's length after the move, or a chip count.
        seat: the other player the sentence names (a victim, a blocker, the next
            player), or None.
    """

    reason: Reason
    card: Kind | None = None
    colour: int | None = None
    pile: int | None = None
    count: int | None = None
    seat: int | None = None

    def message_key(self) -> str:
        """The i18n message of this explanation (``hint.reason.<reason>[.<colour>]``)."""
        key = f"hint.reason.{self.reason.value}"
        if self.reason.value in _PER_COLOUR and self.colour is not None:
            key += ".blue" if self.colour == 0 else ".red"
        return key

    def args(self) -> dict[str, Any]:
        """The message's arguments as data (i18n ``words`` names them): ``player`` a
        seat, ``kind`` a card kind's index, ``pile`` (colour, index within the colour
        from 0), ``count`` a number."""
        args: dict[str, Any] = {}
        if self.seat is not None:
            args["player"] = self.seat
        if self.card is not None:
            args["kind"] = int(self.card)
        if self.pile is not None and self.colour is not None:
            args["pile"] = (self.colour, self.pile - 1)
        if self.count is not None:
            args["count"] = self.count
        return args

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Explanation:
        """Read :meth:`to_dict`'s fields (the key and arguments are derived again)."""

        def number(name: str) -> int | None:
            value = data.get(name)
            return None if value is None else int(value)

        card = number("card")
        return cls(
            Reason(data["reason"]),
            None if card is None else Kind(card),
            number("colour"),
            number("pile"),
            number("count"),
            number("seat"),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (the card as its kind index, the reason as its value), with
        the message's key and arguments (``pile`` as ``[colour, index]``)."""
        return {
            "reason": self.reason.value,
            "card": None if self.card is None else int(self.card),
            "colour": self.colour,
            "pile": self.pile,
            "count": self.count,
            "seat": self.seat,
            "key": self.message_key(),
            "args": {k: list(v) if isinstance(v, tuple) else v for k, v in self.args().items()},
        }


def explain(view: View, action: Action) -> Explanation:  # noqa: PLR0911 - one case per type
    """The reason for ``action`` in ``view`` (the seat's own view), as data."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no moves to explain")
    match action.type:
        case ActionType.BLOCK | ActionType.PASS:
            return _window(view, action.type == ActionType.BLOCK)
        case ActionType.PLAY:
            return _play(view, seat, action)
        case ActionType.SKIP:
            if view.settings.player_count == 2:
                return Explanation(Reason.EXTRA_TURN, Kind.SKIP)
            return Explanation(Reason.SKIPS_NEXT, Kind.SKIP, seat=_next_seat(view, seat, 1))
        case ActionType.REVERSE:
            return Explanation(Reason.REVERSES, Kind.REV, seat=_next_seat(view, seat, 0))
        case ActionType.STEAL_CARD:
            return _steal_card(view, action)
        case ActionType.STEAL_CHIP:
            assert action.victim is not None
            chips = view.chips[action.victim]
            return Explanation(
                Reason.STEALS_CHIP,
                Kind.SCHIP,
                colour=action.colour,
                count=chips_needed(view.settings, chips),
                seat=action.victim,
            )
        case ActionType.DISCARD:
            return _discard(view, seat, action)
        case ActionType.END:
            return Explanation(Reason.ENDS_TURN)
    raise ValueError(f"no explanation for {action}")  # pragma: no cover - every type is matched


def _window(view: View, block: bool) -> Explanation:
    completer = view.window_completer
    slot = view.window_pile
    per_colour = view.settings.piles_per_colour
    colour = None if slot is None else slot // per_colour
    pile = None if slot is None else slot % per_colour + 1
    needs = window_chip_needs(view)
    if block:
        wins = needs is not None and needs[1] == 0
        reason = Reason.BLOCKS_WIN if wins else Reason.BLOCKS
        count = None if needs is None else needs[1]
        return Explanation(reason, Kind.BLOCK, colour, pile, count, completer)
    holds = any(CARD_KIND[card] == Kind.BLOCK for card in view.hand or ())
    reason = Reason.KEEPS_BLOCK if holds else Reason.PASSES
    return Explanation(reason, None, colour, pile, None, completer)


def _play(view: View, seat: int, action: Action) -> Explanation:
    kind = action.kind
    assert kind is not None
    colour = kind_colour(kind)
    per_colour = view.settings.piles_per_colour
    if action.pile is None:
        return Explanation(Reason.STARTS_PILE, kind, colour=colour, count=1)
    length = len(view.piles[colour * per_colour + action.pile]) + 1
    pile = action.pile + 1
    if length == 5:
        chips = list(view.chips[seat])
        supply = view.supply
        if supply is None or supply[colour] > 0:
            chips[colour] += 1
            wins = chips_needed(view.settings, chips) == 0
            reason = Reason.WINS if wins else Reason.COMPLETES
            return Explanation(reason, kind, colour=colour, pile=pile, count=length)
    if action.from_discard:
        return Explanation(Reason.FROM_DISCARD, kind, colour=colour, pile=pile, count=length)
    return Explanation(Reason.BUILDS_PILE, kind, colour=colour, pile=pile, count=length)


def _steal_card(view: View, action: Action) -> Explanation:
    victim = action.victim
    assert victim is not None
    pile = view.discards[victim]
    taken = Kind(CARD_KIND[pile[-1]]) if pile else None
    if taken is not None and _fits(view, int(taken)):
        return Explanation(Reason.STEALS_CARD, taken, seat=victim)
    return Explanation(Reason.TAKES_CARD, taken, seat=victim)


def _discard(view: View, seat: int, action: Action) -> Explanation:
    kind = action.kind
    assert kind is not None
    feeding = _open_for_next(view)
    if feeding is not None and _could_extend(view, feeding):
        colour, length = feeding
        return Explanation(
            Reason.AVOIDS_FEEDING, kind, colour=colour, count=length, seat=_next_seat(view, seat, 0)
        )
    own = view.discards[seat]
    if own and stacks_on(int(kind), CARD_KIND[own[-1]]):
        return Explanation(Reason.STACKS_DISCARD, kind, count=len(own) + 1)
    return Explanation(Reason.KEEPS_USEFUL, kind)


def _fits(view: View, kind: int) -> bool:
    """Whether a card of ``kind`` could go on some pile now (R15, R16)."""
    colour = kind_colour(kind)
    if colour < 0:
        return False
    rank = kind_rank(kind)
    per_colour = view.settings.piles_per_colour
    lengths = [len(p) for p in view.piles[colour * per_colour : (colour + 1) * per_colour]]
    return any(rank in (0, length + 1) and length < 5 for length in lengths)


def _open_for_next(view: View) -> tuple[int, int] | None:
    """A pile at 3 or 4 cards that the turn leaves open (colour, length), the longest."""
    per_colour = view.settings.piles_per_colour
    best: tuple[int, int] | None = None
    for slot, pile in enumerate(view.piles):
        length = len(pile)
        if length in (3, 4) and (best is None or length > best[1]):
            best = (slot // per_colour, length)
    return best


def _could_extend(view: View, pile: tuple[int, int]) -> bool:
    """Whether the seat holds a card that would take a pile of that colour and length
    one card further without completing it (so it chose not to: the next player would
    be closer to completing)."""
    colour, length = pile
    if length >= 4:
        return False
    for card in view.hand or ():
        kind = CARD_KIND[card]
        if kind_colour(kind) == colour and kind_rank(kind) in (0, length + 1):
            return True
    return False


def _next_seat(view: View, seat: int, skips: int) -> int:
    """The seat that plays next after ``seat``'s turn (``skips`` more passed over),
    before the move being explained changes anything."""
    count = view.settings.player_count
    step = view.direction * (1 + view.pending_skips + skips)
    return (seat + step) % count
