"""The HTML pages, each in the reader's language (``<html lang>`` set before any
script runs), and how a reader's language is chosen."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from sequence_stacks.i18n import LANGUAGES, negotiate
from sequence_stacks.i18n.languages import from_accept_language
from sequence_stacks.server.play import TableService
from sequence_stacks.server.store import StorageUnavailableError

from .responses import NO_STORE

__all__ = ["LANGUAGE_COOKIE", "STATIC_DIR", "VARY", "page", "reader_language", "table_page"]

STATIC_DIR: Final = Path(__file__).resolve().parent.parent / "static"
LANGUAGE_COOKIE: Final = "lang"
VARY: Final = "Cookie, Accept-Language"
_HTML_LANG: Final = '<html lang="en"'

Endpoint = Callable[[Request], Awaitable[Response]]


def reader_language(request: Request) -> str:
    """The language a page or a catalog is for: ``?lang=``, else the language menu's
    cookie, else ``Accept-Language``, else English (unknown codes are ignored)."""
    return negotiate(
        request.query_params.get("lang"),
        request.cookies.get(LANGUAGE_COOKIE),
        from_accept_language(request.headers.get("accept-language")),
    )


def page(name: str, status: int = 200) -> Endpoint:
    """A page in the reader's language: ``<html lang>`` set before any script runs."""
    template = (STATIC_DIR / name).read_text(encoding="utf-8")
    if _HTML_LANG not in template:
        raise ValueError(f"{name} must start its <html> with {_HTML_LANG}")
    pages = {code: template.replace(_HTML_LANG, f'<html lang="{code}"', 1) for code in LANGUAGES}

    async def endpoint(request: Request) -> Response:
        language = reader_language(request)
        headers = {**NO_STORE, "Content-Language": language, "Vary": VARY}
        return HTMLResponse(pages[language], status_code=status, headers=headers)

    return endpoint


def table_page(name: str) -> Endpoint:
    """A page of one table (play or replay); a link to no table gets the "no such
    table" page with a way back to the lobby, as a 404."""
    found, missing = page(name), page("missing.html", status=404)

    async def endpoint(request: Request) -> Response:
        service: TableService = request.app.state.service
        try:
            table_id = request.path_params["table_id"]
            exists = await asyncio.to_thread(service.storage.table, table_id) is not None
        except StorageUnavailableError:
            exists = True  # the page itself will say what is wrong when it asks
        return await (found if exists else missing)(request)

    return endpoint
