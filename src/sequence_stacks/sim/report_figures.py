"""The report's figures: one matplotlib Figure per question, one panel per player count.

Player counts are never pooled (their fair shares, decks and game lengths differ); in
a panel each config is its own series. Every figure has a title, every panel a title
and axis labels, and every legend sits to the right of its panel, outside the data.
Figures are built without pyplot (no global state, no GUI backend). Labels come from
results files, so a ``$`` in them is escaped rather than read as mathtext.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "SavedFigure",
    "fair_line",
    "finish",
    "legend_outside",
    "panels",
    "percent_axis",
    "plain_text",
    "report_figures",
    "save_figures",
]

_DPI: Final = 90
_WIDTH: Final = 10.0
_PALETTE: Final = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
_CI: Final = "95% Wilson interval"

Summary = Mapping[str, Any]


class _Entry(NamedTuple):
    """A config in a panel: its id, its colour (the same in every figure) and summary."""

    config_id: str
    colour: str
    summary: Summary


Groups = dict[int, list[_Entry]]


@dataclasses.dataclass(frozen=True, slots=True)
class SavedFigure:
    """A figure written to disk: its PNG and its title (the image's alt text)."""

    path: Path
    title: str


def plain_text(text: str) -> str:
    """Text shown as written: a ``$`` would otherwise start mathtext, and a legend
    hides labels that start with ``_``."""
    text = text.replace("$", r"\$")
    return f" {text}" if text.startswith("_") else text


def _colour(index: int) -> str:
    return _PALETTE[index % len(_PALETTE)]


def _groups(data: Summary, keep: Callable[[Summary], bool] = lambda _: True) -> Groups:
    """The configs to draw, by player count (ascending); a config's colour is set by its
    place among all configs of its player count, kept or not."""
    groups: Groups = {}
    placed: dict[int, int] = {}
    for config_id, summary in data["configs"].items():
        count = int(summary["player_count"])
        placed[count] = placed.get(count, -1) + 1
        if keep(summary):
            entry = _Entry(config_id, _colour(placed[count]), summary)
            groups.setdefault(count, []).append(entry)
    return dict(sorted(groups.items()))


def _legend_height(groups: Groups, extra: int = 1) -> list[float]:
    """Panel heights (inches) that leave room for each panel's legend beside it."""
    return [max(2.3, 0.6 + 0.17 * (len(configs) + extra)) for configs in groups.values()]


def _error(rate: Summary) -> tuple[float, float]:
    """Distances from a rate to its interval's ends (never negative after rounding)."""
    low, high = rate["ci95"]
    return max(0.0, rate["rate"] - low), max(0.0, high - rate["rate"])


def _errors(rates: Sequence[Summary]) -> list[list[float]]:
    pairs = [_error(rate) for rate in rates]
    return [[low for low, _ in pairs], [high for _, high in pairs]]


def panels(title: str, heights: Sequence[float]) -> tuple[Figure, list[Axes]]:
    """A titled figure with one full-width panel per height (inches)."""
    from matplotlib.figure import Figure  # noqa: PLC0415 (optional dependency)

    figure = Figure(figsize=(_WIDTH, 0.7 + sum(heights)), layout="constrained")
    axes = figure.subplots(len(heights), 1, squeeze=False, height_ratios=list(heights))
    figure.suptitle(title, fontsize=13, fontweight="bold")
    return figure, list(axes[:, 0])


def finish(figure: Figure) -> Figure:
    figure.align_ylabels()
    return figure


def legend_outside(axes: Axes) -> None:
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)


def percent_axis(axes: Axes, which: str) -> None:
    from matplotlib.ticker import PercentFormatter  # noqa: PLC0415

    axis = axes.xaxis if which == "x" else axes.yaxis
    axis.set_major_formatter(PercentFormatter(1.0))


def fair_line(axes: Axes, share: float, *, vertical: bool) -> None:
    draw = axes.axvline if vertical else axes.axhline
    draw(share, color="grey", linestyle="--", linewidth=1, label=f"fair share {share:.1%}")


def _seat_figure(data: Summary) -> Figure | None:
    groups = _groups(data, lambda summary: bool(summary["seats_comparable"]))
    if not groups:
        return None
    figure, axes_list = panels(
        f"Win rate by seat, per player count ({_CI})", _legend_height(groups)
    )
    for axes, (count, configs) in zip(axes_list, groups.items(), strict=True):
        width = 0.7 / len(configs)
        for index, (_, colour, summary) in enumerate(configs):
            xs = [seat - 0.35 + width * (index + 0.5) for seat in range(count)]
            seats = summary["seats"]
            axes.errorbar(
                xs,
                [rate["rate"] for rate in seats],
                yerr=_errors(seats),
                fmt="o",
                capsize=3,
                color=colour,
                label=plain_text(summary["label"]),
            )
        fair_line(axes, 1.0 / count, vertical=False)
        axes.set_xticks(range(count), [f"seat {seat}" for seat in range(count)])
        axes.set_title(f"{count} players")
        axes.set_xlabel("seat (seat 0 plays first)")
        axes.set_ylabel("win rate")
        percent_axis(axes, "y")
        legend_outside(axes)
    return figure


def _bot_figure(data: Summary) -> Figure | None:
    groups = _groups(data, lambda summary: not summary["self_play"])
    if not groups:
        return None
    summaries = {count: [entry.summary for entry in group] for count, group in groups.items()}
    bots = sorted({name for configs in summaries.values() for s in configs for name in s["bots"]})
    colours = {name: _colour(index) for index, name in enumerate(bots)}
    heights = [max(2.0, 0.9 + 0.45 * len(configs)) for configs in summaries.values()]
    figure, axes_list = panels(f"Bot win rate per seat held, per player count ({_CI})", heights)
    for axes, (count, configs) in zip(axes_list, summaries.items(), strict=True):
        for name in bots:
            held = [(y, s["bots"][name]) for y, s in enumerate(configs) if name in s["bots"]]
            if not held:
                continue
            offset = 0.3 * (bots.index(name) / max(1, len(bots) - 1) - 0.5)
            axes.errorbar(
                [rate["rate"] for _, rate in held],
                [y + offset for y, _ in held],
                xerr=_errors([rate for _, rate in held]),
                fmt="s",
                capsize=3,
                color=colours[name],
                label=plain_text(name),
            )
        fair_line(axes, 1.0 / count, vertical=True)
        axes.set_yticks(range(len(configs)), [plain_text(s["label"]) for s in configs], fontsize=8)
        axes.set_ylim(-0.6, len(configs) - 0.4)
        axes.invert_yaxis()
        axes.set_xlim(-0.02, 1.02)
        axes.grid(axis="x", alpha=0.3)
        axes.set_title(f"{count} players")
        axes.set_xlabel("win rate per seat held")
        axes.set_ylabel("configuration")
        percent_axis(axes, "x")
        legend_outside(axes)
    return figure


def _length_figure(data: Summary, turns: Mapping[str, Sequence[int]]) -> Figure:
    groups = _groups(data)
    heights = [0.9 + 0.4 * len(configs) for configs in groups.values()]
    figure, axes_list = panels(
        "Game length, per player count\n(box: quartiles; line: median; triangle: mean; "
        "whiskers: 10th-90th percentile)",
        heights,
    )
    for axes, (count, configs) in zip(axes_list, groups.items(), strict=True):
        axes.boxplot(
            [list(turns[entry.config_id]) for entry in configs],
            orientation="horizontal",
            whis=(10, 90),
            showmeans=True,
            showfliers=False,
            widths=0.6,
            tick_labels=[plain_text(entry.summary["label"]) for entry in configs],
        )
        axes.tick_params(axis="y", labelsize=8)
        axes.invert_yaxis()
        axes.set_title(f"{count} players")
        axes.set_xlabel("turns per game")
        axes.set_ylabel("configuration")
        axes.grid(axis="x", alpha=0.3)
    right = max(axis.get_xlim()[1] for axis in axes_list)
    for axes in axes_list:
        axes.set_xlim(0.0, right)
    return figure


def _cards(configs: Sequence[_Entry]) -> dict[str, str]:
    """The action cards to draw for a player count, column to name: those in some
    config's deck, but not a Reverse with 2 players (removed, R2, or no effect, R30)."""
    cards: dict[str, str] = {}
    for _, _, summary in configs:
        for column, effect in summary["action_cards"].items():
            if not (summary["player_count"] == 2 and column == "reverses"):
                cards.setdefault(column, str(effect["card"]))
    return cards


def _card_use_figure(data: Summary) -> Figure:
    groups = _groups(data)
    figure, axes_list = panels(
        "Action cards played per game (all seats), per player count", _legend_height(groups, 0)
    )
    for axes, (count, configs) in zip(axes_list, groups.items(), strict=True):
        columns = _cards(configs)
        width = 0.8 / len(configs)
        for index, (_, colour, summary) in enumerate(configs):
            effects = summary["action_cards"]
            xs = [c - 0.4 + width * (index + 0.5) for c in range(len(columns))]
            values = [effects[col]["plays_per_game"] if col in effects else 0.0 for col in columns]
            axes.bar(xs, values, width=width, color=colour, label=plain_text(summary["label"]))
        axes.set_xticks(range(len(columns)), list(columns.values()))
        axes.set_title(_card_panel_title(count))
        axes.set_xlabel("action card")
        axes.set_ylabel("plays per game")
        legend_outside(axes)
    return figure


def _card_panel_title(count: int) -> str:
    if count == 2:
        return "2 players (no Reverse: removed from the deck, R2, or without effect, R30)"
    return f"{count} players"


def _card_wins_figure(data: Summary) -> Figure:
    from matplotlib.lines import Line2D  # noqa: PLC0415

    groups = _groups(data)
    heights = [0.9 + 0.3 * len(_cards(c)) * len(c) for c in groups.values()]
    figure, axes_list = panels(
        f"Win rate of seats that played an action card vs not, per player count ({_CI})",
        heights,
    )
    for axes, (count, configs) in zip(axes_list, groups.items(), strict=True):
        columns = _cards(configs)
        step = 0.8 / len(configs)
        for index, (_, colour, summary) in enumerate(configs):
            for row, column in enumerate(columns):
                effect = summary["action_cards"].get(column)
                if effect is not None:
                    _pair(axes, effect, row - 0.4 + step * (index + 0.5), step, colour)
        fair_line(axes, 1.0 / count, vertical=True)
        axes.set_yticks(range(len(columns)), list(columns.values()))
        axes.set_ylim(-0.5, len(columns) - 0.5)
        axes.invert_yaxis()
        axes.set_xlim(-0.02, 1.02)
        axes.grid(axis="x", alpha=0.3)
        axes.set_title(_card_panel_title(count))
        axes.set_xlabel("win rate of the seat")
        axes.set_ylabel("action card")
        percent_axis(axes, "x")
        handles = [
            Line2D([], [], color=colour, marker="o", linestyle="", label=plain_text(s["label"]))
            for _, colour, s in configs
        ]
        handles += [
            Line2D([], [], color="black", marker="o", linestyle="", label="played it"),
            Line2D([], [], color="black", marker="o", mfc="white", ls="", label="did not"),
            Line2D([], [], color="grey", linestyle="--", label=f"fair share {1 / count:.1%}"),
        ]
        axes.legend(
            handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False
        )
    return figure


def _pair(axes: Axes, effect: Summary, y: float, step: float, colour: str) -> None:
    """Played (filled, above) and not played (hollow, below) in a config's band of
    height ``step``; a side with no seat-game is left out."""
    sides = ((effect["played"], colour, -0.22), (effect["not_played"], "white", 0.22))
    for rate, face, shift in sides:
        if rate["played"]:
            low, high = _error(rate)
            axes.errorbar(
                [rate["rate"]],
                [y + shift * step],
                xerr=[[low], [high]],
                fmt="o",
                markersize=5,
                mfc=face,
                color=colour,
                capsize=2,
            )


def report_figures(data: Summary, turns: Mapping[str, Sequence[int]]) -> dict[str, Figure]:
    """Every figure of the report, by file name (without ``.png``), for :func:`analyse`
    data and each config's game lengths. A figure with nothing to show is left out (seat
    win rates when no config gave every seat the same line-ups; bot win rates when every
    config is self-play)."""
    figures = {
        "seat_win_rates": _seat_figure(data),
        "bot_win_rates": _bot_figure(data),
        "game_length": _length_figure(data, turns),
        "action_card_use": _card_use_figure(data),
        "action_card_wins": _card_wins_figure(data),
    }
    return {name: finish(figure) for name, figure in figures.items() if figure is not None}


def save_figures(figures: Mapping[str, Figure], out: Path) -> dict[str, SavedFigure]:
    """Write each figure as ``out/<name>.png``; return where, with each one's title."""
    saved: dict[str, SavedFigure] = {}
    for name, figure in figures.items():
        path = out / f"{name}.png"
        figure.savefig(path, dpi=_DPI)
        saved[name] = SavedFigure(path, figure.get_suptitle())
    return saved
