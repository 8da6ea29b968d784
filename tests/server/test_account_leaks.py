"""No e-mail address (or token, or session) of an account reaches another player (#26):
two accounts with checked addresses play a game to its end; every frame each receives
is audited for the other's address, seat token and session cookie as well as hidden
cards (the leak audit, play/audit.py), and so is every page the other can read: the
public profile, the leaderboard, the table's facts and its list."""

from __future__ import annotations

from starlette.testclient import TestClient

from sequence_stacks.server import MemoryStorage, create_app
from sequence_stacks.server.play import hash_token
from sequence_stacks.server.play.audit import Hidden, connection_leaks, frame_leaks

from .accounts import another_browser, sign_up
from .harness import FAST, SHORT_GAME, connect, play_until_over
from .softkey import SoftKey


def _address(app: object, account_id: str, email: str) -> None:
    store = app.state.rooms.accounts.store  # type: ignore[attr-defined]
    store.set_email(account_id, email, verified=True)


def test_no_address_token_or_session_reaches_another_player() -> None:
    storage = MemoryStorage()
    app = create_app(FAST, storage=storage)
    with TestClient(app) as ann_browser:
        bob_browser = another_browser(ann_browser)
        ann = sign_up(ann_browser, SoftKey(), "Ann")
        bob = sign_up(bob_browser, SoftKey(), "Bob")
        _address(app, ann["id"], "ann.secret@example.org")
        _address(app, bob["id"], "bob.secret@example.org")
        table_id = ann_browser.post(
            "/api/tables", json={"options": {**SHORT_GAME, "player_count": 2}}
        ).json()["id"]
        tokens = {}
        for who, browser in (("ann", ann_browser), ("bob", bob_browser)):
            tokens[who] = browser.post(f"/api/tables/{table_id}/seats", json={"name": "x"}).json()[
                "token"
            ]
        cookies = {
            "ann": ann_browser.cookies.get("session"),
            "bob": bob_browser.cookies.get("session"),
        }
        with (
            connect(ann_browser, table_id, "Ann") as one,
            connect(bob_browser, table_id, "Bob") as two,
        ):
            one.hello(tokens["ann"])
            two.hello(tokens["bob"])
            one.reply(one.command("start"))
            play_until_over([one, two])
            ann_browser.portal.call(app.state.rooms.recorder.drain)  # type: ignore[union-attr]
            row = storage.table(table_id)
            assert row is not None
            entries = storage.entries(table_id)
            for player, me, them in ((one, "ann", "bob"), (two, "bob", "ann")):
                secrets = [f"{them}.secret@example.org", tokens[them], str(cookies[them])]
                frames = list(zip(player.frames, player.raw, strict=True))
                problems = connection_leaks(
                    row, entries, hash_token(tokens[me]), frames, secrets=secrets
                )
                assert problems == [], problems
                assert f"{me}.secret@example.org" not in "".join(player.raw)  # not even their own
        for browser, other in ((ann_browser, bob), (bob_browser, ann)):
            pages = [
                browser.get(f"/api/players/{other['id']}").text,
                browser.get("/api/leaderboard?group=2").text,
                browser.get(f"/api/tables/{table_id}").text,
                browser.get("/api/tables").text,
                browser.get(f"/api/tables/{table_id}/games/1").text,
            ]
            for page in pages:
                assert "secret@example.org" not in page
        # Its own page is the one place an address is shown.
        assert ann_browser.get("/api/me").json()["account"]["email"] == "ann.secret@example.org"


def test_the_audit_finds_an_address_in_a_frame() -> None:
    """The audit above could fail: a frame carrying an address, or an ``email`` field,
    is reported."""
    history = {0: Hidden(frozenset(), frozenset())}
    raw = '{"type": "chat", "phrase": "bob.secret@example.org"}'
    found = frame_leaks({"type": "chat"}, history, raw=raw, secrets=["bob.secret@example.org"])
    assert found == ["chat frame contains a secret"]
    assert frame_leaks({"type": "sync", "table": {"email": None}}, history) == [
        "sync frame has a 'email' field"
    ]
