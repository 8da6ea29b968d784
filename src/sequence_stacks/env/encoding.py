"""A fixed-shape float32 encoding of one seat's :class:`View`, and its action mask.

The encoder reads a :class:`~sequence_stacks.engine.View` only, never a state, so an
observation holds exactly what the seat may know (R34-R36). Seats are *relative*: row
``r`` of a per-seat piece describes seat ``(seat + r) % player_count``, so row 0 is
always the observer. Kinds follow :class:`~sequence_stacks.engine.Kind` (``B1``-``B5``,
``BW``, ``R1``-``R5``, ``RW``, ``SKIP``, ``REV``, ``SCARD``, ``BLOCK``, ``SCHIP``);
pile slots are blue first, as in the state.

One observation is one flat array of named pieces (``n`` players, ``P`` piles per
colour; counts are raw, not scaled, and bounded by :attr:`ObservationEncoder.high`):

=====================  ===========  ===================================================
piece                  shape        meaning
=====================  ===========  ===================================================
``hand``               (17,)        own hand, cards per kind
``known``              (n, 17)      cards everyone knows are in each hand (stolen, R25)
``discard_kinds``      (n, 17)      every card of each discard pile, per kind (R10)
``pool_kinds``         (17,)        the set-aside pool, per kind (R12)
``special_kinds``      (17,)        the special discard pile, per kind (R11)
``pile_kinds``         (17,)        all cards on sequence piles, per kind
``unseen_kinds``       (17,)        cards this seat cannot see (draw pile and other
                                    seats' hidden cards), per kind
``pile_counts``        (2P, 6)      one-hot of each slot's count 0-5 (0 = free slot)
``discard_top``        (n, 18)      one-hot of each discard pile's top kind; column
                                    17 means empty
``discard_sizes``      (n,)         cards in each discard pile
``hand_sizes``         (n,)         cards in each hand
``chips``              (n, 2)       each seat's chips, blue then red
``supply``             (2,)         chips left in the supply (0 when unlimited)
``supply_unlimited``   (1,)         1 when ``chip_supply=unlimited``
``draw_size``          (1,)         cards in the draw pile
``pool_size``          (1,)         cards in the pool
``reversed``           (1,)         1 when play runs right (after a Reverse, R27)
``pending_skips``      (1,)         Skips played this turn (R26)
``turn_plays``         (1,)         cards played this turn (ends the game at
                                    ``max_turn_actions``, N17)
``phase``              (3,)         one-hot: playing, block window, over
``current``            (n,)         one-hot: whose turn it is
``window_completer``   (n,)         one-hot: who completed the pile in an open Block
                                    window (all 0 outside a window)
``window_pile``        (2P,)        one-hot: the completed slot in an open window
``window_pending``     (n,)         1 for each seat still to answer the window
``my_answer``          (2,)         own answer in the open window: pass, block
``stalled``            (n,)         seats marked in the current stalemate round (R33)
``turn_progress``      (1,)         turns taken / ``max_turns``
``winner``             (n,)         one-hot: the winner, once the game is won
``seat``               (n,)         one-hot: the observer's absolute seat
=====================  ===========  ===================================================

With four players and two piles per colour that is 375 numbers. The action mask is an
``int8`` vector over the fixed action space ``action_space(n, P)`` with 1 exactly at
``view.legal_action_ids``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from sequence_stacks.engine import (
    CARD_KIND,
    Kind,
    Phase,
    Settings,
    View,
    action_space,
    deck_for,
)

__all__ = [
    "KIND_COUNT",
    "ObservationEncoder",
    "Piece",
    "encoder_for",
]

KIND_COUNT: Final = len(Kind)
_FLOAT32_MAX: Final = float(np.finfo(np.float32).max)
_ZONES_PER_CHUNK: Final = 15

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


@dataclasses.dataclass(frozen=True, slots=True)
class Piece:
    """One named piece of the flat observation: ``obs[start:stop]`` has ``shape``."""

    name: str
    start: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        """Return how many numbers the piece holds."""
        return int(np.prod(self.shape))

    @property
    def stop(self) -> int:
        """Return the end of the piece in the flat observation."""
        return self.start + self.size


def _kind_copies(settings: Settings) -> list[int]:
    """Return how many cards of each kind the game's deck holds (R1, R2)."""
    copies = [0] * KIND_COUNT
    deck = deck_for(settings.player_count, keep_two_player_reverses=settings.two_player_reverses)
    for card in deck:
        copies[CARD_KIND[card]] += 1
    return copies


class ObservationEncoder:
    """Encodes views of one game's settings into observations and action masks.

    Build one per settings (:func:`encoder_for` caches them); it is immutable after
    construction and safe to share. ``pieces`` names every part of the flat array;
    ``low`` and ``high`` bound every entry (the spaces of the adapters use them).
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        count = settings.player_count
        per_colour = settings.piles_per_colour
        self.player_count = count
        self.action_count = action_space(count, per_colour).size
        self.deck_size = len(deck_for(count, keep_two_player_reverses=settings.two_player_reverses))
        self._copies = _kind_copies(settings)
        self.pieces: dict[str, Piece] = {}
        self._highs: list[float] = []
        self._build_layout(count, 2 * per_colour)
        self.size = len(self._highs)
        self.low: FloatArray = np.zeros(self.size, np.float32)
        self.high: FloatArray = np.array(self._highs, np.float32)
        self.low.flags.writeable = False
        self.high.flags.writeable = False
        self._prepare_kind_tables(count)
        self._prepare_offsets(count)

    # --- layout ---------------------------------------------------------------------

    def _add(self, name: str, shape: tuple[int, ...], high: float | Sequence[float]) -> None:
        piece = Piece(name, len(self._highs), shape)
        self.pieces[name] = piece
        if isinstance(high, int | float):
            self._highs.extend([float(high)] * piece.size)
        else:
            rows = piece.size // len(high)
            self._highs.extend([float(value) for value in high] * rows)

    def _build_layout(self, count: int, slots: int) -> None:
        settings = self.settings
        copies = [max(1, c) for c in self._copies]  # a bound must exceed 0 (PettingZoo)
        deck = self.deck_size
        supply = settings.chip_supply
        chip_high = _FLOAT32_MAX if supply is None else float(max(1, supply))
        # Kind counts come first, in this order: encode() fills these seven pieces with
        # one bincount (two with six players; see _prepare_kind_tables).
        self._add("hand", (KIND_COUNT,), copies)
        self._add("pool_kinds", (KIND_COUNT,), copies)
        self._add("special_kinds", (KIND_COUNT,), copies)
        self._add("pile_kinds", (KIND_COUNT,), copies)
        self._add("known", (count, KIND_COUNT), copies)
        self._add("discard_kinds", (count, KIND_COUNT), copies)
        self._add("unseen_kinds", (KIND_COUNT,), copies)
        # Numbers written from a list, in this order (see _scalars).
        self._add("discard_sizes", (count,), deck)
        self._add("hand_sizes", (count,), deck)
        self._add("chips", (count, 2), chip_high)
        self._add("supply", (2,), 1.0 if supply is None else max(1, supply))
        self._add("supply_unlimited", (1,), 1.0)
        self._add("draw_size", (1,), deck)
        self._add("pool_size", (1,), deck)
        self._add("reversed", (1,), 1.0)
        self._add("pending_skips", (1,), max(1, self._copies[Kind.SKIP]))
        self._add("turn_plays", (1,), settings.max_turn_actions + 1)
        self._add("turn_progress", (1,), 1.0)
        # One-hot and 0/1 pieces, written by index.
        self._add("pile_counts", (slots, 6), 1.0)
        self._add("discard_top", (count, KIND_COUNT + 1), 1.0)
        self._add("phase", (len(Phase),), 1.0)
        self._add("current", (count,), 1.0)
        self._add("window_completer", (count,), 1.0)
        self._add("window_pile", (slots,), 1.0)
        self._add("window_pending", (count,), 1.0)
        self._add("my_answer", (2,), 1.0)
        self._add("stalled", (count,), 1.0)
        self._add("winner", (count,), 1.0)
        self._add("seat", (count,), 1.0)

    def _prepare_kind_tables(self, count: int) -> None:
        """Precompute the byte tables of the kind-count pieces."""
        # The kind-count pieces are zones of 17: hand, pool, special, piles, known x n,
        # discards x n, unseen. Card ids fit in a byte, so a zone's cards become bytes
        # and bytes.translate maps each card to "local zone * 17 + kind" in C (the
        # unseen zone is the deck with every seen card deleted). Zones go in chunks of
        # at most 15 (15 * 17 < 256), each counted by one bincount: one chunk up to five
        # players, two with six.
        zones = 5 + 2 * count
        self._unseen_zone = zones - 1
        self._zone_chunk = tuple(zone // _ZONES_PER_CHUNK for zone in range(zones))
        self._chunk_bounds = tuple(
            (start * KIND_COUNT, min(zones, start + _ZONES_PER_CHUNK) * KIND_COUNT)
            for start in range(0, zones, _ZONES_PER_CHUNK)
        )
        self._zone_tables = tuple(
            bytes(
                (zone % _ZONES_PER_CHUNK) * KIND_COUNT + CARD_KIND[card]
                if card < len(CARD_KIND)
                else 0
                for card in range(256)
            )
            for zone in range(zones)
        )
        settings = self.settings
        self._deck_bytes = bytes(
            deck_for(count, keep_two_player_reverses=settings.two_player_reverses)
        )

    def _prepare_offsets(self, count: int) -> None:
        """Precompute offsets so that encode() does no layout arithmetic."""
        self._scalar_start = self.pieces["discard_sizes"].start
        self._scalar_stop = self.pieces["turn_progress"].stop
        self._order = tuple(
            tuple((seat + rel) % count for rel in range(count)) for seat in range(count)
        )
        pieces = self.pieces
        self._pile_counts = pieces["pile_counts"].start
        self._discard_top = pieces["discard_top"].start
        self._phase = pieces["phase"].start
        self._current = pieces["current"].start
        self._completer = pieces["window_completer"].start
        self._window_pile = pieces["window_pile"].start
        self._pending = pieces["window_pending"].start
        self._answer = pieces["my_answer"].start
        self._stalled = pieces["stalled"].start
        self._winner = pieces["winner"].start
        self._seat = pieces["seat"].start
        self._rel_of = tuple(
            tuple((other - seat) % count for other in range(count)) for seat in range(count)
        )
        self._pile_bases = tuple(
            self._pile_counts + 6 * slot for slot in range(2 * self.settings.piles_per_colour)
        )
        # _top_tables[rel][card]: the one-hot index of a discard top; [-1]: an empty pile.
        width = KIND_COUNT + 1
        self._top_tables = tuple(
            (
                *(self._discard_top + width * rel + kind for kind in CARD_KIND),
                self._discard_top + width * rel + KIND_COUNT,
            )
            for rel in range(count)
        )
        self._max_turns = float(self.settings.max_turns)
        self._unlimited = 1.0 if self.settings.chip_supply is None else 0.0

    # --- encoding -------------------------------------------------------------------

    def _check(self, view: View) -> int:
        if view.settings is not self.settings and view.settings != self.settings:
            raise ValueError("the view belongs to a game with other settings than the encoder")
        if view.seat is None or view.hand is None:
            raise ValueError("a spectator's view has no seat to encode for")
        return view.seat

    def encode(self, view: View, out: FloatArray | None = None) -> FloatArray:
        """Return the observation of ``view`` (written into ``out`` if given)."""
        seat = self._check(view)
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        order = self._order[seat]
        self._kind_block(view, order, out)
        out[self._scalar_start : self._scalar_stop] = self._scalars(view, order)
        cells = out.data  # item writes through a memoryview skip numpy's per-call overhead
        for index in self._ones(view, order, seat):
            cells[index] = 1
        return out

    def _kind_block(self, view: View, order: tuple[int, ...], out: FloatArray) -> None:
        tables = self._zone_tables
        count = self.player_count
        known = view.known_cards
        discards = view.discards
        hand = bytes(view.hand or ())
        pool = bytes(view.pool)
        special = bytes(view.special)
        piles = b"".join(map(bytes, view.piles))
        # Every card this seat sees (own known cards are in the hand already).
        seen = [hand, pool, special, piles]
        zones = [0, 1, 2, 3]
        for rel in range(1, count):
            cards = known[order[rel]]
            if cards:
                seen.append(bytes(cards))
                zones.append(4 + rel)
        for rel in range(count):
            cards = discards[order[rel]]
            if cards:
                seen.append(bytes(cards))
                zones.append(4 + count + rel)
        unseen = self._deck_bytes.translate(tables[self._unseen_zone], b"".join(seen))
        parts = [data.translate(tables[zone]) for zone, data in zip(zones, seen, strict=True)]
        parts.append(bytes(known[order[0]]).translate(tables[4]))
        if len(self._chunk_bounds) == 1:
            stop = self._chunk_bounds[0][1]
            parts.append(unseen)
            out[:stop] = np.bincount(np.frombuffer(b"".join(parts), np.uint8), minlength=stop)
            return
        chunks = [b"", b""]
        zone_chunk = self._zone_chunk
        for zone, part in zip([*zones, 4, self._unseen_zone], [*parts, unseen], strict=True):
            chunks[zone_chunk[zone]] += part
        for (start, stop), chunk in zip(self._chunk_bounds, chunks, strict=True):
            out[start:stop] = np.bincount(np.frombuffer(chunk, np.uint8), minlength=stop - start)

    def _scalars(self, view: View, order: tuple[int, ...]) -> list[float]:
        discards = view.discards
        sizes = view.hand_sizes
        chips = view.chips
        values: list[float] = [len(discards[other]) for other in order]
        values += [sizes[other] for other in order]
        for other in order:
            values += chips[other]
        supply = view.supply
        values += (0, 0) if supply is None else supply
        values += (
            self._unlimited,
            view.draw_size,
            len(view.pool),
            1.0 if view.direction < 0 else 0.0,
            view.pending_skips,
            view.turn_actions,
            view.turn_count / self._max_turns,
        )
        return values

    def _ones(self, view: View, order: tuple[int, ...], seat: int) -> list[int]:
        rel_of = self._rel_of[seat]
        ones = [base + len(pile) for base, pile in zip(self._pile_bases, view.piles, strict=True)]
        discards = view.discards
        for tops, other in zip(self._top_tables, order, strict=True):
            pile = discards[other]
            ones.append(tops[pile[-1] if pile else -1])
        ones.append(self._phase + view.phase)
        ones.append(self._current + rel_of[view.current])
        if view.window_completer is not None:
            ones.append(self._completer + rel_of[view.window_completer])
            if view.window_pile is not None:
                ones.append(self._window_pile + view.window_pile)
            ones += [self._pending + rel_of[other] for other in view.window_pending]
            if view.my_answer is not None:
                ones.append(self._answer + int(view.my_answer))
        stall = view.stall_mask
        if stall:
            ones += [self._stalled + rel for rel, other in enumerate(order) if stall >> other & 1]
        result = view.result
        if result is not None and result.winner is not None:
            ones.append(self._winner + rel_of[result.winner])
        ones.append(self._seat + seat)
        return ones

    def mask(self, view: View, out: MaskArray | None = None) -> MaskArray:
        """Return the int8 action mask of ``view``: 1 at each legal action id (R38)."""
        if out is None:
            cells = bytearray(self.action_count)
            for action_id in view.legal_action_ids:
                cells[action_id] = 1
            return np.frombuffer(cells, np.int8)
        out.fill(0)
        writer = out.data
        for action_id in view.legal_action_ids:
            writer[action_id] = 1
        return out

    def split(self, observation: FloatArray) -> dict[str, FloatArray]:
        """Return the named pieces of an observation as reshaped views of it."""
        return {
            name: observation[piece.start : piece.stop].reshape(piece.shape)
            for name, piece in self.pieces.items()
        }

    def describe(self) -> list[tuple[str, tuple[int, ...], int]]:
        """Return ``(name, shape, start)`` for every piece, in layout order."""
        return [(p.name, p.shape, p.start) for p in self.pieces.values()]


@functools.lru_cache(maxsize=64)
def encoder_for(settings: Settings) -> ObservationEncoder:
    """Return the shared encoder for a game's settings."""
    return ObservationEncoder(settings)
