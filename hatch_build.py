"""Build hook: compile the engine's hot modules with mypyc when the machine can.

Hatchling runs this for every wheel, the editable install of ``pip install -e .``
included. The modules listed in pyproject.toml (``[tool.hatch.build.targets.wheel.hooks.
custom] modules``) are compiled from their unchanged source by mypyc, in a subprocess,
into a temporary folder; a regular wheel then carries the extension modules beside the
sources, an editable install puts them into ``src/`` next to the ``.py`` files (ignored
by git). Either way ``sequence_stacks/_engine_build.json`` records what was built and
the SHA-256 of each compiled source, which ``sequence_stacks`` reads at import time to
decide whether the compiled modules may run (README, "The compiled engine").

Nothing here can fail an install: without a C compiler, without mypyc, or on any error
the hook prints one line saying so and the package installs as pure Python, which plays
the same game. ``SEQUENCE_STACKS_PURE_BUILD=1`` skips the compilation on purpose. An
editable install whose compiled modules already match their sources is not rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

RECORD = "sequence_stacks/_engine_build.json"
SHARED_LIBRARY = "sequence_stacks__mypyc"  # mypyc's group library, beside the package
TIMEOUT_S = 900

# Run in a subprocess with the build environment's Python, in src/: argv is the output
# folder, then the modules' paths relative to src/.
_COMPILE = """
import sys
from mypyc.build import mypycify
from setuptools import setup

out, paths = sys.argv[1], sys.argv[2:]
setup(
    name="sequence-stacks-engine",
    ext_modules=mypycify(paths, group_name="sequence_stacks", target_dir=out + "/c"),
    script_args=["build_ext", "--build-lib", out + "/lib", "--build-temp", out + "/tmp"],
)
"""


class EngineBuildHook(BuildHookInterface):
    """Compiles the engine with mypyc, or says in one line why the install stays pure."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Add the compiled modules to the wheel (or to ``src/`` when editable)."""
        src = Path(self.root) / "src"
        modules: list[str] = list(self.config.get("modules", []))
        record = {
            "compiled": [],
            "sources": {path: _digest(src / path) for path in modules},
            "mypy": _mypy_version(),
            "python": sysconfig.get_config_var("EXT_SUFFIX"),
            "error": None,
        }
        if version == "editable" and _up_to_date(src, record):
            return
        # Kept until finalize(): a wheel takes its forced files in after this method.
        self._temp = Path(tempfile.mkdtemp(prefix="sequence-stacks-build-"))
        built, error = _compile(src, modules, self._temp)
        record["compiled"] = [_module_name(path) for path in modules] if built else []
        record["error"] = error
        if error is not None:
            print(
                f"sequence-stacks: the engine was not compiled ({error}); "
                "installing the pure-Python engine, which plays the same game more slowly",
                file=sys.stderr,
            )
        if version == "editable":
            _install_in_place(src, self._temp, built, record)
        else:
            _add_to_wheel(build_data, self._temp, built, record)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the build's temporary folder once the wheel is written."""
        temp = getattr(self, "_temp", None)
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)


def _module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _mypy_version() -> str | None:
    try:
        from mypy.version import __version__  # noqa: PLC0415 - absent without mypyc

        return str(__version__)
    except ImportError:
        return None


def _compile(src: Path, modules: list[str], out: Path) -> tuple[list[Path], str | None]:
    """Compile ``modules``; return the built files (relative to ``out/lib``) or why not."""
    if os.environ.get("SEQUENCE_STACKS_PURE_BUILD", "") not in ("", "0"):
        return [], "SEQUENCE_STACKS_PURE_BUILD is set"
    if _mypy_version() is None:
        return [], "mypyc is not installed in the build environment"
    command = [sys.executable, "-c", _COMPILE, str(out), *modules]
    try:
        done = subprocess.run(
            command, cwd=src, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return [], f"{type(error).__name__}: {error}"
    if done.returncode != 0:
        return [], _failure(done.stderr + done.stdout) or f"exit status {done.returncode}"
    lib = out / "lib"
    built = sorted(path.relative_to(lib) for path in lib.rglob("*") if path.is_file())
    expected = {_module_name(path) for path in modules} | {SHARED_LIBRARY}
    names = {str(path).split(".")[0].replace("/", ".") for path in built}
    if names != expected:
        return [], f"mypyc built {sorted(names)}, not {sorted(expected)}"
    return built, None


def _failure(output: str) -> str:
    """The line of a failed build that says what failed (its last error, if any)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.lower().startswith("error") or "Error:" in line]
    line = (errors or lines or [""])[-1]
    return line if len(line) <= 160 else line[:157] + "..."


def _compiled_files(src: Path) -> list[Path]:
    """The extension modules an earlier editable install left in ``src``."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return [*src.glob(f"{SHARED_LIBRARY}*{suffix}"), *src.glob(f"sequence_stacks/**/*{suffix}")]


def _up_to_date(src: Path, record: dict[str, Any]) -> bool:
    """Did an earlier editable install compile exactly these sources, so alike?"""
    try:
        old = json.loads((src / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    same = all(old.get(key) == record[key] for key in ("sources", "mypy", "python"))
    wanted = sorted(_module_name(path) for path in record["sources"])
    suffix = record["python"]
    files = [src / (path.removesuffix(".py") + suffix) for path in record["sources"]]
    files.append(src / (SHARED_LIBRARY + suffix))
    present = all(path.is_file() for path in files)
    return same and sorted(old.get("compiled", [])) == wanted and present


def _install_in_place(src: Path, out: Path, built: list[Path], record: dict[str, Any]) -> None:
    """Editable install: replace the extension modules in ``src`` (none if not built)."""
    for stale in _compiled_files(src):
        stale.unlink()
    for path in built:
        shutil.copy2(out / "lib" / path, src / path)
    (src / RECORD).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")


def _add_to_wheel(
    build_data: dict[str, Any], out: Path, built: list[Path], record: dict[str, Any]
) -> None:
    """Regular wheel: ship the extension modules and the record; tag it for this Python."""
    for path in built:
        build_data["force_include"][str(out / "lib" / path)] = str(path)
    record_path = out / "record.json"
    record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    build_data["force_include"][str(record_path)] = RECORD
    if built:
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
