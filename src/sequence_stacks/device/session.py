"""The page's engine as one call: a JSON request in, a JSON answer out (#25).

The Web Worker of ``/local`` runs this module in Pyodide and hands it every request
the page makes; tests run it in CPython the same way. A request is ``{"op": ..., ...}``;
the answer is the op's data, or ``{"refused": ...}`` for an action the engine refuses
(shaped as the server's ``refused`` frame: code, rule, reason and the message as data),
or ``{"error": {"code", "reason"}}`` for a request that cannot be done (``bad_save``: a
saved game that cannot be loaded; ``bad_request``: anything else).

Ops: ``new`` {players, seed}, ``load`` {save}, ``view``, ``act`` {seat, action_id},
``bot`` {seat}, ``hint`` {seat}, ``record``. A view is ``viewer``'s (a seat, or None:
what everyone at the table may see); an entry's events are told as ``log_viewer`` may
hear of them (default: the viewer). A changing op answers the entry it made, the view
after it, the version, the save and, once the game is over, the standings.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from sequence_stacks.engine import EngineError, IllegalActionError, Settings

from .game import DeviceGame, Player, SaveError

__all__ = ["Session"]

_SEED_LIMIT: Final = 2**53  # a seed the page's JavaScript numbers hold exactly


class _BadRequestError(ValueError):
    """A request that is not one this module answers."""


class Session:
    """One page's game at a time; :meth:`handle` answers a request."""

    def __init__(self) -> None:
        self.game: DeviceGame | None = None
        self._ops: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
            "new": self._new,
            "load": self._load,
            "view": self._view,
            "act": self._act,
            "bot": self._bot,
            "hint": self._hint,
            "record": self._record,
        }

    def handle(self, request: str) -> str:
        """The answer to one JSON request, as JSON."""
        return json.dumps(self.answer(request), ensure_ascii=False, separators=(",", ":"))

    def answer(self, request: str) -> dict[str, Any]:
        """The answer to one JSON request, as data."""
        try:
            data = json.loads(request)
            if not isinstance(data, dict) or data.get("op") not in self._ops:
                raise _BadRequestError(f"a request is {{op: one of {', '.join(self._ops)}}}")
            return self._ops[data["op"]](data)
        except IllegalActionError as error:
            detail = {"key": f"illegal.{error.code.value}", "args": dict(error.params)}
            return {
                "refused": {
                    "code": "illegal",
                    "rule": error.rule_id,
                    "reason": error.reason,
                    "detail": detail,
                }
            }
        except SaveError as error:
            return {"error": {"code": "bad_save", "reason": str(error)}}
        except (ValueError, KeyError, TypeError, EngineError) as error:
            return {"error": {"code": "bad_request", "reason": str(error)}}

    # --- the ops ------------------------------------------------------------------------

    def _new(self, data: Mapping[str, Any]) -> dict[str, Any]:
        raw = data["players"]
        seed = data["seed"]
        if not isinstance(raw, list) or not isinstance(seed, int) or not 0 <= seed < _SEED_LIMIT:
            raise _BadRequestError("'players' is a list and 'seed' a whole number below 2**53")
        players = [Player.from_dict(player) for player in raw]
        if not 2 <= len(players) <= 6:
            raise SaveError(f"2 to 6 players play (R5), not {len(players)}")
        self.game = DeviceGame(Settings(player_count=len(players)), seed, players)
        entry = self.game.start_entry(self._listener(data))
        return {**self._whole(self._viewer(data)), "entry": entry}

    def _load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        self.game = DeviceGame.load(data["save"])
        return self._whole(self._viewer(data))

    def _view(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"view": self._game().view(self._viewer(data))}

    def _act(self, data: Mapping[str, Any]) -> dict[str, Any]:
        game = self._game()
        viewer = self._viewer(data)
        seat, action_id = _seat(data, "seat"), _whole_number(data, "action_id")
        entry = game.act(seat, action_id, self._listener(data))
        return self._changed(entry, viewer)

    def _bot(self, data: Mapping[str, Any]) -> dict[str, Any]:
        game = self._game()
        viewer = self._viewer(data)
        started = time.perf_counter()
        entry = game.bot_move(_seat(data, "seat"), self._listener(data))
        think_ms = (time.perf_counter() - started) * 1000
        return {**self._changed(entry, viewer), "think_ms": think_ms}

    def _hint(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"action_id": self._game().hint(_seat(data, "seat"))}

    def _record(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"record": self._game().game_record()}

    # --- helpers ------------------------------------------------------------------------

    def _game(self) -> DeviceGame:
        if self.game is None:
            raise _BadRequestError("no game: start one with 'new' or 'load'")
        return self.game

    def _viewer(self, data: Mapping[str, Any]) -> int | None:
        viewer = data.get("viewer")
        return None if viewer is None else _seat(data, "viewer")

    def _listener(self, data: Mapping[str, Any]) -> int | None:
        """Whose hearing an entry's events are told for: ``log_viewer``, else the viewer."""
        if "log_viewer" not in data:
            return self._viewer(data)
        return None if data["log_viewer"] is None else _seat(data, "log_viewer")

    def _whole(self, viewer: int | None) -> dict[str, Any]:
        """Everything the page draws a game from: its fixed facts and its state now."""
        return {"table": self._game().table(), **self._now(viewer)}

    def _changed(self, entry: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """What a change made: its entry and the game's state after it."""
        return {"entry": entry, **self._now(viewer)}

    def _now(self, viewer: int | None) -> dict[str, Any]:
        """The game now: the view, the version, the save and (once over) the standings."""
        game = self._game()
        return {
            "view": game.view(viewer),
            "version": game.version,
            "save": game.save(),
            "standings": game.standings(),
        }


def _whole_number(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _BadRequestError(f"'{name}' is a whole number")
    return value


def _seat(data: Mapping[str, Any], name: str) -> int:
    seat = _whole_number(data, name)
    if not 0 <= seat <= 5:
        raise _BadRequestError(f"'{name}' is a seat number")
    return seat
