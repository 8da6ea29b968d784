"""Number lists on the command line (`--players 2,3,4`, `train-value --hidden 64,32`):
one parser, each option's own words when it refuses (R5 for player counts)."""

from __future__ import annotations

import argparse

import pytest

from sequence_stacks.cli.common import number_list
from sequence_stacks.cli.simulate import player_counts_arg
from sequence_stacks.cli.train_value import _hidden


def test_player_counts_are_read_in_order_and_blank_parts_are_skipped() -> None:
    assert player_counts_arg("2,3,4") == [2, 3, 4]
    assert player_counts_arg(" 6, 2 ,") == [6, 2]


@pytest.mark.parametrize("text", ["1", "2,7", "", ","])
def test_player_counts_outside_2_to_6_are_refused_citing_r5(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"player counts must be 2-6 \(R5\)"):
        player_counts_arg(text)


def test_a_word_among_the_player_counts_is_refused_with_an_example() -> None:
    with pytest.raises(
        argparse.ArgumentTypeError, match=r"--players takes numbers like 2,3,4, not '2,x'"
    ):
        player_counts_arg("2,x")


def test_hidden_widths_are_a_tuple_within_1_to_1024() -> None:
    assert _hidden("64,32") == (64, 32)
    with pytest.raises(argparse.ArgumentTypeError, match="hidden layer widths must be 1-1024"):
        _hidden("64,0")
    with pytest.raises(argparse.ArgumentTypeError, match="--hidden takes numbers like 64 or 64,32"):
        _hidden("wide")


def test_the_bounds_are_inclusive() -> None:
    assert number_list("1,9", option="--n", example="1", low=1, high=9, bounds="no") == [1, 9]
    with pytest.raises(argparse.ArgumentTypeError, match=r"^no$"):
        number_list("10", option="--n", example="1", low=1, high=9, bounds="no")
