"""The Pyodide runtime the page's engine runs on (#25), served from our own origin.

The install step fetches npm's ``pyodide`` package at the version and integrity
``vendor/package-lock.json`` pins (``npm ci`` in ``vendor/``: scripts/test and
scripts/run do it). The server serves the few files the page loads from it, never a
CDN: the loader (``pyodide.mjs``), the compiled runtime (``pyodide.asm.mjs`` and
``pyodide.asm.wasm``), the standard library (``python_stdlib.zip``) and the lock file,
cut down to no packages: the engine needs none. Each file is gzipped once, in memory,
and cached by the browser for good: its URL holds the runtime's version.

The same ``npm ci`` runs ``vendor/stdlib.mjs``, which writes ``vendor/build/stdlib.zip``:
only the modules of the standard library that the runtime's start and the game use,
compiled to bytecode by the runtime's own Python (docs/performance.md). When it was made
from this very runtime, :attr:`Runtime.compiled` describes it and the page loads it.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import threading
from pathlib import Path
from typing import Final

from .bundle import PACKAGE_DIR

__all__ = [
    "DEFAULT_RUNTIME_DIR",
    "RUNTIME_FILES",
    "CompiledStdlib",
    "Runtime",
    "RuntimeFile",
    "find_runtime",
]

# Where ``npm ci`` in the source tree's vendor/ puts the package (an editable install).
DEFAULT_RUNTIME_DIR: Final = PACKAGE_DIR.parent.parent / "vendor" / "node_modules" / "pyodide"

# The files the page loads, with their media types.
RUNTIME_FILES: Final = {
    "pyodide.mjs": "text/javascript",
    "pyodide.asm.mjs": "text/javascript",
    "pyodide.asm.wasm": "application/wasm",
    "python_stdlib.zip": "application/zip",
    "pyodide-lock.json": "application/json",
}
_LOCK: Final = "pyodide-lock.json"
_STDLIB: Final = "python_stdlib.zip"
_COMPILED_MEDIA_TYPE: Final = "application/zip"


@dataclasses.dataclass(frozen=True, slots=True)
class CompiledStdlib:
    """vendor/build/stdlib.zip: the standard library's modules the game uses, compiled."""

    path: Path
    name: str  # its file name in URLs: its digest in it
    modules: frozenset[str]  # the modules it holds
    known: frozenset[str]  # every module that imports with it (built in, aliases)

    def holds(self, module: str) -> bool:
        """True when ``module`` imports from it (or is built into the runtime)."""
        return module in self.modules or module in self.known


def _compiled_stdlib(directory: Path, version: str) -> CompiledStdlib | None:
    """The compiled library beside the package, if it was made from this very runtime."""
    build = directory.parent.parent / "build"
    try:
        facts = json.loads((build / "stdlib.json").read_text(encoding="utf-8"))
        source = hashlib.sha256((directory / _STDLIB).read_bytes()).hexdigest()
        data = (build / "stdlib.zip").read_bytes()
    except (OSError, ValueError):
        return None
    if facts.get("pyodide") != version or facts.get("source_sha256") != source:
        return None
    digest = hashlib.sha256(data).hexdigest()
    return CompiledStdlib(
        build / "stdlib.zip",
        f"stdlib-{digest[:16]}.zip",
        frozenset(facts.get("modules", ())),
        frozenset((*facts.get("builtins", ()), *facts.get("imported", ()))),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class RuntimeFile:
    """One file of the runtime as it is sent: its bytes (gzipped unless ``plain``)."""

    body: bytes
    media_type: str
    gzipped: bool
    etag: str


class Runtime:
    """The Pyodide package in a folder: its version and its files, served as sent."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        package = json.loads((directory / "package.json").read_text(encoding="utf-8"))
        self.version: str = package["version"]
        missing = [name for name in RUNTIME_FILES if not (directory / name).is_file()]
        if missing:
            raise FileNotFoundError(f"{directory} lacks {', '.join(missing)}")
        self.compiled = _compiled_stdlib(directory, self.version)
        self._files: dict[str, RuntimeFile] = {}
        self._lock = threading.Lock()

    @property
    def prefix(self) -> str:
        """The URL folder of the runtime's files (its version in it)."""
        return f"/local/runtime/{self.version}/"

    def stdlib_name(self, imports: frozenset[str]) -> str:
        """The standard library the page loads: the compiled one when it holds every
        module in ``imports`` (the game's source's), else the whole one."""
        compiled = self.compiled
        if compiled is not None and all(map(compiled.holds, imports)):
            return compiled.name
        return _STDLIB

    def urls(self, stdlib: str) -> list[str]:
        """The URL of every file the page loads with the standard library ``stdlib``."""
        names = [name for name in RUNTIME_FILES if name != _STDLIB]
        return [self.prefix + name for name in (*names, stdlib)]

    def file(self, name: str) -> RuntimeFile:
        """The file ``name`` as it is sent (made once; KeyError for another name)."""
        with self._lock:
            found = self._files.get(name)
            if found is None:
                found = self._files[name] = self._make(name)
        return found

    def plain(self, name: str) -> bytes:
        """The file ``name`` as it is, for a browser that takes no gzip."""
        compiled = self.compiled
        if compiled is not None and name == compiled.name:
            return compiled.path.read_bytes()
        if name not in RUNTIME_FILES:
            raise KeyError(name)
        data = (self.directory / name).read_bytes()
        return _no_packages(data) if name == _LOCK else data

    def _make(self, name: str) -> RuntimeFile:
        data = self.plain(name)
        media_type = RUNTIME_FILES.get(name, _COMPILED_MEDIA_TYPE)
        etag = '"' + hashlib.sha256(data).hexdigest()[:20] + '"'
        if name.endswith(".zip"):  # compressed already: sent as it is
            return RuntimeFile(data, media_type, False, etag)
        return RuntimeFile(gzip.compress(data, compresslevel=9, mtime=0), media_type, True, etag)


def _no_packages(lock: bytes) -> bytes:
    """The lock file with its runtime facts and no packages: nothing more to load."""
    data = json.loads(lock)
    return json.dumps({"info": data["info"], "packages": {}}).encode()


def find_runtime(directory: str | Path | None = None) -> Runtime | None:
    """The runtime in ``directory`` (default: the source tree's vendor/), or None when
    it is not installed there (``/local`` then says the game on one device is not
    available on this server)."""
    path = Path(directory) if directory else DEFAULT_RUNTIME_DIR
    try:
        return Runtime(path)
    except (OSError, ValueError, KeyError):
        return None
