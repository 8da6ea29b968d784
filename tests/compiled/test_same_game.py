"""The compiled engine and its Python source play the same game (issue #16).

Both cannot share one process under the same module names, so ``driver.py`` runs twice,
as installed and with ``SEQUENCE_STACKS_PURE=1``, and their streams of digests must be
equal line for line: golden records step by step, and random games at every player
count with random variant settings (legal ids of every seat, states, events, views,
clones, resampled deals, pickled copies), and bot games decision by decision. Without
a compiled engine these tests skip, except in CI, where a build that silently fell back
to pure Python fails them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sequence_stacks import ENGINE_BUILD
from sequence_stacks._native import PURE_VARIABLE, loaded_compiled

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI") == "true"
PURE_RUN = os.environ.get(PURE_VARIABLE, "") not in ("", "0")
RANDOM_GAMES = 30  # per player count, 2-6

needs_compiled = pytest.mark.skipif(
    PURE_RUN or (not ENGINE_BUILD.compiled and not IN_CI),
    reason="runs both engines itself, once is enough"
    if PURE_RUN
    else f"no compiled engine installed: {ENGINE_BUILD.reason}",
)


def _stream(*args: str, pure: bool) -> list[str]:
    env = {key: value for key, value in os.environ.items() if key != PURE_VARIABLE}
    if pure:
        env[PURE_VARIABLE] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "tests.compiled.driver", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return done.stdout.splitlines()


def _assert_same(args: tuple[str, ...]) -> int:
    compiled = _stream(*args, pure=False)
    pure = _stream(*args, pure=True)
    assert compiled[0] == "engine compiled", compiled[0]
    assert pure[0] == "engine pure", pure[0]
    for index, (line, other) in enumerate(zip(compiled[1:], pure[1:], strict=False)):
        assert line == other, f"line {index + 1} differs:\ncompiled: {line}\npure:     {other}"
    assert len(compiled) == len(pure)
    return len(compiled)


def test_the_compiled_engine_runs_when_installed() -> None:
    """In CI the build must have compiled the engine and it must be what runs (unless
    this is the pure pass); elsewhere what runs must be what ENGINE_BUILD says."""
    import sequence_stacks.bots  # noqa: PLC0415 - and every bot
    import sequence_stacks.engine  # noqa: F401, PLC0415 - loads every engine module

    engine = [f"sequence_stacks.engine.{name}" for name in ("play", "legality", "state")]
    expected = [*engine, "sequence_stacks.bots.heuristic", "sequence_stacks.bots.ismcts"]
    if IN_CI and not PURE_RUN:
        assert ENGINE_BUILD.compiled, ENGINE_BUILD.reason
    assert loaded_compiled(ENGINE_BUILD.compiled) == list(ENGINE_BUILD.compiled)
    if ENGINE_BUILD.compiled:
        assert set(expected) <= set(ENGINE_BUILD.compiled)
    else:
        assert loaded_compiled(expected) == []


def test_the_pure_variable_runs_the_source() -> None:
    """SEQUENCE_STACKS_PURE=1 runs every engine module from its .py source."""
    code = (
        "import sequence_stacks.engine, sequence_stacks as s, sys; "
        "from sequence_stacks._native import loaded_compiled; "
        "print(loaded_compiled([n for n in sys.modules if n.startswith('sequence_stacks')]))"
    )
    env = {**os.environ, PURE_VARIABLE: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


@needs_compiled
def test_golden_records_replay_alike() -> None:
    """Every golden record: same position digest and events after every action."""
    assert _assert_same(("golden",)) > 100


@needs_compiled
def test_bots_decide_alike() -> None:
    """The compiled bots (heuristic, ISMCTS) make the same decisions as their source."""
    assert _assert_same(("bots",)) > 7 * 50


@needs_compiled
def test_random_games_run_in_lockstep() -> None:
    """Random games at 2-6 players with random variant settings, compared step by step."""
    assert _assert_same(("random", str(RANDOM_GAMES), "16")) > 5 * RANDOM_GAMES * 20
