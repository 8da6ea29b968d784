"""Accounts with passkeys through the API (#26), on every storage: sign up, sign in,
sessions rotated and revoked, a second device by code, and what is refused (forged and
replayed passkey answers, a bot's name, another site's request, a guessed code) with
nothing changed. A software passkey (softkey.py) signs as a browser's would."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import SqliteStorage, Storage, create_app

from .accounts import another_browser, sign_in, sign_up
from .harness import FAST
from .postgres import STORAGE_KINDS, storage_of
from .softkey import SoftKey, b64, unb64


@pytest.fixture(params=(*STORAGE_KINDS, "sqlite"))
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    """The in-memory store, a fresh PostgreSQL schema and a SQLite file."""
    if request.param == "sqlite":
        sqlite = SqliteStorage(str(tmp_path / "accounts.sqlite3"))
        yield sqlite
        sqlite.close()
        return
    with storage_of(request.param) as store:
        yield store


@pytest.fixture
def client(storage: Storage) -> Iterator[TestClient]:
    with TestClient(create_app(FAST, storage=storage)) as test_client:
        yield test_client


@contextlib.contextmanager
def _second(client: TestClient) -> Iterator[TestClient]:
    """Another browser on the same running server (its lifespan is the first's)."""
    yield another_browser(client)


def _me(client: TestClient) -> int:
    return client.get("/api/me").status_code


def test_sign_up_makes_an_account_signed_in_with_a_safe_cookie(client: TestClient) -> None:
    key = SoftKey()
    account = sign_up(client, key, "Ann", language="sl", avatar="moon")
    assert (account["name"], account["language"], account["avatar"]) == ("Ann", "sl", "moon")
    cookie = client.cookies.get("session")
    assert cookie
    header = client.post("/api/accounts/signin/options").headers  # any answer: no new cookie
    assert "set-cookie" not in header
    me = client.get("/api/me").json()
    assert me["account"]["id"] == account["id"]
    assert [key["label"] for key in me["passkeys"]] == ["?"]
    assert len(me["sessions"]) == 1
    assert me["sessions"][0]["this"]


def test_the_session_cookie_is_httponly_lax_and_secure_over_https(storage: Storage) -> None:
    secure = dataclasses.replace(FAST, public_url="https://games.example.org")
    with TestClient(
        create_app(secure, storage=storage), base_url="https://games.example.org"
    ) as client:
        key = SoftKey(origin="https://games.example.org")
        body = {"name": "Ann", "avatar": "star", "language": "en"}
        options = client.post("/api/accounts/signup/options", json=body).json()["options"]
        assert options["rp"]["id"] == "games.example.org"
        done = client.post("/api/accounts/signup", json={"credential": key.create(options)})
    cookie = done.headers["set-cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=lax" in cookie
    assert "secure" in cookie
    assert "path=/" in cookie


def test_sign_in_rotates_the_session(client: TestClient) -> None:
    key = SoftKey()
    sign_up(client, key, "Ann")
    first = client.cookies.get("session")
    sign_in(client, key)
    second = client.cookies.get("session")
    assert first
    assert second
    assert first != second
    assert _me(client) == 200
    # The cookie from before signing in again no longer works.
    client.cookies.clear()
    client.cookies.set("session", first)
    assert _me(client) == 401
    client.cookies.clear()
    client.cookies.set("session", second)
    assert len(client.get("/api/me").json()["sessions"]) == 1


def test_a_replayed_sign_in_is_refused_and_changes_nothing(client: TestClient) -> None:
    key = SoftKey()
    sign_up(client, key, "Ann")
    options = client.post("/api/accounts/signin/options").json()["options"]
    answer = key.get(options)
    assert client.post("/api/accounts/signin", json={"credential": answer}).status_code == 200
    signed = client.cookies.get("session")
    again = client.post("/api/accounts/signin", json={"credential": answer})
    assert again.status_code == 400
    assert again.json()["code"] == "passkey_refused"
    assert "set-cookie" not in again.headers
    assert client.cookies.get("session") == signed
    assert len(client.get("/api/me").json()["sessions"]) == 1


def test_a_forged_answer_is_refused(client: TestClient) -> None:
    key = SoftKey()
    sign_up(client, key, "Ann")
    client.cookies.clear()
    options = client.post("/api/accounts/signin/options").json()["options"]
    answer = key.get(options)
    signature = bytearray(unb64(answer["response"]["signature"]))
    signature[-3] ^= 0x55
    answer["response"]["signature"] = b64(bytes(signature))
    refused = client.post("/api/accounts/signin", json={"credential": answer})
    assert refused.status_code == 400
    assert refused.json()["code"] == "passkey_refused"
    assert "set-cookie" not in refused.headers
    assert _me(client) == 401


def test_an_answer_for_another_site_or_an_unknown_passkey_is_refused(client: TestClient) -> None:
    key = SoftKey()
    sign_up(client, key, "Ann")
    client.cookies.clear()
    options = client.post("/api/accounts/signin/options").json()["options"]
    phished = key.get(options, origin="https://evil.example")
    assert client.post("/api/accounts/signin", json={"credential": phished}).status_code == 400
    stranger = SoftKey()
    stranger.create({"rp": {"id": "testserver"}, "user": {"id": b64(b"nobody")}, "challenge": "x"})
    options = client.post("/api/accounts/signin/options").json()["options"]
    unknown = client.post("/api/accounts/signin", json={"credential": stranger.get(options)})
    assert unknown.status_code == 400
    assert _me(client) == 401
    # A sign-up answer to a challenge the server never gave.
    fake = key.create(
        {"rp": {"id": "testserver"}, "user": {"id": b64(b"x")}, "challenge": b64(b"made up")}
    )
    assert client.post("/api/accounts/signup", json={"credential": fake}).status_code == 400


@pytest.mark.parametrize("name", ["Greedy bot 2", "Ann (bot)", "ISMCTS", "Robot", "봇", "बॉट"])
def test_a_name_that_passes_for_a_bot_is_refused(client: TestClient, name: str) -> None:
    answer = client.post("/api/accounts/signup/options", json={"name": name})
    assert answer.status_code == 400
    assert answer.json()["detail"]["key"] == "account.name_like_bot"


def test_a_taken_name_is_refused_in_any_case(client: TestClient) -> None:
    sign_up(client, SoftKey(), "Ann")
    client.cookies.clear()
    answer = client.post("/api/accounts/signup/options", json={"name": "ANN"})
    assert answer.status_code == 409
    assert answer.json()["detail"]["key"] == "account.name_taken"


def test_a_second_device_by_code_then_revoked(client: TestClient, storage: Storage) -> None:
    phone, laptop = SoftKey(), SoftKey()
    sign_up(client, phone, "Ann")
    code = client.post("/api/me/devices/code").json()
    assert len(code["code"]) == 9
    assert code["url"].endswith(f"/link#{code['code']}")
    assert code["qr"].startswith("data:image/svg+xml")
    with _second(client) as other:
        typed = code["code"].lower().replace("-", " ")  # as a person might type it
        options = other.post("/api/accounts/link/options", json={"code": typed}).json()["options"]
        assert len(options["excludeCredentials"]) == 1
        done = other.post("/api/accounts/link", json={"credential": laptop.create(options)})
        assert done.status_code == 201
        assert _me(other) == 200
        me = client.get("/api/me").json()
        assert len(me["passkeys"]) == 2
        assert len(me["sessions"]) == 2
        # The code works once.
        again = other.post("/api/accounts/link/options", json={"code": code["code"]})
        assert again.status_code == 410
        assert again.json()["code"] == "code_invalid"
        # The first device signs the second out.
        theirs = next(row["id"] for row in me["sessions"] if not row["this"])
        assert client.delete(f"/api/me/sessions/{theirs}").status_code == 200
        assert _me(other) == 401
        # Its passkey still signs in (the device, not the passkey, was signed out) ...
        sign_in(other, laptop)
        # ... until the passkey is removed: then it is refused.
        me = client.get("/api/me").json()
        laptop_key = next(
            k["id"] for k in me["passkeys"] if k["id"] in {b64(c) for c in laptop.keys}
        )
        assert client.delete(f"/api/me/passkeys/{laptop_key}").status_code == 200
        assert _me(other) == 401
        options = other.post("/api/accounts/signin/options").json()["options"]
        assert (
            other.post("/api/accounts/signin", json={"credential": laptop.get(options)}).status_code
            == 400
        )
    # The last passkey stays.
    last = client.get("/api/me").json()["passkeys"][0]["id"]
    assert (
        client.delete(f"/api/me/passkeys/{last}").json()["detail"]["key"] == "account.last_passkey"
    )


def test_another_accounts_session_or_passkey_cannot_be_removed(client: TestClient) -> None:
    sign_up(client, SoftKey(), "Ann")
    ann = client.get("/api/me").json()
    with _second(client) as other:
        sign_up(other, SoftKey(), "Bob")
        assert other.delete(f"/api/me/sessions/{ann['sessions'][0]['id']}").status_code == 404
        assert other.delete(f"/api/me/passkeys/{ann['passkeys'][0]['id']}").status_code == 404
    assert _me(client) == 200


def test_a_request_from_another_site_is_refused_even_with_the_cookie(client: TestClient) -> None:
    sign_up(client, SoftKey(), "Ann")
    evil = {"origin": "https://evil.example"}
    body = {"name": "Mallory", "avatar": "star", "language": "en"}
    refused = client.put("/api/me/profile", json=body, headers=evil)
    assert refused.status_code == 403
    assert refused.json()["code"] == "bad_origin"
    assert client.post("/api/me/devices/code", headers=evil).status_code == 403
    assert client.get("/api/me").json()["account"]["name"] == "Ann"


def test_a_cookie_this_server_never_issued_is_refused(client: TestClient) -> None:
    client.cookies.clear()
    client.cookies.set("session", "a-cookie-from-another-server")
    assert _me(client) == 401
    assert client.get("/api/me/badge").json() == {"signed_in": False, "my_turn": 0}


def test_sign_up_and_sign_in_are_rate_limited(storage: Storage) -> None:
    tight = dataclasses.replace(
        FAST, signup_burst=2, signup_per_minute=1, signin_burst=3, signin_per_minute=1
    )
    with TestClient(create_app(tight, storage=storage)) as client:
        answers = [
            client.post("/api/accounts/signup/options", json={"name": f"P{i}"}) for i in range(3)
        ]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert int(answers[-1].headers["retry-after"]) > 0
        codes = [client.post("/api/accounts/signin/options").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        guesses = [
            client.post("/api/move", json={"code": "AAAA-AAAA"}).status_code for _ in range(2)
        ]
        assert guesses == [429, 429]


def test_profile_changes_and_a_public_page_without_the_address(client: TestClient) -> None:
    account = sign_up(client, SoftKey(), "Ann")
    body = {"name": "Annie", "avatar": "leaf", "language": "hy", "never_block": True}
    changed = client.put("/api/me/profile", json=body).json()["account"]
    assert (changed["name"], changed["avatar"], changed["language"], changed["never_block"]) == (
        "Annie",
        "leaf",
        "hy",
        True,
    )
    client.put("/api/me/email", json={"email": "ann@example.org"})
    public = client.get(f"/api/players/{account['id']}")
    assert public.json()["player"] == {"id": account["id"], "name": "Annie", "avatar": "leaf"}
    assert "example.org" not in public.text
    bad = client.put("/api/me/profile", json=body | {"avatar": "dragon"})
    assert bad.status_code == 400
    with contextlib.suppress(KeyError):
        assert client.get("/api/me").json()["account"]["avatar"] == "leaf"
