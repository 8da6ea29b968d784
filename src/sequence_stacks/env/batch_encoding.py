"""Encode K states, each for one seat, as the rows of one ``[K, D]`` array (numpy).

:class:`BatchEncoder` is the batched environment's encoder
(:class:`~sequence_stacks.env.vector.SequenceStacksVectorEnv`). Row ``k`` is exactly
``encoder_for(settings).encode(observe(states[k], seats[k]))`` and mask row ``k`` its
``mask``. Unlike :class:`~sequence_stacks.env.encoding.ObservationEncoder` it reads the
states, not views: building a :class:`~sequence_stacks.engine.View` costs more than a
whole batched step. It reads only what :func:`~sequence_stacks.engine.observe` shows the
seat: its own hand; the pool, special pile, sequence piles, discard piles and known
cards (all public, R34); the sizes of the other hands and of the draw pile; chips,
supply, counters, the Block window and the result. It never reads the draw pile's cards
or another hand's cards: the unseen counts are the deck's counts minus the seen ones
(R35, R36). Tests hold it to the single-game encoding and to the hidden-card
permutation test (tests/env/test_vector.py); docs/rl.md describes how it is fast.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Sequence
from itertools import chain
from typing import Final

import numpy as np
import numpy.typing as npt

from sequence_stacks.engine import (
    CARD_KIND,
    Phase,
    Settings,
    State,
    deck_for,
    legal_action_ids,
)

from .encoding import KIND_COUNT, FloatArray, MaskArray, encoder_for

__all__ = ["BatchEncoder", "ByteArray", "IntArray"]

IntArray = npt.NDArray[np.int64]
ByteArray = npt.NDArray[np.uint8]

_PLAYING: Final = Phase.PLAYING
_BLOCK_WINDOW: Final = Phase.BLOCK_WINDOW
_BYTE: Final = 256
_ONE: Final = np.float32(1.0)  # np.add.at's fast path needs the array's own type
_INT_FIELDS: Final = 10  # per game: draw size, direction, skips, turn plays, turn count,
# phase, current seat, stall mask, supply blue, supply red (in this order; see _gather)
_DRAW, _DIRECTION, _SKIPS, _PLAYS, _TURNS, _PHASE, _CURRENT, _STALL, _SUPPLY = range(9)


@dataclasses.dataclass(frozen=True, slots=True)
class _Gathered:
    """What one pass over the games collects (references to the states' lists)."""

    lists: list[list[int]]  # per game: own hand, pool, special, pile slots, discards
    known: list[list[int]]  # per game: each seat's known cards (R25)
    hands: list[list[int]]  # per game: every hand, for its size only
    chips: list[list[int]]  # per game: each seat's chips
    ints: list[int]  # per game: the _INT_FIELDS numbers
    odd: list[int]  # the games outside the playing phase


def _gather(states: Sequence[State], seats: Sequence[int]) -> _Gathered:
    """Collect, in one loop, everything of each state that its seat's view shows."""
    if len(states) != len(seats):
        raise ValueError(f"one seat per state: {len(states)} states, {len(seats)} seats")
    found = _Gathered([], [], [], [], [], [])
    lists, known, hands, chips, ints = (
        found.lists,
        found.known,
        found.hands,
        found.chips,
        found.ints,
    )
    playing = _PLAYING
    # List displays, not tuples: a star in a list display builds no extra tuple.
    for index, (state, seat) in enumerate(zip(states, seats)):  # noqa: B905 - checked above
        lists += [state.hands[seat], state.pool, state.special, *state.piles, *state.discards]
        known += state.known
        hands += state.hands  # for their sizes only
        chips += state.chips
        ints += [
            len(state.draw),
            state.direction,
            state.pending_skips,
            state.turn_actions,
            state.turn_count,
            state.phase,
            state.current,
            state.stall_mask,
            *state.supply,
        ]
        if state.phase is not playing:
            found.odd.append(index)
    return found


class BatchEncoder:
    """Encodes K states, each for one seat, as the rows of one ``[K, D]`` array.

    Row ``k`` equals ``encoder_for(settings).encode(observe(states[k], seats[k]))`` and
    mask row ``k`` equals its ``mask``; only what that view holds is read (see the
    module's docstring). Built once per settings; :meth:`encode` writes into given
    arrays and returns the legal action ids of each game.
    """

    def __init__(self, settings: Settings) -> None:
        encoder = encoder_for(settings)
        self.settings = settings
        self.encoder = encoder
        self.size = encoder.size
        self.action_count = encoder.action_count
        # Card ids, list sizes and action ids go through bytes: check they fit.
        if len(CARD_KIND) > _BYTE or self.action_count > _BYTE:
            raise ValueError("card and action ids must fit in a byte for the batched encoder")
        count = settings.player_count
        self._count = count
        rel = [[(other - seat) % count for other in range(count)] for seat in range(count)]
        order = [[(seat + r) % count for r in range(count)] for seat in range(count)]
        self._rel: IntArray = np.array(rel, np.int64)
        self._order: IntArray = np.array(order, np.int64)
        self._rel_rows = tuple(tuple(row) for row in rel)
        self._prepare_zones(count, 2 * settings.piles_per_colour, rel)
        self._prepare_scalars(count, order)
        self._prepare_ones(2 * settings.piles_per_colour)

    def _prepare_zones(self, count: int, slots: int, rel: list[list[int]]) -> None:
        """Precompute, per observer seat, the kind-count zone of each gathered list."""
        # Card lists gathered per game, in absolute seat order: own hand, pool, special,
        # each pile slot, the discard pile of each seat. (Known cards, none in most
        # games, are gathered apart: see _known_positions.)
        self._list_count = 3 + slots + count
        self._pile_lists = slice(3, 3 + slots)
        self._discard_lists = slice(3 + slots, 3 + slots + count)
        zones = [
            [0, 1, 2, *([3] * slots), *(4 + count + r for r in rel[seat])] for seat in range(count)
        ]
        self._zone_starts: IntArray = KIND_COUNT * np.array(zones, np.int64)
        self._seen_stop = self.encoder.pieces["unseen_kinds"].start
        settings = self.settings
        deck = deck_for(count, keep_two_player_reverses=settings.two_player_reverses)
        copies = np.zeros(KIND_COUNT, np.float32)
        np.add.at(copies, [CARD_KIND[card] for card in deck], _ONE)
        self._copies = copies
        self._kind_bytes = bytes(CARD_KIND) + bytes(_BYTE - len(CARD_KIND))

    def _prepare_ones(self, slots: int) -> None:
        """Precompute where the one-hot pieces start."""
        pieces = self.encoder.pieces
        self._ones_start = pieces["pile_counts"].start
        self._pile_bases = pieces["pile_counts"].start + 6 * np.arange(slots)
        self._top_bases = pieces["discard_top"].start + (KIND_COUNT + 1) * self._rel
        self._phase = pieces["phase"].start
        self._current = pieces["current"].start
        self._stalled = pieces["stalled"].start
        self._seat = pieces["seat"].start
        self._completer = pieces["window_completer"].start
        self._window_pile = pieces["window_pile"].start
        self._pending = pieces["window_pending"].start
        self._answer = pieces["my_answer"].start
        self._winner = pieces["winner"].start

    def _prepare_scalars(self, count: int, order: list[list[int]]) -> None:
        """Precompute, per observer seat, where each number of the scalar pieces comes
        from in the matrix of gathered numbers (see :meth:`_numbers`)."""
        lists = self._list_count
        hands = lists
        chips = lists + count
        ints = lists + 3 * count
        columns = []
        for seat in range(count):
            row = [3 + 2 * self.settings.piles_per_colour + o for o in order[seat]]
            row += [hands + o for o in order[seat]]
            for o in order[seat]:
                row += [chips + 2 * o, chips + 2 * o + 1]
            row += [ints + _SUPPLY, ints + _SUPPLY + 1, ints + _SUPPLY]  # supply, unlimited
            row += [ints + _DRAW, 1, ints + _DIRECTION, ints + _SKIPS, ints + _PLAYS]
            row.append(ints + _TURNS)
            columns.append(row)
        self._scalar_columns: IntArray = np.array(columns, np.int64)
        pieces = self.encoder.pieces
        self._scalar_start = pieces["discard_sizes"].start
        self._scalar_stop = pieces["turn_progress"].stop
        width = self._scalar_stop - self._scalar_start
        assert width == len(columns[0])
        self._supply_at = pieces["supply"].start - self._scalar_start
        self._unlimited_at = pieces["supply_unlimited"].start - self._scalar_start
        self._reversed_at = pieces["reversed"].start - self._scalar_start
        self._progress_at = pieces["turn_progress"].start - self._scalar_start
        self._unlimited = self.settings.chip_supply is None
        self._max_turns = float(self.settings.max_turns)

    def encode(
        self,
        states: Sequence[State],
        seats: Sequence[int],
        observations: FloatArray,
        masks: MaskArray,
    ) -> list[list[int]]:
        """Write each state's observation for its seat into ``observations[k]`` and its
        action mask into ``masks[k]``; return each seat's legal action ids.

        ``observations`` must be a C-contiguous float32 array ``[K, D]`` and ``masks`` a
        C-contiguous int8 array ``[K, A]`` (they are written through flat views).
        """
        self._check_outputs(len(states), observations, masks)
        legal = list(map(legal_action_ids, states, seats))
        found = _gather(states, seats)
        games = len(states)
        seat_array = np.fromiter(seats, np.int64, games)
        # Card ids and list lengths fit in a byte (a deck has 120 cards at most).
        lengths = np.frombuffer(bytes(map(len, found.lists)), np.uint8)
        card_bytes = bytes(functools.reduce(operator.iadd, found.lists, []))
        # One byte more, so that the discard-top lookup of an empty pile stays in range.
        kinds = np.frombuffer(card_bytes.translate(self._kind_bytes) + b"\0", np.uint8)
        numbers = self._numbers(games, lengths, found)
        self._kind_counts(seat_array, lengths, kinds, found.known, observations)
        self._scalars(seat_array, numbers, observations)
        self._ones(seat_array, numbers, lengths, kinds, observations)
        if found.odd:
            ones = [
                index * self.size + position
                for index in found.odd
                for position in self._window_and_result(states[index], seats[index])
            ]
            observations.reshape(-1)[ones] = 1.0
        self._masks(legal, masks)
        return legal

    def _check_outputs(self, games: int, observations: FloatArray, masks: MaskArray) -> None:
        for name, array, dtype, width in (
            ("observations", observations, np.float32, self.size),
            ("masks", masks, np.int8, self.action_count),
        ):
            if array.shape != (games, width) or array.dtype != dtype:
                raise ValueError(
                    f"{name} must be a {np.dtype(dtype).name} array of shape "
                    f"{(games, width)}, not {array.dtype} {array.shape}"
                )
            if not array.flags.c_contiguous:
                raise ValueError(f"{name} must be C-contiguous (it is written through a flat view)")

    def _numbers(self, games: int, lengths: ByteArray, found: _Gathered) -> IntArray:
        """Return one row of numbers per game: list lengths, hand sizes, chips, ints."""
        count = self._count
        chips = chain.from_iterable(found.chips)
        return np.concatenate(
            (
                lengths.reshape(games, self._list_count),
                np.frombuffer(bytes(map(len, found.hands)), np.uint8).reshape(games, -1),
                np.fromiter(chips, np.int64, games * 2 * count).reshape(games, -1),
                np.fromiter(found.ints, np.int64, games * _INT_FIELDS).reshape(games, -1),
            ),
            axis=1,
        )

    def _kind_counts(
        self,
        seats: IntArray,
        lengths: ByteArray,
        kinds: ByteArray,
        known: list[list[int]],
        out: FloatArray,
    ) -> None:
        """Count every seen zone's cards per kind straight into ``out``; unseen = deck -
        seen. (``np.add.at`` adds in place, where ``np.bincount`` would allocate half a
        megabyte a call, and fresh pages cost more than the counting.)"""
        games = len(seats)
        stop = self._seen_stop
        starts = self._zone_starts[seats] + (self.size * np.arange(games))[:, None]
        index = np.repeat(starts.ravel(), lengths)
        index += kinds[:-1]
        out[:, :stop] = 0.0
        flat = out.reshape(-1)
        np.add.at(flat, index, _ONE)
        known_sizes = bytes(map(len, known))
        if known_sizes.count(0) != len(known_sizes):
            np.add.at(flat, self._known_positions(known, known_sizes, seats), _ONE)
        zones = out[:, :stop].reshape(games, -1, KIND_COUNT)
        # Own known cards are in the hand already: count them once.
        seen = np.einsum("kzj->kj", zones) - zones[:, 4]  # einsum: 3x faster than sum
        out[:, stop : stop + KIND_COUNT] = self._copies - seen

    def _known_positions(self, known: list[list[int]], sizes: bytes, seats: IntArray) -> IntArray:
        """Where each known card (R25) is counted: game row, the holder's row, kind."""
        held = np.flatnonzero(np.frombuffer(sizes, np.uint8))
        cards = bytes(functools.reduce(operator.iadd, [known[i] for i in held.tolist()], []))
        games, holders = np.divmod(held, self._count)
        rows = self.size * games + KIND_COUNT * (4 + self._rel[seats[games], holders])
        index = np.repeat(rows, np.frombuffer(sizes, np.uint8)[held])
        index += np.frombuffer(cards.translate(self._kind_bytes), np.uint8)
        return index

    def _scalars(self, seats: IntArray, numbers: IntArray, out: FloatArray) -> None:
        games = len(seats)
        values = numbers[np.arange(games)[:, None], self._scalar_columns[seats]]
        block = values.astype(np.float32)
        turns = numbers[:, self._list_count + 3 * self._count + _TURNS]
        block[:, self._progress_at] = turns / self._max_turns
        block[:, self._reversed_at] = values[:, self._reversed_at] < 0
        if self._unlimited:
            block[:, self._supply_at : self._supply_at + 2] = 0.0
        block[:, self._unlimited_at] = 1.0 if self._unlimited else 0.0
        out[:, self._scalar_start : self._scalar_stop] = block

    def _ones(
        self,
        seats: IntArray,
        numbers: IntArray,
        lengths: ByteArray,
        kinds: ByteArray,
        out: FloatArray,
    ) -> None:
        """Write the one-hot and 0/1 pieces of the playing phase."""
        games = len(seats)
        count = self._count
        out[:, self._ones_start :] = 0.0
        rows = np.arange(games)
        table = lengths.reshape(games, self._list_count)
        ints = numbers[:, self._list_count + 3 * count :]
        # The top card of each discard pile is the last card of its list.
        ends = np.cumsum(lengths).reshape(games, self._list_count)[:, self._discard_lists]
        sizes = table[:, self._discard_lists]
        top_kinds = np.where(sizes > 0, kinds[ends - 1], KIND_COUNT)
        rel = self._rel[seats]
        columns = np.concatenate(
            (
                self._pile_bases + table[:, self._pile_lists],
                self._top_bases[seats] + top_kinds,
                (self._phase + ints[:, _PHASE])[:, None],
                (self._current + rel[rows, ints[:, _CURRENT]])[:, None],
                (self._seat + seats)[:, None],
            ),
            axis=1,
        )
        out[rows[:, None], columns] = 1.0
        stall = ints[:, _STALL]
        out[:, self._stalled : self._stalled + count] = (stall[:, None] >> self._order[seats]) & 1

    def _window_and_result(self, state: State, seat: int) -> list[int]:
        """Return where the Block-window and winner pieces of a game outside the playing
        phase have a 1."""
        rel = self._rel_rows[seat]
        ones: list[int] = []
        if state.phase is _BLOCK_WINDOW:
            ones.append(self._completer + rel[state.window_completer])
            ones.append(self._window_pile + state.window_slot)
            ones += [self._pending + rel[other] for other in state.window_pending]
            answer = state.window_answers[seat]
            if answer >= 0:
                ones.append(self._answer + int(bool(answer)))
        result = state.result
        if result is not None and result.winner is not None:
            ones.append(self._winner + rel[result.winner])
        return ones

    def _masks(self, legal: list[list[int]], masks: MaskArray) -> None:
        games = len(legal)
        masks.fill(0)
        sizes = np.frombuffer(bytes(map(len, legal)), np.uint8)
        ids = np.frombuffer(bytes(functools.reduce(operator.iadd, legal, [])), np.uint8)
        index = np.repeat(self.action_count * np.arange(games), sizes)
        index += ids
        masks.reshape(-1)[index] = 1
