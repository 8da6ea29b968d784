"""Why a request changed nothing: :class:`RefusalCode` and the :class:`Refusal` that
carries it to the one client that asked (docs/protocol.md, "Server to client")."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

__all__ = ["Refusal", "RefusalCode"]


class RefusalCode(enum.StrEnum):
    """The stable word a refusal is known by on the wire (``code``), in HTTP answers
    and in the message that words it (``refused.<code>``)."""

    ILLEGAL = "illegal"  # the engine refused the action (with its rule id)
    STALE = "stale"  # the table moved on since the version the client saw
    NOT_SEATED = "not_seated"
    GAME_RUNNING = "game_running"
    GAME_STARTED = "game_started"
    TABLE_FULL = "table_full"
    NAME_TAKEN = "name_taken"
    BAD_REQUEST = "bad_request"
    RATE_LIMITED = "rate_limited"
    TOO_LARGE = "too_large"
    BAD_ORIGIN = "bad_origin"
    NOT_FOUND = "not_found"
    UNKNOWN_TYPE = "unknown_type"
    BAD_JSON = "bad_json"
    HELLO_FIRST = "hello_first"
    UNAVAILABLE = "unavailable"  # the database cannot be reached
    ELSEWHERE = "elsewhere"  # another worker owns the table (docs/deploy.md, Routing)
    SIGNED_OUT = "signed_out"  # an account's page or request with no valid session (#26)
    PASSKEY_REFUSED = "passkey_refused"  # a WebAuthn answer that does not verify (#26)
    CODE_INVALID = "code_invalid"  # a one-time code or link unknown, used or expired (#26)

    @property
    def http_status(self) -> int:
        """The status of an HTTP answer refused with this code."""
        return _HTTP_STATUS.get(self, 400)

    @property
    def is_error(self) -> bool:
        """True for a message that could not be handled at all (an ``error`` frame),
        False for a request that was understood and refused (a ``refused`` frame)."""
        return self in _ERRORS


_HTTP_STATUS: dict[RefusalCode, int] = {
    RefusalCode.NOT_FOUND: 404,
    RefusalCode.SIGNED_OUT: 401,
    RefusalCode.CODE_INVALID: 410,
    RefusalCode.TABLE_FULL: 409,
    RefusalCode.GAME_RUNNING: 409,
    RefusalCode.GAME_STARTED: 409,
    RefusalCode.NAME_TAKEN: 409,
    RefusalCode.TOO_LARGE: 413,
    RefusalCode.RATE_LIMITED: 429,
    RefusalCode.BAD_ORIGIN: 403,
    RefusalCode.UNAVAILABLE: 503,
    RefusalCode.ELSEWHERE: 503,
}
_ERRORS: frozenset[RefusalCode] = frozenset(
    {
        RefusalCode.BAD_JSON,
        RefusalCode.UNKNOWN_TYPE,
        RefusalCode.TOO_LARGE,
        RefusalCode.RATE_LIMITED,
        RefusalCode.HELLO_FIRST,
        RefusalCode.NOT_FOUND,
    }
)


class Refusal(Exception):  # noqa: N818 - an answer to a client, not a server fault
    """A request was refused and nothing changed.

    Attributes:
        code: why, as a :class:`RefusalCode`.
        reason: a plain-language explanation for developers and scripts (players read
            the message ``refused.<code>`` or ``detail`` in their own language).
        rule_id: the RULES.md id for game rules (R37 for malformed actions), else None.
        detail: why as a message: ``{"key": ..., "args": {...}}`` (an engine refusal's
            ``illegal.<code>`` and its data, a stale command's ``refused.stale.<why>``),
            else None.
        retry_after: whole seconds until a retry may pass (rate limits, a table
            moving between workers), else None.
    """

    def __init__(
        self,
        code: RefusalCode,
        reason: str,
        rule_id: str | None = None,
        *,
        detail: Mapping[str, Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(f"{code.value}: {reason}")
        self.code = code
        self.reason = reason
        self.rule_id = rule_id
        self.detail = detail
        self.retry_after = retry_after
