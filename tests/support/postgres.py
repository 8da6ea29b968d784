"""A fresh PostgreSQL schema per test, on the server scripts/test starts.

``SEQUENCE_STACKS_TEST_POSTGRES`` is the URL of a database the tests may create
schemas in (scripts/test starts a throwaway cluster and sets it). Without it the
PostgreSQL tests skip on a developer's machine and fail in CI (``CI=true``).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import urllib.parse
from collections.abc import Iterator
from typing import Any, Final

import pytest

__all__ = ["ENV", "fresh_database", "fresh_schema", "server_url", "table_log"]

ENV: Final = "SEQUENCE_STACKS_TEST_POSTGRES"


def server_url() -> str:
    """The test database's URL; skips the test (fails it in CI) when there is none."""
    url = os.environ.get(ENV)
    if url:
        return url
    message = f"no PostgreSQL for the tests: set {ENV} (scripts/test starts one)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    """Create an empty schema; yield a URL whose connections use it; drop it after."""
    import psycopg  # noqa: PLC0415 - only the PostgreSQL tests need it

    url = server_url()
    schema = "test_" + secrets.token_hex(6)
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@contextlib.contextmanager
def fresh_database() -> Iterator[str]:
    """Create an empty database of its own; yield its URL; drop it after.

    For a test that ends every session of its database or closes it to new ones (as a
    restart or an outage would): on the shared database that would also cut the
    sessions of the tests running in the other pytest process at the same time (a
    worker's table locks, say), which then fail for no fault of their own.
    """
    import psycopg  # noqa: PLC0415 - only the PostgreSQL tests need it

    url = server_url()
    name = "test_" + secrets.token_hex(6)
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    parts = urllib.parse.urlsplit(url)
    try:
        yield urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def table_log(url: str, table_id: str) -> list[tuple[int, dict[str, Any]]]:
    """A table's log as stored: (version, payload) in version order."""
    import psycopg  # noqa: PLC0415 - only the PostgreSQL tests need it

    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT version, payload FROM log WHERE table_id = %s ORDER BY version", (table_id,)
        ).fetchall()
    return [(int(v), p if isinstance(p, dict) else json.loads(p)) for v, p in rows]
