"""Leak audit: which card ids a viewer may not see, and which ids a frame contains.

Used by the tests (and usable in a debugging server) to prove R36 over the wire: no
frame a viewer receives names a card of another seat's hand or of the draw pile, and
no frame holds a game's seed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from sequence_stacks.engine import State
from sequence_stacks.server.store import LogEntry, TableRow

from .table import Table

__all__ = [
    "Hidden",
    "card_ids",
    "connection_leaks",
    "frame_leaks",
    "hidden_cards",
    "hidden_history",
]

# Keys whose values are card ids, wherever they appear in a frame.
CARD_KEYS: Final = frozenset(
    {
        "hand",
        "hands",
        "piles",
        "discards",
        "special",
        "pool",
        "known_cards",
        "card",
        "cards",
        "stolen",
    }
)
# Card notation inside text, e.g. "B3#20" or "SKIP#104".
CARD_TEXT: Final = re.compile(r"\b(?:[BR][1-5W]|SKIP|REV|SCARD|BLOCK|SCHIP)#(\d{1,3})\b")


def hidden_cards(state: State, viewer: int | None) -> frozenset[int]:
    """The card ids ``viewer`` may not see now: the draw pile and others' unknown cards."""
    hidden = set(state.draw)
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hidden.update(card for card in hand if card not in state.known[seat])
    return frozenset(hidden)


def card_ids(data: object, *, under_card_key: bool = False) -> set[int]:
    """Every card id in a decoded frame: values under card keys, and card notation in text."""
    found: set[int] = set()
    if isinstance(data, Mapping):
        for key, value in data.items():
            found |= card_ids(value, under_card_key=under_card_key or key in CARD_KEYS)
    elif isinstance(data, list | tuple):
        for item in data:
            found |= card_ids(item, under_card_key=under_card_key)
    elif isinstance(data, bool):
        pass
    elif isinstance(data, int):
        if under_card_key:
            found.add(data)
    elif isinstance(data, str):
        found.update(int(match) for match in CARD_TEXT.findall(data))
    return found


@dataclasses.dataclass(frozen=True, slots=True)
class Hidden:
    """What one viewer may not see at one version.

    Attributes:
        after: hidden in the state after the version's entry (for views).
        during: hidden both before and after it (for the entry's own events: a card that
            was public when the event happened may be shuffled out of sight by it).
        finished: the games over by this version: R36 hides cards only "before the
            game ends", so a finished game's entries hide nothing any more (its replay
            shows every hand to anyone).
    """

    after: frozenset[int]
    during: frozenset[int]
    finished: int = 0


def hidden_history(
    row: TableRow, entries: Iterable[LogEntry], viewer: int | None
) -> tuple[dict[int, Hidden], set[str]]:
    """Replay a table's log; return what ``viewer`` may not see at each version, and the
    text of every seed (which must appear nowhere)."""
    table = Table(row)
    history = {0: Hidden(frozenset(), frozenset())}
    seeds: set[str] = set()
    for entry in entries:
        before = hidden_cards(table.state, viewer) if table.state is not None else frozenset()
        started = entry.payload.get("op") == "start"
        table.apply(entry)
        if started:
            seeds.add(str(entry.payload["seed"]))
            before = frozenset(range(120))  # a new deal: every card was unseen before it
        state = table.state
        after = hidden_cards(state, viewer) if state is not None else frozenset()
        over = state is not None and state.is_over
        finished = table.game_no if over else table.game_no - 1
        history[entry.version] = Hidden(after, before & after, finished)
    return history, seeds


def connection_leaks(
    row: TableRow,
    entries: Sequence[LogEntry],
    token_hash: str | None,
    frames: Iterable[tuple[Mapping[str, Any], str]],
    *,
    secrets: Iterable[str] = (),
) -> list[str]:
    """Audit every frame one connection received, in order, as (decoded, raw text);
    ``secrets`` (e-mail addresses, other seats' tokens, session cookies) must be in none.

    The connection is known by its token: each frame may show only what the seat that
    token held *when the frame was sent* may see (a spectator's share if none). Seats
    change hands (leave, replace, reclaim, a newcomer between games), so the seat is
    read per frame, from the frame's version (frames with none, such as an ack, are
    taken at the last version the connection saw).
    """
    holders = _holders(row, entries, token_hash)
    kept = [secret for secret in secrets if secret]
    histories: dict[int | None, tuple[dict[int, Hidden], set[str]]] = {}
    problems: list[str] = []
    seen = 0
    for frame, raw in frames:
        version = frame.get("version")
        if isinstance(version, int) and version in holders:
            seen = max(seen, version)
        seat = holders[version if isinstance(version, int) and version in holders else seen]
        if seat not in histories:
            histories[seat] = hidden_history(row, entries, seat)
        history, seeds = histories[seat]
        found = frame_leaks(frame, history, seeds=seeds, raw=raw, secrets=kept)
        problems += [f"(seat {seat}) {p}" for p in found]
    return problems


def _holders(
    row: TableRow, entries: Iterable[LogEntry], token_hash: str | None
) -> dict[int, int | None]:
    """The seat ``token_hash`` held after each version (0: before any entry)."""
    table = Table(row)
    holders: dict[int, int | None] = {0: None}
    for entry in entries:
        table.apply(entry)
        holders[entry.version] = table.seat_of(token_hash)
    return holders


def frame_leaks(
    frame: Mapping[str, Any],
    history: Mapping[int, Hidden],
    *,
    seeds: Iterable[str] = (),
    raw: str = "",
    secrets: Iterable[str] = (),
) -> list[str]:
    """Return a description of every hidden card (or seed, or secret) the frame
    exposes; [] if none.

    ``raw`` is the frame's text as received, searched for every seed in ``seeds`` and
    every secret in ``secrets`` (an account's e-mail address, a token: #26).
    """
    problems = [f"{frame.get('type')} frame contains a seed" for seed in seeds if seed in raw]
    problems += [f"{frame.get('type')} frame contains a secret" for s in secrets if s in raw]
    kind = frame.get("type")
    version = frame.get("version")
    latest = max(history)
    now = history.get(version, history[latest]) if isinstance(version, int) else history[latest]
    if kind == "update":
        entry = {k: frame.get(k) for k in ("action", "events")}
        _check(problems, entry, history[frame["version"]].during, f"update {version} events")
        rest = {k: v for k, v in frame.items() if k not in ("action", "events")}
        _check(problems, rest, now.after, f"update {version} view")
    elif kind == "sync":
        for item in frame.get("entries", []):
            if item.get("game", 0) <= now.finished:
                continue  # sent once its game was over: nothing in it is hidden (R36)
            _check(problems, item, history[item["version"]].during, f"sync entry {item['version']}")
        rest = {k: v for k, v in frame.items() if k != "entries"}
        _check(problems, rest, now.after, f"sync {version} view")
    else:
        _check(problems, frame, now.after, f"{kind} frame")
    problems.extend(
        f"{kind} frame has a {key!r} field"
        for key in ("seed", "draw", "token_hash", "email", "sealed")
        if _has_key(frame, key)
    )
    return problems


def _check(problems: list[str], data: object, hidden: frozenset[int], where: str) -> None:
    leaked = card_ids(data) & hidden
    if leaked:
        problems.append(f"{where} exposes hidden cards {sorted(leaked)}")


def _has_key(data: object, key: str) -> bool:
    if isinstance(data, Mapping):
        return key in data or any(_has_key(value, key) for value in data.values())
    if isinstance(data, list):
        return any(_has_key(item, key) for item in data)
    return False
