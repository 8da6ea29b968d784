"""Balance statistics of a results file, plots, and one self-contained HTML page.

:func:`analyse` turns rows into plain data (win rates with Wilson intervals per bot
and per seat, endings, game lengths, chips and Blocks, action-card use and its
association with winning, per config); :func:`rate_bots` rates the bots with
OpenSkill's Plackett-Luce model; :func:`write_report` renders the figures of
:mod:`.report_figures` as PNGs and the page of :mod:`.report_page`, plus
``summary.json``.

Nothing is pooled over player counts: the fair share, the deck (R1, R2) and the length
of a game all depend on it. Rows that mean nothing are left out or carry a note: an
action card not in the deck (Reverse with 2 players, R2), a bot's win rate in self-play
(one bot holds every seat), a seat's win rate when the seats held different line-ups.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from sequence_stacks.engine import CARD_KIND, Kind, deck_for

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
_CARD_KINDS: Final = {
    "skips": Kind.SKIP,
    "reverses": Kind.REV,
    "steal_cards": Kind.SCARD,
    "steal_chips": Kind.SCHIP,
    "blocks": Kind.BLOCK,
}
_TWO_PLAYER_NOTES: Final = {
    "skips": "with 2 players a Skip gives its player another turn (R26)",
    "reverses": "kept by two_player_reverses: with 2 players a Reverse has no effect (R30)",
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


def cards_in_deck(player_count: int, options: Mapping[str, Any]) -> list[str]:
    """The action-card columns whose card is in the deck (R1, R2, ``two_player_reverses``)."""
    keep = options.get("two_player_reverses") is True
    kinds = {CARD_KIND[card] for card in deck_for(player_count, keep_two_player_reverses=keep)}
    return [column for column, kind in _CARD_KINDS.items() if kind in kinds]


def _card_effects(rows: Sequence[Row], columns: Sequence[str]) -> dict[str, Any]:
    """Per action card in the deck: plays per game, and win rates of seats that played
    it vs not, with a note where the card works differently (2 players)."""
    effects: dict[str, Any] = {}
    two_players = bool(rows) and int(rows[0]["player_count"]) == 2
    for column in columns:
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
            "card": ACTION_CARDS[column],
            "plays_per_game": total / len(rows) if rows else 0.0,
            "played": _rate(used[0], used[1]),
            "not_played": _rate(unused[0], unused[1]),
            "note": _TWO_PLAYER_NOTES.get(column) if two_players else None,
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


def _seats_comparable(rows: Sequence[Row], player_count: int) -> bool:
    """True when every seat faced the same line-ups (its own bot, then the next seats'),
    give or take one game: only then do seat win rates measure the seat alone. A bot list
    that does not divide the seats (2 bots at 3 players) gives seats different line-ups."""
    lineups = [Counter[tuple[str, ...]]() for _ in range(player_count)]
    for row in rows:
        names = str(row["bots"]).split("|")
        for seat, counter in enumerate(lineups):
            counter[tuple(names[(seat + step) % len(names)] for step in range(len(names)))] += 1
    keys = set().union(*lineups)
    return all(max(c[key] for c in lineups) - min(c[key] for c in lineups) <= 1 for key in keys)


def _options(row: Row) -> dict[str, Any]:
    try:
        options = json.loads(str(row["options"]) or "{}")
    except ValueError:
        return {}
    return options if isinstance(options, dict) else {}


def _config_summary(rows: Sequence[Row]) -> dict[str, Any]:
    player_count = int(rows[0]["player_count"])
    options = _options(rows[0])
    bot_wins: dict[str, int] = defaultdict(int)
    bot_played: dict[str, int] = defaultdict(int)
    seat_wins = [0] * player_count
    reasons: dict[str, int] = defaultdict(int)
    for row in rows:
        names = str(row["bots"]).split("|")
        for name in names:
            bot_played[name] += 1
        winner = int(row["winner_seat"])
        if winner >= 0:
            seat_wins[winner] += 1
            bot_wins[names[winner]] += 1
        reasons[str(row["reason"])] += 1
    no_winner = len(rows) - reasons.get("win", 0)
    return {
        "games": len(rows),
        "player_count": player_count,
        "options": options,
        "fair_share": 1.0 / player_count,
        "self_play": len(bot_played) == 1,
        "seats_comparable": _seats_comparable(rows, player_count),
        "bots": {name: _rate(bot_wins[name], bot_played[name]) for name in sorted(bot_played)},
        "seats": [_rate(wins, len(rows)) for wins in seat_wins],
        "reasons": dict(sorted(reasons.items())),
        "no_winner": _rate(no_winner, len(rows)),
        "turns": _lengths(rows),
        "chips": _chip_stats(rows),
        "action_cards": _card_effects(rows, cards_in_deck(player_count, options)),
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


def _labels(config_ids: Sequence[str]) -> dict[str, str]:
    """A short label per config for plots: bots and options, without the player count
    (the panel says it) and without the digest unless two configs would share a label."""
    short = {cid: "/".join(cid.split("#")[0].split("/")[1:]) or cid for cid in config_ids}
    seen = Counter((cid.split("/")[0], label) for cid, label in short.items())
    return {
        cid: label if seen[(cid.split("/")[0], label)] == 1 else cid.split("/", 1)[-1]
        for cid, label in short.items()
    }


def analyse(rows: Sequence[Row]) -> dict[str, Any]:
    """Every statistic of the report, as JSON-ready data; configs are ordered by player
    count, then by id."""
    by_config: dict[str, list[Row]] = defaultdict(list)
    for row in sorted(rows, key=lambda row: (int(row["player_count"]), *row_key(row))):
        by_config[str(row["config_id"])].append(row)
    labels = _labels(list(by_config))
    configs = {}
    for config_id, items in by_config.items():
        configs[config_id] = {"label": labels[config_id], **_config_summary(items)}
    return {
        "games": len(rows),
        "player_counts": sorted({int(row["player_count"]) for row in rows}),
        "configs": configs,
        "ratings": rate_bots(rows),
    }


def write_report(rows: Sequence[Row], out: Path, *, title: str = "Sequence Stacks balance") -> Path:
    """Write ``summary.json``, the PNG plots and ``report.html`` into ``out``; return the
    HTML path. Raises ValueError for no rows."""
    from .report_figures import report_figures, save_figures  # noqa: PLC0415 (matplotlib)
    from .report_page import render_page  # noqa: PLC0415

    if not rows:
        raise ValueError("the results hold no games to report on")
    out.mkdir(parents=True, exist_ok=True)
    data = analyse(rows)
    (out / "summary.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    turns: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        turns[str(row["config_id"])].append(int(row["turns"]))
    images = save_figures(report_figures(data, turns), out)
    path = out / "report.html"
    path.write_text(render_page(data, images, title=title), encoding="utf-8")
    return path
