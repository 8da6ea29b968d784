"""Test clients for the server: WebSocket players that record every frame they receive."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import anyio
from starlette.testclient import TestClient, WebSocketTestSession

from sequence_stacks.server import ServerSettings
from sequence_stacks.server.play import hash_token
from sequence_stacks.server.play.audit import connection_leaks
from sequence_stacks.server.store import Storage

Frame = dict[str, Any]

FAST = ServerSettings(
    database="memory",
    bot_delay=(0.0, 0.0),
    bot_block_delay=(0.0, 0.0),
    turn_timeout=600.0,
    block_timeout=0.25,  # a Block window lasts its whole time (0.4 s at the default relaxed pace)
    grace_period=600.0,
)
# A rate-limited command is sent again after this pause, at most this many times.
_RESEND_PAUSE_S = 0.25
_RESENDS = 20
SHORT_GAME = {"player_count": 3, "chips_to_win": 2, "min_each_colour": 1}


class ClosedError(Exception):
    """The server closed the socket."""

    def __init__(self, code: int) -> None:
        super().__init__(f"closed with code {code}")
        self.code = code


async def _receive(session: WebSocketTestSession, timeout: float) -> dict[str, Any] | None:
    # Not ``move_on_after(timeout)`` around ``receive()``: a deadline that fires in
    # the same loop iteration as the item is handed over cancels the receiver after
    # the item left the stream, and the frame is lost (seen once in CI as a missing
    # ack). Polling ``receive_nowait`` never takes an item it does not return.
    stream = session._send_rx
    deadline = anyio.current_time() + timeout
    while True:
        try:
            message: Any = stream.receive_nowait()
        except anyio.WouldBlock:
            if anyio.current_time() >= deadline:
                return None
            await anyio.sleep(0.002)
        else:
            return dict(message)


class Player:
    """One WebSocket connection to a table, seated (with a token) or watching."""

    def __init__(self, session: WebSocketTestSession, name: str = "") -> None:
        self.session = session
        self.name = name
        self.frames: list[Frame] = []
        self.raw: list[str] = []
        self.version = 0
        self.seat: int | None = None
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.actions: list[str] | None = None
        self.sent = 0
        self._commands: dict[str, dict[str, Any]] = {}
        self.closed: int | None = None
        self.plays = True
        self.token: str | None = None

    # --- sending ---------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        self.session.send_text(json.dumps(message))

    def hello(self, token: str | None = None, last_version: int | None = None) -> Frame:
        self.token = token
        # A script: the seat's actions in notation too (the browser reads fields).
        hello = {"type": "hello", "token": token, "last_version": last_version, "notation": True}
        self.send(hello)
        return self.wait_for(lambda f: f["type"] == "sync")

    def command(self, kind: str, *, version: int | None = None, **fields: Any) -> str:
        self.sent += 1
        client_id = f"{self.name or 'p'}-{self.sent}"
        used = self.version if version is None else version
        self._commands[client_id] = {"type": kind, "id": client_id, "version": used, **fields}
        self.send(self._commands[client_id])
        return client_id

    def act(self, action: str | int, *, version: int | None = None) -> str:
        key = "action" if isinstance(action, str) else "action_id"
        return self.command("act", version=version, **{key: action})

    def reply(self, client_id: str) -> Frame:
        """Wait for the ack or refusal of one command.

        A player acting at machine speed over a whole game or two can outrun the
        per-connection rate limit; a command turned away for that (``rate_limited``:
        never processed) is sent again after a pause, as a well-behaved client does.
        Tests of the limit itself send raw frames and read the answers."""
        for _ in range(_RESENDS):
            frame = self.wait_for(
                lambda f: (
                    (f["type"] in ("ack", "refused") and f.get("id") == client_id)
                    or f.get("code") == "rate_limited"
                )
            )
            if frame.get("code") != "rate_limited":
                return frame
            time.sleep(_RESEND_PAUSE_S)
            self.send(self._commands[client_id])
        raise AssertionError(f"{self.name}: {client_id} was rate limited {_RESENDS} times")

    # --- receiving -------------------------------------------------------------------

    def poll(self, timeout: float) -> Frame | None:
        if self.closed is not None:
            raise ClosedError(self.closed)
        message = self.session.portal.call(_receive, self.session, timeout)
        if message is None:
            return None
        if message["type"] == "websocket.close":
            self.closed = int(message.get("code", 1000))
            raise ClosedError(self.closed)
        text = message["text"]
        frame: Frame = json.loads(text)
        self.raw.append(text)
        self.frames.append(frame)
        self._track(frame)
        return frame

    def _track(self, frame: Frame) -> None:
        kind = frame["type"]
        if kind == "sync":
            self.seat = frame["you"]
            self.version = frame["version"]
            self.view = frame["view"]
            self.table = frame["table"]
            self.actions = frame["actions"]
        elif kind == "update":
            assert frame["version"] == self.version + 1, (
                f"{self.name}: version gap {self.version} -> {frame['version']}"
            )
            whole(frame, self.view, self.table)
            self.version = frame["version"]
            self.view = frame["view"]
            self.table = frame["table"]
            if frame.get("actions") is not None:
                self.actions = frame["actions"]

    def wait_for(self, predicate: Callable[[Frame], bool], timeout: float = 15.0) -> Frame:
        deadline = anyio_time() + timeout
        while anyio_time() < deadline:
            frame = self.poll(0.2)
            if frame is not None and predicate(frame):
                return frame
        last = [(f["type"], f.get("id"), f.get("code")) for f in self.frames[-5:]]
        raise AssertionError(f"{self.name}: no matching frame within {timeout}s; last: {last}")

    def drain(self, timeout: float = 0.01) -> list[Frame]:
        got = []
        while (frame := self.poll(timeout)) is not None:
            got.append(frame)
        return got

    # --- deciding --------------------------------------------------------------------

    def legal(self) -> list[str]:
        view = self.view
        if view is None or self.actions is None:
            return []
        return [self.actions[i] for i in view["legal_action_ids"]]

    def choose(self) -> str | None:
        """A simple policy: play a card if possible, else discard (or end); pass windows.

        A player with ``plays=False`` only discards, leaving the sequences to the bots.
        """
        legal = self.legal()
        if not legal:
            return None
        if "pass" in legal:
            return "pass"
        ends = [a for a in legal if a.startswith("discard") or a == "end"]
        plays = [a for a in legal if a not in ends and self.plays]
        return plays[0] if plays else ends[-1]

    def over(self) -> bool:
        return bool(self.view and self.view["result"])


def whole(frame: Frame, view: Frame | None, table: Frame | None) -> None:
    """Make an update whole as a client does (docs/protocol.md, "Only what changed"):
    its view from the last one and ``view_changes``, its table the last one's if absent."""
    if "view_changes" in frame:
        assert view is not None, "view changes with no view to lay them over"
        frame["view"] = {**view, **frame["view_changes"]}
    frame.setdefault("table", table)


def anyio_time() -> float:
    return time.monotonic()


@contextlib.contextmanager
def connect(client: TestClient, table_id: str, name: str = "") -> Iterator[Player]:
    with client.websocket_connect(f"/ws/{table_id}") as session:
        yield Player(session, name)


def create_table(client: TestClient, options: dict[str, Any] | None = None, **extra: Any) -> str:
    response = client.post("/api/tables", json={"options": options or SHORT_GAME, **extra})
    assert response.status_code == 201, response.text
    table_id: str = response.json()["id"]
    return table_id


def sit(client: TestClient, table_id: str, name: str, seat: int | None = None) -> tuple[int, str]:
    response = client.post(f"/api/tables/{table_id}/seats", json={"name": name, "seat": seat})
    assert response.status_code == 201, response.text
    data = response.json()
    return int(data["seat"]), str(data["token"])


def play_until_over(players: list[Player], limit: int = 3000) -> None:
    """Let seated players answer with :meth:`Player.choose` until the game ends."""
    for _ in range(limit):
        if all(player.over() for player in players):
            return
        for player in players:
            player.drain()
            action = player.choose()
            if action is not None and not player.over():
                reply = player.reply(player.act(action))
                assert reply["type"] == "ack" or reply["code"] == "stale", reply
    raise AssertionError("the game did not end")


def assert_no_leaks(storage: Storage, table_id: str, players: list[Player]) -> int:
    """Check every frame each player received against the server-side state (R36):
    each frame against what the seat its token held when the frame was sent may see."""
    row = storage.table(table_id)
    assert row is not None
    entries = storage.entries(table_id)
    assert any(entry.payload["op"] == "start" for entry in entries)  # seeds to look for
    checked = 0
    for player in players:
        holder = hash_token(player.token) if player.token else None
        frames = list(zip(player.frames, player.raw, strict=True))
        problems = connection_leaks(row, entries, holder, frames)
        assert problems == [], f"{player.name}: {problems}"
        checked += len(frames)
    return checked
