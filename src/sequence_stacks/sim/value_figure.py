"""The win-chance model's reliability diagram: predicted against observed, per player count.

One panel per player count of a ``train-value`` report (:mod:`.value_run`): the model's
and the ``ismcts`` leaf's bins at the turn starts of the held-out games, each a point at
(mean predicted, share won) sized by its positions, and the diagonal where a calibrated
estimate lies. Built without pyplot (no global state); colours from the Okabe-Ito
palette (colour-blind safe), and the two series differ by marker too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["reliability_figure"]

_SERIES: Final = (
    ("model_turn_start", "win-chance model", "#0072B2", "o"),
    ("leaf_turn_start", "ismcts leaf curve", "#E69F00", "s"),
)


def reliability_figure(report: Mapping[str, Any]) -> Figure:
    """The reliability diagram of a ``train-value`` report (``report.json``)."""
    from matplotlib.figure import Figure  # noqa: PLC0415 (optional dependency)

    counts = list(report["counts"])
    figure = Figure(figsize=(2.6 * len(counts) + 1.4, 3.3), layout="constrained")
    axes_list = figure.subplots(1, len(counts), squeeze=False, sharey=True)[0]
    figure.suptitle(
        "Win-chance calibration on held-out games (turn starts): predicted against observed",
        fontsize=12,
        fontweight="bold",
    )
    for axes, count in zip(axes_list, counts, strict=True):
        _panel(axes, int(count), report["counts"][count])
    axes_list[0].set_ylabel("share of positions won")
    axes_list[-1].legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)
    return figure


def _panel(axes: Axes, count: int, data: Mapping[str, Any]) -> None:
    axes.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="calibrated")
    for key, label, colour, marker in _SERIES:
        bins = [b for b in data[key]["bins"] if b["count"]]
        total = sum(b["count"] for b in bins) or 1
        axes.scatter(
            [b["predicted"] for b in bins],
            [b["observed"] for b in bins],
            s=[12 + 400 * b["count"] / total for b in bins],
            color=colour,
            marker=marker,
            alpha=0.8,
            label=label,
        )
    eces = ", ".join(
        f"{name} {100 * data[key]['ece']:.1f}"
        for (key, _, _, _), name in zip(_SERIES, ("model", "leaf"), strict=True)
    )
    axes.text(0.03, 0.97, f"ECE (points): {eces}", fontsize=7, va="top", transform=axes.transAxes)
    axes.set_title(f"{count} players", fontsize=10)
    axes.set_xlabel("predicted chance")
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_aspect("equal")
