"""The dossier's figures as Markdown tables (``dossier.md``), for documents such as
docs/balance.md: the same numbers and sentences as the page, one table per question and
player count, the figures linked by file name."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

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

__all__ = ["render_markdown"]

Data = Mapping[str, Any]


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _each_group(data: Data) -> Iterator[tuple[list[str], Data]]:
    """Every group, fewest players first, with the cells that begin its rows: the player
    count and the variant."""
    for players, groups in groups_by_players(data).items():
        for group in groups:
            yield [str(players), group["variant"]], group


def _section(data: Data, section: Section) -> str:
    metrics = [m for m in Metric if METRICS[m].section == section]
    rows = []
    for where, group in _each_group(data):
        for metric in metrics:
            figure = group["metrics"].get(metric)
            if figure is None:
                continue
            estimate = Estimate.from_dict(figure["estimate"])
            shown = formatted(estimate, Unit(figure["unit"])) if estimate.n else "—"
            rows.append(
                [*where, METRICS[metric].title, shown, str(figure["rests_on"]), figure["sentence"]]
            )
    headers = ["players", "variant", "figure", "value [95% CI]", "games", "for a family"]
    return f"### {section.value}\n\n" + _table(headers, rows)


def _seats(data: Data) -> str:
    most = max(int(players) for players in groups_by_players(data))
    rows = []
    for where, group in _each_group(data):
        seats = group["seats"]
        cells = [formatted(Estimate.from_dict(rate), Unit.RATE) for rate in seats["win_rates"]]
        cells += [""] * (most - len(cells))
        games = str(group["table"]["games"])
        rows.append([*where, games, *cells, f"{seats['equal_seats_p']:.2f}"])
    headers = ["players", "variant", "games", *(f"seat {s}" for s in range(most)), "equal seats p"]
    return "### Win rate by seat\n\n" + _table(headers, rows)


def _duels(data: Data) -> str:
    rows = [
        [
            *where,
            duel["strong"],
            duel["weak"],
            formatted(Estimate.from_dict(duel["estimate"]), Unit.RATE),
            str(duel["rests_on"]),
        ]
        for where, group in _each_group(data)
        for duel in group["duels"]
    ]
    headers = ["players", "variant", "lone player", "among", "win rate [95% CI]", "games"]
    return "### Skill trace\n\n" + _table(headers, rows)


def _cards(data: Data) -> str:
    rows = [
        [
            *where,
            card["card"],
            formatted(Estimate.from_dict(card["barred_rate"]), Unit.RATE),
            formatted(Estimate.from_dict(card["unbarred_rate"]), Unit.RATE),
            formatted(Estimate.from_dict(card["estimate"]), Unit.POINTS),
            str(card["rests_on"]),
        ]
        for where, group in _each_group(data)
        for card in group["cards"]
    ]
    headers = [
        "players",
        "variant",
        "card barred",
        "barred player wins",
        "unbarred, same deals",
        "worth",
        "games",
    ]
    return "### What each card is worth\n\n" + _table(headers, rows)


def _comparisons(data: Data) -> str:
    if not data["comparisons"]:
        return ""
    rows = [
        [str(c["players"]), c["variant"], c["baseline"], c["verdict"]] for c in data["comparisons"]
    ]
    return "### Variants\n\n" + _table(["players", "variant", "against", "verdict"], rows)


def _chances(data: Data) -> str:
    """The win chance behind the drama figures: how low it gets, how well it predicts."""
    floors, bins = [], []
    for where, group in _each_group(data):
        if "chance_floor" in group:
            floors.append([*where, *floor_cells(group["chance_floor"])])
        bins += [[*where, *calibration_cells(b)] for b in group["calibration"]]
    return (
        "### Win chances: how low they get, how well they predict\n\n"
        + _table(["players", "variant", *floor_headers(data["no_chance"])], floors)
        + "\n"
        + _table(["players", "variant", *CALIBRATION_HEADERS], bins)
    )


def _plan(data: Data) -> str:
    rows = [[config_id, str(games)] for config_id, games in data["plan"]["games"].items()]
    return "### Games per configuration\n\n" + _table(["configuration", "games"], rows)


def render_markdown(data: Data) -> str:
    """Every figure of :func:`~.analysis.analyse_dossier` data as Markdown."""
    figures = data.get("figures", {})
    links = "".join(f"![{f['title']}]({f['file']})\n\n" for f in figures.values())
    parts = [
        f"## Dossier: {', '.join(data['variants'])}, {data['games']} games, seed "
        f"{data['spec']['seed']}\n\n",
        links,
        _seats(data),
        *(_section(data, section) for section in Section),
        _duels(data),
        _cards(data),
        _comparisons(data),
        _chances(data),
        _plan(data),
    ]
    return "\n".join(part for part in parts if part)
