"""Accounts in the database: players, their passkeys and sessions, one-time codes, the
seats they hold, their push subscriptions, the notices sent to them, their finished
games and their ratings (#26).

One SQL implementation for both databases (:class:`AccountStore`, told which dialect it
speaks): its tables are created by the same schema step as the tables' own (SQLite
schema 4, PostgreSQL schema 3: :func:`account_schema`). The in-memory storage keeps its
accounts in an in-memory SQLite database, so every storage runs the same statements.
Calls block (a database round trip): the async callers run them in a thread.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Final, Protocol, TypeVar

from .records import StorageUnavailableError

__all__ = [
    "Account",
    "AccountStore",
    "Credential",
    "GameResult",
    "PushSubscription",
    "Rating",
    "SeatLink",
    "SessionRow",
    "account_schema",
]

_T = TypeVar("_T")


def account_schema(real: str) -> str:
    """The statements that add the account tables (``real``: the database's float type)."""
    return f"""
    CREATE TABLE server_keys (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE accounts (
        account_id     TEXT PRIMARY KEY,
        name           TEXT NOT NULL,
        name_key       TEXT NOT NULL UNIQUE,
        avatar         TEXT NOT NULL,
        language       TEXT NOT NULL,
        never_block    INTEGER NOT NULL DEFAULT 0,
        email          TEXT,
        email_verified INTEGER NOT NULL DEFAULT 0,
        prefs          TEXT NOT NULL DEFAULT '{{}}',
        unsubscribe    TEXT NOT NULL UNIQUE,
        created_at     {real} NOT NULL
    );
    CREATE TABLE credentials (
        credential_id TEXT PRIMARY KEY,
        account_id    TEXT NOT NULL REFERENCES accounts(account_id),
        public_key    TEXT NOT NULL,
        sign_count    INTEGER NOT NULL,
        label         TEXT NOT NULL,
        created_at    {real} NOT NULL,
        used_at       {real} NOT NULL
    );
    CREATE INDEX credentials_by_account ON credentials(account_id);
    CREATE TABLE sessions (
        session_hash  TEXT PRIMARY KEY,
        account_id    TEXT NOT NULL REFERENCES accounts(account_id),
        credential_id TEXT,
        label         TEXT NOT NULL,
        created_at    {real} NOT NULL,
        seen_at       {real} NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions(account_id);
    CREATE TABLE challenges (
        challenge_id TEXT PRIMARY KEY,
        purpose      TEXT NOT NULL,
        challenge    TEXT NOT NULL,
        data         TEXT NOT NULL,
        expires_at   {real} NOT NULL
    );
    CREATE TABLE codes (
        code_hash  TEXT PRIMARY KEY,
        kind       TEXT NOT NULL,
        account_id TEXT,
        data       TEXT NOT NULL,
        expires_at {real} NOT NULL
    );
    CREATE TABLE account_seats (
        table_id   TEXT NOT NULL,
        token_hash TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES accounts(account_id),
        sealed     TEXT NOT NULL,
        joined_at  {real} NOT NULL,
        my_turn    INTEGER NOT NULL DEFAULT 0,
        deadline   {real},
        PRIMARY KEY (table_id, token_hash)
    );
    CREATE INDEX account_seats_by_account ON account_seats(account_id);
    CREATE TABLE push_subscriptions (
        endpoint   TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(account_id),
        keys       TEXT NOT NULL,
        created_at {real} NOT NULL
    );
    CREATE INDEX push_by_account ON push_subscriptions(account_id);
    CREATE TABLE notices_sent (
        account_id TEXT NOT NULL,
        notice     TEXT NOT NULL,
        sent_at    {real} NOT NULL,
        PRIMARY KEY (account_id, notice)
    );
    CREATE TABLE game_results (
        table_id    TEXT NOT NULL,
        game        INTEGER NOT NULL,
        account_id  TEXT NOT NULL REFERENCES accounts(account_id),
        seat        INTEGER NOT NULL,
        place       INTEGER NOT NULL,
        won         INTEGER NOT NULL,
        players     INTEGER NOT NULL,
        grp         TEXT NOT NULL,
        with_bots   INTEGER NOT NULL,
        rated       INTEGER NOT NULL,
        mu          {real},
        sigma       {real},
        finished_at {real} NOT NULL,
        PRIMARY KEY (table_id, game, account_id)
    );
    CREATE INDEX game_results_by_account ON game_results(account_id, finished_at);
    CREATE TABLE rated_games (
        table_id TEXT NOT NULL,
        game     INTEGER NOT NULL,
        PRIMARY KEY (table_id, game)
    );
    CREATE TABLE ratings (
        account_id TEXT NOT NULL REFERENCES accounts(account_id),
        grp        TEXT NOT NULL,
        mu         {real} NOT NULL,
        sigma      {real} NOT NULL,
        games      INTEGER NOT NULL,
        wins       INTEGER NOT NULL,
        updated_at {real} NOT NULL,
        PRIMARY KEY (account_id, grp)
    );
    """


# --- records ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Account:
    """A player who is remembered. ``email`` is the owner's alone: it never leaves
    the account's own pages (no frame, no other player's page carries it)."""

    account_id: str
    name: str
    name_key: str
    avatar: str
    language: str
    unsubscribe: str
    created_at: float
    never_block: bool = False
    email: str | None = None
    email_verified: bool = False
    prefs: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, slots=True)
class Credential:
    """A passkey: its id and COSE public key (base64url), its signature counter."""

    credential_id: str
    account_id: str
    public_key: str
    sign_count: int
    label: str
    created_at: float
    used_at: float


@dataclasses.dataclass(frozen=True, slots=True)
class SessionRow:
    """A signed-in device: only the SHA-256 of its cookie is kept."""

    session_hash: str
    account_id: str
    credential_id: str | None
    label: str
    created_at: float
    seen_at: float


@dataclasses.dataclass(frozen=True, slots=True)
class SeatLink:
    """A seat an account holds: the table, the seat token's hash, the token sealed
    under the server's key (so every device of the account can take the seat)."""

    table_id: str
    token_hash: str
    account_id: str
    sealed: str
    joined_at: float
    my_turn: bool = False
    deadline: float | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class PushSubscription:
    """A browser's Web Push subscription: its endpoint and keys (p256dh, auth)."""

    endpoint: str
    account_id: str
    keys: Mapping[str, str]


@dataclasses.dataclass(frozen=True, slots=True)
class GameResult:
    """One account's finished game: its place (1 = best), the rating after it."""

    table_id: str
    game: int
    account_id: str
    seat: int
    place: int
    won: bool
    players: int
    group: str
    with_bots: bool
    rated: bool
    mu: float | None
    sigma: float | None
    finished_at: float


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    """An account's rating in a player-count group: mean and uncertainty (OpenSkill)."""

    account_id: str
    group: str
    mu: float
    sigma: float
    games: int
    wins: int


# --- the connection ---------------------------------------------------------------------


class _Cursor(Protocol):
    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    @property
    def rowcount(self) -> int: ...


class _Tx(Protocol):
    def __call__(self, sql: str, values: Sequence[Any] = ()) -> _Cursor: ...


_ACCOUNT_COLUMNS: Final = (
    "account_id, name, name_key, avatar, language, unsubscribe, created_at, never_block, "
    "email, email_verified, prefs"
)
_CREDENTIAL_COLUMNS: Final = (
    "credential_id, account_id, public_key, sign_count, label, created_at, used_at"
)
_SESSION_COLUMNS: Final = "session_hash, account_id, credential_id, label, created_at, seen_at"
_SEAT_COLUMNS: Final = "table_id, token_hash, account_id, sealed, joined_at, my_turn, deadline"
_RESULT_COLUMNS: Final = (
    "table_id, game, account_id, seat, place, won, players, grp, with_bots, rated, mu, "
    "sigma, finished_at"
)


class AccountStore:
    """The account tables of one database (see the module's docstring).

    Every method is one transaction on one connection, serialised by a lock; SQLite's
    connection waits for the table writer's transactions (``busy_timeout``), and
    PostgreSQL's locks the rows a rating update reads (``FOR UPDATE``).
    """

    def __init__(
        self,
        connect: Callable[[], Any],
        *,
        postgres: bool,
        unavailable: tuple[type[BaseException], ...] = (),
    ) -> None:
        self._connect = connect
        self.postgres = postgres
        self._unavailable = unavailable
        self._db: Any = None
        self._lock = threading.Lock()

    @classmethod
    def sqlite(cls, path: str) -> AccountStore:
        """The accounts of a SQLite database file (already migrated by its storage)."""

        def connect() -> sqlite3.Connection:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA busy_timeout=10000")
            db.execute("PRAGMA foreign_keys=ON")
            return db

        return cls(connect, postgres=False)

    @classmethod
    def memory(cls) -> AccountStore:
        """Accounts in an in-memory SQLite database, gone with the process."""
        from .sqlite import migrate  # noqa: PLC0415 - the one schema, both ways

        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        migrate(db)
        return cls(lambda: db, postgres=False)

    @classmethod
    def for_postgres(cls, url: str) -> AccountStore:
        """The accounts of a PostgreSQL database (already migrated by its storage)."""
        import psycopg  # noqa: PLC0415 - only with PostgreSQL

        return cls(
            lambda: psycopg.connect(url, autocommit=True, connect_timeout=5),
            postgres=True,
            unavailable=(psycopg.OperationalError,),
        )

    # --- running statements -------------------------------------------------------------

    def _connection(self) -> Any:
        db = self._db
        if db is None or getattr(db, "closed", False) or getattr(db, "broken", False):
            self._db = db = self._connect()
        return db

    @contextmanager
    def _tx(self, *, write: bool = True) -> Iterator[_Tx]:
        """One transaction; ``?`` marks become ``%s`` on PostgreSQL."""
        with self._lock:
            try:
                db = self._connection()
                if self.postgres:
                    with db.transaction():

                        def run_pg(sql: str, values: Sequence[Any] = ()) -> _Cursor:
                            cursor: _Cursor = db.execute(sql.replace("?", "%s"), tuple(values))
                            return cursor

                        yield run_pg
                    return
                db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:

                    def run_sqlite(sql: str, values: Sequence[Any] = ()) -> _Cursor:
                        cursor: _Cursor = db.execute(sql, tuple(values))
                        return cursor

                    yield run_sqlite
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            except self._unavailable as error:
                self._db = None
                raise StorageUnavailableError(str(error).splitlines()[0]) from None

    def _one(self, sql: str, values: Sequence[Any], make: Callable[[Any], _T]) -> _T | None:
        with self._tx(write=False) as run:
            found = run(sql, values).fetchone()
        return None if found is None else make(found)

    def _all(self, sql: str, values: Sequence[Any], make: Callable[[Any], _T]) -> list[_T]:
        with self._tx(write=False) as run:
            return [make(row) for row in run(sql, values).fetchall()]

    def _write(self, sql: str, values: Sequence[Any]) -> int:
        with self._tx() as run:
            return run(sql, values).rowcount

    def close(self) -> None:
        """Release the connection."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # --- the server's key ---------------------------------------------------------------

    def server_key(self, name: str, make: Callable[[], str]) -> str:
        """A secret kept in the database and shared by every worker: made once by
        whichever asks first (``make``), read by all."""
        with self._tx() as run:
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
        now = time.time()
        with self._tx() as run:
            run("DELETE FROM challenges WHERE expires_at < ?", (now,))
            run(
                "INSERT INTO challenges VALUES (?, ?, ?, ?, ?)",
                (challenge_id, purpose, challenge, json.dumps(dict(data)), now + ttl),
            )

    def take_challenge(self, challenge_id: str, purpose: str) -> tuple[str, dict[str, Any]] | None:
        """A challenge, removed as it is read (a second use finds nothing); None when
        unknown, expired or for another purpose."""
        with self._tx() as run:
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
        now = time.time()
        with self._tx() as run:
            run("DELETE FROM codes WHERE expires_at < ?", (now,))
            run(
                "INSERT INTO codes VALUES (?, ?, ?, ?, ?)",
                (code_hash, kind, account_id, json.dumps(dict(data)), now + ttl),
            )

    def peek_code(self, code_hash: str, kind: str) -> tuple[str | None, dict[str, Any]] | None:
        """A one-time code's account and data, left in place; None when unknown,
        expired or of another kind."""
        found = self._one(
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
        with self._tx() as run:
            found = run(
                "SELECT account_id, data, expires_at, kind FROM codes WHERE code_hash = ?",
                (code_hash,),
            ).fetchone()
            if found is None or found[3] != kind:
                return None
            run("DELETE FROM codes WHERE code_hash = ?", (code_hash,))
        account_id, data, expires_at, _ = found
        return None if expires_at < time.time() else (account_id, json.loads(data))

    # --- accounts -----------------------------------------------------------------------

    def create_account(self, account: Account, credential: Credential) -> bool:
        """Store a new account with its first passkey; False when the name is taken."""
        values = _account_values(account)
        with self._tx() as run:
            taken = run("SELECT 1 FROM accounts WHERE name_key = ?", (account.name_key,)).fetchone()
            if taken is not None:
                return False
            marks = ", ".join("?" * len(values))
            run(f"INSERT INTO accounts ({_ACCOUNT_COLUMNS}) VALUES ({marks})", values)
            _insert_credential(run, credential)
        return True

    def account(self, account_id: str) -> Account | None:
        """An account by id."""
        return self._one(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE account_id = ?",
            (account_id,),
            _account_of,
        )

    def name_taken(self, name_key: str, *, besides: str | None = None) -> bool:
        """True when another account has this name (compared by its key)."""
        found = self._one(
            "SELECT account_id FROM accounts WHERE name_key = ?", (name_key,), lambda r: r[0]
        )
        return found is not None and found != besides

    def accounts(self, account_ids: Sequence[str]) -> dict[str, Account]:
        """Accounts by id (those that exist)."""
        if not account_ids:
            return {}
        marks = ", ".join("?" * len(account_ids))
        found = self._all(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE account_id IN ({marks})",
            list(account_ids),
            _account_of,
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
        with self._tx() as run:
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
        self._write(
            "UPDATE accounts SET email = ?, email_verified = ? WHERE account_id = ?",
            (email, int(verified), account_id),
        )

    def account_by_email(self, email: str) -> Account | None:
        """The account whose verified address this is."""
        return self._one(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE email = ? AND email_verified = 1",
            (email,),
            _account_of,
        )

    def set_prefs(self, account_id: str, prefs: Mapping[str, Any]) -> None:
        """Replace an account's notification preferences."""
        self._write(
            "UPDATE accounts SET prefs = ? WHERE account_id = ?",
            (json.dumps(dict(prefs)), account_id),
        )

    def account_by_unsubscribe(self, token: str) -> Account | None:
        """The account whose unsubscribe token this is."""
        return self._one(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE unsubscribe = ?",
            (token,),
            _account_of,
        )

    # --- passkeys and sessions ----------------------------------------------------------

    def add_credential(self, credential: Credential) -> None:
        """Add a passkey to an account."""
        with self._tx() as run:
            _insert_credential(run, credential)

    def credential(self, credential_id: str) -> Credential | None:
        """A passkey by its id."""
        return self._one(
            f"SELECT {_CREDENTIAL_COLUMNS} FROM credentials WHERE credential_id = ?",
            (credential_id,),
            lambda row: Credential(*row),
        )

    def credentials_of(self, account_id: str) -> list[Credential]:
        """An account's passkeys, oldest first."""
        return self._all(
            f"SELECT {_CREDENTIAL_COLUMNS} FROM credentials WHERE account_id = ? "
            "ORDER BY created_at",
            (account_id,),
            lambda row: Credential(*row),
        )

    def used_credential(self, credential_id: str, old_count: int, new_count: int) -> bool:
        """Move a passkey's counter from ``old_count`` (as verified) to ``new_count``;
        False when another sign-in moved it first (a replayed assertion)."""
        return (
            self._write(
                "UPDATE credentials SET sign_count = ?, used_at = ? "
                "WHERE credential_id = ? AND sign_count = ?",
                (new_count, time.time(), credential_id, old_count),
            )
            == 1
        )

    def remove_credential(self, account_id: str, credential_id: str) -> bool:
        """Remove a passkey and sign out the devices that signed in with it."""
        with self._tx() as run:
            run(
                "DELETE FROM sessions WHERE account_id = ? AND credential_id = ?",
                (account_id, credential_id),
            )
            removed: int = run(
                "DELETE FROM credentials WHERE account_id = ? AND credential_id = ?",
                (account_id, credential_id),
            ).rowcount
        return removed == 1

    def add_session(self, row: SessionRow, *, replaces: str | None = None) -> None:
        """Store a session (and end the one it replaces: sessions rotate at sign-in)."""
        with self._tx() as run:
            if replaces is not None:
                run("DELETE FROM sessions WHERE session_hash = ?", (replaces,))
            run(
                f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                dataclasses.astuple(row),
            )

    def session(self, session_hash: str) -> SessionRow | None:
        """A session by its hash."""
        return self._one(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE session_hash = ?",
            (session_hash,),
            lambda row: SessionRow(*row),
        )

    def touch_session(self, session_hash: str) -> None:
        """Note that a session was used now."""
        self._write(
            "UPDATE sessions SET seen_at = ? WHERE session_hash = ?", (time.time(), session_hash)
        )

    def sessions_of(self, account_id: str) -> list[SessionRow]:
        """An account's signed-in devices, most recently seen first."""
        return self._all(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE account_id = ? ORDER BY seen_at DESC",
            (account_id,),
            lambda row: SessionRow(*row),
        )

    def end_session(self, account_id: str, session_hash: str) -> bool:
        """Sign a device out (only the account's own)."""
        return (
            self._write(
                "DELETE FROM sessions WHERE account_id = ? AND session_hash = ?",
                (account_id, session_hash),
            )
            == 1
        )

    # --- seats --------------------------------------------------------------------------

    def link_seat(self, link: SeatLink) -> bool:
        """Remember that an account holds a seat; False when that seat is linked already."""
        with self._tx() as run:
            inserted: int = run(
                f"INSERT INTO account_seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (table_id, token_hash) DO NOTHING",
                (*dataclasses.astuple(link)[:5], int(link.my_turn), link.deadline),
            ).rowcount
        return inserted == 1

    def seats_of(self, account_id: str) -> list[SeatLink]:
        """Every seat an account holds or held, newest first."""
        return self._all(
            f"SELECT {_SEAT_COLUMNS} FROM account_seats WHERE account_id = ? "
            "ORDER BY joined_at DESC",
            (account_id,),
            _seat_of,
        )

    def seats_at(self, table_id: str) -> list[SeatLink]:
        """Every account seat of a table."""
        return self._all(
            f"SELECT {_SEAT_COLUMNS} FROM account_seats WHERE table_id = ?", (table_id,), _seat_of
        )

    def set_turns(self, table_id: str, turns: Mapping[str, tuple[bool, float | None]]) -> None:
        """Per token hash at a table: whether it is that player's decision, and until when."""
        with self._tx() as run:
            for token_hash, (mine, deadline) in turns.items():
                run(
                    "UPDATE account_seats SET my_turn = ?, deadline = ? "
                    "WHERE table_id = ? AND token_hash = ?",
                    (int(mine), deadline, table_id, token_hash),
                )

    def my_turn_count(self, account_id: str) -> int:
        """How many of an account's games wait for it."""
        found = self._one(
            "SELECT COUNT(*) FROM account_seats WHERE account_id = ? AND my_turn = 1",
            (account_id,),
            lambda row: int(row[0]),
        )
        return found or 0

    # --- push subscriptions and notices -------------------------------------------------

    def add_push(self, subscription: PushSubscription) -> None:
        """Keep (or move to this account) a browser's push subscription."""
        self._write(
            "INSERT INTO push_subscriptions VALUES (?, ?, ?, ?) ON CONFLICT (endpoint) "
            "DO UPDATE SET account_id = excluded.account_id, keys = excluded.keys",
            (
                subscription.endpoint,
                subscription.account_id,
                json.dumps(dict(subscription.keys)),
                time.time(),
            ),
        )

    def pushes_of(self, account_id: str) -> list[PushSubscription]:
        """An account's push subscriptions."""
        return self._all(
            "SELECT endpoint, account_id, keys FROM push_subscriptions WHERE account_id = ?",
            (account_id,),
            lambda row: PushSubscription(row[0], row[1], json.loads(row[2])),
        )

    def remove_push(self, endpoint: str, account_id: str | None = None) -> None:
        """Forget a push subscription (gone at the push service, or turned off)."""
        if account_id is None:
            self._write("DELETE FROM push_subscriptions WHERE endpoint = ?", (endpoint,))
        else:
            self._write(
                "DELETE FROM push_subscriptions WHERE endpoint = ? AND account_id = ?",
                (endpoint, account_id),
            )

    def mark_sent(self, account_id: str, notice: str) -> bool:
        """Note a notice as sent; False when it was already (by any worker)."""
        return (
            self._write(
                "INSERT INTO notices_sent VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (account_id, notice, time.time()),
            )
            == 1
        )

    # --- results and ratings ------------------------------------------------------------

    def record_game(
        self,
        table_id: str,
        game: int,
        rate: Callable[[Mapping[tuple[str, str], Rating]], Sequence[GameResult]],
        accounts_and_groups: Sequence[tuple[str, str]],
    ) -> bool:
        """Record a finished game once (False if it was already): read the ratings of
        ``accounts_and_groups`` (locked), let ``rate`` make the results, store them and
        the ratings they carry."""
        with self._tx() as run:
            first = run(
                "INSERT INTO rated_games VALUES (?, ?) ON CONFLICT DO NOTHING", (table_id, game)
            ).rowcount
            if first != 1:
                return False
            lock = " FOR UPDATE" if self.postgres else ""
            current: dict[tuple[str, str], Rating] = {}
            for account_id, group in accounts_and_groups:
                found = run(
                    "SELECT account_id, grp, mu, sigma, games, wins FROM ratings "
                    f"WHERE account_id = ? AND grp = ?{lock}",
                    (account_id, group),
                ).fetchone()
                if found is not None:
                    current[(account_id, group)] = Rating(*found)
            for result in rate(current):
                _store_result(run, result, current.get((result.account_id, result.group)))
        return True

    def results_of(self, account_id: str, limit: int) -> list[GameResult]:
        """An account's finished games, newest first."""
        return self._all(
            f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE account_id = ? "
            "ORDER BY finished_at DESC LIMIT ?",
            (account_id, limit),
            _result_of,
        )

    def totals_of(self, account_id: str) -> tuple[int, int]:
        """An account's finished games and wins, all of them."""
        found = self._one(
            "SELECT COUNT(*), COALESCE(SUM(won), 0) FROM game_results WHERE account_id = ?",
            (account_id,),
            lambda row: (int(row[0]), int(row[1])),
        )
        return found or (0, 0)

    def ratings_of(self, account_id: str) -> list[Rating]:
        """An account's ratings, one per player-count group it has played."""
        return self._all(
            "SELECT account_id, grp, mu, sigma, games, wins FROM ratings WHERE account_id = ? "
            "ORDER BY grp",
            (account_id,),
            lambda row: Rating(*row),
        )

    def leaderboard(
        self, group: str, *, language: str | None, limit: int
    ) -> list[tuple[Rating, Account]]:
        """A group's ratings, best first by ``mu - 3 sigma`` (optionally only accounts
        of one language), each with its account."""
        columns = ", ".join(f"a.{name.strip()}" for name in _ACCOUNT_COLUMNS.split(","))
        return self._all(
            f"SELECT r.account_id, r.grp, r.mu, r.sigma, r.games, r.wins, {columns} "
            "FROM ratings r JOIN accounts a ON a.account_id = r.account_id "
            "WHERE r.grp = ? AND (CAST(? AS TEXT) IS NULL OR a.language = ?) "
            "ORDER BY r.mu - 3 * r.sigma DESC, r.account_id LIMIT ?",
            (group, language, language, limit),
            lambda row: (Rating(*row[:6]), _account_of(row[6:])),
        )


# --- rows -------------------------------------------------------------------------------


def _account_values(account: Account) -> tuple[Any, ...]:
    return (
        account.account_id,
        account.name,
        account.name_key,
        account.avatar,
        account.language,
        account.unsubscribe,
        account.created_at,
        int(account.never_block),
        account.email,
        int(account.email_verified),
        json.dumps(dict(account.prefs)),
    )


def _account_of(row: Sequence[Any]) -> Account:
    (
        account_id,
        name,
        name_key,
        avatar,
        language,
        unsubscribe,
        created_at,
        never_block,
        email,
        verified,
        prefs,
    ) = row
    return Account(
        account_id=account_id,
        name=name,
        name_key=name_key,
        avatar=avatar,
        language=language,
        unsubscribe=unsubscribe,
        created_at=created_at,
        never_block=bool(never_block),
        email=email,
        email_verified=bool(verified),
        prefs=json.loads(prefs),
    )


def _insert_credential(run: _Tx, credential: Credential) -> None:
    run(
        f"INSERT INTO credentials ({_CREDENTIAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
        dataclasses.astuple(credential),
    )


def _seat_of(row: Sequence[Any]) -> SeatLink:
    table_id, token_hash, account_id, sealed, joined_at, my_turn, deadline = row
    return SeatLink(table_id, token_hash, account_id, sealed, joined_at, bool(my_turn), deadline)


def _result_of(row: Sequence[Any]) -> GameResult:
    (table_id, game, account_id, seat, place, won, players, group, bots, rated, mu, sigma, at) = row
    return GameResult(
        table_id,
        game,
        account_id,
        seat,
        place,
        bool(won),
        players,
        group,
        bool(bots),
        bool(rated),
        mu,
        sigma,
        at,
    )


def _store_result(run: _Tx, result: GameResult, before: Rating | None) -> None:
    run(
        f"INSERT INTO game_results ({_RESULT_COLUMNS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            result.table_id,
            result.game,
            result.account_id,
            result.seat,
            result.place,
            int(result.won),
            result.players,
            result.group,
            int(result.with_bots),
            int(result.rated),
            result.mu,
            result.sigma,
            result.finished_at,
        ),
    )
    if not result.rated or result.mu is None or result.sigma is None:
        return
    games = (before.games if before else 0) + 1
    wins = (before.wins if before else 0) + int(result.won)
    run(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, grp) "
        "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
        "wins = excluded.wins, updated_at = excluded.updated_at",
        (result.account_id, result.group, result.mu, result.sigma, games, wins, time.time()),
    )
