"""The account tables' schema: one statement list for SQLite and PostgreSQL, added by
each database's migrations (SQLite schema 4, PostgreSQL schema 3)."""

from __future__ import annotations

__all__ = ["account_schema"]


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
