"""The dossier's figures: skill trace, a typical game's swings, card worth, game length.

One panel per player count (never pooled), one series per variant. Colours are the
Okabe-Ito palette, which colour-blind readers tell apart, and every series also has its
own marker or line style. Built without pyplot, like the report's (:mod:`..report_figures`),
whose panel, legend and axis helpers these reuse.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from sequence_stacks.sim.report_figures import (
    fair_line,
    finish,
    legend_outside,
    panels,
    percent_axis,
    plain_text,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["OKABE_ITO", "dossier_figures"]

OKABE_ITO: Final = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermilion
    "#000000",  # black
    "#F0E442",  # yellow (last: faint on white)
)
_MARKERS: Final = ("o", "s", "D", "^", "v", "P", "X", "*")
_LINES: Final = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))
_CI: Final = "95% intervals"

Data = Mapping[str, Any]


def _style(index: int) -> dict[str, Any]:
    return {"color": OKABE_ITO[index % len(OKABE_ITO)], "marker": _MARKERS[index % len(_MARKERS)]}


def _line(index: int) -> dict[str, Any]:
    return {"color": OKABE_ITO[index % len(OKABE_ITO)], "linestyle": _LINES[index % len(_LINES)]}


def _by_players(data: Data) -> dict[int, list[tuple[int, Data]]]:
    """Groups by player count (ascending), each with its variant's index."""
    variants = list(data["variants"])
    rows: dict[int, list[tuple[int, Data]]] = {}
    for group in data["groups"]:
        rows.setdefault(int(group["players"]), []).append((variants.index(group["variant"]), group))
    return dict(sorted(rows.items()))


def _errors(estimates: Sequence[Data], scale: float = 1.0) -> list[list[float]]:
    low = [max(0.0, scale * (e["value"] - e["ci95"][0])) for e in estimates]
    high = [max(0.0, scale * (e["ci95"][1] - e["value"])) for e in estimates]
    return [low, high]


def _duel_label(duel: Data) -> str:
    strong = str(duel["strong"]).replace(":x", " x")
    return plain_text(f"{strong}\namong {duel['weak']}")


def _skill_figure(data: Data) -> Figure | None:
    rows = _by_players(data)
    if not any(group["duels"] for groups in rows.values() for _, group in groups):
        return None
    figure, axes_list = panels(
        f"Skill trace: a stronger player alone among weaker ones ({_CI})", [2.6] * len(rows)
    )
    for axes, (players, groups) in zip(axes_list, rows.items(), strict=True):
        labels = [_duel_label(d) for d in groups[0][1]["duels"]]
        width = 0.5 / max(1, len(groups))
        for offset, (index, group) in enumerate(groups):
            estimates = [duel["estimate"] for duel in group["duels"]]
            xs = [x - 0.25 + width * (offset + 0.5) for x in range(len(estimates))]
            axes.errorbar(
                xs,
                [e["value"] for e in estimates],
                yerr=_errors(estimates),
                linestyle=":",
                linewidth=1,
                capsize=3,
                label=plain_text(group["variant"]),
                **_style(index),
            )
        fair_line(axes, 1 / players, vertical=False)
        axes.set_xticks(range(len(labels)), labels, fontsize=8)
        axes.set_xlim(-0.5, len(labels) - 0.5)
        axes.set_ylim(0, 1)
        axes.set_title(f"{players} players")
        axes.set_xlabel("step of the ladder (search budgets double from left to right)")
        axes.set_ylabel("win rate of the lone player")
        percent_axis(axes, "y")
        legend_outside(axes)
    return figure


def _swing_figure(data: Data) -> Figure | None:
    from matplotlib.figure import Figure  # noqa: PLC0415 (optional dependency)

    games = [
        (players, groups[0][1]["typical_game"])
        for players, groups in _by_players(data).items()
        if groups[0][1]["typical_game"] is not None
    ]
    if not games:
        return None
    figure = Figure(figsize=(10.0, 0.8 + 2.8 * len(games)), layout="constrained")
    grid = figure.subplots(len(games), 2, squeeze=False)
    figure.suptitle(
        "A typical game: each player's win chance and chips at every turn end",
        fontsize=13,
        fontweight="bold",
    )
    for (chance_axes, chip_axes), (players, game) in zip(grid, games, strict=True):
        turns = range(len(game["chances"]))
        for seat in range(players):
            label = f"seat {seat}" + (" (winner)" if seat == game["winner"] else "")
            chance_axes.plot(turns, [p[seat] for p in game["chances"]], label=label, **_line(seat))
            chip_axes.step(
                turns, [p[seat] for p in game["chips"]], where="post", label=label, **_line(seat)
            )
        where = f"{players} players, game {game['game_index']} (deal seed {game['seed']})"
        chance_axes.set_title(f"Win chance, {where}", fontsize=10)
        chance_axes.set_xlabel("turns played")
        chance_axes.set_ylabel("estimated win chance")
        chance_axes.set_ylim(0, 1)
        percent_axis(chance_axes, "y")
        chip_axes.set_title(f"Chips held, {where}", fontsize=10)
        chip_axes.set_xlabel("turns played")
        chip_axes.set_ylabel("chips")
        legend_outside(chip_axes)
    return figure


def _card_figure(data: Data) -> Figure | None:
    rows = _by_players(data)
    if not any(group["cards"] for groups in rows.values() for _, group in groups):
        return None
    heights = [0.9 + 0.45 * len(groups[0][1]["cards"]) for groups in rows.values()]
    figure, axes_list = panels(
        f"What each card is worth: the win rate a player loses when barred from it ({_CI})",
        heights,
    )
    for axes, (players, groups) in zip(axes_list, rows.items(), strict=True):
        names = [card["card"] for card in groups[0][1]["cards"]]
        step = 0.6 / max(1, len(groups))
        for offset, (index, group) in enumerate(groups):
            estimates = [card["estimate"] for card in group["cards"]]
            ys = [y - 0.3 + step * (offset + 0.5) for y in range(len(estimates))]
            axes.errorbar(
                [100 * e["value"] for e in estimates],
                ys,
                xerr=_errors(estimates, 100.0),
                linestyle="",
                capsize=3,
                label=plain_text(group["variant"]),
                **_style(index),
            )
        axes.axvline(0.0, color="grey", linestyle="--", linewidth=1, label="no worth")
        axes.set_yticks(range(len(names)), names)
        axes.invert_yaxis()
        axes.grid(axis="x", alpha=0.3)
        axes.set_title(f"{players} players")
        axes.set_xlabel("worth: win rate unbarred minus barred, on the same deals (points)")
        axes.set_ylabel("card barred")
        legend_outside(axes)
    return figure


def _length_figure(data: Data) -> Figure:
    rows = _by_players(data)
    figure, axes_list = panels("Game length: how many turns games take", [2.4] * len(rows))
    for axes, (players, groups) in zip(axes_list, rows.items(), strict=True):
        longest = max(max(group["turns"], default=1) for _, group in groups)
        bins = range(0, longest + 3, max(1, (longest + 2) // 40))
        for index, group in groups:
            turns = group["turns"]
            style = _line(index)
            axes.hist(
                turns,
                bins=list(bins),
                histtype="step",
                linewidth=1.6,
                density=True,
                label=plain_text(f"{group['variant']} ({len(turns)} games)"),
                **style,
            )
            mean = group["metrics"]["turns"]["estimate"]["value"]
            axes.axvline(mean, color=style["color"], linestyle=style["linestyle"], linewidth=1)
        axes.set_title(f"{players} players (vertical lines: means)")
        axes.set_xlabel("turns per game")
        axes.set_ylabel("share of games per turn")
        legend_outside(axes)
    return figure


def dossier_figures(data: Data) -> dict[str, Figure]:
    """Every figure of the dossier, by file name (without ``.png``); one with nothing
    to show is left out."""
    figures = {
        "skill_trace": _skill_figure(data),
        "swings": _swing_figure(data),
        "card_worth": _card_figure(data),
        "length": _length_figure(data),
    }
    return {name: finish(figure) for name, figure in figures.items() if figure is not None}
