"""The report's HTML page: one self-contained file, styled, without scripts.

The page embeds its PNGs (``data:`` URLs) and its style sheet, and declares a strict
Content-Security-Policy: nothing loads from anywhere, no script runs, and the one
``<style>`` element is allowed by its hash (no ``style=`` attributes). Every string that
comes from a results file (config ids, bot names, options, endings) and the title are
escaped with :func:`html.escape`.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import struct
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from .report_figures import SavedFigure

__all__ = [
    "CSP",
    "CSS",
    "csp_for",
    "figure_html",
    "nav_html",
    "note_html",
    "page_html",
    "render_page",
    "table_html",
]

Summary = Mapping[str, Any]

CSS: Final = """
:root{color-scheme:light;--ink:#1d2430;--muted:#5b6675;--line:#d9dee5;--band:#f5f7fa;
--accent:#1f5fa8;--note:#8a5a00}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);
margin:0;background:#eef1f5}
main{max-width:1120px;margin:0 auto;padding:1.5rem 1.25rem 3rem;background:#fff}
header{border-bottom:3px solid var(--accent);margin-bottom:1rem}
h1{font-size:1.8rem;margin:.2rem 0 .4rem}
h2{font-size:1.35rem;margin:2.2rem 0 .6rem;padding-bottom:.2rem;border-bottom:1px solid var(--line)}
h3{font-size:1.15rem;margin:1.8rem 0 .4rem;color:var(--accent)}
h4{font-size:1rem;margin:1.4rem 0 .3rem;font-family:ui-monospace,Menlo,Consolas,monospace;
overflow-wrap:anywhere}
p,li{max-width:75ch}
.lead{color:var(--muted)}
nav ul{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;list-style:none;padding:0;margin:.6rem 0}
a{color:var(--accent)}
figure{margin:1rem 0 1.6rem;padding:.6rem;border:1px solid var(--line);border-radius:6px}
figure img{display:block;max-width:100%;height:auto;margin:0 auto}
figcaption{color:var(--muted);font-size:.9rem;margin-top:.4rem}
.note{color:var(--note)}
p.note{border-left:3px solid #e0b050;padding:.2rem .6rem;background:#fffaf0}
.table-wrap{overflow-x:auto;margin:.6rem 0 1rem}
table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.2rem 0;color:var(--muted)}
th,td{border-bottom:1px solid var(--line);padding:4px 10px;text-align:right;vertical-align:top}
th{background:var(--band);position:sticky;top:0;border-bottom:2px solid var(--line)}
th.t,td.t,th.note,td.note{text-align:left}
tbody tr:nth-child(even){background:#fafbfc}
tbody tr:hover{background:#eef4fb}
td.note{font-size:12px;max-width:30ch}
code{background:var(--band);padding:0 .25em;border-radius:3px;overflow-wrap:anywhere}
""".strip()


def csp_for(css: str) -> str:
    """The page's Content-Security-Policy: nothing loads, no script runs, images come
    from ``data:`` URLs, and only the style sheet ``css`` (by its hash) applies."""
    digest = base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()
    return (
        "default-src 'none'; img-src data:; "
        f"style-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'"
    )


CSP: Final = csp_for(CSS)
_NO_TRIALS: Final = "— (none)"


def _e(text: object) -> str:
    return html.escape(str(text))


def _percent(rate: Summary) -> str:
    if not rate["played"]:
        return _NO_TRIALS
    low, high = rate["ci95"]
    return f"{rate['rate']:.1%} [{low:.1%}, {high:.1%}] ({rate['wins']}/{rate['played']})"


def table_html(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str = "",
    text_columns: int = 1,
    note_last: bool = False,
) -> str:
    """A table of text cells (escaped here): the first ``text_columns`` columns hold
    words (aligned left), the rest numbers; with ``note_last`` the last column is notes."""
    last = len(headers) - 1

    def kind(column: int) -> str:
        if note_last and column == last:
            return ' class="note"'
        return ' class="t"' if column < text_columns else ""

    head = "".join(f'<th scope="col"{kind(i)}>{_e(h)}</th>' for i, h in enumerate(headers))
    body = "".join(
        "<tr>" + "".join(f"<td{kind(i)}>{_e(cell)}</td>" for i, cell in enumerate(row)) + "</tr>"
        for row in rows
    )
    title = f"<caption>{_e(caption)}</caption>" if caption else ""
    return (
        f'<div class="table-wrap"><table>{title}<thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _png_size(data: bytes) -> tuple[int, int]:
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def figure_html(saved: SavedFigure | None, caption: str) -> str:
    if saved is None:
        return ""
    data = saved.path.read_bytes()
    width, height = _png_size(data)
    encoded = base64.b64encode(data).decode()
    return (
        f'<figure><img src="data:image/png;base64,{encoded}" alt="{_e(saved.title)}" '
        f'width="{width}" height="{height}"><figcaption>{_e(caption)}</figcaption></figure>'
    )


def note_html(text: str) -> str:
    return f'<p class="note">{_e(text)}</p>'


def _counts_text(counts: Sequence[int]) -> str:
    return ", ".join(str(count) for count in counts) + " players"


def _seat_section(data: Summary, images: Mapping[str, SavedFigure]) -> str:
    parts = ['<section id="seats"><h2>Win rate by seat</h2>']
    parts.append(
        figure_html(
            images.get("seat_win_rates"),
            "Each seat's share of the games won, one panel per player count; the dashed "
            "line is the fair share (1 / players). Bots rotate over the seats each game.",
        )
    )
    mixed = [s for s in data["configs"].values() if not s["seats_comparable"]]
    if mixed:
        names = ", ".join(f"{s['label']} ({s['player_count']} players)" for s in mixed)
        parts.append(
            note_html(
                f"Left out of the seat figure: {names}. Their bot list does not rotate "
                "evenly over the seats, so the seats faced different line-ups and a seat's "
                "win rate mixes the seat with the bots that held it."
            )
        )
    parts.append("</section>")
    return "".join(parts)


def _bot_section(data: Summary, images: Mapping[str, SavedFigure]) -> str:
    parts = ['<section id="bots"><h2>Bots</h2>']
    if "bot_win_rates" in images:
        parts.append(
            figure_html(
                images["bot_win_rates"],
                "A bot's games won per seat it held, per configuration that mixed bots "
                "(self-play configurations are left out: one bot holds every seat).",
            )
        )
    else:
        parts.append(
            note_html(
                "Every configuration is self-play (one bot at every seat): there are no bot "
                "win rates or ratings to compare."
            )
        )
        return "".join([*parts, "</section>"])
    ratings = data["ratings"]
    if ratings:
        rows = [
            [name, f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}", str(r["games"])]
            for name, r in ratings.items()
        ]
        parts.append(
            table_html(
                ["bot", "mu", "sigma", "ordinal (mu - 3 sigma)", "games"],
                rows,
                caption="OpenSkill Plackett-Luce ratings over every won game that mixed bots",
            )
        )
    else:
        missing = "openskill (the sim extra) is not installed"
        parts.append(
            note_html(f"No ratings: {missing if ratings is None else 'no mixed game was won'}.")
        )
    parts.append("</section>")
    return "".join(parts)


def _length_section(data: Summary, images: Mapping[str, SavedFigure]) -> str:
    rows = []
    for summary in data["configs"].values():
        turns = summary["turns"]
        rows.append(
            [
                str(summary["player_count"]),
                summary["label"],
                str(summary["games"]),
                f"{turns['mean']:.1f}",
                f"{turns['median']:.0f}",
                f"{turns['p10']:.0f}-{turns['p90']:.0f}",
                f"{turns['max']:.0f}",
            ]
        )
    return (
        '<section id="length"><h2>Game length</h2>'
        + figure_html(
            images.get("game_length"),
            "Turns per game, one box per configuration, one panel per player count "
            "(the panels share the turn axis).",
        )
        + table_html(
            ["players", "configuration", "games", "mean", "median", "10th-90th pct", "max"],
            rows,
            caption="Turns per game",
            text_columns=2,
        )
        + "</section>"
    )


def _card_section(images: Mapping[str, SavedFigure]) -> str:
    return (
        '<section id="cards"><h2>Action cards</h2>'
        + figure_html(
            images.get("action_card_use"),
            "How often each action card is played per game, all seats together. "
            "With 2 players the deck has no Reverse (R2).",
        )
        + figure_html(
            images.get("action_card_wins"),
            "Win rate of the seats that played a card at least once in a game (filled) "
            "against the seats that did not (hollow). An association, not an effect: the "
            "seat doing well plays more cards, and a Block is played by the seat behind.",
        )
        + "</section>"
    )


def _config_html(config_id: str, summary: Summary) -> str:
    options = summary["options"]
    rules = f"options <code>{_e(json.dumps(options))}</code>" if options else "default rules"
    parts = [
        f"<h4>{_e(config_id)}</h4>",
        f"<p>{summary['games']} games, {summary['player_count']} players, {rules}; "
        f"fair share {summary['fair_share']:.1%}</p>",
    ]
    if summary["self_play"]:
        parts.append(note_html("Self-play: one bot held every seat, so no bot table."))
    else:
        parts.append(
            table_html(
                ["bot", "win rate per seat held [95% CI] (won/held)"],
                [[name, _percent(rate)] for name, rate in summary["bots"].items()],
            )
        )
    if not summary["seats_comparable"]:
        parts.append(
            note_html(
                "The seats faced different line-ups (the bot list does not rotate evenly "
                "over the seats): these seat rates mix seat and bot strength."
            )
        )
    parts.append(
        table_html(
            ["seat", "win rate [95% CI] (won/games)"],
            [[str(seat), _percent(rate)] for seat, rate in enumerate(summary["seats"])],
        )
    )
    parts.append(_outcometable_html(summary))
    parts.append(_cardtable_html(summary["action_cards"]))
    return "<article>" + "".join(parts) + "</article>"


def _cardtable_html(effects: Mapping[str, Summary]) -> str:
    """Action cards in the deck; a card never played has no win rates to compare."""
    notes = any(effect["note"] for effect in effects.values())
    rows = []
    for effect in effects.values():
        played = effect["played"]["played"] > 0
        rates = (
            [_percent(effect["played"]), _percent(effect["not_played"])]
            if played
            else ["— (never played)", "—"]
        )
        row = [effect["card"], f"{effect['plays_per_game']:.2f}", *rates]
        rows.append([*row, effect["note"] or ""] if notes else row)
    headers = ["action card", "plays/game", "win rate if played [95% CI]", "if not played [95% CI]"]
    return table_html([*headers, "note"] if notes else headers, rows, note_last=notes)


def _outcometable_html(summary: Summary) -> str:
    turns = summary["turns"]
    chips = summary["chips"]
    reasons = ", ".join(f"{k}: {v}" for k, v in summary["reasons"].items())
    return table_html(
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


def _configs_section(data: Summary) -> str:
    parts = ['<section id="configs"><h2>Configurations</h2>']
    for count in data["player_counts"]:
        parts.append(f'<h3 id="players-{count}">{count} players</h3>')
        for config_id, summary in data["configs"].items():
            if summary["player_count"] == count:
                parts.append(_config_html(config_id, summary))
    parts.append("</section>")
    return "".join(parts)


def _nav(data: Summary) -> str:
    links = [
        ("#seats", "Seats"),
        ("#bots", "Bots"),
        ("#length", "Game length"),
        ("#cards", "Action cards"),
        *((f"#players-{count}", f"{count} players") for count in data["player_counts"]),
    ]
    return nav_html(links)


def nav_html(links: Sequence[tuple[str, str]]) -> str:
    """The page's section links, ``(href, text)`` each (the text escaped here)."""
    items = "".join(f'<li><a href="{href}">{_e(text)}</a></li>' for href, text in links)
    return f'<nav aria-label="Sections"><ul>{items}</ul></nav>'


def render_page(data: Summary, images: Mapping[str, SavedFigure], *, title: str) -> str:
    """The whole page for :func:`~sequence_stacks.sim.report.analyse` data and the saved
    figures of :func:`~sequence_stacks.sim.report_figures.save_figures`."""
    lead = (
        f"{data['games']} games in {len(data['configs'])} configuration(s) at "
        f"{_counts_text(data['player_counts'])}. Win rates carry 95% Wilson intervals; a "
        "seat's fair share is 1 / players. Player counts are never pooled."
    )
    body = (
        f'<header><h1>{_e(title)}</h1><p class="lead">{_e(lead)}</p>{_nav(data)}</header>'
        + _seat_section(data, images)
        + _bot_section(data, images)
        + _length_section(data, images)
        + _card_section(images)
        + _configs_section(data)
    )
    return page_html(title, body)


def page_html(title: str, body: str, *, css: str = CSS) -> str:
    """A whole page around ``body`` (already HTML): its title, the style sheet ``css``
    and the strict Content-Security-Policy that allows only that sheet."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(csp_for(css))}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{css}</style></head>"
        f"<body><main>{body}</main></body></html>\n"
    )
