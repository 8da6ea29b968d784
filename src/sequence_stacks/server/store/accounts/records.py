"""The account records (frozen rows of the account tables) and how each is read from
and written to a row: the columns every statement names, in one order."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sequence_stacks.server.store.records import json_text, record_of, record_values

__all__ = [
    "ACCOUNT_COLUMNS",
    "CREDENTIAL_COLUMNS",
    "RESULT_COLUMNS",
    "SEAT_COLUMNS",
    "SESSION_COLUMNS",
    "Account",
    "Credential",
    "GameResult",
    "PushSubscription",
    "Rating",
    "SeatLink",
    "SessionRow",
    "account_of",
    "account_values",
    "result_of",
    "seat_of",
]

ACCOUNT_COLUMNS: Final = (
    "account_id, name, name_key, avatar, language, unsubscribe, created_at, never_block, "
    "email, email_verified, prefs"
)
CREDENTIAL_COLUMNS: Final = (
    "credential_id, account_id, public_key, sign_count, label, created_at, used_at"
)
SESSION_COLUMNS: Final = "session_hash, account_id, credential_id, label, created_at, seen_at"
SEAT_COLUMNS: Final = "table_id, token_hash, account_id, sealed, joined_at, my_turn, deadline"
RESULT_COLUMNS: Final = (
    "table_id, game, account_id, seat, place, won, players, grp, with_bots, rated, mu, "
    "sigma, finished_at"
)


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


# --- rows -------------------------------------------------------------------------------


def account_values(account: Account) -> tuple[Any, ...]:
    return record_values(account, never_block=int, email_verified=int, prefs=json_text)


def account_of(row: Sequence[Any]) -> Account:
    return record_of(Account, row, never_block=bool, email_verified=bool, prefs=json.loads)


def seat_of(row: Sequence[Any]) -> SeatLink:
    return record_of(SeatLink, row, my_turn=bool)


def result_of(row: Sequence[Any]) -> GameResult:
    return record_of(GameResult, row, won=bool, with_bots=bool, rated=bool)
