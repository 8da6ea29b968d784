"""The engine is pure: stdlib only, no I/O, no clock, no global random (STYLE.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "src" / "sequence_stacks" / "engine"
ENGINE_FILES = sorted(ENGINE.glob("*.py"))

# Calls that would make the engine impure: I/O, the clock, the global random generator.
FORBIDDEN_CALLS = {
    "open",
    "print",
    "input",
    "time.time",
    "time.perf_counter",
    "time.monotonic",
    "random.random",
    "random.shuffle",
    "random.choice",
    "random.randint",
    "random.randrange",
    "random.seed",
}


def _imports(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def test_engine_has_modules() -> None:
    assert len(ENGINE_FILES) >= 10


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_engine_imports_only_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    foreign = [name for name in _imports(tree) if name.split(".")[0] not in sys.stdlib_module_names]
    assert foreign == [], f"{path.name} imports non-stdlib modules {foreign}"


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_engine_makes_no_io_clock_or_global_random_calls(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = {_dotted(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    assert calls & FORBIDDEN_CALLS == set()
    assert "asyncio" not in _imports(tree)
