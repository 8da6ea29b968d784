"""The dossier's metrics on hand-built game traces, each against a value worked out by
hand from the traces below (the comments show the arithmetic)."""

import dataclasses
import math

import pytest

from sequence_stacks.engine import EndReason
from sequence_stacks.sim.dossier import metrics as m
from sequence_stacks.sim.dossier.chances import chances_from_needs
from sequence_stacks.sim.dossier.intervals import (
    Estimate,
    Method,
    bootstrap,
    chi_square_uniform_p,
    newcombe_difference,
    wilson,
)
from sequence_stacks.sim.dossier.traces import GameTrace, Move, MoveKind, Turn
from sequence_stacks.sim.dossier.words import Metric, verdict

Chances = tuple[tuple[float, ...], ...]


def game(
    winner: int | None,
    *,
    players: int = 2,
    seats: tuple[int, ...] = (0, 1, 0, 1),
    actions: tuple[int, ...] | None = None,
    skipped: frozenset[int] = frozenset(),
    chances: Chances | None = None,
    moves: tuple[Move, ...] = (),
    bots: tuple[str, ...] | None = None,
    reason: EndReason | None = None,
    index: int = 0,
    **counts: int,
) -> GameTrace:
    """A trace: turns by seat (indexes in ``skipped`` were skipped), ``actions`` per turn
    (default 2 a played turn), and chances per point (default: even at every point)."""
    actions = actions or tuple(0 if i in skipped else 2 for i in range(len(seats)))
    turns = tuple(
        Turn(seat, count, i in skipped)
        for i, (seat, count) in enumerate(zip(seats, actions, strict=True))
    )
    points = 1 + sum(1 for turn in turns if not turn.skipped)
    even = tuple([1 / players] * players)
    chances = chances or tuple([even] * points)
    assert len(chances) == points
    if reason is None:
        reason = EndReason.WIN if winner is not None else EndReason.STALEMATE
    return GameTrace(
        config_id="c",
        game_index=index,
        seed=index,
        player_count=players,
        bots=bots or tuple(["greedy"] * players),
        reason=reason,
        winner=winner,
        actions=sum(actions),
        turns=turns,
        chips=tuple([tuple([(0, 0)] * players)] * points),
        chances=chances,
        moves=moves,
        **counts,  # type: ignore[arg-type]
    )


def value(measure: m.Measure) -> float:
    return measure.estimate("test").value


# Fairness ----------------------------------------------------------------------------

TWO = [game(0), game(0), game(1), game(None)]  # seat 0 won twice, seat 1 once, one draw


def test_seat_win_rates_and_the_first_player_edge() -> None:
    assert value(m.seat_wins(TWO, 0)) == 0.5  # 2 of 4
    assert value(m.seat_wins(TWO, 1)) == 0.25
    edge = m.first_player_edge(TWO).estimate("x")
    assert edge.value == 0.0  # 2/4 - 1/2
    low, high = wilson(2, 4).low, wilson(2, 4).high
    assert (edge.low, edge.high) == pytest.approx((low - 0.5, high - 0.5))
    assert edge.method == Method.WILSON


def test_seat_spread_is_best_minus_worst_seat() -> None:
    assert value(m.seat_spread(TWO)) == 0.25  # (2 - 1) / 4 games
    three = [game(2, players=3, seats=(0, 1, 2)) for _ in range(3)] + [
        game(0, players=3, seats=(0, 1, 2))
    ]
    assert value(m.seat_spread(three)) == 0.75  # seat 2: 3/4, seat 1: 0/4


def test_a_measure_refuses_mixed_player_counts() -> None:
    with pytest.raises(ValueError, match="one player count"):
        m.seat_spread([game(0), game(0, players=3, seats=(0, 1, 2))])


# Length -------------------------------------------------------------------------------

# seats 0, 1, 0, [1 skipped], 0, 1 with 3, 4, 2, 0, 5, 1 actions
SKIPPY = game(1, seats=(0, 1, 0, 1, 0, 1), actions=(3, 4, 2, 0, 5, 1), skipped=frozenset({3}))


def test_turns_actions_and_minutes_count_played_turns() -> None:
    assert SKIPPY.played_turns == 5
    assert value(m.turns_per_game([SKIPPY, game(0)])) == 4.5  # (5 + 4) / 2
    assert value(m.actions_per_game([SKIPPY])) == 15
    pace = m.Pace(turn_s=5, action_s=3)
    assert m.game_minutes(SKIPPY, pace) == pytest.approx((5 * 5 + 3 * 15) / 60)


# SKIPPY with a Block window in seat 1's 4-action turn, answered once (by seat 0)
WINDOWED = dataclasses.replace(
    SKIPPY,
    turns=(SKIPPY.turns[0], Turn(1, 4, windows=1, answers=1), *SKIPPY.turns[2:]),
    block_windows=1,
)


def test_a_block_window_takes_its_whole_time_and_its_answers_none() -> None:
    pace = m.Pace(turn_s=5, action_s=3, window_s=8)
    # turns: 5+3*3=14, 5+3*(4-1)+8=22, 5+3*2=11, (skipped), 5+3*5=20, 5+3*1=8: 75 s
    assert m.game_minutes(WINDOWED, pace) == pytest.approx(75 / 60)
    assert pace.turn_seconds(WINDOWED.turns[1]) == 22
    # seat 0 waits seat 1's windowed turn (22 s), then nothing; seat 1 waits 11 + 20 s
    assert m.waits(WINDOWED, pace) == [22.0, 0.0, 31.0]
    assert "8 s per Block window" in pace.describe()


def test_waits_count_the_other_seats_played_turns() -> None:
    # seat 0 waits 1 turn (seat 1's), then 0 (seat 1 was skipped); seat 1 waits 2 turns
    assert m.waits(SKIPPY) == [1.0, 0.0, 2.0]
    assert value(m.wait_turns([SKIPPY])) == 1.0
    pace = m.Pace(turn_s=5, action_s=3)
    # seat 0: 5 + 3*4 = 17 s, then 0; seat 1: (5 + 3*2) + (5 + 3*5) = 31 s
    assert m.waits(SKIPPY, pace) == [17.0, 0.0, 31.0]
    assert value(m.wait_minutes([SKIPPY], pace)) == pytest.approx(16 / 60)


# Drama --------------------------------------------------------------------------------


def test_leader_needs_a_sole_top() -> None:
    assert m.leader((0.5, 0.5)) is None
    assert m.leader((0.2, 0.8)) == 1
    assert m.leader((0.4, 0.4, 0.2)) is None


# 4 turns, 5 points; leaders: none, 0, 1, 0, 0 (winner 0)
SWING: Chances = ((0.5, 0.5), (0.7, 0.3), (0.2, 0.8), (0.6, 0.4), (1.0, 0.0))


def test_halftime_leader() -> None:
    halftime_loses = game(0, chances=SWING)  # half-time is point 2: seat 1 leads, 0 wins
    no_leader = game(1, chances=((0.5, 0.5),) * 5)
    holds = game(1, chances=(*SWING[:2], (0.3, 0.7), *SWING[3:]))
    measure = m.halftime_leader_loses([halftime_loses, no_leader, holds, game(None)])
    assert measure.values == (1.0, 0.0)  # the games without a leader or winner are left out


def test_comebacks_need_the_winner_below_half_a_fair_share() -> None:
    # winner 0 fell to 0.2 < 1/4: a comeback; this winner 1 never fell below 0.35
    steady = game(1, chances=((0.5, 0.5), (0.6, 0.4), (0.65, 0.35), (0.4, 0.6), (0.0, 1.0)))
    assert m.comebacks([game(0, chances=SWING), steady, game(None)]).values == (1.0, 0.0)


def test_lead_changes_and_when_the_game_was_decided() -> None:
    trace = game(0, chances=SWING)
    assert m.lead_change_count(trace) == 2  # 0 -> 1 -> 0
    assert m.decided_point(trace) == 3  # seat 0 leads from point 3 to the end
    assert value(m.decided_at([trace])) == 0.75  # 3 of 4 turns
    tied = game(0, chances=((0.5, 0.5), (0.7, 0.3), (0.5, 0.5), (0.2, 0.8), (1.0, 0.0)))
    assert m.lead_change_count(tied) == 2  # a tie keeps the last leader: 0, (0), 1, 0
    assert m.decided_point(game(None)) is None


def test_the_winner_is_certain_once_its_chance_stays_at_95_percent() -> None:
    late = game(0, chances=SWING)  # 0.5, 0.7, 0.2, 0.6, 1.0: certain only at the end
    early = game(0, chances=((0.5, 0.5), (0.7, 0.3), (0.96, 0.04), (0.99, 0.01), (1.0, 0.0)))
    dipped = game(1, chances=((0.5, 0.5), (0.0, 1.0), (0.1, 0.9), (0.0, 1.0), (0.0, 1.0)))
    assert m.certain_point(late) == 4
    assert m.certain_point(early) == 2
    assert m.certain_point(dipped) == 3  # 0.9 at point 2 is below 0.95
    assert m.certain_point(game(None)) is None
    measure = m.certain_at([late, early, dipped, game(None)])
    assert measure.values == (1.0, 0.5, 0.75)  # 4/4, 2/4, 3/4 of the turns played
    assert value(measure) == pytest.approx(0.75)
    assert m.certain_point(early, certain=0.99) == 3


THREE = (0, 1, 2, 0)
# At point 1: seat 0 has no chance left, seats 1 and 2 contend, seat 1 slightly ahead.
# From point 1 to point 2 the winner (seat 2) rises from 0.48 to 0.69: by 0.21 >= 0.05.
KING_POINT = ((1 / 3,) * 3, (0.01, 0.5, 0.48), (0.01, 0.3, 0.69), (0.0, 0.2, 0.8), (0.0, 0.0, 1.0))


def _king(move: Move, winner: int = 2, chances: Chances = KING_POINT) -> GameTrace:
    return game(winner, players=3, seats=THREE, chances=chances, moves=(move,))


def test_kingmaking_moves() -> None:
    block = Move(1, MoveKind.BLOCK, seat=0, victim=1)
    assert m.kingmaking_moves(_king(block)) == [0]
    # not kingmaking: the victim won; the mover won; a mover with a chance left
    assert m.kingmaking_moves(_king(block, winner=1)) == []
    assert m.kingmaking_moves(_king(Move(1, MoveKind.SKIP, seat=2, victim=1))) == []
    hopeful = ((1 / 3,) * 3, (0.1, 0.46, 0.44), *KING_POINT[2:])
    assert m.kingmaking_moves(_king(block, chances=hopeful)) == []
    # hitting the underdog is no kingmaking: at point 2 seat 1 (0.3) trails seat 2 (0.69)
    assert m.kingmaking_moves(_king(Move(2, MoveKind.STEAL_CHIP, seat=0, victim=1))) == []
    assert m.kingmaking_moves(_king(block), no_chance=0.01) == []  # 0.01 is a chance then
    # the winner gained only 0.03 (0.48 -> 0.51) by the end of that turn: no swing
    flat = (*KING_POINT[:2], (0.01, 0.47, 0.51), *KING_POINT[3:])
    assert m.kingmaking_moves(_king(block, chances=flat)) == []
    assert m.kingmaking_moves(_king(block, chances=flat), swing=0.03) == [0]


def test_how_hopeless_players_get() -> None:
    # KING_POINT's turn ends but the last: 1/3 x3, (0.01, 0.5, 0.48), (0.01, 0.3, 0.69),
    # (0.0, 0.2, 0.8): seat 0 is below 2% three times and lost (seat 2 won)
    floor = m.chance_floor([_king(Move(1, MoveKind.BLOCK, seat=0, victim=1))])
    assert floor == {"lowest": 0.0, "seat_turns": 12, "below": 3, "below_won": 0}
    assert m.chance_floor([game(0)])["below"] == 0  # even chances: nobody hopeless
    assert m.chance_floor([], 0.02)["seat_turns"] == 0


def test_kingmade_share_of_won_games() -> None:
    block = Move(1, MoveKind.BLOCK, seat=0, victim=1)
    traces = [_king(block), _king(block, winner=1), game(None, players=3, seats=THREE)]
    assert m.kingmade(traces).values == (1.0, 0.0)
    assert m.kingmade([game(0)]).values == ()  # no figure with 2 players


# Endings, chips and Blocks ------------------------------------------------------------


def test_endings_chips_and_blocks() -> None:
    traces = [
        game(0, block_windows=3, blocks=1),
        game(None, reason=EndReason.STALEMATE, block_windows=1),
        game(None, reason=EndReason.MAX_TURNS, supply_out=True, chipless_completions=2),
        game(1, supply_out=True),
    ]
    assert value(m.stalemates(traces)) == 0.25
    assert value(m.max_turns_endings(traces)) == 0.25
    assert value(m.supply_outs(traces)) == 0.5
    assert value(m.chipless_completions(traces)) == 0.5  # 2 over 4 games
    assert value(m.block_windows(traces)) == 1.0  # (3 + 1) / 4
    assert value(m.blocks(traces)) == 0.25


# Skill and restricted play -------------------------------------------------------------

DUELS = [
    game(0, bots=("heuristic", "random")),
    game(0, bots=("random", "heuristic")),  # the heuristic sat at seat 1 and lost
    game(1, bots=("random", "heuristic")),
    game(1, bots=("heuristic", "random")),
]


def test_lone_wins_and_skill_share() -> None:
    assert m.lone_wins(DUELS, "heuristic").values == (1.0, 0.0, 1.0, 0.0)
    assert value(m.lone_wins(DUELS, "random")) == 0.5
    three_of_four = [*DUELS[:3], game(0, bots=("heuristic", "random"))]
    share = m.skill_share(three_of_four, "heuristic").estimate("x")
    assert share.value == pytest.approx(0.5)  # (3/4 - 1/2) / (1 - 1/2)
    rate = wilson(3, 4)
    assert (share.low, share.high) == pytest.approx((2 * rate.low - 1, 2 * rate.high - 1))
    with pytest.raises(ValueError, match="exactly one"):
        m.lone_wins([game(0, bots=("greedy", "greedy"))], "greedy")


def test_card_worth_pairs_each_game_with_its_unbarred_twin() -> None:
    # 3 players: the lone player sits at seat (-i) % 3: 0, 2, 1, 0 for games 0-3
    assert [m.lone_seat(game(None, players=3, seats=THREE, index=i)) for i in range(4)] == [
        0,
        2,
        1,
        0,
    ]
    unbarred = [game(w, players=3, seats=THREE, index=i) for i, w in enumerate((0, 2, 0, 1))]
    barred = [game(w, players=3, seats=THREE, index=i) for i, w in enumerate((0, 1, 0, 0))]
    # game 0: both won (0); 1: only unbarred won (+1); 2: neither (0); 3: only barred (-1);
    # game 4 has no twin and is left out
    barred.append(game(1, players=3, seats=THREE, index=4))
    assert m.card_worth(barred, unbarred).values == (0.0, 1.0, 0.0, -1.0)


# Intervals and comparisons -----------------------------------------------------------


def test_a_rate_difference_is_newcombes_interval() -> None:
    # Newcombe (1998), example: 56/70 against 48/80 gives 0.2 [0.0524, 0.3339]
    assert newcombe_difference(56, 70, 48, 80).low == pytest.approx(0.0524, abs=1e-4)
    assert newcombe_difference(56, 70, 48, 80).high == pytest.approx(0.3339, abs=1e-4)
    variant = m.Measure((1.0,) * 56 + (0.0,) * 14, m.Statistic.RATE)
    base = m.Measure((1.0,) * 48 + (0.0,) * 32, m.Statistic.RATE)
    assert variant.difference(base, "x") == newcombe_difference(56, 70, 48, 80)


def test_bootstraps_are_reproducible_from_their_seed() -> None:
    values = [float(v % 7) for v in range(200)]
    first = bootstrap(values, "2026/p4/turns")
    assert first == bootstrap(values, "2026/p4/turns")
    assert first != bootstrap(values, "2026/p4/actions")
    assert first.value == pytest.approx(sum(values) / 200)
    assert first.low < first.value < first.high
    longer = m.Measure(tuple(v + 9 for v in values), m.Statistic.MEAN)
    difference = longer.difference(m.Measure(tuple(values), m.Statistic.MEAN), "d")
    assert difference.value == pytest.approx(9.0)
    assert difference.low < 9.0 < difference.high


def test_chi_square_p_values() -> None:
    assert chi_square_uniform_p([10, 10, 10]) == 1.0
    # (30-20)^2/20 + (10-20)^2/20 = 10 on 1 degree of freedom: p = erfc(sqrt(5))
    assert chi_square_uniform_p([30, 10]) == pytest.approx(math.erfc(math.sqrt(5)))


def test_a_verdict_names_what_changed() -> None:
    longer = Estimate(9.0, 6.0, 12.0, 100, Method.BOOTSTRAP)
    same = Estimate(0.01, -0.02, 0.04, 100, Method.NEWCOMBE)
    text = verdict({Metric.TURNS: longer, Metric.SEAT_SPREAD: same})
    assert text == "longer by 9.0 [6.0, 12.0]; fairness: no measurable change."
    shorter = Estimate(-4.0, -6.0, -2.0, 100, Method.BOOTSTRAP)
    assert verdict({Metric.TURNS: shorter}) == "shorter by 4.0 [2.0, 6.0]."


def test_calibration_bins_the_chances_of_won_games() -> None:
    # points but the last: (0.5, 0.5), (0.7, 0.3), (0.2, 0.8), (0.6, 0.4); seat 0 won
    bins = {(b["low"], b["high"]): b for b in m.calibration([game(0, chances=SWING), game(None)])}
    assert bins[(0.35, 0.5)] == {
        "low": 0.35,
        "high": 0.5,
        "points": 3,
        "chance": 1.4 / 3,
        "won": pytest.approx(1 / 3),
    }  # 0.5 (won), 0.5, 0.4
    assert bins[(0.65, 0.8)]["points"] == 2  # 0.7 (won), 0.8 (lost)
    assert bins[(0.65, 0.8)]["won"] == 0.5
    assert sum(b["points"] for b in bins.values()) == 8


def test_chips_win_chance() -> None:
    assert chances_from_needs([5, 5]) == (0.5, 0.5)
    one, three = chances_from_needs([1, 3], weight=1.0)
    assert one == pytest.approx(1 / (1 + math.exp(-2)))  # e^-1 / (e^-1 + e^-3)
    assert three == pytest.approx(1 - one)
    assert chances_from_needs([0, 2, 1]) == (1.0, 0.0, 0.0)
