"""How much one turn's play tells about the hand that played it.

Run: ``python -m benchmarks.which_hand --games 40 --deals 60``. Plays two-player
``heuristic`` self-play games; at each turn's start of seat 0, takes the opponent's
turn just played (turns with a Block window or a card drawn or stolen mid-turn are
left out) and replays it from its start with a fresh heuristic bot holding (a) the
opponent's true hand and (b) the hand of each of ``--deals`` uniform deals of seat 0's
view (``resample``: its hidden cards, plus the cards it played, which everyone saw). A
hand *replays the turn* when the bot makes the same actions (in any order). It prints
how often the true hand replays its turn (the heuristic's own randomness keeps that
under one), how often a uniform deal's hand does, and the cost of one replay.

The ratio of the two is how much sharper than a uniform deal a reading of "which hand"
from the last turn could make the search's deals (docs/bots.md, "Reading the hands
from play"); a deal that knew the hand would be sharper by the number of hands the
viewer cannot tell apart.
"""

from __future__ import annotations

import argparse
import collections
import random
import time

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import (
    Action,
    Phase,
    Settings,
    State,
    apply_in_place,
    new_game,
    observe,
    resample,
)

Turn = list[tuple[int, Action, State]]  # (seat, action, the state it was chosen in)


def replays(start: State, turn: Turn, hand: list[int]) -> bool:
    """Whether a fresh heuristic bot of seat 1, holding ``hand`` at ``start``, makes the
    turn's actions (as a multiset)."""
    state = start.clone()
    held = set(hand)
    state.draw = [c for c in start.draw + start.hands[1] if c not in held]
    state.hands[1] = list(hand)
    bot = make_bot("heuristic", seed=99)
    want = collections.Counter(action for _, action, _ in turn)
    got: collections.Counter[Action] = collections.Counter()
    for _ in turn:
        if state.is_over or state.current_player() != 1 or state.phase != Phase.PLAYING:
            return False
        action = bot.choose(observe(state, 1))
        got[action] += 1
        if got[action] > want[action]:
            return False
        apply_in_place(state, 1, action)
    return got == want


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--deals", type=int, default=60)
    args = parser.parse_args()
    settings = Settings(player_count=2)
    true_hand: list[bool] = []
    shares: list[float] = []
    seconds = candidates = 0.0
    for game in range(args.games):
        state = new_game(settings, f"which-hand-{game}")
        bots = [make_bot("heuristic", seed=game * 10 + seat) for seat in range(2)]
        log: Turn = []
        while not state.is_over:
            seat = state.current_player()
            assert seat is not None
            ready = state.phase == Phase.PLAYING and state.turn_actions == 0
            if seat == 0 and ready and state.turn_count > 2:
                first = len(log)
                while first > 0 and log[first - 1][0] == 1:
                    first -= 1
                turn = log[first:]
                start = turn[0][2] if turn else None
                if start is not None and start.turn_actions == 0:
                    now = list(state.hands[1])
                    if not set(now) - set(start.hands[1]):  # nothing drawn or stolen
                        kept, told = set(now), set(state.known[1])
                        played = [c for c in start.hands[1] if c not in kept]
                        known = [c for c in now if c in told]
                        hidden = [c for c in now if c not in told]
                        true_hand.append(replays(start, turn, hidden + known + played))
                        view = observe(state, 0)
                        rng = random.Random(game)
                        began = time.process_time()
                        hits = 0
                        for _ in range(args.deals):
                            deal = resample(view, 0, rng)
                            dealt = [c for c in deal.hands[1] if c not in told]
                            hits += replays(start, turn, dealt + known + played)
                        seconds += time.process_time() - began
                        candidates += args.deals
                        shares.append(hits / args.deals)
            action = bots[seat].choose(observe(state, seat))
            log.append((seat, action, state.clone()))
            apply_in_place(state, seat, action)
    shares.sort()
    turns = len(shares)
    print(f"{turns} turns; the true hand replays its turn in {sum(true_hand) / turns:.1%}")
    print(
        f"uniform deals' hands that replay it: mean {sum(shares) / turns:.1%}, median "
        f"{shares[turns // 2]:.1%}, p10 {shares[turns // 10]:.1%}, p90 "
        f"{shares[9 * turns // 10]:.1%}; none of the deals in "
        f"{sum(share == 0 for share in shares) / turns:.1%} of turns"
    )
    print(f"{1e3 * seconds / candidates:.2f} ms of CPU per replay")


if __name__ == "__main__":
    main()
