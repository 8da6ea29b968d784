"""A dossier's figures from its traces: every metric of every group (variant x player
count), the seats, the skill trace, the cards' worth, and each variant against the
baseline, as JSON-ready data with the seeds that reproduce them.

A figure's games are those of its config (``config_id``; game ``i`` is dealt from seed
``seed + i // rotation``, :func:`~..runner.game_setup`); a bootstrap interval's resamples
come from ``random.Random(bootstrap_seed)``. So every number can be recomputed from the
plan alone.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import metrics as m
from .intervals import Estimate, chi_square_uniform_p, wilson
from .plan import DEFAULT_VARIANT, Family, Job, Plan
from .traces import GameTrace
from .words import (
    METRICS,
    Metric,
    card_sentence,
    duel_sentence,
    metric_sentence,
    verdict,
)

__all__ = ["GroupResult", "analyse_dossier", "typical_game"]


@dataclasses.dataclass(slots=True)
class GroupResult:
    """One variant at one player count: its measures (for comparisons) and its data."""

    variant: str
    players: int
    measures: dict[str, m.Measure]
    data: dict[str, Any]


def _table_metrics(
    traces: Sequence[GameTrace], pace: m.Pace, no_chance: float
) -> dict[Metric, m.Measure]:
    measure: dict[Metric, Callable[[Sequence[GameTrace]], m.Measure]] = {
        Metric.FIRST_PLAYER_EDGE: m.first_player_edge,
        Metric.SEAT_SPREAD: m.seat_spread,
        Metric.TURNS: m.turns_per_game,
        Metric.ACTIONS: m.actions_per_game,
        Metric.MINUTES: lambda t: m.minutes_per_game(t, pace),
        Metric.WAIT_TURNS: m.wait_turns,
        Metric.WAIT_MINUTES: lambda t: m.wait_minutes(t, pace),
        Metric.HALFTIME_LEADER_LOSES: m.halftime_leader_loses,
        Metric.COMEBACKS: m.comebacks,
        Metric.LEAD_CHANGES: m.lead_changes,
        Metric.DECIDED_AT: m.decided_at,
        Metric.CERTAIN_AT: m.certain_at,
        Metric.KINGMADE: lambda t: m.kingmade(t, no_chance),
        Metric.STALEMATES: m.stalemates,
        Metric.MAX_TURNS: m.max_turns_endings,
        Metric.SUPPLY_OUT: m.supply_outs,
        Metric.CHIPLESS: m.chipless_completions,
        Metric.BLOCK_WINDOWS: m.block_windows,
        Metric.BLOCKS: m.blocks,
    }
    return {metric: function(traces) for metric, function in measure.items()}


def _figure(measure: m.Measure, seed: str, job: Job, games: int) -> tuple[Estimate, dict[str, Any]]:
    estimate = measure.estimate(seed)
    config = job.config
    source = {
        "config_id": config.config_id,
        "games": games,
        "seed": config.seed,
        "bots": list(config.bot_names),
        "bootstrap_seed": seed,
    }
    return estimate, {"estimate": estimate.to_dict(), "rests_on": measure.games, **source}


def _seats(traces: Sequence[GameTrace], players: int) -> dict[str, Any]:
    wins = [sum(1 for t in traces if t.winner == seat) for seat in range(players)]
    return {
        "win_rates": [wilson(count, len(traces)).to_dict() for count in wins],
        "equal_seats_p": chi_square_uniform_p(wins),
        "fair_share": 1 / players,
    }


def typical_game(traces: Sequence[GameTrace]) -> GameTrace | None:
    """A won game closest to the median length and the median number of lead changes
    (the lowest game index among equals)."""
    won = sorted((t for t in traces if t.winner is not None), key=lambda t: t.game_index)
    if not won:
        return None
    turns = statistics.median(t.played_turns for t in won)
    changes = statistics.median(m.lead_change_count(t) for t in won)
    spread = max(1.0, statistics.pstdev(t.played_turns for t in won))
    return min(
        won,
        key=lambda t: abs(t.played_turns - turns) / spread + abs(m.lead_change_count(t) - changes),
    )


def _swing(trace: GameTrace | None) -> dict[str, Any] | None:
    if trace is None:
        return None
    return {
        "config_id": trace.config_id,
        "game_index": trace.game_index,
        "seed": trace.seed,
        "winner": trace.winner,
        "chances": [list(point) for point in trace.chances],
        "chips": [[blue + red for blue, red in point] for point in trace.chips],
    }


def _group(
    plan: Plan,
    jobs: Sequence[Job],
    traces: Mapping[str, list[GameTrace]],
    pace: m.Pace,
    no_chance: float,
) -> GroupResult:
    spec = plan.spec
    variant, players = jobs[0].variant, jobs[0].players
    prefix = f"{spec.seed}/{variant}/p{players}"
    table = next(job for job in jobs if job.family == Family.TABLE)
    table_traces = traces[table.config.config_id]
    measures: dict[str, m.Measure] = {}
    figures: dict[str, Any] = {}
    for metric, measure in _table_metrics(table_traces, pace, no_chance).items():
        estimate, data = _figure(measure, f"{prefix}/{metric}", table, len(table_traces))
        measures[metric] = measure
        figures[metric] = {
            **data,
            "title": METRICS[metric].title,
            "section": METRICS[metric].section.value,
            "unit": METRICS[metric].unit.value,
            "sentence": metric_sentence(metric, estimate, players),
        }
    duels = []
    for job in jobs:
        if job.family not in (Family.LADDER, Family.SEARCH):
            continue
        assert job.lone is not None
        own = traces[job.config.config_id]
        key = f"duel/{job.lone}/{job.others}"
        measures[key] = m.lone_wins(own, job.lone)
        estimate, data = _figure(measures[key], f"{prefix}/{key}", job, len(own))
        duels.append(
            {
                "key": key,
                "family": job.family.value,
                "strong": job.lone,
                "weak": job.others,
                "scale": job.scale,
                **data,
                "sentence": duel_sentence(job.lone, job.others, estimate, players),
            }
        )
        if job.others == spec.skill_base() and job.lone == spec.reference:
            measures[Metric.SKILL_SHARE] = m.skill_share(own, job.lone)
            estimate, data = _figure(
                measures[Metric.SKILL_SHARE], f"{prefix}/{Metric.SKILL_SHARE}", job, len(own)
            )
            figures[Metric.SKILL_SHARE] = {
                **data,
                "title": METRICS[Metric.SKILL_SHARE].title,
                "section": METRICS[Metric.SKILL_SHARE].section.value,
                "unit": METRICS[Metric.SKILL_SHARE].unit.value,
                "sentence": metric_sentence(Metric.SKILL_SHARE, estimate, players),
            }
    cards = []
    control = next((j for j in jobs if j.family == Family.RESTRICTED and not j.restriction), None)
    unbarred = traces[control.config.config_id] if control is not None else []
    for job in jobs:
        if job.family != Family.RESTRICTED or job.restriction is None:
            continue
        assert job.lone is not None
        own = traces[job.config.config_id]
        key = f"card/{job.restriction.value}"
        measures[key] = m.card_worth(own, unbarred)
        estimate, data = _figure(measures[key], f"{prefix}/{key}", job, len(own))
        card = job.restriction.card_name
        barred_rate = m.lone_wins(own, job.lone).estimate("")
        control_rate = wilson(sum(t.winner == m.lone_seat(t) for t in unbarred), len(unbarred))
        cards.append(
            {
                "key": key,
                "restriction": job.restriction.value,
                "card": card,
                "barred": job.lone,
                **data,
                "barred_rate": barred_rate.to_dict(),
                "unbarred_rate": control_rate.to_dict(),
                "unbarred_config_id": control.config.config_id if control else None,
                "sentence": card_sentence(card, estimate, barred_rate, control_rate),
            }
        )
    data = {
        "variant": variant,
        "players": players,
        "table": {"config_id": table.config.config_id, "games": len(table_traces)},
        "metrics": figures,
        "seats": _seats(table_traces, players),
        "duels": duels,
        "cards": cards,
        "win_chance": sorted({t.estimate for t in table_traces}),
        "typical_game": _swing(typical_game(table_traces)),
        "calibration": m.calibration(table_traces),
        "chance_floor": m.chance_floor(table_traces, no_chance),
        "turns": [t.played_turns for t in table_traces],
    }
    return GroupResult(variant, players, measures, data)


def _comparison(group: GroupResult, base: GroupResult, seed: int) -> dict[str, Any]:
    differences: dict[str, Any] = {}
    verdict_input: dict[Metric, Estimate] = {}
    for key, measure in group.measures.items():
        baseline = base.measures.get(key)
        if baseline is None or not measure.values or not baseline.values:
            continue
        difference = measure.difference(
            baseline, f"{seed}/{group.variant}/p{group.players}/{key}/diff"
        )
        differences[key] = difference.to_dict()
        if key in set(Metric):
            verdict_input[Metric(key)] = difference
    return {
        "variant": group.variant,
        "baseline": base.variant,
        "players": group.players,
        "differences": differences,
        "verdict": verdict(verdict_input),
    }


def analyse_dossier(
    plan: Plan,
    traces: Sequence[GameTrace],
    *,
    pace: m.Pace | None = None,
    no_chance: float = m.NO_CHANCE,
) -> dict[str, Any]:
    """Every figure of the dossier as JSON-ready data (groups, then comparisons of each
    variant to the first). Uses each config's first ``games`` games of ``traces``."""
    pace = pace or m.Pace()
    jobs = plan.jobs()
    by_config: dict[str, list[GameTrace]] = defaultdict(list)
    for trace in sorted(traces, key=lambda t: t.key):
        by_config[trace.config_id].append(trace)
    wanted = {job.config.config_id: job.config.games for job in jobs}
    chosen = {
        cid: [t for t in by_config[cid] if t.game_index < games] for cid, games in wanted.items()
    }
    grouped: dict[tuple[str, int], list[Job]] = defaultdict(list)
    for job in jobs:
        grouped[(job.variant, job.players)].append(job)
    groups = [_group(plan, members, chosen, pace, no_chance) for members in grouped.values()]
    variants = [label for label, _ in plan.spec.variants()]
    comparisons = []
    for group in groups:
        if group.variant != variants[0]:
            base = next(g for g in groups if (g.variant, g.players) == (variants[0], group.players))
            comparisons.append(_comparison(group, base, plan.spec.seed))
    return {
        "spec": plan.spec.to_dict(),
        "variants": variants,
        "baseline": variants[0] if plan.spec.vary else DEFAULT_VARIANT,
        "skill_base": plan.spec.skill_base(),
        "games": sum(len(items) for items in chosen.values()),
        "pace": dataclasses.asdict(pace),
        "no_chance": no_chance,
        "certain": m.CERTAIN,
        "king_swing": m.KING_SWING,
        "plan": {**plan.to_dict(), "games": {cid: wanted[cid] for cid in wanted}},
        "groups": [group.data for group in groups],
        "comparisons": comparisons,
    }
