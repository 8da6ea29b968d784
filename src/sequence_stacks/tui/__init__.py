"""Terminal play: ``sequence-stacks play`` (Textual) and its ``--plain`` line mode.

The interface holds no rules: a :class:`GameSession` applies actions through the engine
and hands out views; the Textual app and the plain mode render those views and send the
player's choices back, showing the engine's refusals (rule id and reason).
"""

from .command import add_play_parser, build_session, configure_play_parser, main_play, run_play
from .session import (
    HUMAN,
    BotPlayer,
    GameSession,
    SeatSpec,
    load_record,
    player_name,
    seats_from_record,
)

__all__ = [
    "HUMAN",
    "BotPlayer",
    "GameSession",
    "SeatSpec",
    "add_play_parser",
    "build_session",
    "configure_play_parser",
    "load_record",
    "main_play",
    "player_name",
    "run_play",
    "seats_from_record",
]
