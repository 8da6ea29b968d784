"""The position format: a complete state as JSON, loaded with full validation (R39).

See docs/records.md for the format. Cards are written ``KIND#ID`` (``B3#20``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from .cards import (
    CARD_COUNT,
    COLOUR_NAMES,
    card_from_text,
    card_text,
)
from .errors import EngineError, PositionError, SettingsError, shown
from .fields import (
    FieldError,
    expect_int,
    expect_list,
    expect_number,
    expect_object,
    expect_seat,
    expect_str,
)
from .rng import Seed
from .settings import Settings
from .state import (
    AWAITING,
    BLOCK_WINDOW,
    BLOCKED,
    PASSED,
    EndReason,
    Phase,
    Result,
    State,
)
from .validation import validate_state

__all__ = [
    "POSITION_FORMAT",
    "header_dict",
    "position_digest",
    "position_from_dict",
    "position_to_dict",
    "read_header",
]

POSITION_FORMAT: Final = "sequence-stacks/position"
POSITION_VERSION: Final = 1
_ANSWER_TEXT: Final = {PASSED: "pass", BLOCKED: "block"}


def _cards(cards: Sequence[int]) -> list[str]:
    return [card_text(card) for card in cards]


def position_to_dict(state: State) -> dict[str, Any]:
    """Return the whole state (hidden parts included) as JSON-ready data."""
    per_colour = state.settings.piles_per_colour
    window = None
    if state.phase == BLOCK_WINDOW:
        answers = {
            str(seat): _ANSWER_TEXT[answer]
            for seat, answer in enumerate(state.window_answers)
            if answer != AWAITING
        }
        window = {
            "completer": state.window_completer,
            "slot": state.window_slot,
            "pending": list(state.window_pending),
            "answers": answers,
        }
    result = state.result
    return {
        **header_dict(POSITION_FORMAT, POSITION_VERSION, state.settings, state.seed),
        "shuffle_count": state.shuffle_count,
        "hands": [_cards(hand) for hand in state.hands],
        "draw": _cards(state.draw),
        "piles": {
            name: [_cards(pile) for pile in state.piles[c * per_colour : (c + 1) * per_colour]]
            for c, name in enumerate(COLOUR_NAMES)
        },
        "discards": [_cards(pile) for pile in state.discards],
        "special": _cards(state.special),
        "pool": _cards(state.pool),
        "chips": [list(pair) for pair in state.chips],
        "supply": "unlimited" if state.settings.chip_supply is None else list(state.supply),
        "direction": state.direction,
        "current": state.current,
        "pending_skips": state.pending_skips,
        "phase": state.phase.key,
        "window": window,
        "turn_count": state.turn_count,
        "turn_actions": state.turn_actions,
        "stall_mask": state.stall_mask,
        "card_epoch": {card_text(c): e for c, e in enumerate(state.card_epoch) if e},
        "known": [_cards(cards) for cards in state.known],
        "result": None if result is None else result.to_dict(),
    }


def position_digest(state: State) -> str:
    """Return the SHA-256 of the position's canonical JSON (golden-game checks)."""
    text = json.dumps(position_to_dict(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


_POSITION_KEYS: Final = (
    "format",
    "version",
    "settings",
    "seed",
    "shuffle_count",
    "hands",
    "draw",
    "piles",
    "discards",
    "special",
    "pool",
    "chips",
    "supply",
    "direction",
    "current",
    "pending_skips",
    "phase",
    "window",
    "turn_count",
    "turn_actions",
    "stall_mask",
    "card_epoch",
    "known",
    "result",
)
_WINDOW_KEYS: Final = ("completer", "slot", "pending", "answers")
_RESULT_KEYS: Final = ("reason", "winner", "returns")


def header_dict(format_: str, version: int, settings: Settings, seed: Seed) -> dict[str, Any]:
    """What a position and a record begin with (:func:`read_header` reads it back)."""
    return {"format": format_, "version": version, "settings": settings.to_dict(), "seed": seed}


def read_header(
    data: Any,
    error: Callable[[str], EngineError],
    *,
    noun: str,
    title: str,
    format_: str,
    version: int,
    known: Sequence[str],
    required: Sequence[str] = (),
    seed: Seed | None = None,
) -> tuple[Settings, Seed]:
    """Check what a position and a record begin with (their format, version and field
    names; R39, R41) and read their settings and seed; raise ``error`` saying what is
    wrong. ``noun`` names the data in messages, ``title`` what it is not when the format
    is wrong (``"a game record"``), ``seed`` the seed when there is none (None: required)."""
    if not isinstance(data, Mapping):
        raise error(f"a {noun} is a JSON object, not {type(data).__name__}")
    if data.get("format") != format_:
        raise error(f"not {title}: 'format' must be {format_!r}")
    found = data.get("version")
    if type(found) is not int or found != version:
        raise error(f"unsupported {noun} version {shown(found)}")
    try:
        expect_object(data, f"the {noun}", known=known, required=required)
        settings = Settings.from_dict(expect_object(data.get("settings", {}), "settings"))
    except SettingsError as problem:
        raise error(f"settings: {problem}") from None
    except FieldError as problem:
        raise error(str(problem)) from None
    value = data.get("seed", seed)
    if not isinstance(value, int | str) or isinstance(value, bool):
        raise error(f"seed must be an integer or a string, not {shown(value)} (R41)")
    return settings, value


def position_from_dict(data: Any) -> State:
    """Load and validate a position; raise PositionError saying what is wrong (R39)."""
    settings, seed = read_header(
        data,
        PositionError,
        noun="position",
        title="a position",
        format_=POSITION_FORMAT,
        version=POSITION_VERSION,
        known=_POSITION_KEYS,
        required=("settings", "hands"),
        seed=0,
    )
    state = State.empty(settings, seed)
    try:
        _load_zones(state, data)
        _load_turn(state, data)
    except FieldError as error:
        raise PositionError(str(error)) from None
    validate_state(state)
    return state


def _card_list(value: Any, where: str) -> list[int]:
    """Read a list of cards written ``KIND#ID``; no zone holds more than the deck."""
    items = expect_list(value, where, most=CARD_COUNT, items="cards like 'B3#20'")
    cards = []
    for index, item in enumerate(items):
        text = expect_str(item, f"{where}[{index}]", "a card like 'B3#20'")
        try:
            cards.append(card_from_text(text))
        except ValueError as error:
            raise FieldError(f"{where}[{index}]: {error}") from None
    return cards


def _per_seat(data: Mapping[str, Any], name: str, state: State, default: Any) -> list[Any]:
    count = state.player_count
    value = data.get(name, default)
    return expect_list(value, name, length=count, items="entries, one per seat")


def _seat_card_lists(data: Mapping[str, Any], name: str, state: State) -> list[list[int]]:
    default: list[list[str]] | None = None  # hands have no default
    if name != "hands":
        default = [[] for _ in range(state.player_count)]
    lists = _per_seat(data, name, state, default)
    return [_card_list(cards, f"{name}[{seat}]") for seat, cards in enumerate(lists)]


def _load_zones(state: State, data: Mapping[str, Any]) -> None:
    state.hands = _seat_card_lists(data, "hands", state)
    state.discards = _seat_card_lists(data, "discards", state)
    state.known = _seat_card_lists(data, "known", state)
    state.draw = _card_list(data.get("draw", []), "draw")
    state.special = _card_list(data.get("special", []), "special")
    state.pool = _card_list(data.get("pool", []), "pool")
    _load_piles(state, data.get("piles", {}))
    _load_epochs(state, data.get("card_epoch", {}))


def _load_piles(state: State, value: Any) -> None:
    piles = expect_object(value, "piles", known=COLOUR_NAMES)
    per_colour = state.settings.piles_per_colour
    for colour, name in enumerate(COLOUR_NAMES):
        where = f"piles.{name}"
        slots = expect_list(piles.get(name, []), where, items="piles")
        if len(slots) > per_colour:
            raise FieldError(
                f"{where} lists {len(slots)} piles; this game has {per_colour} of each colour (R9)"
            )
        for index, pile in enumerate(slots):
            state.piles[colour * per_colour + index] = _card_list(pile, f"{where}[{index}]")


def _load_epochs(state: State, value: Any) -> None:
    """``card_epoch``: ``{"B3#20": 1}``, the shuffle that last put a card in the draw pile."""
    epochs = expect_object(value, "card_epoch")
    for key, epoch in epochs.items():
        text = expect_str(key, "card_epoch", "keyed by cards like 'B3#20'")
        try:
            card = card_from_text(text)
        except ValueError as error:
            raise FieldError(f"card_epoch: {error}") from None
        where = f"card_epoch[{shown(text)}]"
        state.card_epoch[card] = expect_int(epoch, where, 0, wanted="a shuffle number from 0")


def _load_turn(state: State, data: Mapping[str, Any]) -> None:
    chips = _per_seat(data, "chips", state, [[0, 0]] * state.player_count)
    state.chips = [_pair(pair, f"chips[{seat}]") for seat, pair in enumerate(chips)]
    state.supply = _supply(state, data.get("supply"))
    count = state.player_count
    state.shuffle_count = expect_int(data.get("shuffle_count", 1), "shuffle_count", 1)
    state.direction = expect_int(data.get("direction", 1), "direction", wanted="1 or -1 (R27)")
    state.current = expect_seat(data.get("current", state.settings.first_seat), "current", count)
    state.pending_skips = expect_int(data.get("pending_skips", 0), "pending_skips", 0)
    state.turn_count = expect_int(data.get("turn_count", 1), "turn_count", 0)
    state.turn_actions = expect_int(data.get("turn_actions", 0), "turn_actions", 0)
    state.stall_mask = expect_int(data.get("stall_mask", 0), "stall_mask", 0, (1 << count) - 1)
    phase = expect_str(data.get("phase", Phase.PLAYING.key), "phase", "the name of a phase")
    try:
        state.phase = Phase.from_key(phase)
    except ValueError:
        names = ", ".join(member.key for member in Phase)
        raise FieldError(f"phase must be one of {names}, not {shown(phase)}") from None
    window = data.get("window")
    if state.phase == BLOCK_WINDOW:
        _load_window(state, window)
    elif window is not None:
        raise FieldError("'window' is only given while a Block window is open (R29)")
    result = data.get("result")
    if result is not None:
        state.result = result_from_data(result)


def _supply(state: State, value: Any) -> list[int]:
    """R3: the chip supply ``[blue, red]``; left out, it is what the players do not hold."""
    limit = state.settings.chip_supply
    if limit is None:
        if value not in (None, "unlimited"):
            raise FieldError(f"supply must be 'unlimited' with unlimited chips, not {shown(value)}")
        return [0, 0]
    if value is None:
        return [limit - sum(pair[colour] for pair in state.chips) for colour in (0, 1)]
    return _pair(value, "supply")


def _pair(value: Any, where: str) -> list[int]:
    """Read a ``[blue, red]`` pair of whole numbers."""
    wanted = f"{where} must be a [blue, red] pair of whole numbers, not {shown(value)}"
    pair = value if isinstance(value, list) and len(value) == 2 else None
    if pair is None or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair):
        raise FieldError(wanted)
    return [pair[0], pair[1]]


def _load_window(state: State, value: Any) -> None:
    if not isinstance(value, Mapping):
        raise FieldError("a position in the block_window phase needs a 'window' object (R29)")
    window = expect_object(value, "window", known=_WINDOW_KEYS, required=_WINDOW_KEYS[:3])
    count = state.player_count
    slots = len(state.piles)
    state.window_completer = expect_seat(window["completer"], "window.completer", count)
    wanted = f"a pile slot 0-{slots - 1} (blue slots first, R9)"
    state.window_slot = expect_int(window["slot"], "window.slot", 0, slots - 1, wanted=wanted)
    pending = expect_list(window["pending"], "window.pending", most=count, items="seats")
    state.window_pending = [
        expect_seat(seat, f"window.pending[{index}]", count) for index, seat in enumerate(pending)
    ]
    state.window_answers = _window_answers(window.get("answers", {}), count)


def _window_answers(value: Any, count: int) -> list[int]:
    """``{"1": "pass", "2": "block"}``: the answers given so far, by seat (R29)."""
    answers = [AWAITING] * count
    for key, answer in expect_object(value, "window.answers").items():
        digits = isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2
        seat = int(key) if digits else -1
        if not 0 <= seat < count:
            raise FieldError(
                f"window.answers: there is no seat {shown(key)} in this game (seats 0-{count - 1})"
            )
        if answer not in ("pass", "block"):
            raise FieldError(
                f"window.answers[{shown(key)}] must be 'pass' or 'block', not {shown(answer)}"
            )
        answers[seat] = BLOCKED if answer == "block" else PASSED
    return answers


def result_from_data(value: Any, where: str = "result") -> Result:
    """Read ``{"reason": …, "winner": …, "returns": […]}`` (checked against a game by
    :func:`validate_state`); raise FieldError naming the field that is wrong."""
    data = expect_object(value, where, known=_RESULT_KEYS, required=_RESULT_KEYS)
    reason = data["reason"]
    if reason not in tuple(EndReason):
        reasons = ", ".join(EndReason)
        raise FieldError(f"{where}.reason must be one of {reasons}, not {shown(reason)}")
    winner = data["winner"]
    if winner is not None:
        winner = expect_int(winner, f"{where}.winner", 0, wanted="a seat, or null if nobody won")
    returns = expect_list(data["returns"], f"{where}.returns", most=6, items="numbers per seat")
    numbers = tuple(expect_number(r, f"{where}.returns[{i}]") for i, r in enumerate(returns))
    return Result(EndReason(reason), winner, numbers)
