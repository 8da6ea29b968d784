"""The dossier's vocabulary: its metrics, their titles and units, and the sentence each
says to a family at the table and to a designer comparing variants (English, like the
rest of the designer's reports)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from typing import Any, Final

from .intervals import Estimate

__all__ = [
    "CALIBRATION_HEADERS",
    "METRICS",
    "Metric",
    "MetricInfo",
    "Section",
    "Unit",
    "calibration_cells",
    "card_sentence",
    "duel_sentence",
    "floor_cells",
    "floor_headers",
    "formatted",
    "groups_by_players",
    "magnitude",
    "metric_sentence",
    "verdict",
]


class Section(enum.StrEnum):
    """Where a metric sits on the page."""

    FAIRNESS = "Fairness"
    LENGTH = "Length"
    SKILL = "Skill and luck"
    DRAMA = "Drama and lead change"
    ENDINGS = "Endings, chips and Blocks"


class Unit(enum.StrEnum):
    """How a metric's numbers read."""

    RATE = "rate"  # a share of games: 23.4%; differences in points
    POINTS = "points"  # a difference of rates: +3.1 points
    SHARE = "share"  # a fraction of something else: 42%
    NUMBER = "number"  # turns, actions, counts: 12.3
    MINUTES = "minutes"


class Metric(enum.StrEnum):
    """A figure the dossier gives for every variant and player count."""

    FIRST_PLAYER_EDGE = "first_player_edge"
    SEAT_SPREAD = "seat_spread"
    TURNS = "turns"
    ACTIONS = "actions"
    MINUTES = "minutes"
    WAIT_TURNS = "wait_turns"
    WAIT_MINUTES = "wait_minutes"
    SKILL_SHARE = "skill_share"
    HALFTIME_LEADER_LOSES = "halftime_leader_loses"
    COMEBACKS = "comebacks"
    LEAD_CHANGES = "lead_changes"
    DECIDED_AT = "decided_at"
    CERTAIN_AT = "certain_at"
    KINGMADE = "kingmade"
    STALEMATES = "stalemates"
    MAX_TURNS = "max_turns"
    SUPPLY_OUT = "supply_out"
    CHIPLESS = "chipless_completions"
    BLOCK_WINDOWS = "block_windows"
    BLOCKS = "blocks"


@dataclasses.dataclass(frozen=True, slots=True)
class MetricInfo:
    """A metric's title, section and unit; the words for a rise and a fall, and the
    topic a verdict names when nothing measurably changed."""

    title: str
    section: Section
    unit: Unit
    up: str
    down: str
    topic: str


def _info(title: str, section: Section, unit: Unit, words: str) -> MetricInfo:
    up, down, topic = words.split("|")
    return MetricInfo(title, section, unit, up, down, topic)


_F, _L, _S, _D, _E = Section  # in the order of the page
METRICS: Final = {
    Metric.FIRST_PLAYER_EDGE: _info(
        "First-player edge",
        _F,
        Unit.POINTS,
        "more first-player edge|less first-player edge|first-player edge",
    ),
    Metric.SEAT_SPREAD: _info(
        "Seat spread (best minus worst seat)", _F, Unit.POINTS, "less fair|fairer|fairness"
    ),
    Metric.TURNS: _info("Turns per game", _L, Unit.NUMBER, "longer|shorter|length"),
    Metric.ACTIONS: _info(
        "Actions per game", _L, Unit.NUMBER, "more actions|fewer actions|actions"
    ),
    Metric.MINUTES: _info(
        "Minutes per game",
        _L,
        Unit.MINUTES,
        "longer at the table|shorter at the table|time at the table",
    ),
    Metric.WAIT_TURNS: _info(
        "Turns waited between own turns", _L, Unit.NUMBER, "longer waits|shorter waits|waits"
    ),
    Metric.WAIT_MINUTES: _info(
        "Minutes waited between own turns",
        _L,
        Unit.MINUTES,
        "longer waits|shorter waits|waiting time",
    ),
    Metric.SKILL_SHARE: _info(
        "Share of skill (reference player among beginners)",
        _S,
        Unit.SHARE,
        "more skill|more luck|skill and luck",
    ),
    Metric.HALFTIME_LEADER_LOSES: _info(
        "Half-time leader loses", _D, Unit.RATE, "more open|less open|openness at half-time"
    ),
    Metric.COMEBACKS: _info(
        "Comebacks (winner once below half a fair chance)",
        _D,
        Unit.RATE,
        "more comebacks|fewer comebacks|comebacks",
    ),
    Metric.LEAD_CHANGES: _info(
        "Lead changes per game",
        _D,
        Unit.NUMBER,
        "more lead changes|fewer lead changes|lead changes",
    ),
    Metric.DECIDED_AT: _info(
        "Winner leads for good from (share of the game)",
        _D,
        Unit.SHARE,
        "decided later|decided earlier|when the winner shows",
    ),
    Metric.CERTAIN_AT: _info(
        "Winner certain from (chance at least 95%, share of the game)",
        _D,
        Unit.SHARE,
        "decided later|decided earlier|decisiveness",
    ),
    Metric.KINGMADE: _info(
        "Possible kingmaking (share of won games)",
        _D,
        Unit.RATE,
        "more kingmaking|less kingmaking|kingmaking",
    ),
    Metric.STALEMATES: _info(
        "Stalemates", _E, Unit.RATE, "more stalemates|fewer stalemates|stalemates"
    ),
    Metric.MAX_TURNS: _info(
        "Stopped by the turn limit",
        _E,
        Unit.RATE,
        "more games cut off|fewer games cut off|games cut off",
    ),
    Metric.SUPPLY_OUT: _info(
        "A colour's chips run out",
        _E,
        Unit.RATE,
        "chips run out more often|chips run out less often|chip supply",
    ),
    Metric.CHIPLESS: _info(
        "Completions without a chip per game",
        _E,
        Unit.NUMBER,
        "more completions without a chip|fewer completions without a chip|chipless completions",
    ),
    Metric.BLOCK_WINDOWS: _info(
        "Block windows per game",
        _E,
        Unit.NUMBER,
        "more Block windows|fewer Block windows|Block windows",
    ),
    Metric.BLOCKS: _info(
        "Blocks played per game", _E, Unit.NUMBER, "more Blocks|fewer Blocks|Blocks"
    ),
}

# The comparisons a variant's one-line verdict names, in order.
_VERDICT: Final = (
    Metric.TURNS,
    Metric.MINUTES,
    Metric.SEAT_SPREAD,
    Metric.FIRST_PLAYER_EDGE,
    Metric.SKILL_SHARE,
    Metric.HALFTIME_LEADER_LOSES,
    Metric.KINGMADE,
)


def _pct(value: float) -> str:
    return f"{value:.1%}"


def _points(value: float, *, sign: bool = False) -> str:
    return f"{100 * value:+.1f}" if sign else f"{100 * value:.1f}"


def formatted(estimate: Estimate, unit: Unit, *, difference: bool = False) -> str:
    """``value [low, high]`` in the unit's own way (a difference in points for rates;
    signed when it is a difference or may be negative)."""
    e = estimate
    signed = difference or e.low < 0
    if unit in (Unit.RATE, Unit.POINTS, Unit.SHARE) and (difference or unit == Unit.POINTS):
        lo, hi = _points(e.low, sign=signed), _points(e.high, sign=signed)
        return f"{_points(e.value, sign=signed)} points [{lo}, {hi}]"
    if unit in (Unit.RATE, Unit.SHARE):
        return f"{_pct(e.value)} [{_pct(e.low)}, {_pct(e.high)}]"
    sign = "+" if signed else ""
    digits = 2 if max(abs(e.low), abs(e.high)) < 1 else 1
    return f"{e.value:{sign}.{digits}f} [{e.low:{sign}.{digits}f}, {e.high:{sign}.{digits}f}]"


def _rate_of(edge: Estimate, fair: float) -> str:
    return f"{_pct(edge.value + fair)} [{_pct(edge.low + fair)}, {_pct(edge.high + fair)}]"


def _first_player(e: Estimate, players: int) -> str:
    fair = 1 / players
    rate = _rate_of(e, fair)
    if not e.excludes(0.0):
        return (
            f"The first player wins {rate} of games against a fair {_pct(fair)}: "
            "no measurable first-player edge."
        )
    word = "an edge" if e.value > 0 else "a handicap"
    return (
        f"The first player wins {rate} of games against a fair {_pct(fair)}: {word} of "
        f"{_points(abs(e.value))} points, small at one table, real over many evenings."
    )


def _turns(e: Estimate, players: int) -> str:
    return (
        f"A game lasts {formatted(e, Unit.NUMBER)} turns, about {e.value / players:.0f} "
        "turns for each player."
    )


def _wait_minutes(e: Estimate, players: int) -> str:
    del players
    seconds = Estimate(60 * e.value, 60 * e.low, 60 * e.high, e.n, e.method)
    return f"You wait {formatted(seconds, Unit.NUMBER)} seconds between two of your turns."


def _skill(e: Estimate, players: int) -> str:
    del players
    if e.low >= 0.5:
        word = "skill decides most games"
    elif e.high < 0.2:
        word = "luck decides most games"
    elif e.low >= 0.2:
        word = "skill matters, but the cards often decide"
    elif e.high < 0.5:
        word = "the cards decide more games than skill does"
    else:
        word = "too few games to say how much"
    return (
        f"A good player alone among beginners gets {formatted(e, Unit.SHARE)} of the way "
        f"from a lottery to a certain win: {word}, as far as these bots can tell."
    )


def _halftime(e: Estimate, players: int) -> str:
    blind = (players - 1) / players
    if e.high >= blind:
        hold = "a lead at half-time means little"
    elif e.high < 0.5:
        hold = "a lead at half-time usually holds"
    else:
        hold = "a lead at half-time helps, but the game stays open"
    return (
        f"The player ahead at half-time goes on to lose {formatted(e, Unit.RATE)} of games "
        f"(if a lead meant nothing, {_pct(blind)}): {hold}."
    )


def _comebacks(e: Estimate, players: int) -> str:
    del players
    return (
        f"In {formatted(e, Unit.RATE)} of games the winner was once far behind (below half "
        "a fair chance): nobody is out of it early."
        if e.value >= 0.2
        else f"In {formatted(e, Unit.RATE)} of games the winner was once far behind: "
        "comebacks are rare."
    )


def _decided(e: Estimate, players: int) -> str:
    del players
    late = "the end stays open until late" if e.value >= 0.6 else "the winner shows early"
    return (
        f"The winner takes the lead for good {formatted(e, Unit.SHARE)} of the way through "
        f"the game: {late}."
    )


def _certain(e: Estimate, players: int) -> str:
    del players
    late = (
        "nobody can be sure of the winner until near the end"
        if e.value >= 0.75
        else "many games are settled well before the last turn"
    )
    return (
        f"The winner's chance reaches 95% for good {formatted(e, Unit.SHARE)} of the way "
        f"through the game: {late}."
    )


def _kingmade(e: Estimate, players: int) -> str:
    if players < 3:
        return "Kingmaking needs three players or more."
    return (
        f"In {formatted(e, Unit.RATE)} of won games a player with no chance left hit one of "
        "the two contenders, and the other one gained from it and won: possible kingmaking."
    )


def _filled(unit: Unit, text: str) -> Callable[[Estimate, int], str]:
    """The sentence that only puts the figure, in ``unit``, in ``text``'s ``{}``."""

    def sentence(e: Estimate, players: int) -> str:
        del players
        return text.format(formatted(e, unit))

    return sentence


_SENTENCES: Final[dict[Metric, Callable[[Estimate, int], str]]] = {
    Metric.FIRST_PLAYER_EDGE: _first_player,
    Metric.SEAT_SPREAD: _filled(
        Unit.POINTS,
        "The best and the worst seat differ by {} of win rate; "
        "chance alone spreads seats apart too (see the test of equal seats).",
    ),
    Metric.TURNS: _turns,
    Metric.ACTIONS: _filled(
        Unit.NUMBER, "A game takes {} actions: cards played, discards, Block answers."
    ),
    Metric.MINUTES: _filled(Unit.NUMBER, "At the stated pace a game takes {} minutes."),
    Metric.WAIT_TURNS: _filled(
        Unit.NUMBER, "Between two of your turns, {} other turns are played."
    ),
    Metric.WAIT_MINUTES: _wait_minutes,
    Metric.SKILL_SHARE: _skill,
    Metric.HALFTIME_LEADER_LOSES: _halftime,
    Metric.COMEBACKS: _comebacks,
    Metric.LEAD_CHANGES: _filled(Unit.NUMBER, "The lead changes hands {} times a game."),
    Metric.DECIDED_AT: _decided,
    Metric.CERTAIN_AT: _certain,
    Metric.KINGMADE: _kingmade,
    Metric.STALEMATES: _filled(Unit.RATE, "{} of games end in a stalemate, with no winner."),
    Metric.MAX_TURNS: _filled(
        Unit.RATE, "{} of games are stopped by the turn limit, with no winner."
    ),
    Metric.SUPPLY_OUT: _filled(Unit.RATE, "A colour's chips run out in {} of games."),
    Metric.CHIPLESS: _filled(
        Unit.NUMBER, "{} completions a game find no chip of their colour left."
    ),
    Metric.BLOCK_WINDOWS: _filled(
        Unit.NUMBER, "Everyone is asked whether to Block {} times a game (each completed sequence)."
    ),
    Metric.BLOCKS: _filled(Unit.NUMBER, "{} Blocks are played a game."),
}


def metric_sentence(metric: Metric, estimate: Estimate, players: int) -> str:
    """What the figure means for a family at the table, in one sentence."""
    if metric == Metric.KINGMADE and players < 3:
        return _kingmade(estimate, players)
    if estimate.n == 0:
        return "No game gave this figure."
    return _SENTENCES[metric](estimate, players)


def card_sentence(card: str, worth: Estimate, barred: Estimate, unbarred: Estimate) -> str:
    """What a card is worth: how much less a player wins when barred from it, on the
    same deals as the same player unbarred."""
    text = (
        f"A player who may not play {card} wins {formatted(barred, Unit.RATE)} of games, "
        f"against {formatted(unbarred, Unit.RATE)} on the same deals unbarred: "
    )
    if not worth.excludes(0.0):
        return text + "no measurable worth at these game counts."
    word = "worth" if worth.value > 0 else "a burden of"
    return text + f"the card is {word} {magnitude(worth, Unit.POINTS)} of win rate."


def duel_sentence(strong: str, weak: str, rate: Estimate, players: int) -> str:
    """How often one stronger player alone among weaker ones wins."""
    fair = 1 / players
    among = "against" if players == 2 else "alone among"
    plural = "" if players == 2 else "s"
    edge = "beats" if rate.low > fair else "does not measurably beat"
    return (
        f"{strong} {among} {weak} player{plural} wins {formatted(rate, Unit.RATE)} "
        f"(fair share {_pct(fair)}): it {edge} them."
    )


def magnitude(difference: Estimate, unit: Unit) -> str:
    """The size of a difference whose interval excludes zero, without its sign:
    ``9.0 [6.1, 12.0]``, or ``3.1 points [1.0, 5.2]`` for rates and shares."""
    ends = sorted((abs(difference.low), abs(difference.high)))
    size = dataclasses.replace(difference, value=abs(difference.value), low=ends[0], high=ends[1])
    if unit in (Unit.RATE, Unit.POINTS, Unit.SHARE):
        return f"{_points(size.value)} points [{_points(size.low)}, {_points(size.high)}]"
    return formatted(size, unit)


def verdict(differences: dict[Metric, Estimate]) -> str:
    """A variant against the baseline in one line (the headline metrics only):
    ``longer by 9.0 [6.1, 12.0]; fairness: no measurable change; ...``."""
    parts = []
    for metric in _VERDICT:
        difference = differences.get(metric)
        if difference is None or difference.n == 0:
            continue
        info = METRICS[metric]
        if difference.excludes(0.0):
            word = info.up if difference.value > 0 else info.down
            parts.append(f"{word} by {magnitude(difference, info.unit)}")
        else:
            parts.append(f"{info.topic}: no measurable change")
    return "; ".join(parts) + "." if parts else "No figure to compare."


# The win chance's tables (page and Markdown): how low chances get, how well they predict.
def groups_by_players(data: Mapping[str, Any]) -> dict[int, list[Mapping[str, Any]]]:
    """The analysis' groups (:func:`~.analysis.analyse_dossier`) by player count, fewest
    players first, each count's groups in their order (the baseline variant first)."""
    rows: dict[int, list[Mapping[str, Any]]] = {}
    for group in data["groups"]:
        rows.setdefault(int(group["players"]), []).append(group)
    return dict(sorted(rows.items()))


CALIBRATION_HEADERS: Final = ("chance", "seat-turns", "mean chance", "went on to win")


def calibration_cells(bin_: Mapping[str, float]) -> list[str]:
    """One calibration bin (:func:`~.metrics.calibration`) as table cells."""
    return [
        f"{bin_['low']:.0%}-{bin_['high']:.0%}",
        str(int(bin_["points"])),
        f"{bin_['chance']:.1%}",
        f"{bin_['won']:.1%}",
    ]


def floor_headers(no_chance: float) -> list[str]:
    """The headers of :func:`floor_cells`."""
    return ["lowest chance", f"seat-turns below {no_chance:.0%}", "of those, won"]


def floor_cells(floor: Mapping[str, float]) -> list[str]:
    """How hopeless players get (:func:`~.metrics.chance_floor`) as table cells."""
    return [
        f"{floor['lowest']:.1%}",
        f"{int(floor['below'])} of {int(floor['seat_turns'])}",
        str(int(floor["below_won"])),
    ]
