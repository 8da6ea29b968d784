"""The Python source the page's engine runs (#25), built from the installed package.

``/local`` plays with the package's own engine and bots in Pyodide. At start-up the
server reads their ``.py`` files from the installed package (the very files it runs
itself, compiled or not) and packs them in one zip the page's worker unpacks: so the
server and the page can never run different rules. The zip is made the same way every
time (sorted names, fixed dates), so its digest names the source: it is the zip's URL.

What goes in: the package's ``__init__.py`` and ``_native.py`` (with no build record
beside them the page runs the source), ``engine/``, ``bots/``, ``device/`` (the page's
side of the game) and, of ``i18n/``, only ``events.py`` (an event's message as data):
the rest of ``i18n`` needs Babel and the catalogs, which the page has as JSON already,
so in the zip ``i18n/__init__.py`` is a docstring alone.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import io
import zipfile
from pathlib import Path
from typing import Final

import sequence_stacks

__all__ = ["PACKAGE_DIR", "SourceBundle", "build_source_bundle"]

PACKAGE_DIR: Final = Path(sequence_stacks.__file__).resolve().parent

# Folders of the package whose every module the page runs.
_WHOLE: Final = ("engine", "bots", "device")
# Single modules the page runs besides.
_SINGLE: Final = ("__init__.py", "_native.py", "i18n/events.py")
# Packages whose own __init__ the page does not run: written as this instead.
_STUBS: Final = {
    "i18n/__init__.py": (
        '"""Words for players: in the page\'s engine, only ``events`` (messages as data)."""\n'
    ),
}
_DATE: Final = (1980, 1, 1, 0, 0, 0)


@dataclasses.dataclass(frozen=True, slots=True)
class SourceBundle:
    """The zip of the page's Python source, its digest, the files it holds and the
    modules of other packages (the standard library) they import."""

    data: bytes
    digest: str
    names: tuple[str, ...]
    imports: frozenset[str]

    @property
    def file_name(self) -> str:
        """The zip's name in URLs: its digest (the content never changes under it)."""
        return f"{self.digest[:20]}.zip"


def _sources(package: Path) -> dict[str, bytes]:
    """Each file of the bundle, by its path inside the ``sequence_stacks`` package."""
    found: dict[str, bytes] = {}
    for folder in _WHOLE:
        for path in sorted((package / folder).glob("*.py")):
            found[f"{folder}/{path.name}"] = path.read_bytes()
    for name in _SINGLE:
        found[name] = (package / name).read_bytes()
    for name, text in _STUBS.items():
        found[name] = text.encode()
    return found


def build_source_bundle(package: Path = PACKAGE_DIR) -> SourceBundle:
    """Pack the page's Python source from the package in ``package``."""
    files = _sources(package)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(f"sequence_stacks/{name}", date_time=_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name], compresslevel=9)
    data = buffer.getvalue()
    names = tuple(f"sequence_stacks/{name}" for name in sorted(files))
    imports = frozenset().union(*(_imports(source) for source in files.values()))
    return SourceBundle(data, hashlib.sha256(data).hexdigest(), names, imports)


def _imports(source: bytes) -> set[str]:
    """The absolute imports of a module's source, but its own package's and __future__."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return {name for name in found if name.partition(".")[0] not in _OWN}


_OWN: Final = frozenset({"sequence_stacks", "__future__"})
