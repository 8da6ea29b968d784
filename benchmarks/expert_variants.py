"""Screen a variant of the expert's search against another bot.

Run: ``python -m benchmarks.expert_variants VARIANT --games N --seed S --out FILE``
(``--against heuristic`` by default, ``--players 2`` by default). The variant's seat
moves round the table every game and the games of one round share a deal (game seed
``"S-<round>"``: with two players the two games of a pair); each bot's
seed is ``S * 100000 + game * 10 + seat``, so a run is a function of its arguments.
One JSON line per finished game goes to FILE, and a rerun with the same FILE plays only
the games it lacks. It prints the running win rate and, at the end, the 95% Wilson
interval. The variants are the options of ``IsmctsBot`` measured for the expert in
docs/bots.md ("The expert"); a screen of a few hundred games finds only large gains.

Three variants are bounds, not bots: ``peek`` is the expert given the opponents' true
hands (its deals keep every hand as it is and shuffle only the draw pile: a perfect
reading of the opponent, the most any inference could give), and ``peek4`` the same at
twice the expert's search. They measure how much of what the search lacks is the
hidden hands rather than the draw pile no one can know (docs/bots.md); ``oracle`` is
the expert given the true position itself, the draw pile's order included, which
measures what that order is worth.

Four variants are fair readings of the hands (``...4``: at twice the expert's search):
``infer`` and ``infer4`` draw the opponents' hidden cards with the hand odds of
``benchmarks.hand_odds`` (``--odds FILE``, else measured first from 1,000 heuristic
games); ``read`` and ``read4`` (two players) weight uniform deals by the opponent's last
turn (``benchmarks.hand_reading``: would that hand have made those plays?). ``scale4``
is the expert at twice its search with uniform deals, the pair of ``infer4``,
``read4`` and ``peek4``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from pathlib import Path

from sequence_stacks.bots import Bot, make_bot
from sequence_stacks.bots.expert import make_expert
from sequence_stacks.engine import Settings, State, View, new_game
from sequence_stacks.engine.rng import shuffle_with
from sequence_stacks.engine.state import AWAITING, BLOCK_WINDOW, PASSED
from sequence_stacks.sim import play_game
from sequence_stacks.sim.dossier.intervals import wilson

from .hand_odds import Odds, load, measure, weighted_deal
from .hand_reading import Reading


class _Truth:
    """The game's true state, for the ``peek`` bounds: set before a game, then kept
    by ``play_game``'s ``on_action`` (which hands over its one state object)."""

    def __init__(self) -> None:
        self.state: State | None = None

    def seen(self, state: State) -> None:
        self.state = state

    def oracle(self, view: View, rng: random.Random) -> State:
        """The true position itself, draw pile and seed included: the future as it
        will come (no fair bot's bound: how much the draw pile's order is worth)."""
        del rng
        return self.deal_of(view).clone()

    def deal_of(self, view: View) -> State:
        """The true state, checked to be the one ``view`` is of."""
        assert self.state is not None
        if self.state.turn_count != view.turn_count or self.state.current != view.current:
            raise RuntimeError("the peeking bot's view is not of the true state")
        return self.state

    def deal(self, view: View, rng: random.Random) -> State:
        """The true position with only the draw pile shuffled again (every hand as it
        is) and a fresh seed; other seats' hidden Block answers read as passes, as
        ``resample`` makes them."""
        assert view.seat is not None
        state = self.deal_of(view).clone()
        shuffle_with(rng, state.draw)
        state.seed = rng.getrandbits(63)
        if state.phase == BLOCK_WINDOW:
            answers = state.window_answers
            for other in range(state.player_count):
                if other != view.seat and answers[other] != AWAITING:
                    answers[other] = PASSED
        return state


TRUTH = _Truth()
READING = Reading()
ODDS: Odds = {}  # the hand odds of the infer variants (set by main)


def _inferred(view: View, rng: random.Random) -> State:
    return weighted_deal(view, rng, ODDS)


VARIANTS: dict[str, Callable[[int], Bot]] = {
    "expert": lambda seed: make_expert(seed=seed),
    "ismcts": lambda seed: make_bot("ismcts", seed=seed),
    "heuristic": lambda seed: make_bot("heuristic", seed=seed),
    # Opponents in the playouts plan with the heuristic bot's own node budget.
    "opp300": lambda seed: make_expert(seed=seed, opponent_nodes=300),
    # Playouts two rounds deep (the bot's next turn played by the planner too).
    "h2": lambda seed: make_expert(seed=seed, horizon=2),
    # Twice the expert's search, fair (the deals drawn from its own view): peek4's pair.
    "scale4": lambda seed: make_expert(seed=seed, budget_scale=4.0),
    # Bounds (see the module's docstring): the opponents' true hands.
    "peek": lambda seed: make_expert(seed=seed, dealer=TRUTH.deal),
    "peek4": lambda seed: make_expert(seed=seed, dealer=TRUTH.deal, budget_scale=4.0),
    "oracle": lambda seed: make_expert(seed=seed, dealer=TRUTH.oracle),
    # Fair: the hidden hands drawn with the hand odds (benchmarks/hand_odds.py).
    "infer": lambda seed: make_expert(seed=seed, dealer=_inferred),
    "infer4": lambda seed: make_expert(seed=seed, dealer=_inferred, budget_scale=4.0),
    # Fair: deals weighted by the opponent's last turn (benchmarks/hand_reading.py).
    "read": lambda seed: make_expert(seed=seed, dealer=READING.deal),
    "read4": lambda seed: make_expert(seed=seed, dealer=READING.deal, budget_scale=4.0),
}


def _seen(state: State) -> None:
    TRUTH.seen(state)
    READING.seen(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=sorted(VARIANTS))
    parser.add_argument("--against", choices=sorted(VARIANTS), default="heuristic")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        choices=range(2, 7),
        help="table size: the variant against players-1 of --against, its seat rotated "
        "every game and the table's rotations sharing a deal (default 2)",
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--odds", type=Path, help="hand odds (benchmarks.hand_odds --out)")
    args = parser.parse_args()
    if "infer" in args.variant:
        ODDS.update(load(args.odds) if args.odds else {args.players: measure(args.players, 1000)})
    rows = args.out.read_text().splitlines() if args.out.exists() else []
    wins = sum(int(json.loads(row)["won"]) for row in rows)
    started = time.perf_counter()
    players = args.players
    settings = Settings(player_count=players)
    for game in range(len(rows), args.games):
        seat = game % players
        names = [args.variant if s == seat else args.against for s in range(players)]
        bots = [VARIANTS[name](args.seed * 100_000 + game * 10 + s) for s, name in enumerate(names)]
        deal = f"{args.seed}-{game // players}"
        TRUTH.state = new_game(settings, deal)
        if args.variant.startswith("read"):
            READING.start(TRUTH.state, seat)
            bots = [READING.watching(s, bot) for s, bot in enumerate(bots)]
        state, _ = play_game(settings, deal, bots, on_action=_seen)
        result = state.result
        won = int(result is not None and result.winner == seat)
        wins += won
        with args.out.open("a") as out:
            out.write(json.dumps({"g": game, "seat": seat, "won": won}) + "\n")
        done = game + 1
        elapsed = time.perf_counter() - started
        read = ""
        if args.variant.startswith("read"):
            r = READING
            read = f" read {r.read}, kept {r.kept}, drawn {r.tried}"
        print(f"{done} {wins}/{done} = {wins / done:.3f} ({elapsed:.0f}s){read}", flush=True)
    games = max(len(rows), args.games)
    rate = wilson(wins, games)
    print(f"{args.variant} won {wins}/{games} = {rate.value:.1%} [{rate.low:.1%}, {rate.high:.1%}]")


if __name__ == "__main__":
    main()
