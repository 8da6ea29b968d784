"""The lobby's public list with many tables: one page read through its index.

Run: ``python -m benchmarks.lobby [--tables 5000] [--repeat 200] [--json]``.

Fills a fresh SQLite database (in a temporary folder) with ``--tables`` public tables
(a quarter of them finished, which the list leaves out), then times, in the same
process: a page of the public list as the server reads it now (``listed_tables``:
the partial index ``tables_listed``, 51 rows) and, as the baseline, what the server
did before issue #12 (every public row read and decoded, newest first, then cut to
50). Prints milliseconds per listing for each and their ratio.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from sequence_stacks.server.store import LogEntry, SqliteStorage, TableRow

SUMMARY = {"seats": [{"kind": "empty", "name": "", "bot": None}] * 4, "game": 0}


def fill(storage: SqliteStorage, count: int) -> None:
    """Create ``count`` public tables; every fourth one has a finished game."""
    now = time.time()
    for index in range(count):
        table_id = f"t{index:06}"
        storage.create_table(
            TableRow(table_id, now - count + index, "public", {"player_count": 4}, summary=SUMMARY)
        )
        if index % 4 == 0:
            storage.append(table_id, LogEntry(1, {"op": "x"}), status="over", summary=SUMMARY)


def per_call_ms(function: object, repeat: int) -> float:
    """Milliseconds per call of ``function()``, best of three runs of ``repeat`` calls."""
    assert callable(function)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            function()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1000


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print (or dump as JSON) its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=5000, help="public tables (default 5000)")
    parser.add_argument("--repeat", type=int, default=200, help="listings per run (default 200)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        storage = SqliteStorage(str(Path(folder) / "lobby.sqlite3"))
        try:
            fill(storage, args.tables)
            since = time.time() - 10 * args.tables
            page = per_call_ms(lambda: storage.listed_tables(since=since, limit=51), args.repeat)
            scan = per_call_ms(lambda: storage.tables(visibility="public")[:50], args.repeat)
        finally:
            storage.close()
    figures = {"tables": args.tables, "page_ms": page, "full_scan_ms": scan, "ratio": scan / page}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{args.tables} public tables: a page of the list {page:.3f} ms")
        print(f"  before #12 (read every public row, then cut): {scan:.3f} ms")
        print(f"  the page is {scan / page:.0f}x faster")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
