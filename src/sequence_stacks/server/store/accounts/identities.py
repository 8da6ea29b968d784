"""Who a player is and how they sign in: accounts, their passkeys and their sessions
(signed-in devices)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from sequence_stacks.server.store.sql import SqlDatabase, Tx

from .records import (
    ACCOUNT_COLUMNS,
    CREDENTIAL_COLUMNS,
    SESSION_COLUMNS,
    Account,
    Credential,
    SessionRow,
    account_of,
    account_values,
)

__all__ = ["Identities", "Sessions"]


class Identities:
    """Accounts and their passkeys (part of :class:`AccountStore`)."""

    _sql: SqlDatabase

    def create_account(self, account: Account, credential: Credential) -> bool:
        """Store a new account with its first passkey; False when the name is taken."""
        values = account_values(account)
        with self._sql.transaction() as run:
            taken = run("SELECT 1 FROM accounts WHERE name_key = ?", (account.name_key,)).fetchone()
            if taken is not None:
                return False
            marks = ", ".join("?" * len(values))
            run(f"INSERT INTO accounts ({ACCOUNT_COLUMNS}) VALUES ({marks})", values)
            _insert_credential(run, credential)
        return True

    def account(self, account_id: str) -> Account | None:
        """An account by id."""
        return self._sql.one(
            f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE account_id = ?",
            (account_id,),
            account_of,
        )

    def name_taken(self, name_key: str, *, besides: str | None = None) -> bool:
        """True when another account has this name (compared by its key)."""
        found = self._sql.one(
            "SELECT account_id FROM accounts WHERE name_key = ?", (name_key,), lambda r: r[0]
        )
        return found is not None and found != besides

    def accounts(self, account_ids: Sequence[str]) -> dict[str, Account]:
        """Accounts by id (those that exist)."""
        if not account_ids:
            return {}
        marks = ", ".join("?" * len(account_ids))
        found = self._sql.all(
            f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE account_id IN ({marks})",
            list(account_ids),
            account_of,
        )
        return {account.account_id: account for account in found}

    def update_profile(
        self,
        account_id: str,
        *,
        name: str,
        name_key: str,
        avatar: str,
        language: str,
        never_block: bool,
    ) -> bool:
        """Change an account's profile; False when the new name is another's."""
        with self._sql.transaction() as run:
            other = run(
                "SELECT account_id FROM accounts WHERE name_key = ?", (name_key,)
            ).fetchone()
            if other is not None and other[0] != account_id:
                return False
            run(
                "UPDATE accounts SET name = ?, name_key = ?, avatar = ?, language = ?, "
                "never_block = ? WHERE account_id = ?",
                (name, name_key, avatar, language, int(never_block), account_id),
            )
        return True

    def set_email(self, account_id: str, email: str | None, *, verified: bool) -> None:
        """Set (or clear) an account's e-mail address and whether it is verified."""
        self._sql.write(
            "UPDATE accounts SET email = ?, email_verified = ? WHERE account_id = ?",
            (email, int(verified), account_id),
        )

    def account_by_email(self, email: str) -> Account | None:
        """The account whose verified address this is."""
        return self._sql.one(
            f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE email = ? AND email_verified = 1",
            (email,),
            account_of,
        )

    def set_prefs(self, account_id: str, prefs: Mapping[str, Any]) -> None:
        """Replace an account's notification preferences."""
        self._sql.write(
            "UPDATE accounts SET prefs = ? WHERE account_id = ?",
            (json.dumps(dict(prefs)), account_id),
        )

    def account_by_unsubscribe(self, token: str) -> Account | None:
        """The account whose unsubscribe token this is."""
        return self._sql.one(
            f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE unsubscribe = ?",
            (token,),
            account_of,
        )

    def add_credential(self, credential: Credential) -> None:
        """Add a passkey to an account."""
        with self._sql.transaction() as run:
            _insert_credential(run, credential)

    def credential(self, credential_id: str) -> Credential | None:
        """A passkey by its id."""
        return self._sql.one(
            f"SELECT {CREDENTIAL_COLUMNS} FROM credentials WHERE credential_id = ?",
            (credential_id,),
            lambda row: Credential(*row),
        )

    def credentials_of(self, account_id: str) -> list[Credential]:
        """An account's passkeys, oldest first."""
        return self._sql.all(
            f"SELECT {CREDENTIAL_COLUMNS} FROM credentials WHERE account_id = ? "
            "ORDER BY created_at",
            (account_id,),
            lambda row: Credential(*row),
        )

    def used_credential(self, credential_id: str, old_count: int, new_count: int) -> bool:
        """Move a passkey's counter from ``old_count`` (as verified) to ``new_count``;
        False when another sign-in moved it first (a replayed assertion)."""
        return (
            self._sql.write(
                "UPDATE credentials SET sign_count = ?, used_at = ? "
                "WHERE credential_id = ? AND sign_count = ?",
                (new_count, time.time(), credential_id, old_count),
            )
            == 1
        )

    def remove_credential(self, account_id: str, credential_id: str) -> bool:
        """Remove a passkey and sign out the devices that signed in with it."""
        with self._sql.transaction() as run:
            run(
                "DELETE FROM sessions WHERE account_id = ? AND credential_id = ?",
                (account_id, credential_id),
            )
            removed: int = run(
                "DELETE FROM credentials WHERE account_id = ? AND credential_id = ?",
                (account_id, credential_id),
            ).rowcount
        return removed == 1


class Sessions:
    """Signed-in devices; only a cookie's hash is kept (part of :class:`AccountStore`)."""

    _sql: SqlDatabase

    def add_session(self, row: SessionRow, *, replaces: str | None = None) -> None:
        """Store a session (and end the one it replaces: sessions rotate at sign-in)."""
        with self._sql.transaction() as run:
            if replaces is not None:
                run("DELETE FROM sessions WHERE session_hash = ?", (replaces,))
            run(
                f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                dataclasses.astuple(row),
            )

    def session(self, session_hash: str) -> SessionRow | None:
        """A session by its hash."""
        return self._sql.one(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE session_hash = ?",
            (session_hash,),
            lambda row: SessionRow(*row),
        )

    def touch_session(self, session_hash: str) -> None:
        """Note that a session was used now."""
        self._sql.write(
            "UPDATE sessions SET seen_at = ? WHERE session_hash = ?", (time.time(), session_hash)
        )

    def sessions_of(self, account_id: str) -> list[SessionRow]:
        """An account's signed-in devices, most recently seen first."""
        return self._sql.all(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE account_id = ? ORDER BY seen_at DESC",
            (account_id,),
            lambda row: SessionRow(*row),
        )

    def end_session(self, account_id: str, session_hash: str) -> bool:
        """Sign a device out (only the account's own)."""
        return (
            self._sql.write(
                "DELETE FROM sessions WHERE account_id = ? AND session_hash = ?",
                (account_id, session_hash),
            )
            == 1
        )


def _insert_credential(run: Tx, credential: Credential) -> None:
    run(
        f"INSERT INTO credentials ({CREDENTIAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
        dataclasses.astuple(credential),
    )
