"""The terminal interface holds no rules: public engine API only, no State internals."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sequence_stacks import engine

TUI = Path(__file__).resolve().parents[2] / "src" / "sequence_stacks" / "tui"
TUI_FILES = sorted(TUI.glob("*.py"))

# What the interface may ask of a State it holds: is the game over, who acts, the result.
STATE_QUESTIONS = {"is_over", "current_player", "result"}
# Legality comes from a view's legal_action_ids or from the engine's refusal, never from
# asking the engine's legality functions directly.
FORBIDDEN_ENGINE_NAMES = {"check", "is_legal", "legal_actions", "legal_action_ids"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_the_tui_package_has_its_modules() -> None:
    names = {path.stem for path in TUI_FILES}
    assert {"app", "session", "plain", "choices", "widgets", "screens", "command"} <= names


@pytest.mark.parametrize("path", TUI_FILES, ids=lambda p: p.name)
def test_only_the_public_engine_api_is_imported(path: Path) -> None:
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            assert not node.module.startswith("sequence_stacks.engine."), node.module
            if node.module == "sequence_stacks.engine":
                for alias in node.names:
                    assert alias.name in engine.__all__, alias.name
                    assert alias.name not in FORBIDDEN_ENGINE_NAMES, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                assert not alias.name.startswith("sequence_stacks.engine"), alias.name


@pytest.mark.parametrize("path", TUI_FILES, ids=lambda p: p.name)
def test_no_state_field_is_read(path: Path) -> None:
    for node in ast.walk(_tree(path)):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
        if name in {"state", "_state"}:
            assert node.attr in STATE_QUESTIONS, f"{path.name}: .{node.attr} of a State"


@pytest.mark.parametrize("path", TUI_FILES, ids=lambda p: p.name)
def test_modules_stay_small(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) < 500


def test_only_the_session_holds_a_state() -> None:
    holders = [p.name for p in TUI_FILES if "State" in _imported_engine_names(p)]
    assert holders == ["session.py"]


def _imported_engine_names(path: Path) -> set[str]:
    return {
        alias.name
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.ImportFrom) and node.module == "sequence_stacks.engine"
        for alias in node.names
    }
