"""``sequence-stacks serve``: run the web server on uvicorn and print its URL."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import signal
import socket
import sqlite3
import sys
import threading
from typing import TYPE_CHECKING, Any, Final

from .config import ENV_PREFIX, ServerSettings

if TYPE_CHECKING:
    from .store import Storage

__all__ = ["SHUTDOWN_TIMEOUT", "add_serve_parser", "run_serve"]

log = logging.getLogger("sequence_stacks.server")

SHUTDOWN_TIMEOUT: Final = 10.0  # seconds to hand tables over, then for connections to end


def add_serve_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` subcommand to an argparse subparsers object; return its parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="play in the browser: start the web server (lobby, tables, bots)",
        description=(
            "Start the Sequence Stacks web server with an embedded SQLite database "
            "(or a PostgreSQL one: --db postgresql://user@host/db). "
            "Every option may also be set as SEQUENCE_STACKS_<NAME> in the environment."
        ),
    )
    parser.add_argument("--host", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="TCP port (default 8000; 0 picks a free one)")
    parser.add_argument(
        "--db",
        dest="database",
        help=(
            "a postgresql://user@host/db URL, a SQLite database file "
            "(default sequence-stacks.sqlite3) or 'memory'"
        ),
    )
    base = ServerSettings()  # the defaults, shown in --help (#15)
    parser.add_argument(
        "--turn-timeout",
        type=float,
        help=(
            f"seconds a player's whole turn may last at a table of normal pace "
            f"(default {base.turn_timeout:g}; twice that relaxed, half fast)"
        ),
    )
    parser.add_argument(
        "--block-timeout",
        type=float,
        help=(
            f"seconds a Block window lasts at a table of normal pace, for everyone "
            f"(default {base.block_timeout:g}; 1.6x relaxed, 0.6x fast)"
        ),
    )
    parser.add_argument(
        "--grace-period",
        type=float,
        help="seconds before a disconnected player's seat goes to a bot "
        f"(default {base.grace_period:g})",
    )
    parser.add_argument(
        "--review-workers",
        type=int,
        metavar="N",
        help="processes computing post-game reviews, at the idle priority "
        f"(default {base.review_workers}; docs/deploy.md)",
    )
    parser.add_argument(
        "--bot-delay",
        help="bot think time range in seconds, as low,high "
        f"(default {','.join(f'{s:g}' for s in base.bot_delay)})",
    )
    parser.add_argument(
        "--allowed-origin",
        dest="allowed_origins",
        action="append",
        metavar="ORIGIN",
        help=(
            "another web origin (scheme://host[:port]) whose pages may create tables, "
            "take seats and open table sockets; repeatable (default: the server's own only)"
        ),
    )
    parser.add_argument(
        "--public-url",
        help=(
            "where players reach the server, https://host[:port]: the links in e-mails "
            "and push messages, and the site passkeys are made for (docs/deploy.md)"
        ),
    )
    parser.add_argument(
        "--smtp-url",
        help=(
            "send e-mail notices through this SMTP server: smtp://user:password@host:port "
            "(STARTTLS when offered) or smtps://... (default: no e-mail)"
        ),
    )
    parser.add_argument(
        "--mail-from", help="the sender address of e-mails (default noreply@ the public host)"
    )
    parser.add_argument(
        "--vapid-key",
        metavar="FILE",
        help=(
            "a PEM file with the VAPID key for Web Push notices; made there if it does "
            "not exist (default: a key made once and kept in the database)"
        ),
    )
    parser.add_argument(
        "--log-level", default="warning", help="uvicorn log level (default warning)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help=(
            "worker processes on ports --port, --port+1 ... sharing a PostgreSQL "
            "database, each table owned by one of them (docs/deploy.md; default 1)"
        ),
    )
    parser.add_argument(
        "--worker-name",
        dest="worker",
        help="this worker's name in logs and /api/health (default: host:port)",
    )
    parser.add_argument(
        "--log-format",
        choices=("text", "json"),
        help="the server's own log lines: text (default), or JSON with worker and table",
    )
    parser.set_defaults(run=run_serve)
    return parser


def run_serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted; return the exit status."""
    import uvicorn  # noqa: PLC0415 - imported only when serving

    from .app import create_app  # noqa: PLC0415 - keeps `--help` fast

    settings = _settings(args)
    if settings is None:
        return 2
    workers = int(getattr(args, "workers", 1) or 1)
    if workers > 1:
        return _serve_workers(args, settings, workers)
    if getattr(args, "log_format", None) == "json":
        from .workers import configure_logging  # noqa: PLC0415

        configure_logging(settings.worker or f"{settings.host}:{settings.port}", args.log_level)
    storage = _open_storage(settings.database)
    if storage is None:
        return 2
    port = settings.port or _free_port(settings.host)
    settings = dataclasses.replace(settings, port=port)  # links name the port served
    print(f"Sequence Stacks is being served at http://{settings.host}:{port}/", flush=True)
    print(f"Database: {_database_name(settings.database)}  (Ctrl+C to stop)", flush=True)
    try:
        _run(uvicorn, create_app(settings, storage=storage), settings, port, args)
    finally:
        storage.close()
    return 0


def _settings(args: argparse.Namespace) -> ServerSettings | None:
    """The settings the command line and the environment give, or None after printing
    in one line which one is wrong (nothing is started)."""
    overrides: dict[str, object] = {
        name: getattr(args, name, None)
        for name in (
            "host",
            "port",
            "database",
            "turn_timeout",
            "block_timeout",
            "grace_period",
            "worker",
            "public_url",
            "smtp_url",
            "mail_from",
            "vapid_key",
            "review_workers",
        )
    }
    origins = getattr(args, "allowed_origins", None)
    if origins:
        overrides["allowed_origins"] = tuple(origins)
    if ENV_PREFIX + "FREEZE_HEAP" not in os.environ:
        overrides["freeze_heap"] = True  # the long-running server: see ServerSettings
    bot_delay = getattr(args, "bot_delay", None)
    try:
        if bot_delay:
            low, _, high = str(bot_delay).partition(",")
            try:
                overrides["bot_delay"] = (float(low), float(high or low))
            except ValueError:
                raise ValueError(f"--bot-delay is low,high in seconds, not {bot_delay!r}") from None
        return ServerSettings.from_env(None, **overrides)
    except ValueError as error:
        print(f"sequence-stacks serve: {error}", file=sys.stderr)
        return None


def _serve_workers(args: argparse.Namespace, settings: ServerSettings, workers: int) -> int:
    """``serve --workers N``: check the database once here, then run the workers."""
    from .workers import run_workers  # noqa: PLC0415

    if not settings.database.startswith(("postgresql://", "postgres://")):
        print("sequence-stacks serve: --workers needs a postgresql:// --db", file=sys.stderr)
        return 2
    if settings.port == 0:
        print("sequence-stacks serve: --workers needs a --port", file=sys.stderr)
        return 2
    # Reach (and migrate) the database once here: a bad URL stops the parent with one
    # line rather than its workers being restarted forever.
    checked = _open_storage(settings.database)
    if checked is None:
        return 2
    checked.close()
    return run_workers(args, settings, workers)


def _open_storage(database: str) -> Storage | None:
    """The storage a setting names, or None after printing why it cannot be opened."""
    from .app import open_storage  # noqa: PLC0415 - keeps `--help` fast
    from .store import StorageUnavailableError, StorageVersionError  # noqa: PLC0415

    try:
        return open_storage(database)
    except (StorageUnavailableError, StorageVersionError, ValueError, OSError, sqlite3.Error) as e:
        # One line, no traceback: the setting is wrong or the database is down.
        where = "" if isinstance(e, StorageUnavailableError) else _database_name(database)
        print(f"sequence-stacks serve: {where + ': ' if where else ''}{e}", file=sys.stderr)
        return None


def _run(uvicorn: Any, app: Any, settings: ServerSettings, port: int, args: Any) -> None:
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=port,
        log_level=str(getattr(args, "log_level", "warning")),
        ws="websockets-sansio",  # the one app.py writes to directly (one write per batch)
        ws_max_size=settings.max_message_bytes * 4,
        ws_per_message_deflate=settings.compression,
        timeout_graceful_shutdown=SHUTDOWN_TIMEOUT,
    )
    # After a graceful shutdown uvicorn raises the signal again under the handler it
    # found: this one, so the process exits with status 0 after run_serve's cleanup
    # (not killed by SIGTERM, no KeyboardInterrupt for Ctrl+C).
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, _exit_quietly)
    _handing_over(uvicorn, app)(config).run()


def _exit_quietly(signum: int, frame: object) -> None:
    raise SystemExit(0)


def _handing_over(uvicorn: Any, app: Any) -> Any:
    """uvicorn's server, with a worker's tables handed over when it is told to stop."""

    class HandingOverServer(uvicorn.Server):  # type: ignore[misc]  # uvicorn is untyped here
        async def shutdown(self, sockets: Any = None) -> None:
            """Stop accepting connections (the proxy sends them to the other workers),
            hand every owned table over (``ClusteredTableService.hand_over``: runners
            stopped, locks released, sockets closed with 1012), then shut down."""
            for server in self.servers:
                server.close()
            service = getattr(app.state, "service", None)
            hand_over = getattr(service, "hand_over", None)
            if hand_over is not None:
                try:
                    async with asyncio.timeout(SHUTDOWN_TIMEOUT):
                        await hand_over()
                except TimeoutError:
                    log.error("handing tables over took over %s s; stopping", SHUTDOWN_TIMEOUT)
            await super().shutdown(sockets)

    return HandingOverServer


def _database_name(database: str) -> str:
    """The database setting fit to print: a URL loses its password."""
    if database.startswith(("postgresql://", "postgres://")):
        from .store.postgres import describe  # noqa: PLC0415 - psycopg only when used

        return describe(database)
    return database


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port
