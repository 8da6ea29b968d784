"""Balance statistics of a results file, plots, and one self-contained HTML page.

:func:`analyse` turns rows into plain data (win rates with Wilson intervals per bot
and per seat, endings, game lengths, chips and Blocks, action-card use and its
association with winning, per config); :func:`rate_bots` rates the bots with
OpenSkill's Plackett-Luce model; :func:`write_report` renders PNGs with matplotlib
(Agg backend) and an HTML page that embeds them (base64), plus ``summary.json``.
"""

from __future__ import annotations

import base64
import html
import json
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from .results import Row, row_key, seat_values
from .selfplay import Rate

__all__ = ["ACTION_CARDS", "analyse", "rate_bots", "write_report"]

ACTION_CARDS: Final = {
    "skips": "Skip",
    "reverses": "Reverse",
    "steal_cards": "Steal-a-Card",
    "steal_chips": "Steal-a-Chip",
    "blocks": "Block",
}


def _rate(wins: int, played: int) -> dict[str, Any]:
    return Rate(wins, played).to_dict()


def _seat_wins(row: Row, seat: int) -> bool:
    return int(row["winner_seat"]) == seat


def _lengths(rows: Sequence[Row]) -> dict[str, float]:
    turns = sorted(int(row["turns"]) for row in rows)
    if not turns:
        return {}
    return {
        "mean": statistics.fmean(turns),
        "median": float(statistics.median(turns)),
        "p10": float(turns[len(turns) // 10]),
        "p90": float(turns[(9 * len(turns)) // 10]),
        "max": float(turns[-1]),
    }


def _card_effects(rows: Sequence[Row]) -> dict[str, Any]:
    """Per action card: plays per game, and win rates of seats that played it vs not."""
    effects: dict[str, Any] = {}
    for column, title in ACTION_CARDS.items():
        used = [0, 0]  # wins, seat-games
        unused = [0, 0]
        total = 0
        for row in rows:
            for seat, count in enumerate(seat_values(row, column)):
                total += count
                bucket = used if count else unused
                bucket[0] += _seat_wins(row, seat)
                bucket[1] += 1
        effects[column] = {
            "card": title,
            "plays_per_game": total / len(rows) if rows else 0.0,
            "played": _rate(used[0], used[1]),
            "not_played": _rate(unused[0], unused[1]),
        }
    return effects


def _chip_stats(rows: Sequence[Row]) -> dict[str, float]:
    if not rows:
        return {}
    winner_chips: list[int] = []
    all_chips: list[int] = []
    blocks: list[int] = []
    completions: list[int] = []
    for row in rows:
        chips = [
            b + r
            for b, r in zip(
                seat_values(row, "chips_blue"), seat_values(row, "chips_red"), strict=True
            )
        ]
        all_chips += chips
        if int(row["winner_seat"]) >= 0:
            winner_chips.append(chips[int(row["winner_seat"])])
        blocks.append(sum(seat_values(row, "blocks")))
        completions.append(sum(seat_values(row, "completions")))
    return {
        "mean_chips_per_seat": statistics.fmean(all_chips),
        "mean_winner_chips": statistics.fmean(winner_chips) if winner_chips else 0.0,
        "mean_blocks_per_game": statistics.fmean(blocks),
        "mean_completions_per_game": statistics.fmean(completions),
        "block_share_of_completions": sum(blocks) / max(1, sum(blocks) + sum(completions)),
        "mean_reshuffles": statistics.fmean(int(row["reshuffles"]) for row in rows),
    }


def _config_summary(rows: Sequence[Row]) -> dict[str, Any]:
    player_count = int(rows[0]["player_count"])
    bot_wins: dict[str, int] = defaultdict(int)
    bot_played: dict[str, int] = defaultdict(int)
    seat_wins = [0] * player_count
    for row in rows:
        names = str(row["bots"]).split("|")
        for name in names:
            bot_played[name] += 1
        winner = int(row["winner_seat"])
        if winner >= 0:
            seat_wins[winner] += 1
            bot_wins[names[winner]] += 1
    reasons: dict[str, int] = defaultdict(int)
    for row in rows:
        reasons[str(row["reason"])] += 1
    no_winner = len(rows) - reasons.get("win", 0)
    return {
        "games": len(rows),
        "player_count": player_count,
        "options": json.loads(str(rows[0]["options"]) or "{}"),
        "fair_share": 1.0 / player_count,
        "bots": {name: _rate(bot_wins[name], bot_played[name]) for name in sorted(bot_played)},
        "seats": [_rate(wins, len(rows)) for wins in seat_wins],
        "reasons": dict(sorted(reasons.items())),
        "no_winner": _rate(no_winner, len(rows)),
        "turns": _lengths(rows),
        "chips": _chip_stats(rows),
        "action_cards": _card_effects(rows),
    }


def rate_bots(rows: Sequence[Row]) -> dict[str, dict[str, float]] | None:
    """OpenSkill Plackett-Luce ratings of the bots over every won game (None without
    openskill). Each game ranks the winner first and ties the others; each seat is a
    one-player team holding its bot's rating."""
    try:
        from openskill.models import PlackettLuce  # noqa: PLC0415 (optional dependency)
    except ImportError:
        return None
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games: dict[str, int] = defaultdict(int)
    for row in sorted(rows, key=row_key):
        winner = int(row["winner_seat"])
        names = str(row["bots"]).split("|")
        if winner < 0 or len(set(names)) < 2:
            continue
        teams = [[ratings.setdefault(name, model.rating(name=name))] for name in names]
        ranks = [1.0 if seat == winner else 2.0 for seat in range(len(names))]
        rated = model.rate(teams, ranks=ranks)
        for name, team in zip(names, rated, strict=True):
            ratings[name] = team[0]
            games[name] += 1
    return {
        name: {
            "mu": rating.mu,
            "sigma": rating.sigma,
            "ordinal": rating.ordinal(),
            "games": games[name],
        }
        for name, rating in sorted(ratings.items(), key=lambda item: -item[1].ordinal())
    }


def analyse(rows: Sequence[Row]) -> dict[str, Any]:
    """Every statistic of the report, as JSON-ready data."""
    by_config: dict[str, list[Row]] = defaultdict(list)
    for row in sorted(rows, key=row_key):
        by_config[str(row["config_id"])].append(row)
    return {
        "games": len(rows),
        "configs": {config_id: _config_summary(items) for config_id, items in by_config.items()},
        "ratings": rate_bots(rows),
    }


# --- rendering ---------------------------------------------------------------------------


def _percent(rate: Mapping[str, Any]) -> str:
    low, high = rate["ci95"]
    return f"{rate['rate']:.1%} [{low:.1%}, {high:.1%}] ({rate['wins']}/{rate['played']})"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _error_bar(rate: float, interval: Sequence[float]) -> tuple[float, float]:
    """Distances from a rate to its interval's ends (never negative after rounding)."""
    return max(0.0, rate - interval[0]), max(0.0, interval[1] - rate)


def _plots(  # noqa: PLR0915 (four figures, drawn step by step)
    data: Mapping[str, Any], rows: Sequence[Row], out: Path
) -> dict[str, Path]:
    import matplotlib  # noqa: PLC0415 (optional dependency)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    configs: Mapping[str, Any] = data["configs"]
    labels = list(configs)
    paths: dict[str, Path] = {}

    def save(name: str, figure: Any) -> None:
        path = out / f"{name}.png"
        figure.tight_layout()
        figure.savefig(path, dpi=90)
        plt.close(figure)
        paths[name] = path

    figure, axes = plt.subplots(figsize=(9, 0.5 + 0.45 * max(1, len(labels))))
    positions = list(range(len(labels)))
    for offset, seat in enumerate(range(6)):
        values, errors, ys = [], [], []
        for y, label in enumerate(labels):
            seats = configs[label]["seats"]
            if seat < len(seats):
                rate = seats[seat]
                values.append(rate["rate"] - configs[label]["fair_share"])
                errors.append(_error_bar(rate["rate"], rate["ci95"]))
                ys.append(y + offset * 0.12 - 0.3)
        if values:
            axes.errorbar(
                values, ys, xerr=list(zip(*errors, strict=True)), fmt="o", label=f"seat {seat}"
            )
    axes.axvline(0.0, color="grey", linewidth=1)
    axes.set_yticks(positions, [label.split("#")[0] for label in labels], fontsize=7)
    axes.set_xlabel("seat win rate minus fair share (95% Wilson CI)")
    axes.legend(fontsize=7)
    save("seat_advantage", figure)

    figure, axes = plt.subplots(figsize=(8, 4))
    for label in labels[:8]:
        turns = [int(row["turns"]) for row in rows if row["config_id"] == label]
        axes.hist(turns, bins=30, histtype="step", label=label.split("#")[0])
    axes.set_xlabel("turns per game")
    axes.set_ylabel("games")
    axes.legend(fontsize=6)
    save("game_length", figure)

    figure, axes = plt.subplots(figsize=(8, 4))
    cards = list(ACTION_CARDS)
    for shift, which in ((-0.2, "played"), (0.2, "not_played")):
        means, errs = [], []
        for column in cards:
            used = [0, 0]
            for label in labels:
                rate = configs[label]["action_cards"][column][which]
                used[0] += rate["wins"]
                used[1] += rate["played"]
            rate = Rate(used[0], used[1])
            low, high = rate.interval
            means.append(rate.rate)
            errs.append(_error_bar(rate.rate, (low, high)))
        axes.bar(
            [i + shift for i in range(len(cards))],
            means,
            width=0.4,
            yerr=list(zip(*errs, strict=True)),
            label=which.replace("_", " "),
        )
    axes.set_xticks(range(len(cards)), [ACTION_CARDS[c] for c in cards])
    axes.set_ylabel("win rate of seat-games (95% CI)")
    axes.legend()
    save("action_cards", figure)

    bots = sorted({name for label in labels for name in configs[label]["bots"]})
    figure, axes = plt.subplots(figsize=(9, 0.5 + 0.45 * max(1, len(labels))))
    for offset, name in enumerate(bots):
        values, errors, ys = [], [], []
        for y, label in enumerate(labels):
            rate = configs[label]["bots"].get(name)
            if rate is not None:
                values.append(rate["rate"])
                errors.append(_error_bar(rate["rate"], rate["ci95"]))
                ys.append(y + offset * 0.15 - 0.2)
        axes.errorbar(values, ys, xerr=list(zip(*errors, strict=True)), fmt="s", label=name)
    axes.set_yticks(positions, [label.split("#")[0] for label in labels], fontsize=7)
    axes.set_xlabel("win rate per seat held (95% Wilson CI)")
    axes.legend(fontsize=7)
    save("bot_win_rates", figure)
    return paths


_STYLE: Final = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
    "table{border-collapse:collapse;margin:1em 0;font-size:13px}"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
    "th{background:#eee}img{max-width:100%}code{background:#f4f4f4}"
)


def _config_html(config_id: str, summary: Mapping[str, Any]) -> str:
    parts = [f"<h3>{html.escape(config_id)}</h3>"]
    options = summary["options"] or "default rules"
    parts.append(
        f"<p>{summary['games']} games, {summary['player_count']} players, options: "
        f"<code>{html.escape(json.dumps(options))}</code>; fair share "
        f"{summary['fair_share']:.1%}</p>"
    )
    parts.append(
        _table(
            ["bot", "win rate per seat held [95% CI]"],
            [[name, _percent(rate)] for name, rate in summary["bots"].items()],
        )
    )
    parts.append(
        _table(
            ["seat", "win rate [95% CI]"],
            [[str(seat), _percent(rate)] for seat, rate in enumerate(summary["seats"])],
        )
    )
    turns = summary["turns"]
    chips = summary["chips"]
    reasons = ", ".join(f"{k}: {v}" for k, v in summary["reasons"].items())
    parts.append(
        _table(
            [
                "endings",
                "no winner [95% CI]",
                "turns mean / median / p90",
                "blocks/game",
                "completions/game",
                "winner chips",
                "reshuffles",
            ],
            [
                [
                    reasons,
                    _percent(summary["no_winner"]),
                    f"{turns['mean']:.1f} / {turns['median']:.0f} / {turns['p90']:.0f}",
                    f"{chips['mean_blocks_per_game']:.2f}",
                    f"{chips['mean_completions_per_game']:.2f}",
                    f"{chips['mean_winner_chips']:.2f}",
                    f"{chips['mean_reshuffles']:.2f}",
                ]
            ],
        )
    )
    parts.append(
        _table(
            ["action card", "plays/game", "win rate if played [CI]", "if not played [CI]"],
            [
                [
                    effect["card"],
                    f"{effect['plays_per_game']:.2f}",
                    _percent(effect["played"]),
                    _percent(effect["not_played"]),
                ]
                for effect in summary["action_cards"].values()
            ],
        )
    )
    return "\n".join(parts)


def write_report(rows: Sequence[Row], out: Path, *, title: str = "Sequence Stacks balance") -> Path:
    """Write ``summary.json``, the PNG plots and ``report.html`` into ``out``; return the
    HTML path. Raises ValueError for no rows."""
    if not rows:
        raise ValueError("the results hold no games to report on")
    out.mkdir(parents=True, exist_ok=True)
    data = analyse(rows)
    (out / "summary.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    plots = _plots(data, rows, out)
    sections = [
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{data['games']} games in {len(data['configs'])} configuration(s).</p>",
        "<h2>Win rates</h2>",
    ]
    for name in ("bot_win_rates", "seat_advantage"):
        encoded = base64.b64encode(plots[name].read_bytes()).decode()
        sections.append(f'<img alt="{name}" src="data:image/png;base64,{encoded}">')
    sections.append("<h2>Ratings (OpenSkill Plackett-Luce)</h2>")
    ratings = data["ratings"]
    if ratings:
        sections.append(
            _table(
                ["bot", "mu", "sigma", "ordinal (mu - 3 sigma)", "games"],
                [
                    [
                        name,
                        f"{r['mu']:.2f}",
                        f"{r['sigma']:.2f}",
                        f"{r['ordinal']:.2f}",
                        str(r["games"]),
                    ]
                    for name, r in ratings.items()
                ],
            )
        )
    else:
        sections.append("<p>No ratings: openskill is not installed, or no game mixed bots.</p>")
    sections.append("<h2>Game length</h2>")
    sections.append(_img(plots["game_length"]))
    sections.append("<h2>Action cards</h2>")
    sections.append(_img(plots["action_cards"]))
    sections.append("<h2>Configurations</h2>")
    for config_id, summary in data["configs"].items():
        sections.append(_config_html(config_id, summary))
    page = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body>{''.join(sections)}</body></html>\n"
    )
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def _img(path: Path) -> str:
    encoded = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{path.stem}" src="data:image/png;base64,{encoded}">'
