"""The Sequence Stacks rules engine: pure, stdlib-only, deterministic (RULES.md R1-R41).

A game is ``(settings, seed, actions)``. Start one with :func:`new_game`, ask who must
decide with :meth:`State.deciders`, list choices with :func:`legal_actions`, and move
on with :func:`apply` (pure) or :func:`apply_in_place` (fast). Seats see
:func:`observe` views only; search bots use :func:`resample`.
"""

from __future__ import annotations

import copyreg
import typing

from .actions import (
    BLOCK_ID,
    DISCARD_BASE,
    END_ID,
    PASS_ID,
    Action,
    ActionSpace,
    ActionType,
    action_space,
    parse_action,
)
from .cards import (
    BLUE,
    CARD_COLOUR,
    CARD_KIND,
    CARD_RANK,
    COLOUR_NAMES,
    COLOURS,
    RED,
    Kind,
    card_from_text,
    card_text,
    deck_for,
    kind_colour,
    kind_from_text,
    kind_rank,
    kind_text,
)
from .catalog import ACTION_KEYS
from .compiling import by_fields
from .errors import (
    ILLEGAL_PARAMS,
    EngineError,
    IllegalActionError,
    IllegalCode,
    NotationError,
    PositionError,
    RecordError,
    SettingsError,
)
from .events import DrawReason, Event, event_for, event_to_dict
from .legality import chips_needed, hand_has, meets_win_condition
from .position import position_digest, position_from_dict, position_to_dict
from .record import GameRecord, Replay
from .resample import resample
from .rules import (
    apply,
    apply_id,
    apply_in_place,
    check,
    is_legal,
    legal_action_ids,
    legal_action_mask,
    legal_actions,
    new_game,
    pass_window,
)
from .settings import OPTION_RULES, Settings
from .state import EndReason, Phase, Result, State
from .validation import validate_state
from .view import View, observe, observe_seats

__all__ = [
    "ACTION_KEYS",
    "BLOCK_ID",
    "BLUE",
    "CARD_COLOUR",
    "CARD_KIND",
    "CARD_RANK",
    "COLOURS",
    "COLOUR_NAMES",
    "DISCARD_BASE",
    "END_ID",
    "ILLEGAL_PARAMS",
    "OPTION_RULES",
    "PASS_ID",
    "RED",
    "Action",
    "ActionSpace",
    "ActionType",
    "DrawReason",
    "EndReason",
    "EngineError",
    "Event",
    "GameRecord",
    "IllegalActionError",
    "IllegalCode",
    "Kind",
    "NotationError",
    "Phase",
    "PositionError",
    "RecordError",
    "Replay",
    "Result",
    "Settings",
    "SettingsError",
    "State",
    "View",
    "action_space",
    "apply",
    "apply_id",
    "apply_in_place",
    "card_from_text",
    "card_text",
    "check",
    "chips_needed",
    "deck_for",
    "event_for",
    "event_to_dict",
    "hand_has",
    "is_legal",
    "kind_colour",
    "kind_from_text",
    "kind_rank",
    "kind_text",
    "legal_action_ids",
    "legal_action_mask",
    "legal_actions",
    "meets_win_condition",
    "new_game",
    "observe",
    "observe_seats",
    "parse_action",
    "pass_window",
    "position_digest",
    "position_from_dict",
    "position_to_dict",
    "resample",
    "validate_state",
]

# The frozen records of a compiled engine pickle and copy by their fields (compiling.py);
# the pure engine does the same, so both give the same copies.
for _record in (View, *typing.get_args(Event)):
    copyreg.pickle(_record, by_fields)
