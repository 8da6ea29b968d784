"""The HTML pages, each in the reader's language (``<html lang>`` set before any
script runs), and how a reader's language is chosen.

A page's file in ``static/`` holds what is its own: its head lines (title, script,
anything more), then its ``<body>``. :func:`document` puts it in the one shell every
page shares (``static/parts/page.html``: doctype, charset, viewport, the stylesheet,
an empty icon unless the page names its own) and fills each ``<!-- part: NAME -->``
with ``static/parts/NAME.html`` (the lobby link, the language menu, the rules dialog,
the pace menu, the plain header of a page with no link home, the board's hand and its
Block answers, the field a one-time code is typed in and the box that shows one).
"""

from __future__ import annotations

import asyncio
import functools
import re
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

__all__ = [
    "LANGUAGE_COOKIE",
    "STATIC_DIR",
    "VARY",
    "document",
    "in_languages",
    "page",
    "reader_language",
    "table_page",
]

STATIC_DIR: Final = Path(__file__).resolve().parent.parent / "static"
LANGUAGE_COOKIE: Final = "lang"
VARY: Final = "Cookie, Accept-Language"
_HTML_LANG: Final = '<html lang="en"'
_PART: Final = re.compile(r"<!-- part: ([a-z]+) -->")
_DEFAULT_ICON: Final = '  <link rel="icon" href="data:,">\n'

Endpoint = Callable[[Request], Awaitable[Response]]


def reader_language(request: Request) -> str:
    """The language a page or a catalog is for: ``?lang=``, else the language menu's
    cookie, else ``Accept-Language``, else English (unknown codes are ignored)."""
    return negotiate(
        request.query_params.get("lang"),
        request.cookies.get(LANGUAGE_COOKIE),
        from_accept_language(request.headers.get("accept-language")),
    )


@functools.cache
def document(name: str) -> str:
    """The whole English document of the page ``name`` (see the module's docstring)."""
    own = (STATIC_DIR / name).read_text(encoding="utf-8")
    head, body_tag, body = own.partition("<body")
    if not body_tag:
        raise ValueError(f"{name} must have a <body>")
    shell = _read_part("page")
    if 'rel="icon"' in head:
        shell = shell.replace(_DEFAULT_ICON, "")
    own_parts = {"head": head.strip(), "body": (body_tag + body).rstrip()}
    return _filled(_PART.sub(lambda found: own_parts[found[1]], shell))


def _filled(text: str) -> str:
    """``text`` with every ``<!-- part: NAME -->`` replaced by that part, filled too."""
    return _PART.sub(lambda found: _filled(_read_part(found[1])), text)


def _read_part(name: str) -> str:
    return (STATIC_DIR / "parts" / f"{name}.html").read_text(encoding="utf-8").rstrip("\n")


def in_languages(text: str) -> dict[str, str]:
    """A document in each language: its ``<html lang>`` set to the language's code."""
    if _HTML_LANG not in text:
        raise ValueError(f"a page must start its <html> with {_HTML_LANG}")
    return {code: text.replace(_HTML_LANG, f'<html lang="{code}"', 1) for code in LANGUAGES}


def page(name: str, status: int = 200) -> Endpoint:
    """A page in the reader's language: ``<html lang>`` set before any script runs."""
    pages = in_languages(document(name))

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
