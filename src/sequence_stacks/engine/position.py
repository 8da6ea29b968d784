"""The position format: a complete state as JSON, loaded with full validation (R39).

See docs/records.md for the format. Cards are written ``KIND#ID`` (``B3#20``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .cards import CARD_COLOUR, CARD_RANK, COLOUR_NAMES, card_from_text, card_text, deck_for
from .errors import PositionError, SettingsError
from .settings import Settings
from .state import AWAITING, BLOCK_WINDOW, BLOCKED, OVER, PASSED, PHASE_NAMES, Result, State

__all__ = ["POSITION_FORMAT", "position_digest", "position_from_dict", "position_to_dict"]

POSITION_FORMAT: Final = "sequence-stacks/position"
POSITION_VERSION: Final = 1
_ANSWER_TEXT: Final = {PASSED: "pass", BLOCKED: "block"}
_END_REASONS: Final = ("win", "stalemate", "max_turns", "max_turn_actions")


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
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "settings": state.settings.to_dict(),
        "seed": state.seed,
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
        "phase": PHASE_NAMES[state.phase],
        "window": window,
        "turn_count": state.turn_count,
        "turn_actions": state.turn_actions,
        "stall_mask": state.stall_mask,
        "card_epoch": {card_text(c): e for c, e in enumerate(state.card_epoch) if e},
        "known": [_cards(cards) for cards in state.known],
        "result": None
        if result is None
        else {"reason": result.reason, "winner": result.winner, "returns": list(result.returns)},
    }


def position_digest(state: State) -> str:
    """Return the SHA-256 of the position's canonical JSON (golden-game checks)."""
    text = json.dumps(position_to_dict(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def position_from_dict(data: Any) -> State:
    """Load and validate a position; raise PositionError saying what is wrong (R39)."""
    if not isinstance(data, Mapping):
        raise PositionError(f"a position is a JSON object, not {type(data).__name__}")
    if data.get("format") != POSITION_FORMAT:
        raise PositionError(f"not a position: 'format' must be {POSITION_FORMAT!r}")
    if data.get("version") != POSITION_VERSION:
        raise PositionError(f"unsupported position version {data.get('version')!r}")
    try:
        settings = Settings.from_dict(_field(data, "settings", dict))
    except (SettingsError, TypeError) as error:
        raise PositionError(f"settings: {error}") from None
    seed = data.get("seed", 0)
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise PositionError("seed must be an integer or a string")
    state = State.empty(settings, seed)
    try:
        _load_zones(state, data)
        _load_turn(state, data)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, PositionError):
            raise
        raise PositionError(f"malformed position: {error}") from None
    validate_state(state)
    return state


def _field(data: Mapping[str, Any], name: str, kind: type, default: Any = None) -> Any:
    value = data.get(name, default)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise PositionError(f"{name!r} must be a {kind.__name__}, got {value!r}")
    return value


def _card_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list of cards like 'B3#20'")
    try:
        return [card_from_text(item) for item in value]
    except (ValueError, AttributeError) as error:
        raise PositionError(f"{where}: {error}") from None


def _per_seat(data: Mapping[str, Any], name: str, state: State, default: Any) -> list[Any]:
    value = data.get(name, default)
    if not isinstance(value, list) or len(value) != state.player_count:
        raise PositionError(f"{name!r} must list one entry per seat ({state.player_count})")
    return value


def _load_zones(state: State, data: Mapping[str, Any]) -> None:
    count = state.player_count
    empty: list[list[str]] = [[] for _ in range(count)]
    state.hands = [
        _card_list(h, f"hands[{s}]") for s, h in enumerate(_per_seat(data, "hands", state, None))
    ]
    state.discards = [
        _card_list(d, f"discards[{s}]")
        for s, d in enumerate(_per_seat(data, "discards", state, empty))
    ]
    state.known = [
        _card_list(k, f"known[{s}]") for s, k in enumerate(_per_seat(data, "known", state, empty))
    ]
    state.draw = _card_list(data.get("draw", []), "draw")
    state.special = _card_list(data.get("special", []), "special")
    state.pool = _card_list(data.get("pool", []), "pool")
    piles = _field(data, "piles", dict, {})
    per_colour = state.settings.piles_per_colour
    for colour, name in enumerate(COLOUR_NAMES):
        slots = piles.get(name, [])
        if not isinstance(slots, list) or len(slots) > per_colour:
            raise PositionError(f"piles.{name} must be a list of at most {per_colour} piles (R9)")
        for index, pile in enumerate(slots):
            state.piles[colour * per_colour + index] = _card_list(pile, f"piles.{name}[{index}]")
    epochs = _field(data, "card_epoch", dict, {})
    for text, epoch in epochs.items():
        state.card_epoch[card_from_text(text)] = int(epoch)


def _load_turn(state: State, data: Mapping[str, Any]) -> None:
    chips = _per_seat(data, "chips", state, [[0, 0]] * state.player_count)
    state.chips = [_pair(pair, f"chips[{seat}]") for seat, pair in enumerate(chips)]
    supply = data.get("supply")
    limit = state.settings.chip_supply
    if limit is None:
        state.supply = [0, 0]
    elif supply is None:
        state.supply = [
            limit - sum(p[0] for p in state.chips),
            limit - sum(p[1] for p in state.chips),
        ]
    else:
        state.supply = _pair(supply, "supply")
    state.shuffle_count = _field(data, "shuffle_count", int, 1)
    state.direction = _field(data, "direction", int, 1)
    state.current = _field(data, "current", int, state.settings.first_seat)
    state.pending_skips = _field(data, "pending_skips", int, 0)
    state.turn_count = _field(data, "turn_count", int, 1)
    state.turn_actions = _field(data, "turn_actions", int, 0)
    state.stall_mask = _field(data, "stall_mask", int, 0)
    phase = data.get("phase", "playing")
    if phase not in PHASE_NAMES:
        raise PositionError(f"phase must be one of {', '.join(PHASE_NAMES)}, not {phase!r}")
    state.phase = PHASE_NAMES.index(phase)
    window = data.get("window")
    if state.phase == BLOCK_WINDOW:
        _load_window(state, window)
    elif window is not None:
        raise PositionError("'window' is only given while a Block window is open (R29)")
    result = data.get("result")
    if result is not None:
        state.result = Result(
            str(result["reason"]), result["winner"], tuple(float(r) for r in result["returns"])
        )


def _pair(value: Any, where: str) -> list[int]:
    """Read a ``[blue, red]`` pair of whole numbers."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise PositionError(f"{where} must be a [blue, red] pair of whole numbers")
    return [value[0], value[1]]


def _seat(value: Any, state: State, where: str) -> int:
    seat = int(value)
    if not 0 <= seat < state.player_count:
        raise PositionError(f"{where}: there is no seat {seat} in this game")
    return seat


def _load_window(state: State, window: Any) -> None:
    if not isinstance(window, Mapping):
        raise PositionError("a position in the block_window phase needs a 'window' object (R29)")
    state.window_completer = _seat(window["completer"], state, "window.completer")
    state.window_slot = int(window["slot"])
    state.window_pending = [_seat(seat, state, "window.pending") for seat in window["pending"]]
    answers = [AWAITING] * state.player_count
    for seat, answer in dict(window.get("answers", {})).items():
        if answer not in ("pass", "block"):
            raise PositionError(f"window answer {answer!r} must be 'pass' or 'block'")
        answers[_seat(seat, state, "window.answers")] = BLOCKED if answer == "block" else PASSED
    state.window_answers = answers


def validate_state(state: State) -> None:
    """Raise PositionError unless the state obeys conservation and the zone rules (R39)."""
    settings = state.settings
    deck = deck_for(settings.player_count, keep_two_player_reverses=settings.two_player_reverses)
    cards = state.cards_in_play()
    if sorted(cards) != list(deck):
        missing = sorted(set(deck) - set(cards))
        extra = sorted(c for c in set(cards) if cards.count(c) > 1 or c not in deck)
        raise PositionError(
            f"cards are not conserved (R39): missing {_cards(missing)}, duplicated or foreign "
            f"{_cards(extra)}"
        )
    _validate_chips(state)
    _validate_piles(state)
    _validate_turn(state)


def _validate_chips(state: State) -> None:
    if any(value < 0 for pair in state.chips for value in pair) or min(state.supply) < 0:
        raise PositionError("chip counts cannot be negative (R39)")
    limit = state.settings.chip_supply
    for colour, name in enumerate(COLOUR_NAMES):
        held = sum(pair[colour] for pair in state.chips)
        if limit is not None and held + state.supply[colour] != limit:
            raise PositionError(
                f"{name} chips are not conserved (R39): {held} held + {state.supply[colour]} "
                f"in the supply != {limit}"
            )


def _validate_piles(state: State) -> None:
    per_colour = state.settings.piles_per_colour
    for slot, pile in enumerate(state.piles):
        colour = slot // per_colour
        longest = 5 if state.phase == BLOCK_WINDOW and slot == state.window_slot else 4
        if len(pile) > longest:
            raise PositionError(f"a {COLOUR_NAMES[colour]} pile holds {len(pile)} cards (R17)")
        for place, card in enumerate(pile):
            if CARD_COLOUR[card] != colour or CARD_RANK[card] not in (0, place + 1):
                raise PositionError(
                    f"{card_text(card)} cannot be card {place + 1} of a {COLOUR_NAMES[colour]} "
                    "pile (R15, R16)"
                )


def _validate_turn(state: State) -> None:
    count = state.player_count
    for seat, known in enumerate(state.known):
        if not set(known) <= set(state.hands[seat]) or len(set(known)) != len(known):
            raise PositionError(f"known[{seat}] names cards not in that hand, or twice")
    checks = [
        (state.direction in (1, -1), "direction must be 1 or -1 (R27)"),
        (0 <= state.current < count, f"current must be a seat 0-{count - 1}"),
        (state.pending_skips >= 0, "pending_skips cannot be negative (R26)"),
        (state.turn_actions >= 0, "turn_actions cannot be negative (N17)"),
        (0 <= state.stall_mask < 1 << count, "stall_mask must be a bit per seat"),
        (state.shuffle_count >= 1, "shuffle_count counts the first shuffle, so it is at least 1"),
        (all(0 <= e < state.shuffle_count for e in state.card_epoch), "card_epoch out of range"),
        (0 <= state.turn_count <= state.settings.max_turns, "turn_count outside 0-max_turns"),
        (
            all(state.card_epoch[c] == state.shuffle_count - 1 for c in state.draw),
            "draw pile epoch",
        ),
        ((state.phase == OVER) == (state.result is not None), "result is given iff phase is over"),
    ]
    for ok, message in checks:
        if not ok:
            raise PositionError(message)
    if state.result is not None:
        _validate_result(state.result, count)
    if state.phase == BLOCK_WINDOW:
        _validate_window(state)


def _validate_result(result: Result, count: int) -> None:
    if result.reason not in _END_REASONS:
        raise PositionError(f"result reason {result.reason!r} must be one of {_END_REASONS}")
    winner: object = result.winner  # loaded from JSON: may be anything
    winner_ok = winner is None or (isinstance(winner, int) and not isinstance(winner, bool))
    if not winner_ok or (result.winner is None) != (result.reason != "win"):
        raise PositionError("a result names a winning seat exactly when its reason is 'win'")
    if result.winner is not None and not 0 <= result.winner < count:
        raise PositionError(f"result winner {result.winner} is not a seat")
    if result != Result.of(result.reason, result.winner, count):
        raise PositionError(f"result returns {list(result.returns)} are not the standard vector")


def _validate_window(state: State) -> None:
    """R29: a full pile, its completer, and every opponent asked or answered, once."""
    count = state.player_count
    completer = state.window_completer
    slot = state.window_slot
    pile = state.piles[slot] if 0 <= slot < len(state.piles) else []
    pending = state.window_pending
    answered = {s for s, a in enumerate(state.window_answers) if a != AWAITING}
    opponents = set(range(count)) - {completer}
    consistent = (
        len(pile) == 5
        and 0 <= completer < count
        and bool(pending)
        and len(set(pending)) == len(pending)
        and not set(pending) & answered
        and completer not in answered
        and set(pending) | answered == opponents
    )
    if not consistent:
        raise PositionError(
            "the Block window needs a 5-card pile, a completer, and every opponent either "
            "still asked or answered, once (R29)"
        )
