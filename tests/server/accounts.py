"""Accounts through the API, for the tests: signing up and in with a software passkey."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from .softkey import SoftKey

__all__ = ["another_browser", "sign_in", "sign_up"]


def another_browser(client: TestClient) -> TestClient:
    """Another browser (its own cookies) on the server ``client`` runs: the same app,
    its lifespan not run again, its requests on the same event loop."""
    other = TestClient(client.app, base_url=str(client.base_url))
    other.portal = client.portal
    return other


def sign_up(
    client: TestClient, key: SoftKey, name: str, *, language: str = "en", avatar: str = "star"
) -> dict[str, Any]:
    """A new account signed in on ``client``; its own data."""
    body = {"name": name, "avatar": avatar, "language": language}
    answer = client.post("/api/accounts/signup/options", json=body)
    assert answer.status_code == 200, answer.text
    credential = key.create(answer.json()["options"])
    done = client.post("/api/accounts/signup", json={"credential": credential})
    assert done.status_code == 201, done.text
    account: dict[str, Any] = done.json()["account"]
    return account


def sign_in(client: TestClient, key: SoftKey) -> dict[str, Any]:
    """``client`` signed in with ``key``'s passkey; the account's data."""
    options = client.post("/api/accounts/signin/options").json()["options"]
    done = client.post("/api/accounts/signin", json={"credential": key.get(options)})
    assert done.status_code == 200, done.text
    account: dict[str, Any] = done.json()["account"]
    return account
