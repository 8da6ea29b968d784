"""Stored records map to and from their rows by field order: every column list names the
record's fields in that order, and a record survives the trip through its row."""

from __future__ import annotations

import dataclasses
import json

import pytest

from sequence_stacks.server.store import Account, GameResult, SeatLink, TableRow, postgres, sqlite
from sequence_stacks.server.store.accounts.records import (
    ACCOUNT_COLUMNS,
    RESULT_COLUMNS,
    SEAT_COLUMNS,
    account_of,
    account_values,
    result_of,
    seat_of,
)
from sequence_stacks.server.store.records import record_of, record_values, row_of, row_values


def _field_names(cls: type[object]) -> list[str]:
    return [field.name for field in dataclasses.fields(cls)]  # type: ignore[arg-type]


def test_each_column_list_names_its_records_fields_in_order() -> None:
    assert ACCOUNT_COLUMNS.split(", ") == _field_names(Account)
    assert SEAT_COLUMNS.split(", ") == _field_names(SeatLink)
    # "group" is a reserved word in SQL: its column is "grp".
    assert RESULT_COLUMNS.replace("grp", "group").split(", ") == _field_names(GameResult)
    # The tables' rows, in both databases (row_of and row_values read them by order).
    assert [name.strip() for name in sqlite._COLUMNS.split(",")] == _field_names(TableRow)
    assert [name.strip() for name in postgres._COLUMNS.split(",")] == _field_names(TableRow)


def test_an_account_survives_its_row() -> None:
    account = Account(
        "a1", "Ann", "ann", "fox", "sl", "u1", 5.0, True, "ann@example.org", True, {"sound": 0}
    )
    values = account_values(account)
    assert values == (
        "a1",
        "Ann",
        "ann",
        "fox",
        "sl",
        "u1",
        5.0,
        1,
        "ann@example.org",
        1,
        '{"sound": 0}',
    )
    assert account_of(values) == account


def test_a_seat_and_a_result_survive_their_rows() -> None:
    seat = SeatLink("t1", "h", "a1", "sealed", 2.0, my_turn=True, deadline=9.0)
    assert seat_of(record_values(seat, my_turn=int)) == seat
    result = GameResult("t1", 3, "a1", 0, 1, True, 4, "4p", False, True, 25.0, 8.0, 7.0)
    columns = record_values(result, won=int, with_bots=int, rated=int)
    assert result_of(columns) == result


def test_a_table_row_survives_its_row_with_updated_at_from_created_at() -> None:
    row = TableRow("t1", 1.5, "public", {"player_count": 4}, "playing", {"game": 2}, 3, 9.5)
    values = row_values(row)
    assert values == (
        "t1",
        1.5,
        "public",
        '{"player_count": 4}',
        "playing",
        '{"game": 2}',
        3,
        1.5,
        "{}",
    )
    assert row_of(values, json.loads) == dataclasses.replace(row, updated_at=1.5)


def test_a_converter_for_a_field_the_record_lacks_is_refused() -> None:
    row = TableRow("t1", 1.0, "public", {}, updated_at=1.0)
    with pytest.raises(TypeError, match="settngs"):
        record_values(row, settngs=json.dumps)
    columns = record_values(row)
    with pytest.raises(TypeError, match="optons"):
        record_of(TableRow, columns, optons=json.loads)
