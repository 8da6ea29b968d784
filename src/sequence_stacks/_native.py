"""Which engine runs: the modules compiled by mypyc at install, or their Python source.

The install (hatch_build.py) may have compiled some engine modules and recorded them in
``_engine_build.json`` with the SHA-256 of each source. Python's import system prefers
an extension module to a ``.py`` file of the same name, so when the compiled modules
must not run this module puts a finder first on ``sys.meta_path`` that loads those
names from their ``.py`` source instead. They must not run when:

- ``SEQUENCE_STACKS_PURE`` is set (to anything but ``0`` or nothing): on purpose;
- a compiled module's source changed after the build (an editable install that was
  edited): the compiled code would play the old rules;
- some of them are missing: compiled and pure modules cannot be mixed.

Imported by ``sequence_stacks/__init__.py`` before any engine module.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PURE_VARIABLE = "SEQUENCE_STACKS_PURE"
_PACKAGE_DIR = Path(__file__).resolve().parent
_RECORD = _PACKAGE_DIR / "_engine_build.json"


@dataclasses.dataclass(frozen=True, slots=True)
class EngineBuild:
    """What the install built and what runs.

    Attributes:
        compiled: the modules that run compiled (empty: all pure Python).
        reason: one line for people: what runs and why (``sequence-stacks --version``).
        pure_forced: the pure source runs although compiled modules are installed
            (``SEQUENCE_STACKS_PURE``, stale or incomplete compiled modules).
    """

    compiled: tuple[str, ...]
    reason: str
    pure_forced: bool


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules' ``.py`` files, passing over their extension modules."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for entry in path if path is not None else sys.path:
            source = Path(entry) / leaf
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def _read_record() -> dict[str, object] | None:
    try:
        data = json.loads(_RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _changed_sources(sources: dict[str, str]) -> list[str]:
    """The compiled modules' sources that are no longer what was compiled."""
    changed = []
    root = _PACKAGE_DIR.parent
    for path, digest in sources.items():
        try:
            now = hashlib.sha256((root / path).read_bytes()).hexdigest()
        except OSError:
            now = ""
        if now != digest:
            changed.append(path)
    return changed


def _missing_extensions(names: Sequence[str]) -> list[str]:
    """The compiled modules whose extension module is not installed."""
    missing = []
    for name in names:
        folder = _PACKAGE_DIR.parent.joinpath(*name.split(".")[:-1])
        leaf = name.rpartition(".")[2]
        suffixes = importlib.machinery.EXTENSION_SUFFIXES
        if not any((folder / (leaf + suffix)).is_file() for suffix in suffixes):
            missing.append(name)
    return missing


def _pure(names: Sequence[str], reason: str) -> EngineBuild:
    sys.meta_path.insert(0, _SourceFinder(frozenset(names)))
    return EngineBuild((), reason, True)


def select_engine() -> EngineBuild:
    """Decide which engine runs (installing the source finder if need be)."""
    record = _read_record()
    if record is None:
        return EngineBuild((), "pure Python (this copy was not installed with a build)", False)
    compiled = record.get("compiled")
    names = [str(name) for name in compiled] if isinstance(compiled, list) else []
    if not names:
        error = record.get("error") or "nothing was compiled"
        return EngineBuild((), f"pure Python (the install did not compile it: {error})", False)
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return _pure(names, f"pure Python ({PURE_VARIABLE}={os.environ[PURE_VARIABLE]})")
    sources = record.get("sources")
    changed = _changed_sources(sources) if isinstance(sources, dict) else ["?"]
    if changed:
        reason = (
            f"pure Python ({', '.join(changed)} changed since it was compiled: "
            "run 'pip install -e .' again)"
        )
        return _pure(names, reason)
    missing = _missing_extensions(names)
    if missing:
        return _pure(names, f"pure Python (compiled {', '.join(missing)} missing)")
    return EngineBuild(
        tuple(names), f"compiled by mypyc {record.get('mypy')} ({len(names)} modules)", False
    )


def loaded_compiled(names: Sequence[str]) -> list[str]:
    """The modules among ``names`` that are imported as extension modules now."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [
        name
        for name in names
        if str(getattr(sys.modules.get(name), "__file__", "")).endswith(suffixes)
    ]
