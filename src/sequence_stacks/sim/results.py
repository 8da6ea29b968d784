"""Simulation results: one row per game, written to CSV (default) or Parquet.

A row is a flat mapping of :data:`COLUMNS`. Per-seat figures are ``|``-joined lists
(``"2|0|1"``), so files with different player counts share one schema. Rows are keyed
by ``(config_id, game_index)`` (:func:`row_key`), which is what ``--resume`` skips.
"""

from __future__ import annotations

import csv
import importlib.util
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

__all__ = [
    "COLUMNS",
    "INT_COLUMNS",
    "SEAT_COLUMNS",
    "ResultsWriter",
    "Row",
    "has_pyarrow",
    "is_parquet",
    "read_results",
    "row_key",
    "seat_values",
]

Row = dict[str, Any]

INT_COLUMNS: Final = (
    "game_index",
    "seed",
    "player_count",
    "winner_seat",
    "turns",
    "actions",
    "reshuffles",
)
SEAT_COLUMNS: Final = (
    "chips_blue",
    "chips_red",
    "cards_played",
    "completions",
    "blocked_against",
    "blocks",
    "skips",
    "reverses",
    "steal_cards",
    "steal_chips",
)
COLUMNS: Final = (
    "config_id",
    "options",
    "game_index",
    "seed",
    "player_count",
    "bots",
    "winner_seat",
    "winner_bot",
    "reason",
    "turns",
    "actions",
    "reshuffles",
    *SEAT_COLUMNS,
)


def row_key(row: Mapping[str, Any]) -> tuple[str, int]:
    """The identity of a game in a results file: ``(config_id, game_index)``."""
    return str(row["config_id"]), int(row["game_index"])


def seat_values(row: Mapping[str, Any], column: str) -> list[int]:
    """Decode a per-seat column (``"2|0|1"``) into ints."""
    text = str(row[column])
    return [int(part) for part in text.split("|")] if text else []


def has_pyarrow() -> bool:
    """True when pyarrow (the ``sim`` extra) is installed."""
    return importlib.util.find_spec("pyarrow") is not None


def is_parquet(path: Path) -> bool:
    """True for a ``.parquet`` path."""
    return path.suffix.lower() == ".parquet"


def _typed(raw: Mapping[str, Any]) -> Row:
    row: Row = {name: raw.get(name, "") for name in COLUMNS}
    for name in INT_COLUMNS:
        row[name] = int(row[name])
    for name in ("config_id", "options", "bots", "winner_bot", "reason", *SEAT_COLUMNS):
        value = row[name]
        row[name] = "" if value is None else str(value)
    return row


def read_results(path: Path) -> list[Row]:
    """Read every row of a CSV or Parquet results file (typed; empty if missing)."""
    if not path.exists():
        return []
    if is_parquet(path):
        import pyarrow.parquet as pq  # noqa: PLC0415  (optional dependency)

        return [_typed(raw) for raw in pq.read_table(path).to_pylist()]
    with path.open(newline="", encoding="utf-8") as handle:
        return [_typed(raw) for raw in csv.DictReader(handle)]


class ResultsWriter:
    """Appends rows to a results file as games finish, so an interrupted run keeps them.

    CSV rows are written and flushed one by one. Parquet cannot be appended to, so its
    rows (the file's earlier rows included) are kept and written on :meth:`close`,
    which also runs on Ctrl-C through the context manager.
    """

    def __init__(self, path: Path, *, resume: bool = False) -> None:
        self.path = path
        self.parquet = is_parquet(path)
        if self.parquet and not has_pyarrow():
            raise RuntimeError(
                "writing Parquet needs pyarrow: pip install 'sequence-stacks[sim]' (or use .csv)"
            )
        self.previous: list[Row] = read_results(path) if resume else []
        self.rows: list[Row] = []
        self._handle: Any = None
        self._csv: Any = None
        if not self.parquet:
            append = resume and path.exists() and path.stat().st_size > 0
            path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = path.open("a" if append else "w", newline="", encoding="utf-8")
            self._csv = csv.DictWriter(self._handle, fieldnames=list(COLUMNS))
            if not append:
                self._csv.writeheader()
                self._handle.flush()

    def done_keys(self) -> set[tuple[str, int]]:
        """The keys of the rows the file already held when resumed."""
        return {row_key(row) for row in self.previous}

    def write(self, row: Mapping[str, Any]) -> None:
        """Record one finished game."""
        typed = _typed(row)
        self.rows.append(typed)
        if self._csv is not None:
            self._csv.writerow(typed)
            self._handle.flush()

    def close(self) -> None:
        """Finish the file (writes Parquet; closes CSV)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        if self.parquet:
            write_parquet(self.path, [*self.previous, *self.rows])

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_parquet(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    """Write rows to a Parquet file with the fixed :data:`COLUMNS` schema."""
    import pyarrow as pa  # noqa: PLC0415  (optional dependency)
    import pyarrow.parquet as pq  # noqa: PLC0415

    fields = [(name, pa.int64() if name in INT_COLUMNS else pa.string()) for name in COLUMNS]
    schema = pa.schema(fields)
    columns = {name: [row[name] for row in rows] for name in COLUMNS}
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table(columns, schema=schema), path)
