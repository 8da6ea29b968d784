"""Notices away from the table (#26), through the whole server on a fake clock of days:
e-mail through a real SMTP server (aiosmtpd) and Web Push to a push endpoint on this
machine that decrypts what the server sent.

Ann stays at a turn-based table; Bob (Slovenian) signs up, checks his e-mail address
through the link he is sent, and never opens the table: his turns time out after their
24 hours. He is sent one e-mail per turn in his language, Ann (watching) none; the
unsubscribe link in an e-mail stops those e-mails without signing in; a guessed one
changes nothing.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import email
import email.policy
import json
import re
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.testclient import TestClient

from sequence_stacks.server import MemoryStorage, SqliteStorage, create_app
from sequence_stacks.server.notify import say, table_words
from support.server_process import free_port

from .accounts import another_browser, sign_up
from .harness import FAST, Player, connect
from .softkey import SoftKey
from .turnbased import HOUR, Clock

pytestmark = pytest.mark.timeout(120)


class Mailbox:
    """An SMTP server's handler: every message it accepts."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


def _wait(condition: Any, what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"not within {timeout} s: {what}")


def _text(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


@dataclasses.dataclass
class Game:
    client: TestClient
    clock: Clock
    table_id: str
    ann: Player
    bob_turns: set[int]

    def later(self, hours: float) -> None:
        """The fake clock moves on; every table's runner looks again."""
        self.clock.now += hours * HOUR
        service = self.client.app.state.service  # type: ignore[attr-defined]
        self.client.portal.call(service.clock_moved)  # type: ignore[union-attr]

    def until(self, done: Any, limit: int = 400) -> None:
        """Ann plays her turns at once; otherwise the clock moves an hour at a time."""
        for _ in range(limit):
            if done():
                return
            self.ann.drain(0.05)
            view = self.ann.view
            assert view is not None
            assert view["result"] is None, "the game ended first"
            if view["current"] == 1 and view["phase"] == "playing":
                self.bob_turns.add(view["turn_count"])
            action = self.ann.choose()
            # Ann gives no answer in a Block window (it counts as a pass at its end).
            if action is not None and 0 in view["deciders"] and view["phase"] == "playing":
                self.ann.reply(self.ann.act(action))
            else:
                self.later(1)
        raise AssertionError("not reached")


@contextlib.contextmanager
def _game(settings: Any) -> Iterator[tuple[Game, dict[str, Any], SoftKey]]:
    clock = Clock()
    app = create_app(settings, storage=MemoryStorage(), clock=clock)
    with TestClient(app) as client:
        sign_up(client, SoftKey(), "Ann")
        # A long game (eight chips to win, Ann only discards): the deal is random, and
        # a short one could end before Bob's turns the tests count (it did, now and then).
        created = client.post(
            "/api/tables",
            json={"options": {"player_count": 3, "chips_to_win": 8}, "turn_hours": 24},
        )
        table_id = created.json()["id"]
        ann_token = client.post(f"/api/tables/{table_id}/seats", json={"name": "x"}).json()["token"]
        bob = another_browser(client)
        bob_key = SoftKey()
        bob_account = sign_up(bob, bob_key, "Bob", language="sl")
        assert bob.post(f"/api/tables/{table_id}/seats", json={"name": "x"}).status_code == 201
        with connect(client, table_id, "Ann") as ann:
            ann.plays = False
            ann.hello(ann_token)
            ann.reply(ann.command("start"))
            yield Game(client, clock, table_id, ann, set()), bob_account | {"client": bob}, bob_key


def test_email_in_the_players_language_once_a_turn_and_unsubscribe(
    mailbox: tuple[Mailbox, int],
) -> None:
    box, port = mailbox
    settings = dataclasses.replace(
        FAST,
        smtp_url=f"smtp://127.0.0.1:{port}",
        mail_from="games@example.org",
        public_url="http://testserver",
    )
    with _game(settings) as (game, bob, _):
        client: TestClient = bob["client"]
        # Each checks an address through the link they are sent (Bob's in Slovenian).
        _check_address(box, client, "bob@example.org", "sl")
        _check_address(box, game.client, "ann@example.org", "en")
        box.messages.clear()
        # Three of Bob's turns time out, a day each: one e-mail for each, none to Ann.
        game.until(lambda: len(game.bob_turns) >= 3)
        game.later(25)
        named = table_words("sl", {"name": _name(client, game.table_id)})
        subject = say("sl", "notice.turn", table=named)
        _wait(lambda: len(_turn_mails(box, subject)) >= 2, "the turn e-mails")
        turns = _turn_mails(box, subject)
        assert len(turns) in (len(game.bob_turns) - 1, len(game.bob_turns))
        assert box.to("ann@example.org") == []  # Ann watches the game: never told
        mail = turns[0]
        assert mail["Content-Language"] == "sl"
        assert mail["From"].addresses[0].addr_spec == "games@example.org"
        text = _text(mail)
        assert f"http://testserver/t/{game.table_id}" in text
        # The unsubscribe link stops these e-mails, without signing in.
        stop = re.search(r"(http://testserver/unsubscribe/\S+)", text)
        assert stop is not None
        assert str(mail["List-Unsubscribe"]).strip() == f"<{stop.group(1)}>"
        link = stop.group(1).removeprefix("http://testserver")
        guessed = another_browser(client).post(link.replace("/unsubscribe/", "/unsubscribe/x"))
        assert guessed.status_code == 410
        assert client.get("/api/me").json()["account"]["prefs"]["turn"]["email"] is True
        stranger = another_browser(client)  # no cookie: a mail program's one-click post
        assert stranger.post(link).status_code == 200
        assert client.get("/api/me").json()["account"]["prefs"]["turn"] == {
            "push": True,
            "email": False,
        }
        before = len(_turn_mails(box, subject))
        seen = len(game.bob_turns)
        game.until(lambda: len(game.bob_turns) > seen + 1)
        game.later(25)
        time.sleep(0.5)
        assert len(_turn_mails(box, subject)) == before


def _check_address(box: Mailbox, client: TestClient, address: str, language: str) -> None:
    assert client.put("/api/me/email", json={"email": address}).json()["sent"]
    _wait(lambda: box.to(address), "the address check")
    check = box.to(address)[0]
    assert check["Subject"] == say(language, "mail.verify_subject")
    code = re.search(r"/verify#(\S+)", _text(check))
    assert code is not None
    assert client.post("/api/email/verify", json={"code": code.group(1)}).status_code == 200
    assert client.get("/api/me").json()["account"]["email_verified"]


def _turn_mails(box: Mailbox, subject: str) -> list[EmailMessage]:
    return [m for m in box.messages if m["Subject"] == subject]


def _name(client: TestClient, table_id: str) -> dict[str, Any]:
    options: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()["options"]["name"]
    return options


class PushEndpoint:
    """A push service on this machine: it keeps every request it is sent."""

    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, str], bytes]] = []
        received = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                headers = {name.lower(): value for name, value in self.headers.items()}
                received.append((headers, self.rfile.read(length)))
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/bob"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushEndpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def test_web_push_reaches_the_endpoint_encrypted_for_the_browser(tmp_path: Path) -> None:
    key_file = tmp_path / "vapid.pem"
    settings = dataclasses.replace(FAST, vapid_key=str(key_file), public_url="http://testserver")
    browser = ec.generate_private_key(ec.SECP256R1())  # the subscribing browser's key
    auth = b"0123456789abcdef"
    public = browser.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    with PushEndpoint() as endpoint, _game(settings) as (game, bob, _):
        client: TestClient = bob["client"]
        server_key = client.get("/api/push/key").json()["key"]
        assert key_file.exists()
        assert (key_file.stat().st_mode & 0o077) == 0
        subscription = {
            "endpoint": endpoint.url,
            "keys": {"p256dh": _b64(public), "auth": _b64(auth)},
        }
        assert client.post("/api/me/push", json=subscription).status_code == 201
        refused = client.post(
            "/api/me/push", json=subscription | {"endpoint": "http://evil.example/x"}
        )
        assert refused.status_code == 400
        game.until(lambda: bool(endpoint.requests))
        _wait(lambda: endpoint.requests, "the push request")
        headers, body = endpoint.requests[0]
        assert headers["content-encoding"] == "aes128gcm"
        assert int(headers["ttl"]) > 0
        authorization = headers["authorization"]
        assert authorization.startswith("vapid t=")
        assert f"k={server_key}" in authorization
        payload = json.loads(
            http_ece.decrypt(body, private_key=browser, auth_secret=auth, version="aes128gcm")
        )
        named = table_words("sl", {"name": _name(client, game.table_id)})
        assert payload == {
            "title": say("sl", "page.brand"),
            "body": say("sl", "notice.turn", table=named),
            "url": f"http://testserver/t/{game.table_id}",
            "tag": f"turn:{game.table_id}",
            "kind": "turn",
        }


def test_with_no_vapid_file_the_key_is_kept_in_the_database(tmp_path: Path) -> None:
    """Push works with no configuration: a key made once, the same for every worker
    (here two servers, one after the other, on one database file), a P-256 public key."""
    keys = []
    for _ in range(2):
        storage = SqliteStorage(str(tmp_path / "keys.sqlite3"))
        with TestClient(create_app(FAST, storage=storage)) as client:
            keys.append(client.get("/api/push/key").json()["key"])
        storage.close()
    assert keys[0] is not None
    assert keys[0] == keys[1]
    raw = base64.urlsafe_b64decode(keys[0] + "=" * (-len(keys[0]) % 4))
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)  # a valid point
    # Another database: another key.
    with TestClient(create_app(FAST, storage=MemoryStorage())) as client:
        assert client.get("/api/push/key").json()["key"] not in (None, keys[0])
