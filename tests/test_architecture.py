"""The engine is pure: stdlib only, no I/O, no clock, no global random (STYLE.md); and
its closed vocabularies are used by name everywhere else (STYLE principle 13)."""

from __future__ import annotations

import ast
import importlib
import itertools
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


# --- Closed vocabularies stay the engine's (STYLE principle 13, issue #13) ---------------

PACKAGE = ENGINE.parent
ADAPTER_FILES = sorted(p for p in PACKAGE.rglob("*.py") if ENGINE not in p.parents)
# Names and attributes that hold a phase, an action id, a card id or a card kind; an
# attribute called ``type`` is an action's type.
_VOCABULARY_SUFFIXES = ("phase", "action_id", "card", "kind")


def _identifier(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _holds_vocabulary(node: ast.expr) -> bool:
    name = _identifier(node)
    if name is None:
        return False
    return (isinstance(node, ast.Attribute) and name == "type") or name.lower().endswith(
        _VOCABULARY_SUFFIXES
    )


def _is_literal(node: ast.expr, types: tuple[type, ...]) -> bool:
    """A literal of ``types`` (a negative number too), or a tuple/list/set of them."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Constant):
        return isinstance(node.value, types) and not isinstance(node.value, bool)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_is_literal(item, types) for item in node.elts)
    return False


def _bare_comparisons(tree: ast.AST) -> list[str]:
    """Comparisons of a phase, action id, action type, card or kind to a bare literal: an
    int for all of them (``kind < 12``, ``action_id in (0, 1)``), a string for a phase
    (``view.phase == "over"``)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for left, right in itertools.pairwise(sides):
            for named, other in ((left, right), (right, left)):
                if not _holds_vocabulary(named):
                    continue
                is_phase = (_identifier(named) or "").lower().endswith("phase")
                if _is_literal(other, (int, str) if is_phase else (int,)):
                    found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def _private_engine_imports(tree: ast.AST) -> list[str]:
    """Imports of engine names that are not public: a ``_name``, or a name the engine
    module it comes from does not list in ``__all__``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        if node.module != "sequence_stacks.engine" and not node.module.startswith(
            "sequence_stacks.engine."
        ):
            continue
        public = set(getattr(importlib.import_module(node.module), "__all__", ()))
        found += [
            f"line {node.lineno}: {alias.name} from {node.module}"
            for alias in node.names
            if alias.name.startswith("_") or alias.name not in public
        ]
    return found


def _engine_constant_names() -> set[str]:
    engine = importlib.import_module("sequence_stacks.engine")
    names = {name for name in engine.__all__ if name.isupper()}
    return names | {member.name for member in engine.Phase} | {"PHASE_NAMES", "END_REASONS"}


def _copied_engine_constants(tree: ast.Module) -> list[str]:
    """Module-level constants named like an engine constant and set to a literal (a
    private copy of the engine's vocabulary, e.g. ``BLOCK_WINDOW = 1``)."""
    names = _engine_constant_names()
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if not _is_literal(value, (int, str)):
            continue
        named = [t for t in targets if isinstance(t, ast.Name) and t.id in names]
        found += [f"line {node.lineno}: {ast.unparse(node)}" for _ in named]
    return found


def test_the_vocabulary_checks_catch_what_they_are_for() -> None:
    """Each check finds the mistakes it exists for (so a passing scan means something)."""
    bad = ast.parse(
        "from typing import Final\n"
        "from sequence_stacks.engine.state import PLAYING\n"
        "from sequence_stacks.engine import _SCARD\n"
        "BLOCK_WINDOW: Final = 1\n"
        "PASS_ID = 0\n"
        "if state.phase == 1 or view.phase == 'block_window' or kind < 12: pass\n"
        "if action.type in (0, 1) or action_id == 2 or CARD == 15 or -1 == top_kind: pass\n"
    )
    assert len(_bare_comparisons(bad)) == 7
    assert len(_private_engine_imports(bad)) == 2
    assert len(_copied_engine_constants(bad)) == 2
    good = ast.parse(
        "from sequence_stacks.engine import Phase, PASS_ID\n"
        "from sequence_stacks.engine.events import CardPlayed\n"
        "if state.phase == Phase.BLOCK_WINDOW or action_id == PASS_ID: pass\n"
        "if kind_colour(kind) < 0 or message_kind == 'ping' or len(cards) == 0: pass\n"
    )
    assert _bare_comparisons(good) == _private_engine_imports(good) == []
    assert _copied_engine_constants(good) == []


@pytest.mark.parametrize("path", ADAPTER_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_outside_the_engine_compares_engine_vocabulary_to_a_literal(
    path: Path,
) -> None:
    """Phases, action ids and types, cards and kinds are compared to the engine's names
    (``Phase.BLOCK_WINDOW``, ``PASS_ID``, ``ActionType.PLAY``, ``Kind.BLOCK``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _bare_comparisons(tree) == []


@pytest.mark.parametrize("path", ADAPTER_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_outside_the_engine_imports_or_copies_private_engine_constants(
    path: Path,
) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _private_engine_imports(tree) == []
    assert _copied_engine_constants(tree) == []


# Issue #23: no module over 500 lines, no class over 300. Message data is exempt: the
# catalogue of every message key in one place is read as a table, not as code.
SOURCE = ENGINE.parent
MODULE_LINES = 500
CLASS_LINES = 300
MESSAGE_DATA = {SOURCE / "i18n" / "messages.py"}
SOURCE_FILES = sorted(path for path in SOURCE.rglob("*.py") if path not in MESSAGE_DATA)


def _too_long(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(SOURCE) if path.is_relative_to(SOURCE) else path.name
    found = []
    lines = text.count("\n")
    if lines > MODULE_LINES:
        found.append(f"{name}: {lines} lines (over {MODULE_LINES})")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
            length = node.end_lineno - node.lineno + 1
            if length > CLASS_LINES:
                found.append(f"{name}: class {node.name} has {length} lines")
    return found


def test_no_module_or_class_is_too_long() -> None:
    assert len(SOURCE_FILES) > 100
    found = [problem for path in SOURCE_FILES for problem in _too_long(path)]
    assert found == []


def test_the_length_check_finds_a_long_module_and_a_long_class(tmp_path: Path) -> None:
    body = "\n".join(f"    a{index} = {index}" for index in range(CLASS_LINES))
    long_class = tmp_path / "long_class.py"
    long_class.write_text(f"class Long:\n{body}\n", encoding="utf-8")
    long_module = tmp_path / "long_module.py"
    long_module.write_text("x = 1\n" * (MODULE_LINES + 1), encoding="utf-8")
    short = tmp_path / "short.py"
    short.write_text("class Short:\n    a = 1\n", encoding="utf-8")
    assert len(_too_long(long_class)) == 1
    assert len(_too_long(long_module)) == 1
    assert _too_long(short) == []
