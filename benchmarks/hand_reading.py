"""A fair reading of *which* hand an opponent holds, from its last turn (#27).

The expert's search deals the cards it cannot see uniformly (``resample``). This dealer
weights those deals by the opponent's last turn: each uniform deal's hand for the
opponent is put back at that turn's start (with the cards the turn played, whose kinds
everyone saw) and a fresh ``heuristic`` bot replays the turn from there; a deal whose
hand makes the same plays is kept, another only with probability ``MISS`` (rejection
sampling: deals drawn in proportion to 1 or ``MISS``). ``benchmarks.which_hand``
measured the signal: the true hand replays its turn in 85% of turns, a uniform deal's
hand in 20%.

Only what the reading seat could see is used: its own views before each action of the
game and the actions taken (every action is public: its kind, pile, victim and colour),
kept by :class:`Reading` from ``play_game``'s hooks; turns with a Block window, a card
drawn or stolen mid-turn, or not watched from their start are not read (a uniform deal
then). Two players only (the one opponent's one turn between two of the reader's).
"""

from __future__ import annotations

import collections
import random
from typing import Final, NamedTuple

from sequence_stacks.bots import Bot, make_bot
from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    IllegalActionError,
    Phase,
    State,
    View,
    apply_in_place,
    observe,
    resample,
)

MISS: Final = 0.1  # the weight of a deal whose hand does not replay the turn
TRIES: Final = 12  # deals drawn at the most for one deal of the search

Entry = tuple[int, Action, View]  # (actor, action, the reader's view before it)


class _Turn(NamedTuple):
    """The opponent's turn to replay: its start, its actions (and as a multiset), and
    the kinds of the cards it played from its hand."""

    start: State
    actions: list[Action]
    want: collections.Counter[Action]
    played: list[int]


class Reading:
    """One game's public record as one seat watched it, and the dealer reading it."""

    def __init__(self) -> None:
        self.me = 0
        self.entries: list[Entry] = []
        self.view: View | None = None  # the reader's view now
        self.read = self.kept = self.tried = 0  # deals read, kept on a match, drawn
        self._turn: tuple[int, _Turn | None] = (-1, None)  # (entries read, their turn)
        self._replays: dict[tuple[int, ...], bool] = {}

    def start(self, state: State, me: int) -> None:
        """A new game, read for seat ``me``."""
        if state.player_count != 2:
            raise ValueError("the which-hand reading reads two-player games only")
        self.me = me
        self.entries = []
        self.view = observe(state, me)
        self._turn = (-1, None)

    def seen(self, state: State) -> None:
        """``play_game``'s ``on_action``: the reader's view after each action."""
        self.view = observe(state, self.me)

    def watching(self, seat: int, bot: Bot) -> Bot:
        """``bot`` of ``seat``, each of its actions noted with the reader's view before."""
        reading = self

        class _Watched:
            name = bot.name

            def choose(self, view: View) -> Action:
                action = bot.choose(view)
                assert reading.view is not None
                reading.entries.append((seat, action, reading.view))
                return action

        return _Watched()

    def deal(self, view: View, rng: random.Random) -> State:
        """A deal of ``view`` for the search, weighted by the opponent's last turn."""
        turn = self._last_turn(view)
        if turn is None:
            return resample(view, self.me, rng)
        self.read += 1
        deal = resample(view, self.me, rng)
        for _ in range(TRIES):
            self.tried += 1
            if self._replays_turn(turn, deal):
                self.kept += 1
                return deal
            if rng.random() < MISS:
                return deal
            deal = resample(view, self.me, rng)
        return deal

    def _last_turn(self, view: View) -> _Turn | None:
        """The opponent's turn just played (its start, its actions), if it can be read:
        the reader's own turn starts now, right after a whole turn of the opponent
        with no Block window, nothing drawn or stolen."""
        if view.phase != Phase.PLAYING or view.current != self.me or view.turn_actions:
            return None
        if self._turn[0] == len(self.entries):
            return self._turn[1]
        found = self._read(view)
        self._turn = (len(self.entries), found)
        self._replays = {}
        return found

    def _read(self, view: View) -> _Turn | None:
        first = len(self.entries)
        opponent = 1 - self.me
        while first > 0 and self.entries[first - 1][0] == opponent:
            first -= 1
        turn = self.entries[first:]
        if not turn:
            return None
        start = turn[0][2]
        if start.current != opponent or start.turn_actions or start.phase != Phase.PLAYING:
            return None
        if any(before.phase != Phase.PLAYING for _, _, before in turn):
            return None
        played = [int(a.kind) for _, a, _ in turn if a.kind is not None and not a.from_discard]
        if view.hand_sizes[opponent] != start.hand_sizes[opponent] - len(played):
            return None  # a card drawn or stolen mid-turn
        state = resample(start, self.me, random.Random(0))
        actions = [action for _, action, _ in turn]
        return _Turn(state, actions, collections.Counter(actions), played)

    def _replays_turn(self, turn: _Turn, deal: State) -> bool:
        opponent = 1 - self.me
        hand_kinds = sorted([int(CARD_KIND[c]) for c in deal.hands[opponent]] + turn.played)
        key = tuple(hand_kinds)
        known = self._replays.get(key)
        if known is None:
            known = _replay(turn.start, opponent, hand_kinds, turn.actions, turn.want)
            self._replays[key] = known
        return known


def _replay(
    start: State,
    opponent: int,
    hand_kinds: list[int],
    actions: list[Action],
    want: collections.Counter[Action],
) -> bool:
    """Whether a fresh heuristic bot of ``opponent`` holding cards of ``hand_kinds`` at
    ``start`` makes ``actions`` (as a multiset)."""
    state = start.clone()
    old = state.hands[opponent]
    spare = list(old)  # the hand's cards first, then the draw pile's
    spare += state.draw
    hand: list[int] = []
    for kind in hand_kinds:
        card = next((c for c in spare if CARD_KIND[c] == kind), None)
        if card is None:
            return False  # the deal's cards cannot have been held then
        spare.remove(card)
        hand.append(card)
    # Cards in from the draw pile swap places and shuffle epochs with cards out of the
    # hand, so every zone keeps its epochs (R39: the view must add up).
    held = set(hand)
    coming = [c for c in hand if c not in set(old)]
    going = [c for c in old if c not in held]
    epoch = state.card_epoch
    swap = dict(zip(coming, going, strict=True))
    for c, d in swap.items():
        epoch[c], epoch[d] = epoch[d], epoch[c]
    state.draw = [swap.get(c, c) for c in state.draw]
    state.hands[opponent] = hand
    state.known[opponent] = [c for c in state.known[opponent] if c in held]
    bot = make_bot("heuristic", seed=99)
    got: collections.Counter[Action] = collections.Counter()
    try:
        for _ in actions:
            if state.is_over or state.current_player() != opponent:
                return False
            action = bot.choose(observe(state, opponent))
            got[action] += 1
            if got[action] > want[action]:
                return False
            apply_in_place(state, opponent, action)
    except IllegalActionError:  # a deal the engine cannot replay reads as no match
        return False
    return got == want
