"""The game on one device (#25): the page ``/local``, its engine's worker, the Pyodide
runtime and the Python source it runs, the service worker that keeps them for offline
play, the web app manifest, and the tutorial's answers kept for playing it offline.

Everything is made once at start-up (:func:`device_assets`): the source zip from the
installed package (:mod:`.bundle`), the runtime from npm's package (:mod:`.runtime`),
the service worker's list of what to keep and its version, a digest of all of it, so a
new release is a new service worker. See docs/server.md, "The game on one device".
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Mapping
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

import sequence_stacks
from sequence_stacks.bots import BOT_NAMES
from sequence_stacks.engine import observe
from sequence_stacks.engine.catalog import catalog
from sequence_stacks.i18n import translation
from sequence_stacks.server.play.tutorial import LEARNER, LESSONS, lesson_state, try_move
from sequence_stacks.server.play.vocabulary import server_vocabulary

from .bundle import SourceBundle, build_source_bundle
from .middleware import SITE_DIRECTIVES
from .pages import STATIC_DIR, VARY, document, in_languages, page, reader_language
from .responses import NO_STORE, cached, frozen
from .runtime import Runtime, find_runtime

__all__ = [
    "LOCAL_PAGE_POLICY",
    "WORKER_POLICY",
    "DeviceAssets",
    "device_assets",
    "device_routes",
    "tutorial_answers",
]

# The page's own policy: the site's directives (middleware.SITE_DIRECTIVES), with one
# Trusted Types policy of its own, which lets only its engine's worker and the service
# worker load as scripts (localengine.js). No WebAssembly runs in the page itself.
LOCAL_PAGE_POLICY: Final = "; ".join(
    (
        *SITE_DIRECTIVES,
        "worker-src 'self'",
        "manifest-src 'self'",
        "trusted-types sequence-stacks-local",
    )
)
# The engine's worker: the one place WebAssembly runs ('wasm-unsafe-eval' compiles the
# runtime; no other eval), its scripts and data from this origin only.
WORKER_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "require-trusted-types-for 'script'",
        "trusted-types 'none'",
    )
)
_REVALIDATE: Final = {"Cache-Control": "no-cache"}
_FOREVER: Final = {"Cache-Control": "public, max-age=31536000, immutable"}
_BUILD_MARK: Final = "/* build */"
_ICONS: Final = (
    ("icon-192.png", "192x192", "any"),
    ("icon-512.png", "512x512", "any"),
    ("icon-maskable-512.png", "512x512", "maskable"),
)
# The pages and documents kept for offline play besides the static files and the runtime.
_PAGES: Final = ("/local", "/learn", "/offline", "/")
_DOCUMENTS: Final = (
    "/local/worker.js",
    "/manifest.webmanifest",
    "/api/catalog",
    "/api/languages",
    "/api/tutorial",
    "/api/tutorial/answers",
)
_KEPT_STATIC: Final = ("*.js", "*.css", "icons/*.png")
_SERVICE_WORKER: Final = "sw.js"


@dataclasses.dataclass(frozen=True, slots=True)
class DeviceAssets:
    """What the game on one device serves, made once at start-up."""

    bundle: SourceBundle
    runtime: Runtime | None
    stdlib: str
    version: str
    service_worker: bytes
    precache: tuple[str, ...]

    @property
    def source_url(self) -> str:
        """The URL of the Python source zip (its digest in it)."""
        return f"/local/source/{self.bundle.file_name}"


@functools.cache
def tutorial_answers() -> tuple[bytes, str]:
    """Every legal move of every lesson, tried (``tutorial.try_move``): what the service
    worker answers a tutorial move with offline (the browser offers legal moves only)."""
    lessons = []
    for index in range(len(LESSONS)):
        moves = {}
        for action_id in observe(lesson_state(index), LEARNER).legal_action_ids:
            tried = try_move(index, action_id)
            moves[str(action_id)] = {
                "expected": tried.expected,
                "events": tried.events,
                "view": tried.view,
            }
        lessons.append(moves)
    return frozen({"lessons": lessons})


def _static_files() -> list[str]:
    """The static files kept for offline play (the service worker itself is not one)."""
    found = {
        path.relative_to(STATIC_DIR).as_posix()
        for pattern in _KEPT_STATIC
        for path in STATIC_DIR.glob(pattern)
    }
    found.discard(_SERVICE_WORKER)
    return sorted(found)


@functools.cache
def device_assets(runtime_dir: str = "", release: str = "") -> DeviceAssets:
    """Build everything ``/local`` serves: the source zip, the runtime (None when it is
    not installed), the list the service worker keeps and the version of it all (the
    ``release`` named in it). Made once a process: the installed files do not change
    under a running server."""
    bundle = build_source_bundle()
    runtime = find_runtime(runtime_dir or None)
    static = _static_files()
    source_url = f"/local/source/{bundle.file_name}"
    stdlib = runtime.stdlib_name(bundle.imports) if runtime is not None else ""
    runtime_urls = runtime.urls(stdlib) if runtime is not None else []
    precache = (
        *_PAGES,
        *_DOCUMENTS,
        *(f"/static/{name}" for name in static),
        *runtime_urls,
        source_url,
    )
    digest = hashlib.sha256()
    for part in (
        sequence_stacks.__version__,
        release,
        bundle.digest,
        runtime.version if runtime is not None else "no runtime",
        *precache,
    ):
        digest.update(part.encode() + b"\0")
    pages = (path.relative_to(STATIC_DIR).as_posix() for path in STATIC_DIR.glob("**/*.html"))
    for name in (*static, *pages):
        digest.update((STATIC_DIR / name).read_bytes())
    for answer in (tutorial_answers(), frozen(catalog() | server_vocabulary())):
        digest.update(answer[1].encode())
    version = digest.hexdigest()[:16]
    build = {
        "version": version,
        "precache": list(precache),
        "immutable": ["/local/runtime/", "/local/source/"],
    }
    return DeviceAssets(bundle, runtime, stdlib, version, _service_worker(build), precache)


def _service_worker(build: Mapping[str, Any]) -> bytes:
    """sw.js with its BUILD filled in (the text between the two ``/* build */`` marks)."""
    template = (STATIC_DIR / _SERVICE_WORKER).read_text(encoding="utf-8")
    head, mark, rest = template.partition(_BUILD_MARK)
    _, end, tail = rest.partition(_BUILD_MARK)
    if not (mark and end):
        raise ValueError(f"{_SERVICE_WORKER} must hold its BUILD between two {_BUILD_MARK}")
    return (head + mark + json.dumps(build) + end + tail).encode()


def _assets(request: Request) -> DeviceAssets:
    assets: DeviceAssets = request.app.state.device
    return assets


# --- the page ------------------------------------------------------------------------------


@functools.cache
def _local_pages(
    source_url: str, runtime_url: str, stdlib_url: str, first_bot: str
) -> dict[str, str]:
    """/local in each language, with where its runtime and source are, and the bots it
    offers (the server's default one first: a new seat's bot)."""
    template = document("local.html")
    filled = {
        "runtime": runtime_url,
        "stdlib": stdlib_url,
        "source": source_url,
        "bots": " ".join(sorted(BOT_NAMES, key=lambda bot: bot != first_bot)),
    }
    for name, value in filled.items():
        empty = f'<meta name="sequence-stacks-{name}" content="">'
        if empty not in template:
            raise ValueError(f"local.html must have {empty}")
        filled_in = f'<meta name="sequence-stacks-{name}" content="{value}">'
        template = template.replace(empty, filled_in)
    return in_languages(template)


async def local_page(request: Request) -> Response:
    """``/local``: the game on one device, in the reader's language, with its own policy."""
    assets = _assets(request)
    runtime = assets.runtime
    pages = _local_pages(
        assets.source_url if runtime is not None else "",
        runtime.prefix if runtime is not None else "",
        runtime.prefix + assets.stdlib if runtime is not None else "",
        request.app.state.settings.default_bot,
    )
    language = reader_language(request)
    headers = {
        **NO_STORE,
        "Content-Language": language,
        "Vary": VARY,
        "Content-Security-Policy": LOCAL_PAGE_POLICY,
    }
    return HTMLResponse(pages[language], headers=headers)


async def worker_script(request: Request) -> Response:
    """The engine's Web Worker, with the one policy that lets WebAssembly run."""
    body = (STATIC_DIR / "local-worker.js").read_bytes()
    headers = {**_REVALIDATE, "Content-Security-Policy": WORKER_POLICY}
    return Response(body, media_type="text/javascript", headers=headers)


# --- the runtime and the source ---------------------------------------------------------------


async def runtime_file(request: Request) -> Response:
    """A file of the Pyodide runtime, gzipped where that helps; kept by browsers for good."""
    runtime = _assets(request).runtime
    version, name = request.path_params["version"], request.path_params["name"]
    if runtime is None or version != runtime.version:
        return Response("no such runtime", status_code=404, headers=NO_STORE)
    try:
        found = runtime.file(name)
    except KeyError:
        return Response("no such file", status_code=404, headers=NO_STORE)
    headers = {**_FOREVER, "ETag": found.etag, "Vary": "Accept-Encoding"}
    if found.gzipped:
        if "gzip" not in request.headers.get("accept-encoding", ""):
            return Response(runtime.plain(name), media_type=found.media_type, headers=headers)
        headers["Content-Encoding"] = "gzip"
    return Response(found.body, media_type=found.media_type, headers=headers)


async def source_file(request: Request) -> Response:
    """The zip of the Python source the page runs (its digest in its name)."""
    bundle = _assets(request).bundle
    if request.path_params["name"] != bundle.file_name:
        return Response("no such source", status_code=404, headers=NO_STORE)
    headers = {**_FOREVER, "ETag": f'"{bundle.digest[:20]}"'}
    return Response(bundle.data, media_type="application/zip", headers=headers)


# --- offline ------------------------------------------------------------------------------------


async def service_worker(request: Request) -> Response:
    """``/sw.js``: the service worker of this release (its scope: the whole site)."""
    headers = {**_REVALIDATE, "ETag": f'"{_assets(request).version}"'}
    return Response(_assets(request).service_worker, media_type="text/javascript", headers=headers)


async def manifest(request: Request) -> Response:
    """The web app manifest: the game installs as an app that opens /local."""
    return cached(request, _manifest(reader_language(request)), vary=VARY)


@functools.cache
def _manifest(language: str) -> tuple[bytes, str]:
    words = translation(language)
    body = frozen(
        {
            "name": words.text("page.local.app_name"),
            "short_name": words.text("page.brand"),
            "description": words.text("local.setup.about"),
            "lang": language,
            "start_url": "/local",
            "scope": "/",
            "display": "standalone",
            "background_color": "#0f1724",
            "theme_color": "#14532d",
            "icons": [
                {"src": f"/static/icons/{name}", "sizes": size, "type": "image/png", "purpose": use}
                for name, size, use in _ICONS
            ],
        }
    )
    content, etag = body
    return content, etag


async def tutorial_answers_document(request: Request) -> Response:
    """``/api/tutorial/answers``: every legal move of every lesson, answered."""
    return cached(request, tutorial_answers())


def device_routes() -> list[BaseRoute]:
    """The routes of the game on one device and of offline play."""
    return [
        Route("/local", local_page),
        Route("/local/worker.js", worker_script),
        Route("/local/runtime/{version}/{name}", runtime_file),
        Route("/local/source/{name}", source_file),
        Route("/sw.js", service_worker),
        Route("/manifest.webmanifest", manifest),
        Route("/offline", page("offline.html")),
        Route("/api/tutorial/answers", tutorial_answers_document),
    ]
