"""Browser tests: a real uvicorn server in a subprocess (support/server_process.py) and
Debian's chromium via Playwright."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from support.server_process import ServerProcess

__all__ = [
    "ARTIFACTS",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "FAST_BOTS",
    "NO_LIMITS",
    "ServerProcess",
    "running_server",
]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Bots that answer at once, for tests that play many moves.
FAST_BOTS = {
    "SEQUENCE_STACKS_BOT_DELAY": "0.01,0.03",
    "SEQUENCE_STACKS_BOT_BLOCK_DELAY": "0.02,0.05",
}
# No rate limit (#12) a Python-played table or a test's many tables could reach.
NO_LIMITS = {
    "SEQUENCE_STACKS_RATE_PER_SECOND": "1000",
    "SEQUENCE_STACKS_RATE_BURST": "1000",
    "SEQUENCE_STACKS_CREATE_PER_MINUTE": "1000",
    "SEQUENCE_STACKS_CREATE_BURST": "1000",
    "SEQUENCE_STACKS_SIT_PER_MINUTE": "1000",
    "SEQUENCE_STACKS_SIT_BURST": "1000",
}


@contextlib.contextmanager
def running_server(folder: Path, env: Mapping[str, str]) -> Iterator[ServerProcess]:
    """A started server process on a SQLite file in ``folder``, stopped on the way out."""
    process = ServerProcess(folder / "e2e.sqlite3", dict(env))
    process.start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server per test; no rate limit, since some tests play seats from Python at
    machine speed (a refused-for-speed message carries no id: a wait for its answer
    would only time out)."""
    env = {
        **NO_LIMITS,
        "SEQUENCE_STACKS_BOT_DELAY": "0.02,0.08",
        "SEQUENCE_STACKS_BOT_BLOCK_DELAY": "0.05,0.2",
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "3",  # a window lasts its whole time: 4.8 s relaxed
        "SEQUENCE_STACKS_TURN_TIMEOUT": "120",
        "SEQUENCE_STACKS_GRACE_PERIOD": "120",
    }
    with running_server(tmp_path, env) as process:
        yield process


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed (scripts/test installs it as root)")
        pytest.skip("Debian's chromium is not installed: apt-get install chromium")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def _close_left_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close the browser contexts a test opened and left open (also when it failed).

    The browser is one per module: a context left behind keeps its pages running (a
    page of /local its Pyodide engine, service worker and timers; a table page its
    socket) beside the module's later tests, on a machine of two cores. Contexts that
    were there before the test (a module fixture's) are left to their fixture."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser: Browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            with contextlib.suppress(Exception):  # already closed, or the browser gone
                context.close()
