"""Single-use secrets kept in the database: the server's keys, WebAuthn challenges and
one-time codes (a link, an e-mail check, a sign-in on a new device)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from sequence_stacks.server.store.sql import SqlDatabase

__all__ = ["Codes"]


class Codes:
    """The server's keys, challenges and one-time codes (part of :class:`AccountStore`)."""

    _sql: SqlDatabase

    def server_key(self, name: str, make: Callable[[], str]) -> str:
        """A secret kept in the database and shared by every worker: made once by
        whichever asks first (``make``), read by all."""
        with self._sql.transaction() as run:
            run(
                "INSERT INTO server_keys VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (name, make()),
            )
            value: str = run("SELECT value FROM server_keys WHERE name = ?", (name,)).fetchone()[0]
        return value

    # --- challenges and one-time codes (single use) -------------------------------------

    def put_challenge(
        self, challenge_id: str, purpose: str, challenge: str, data: Mapping[str, Any], ttl: float
    ) -> None:
        """Keep a WebAuthn challenge (and what it is for) for ``ttl`` seconds."""
        self._keep("challenges", (challenge_id, purpose, challenge), data, ttl)

    def take_challenge(self, challenge_id: str, purpose: str) -> tuple[str, dict[str, Any]] | None:
        """A challenge, removed as it is read (a second use finds nothing); None when
        unknown, expired or for another purpose."""
        with self._sql.transaction() as run:
            found = run(
                "SELECT challenge, data, expires_at, purpose FROM challenges "
                "WHERE challenge_id = ?",
                (challenge_id,),
            ).fetchone()
            if found is None:
                return None
            run("DELETE FROM challenges WHERE challenge_id = ?", (challenge_id,))
        challenge, data, expires_at, stored_purpose = found
        if expires_at < time.time() or stored_purpose != purpose:
            return None
        return challenge, json.loads(data)

    def put_code(
        self,
        code_hash: str,
        kind: str,
        account_id: str | None,
        data: Mapping[str, Any],
        ttl: float,
    ) -> None:
        """Keep a one-time code's hash, kind and data for ``ttl`` seconds."""
        self._keep("codes", (code_hash, kind, account_id), data, ttl)

    def _keep(
        self, table: str, key: tuple[str | None, ...], data: Mapping[str, Any], ttl: float
    ) -> None:
        """A row of ``challenges`` or ``codes`` (its key columns, its data as JSON, when
        it expires), the expired rows of that table dropped first."""
        now = time.time()
        with self._sql.transaction() as run:
            run(f"DELETE FROM {table} WHERE expires_at < ?", (now,))
            run(
                f"INSERT INTO {table} VALUES (?, ?, ?, ?, ?)",
                (*key, json.dumps(dict(data)), now + ttl),
            )

    def peek_code(self, code_hash: str, kind: str) -> tuple[str | None, dict[str, Any]] | None:
        """A one-time code's account and data, left in place; None when unknown,
        expired or of another kind."""
        found = self._sql.one(
            "SELECT account_id, data, expires_at, kind FROM codes WHERE code_hash = ?",
            (code_hash,),
            tuple,
        )
        if found is None or found[3] != kind or found[2] < time.time():
            return None
        return found[0], json.loads(found[1])

    def take_code(self, code_hash: str, kind: str) -> tuple[str | None, dict[str, Any]] | None:
        """A one-time code's account and data, removed as it is read; None when
        unknown, used, expired or of another kind."""
        with self._sql.transaction() as run:
            found = run(
                "SELECT account_id, data, expires_at, kind FROM codes WHERE code_hash = ?",
                (code_hash,),
            ).fetchone()
            if found is None or found[3] != kind:
                return None
            run("DELETE FROM codes WHERE code_hash = ?", (code_hash,))
        account_id, data, expires_at, _ = found
        return None if expires_at < time.time() else (account_id, json.loads(data))
