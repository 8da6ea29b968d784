"""The game on one device (#25) in Chromium: how fast ``/local`` starts and how fast its
bots think in the page, against the targets of issue #25 (docs/performance.md).

Run: ``python benchmarks/local_speed.py [--runs N] [--moves M] [--json FILE]``
(needs the Pyodide runtime, ``scripts/vendor``, and Debian's chromium).

A real server (``python -m sequence_stacks.server`` on a scratch SQLite file) and
Playwright driving Debian's chromium at /usr/bin/chromium, as the browser tests do.
For each of ``--runs`` fresh browser contexts (an empty cache, no service worker):

1. **Cold start**: ``/local`` opened; the time from the navigation's start until the
   engine in the page has started (Pyodide, the standard library, the game's source)
   and the setup's Start button answers, plus the time from a click on Start (two
   people) until the table waits for the first person (the hand-off screen). The time
   spent filling the form is not counted: a person does that while the engine starts.
2. **Bytes** of that first visit: every response's body and headers as sent (gzipped
   where the server gzips), the page's, its Web Worker's and its service worker's
   (which keeps the page's files and the runtime for offline play), by URL.
3. **Warm start**: once the service worker controls the page, a reload with the game in
   progress: from the navigation's start until the game is back and waits for a person.
4. **Bot move**: in that page, ``--moves`` moves of four ``heuristic`` bots through the
   page's engine (the Web Worker): the bot's own thinking (``think_ms``, measured in
   Python) and the whole request as the page sees it (the thinking, the save, the view
   and the messages to and from the worker).

Medians over the runs are compared with the targets: cold ≤ 4 s, warm ≤ 1.5 s, a bot
move ≤ 50 ms. The Pyodide packages loaded (none expected) are listed from the runtime.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from playwright.sync_api import Browser, BrowserContext, Page, Request, sync_playwright
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

CHROMIUM: Final = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS: Final = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE: Final = {"width": 390, "height": 844}
TARGETS: Final = {"cold_ms": 4000.0, "warm_ms": 1500.0, "bot_move_ms": 50.0}
START_TIMEOUT: Final = 30.0

_READY: Final = """async () => {
  for (;;) { const s = window.sequenceStacks; if (s && s.ready()) break;
             await new Promise((r) => setTimeout(r, 5)); }
  const booted = await window.sequenceStacks.ready();
  return { at: performance.now(), booted };
}"""
# The page waits for a person: the hand-off screen, or a person's turn with its hand.
_WAITING: Final = """async () => {
  const shown = (selector) => {
    const el = document.querySelector(selector);
    return el && !el.hidden;
  };
  for (;;) {
    const s = window.sequenceStacks;
    if (s && s.game && !s.game.busy && s.game.view && (shown("#handoff") || shown("#hint")))
      return performance.now();
    await new Promise((r) => setTimeout(r, 5));
  }
}"""
_CONTROLLED: Final = """async () => {
  await navigator.serviceWorker.ready;
  for (;;) { if (navigator.serviceWorker.controller) return true;
             await new Promise((r) => setTimeout(r, 20)); }
}"""
# Moves of bots in the page's engine: each request's time as the page sees it.
_BOT_MOVES: Final = """async ({ moves, seed }) => {
  const ask = window.sequenceStacks.ask;
  const players = [1, 2, 3, 4].map((n) => ({ name: `Bot ${n}`, bot: "heuristic" }));
  const found = { think: [], whole: [], games: 0 };
  let answer = null;
  while (found.whole.length < moves) {
    if (!answer || answer.view.result) {
      answer = await ask({ op: "new", players, seed: seed + found.games });
      found.games += 1;
    }
    const seat = answer.view.deciders[0];
    const started = performance.now();
    answer = await ask({ op: "bot", seat });
    found.whole.push(performance.now() - started);
    if (answer.error || answer.refused) throw new Error(JSON.stringify(answer));
    found.think.push(answer.think_ms);
  }
  return found;
}"""
# The service worker's copies and the engine's bytecode are kept.
_KEPT: Final = """async () => {
  const kept = async (name) => (await (await caches.open(name)).keys()).length > 0;
  for (;;) {
    const names = await caches.keys();
    const bytecode = "sequence-stacks-bytecode";
    const copies = names.filter((n) => n.startsWith("sequence-stacks-") && n !== bytecode);
    if (copies.length && (await kept(copies[0])) && (await kept(bytecode))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}"""
_PACKAGES: Final = """async () => {
  const runtime = document.querySelector('meta[name="sequence-stacks-runtime"]').content;
  const lock = await (await fetch(runtime + "pyodide-lock.json")).json();
  return Object.keys(lock.packages ?? {});
}"""


@dataclass
class Run:
    """One fresh browser context's figures."""

    ready_ms: float = 0.0  # navigation start -> the engine started, Start answers
    start_ms: float = 0.0  # click on Start -> the table waits for the first person
    cold_ms: float = 0.0  # the two above
    warm_ms: float = 0.0  # a reload, cached by the service worker -> the game is back
    booted: dict[str, Any] = field(default_factory=dict)  # the engine's own times, cold
    warm_booted: dict[str, Any] = field(default_factory=dict)  # and warm
    bytes_total: int = 0
    bytes_by_url: dict[str, int] = field(default_factory=dict)
    requests: int = 0
    think_ms: list[float] = field(default_factory=list)
    whole_ms: list[float] = field(default_factory=list)
    games: int = 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def running_server(folder: Path) -> Iterator[str]:
    """``python -m sequence_stacks.server`` on a scratch database: its URL."""
    port = free_port()
    command = [sys.executable, "-m", "sequence_stacks.server", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--db", str(folder / "speed.sqlite3")]
    url = f"http://127.0.0.1:{port}"
    with (folder / "server.log").open("ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=log, env=dict(os.environ))
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((folder / "server.log").read_text(errors="replace")[-2000:])
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{url}/api/health", timeout=1) as answer,
            ):
                if answer.status == 200:
                    break
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


def count_bytes(context: BrowserContext, run: Run) -> None:
    """Add every finished response's bytes (body and headers as sent) to ``run``."""

    def finished(request: Request) -> None:
        sizes = request.sizes()
        sent = sizes["responseBodySize"] + sizes["responseHeadersSize"]
        path = request.url.split("://", 1)[-1].split("/", 1)[-1]
        run.bytes_by_url["/" + path] = run.bytes_by_url.get("/" + path, 0) + sent
        run.bytes_total += sent
        run.requests += 1

    context.on("requestfinished", finished)


def set_up_two_people(page: Page) -> float:
    """Fill the setup with two people and click Start; the click's time (page clock)."""
    page.wait_for_selector("#players li")
    while page.locator("#players li").count() > 2:
        page.locator("#players li .remove").last.click()
    while page.locator("#players li").count() < 2:
        page.click("#add-player")
    for index, name in enumerate(("Ann", "Ben")):
        row = page.locator("#players li").nth(index)
        row.locator("select").select_option("")
        row.locator("input").fill(name)
    clicked: float = page.evaluate("performance.now()")
    page.click("#start")
    return clicked


def one_run(browser: Browser, url: str, moves: int, seed: int) -> Run:
    run = Run()
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    try:
        count_bytes(context, run)
        page = context.new_page()
        page.goto(f"{url}/local")
        ready = page.evaluate(_READY)
        run.ready_ms, run.booted = ready["at"], ready["booted"]
        clicked = set_up_two_people(page)
        run.start_ms = page.evaluate(_WAITING) - clicked
        run.cold_ms = run.ready_ms + run.start_ms
        page.evaluate(_CONTROLLED)
        page.wait_for_load_state("networkidle")
        # The service worker's install (its copies of the page and the runtime) is part
        # of the first visit: wait until its cache holds what it keeps, and the engine's
        # the bytecode it compiled from the source (kept once the page is idle).
        page.evaluate(_KEPT)
        page.reload()
        run.warm_booted = page.evaluate(_READY)["booted"]
        run.warm_ms = page.evaluate(_WAITING)
        found = page.evaluate(_BOT_MOVES, {"moves": moves, "seed": seed})
        run.think_ms, run.whole_ms, run.games = found["think"], found["whole"], found["games"]
    finally:
        context.close()
    return run


def packages_loaded(browser: Browser, url: str) -> list[str]:
    """The packages the page's runtime could load (its lock file as served)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{url}/local")
        page.evaluate(_READY)
        found: list[str] = page.evaluate(_PACKAGES)
        return found
    finally:
        context.close()


def report(runs: list[Run], packages: list[str], console: Console) -> dict[str, Any]:
    median = statistics.median
    first = runs[0]
    think = [value for run in runs for value in run.think_ms]
    whole = [value for run in runs for value in run.whole_ms]
    figures = {
        "cold_ms": median(run.cold_ms for run in runs),
        "ready_ms": median(run.ready_ms for run in runs),
        "start_ms": median(run.start_ms for run in runs),
        "warm_ms": median(run.warm_ms for run in runs),
        "bot_think_ms": median(think),
        "bot_move_ms": median(whole),
        "bot_move_p90_ms": statistics.quantiles(whole, n=10)[-1],
        "bytes_first_visit": median(run.bytes_total for run in runs),
        "requests_first_visit": median(run.requests for run in runs),
    }
    table = Table(title="/local in Chromium (medians over the runs)")
    table.add_column("what")
    table.add_column("measured", justify="right")
    table.add_column("target", justify="right")
    table.add_column("met")

    def row(name: str, value: float, target: float | None) -> None:
        met = "" if target is None else ("yes" if value <= target else "NO")
        shown = "" if target is None else f"≤ {target:,.0f} ms"
        table.add_row(name, f"{value:,.1f} ms", shown, met)

    row("cold start: engine ready", figures["ready_ms"], None)
    row("cold start: Start -> table", figures["start_ms"], None)
    row("cold start to a playable table", figures["cold_ms"], TARGETS["cold_ms"])
    row("warm start (service worker)", figures["warm_ms"], TARGETS["warm_ms"])
    row("heuristic bot: thinking", figures["bot_think_ms"], None)
    row("heuristic bot: whole move", figures["bot_move_ms"], TARGETS["bot_move_ms"])
    row("heuristic bot: whole move, 90th pct", figures["bot_move_p90_ms"], None)
    console.print(table)
    console.print(
        f"first visit: {figures['bytes_first_visit'] / 1e6:.2f} MB in "
        f"{figures['requests_first_visit']:.0f} responses; bot moves measured: {len(whole)}; "
        f"Pyodide packages the runtime offers: {packages or 'none'}; "
        f"engine boot, cold: {first.booted}; warm: {first.warm_booted}"
    )
    biggest = sorted(first.bytes_by_url.items(), key=lambda item: -item[1])[:10]
    for path, size in biggest:
        console.print(f"  {size / 1e3:10,.1f} kB  {path}")
    return {
        "figures": figures,
        "targets": TARGETS,
        "packages": packages,
        "runs": [asdict(run) for run in runs],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="fresh browser contexts (default 3)")
    parser.add_argument("--moves", type=int, default=60, help="bot moves per run (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="the bots' first game's seed")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    options = parser.parse_args(argv)
    console = Console()
    if not Path(CHROMIUM).exists():
        console.print("Debian's chromium is not installed: apt-get install chromium")
        return 2
    runs: list[Run] = []
    with (
        tempfile.TemporaryDirectory() as scratch,
        running_server(Path(scratch)) as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            with Progress(console=console, transient=True) as progress:
                task = progress.add_task("fresh browser contexts", total=options.runs)
                for index in range(options.runs):
                    seed = options.seed + 1000 * index
                    runs.append(one_run(browser, url, options.moves, seed))
                    progress.advance(task)
            packages = packages_loaded(browser, url)
        finally:
            browser.close()
    found = report(runs, packages, console)
    if options.json:
        options.json.write_text(json.dumps(found, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
