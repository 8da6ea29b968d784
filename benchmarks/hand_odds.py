"""Hand odds: a fair reading of the opponents' hidden hands, screened for the expert.

Run: ``python -m benchmarks.hand_odds --games 1000 --players 2 --out FILE`` measures the
odds (below) from ``heuristic`` self-play and writes them as JSON;
``benchmarks.expert_variants``' ``infer`` and ``infer4`` variants are the expert (at
its own search and at twice it) whose deals are drawn with them (``--odds FILE``,
measured on the spot when not given). docs/bots.md, "Reading the hands from play", has
what they measured.

A player who has just ended a turn has played what it wanted to play: the heuristic
lays the 1 that starts a pile and the card that completes one, and keeps its Blocks. So
the cards hidden in its hand are not a uniform sample of the cards its opponents cannot
see. At every turn's start, seen from the seat whose turn it is, each card of an
opponent's hidden hand and each card that seat cannot see gets a category (its kind
read against the piles as they are: a 1 that could start a pile or not, a number that
fits a pile now, by rank, one that would fit after one more card, a wild that would
complete a pile or not, an action card by kind). The odds of a category, per table
size and per *distance* (how many turns ago that opponent played), are its share of the
hidden hands over its share of all unseen cards, each share drawn towards even by ten
cards' worth. A deal then draws each opponent's hidden cards of each shuffle by
weighted draws without replacement from that shuffle's unseen cards (nearest opponent
first), the draw pile taking the rest in a random order: every card still goes only
where a card of its shuffle could be, so the seat cannot tell the deal from the game
(R35, R36; :func:`weighted_deal` checks it on every deal it makes).
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import (
    CARD_KIND,
    Kind,
    Phase,
    Settings,
    State,
    View,
    kind_colour,
    kind_rank,
    observe,
    resample,
)
from sequence_stacks.engine.rng import shuffle_with
from sequence_stacks.sim import play_game

CATEGORIES = (
    "skip", "reverse", "steal_card", "block", "steal_chip", "wild", "wild_completes",
    "one_starts", "one_waits", "fits_2", "fits_3", "fits_4", "fits_5", "next", "other",
)  # fmt: skip
_ACTION = {Kind.SKIP: 0, Kind.REV: 1, Kind.SCARD: 2, Kind.BLOCK: 3, Kind.SCHIP: 4}
FLOOR, CEILING, PRIOR_CARDS = 0.02, 20.0, 10.0

# Per table size, per distance (1 to players - 1), the odds of each category.
Odds = dict[int, list[list[float]]]


def category(kind: int, lengths: Sequence[int]) -> int:
    """The index in CATEGORIES of a card of ``kind`` against its colour's pile lengths
    (0 for a free slot; R9, R15-R17)."""
    if kind >= Kind.SKIP:
        return _ACTION[Kind(kind)]
    rank = kind_rank(kind)
    if rank == 0:
        return 6 if 4 in lengths else 5
    if rank == 1:
        return 7 if 0 in lengths else 8
    if rank - 1 in lengths:
        return 7 + rank  # fits_2 .. fits_5
    if rank - 2 in lengths and (rank > 2 or 0 in lengths):
        return 13
    return 14


def kind_categories(piles: Sequence[Sequence[int]], per_colour: int) -> list[int]:
    lengths = [
        [len(pile) for pile in piles[colour * per_colour : (colour + 1) * per_colour]]
        for colour in (0, 1)
    ]
    return [
        category(kind, lengths[kind_colour(kind)] if kind < Kind.SKIP else ())
        for kind in range(len(Kind))
    ]


def count_hands(state: State, counts: list[tuple[list[int], list[int]]]) -> None:
    """Add a turn's start, seen from the seat whose turn it is, to ``counts`` (per
    distance: held and unseen per category); a seat that has not played is skipped."""
    players, seat = state.player_count, state.current
    categories = kind_categories(state.piles, state.settings.piles_per_colour)
    hidden = [[c for c in state.hands[o] if c not in state.known[o]] for o in range(players)]
    unseen = [categories[CARD_KIND[c]] for c in state.draw]
    for other in range(players):
        if other != seat:
            unseen.extend(categories[CARD_KIND[c]] for c in hidden[other])
    for distance in range(1, players):
        if state.turn_count <= distance:  # turns are counted from 1
            break
        held, all_unseen = counts[distance - 1]
        for card in hidden[(seat - state.direction * distance) % players]:
            held[categories[CARD_KIND[card]]] += 1
        for value in unseen:
            all_unseen[value] += 1


def measure(players: int, games: int, seed: int = 1) -> list[list[float]]:
    """The odds at one table size from ``games`` heuristic self-play games."""
    settings = Settings(player_count=players)
    size = len(CATEGORIES)
    counts = [([0] * size, [0] * size) for _ in range(players - 1)]
    for game in range(games):
        base = seed * 1_000_003 + game * 10
        bots = [make_bot("heuristic", seed=base + s) for s in range(players)]
        last = [-1]

        def seen(state: State, last: list[int] = last) -> None:
            fresh = state.turn_count != last[0]
            if state.turn_actions == 0 and state.phase == Phase.PLAYING and fresh:
                last[0] = state.turn_count
                count_hands(state, counts)

        play_game(settings, f"hand-odds-{seed}-{players}-{game}", bots, on_action=seen)
    table = []
    for held, unseen in counts:
        held_total, unseen_total = sum(held), sum(unseen)
        row = []
        for h, u in zip(held, unseen, strict=True):
            share = u / unseen_total if u else 0.0
            odds = (h + PRIOR_CARDS * share) / (held_total + PRIOR_CARDS) / share if u else 1.0
            row.append(min(CEILING, max(FLOOR, odds)))
        table.append(row)
    return table


def weighted_deal(view: View, rng: random.Random, odds: Odds) -> State:
    """``resample`` of ``view`` with each opponent's hidden cards drawn with ``odds``:
    at the seat's own turn only (a Block window is answered mid-turn), for opponents
    who have played since the deal. Raises AssertionError if the deal's view is not
    ``view`` (a check on every deal)."""
    seat = view.seat
    assert seat is not None
    state = resample(view, seat, rng)
    table = odds.get(view.settings.player_count)
    if view.phase != Phase.PLAYING or table is None:
        return state
    players = view.settings.player_count
    categories = kind_categories(view.piles, view.settings.piles_per_colour)
    epochs = state.card_epoch
    pools: dict[int, list[int]] = {}
    places: list[tuple[list[int], int, list[float] | None]] = []
    for distance in range(1, players):
        other = (seat - view.direction * distance) % players
        hand, known = state.hands[other], state.known[other]
        hidden = [index for index, card in enumerate(hand) if card not in known]
        for index in hidden:
            pools.setdefault(epochs[hand[index]], []).append(hand[index])
        row = table[distance - 1] if view.turn_count > distance else None
        weights = [row[c] for c in categories] if row is not None else None
        places.extend((hand, index, weights) for index in hidden)
    for card in state.draw:
        pools.setdefault(epochs[card], []).append(card)
    for hand, index, weights in places:
        pool = pools[epochs[hand[index]]]
        if weights is None:
            pick = rng.randrange(len(pool))
        else:
            target = rng.random() * sum(weights[CARD_KIND[c]] for c in pool)
            pick = len(pool) - 1
            for position, card in enumerate(pool):
                target -= weights[CARD_KIND[card]]
                if target < 0.0:
                    pick = position
                    break
        pool[pick], pool[-1] = pool[-1], pool[pick]
        hand[index] = pool.pop()
    if state.draw:
        rest = pools.get(state.shuffle_count - 1, [])
        shuffle_with(rng, rest)
        state.draw = rest
    assert observe(state, seat) == view, "a weighted deal the seat could tell apart (R36)"
    return state


def load(path: Path) -> Odds:
    data = json.loads(path.read_text())
    return {int(players): rows for players, rows in data["odds"].items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    odds = {players: measure(players, args.games, args.seed) for players in args.players}
    args.out.write_text(json.dumps({"games": args.games, "seed": args.seed, "odds": odds}))
    for players, rows in odds.items():
        print(f"{players} players (columns: turns since it played)")
        for index, name in enumerate(CATEGORIES):
            print(f"  {name:<15}" + "  ".join(f"{row[index]:5.2f}" for row in rows))


if __name__ == "__main__":
    main()
