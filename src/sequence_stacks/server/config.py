"""Server settings: one frozen object, read from the environment or the command line."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Final

__all__ = ["ENV_PREFIX", "ServerSettings"]

ENV_PREFIX: Final = "SEQUENCE_STACKS_"


# Settings that must be above zero (each read from the environment as a float).
_POSITIVE: Final = (
    "create_per_minute",
    "sit_per_minute",
    "listing_idle",
    "empty_listing_idle",
    "adopt_interval",
    "signup_per_minute",
    "signin_per_minute",
)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ServerSettings:
    """Everything the web server can be told; all times are in seconds.

    Attributes:
        host: interface to listen on (localhost by default).
        port: TCP port; 0 picks a free one.
        database: SQLite file path; ``"memory"`` (or ``":memory:"``) for a throwaway
            in-process store.
        turn_timeout: a seated human who does not finish a turn this long at a table of
            normal pace has it finished for them by a bot (twice as long at a relaxed
            table, half at a fast one: ``play.options.Pace``).
        block_timeout: how long a Block window lasts at a table of normal pace, for
            every asked opponent whatever they hold (8 s relaxed, 3 s fast); no Block
            by then and everyone passes (R29).
        grace_period: a disconnected player's seat goes to a bot after this long.
        bot_delay: (low, high) of the uniform think time of a bot's turn action.
        bot_block_delay: (low, high) of the uniform delay of every bot's Block-window
            answer, drawn the same way whatever the bot holds (R36: nothing by timing).
        default_bot: the bot strength that fills empty seats and replaces leavers.
        heartbeat_interval: the client pings this often; silence for three intervals
            closes the connection.
        max_message_bytes: larger client messages are refused and the socket closed.
        rate_per_second, rate_burst: per-connection token bucket for client messages.
        freeze_heap: once started (tables loaded), move every object then alive out of
            the garbage collector's reach (``gc.freeze()``), and afterwards what
            survives each collection (:mod:`sequence_stacks.server.heap`), so the
            collector never walks the tables' states again between its rare full
            collections: its pauses were the latency tail under load (docs/server.md).
            ``sequence-stacks serve`` turns it on; tests leave it off.
        compression: accept WebSocket permessage-deflate when a client asks for it
            (browsers do). Off by default: frames (1-2 kB of JSON each, a few a
            second per player) then go out as they are, which saves about a quarter
            of the server's CPU per action (docs/server.md, Load).
        create_per_minute, create_burst: per client address, tables created a minute
            on average and at once (token bucket); more are refused with 429.
        sit_per_minute, sit_burst: the same for seats taken.
        listing_idle: a table with no change for this long (an abandoned lobby) leaves
            the public list; finished tables are never listed.
        empty_listing_idle: a public table nobody has sat at leaves the list after this
            long with no change (a game of bots alone is never listed).
        allowed_origins: other web origins (``https://example.org``) whose pages may
            create tables, take seats and open table sockets; the server's own origin
            always may, and requests with no ``Origin`` (not from a browser) too.
        worker: this worker's name in logs and its health answer (``serve --workers``
            names them ``w1``, ``w2`` ...); empty: ``host:port``.
        adopt_interval: with PostgreSQL, how often a worker takes over playing tables
            no worker owns (a dead worker's), in seconds (docs/deploy.md).
        public_url: where players reach the server (``https://games.example.org``):
            the links in e-mails and push messages, and the site passkeys are made for;
            empty: the address the server listens on (links), the request's (passkeys).
        smtp_url: ``smtp://user:password@host:port`` (or ``smtps://``) of the SMTP
            server e-mails go through; empty: no e-mail is sent.
        mail_from: the sender address of those e-mails (default ``noreply@`` the public
            URL's host).
        vapid_key: a PEM file with the server's VAPID key for Web Push (made there if
            missing); empty: a key made once and kept in the database (every worker
            shares it).
        signup_per_minute, signup_burst: per client address, accounts made a minute
            on average and at once; signin_per_minute, signin_burst: the same for
            sign-ins, device codes and seat codes tried (token buckets; 429 past them).
        runtime_dir: the folder of npm's ``pyodide`` package that the game on one
            device (``/local``) runs on; empty: ``vendor/node_modules/pyodide`` of the
            source tree, where ``npm ci`` in ``vendor/`` puts it (docs/server.md).
        release: a name for this release of the site (a deploy may set it): part of the
            version of what devices keep for offline play, so a new name makes every
            device fetch the game again on its next visit.
        review_workers: processes computing post-game reviews (#27), each a core's worth
            of work at the idle priority while games end faster than one reviews them
            (docs/deploy.md, "Post-game reviews: their own cores").
        review_backlog: finished games whose reviews may wait unasked; past it the
            oldest waiting one is left to be computed when someone asks for it.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    database: str = "sequence-stacks.sqlite3"
    turn_timeout: float = 90.0
    block_timeout: float = 5.0
    grace_period: float = 60.0
    bot_delay: tuple[float, float] = (0.5, 1.2)
    bot_block_delay: tuple[float, float] = (0.8, 2.5)
    default_bot: str = "greedy"
    heartbeat_interval: float = 15.0
    max_message_bytes: int = 4096
    rate_per_second: float = 20.0
    rate_burst: int = 40
    freeze_heap: bool = False
    compression: bool = False
    create_per_minute: float = 10.0
    create_burst: int = 10
    sit_per_minute: float = 30.0
    sit_burst: int = 20
    listing_idle: float = 1800.0
    empty_listing_idle: float = 300.0
    allowed_origins: tuple[str, ...] = ()
    worker: str = ""
    adopt_interval: float = 2.0
    public_url: str = ""
    smtp_url: str = ""
    mail_from: str = ""
    vapid_key: str = ""
    signup_per_minute: float = 3.0
    signup_burst: int = 5
    signin_per_minute: float = 10.0
    signin_burst: int = 10
    runtime_dir: str = ""
    release: str = ""
    review_workers: int = 1
    review_backlog: int = 64

    def __post_init__(self) -> None:
        for name in ("turn_timeout", "block_timeout", "grace_period", "heartbeat_interval"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)!r}")
        for name in ("bot_delay", "bot_block_delay"):
            low, high = getattr(self, name)
            if not 0 <= low <= high:
                raise ValueError(f"{name} must be (low, high) with 0 <= low <= high")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port {self.port} is outside 0-65535")
        if self.max_message_bytes < 256 or self.rate_burst < 1 or self.rate_per_second <= 0:
            raise ValueError("message size must be at least 256 bytes and rate limits positive")
        for name in _POSITIVE:
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)!r}")
        if min(self.create_burst, self.sit_burst, self.signup_burst, self.signin_burst) < 1:
            raise ValueError("every burst (create, sit, signup, signin) must be at least 1")
        _check_reviews(self.review_workers, self.review_backlog)
        if self.public_url and (
            not self.public_url.startswith(("http://", "https://"))
            or self.public_url.rstrip("/").count("/") != 2
        ):
            raise ValueError(f"the public URL is scheme://host[:port], not {self.public_url!r}")
        for origin in self.allowed_origins:
            if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
                raise ValueError(f"an allowed origin is scheme://host[:port], not {origin!r}")

    @property
    def link_base(self) -> str:
        """Where links in e-mails and push messages point: the public URL, else the
        address the server listens on."""
        if self.public_url:
            return self.public_url.rstrip("/")
        return f"http://{self.host}:{self.port}"

    @property
    def sender(self) -> str:
        """The sender of e-mails: ``mail_from``, else ``noreply@`` the public host."""
        if self.mail_from:
            return self.mail_from
        host = self.link_base.split("://", 1)[1].split(":")[0].split("/")[0]
        return f"noreply@{host if '.' in host else 'localhost.localdomain'}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> ServerSettings:
        """Read ``SEQUENCE_STACKS_<NAME>`` variables (ranges as ``low,high``), then overrides."""
        source = os.environ if env is None else env
        values: dict[str, object] = {}
        for field in dataclasses.fields(cls):
            text = source.get(ENV_PREFIX + field.name.upper())
            if text is not None:
                values[field.name] = _parse(field.name, text)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]  # checked in __post_init__


def _check_reviews(workers: int, backlog: int) -> None:
    """The review settings: 1-64 worker processes, a backlog of 0 or more games."""
    if not 1 <= workers <= 64:
        raise ValueError(f"review_workers is 1-64, not {workers!r}")
    if backlog < 0:
        raise ValueError(f"review_backlog must be 0 or more, not {backlog!r}")


_FLOATS: Final = {"turn_timeout", "block_timeout", "grace_period", "heartbeat_interval"}
_FLOATS_EXTRA: Final = {"rate_per_second", *_POSITIVE}
_INTS: Final = {
    "port",
    "max_message_bytes",
    "rate_burst",
    "create_burst",
    "sit_burst",
    "signup_burst",
    "signin_burst",
    "review_workers",
    "review_backlog",
}
_LISTS: Final = {"allowed_origins"}
_RANGES: Final = {"bot_delay", "bot_block_delay"}
_BOOLS: Final = {"freeze_heap", "compression"}
_TRUE: Final = {"1", "true", "yes", "on"}
_FALSE: Final = {"0", "false", "no", "off"}


def _parse(name: str, text: str) -> object:
    try:
        if name in _FLOATS or name in _FLOATS_EXTRA:
            return float(text)
        if name in _INTS:
            return int(text)
        if name in _BOOLS:
            if text.lower() not in _TRUE | _FALSE:
                raise ValueError(text)
            return text.lower() in _TRUE
        if name in _LISTS:
            return tuple(item.strip() for item in text.split(",") if item.strip())
        if name in _RANGES:
            low, _, high = text.partition(",")
            return (float(low), float(high or low))
    except ValueError:
        raise ValueError(f"{ENV_PREFIX}{name.upper()}={text!r} is not a valid value") from None
    return text
