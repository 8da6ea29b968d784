"""Seats played from Python over the table WebSocket, for browser tests that need a
position the UI alone reaches only by luck (a Block window where the asked seat holds
a Block, #14). A browser page can then take such a seat with its token."""

from __future__ import annotations

import contextlib
import functools
import json
import random
import time
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

from websockets.sync.client import ClientConnection, connect

from sequence_stacks.engine import CARD_KIND, Kind, parse_action
from sequence_stacks.engine.catalog import action_fields

from .conftest import ServerProcess


def post(server: ServerProcess, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


class SeatSocket:
    """One seat's own connection: the frames it gets and the commands it sends."""

    def __init__(self, ws: ClientConnection, seat: int, token: str) -> None:
        self.seat = seat
        self.token = token
        self.ws = ws
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] = {}
        self.actions: list[str] = []
        self.timer: dict[str, Any] | None = None
        self.timer_at = 0.0
        self.answers: dict[str, dict[str, Any]] = {}
        self.count = 0
        self.sent = time.monotonic()
        self._send({"type": "hello", "token": token, "last_version": None, "notation": True})
        self.wait(lambda: self.version >= 0)
        assert self.table["seats"][seat]["kind"] == "human", self.table["seats"][seat]

    def _send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))
        self.sent = time.monotonic()

    def _receive(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind in ("sync", "update"):
            if kind == "update" and frame["version"] != self.version + 1:
                self._send({"type": "sync", "last_version": self.version})
                return
            if "view_changes" in frame:  # only what changed (docs/protocol.md)
                frame["view"] = {**(self.view or {}), **frame["view_changes"]}
            frame.setdefault("table", self.table)
            self.version = frame["version"]
            self.view = frame["view"]
            self.table = frame["table"]
            self.timer = frame.get("timer")
            self.timer_at = time.monotonic()
            if frame.get("actions"):
                self.actions = frame["actions"]
        elif kind in ("ack", "refused", "error") and frame.get("id"):
            self.answers[frame["id"]] = frame

    def wait(self, done: Callable[[], bool], timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"seat {self.seat} waited in vain"
            if time.monotonic() - self.sent > 10:
                self._send({"type": "ping", "t": 0})
            with contextlib.suppress(TimeoutError):
                self._receive(json.loads(self.ws.recv(timeout=0.05)))

    def command(self, kind: str, **fields: Any) -> int:
        """Send a command, wait for its ack and the update it made; its version."""
        self.count += 1
        ident = f"py{self.seat}-{self.count}"
        self._send({"type": kind, "id": ident, "version": self.version, **fields})
        self.wait(lambda: ident in self.answers)
        answer = self.answers.pop(ident)
        assert answer["type"] == "ack", answer
        version: int = answer["version"]
        self.wait(functools.partial(reached, self, version))
        return version

    def answer(self, action: str) -> str:
        """Answer a Block window without waiting: the server holds every answer until
        the window's time is up (docs/rules-notes.md N19) and acknowledges it then."""
        self.count += 1
        ident = f"py{self.seat}-{self.count}"
        self._send({"type": "act", "id": ident, "version": self.version, "action": action})
        return ident

    def seconds_left(self) -> float:
        """What is left of the countdown the last frame carried (0 with none)."""
        if self.timer is None:
            return 0.0
        return float(self.timer["remaining_ms"]) / 1000 - (time.monotonic() - self.timer_at)

    def legal(self) -> list[str]:
        assert self.view is not None
        return [self.actions[i] for i in self.view["legal_action_ids"]]


def reached(seat: SeatSocket, version: int) -> bool:
    return seat.version >= version


def pass_window(seats: Sequence[SeatSocket]) -> None:
    """Every seat the open Block window asks passes; wait for the window to close
    (its whole time: the answers are held till then, docs/rules-notes.md N19)."""
    first = seats[0]
    assert first.view is not None
    view = first.view
    for seat in view["window_pending"]:
        seats[seat].answer("pass")
    opened = _window_of(view)
    first.wait(lambda: first.view is None or _window_of(first.view) != opened)


def _window_of(view: dict[str, Any]) -> tuple[int, int, int] | None:
    if view["phase"] != "block_window":
        return None
    return (view["turn_count"], view["turn_actions"], view["window_pile"])


def completes(view: dict[str, Any], action: str) -> bool:
    """Whether ``action`` (notation) lays the fifth card of a pile (R17): the play that
    opens a Block window (R29). The engine reads the notation and names the pile's slot
    (a new pile has none: it is one card long)."""
    fields = action_fields(parse_action(action), view["settings"]["piles_per_colour"])
    slot = fields["slot"]
    return fields["type"] == "play" and slot is not None and len(view["piles"][slot]) == 4


def holds_block(seat: SeatSocket) -> bool:
    """Whether the seat has a Block card in its hand (its own view shows it)."""
    assert seat.view is not None
    return any(CARD_KIND[card] == Kind.BLOCK for card in seat.view["hand"])


def _choose(legal: list[str], rng: random.Random) -> str:
    """A play if there is one, else the end of the turn by a discard that keeps Blocks."""
    plays = [a for a in legal if a not in ("pass", "block", "end") and not a.startswith("disc")]
    if plays:
        return rng.choice(plays)
    if "end" in legal:
        return "end"
    discards = [a for a in legal if a.startswith("discard ")]
    kept = [a for a in discards if a != "discard BLOCK"]
    return rng.choice(kept or discards)


class PythonTable:
    """A table whose every seat Python plays, at machine speed."""

    def __init__(
        self,
        server: ServerProcess,
        options: dict[str, Any],
        names: list[str],
        *,
        pace: str = "fast",
    ) -> None:
        # Fast by default: every Block window lasts its whole time (N19), and Python
        # plays through many; a page that must answer one takes a relaxed table.
        body = {"options": options, "visibility": "unlisted", "pace": pace}
        created = post(server, "/api/tables", body)
        self.table_id: str = created["id"]
        self.tokens: list[str] = []
        for seat, name in enumerate(names):
            taken = post(server, f"/api/tables/{self.table_id}/seats", {"name": name, "seat": seat})
            assert taken["seat"] == seat, taken
            self.tokens.append(taken["token"])
        self.stack = contextlib.ExitStack()
        url = f"ws://127.0.0.1:{server.port}/ws/{self.table_id}"
        self.seats = [
            SeatSocket(self.stack.enter_context(connect(url)), seat, token)
            for seat, token in enumerate(self.tokens)
        ]
        self.rng = random.Random(14)

    def close(self) -> None:
        self.stack.close()

    def pass_window(self) -> None:
        """Every seat the open Block window asks passes; wait for it to close."""
        pass_window(self.seats)
        self.settle()

    def move(self, wanted: Callable[[list[bool]], bool]) -> None:
        """The seat whose turn it is makes one move as ``_choose`` would, but lays the
        fifth card of a pile only if the window it opens is ``wanted`` (told, for every
        other seat, the one it asks, whether it holds a Block), and then as soon as it
        can: a window waits its whole time (N19), so one not wanted is time lost."""
        first = self.seats[0]
        assert first.view is not None
        seat = self.seats[first.view["current"]]
        assert seat.view is not None
        legal = seat.legal()
        ending = [a for a in legal if completes(seat.view, a)]
        if ending and wanted([holds_block(s) for s in self.seats if s is not seat]):
            seat.command("act", action=self.rng.choice(ending))
            return
        others = [a for a in legal if a not in ending]
        seat.command("act", action=_choose(others or legal, self.rng))

    def settle(self) -> None:
        newest = max(seat.version for seat in self.seats)
        for seat in self.seats:
            seat.wait(functools.partial(reached, seat, newest))

    def play_until_a_block_is_held(self, max_steps: int = 3000, *, time_left: float = 0.0) -> int:
        """Play until a Block window asks a seat that holds a Block, with at least
        ``time_left`` seconds of it left; answer pass for every other asked seat and
        return that seat, its answer left to someone else. Blocks are never discarded;
        a finished game is followed by a rematch."""
        self.settle()
        if self.seats[0].table["status"] != "playing":
            self.seats[0].command("start")
        for _ in range(max_steps):
            self.settle()
            first = self.seats[0]
            assert first.view is not None
            view = first.view
            if first.table["status"] == "over":
                first.command("start")
                continue
            if view["phase"] == "block_window":
                pending = list(view["window_pending"])
                holders: list[int] = [s for s in pending if "block" in self.seats[s].legal()]
                if holders and first.seconds_left() >= time_left:
                    for other in pending:
                        if other != holders[0]:
                            self.seats[other].answer("pass")
                    return holders[0]
                self.pass_window()
                continue
            self.move(any)
        raise AssertionError("no Block window asked a seat holding a Block")
