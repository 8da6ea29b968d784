"""The dossier's HTML page: one self-contained file, no script, the report's style.

Built like the report's page (:mod:`..report_page`, whose table, figure and page helpers
it uses): figures embedded as ``data:`` URLs, one ``<style>`` element allowed by its hash
in a strict Content-Security-Policy, every string from the data escaped.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from sequence_stacks.sim.report_page import (
    CSS,
    figure_html,
    nav_html,
    note_html,
    page_html,
    table_html,
)

from .intervals import Estimate
from .words import (
    CALIBRATION_HEADERS,
    METRICS,
    Metric,
    Section,
    Unit,
    calibration_cells,
    floor_cells,
    floor_headers,
    formatted,
    groups_by_players,
)

if TYPE_CHECKING:
    from sequence_stacks.sim.report_figures import SavedFigure

__all__ = ["DOSSIER_CSS", "render_dossier"]

DOSSIER_CSS: Final = (
    CSS + "\n.verdict{font-weight:600}\nul.glance li{margin:.35rem 0}\n"
    "dl dt{font-weight:600;margin-top:.6rem}\ndl dd{margin-left:1.2rem}\n"
    "td.note{max-width:55ch}"
)
_SECTION_IDS: Final = {
    Section.FAIRNESS: "fairness",
    Section.LENGTH: "length",
    Section.SKILL: "skill",
    Section.DRAMA: "drama",
    Section.ENDINGS: "endings",
}
_GLANCE: Final = (
    Metric.FIRST_PLAYER_EDGE,
    Metric.MINUTES,
    Metric.WAIT_MINUTES,
    Metric.SKILL_SHARE,
    Metric.HALFTIME_LEADER_LOSES,
    Metric.KINGMADE,
)

Data = Mapping[str, Any]


def _e(text: object) -> str:
    return html.escape(str(text))


def _value(figure: Data) -> str:
    if not figure["rests_on"]:
        return "—"
    return formatted(Estimate.from_dict(figure["estimate"]), Unit(figure["unit"]))


def _glance(data: Data) -> str:
    parts = ['<section id="glance"><h2>At a glance</h2>']
    comparisons = {(c["variant"], c["players"]): c for c in data["comparisons"]}
    for players, groups in groups_by_players(data).items():
        base = groups[0]
        items = [base["metrics"][m]["sentence"] for m in _GLANCE if m in base["metrics"]]
        cards = [c for c in base["cards"] if Estimate.from_dict(c["estimate"]).excludes(0.0)]
        if cards:
            best = max(cards, key=lambda c: c["estimate"]["value"])
            items.append(best["sentence"])
        parts.append(f"<h3>{players} players, {_e(base['variant'])}</h3>")
        parts.append('<ul class="glance">' + "".join(f"<li>{_e(i)}</li>" for i in items) + "</ul>")
        for group in groups[1:]:
            comparison = comparisons[(group["variant"], players)]
            parts.append(
                f'<p class="verdict">{_e(group["variant"])} against {_e(base["variant"])}: '
                f"{_e(comparison['verdict'])}</p>"
            )
    return "".join([*parts, "</section>"])


def _metric_table(groups: Sequence[Data], section: Section) -> str:
    metrics = [m for m in Metric if METRICS[m].section == section and m in groups[0]["metrics"]]
    if not metrics:
        return ""
    headers = ["figure", *(f"{g['variant']} [95% CI]" for g in groups), "games", "for a family"]
    rows = []
    for metric in metrics:
        figures = [group["metrics"].get(metric) for group in groups]
        values = [_value(f) if f else "—" for f in figures]
        games = "/".join(str(f["rests_on"]) for f in figures if f)
        sentence = figures[0]["sentence"] if figures[0] else ""
        rows.append([METRICS[metric].title, *values, games, sentence])
    return table_html(headers, rows, text_columns=1, note_last=True)


def _seat_table(groups: Sequence[Data]) -> str:
    players = int(groups[0]["players"])
    headers = ["seat", *(f"{g['variant']}: win rate [95% CI]" for g in groups)]
    rows = []
    for seat in range(players):
        cells = [
            formatted(Estimate.from_dict(g["seats"]["win_rates"][seat]), Unit.RATE) for g in groups
        ]
        rows.append([f"seat {seat}" + (" (plays first)" if seat == 0 else ""), *cells])
    rows.append(["test of equal seats, p", *(f"{g['seats']['equal_seats_p']:.2f}" for g in groups)])
    return table_html(headers, rows, caption=f"Win rate by seat, fair share {1 / players:.1%}")


def _duel_table(groups: Sequence[Data]) -> str:
    headers = [
        "lone player",
        "among",
        *(f"{g['variant']}: win rate [95% CI]" for g in groups),
        "games",
    ]
    rows = [
        [duel["strong"], duel["weak"], *cells, games]
        for duel, cells, games in _side_by_side(groups, "duels", Unit.RATE)
    ]
    return table_html(headers, rows, text_columns=2)


def _card_table(groups: Sequence[Data]) -> str:
    headers = [
        "card barred",
        *(f"{g['variant']}: worth [95% CI]" for g in groups),
        "games",
        "for a family",
    ]
    rows = [
        [card["card"], *cells, games, card["sentence"]]
        for card, cells, games in _side_by_side(groups, "cards", Unit.POINTS)
    ]
    return table_html(headers, rows, note_last=True)


def _side_by_side(
    groups: Sequence[Data], key: str, unit: Unit
) -> Iterator[tuple[Data, list[str], str]]:
    """Each entry of the baseline's ``key`` list (a duel, a card) with the same entry's
    estimate in every variant, and the games each rests on (``"120/118"``)."""
    for index, entry in enumerate(groups[0][key]):
        figures = [group[key][index] for group in groups]
        cells = [formatted(Estimate.from_dict(f["estimate"]), unit) for f in figures]
        yield entry, cells, "/".join(str(f["rests_on"]) for f in figures)


def _section(
    data: Data, section: Section, images: Mapping[str, SavedFigure], figure: tuple[str, str] | None
) -> str:
    parts = [f'<section id="{_SECTION_IDS[section]}"><h2>{_e(section.value)}</h2>']
    if figure is not None:
        parts.append(figure_html(images.get(figure[0]), figure[1]))
    for players, groups in groups_by_players(data).items():
        parts.append(f"<h3>{players} players</h3>")
        if section == Section.FAIRNESS:
            parts.append(_seat_table(groups))
        if section == Section.SKILL and groups[0]["duels"]:
            parts.append(_duel_table(groups))
        parts.append(_metric_table(groups, section))
    return "".join([*parts, "</section>"])


def _cards(data: Data, images: Mapping[str, SavedFigure]) -> str:
    parts = ['<section id="cards"><h2>What each card is worth (restricted play)</h2>']
    parts.append(
        figure_html(
            images.get("card_worth"),
            "One reference player barred from a card, alone among normal ones, at every "
            "seat in turn; the same deals, seats and seeds are played with it unbarred. "
            "Worth = its win rate unbarred minus barred, game by game (games where the "
            "card never mattered are the same and count zero): positive means the card "
            "helps whoever may play it.",
        )
    )
    for players, groups in groups_by_players(data).items():
        if groups[0]["cards"]:
            parts.append(f"<h3>{players} players</h3>" + _card_table(groups))
    return "".join([*parts, "</section>"])


def _variants(data: Data) -> str:
    if not data["comparisons"]:
        return ""
    parts = ['<section id="variants"><h2>Variants side by side</h2>']
    for comparison in data["comparisons"]:
        players = comparison["players"]
        parts.append(
            f"<h3>{players} players: {_e(comparison['variant'])} against "
            f"{_e(comparison['baseline'])}</h3>"
            f'<p class="verdict">{_e(comparison["verdict"])}</p>'
        )
        rows = []
        for key, difference in comparison["differences"].items():
            unit, title = _difference_unit(key)
            shown = formatted(Estimate.from_dict(difference), unit, difference=True)
            changed = "yes" if Estimate.from_dict(difference).excludes(0.0) else "no"
            rows.append([title, shown, changed])
        parts.append(
            table_html(["figure", "difference [95% CI]", "measurable?"], rows, text_columns=1)
        )
    return "".join([*parts, "</section>"])


def _difference_unit(key: str) -> tuple[Unit, str]:
    if key in set(Metric):
        info = METRICS[Metric(key)]
        return info.unit, info.title
    kind, _, rest = key.partition("/")
    if kind == "card":
        return Unit.POINTS, f"worth of {rest}"
    return Unit.RATE, f"win rate of {rest.replace('/', ' among ')}"


def _method(data: Data) -> str:
    spec = data["spec"]
    pace = data["pace"]
    chance = data["win_chance"]
    definitions = [
        (
            "Players",
            f"The table is {spec['reference']} self-play (docs/bots.md): fairness, length, "
            "drama, endings. Bots are not people: these are properties of the game as these "
            "players play it.",
        ),
        (
            "Intervals",
            "95% intervals: Wilson for rates, Newcombe's hybrid score interval for a "
            "difference of rates, a 1,000-resample percentile bootstrap for everything "
            "else (seeded: each figure names its bootstrap seed in dossier.json).",
        ),
        (
            "Pace",
            f"Minutes assume {pace['turn_s']:g} s to start a turn, {pace['action_s']:g} s "
            "per action (a card played, a discard, ending the turn) and "
            f"{pace.get('window_s', 0.0):g} s per Block window: at the online table every "
            "answer is held until the window's whole time is up, 8 s at the relaxed pace a "
            "new table gets (the server's 5 s Block timeout x 1.6), and answers take no "
            "time beyond it. The seconds per turn and per action are assumptions, not timed "
            "play; --pace changes all three. A wait is the time of the other players' turns "
            "between two of yours.",
        ),
        ("Win chance", chance_method(chance)),
        (
            "Decisiveness",
            "Winner certain from: the share of the game's turns played before the winner's "
            f"chance reached {data.get('certain', 0.95):.0%} and stayed there at every later "
            "turn end. Winner leads for good from: the same for being the leader.",
        ),
        (
            "Share of skill",
            f"{spec['reference']} alone among {data['skill_base']} players (beginners who "
            "take the obvious move): (win rate - 1/n) / (1 - 1/n), how far from a lottery "
            "(0%) toward a certain win (100%) the better player gets. 0% would be pure "
            "luck; the ladder against random players shows the ceiling.",
        ),
        (
            "Kingmaking",
            f"A Block, Steal-a-Chip or Skip by a player whose win chance was below "
            f"{data['no_chance']:.0%} at the last turn end, against a player A, when A and the "
            "eventual winner W held the two highest chances, A's at least W's, and W's "
            f"chance rose by at least {data.get('king_swing', 0.05) * 100:.0f} points by the "
            "end of that turn. It marks games a hopeless player may have decided, not games "
            "it surely decided (no game is replayed without the move).",
        ),
        (
            "Restricted play",
            "A barred player never plays the card (from hand or discard top) and never "
            "Blocks if barred from Block; it discards the card at its first turn end, since "
            "it is dead weight to it (an opponent may then take it with Steal-a-Card). Each "
            "barred game is paired with the same game unbarred (same deal, seat and "
            "seeds: the player decides exactly alike until the card matters); the worth is "
            "the mean of unbarred minus barred wins, with a bootstrap interval.",
        ),
    ]
    items = "".join(f"<dt>{_e(term)}</dt><dd>{_e(text)}</dd>" for term, text in definitions)
    items += _floor(data)
    items += _calibration(data)
    plan = data["plan"]
    rows = [
        [config_id, str(games), f"{plan['seconds_per_game'].get(config_id, 0.0):.3f}"]
        for config_id, games in plan["games"].items()
    ]
    runs = "; ".join(
        f"{run['games_played']} games in {run['seconds']:.0f} s on {run['workers']} "
        f"worker(s) ({run['backend']}, load average {run['load_average']})"
        for run in data["runs"]
    )
    return (
        '<section id="method"><h2>Method and games</h2><dl>' + items + "</dl>"
        f"<p>{data['games']} games, seed {spec['seed']}. Runs (playing, before the "
        f"analysis): {_e(runs)}. "
        "Game i of a configuration is dealt from seed + i // (players at its table when one "
        "player is alone, else 1); the plan below fixes every count, so "
        "<code>sequence-stacks dossier --plan plan.json --out NEW</code> replays the "
        "same games and figures.</p>"
        + table_html(
            ["configuration", "games", "s/game (planning)"],
            rows,
            caption="Every configuration and the games each figure rests on",
        )
        + note_html(f"Spec: {json.dumps(spec, sort_keys=True)}")
        + "</section>"
    )


def chance_method(chance: Data) -> str:
    """How the win chances were estimated, in words (the model, chips, or both)."""
    used = set(chance.get("by_players", {}).values()) or {chance["name"]}
    words = []
    if "model" in used:
        words.append(
            "Each seat's chance at every turn end is the learned win-chance model's "
            "P(that seat wins | what that seat may see: its own hand and the table), "
            "asked once per seat (bots/winchance.py, trained on heuristic self-play at "
            "default rules by train-value, docs/bots.md). Seats see different hands, so "
            "the chances of one turn end need not sum to exactly 1. Under other rules the "
            "model reads the same features but was not trained on them: check its "
            "calibration below."
        )
    if "chips" in used:
        counts = [n for n, name in chance.get("by_players", {}).items() if name == "chips"]
        where = f" (for {', '.join(counts)} players)" if "model" in used else ""
        words.append(
            f"From chips alone{where}: chances proportional to exp(-0.5 x chips still "
            "needed), the weight fitted to heuristic self-play at default rules; public "
            "facts only."
        )
    if not used & {"model", "chips"}:
        words.append(f"By the {chance['name']!r} estimate ({chance['estimate']}).")
    words.append(
        "The leader is the seat with the highest chance when no other ties it; half-time "
        "is the end of turn turns/2."
    )
    return " ".join(words)


def _floor(data: Data) -> str:
    """How hopeless players ever get, per group: the kingmaking figure's background."""
    rows = [
        [f"{group['players']} players, {group['variant']}", *floor_cells(group["chance_floor"])]
        for group in data["groups"]
        if "chance_floor" in group
    ]
    return (
        "<dt>How hopeless players get</dt><dd>Kingmaking needs a player with no chance "
        "left. Over every seat's chance at every turn end of the table's games (the last "
        "one, the result, left out): the lowest, and the seat-turns "
        f"below {data['no_chance']:.0%} (and how many of those seats won).</dd>"
        + table_html(["group", *floor_headers(data["no_chance"])], rows)
    )


def _calibration(data: Data) -> str:
    """The win chance's calibration table per group, as a definition list entry."""
    parts = []
    for group in data["groups"]:
        rows = [calibration_cells(b) for b in group["calibration"]]
        caption = f"{group['players']} players, {group['variant']}"
        parts.append(table_html(CALIBRATION_HEADERS, rows, caption=caption))
    return (
        "<dt>How well the win chance predicts</dt><dd>Every seat's estimated chance at "
        "every turn end of the table's won games, in bins, against the share of those "
        "seats that went on to win: close numbers mean a trustworthy estimate.</dd>"
        + "".join(parts)
    )


def _nav(data: Data) -> str:
    links = [
        ("#glance", "At a glance"),
        *((f"#{_SECTION_IDS[s]}", s.value) for s in Section),
        ("#cards", "Cards"),
        *((("#variants", "Variants"),) if data["comparisons"] else ()),
        ("#method", "Method"),
    ]
    return nav_html(links)


def render_dossier(data: Data, images: Mapping[str, SavedFigure], *, title: str) -> str:
    """The whole page for :func:`~.analysis.analyse_dossier` data (with its
    ``runs`` and ``win_chance`` parts) and the saved figures."""
    counts = ", ".join(str(p) for p in groups_by_players(data))
    lead = (
        f"{data['games']} games of bot play at {counts} players; variants: "
        f"{', '.join(data['variants'])}. Every figure carries a 95% interval and the number "
        "of games it rests on; each says in one sentence what it means at the table."
    )
    sections = (
        _glance(data)
        + _section(data, Section.FAIRNESS, images, None)
        + _section(
            data,
            Section.LENGTH,
            images,
            ("length", "Turns per game, one curve per variant; the vertical lines are the means."),
        )
        + _section(
            data,
            Section.SKILL,
            images,
            (
                "skill_trace",
                "One stronger player alone among weaker ones, at every seat in turn; the "
                "dashed line is the fair share. Search budgets double from left to right.",
            ),
        )
        + _section(
            data,
            Section.DRAMA,
            images,
            (
                "swings",
                "The game closest to the median length and number of lead changes.",
            ),
        )
        + _cards(data, images)
        + _section(data, Section.ENDINGS, images, None)
        + _variants(data)
        + _method(data)
    )
    body = (
        f'<header><h1>{_e(title)}</h1><p class="lead">{_e(lead)}</p>{_nav(data)}</header>'
        + sections
    )
    return page_html(title, body, css=DOSSIER_CSS)
