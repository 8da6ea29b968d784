"""The account records (frozen rows of the account tables) and how each is read from
and written to a row: the columns every statement names, in one order."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

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


def account_of(row: Sequence[Any]) -> Account:
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


def seat_of(row: Sequence[Any]) -> SeatLink:
    table_id, token_hash, account_id, sealed, joined_at, my_turn, deadline = row
    return SeatLink(table_id, token_hash, account_id, sealed, joined_at, bool(my_turn), deadline)


def result_of(row: Sequence[Any]) -> GameResult:
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
