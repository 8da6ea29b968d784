"""Many games at once: tournaments, balance statistics and reports.

:func:`play_game` plays one game between bots (each sees only its own view) and
returns the final state and the full record; :func:`iter_selfplay` / :func:`selfplay`
play many with seat rotation, and :func:`summarize` turns their rows into win rates
with Wilson intervals.
"""

from .play import BotError, play_game
from .selfplay import (
    GameRow,
    Rate,
    Summary,
    iter_selfplay,
    seat_bots,
    selfplay,
    summarize,
    wilson_interval,
)

__all__ = [
    "BotError",
    "GameRow",
    "Rate",
    "Summary",
    "iter_selfplay",
    "play_game",
    "seat_bots",
    "selfplay",
    "summarize",
    "wilson_interval",
]
