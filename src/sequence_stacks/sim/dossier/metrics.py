"""The dossier's metrics: pure functions of game traces (:mod:`.traces`).

Each metric turns a list of traces into a :class:`Measure`: one value per game (a 0/1
outcome, a count, a share) and how those combine (a rate, a mean, the spread of seat
win rates). A measure gives its estimate with a 95% interval and its difference to the
same measure of another variant, so every figure of a dossier, and every comparison,
comes from the games by one documented rule.

Definitions (the page and docs/balance.md repeat them for designers):

- *leader*: the seat with the highest win chance at a turn end, if no other seat ties it;
- *half-time*: the end of turn ``played_turns // 2``;
- *comeback*: the winner's chance fell below half the fair share (``1 / (2 players)``)
  at some turn end;
- *decided at*: the share of the game's turns played before the winner became the
  leader for good (leader at every later turn end);
- *certain at* (decisiveness): the share of the game's turns played before the winner's
  chance reached :data:`CERTAIN` for good (at least that at every later turn end; the
  end of the game gives the winner 1, so every won game has one);
- *kingmaking move*: a Block, Steal-a-Chip or Skip by a seat whose win chance was below
  :data:`NO_CHANCE` at the last turn end, against a seat A, when A and the eventual
  winner W (neither of them the mover) held the two highest chances, A's at least W's,
  and W's chance rose by at least :data:`KING_SWING` from that turn end to the next
  (the one after the move); a *kingmade* game holds one. It marks games a hopeless
  player may have decided: it counts the move that hit the favourite of two contenders
  when the other gained from it and went on to win, whether or not the game would have
  gone the other way without it (no counterfactual game is played).
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics
from collections.abc import Sequence
from typing import Final

from sequence_stacks.engine import EndReason

from .measure import Measure, Statistic, mean_measure, player_count, rate_measure
from .traces import GameTrace, Turn

__all__ = [
    "CERTAIN",
    "KING_SWING",
    "NO_CHANCE",
    "Measure",
    "Pace",
    "Statistic",
    "actions_per_game",
    "block_windows",
    "blocks",
    "calibration",
    "card_worth",
    "certain_at",
    "certain_point",
    "chance_floor",
    "chipless_completions",
    "comebacks",
    "decided_at",
    "decided_point",
    "first_player_edge",
    "game_minutes",
    "halftime_leader_loses",
    "kingmade",
    "kingmaking_moves",
    "lead_change_count",
    "lead_changes",
    "leader",
    "lone_seat",
    "lone_wins",
    "max_turns_endings",
    "minutes_per_game",
    "seat_spread",
    "seat_wins",
    "skill_share",
    "stalemates",
    "supply_outs",
    "turns_per_game",
    "wait_minutes",
    "wait_turns",
    "waits",
]

NO_CHANCE: Final = 0.02
CERTAIN: Final = 0.95
KING_SWING: Final = 0.05


@dataclasses.dataclass(frozen=True, slots=True)
class Pace:
    """How long a family takes: seconds to start a turn (draw up, look), per action (a
    card played, a discard, ending the turn) and per Block window (R29).

    ``turn_s`` and ``action_s`` are assumptions (no timed play of people exists yet);
    ``window_s`` is the online table's: every answer to a Block window is held until
    the window's whole time is up (docs/rules-notes.md N19-N21), 8 s at the relaxed
    pace a new table gets (the server's ``block_timeout`` of 5 s times 1.6,
    server/play/options.py). Block answers take no time of their own beyond the window.
    """

    turn_s: float = 5.0
    action_s: float = 3.0
    window_s: float = 8.0

    def describe(self) -> str:
        """The pace in words."""
        return (
            f"{self.turn_s:g} s to start a turn, {self.action_s:g} s per action and "
            f"{self.window_s:g} s per Block window"
        )

    def turn_seconds(self, turn: Turn) -> float:
        """How long one played turn takes at this pace, its Block windows included."""
        moves = turn.actions - turn.answers
        return self.turn_s + self.action_s * moves + self.window_s * turn.windows


# Fairness ----------------------------------------------------------------------------


def seat_wins(traces: Sequence[GameTrace], seat: int) -> Measure:
    """The share of games the seat won (seat 0 plays first, R7)."""
    return rate_measure([trace.winner == seat for trace in traces])


def first_player_edge(traces: Sequence[GameTrace]) -> Measure:
    """The first player's win rate minus the fair share (1 / players)."""
    players = player_count(traces)
    return rate_measure([trace.winner == 0 for trace in traces], offset=-1 / players)


def seat_spread(traces: Sequence[GameTrace]) -> Measure:
    """The best seat's win rate minus the worst seat's (0 for perfectly even seats)."""
    winners = tuple(-1.0 if t.winner is None else float(t.winner) for t in traces)
    return Measure(winners, Statistic.SPREAD, seats=player_count(traces))


# Length -------------------------------------------------------------------------------


def turns_per_game(traces: Sequence[GameTrace]) -> Measure:
    """Turns played per game (skipped turns not counted)."""
    return mean_measure([trace.played_turns for trace in traces])


def actions_per_game(traces: Sequence[GameTrace]) -> Measure:
    """Actions per game: cards played, discards, Block answers, turn ends."""
    return mean_measure([trace.actions for trace in traces])


def game_minutes(trace: GameTrace, pace: Pace) -> float:
    """How long the game would take a family at ``pace``, in minutes."""
    return sum(pace.turn_seconds(turn) for turn in trace.turns if not turn.skipped) / 60


def minutes_per_game(traces: Sequence[GameTrace], pace: Pace) -> Measure:
    """Minutes per game at ``pace``."""
    return mean_measure([game_minutes(trace, pace) for trace in traces])


def waits(trace: GameTrace, pace: Pace | None = None) -> list[float]:
    """Every wait of every seat between two of its own turns: the other seats' turns
    played in between (or, with ``pace``, their length in seconds)."""
    gaps: list[float] = []
    since: dict[int, float] = {}
    for turn in trace.turns:
        if turn.skipped:
            continue
        if turn.seat in since:
            gaps.append(since[turn.seat])
        since[turn.seat] = 0.0
        cost = 1.0 if pace is None else pace.turn_seconds(turn)
        for seat in since:
            if seat != turn.seat:
                since[seat] += cost
    return gaps


def wait_turns(traces: Sequence[GameTrace]) -> Measure:
    """Turns a player waits between two of its turns (each game's mean wait)."""
    return mean_measure([statistics.fmean(gaps) for trace in traces if (gaps := waits(trace))])


def wait_minutes(traces: Sequence[GameTrace], pace: Pace) -> Measure:
    """Minutes a player waits between two of its turns at ``pace`` (each game's mean)."""
    means = [statistics.fmean(gaps) / 60 for trace in traces if (gaps := waits(trace, pace))]
    return mean_measure(means)


# Drama and lead change ---------------------------------------------------------------


def leader(chances: Sequence[float]) -> int | None:
    """The seat with the highest chance, or None when another seat ties it."""
    top = max(chances)
    seats = [seat for seat, chance in enumerate(chances) if chance == top]
    return seats[0] if len(seats) == 1 else None


def halftime_leader_loses(traces: Sequence[GameTrace]) -> Measure:
    """Of the won games with a leader at half-time, the share that leader lost."""
    flags = []
    for trace in traces:
        ahead = leader(trace.chances[trace.played_turns // 2])
        if trace.winner is not None and ahead is not None:
            flags.append(ahead != trace.winner)
    return rate_measure(flags)


def comebacks(traces: Sequence[GameTrace]) -> Measure:
    """Of the won games, the share whose winner was once below half the fair share."""
    flags = []
    for trace in traces:
        if trace.winner is not None:
            floor = 1 / (2 * trace.player_count)
            flags.append(min(point[trace.winner] for point in trace.chances) < floor)
    return rate_measure(flags)


def lead_change_count(trace: GameTrace) -> int:
    """How often the leader changed (ties keep the last leader; the first leader is no
    change)."""
    changes = 0
    current: int | None = None
    for point in trace.chances:
        ahead = leader(point)
        if ahead is None:
            continue
        if current is not None and ahead != current:
            changes += 1
        current = ahead
    return changes


def lead_changes(traces: Sequence[GameTrace]) -> Measure:
    """Lead changes per game."""
    return mean_measure([lead_change_count(trace) for trace in traces])


def decided_point(trace: GameTrace) -> int | None:
    """The first turn end from which the winner led at every later one (None without a
    winner)."""
    if trace.winner is None:
        return None
    point = len(trace.chances)
    while point > 0 and leader(trace.chances[point - 1]) == trace.winner:
        point -= 1
    return point


def decided_at(traces: Sequence[GameTrace]) -> Measure:
    """Of the won games, the mean share of turns played before the winner led for good."""
    shares = []
    for trace in traces:
        point = decided_point(trace)
        if point is not None and trace.played_turns:
            shares.append(point / trace.played_turns)
    return mean_measure(shares)


def certain_point(trace: GameTrace, certain: float = CERTAIN) -> int | None:
    """The first turn end from which the winner's chance was at least ``certain`` at
    every later one (None without a winner)."""
    if trace.winner is None:
        return None
    point = len(trace.chances)
    while point > 0 and trace.chances[point - 1][trace.winner] >= certain:
        point -= 1
    return point


def certain_at(traces: Sequence[GameTrace], certain: float = CERTAIN) -> Measure:
    """Of the won games, the mean share of turns played before the winner's chance
    reached ``certain`` for good (decisiveness: late values mean the end stays open)."""
    shares = []
    for trace in traces:
        point = certain_point(trace, certain)
        if point is not None and trace.played_turns:
            shares.append(min(point, trace.played_turns) / trace.played_turns)
    return mean_measure(shares)


def kingmaking_moves(
    trace: GameTrace, no_chance: float = NO_CHANCE, swing: float = KING_SWING
) -> list[int]:
    """The indexes in ``trace.moves`` of its kingmaking moves (module docstring)."""
    winner = trace.winner
    if winner is None or trace.player_count < 3:
        return []
    found = []
    for index, move in enumerate(trace.moves):
        victim, mover = move.victim, move.seat
        if winner in (mover, victim) or mover == victim:
            continue
        chances = trace.chances[move.point]
        after = trace.chances[min(move.point + 1, len(trace.chances) - 1)]
        others = [c for seat, c in enumerate(chances) if seat not in (victim, winner)]
        contenders = min(chances[victim], chances[winner]) >= max(others)
        favourite_hit = contenders and chances[victim] >= chances[winner]
        gained = after[winner] - chances[winner] >= swing
        if chances[mover] < no_chance and favourite_hit and gained:
            found.append(index)
    return found


def kingmade(
    traces: Sequence[GameTrace], no_chance: float = NO_CHANCE, swing: float = KING_SWING
) -> Measure:
    """Of the won games, the share holding a kingmaking move; no figure (no values)
    with 2 players, where no third seat can decide between two others."""
    won = [t for t in traces if t.winner is not None and t.player_count >= 3]
    return rate_measure([bool(kingmaking_moves(t, no_chance, swing)) for t in won])


def chance_floor(traces: Sequence[GameTrace], no_chance: float = NO_CHANCE) -> dict[str, float]:
    """How hopeless players ever get: over every seat's chance at every turn end but the
    last (the result), the lowest, and how many of those seat-turns were below
    ``no_chance`` (the kingmaking threshold) and went on to win."""
    lowest, seat_turns, below, below_won = 1.0, 0, 0, 0
    for trace in traces:
        for point in trace.chances[:-1]:
            for seat, chance in enumerate(point):
                seat_turns += 1
                lowest = min(lowest, chance)
                if chance < no_chance:
                    below += 1
                    below_won += seat == trace.winner
    return {
        "lowest": lowest if seat_turns else 0.0,
        "seat_turns": seat_turns,
        "below": below,
        "below_won": below_won,
    }


_BINS: Final = (0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0)


def calibration(traces: Sequence[GameTrace]) -> list[dict[str, float]]:
    """How well the win chances predicted the winners: every seat's chance at every turn
    end but the last, of the won games, in bins; per bin the points, the mean chance
    and the share of those seats that went on to win."""
    bins: list[list[float]] = [[0, 0.0, 0] for _ in _BINS[1:]]  # points, chance sum, wins
    for trace in traces:
        if trace.winner is None:
            continue
        for point in trace.chances[:-1]:
            for seat, chance in enumerate(point):
                index = next(i for i, top in enumerate(_BINS[1:]) if chance <= top)
                bins[index][0] += 1
                bins[index][1] += chance
                bins[index][2] += seat == trace.winner
    return [
        {"low": low, "high": high, "points": n, "chance": total / n, "won": wins / n}
        for (low, high), (n, total, wins) in zip(itertools.pairwise(_BINS), bins, strict=True)
        if n
    ]


# Endings, chips and Blocks -----------------------------------------------------------


def stalemates(traces: Sequence[GameTrace]) -> Measure:
    """The share of games that ended in a stalemate (R33)."""
    return rate_measure([trace.reason == EndReason.STALEMATE for trace in traces])


def max_turns_endings(traces: Sequence[GameTrace]) -> Measure:
    """The share of games stopped by the turn limit (``max_turns``, R33)."""
    return rate_measure([trace.reason == EndReason.MAX_TURNS for trace in traces])


def supply_outs(traces: Sequence[GameTrace]) -> Measure:
    """The share of games in which a colour's chip supply ran out (R17)."""
    return rate_measure([trace.supply_out for trace in traces])


def chipless_completions(traces: Sequence[GameTrace]) -> Measure:
    """Completions per game that found their colour's supply empty (no chip, R17)."""
    return mean_measure([trace.chipless_completions for trace in traces])


def block_windows(traces: Sequence[GameTrace]) -> Measure:
    """Block windows per game: completions every opponent was asked to block (R29)."""
    return mean_measure([trace.block_windows for trace in traces])


def blocks(traces: Sequence[GameTrace]) -> Measure:
    """Blocks played per game."""
    return mean_measure([trace.blocks for trace in traces])


# Skill and restricted play -----------------------------------------------------------


def lone_wins(traces: Sequence[GameTrace], player: str) -> Measure:
    """Games where one seat holds ``player`` among others: the share that seat won.
    Its fair share is 1 / players."""
    flags = []
    for trace in traces:
        if trace.bots.count(player) != 1:
            raise ValueError(f"game {trace.key} does not seat exactly one {player!r}")
        flags.append(trace.winner is not None and trace.bots[trace.winner] == player)
    return rate_measure(flags)


def skill_share(traces: Sequence[GameTrace], player: str) -> Measure:
    """How far ``player``, alone among weaker players, gets from a lottery toward a
    certain win: ``(win rate - 1/n) / (1 - 1/n)``; 0 is pure luck, 1 pure skill."""
    players = player_count(traces)
    fair = 1 / players
    lone = lone_wins(traces, player)
    return dataclasses.replace(lone, offset=-fair / (1 - fair), scale=1 / (1 - fair))


def lone_seat(trace: GameTrace) -> int:
    """The lone player's seat in a table of one player among others: the bot list
    names it first and rotates one seat a game (:func:`~..selfplay.seat_bots`)."""
    return (-trace.game_index) % trace.player_count


def card_worth(barred: Sequence[GameTrace], unbarred: Sequence[GameTrace]) -> Measure:
    """What a card is worth, on shared deals: game ``i`` of both configs deals the same
    cards to the same seats with the same players' seeds, and the barred player plays
    exactly as the unbarred one until the card matters. Per game: the unbarred lone
    seat's win minus the barred one's (1, 0 or -1; 0 wherever the card never mattered);
    the mean is the card's worth in points of win rate (positive: the card helps)."""
    wins = {t.game_index: t.winner == lone_seat(t) for t in unbarred}
    return mean_measure(
        [
            float(wins[t.game_index]) - float(t.winner == lone_seat(t))
            for t in barred
            if t.game_index in wins
        ]
    )
