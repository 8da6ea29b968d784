"""K games stepped together: one call takes K actions and returns ``[K, D]`` observations.

:class:`SequenceStacksVectorEnv` runs ``num_envs`` independent games of one settings.
Every game always waits for one decision (same-step autoreset), so :meth:`step` takes
exactly one action per game and returns, as arrays::

    observations  [K, D] float32  the deciding seat's observation (ObservationEncoder)
    rewards       [K, P] float32  each seat's return when its game ended this step
    terminations  [K] bool        the game ended by the rules this step (then reset)
    truncations   [K] bool        the game reached ``max_steps`` this step (then reset)
    info["seat"]         [K] int64   whose decision each game waits for now
    info["action_mask"]  [K, A] int8 1 at that seat's legal actions

Rewards are per absolute seat, not per acting seat: a seat's return (+1 winner,
-1/(n-1) each other seat, 0 for all without a winner) arrives in the step that ended the
game, whoever acted. A game that ends is replaced at once by the next game of its slot;
its last observations, one row per seat, are in ``info["final_obs"]`` (Gymnasium's
same-step convention). ``reset(seed=s)`` seeds game ``k`` with ``s + k`` (or takes one
seed per game); each slot's later games draw their seeds from a generator its seed
started, exactly as :class:`~sequence_stacks.env.pettingzoo_env.raw_env` does, so slot
``k`` plays the games of a ``raw_env`` reset with the same seed.

:class:`BatchEncoder` encodes the K observations in one pass with numpy. Unlike
:class:`~sequence_stacks.env.encoding.ObservationEncoder` it reads the states, not views
(building a :class:`~sequence_stacks.engine.View` costs more than a whole batched step),
and it reads only what :func:`~sequence_stacks.engine.observe` shows the seat: its own
hand, the public zones, the sizes of the other hands and of the draw pile. Its rows are
identical to ``encoder.encode(observe(state, seat))`` (tested), and the hidden-card
permutation test applies to them. See docs/rl.md.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from sequence_stacks.engine import (
    CARD_KIND,
    IllegalActionError,
    Phase,
    Settings,
    State,
    action_space,
    apply_in_place,
    check,
    deck_for,
    legal_action_ids,
    new_game,
)

from .encoding import KIND_COUNT, FloatArray, MaskArray, encoder_for

if TYPE_CHECKING:
    from gymnasium import spaces

__all__ = ["BatchEncoder", "SequenceStacksVectorEnv", "VectorActionError"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
ByteArray = npt.NDArray[np.uint8]

_PLAYING: Final = Phase.PLAYING
_BLOCK_WINDOW: Final = Phase.BLOCK_WINDOW
_BYTE: Final = 256
_ONE: Final = np.float32(1.0)  # np.add.at's fast path needs the array's own type
_INT_FIELDS: Final = 10  # per game: draw size, direction, skips, turn plays, turn count,
# phase, current seat, stall mask, supply blue, supply red (in this order; see _gather)
_DRAW, _DIRECTION, _SKIPS, _PLAYS, _TURNS, _PHASE, _CURRENT, _STALL, _SUPPLY = range(9)


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
        count = settings.player_count
        slots = 2 * settings.piles_per_colour
        self._count = count
        # Card lists gathered per game, in absolute seat order: own hand, pool, special,
        # each pile slot, the discard pile of each seat. (Known cards, nearly always
        # none, are gathered apart: see _known_positions.)
        self._list_count = 3 + slots + count
        self._pile_lists = slice(3, 3 + slots)
        self._discard_lists = slice(3 + slots, 3 + slots + count)
        rel = [[(other - seat) % count for other in range(count)] for seat in range(count)]
        order = [[(seat + r) % count for r in range(count)] for seat in range(count)]
        self._rel: IntArray = np.array(rel, np.int64)
        self._order: IntArray = np.array(order, np.int64)
        self._zone_starts: IntArray = KIND_COUNT * np.array(
            [
                [0, 1, 2, *([3] * slots), *(4 + count + r for r in rel[seat])]
                for seat in range(count)
            ],
            np.int64,
        )
        self._seen_stop = encoder.pieces["unseen_kinds"].start
        deck = deck_for(count, keep_two_player_reverses=settings.two_player_reverses)
        copies = np.zeros(KIND_COUNT, np.float32)
        np.add.at(copies, [CARD_KIND[card] for card in deck], _ONE)
        self._copies = copies
        self._kind_bytes = bytes(CARD_KIND) + bytes(256 - len(CARD_KIND))
        # Card ids, list sizes and action ids go through bytes: check they fit.
        if len(CARD_KIND) > _BYTE or self.action_count > _BYTE:
            raise ValueError("card and action ids must fit in a byte for the batched encoder")
        self._prepare_scalars(count, order)
        pieces = encoder.pieces
        self._ones_start = pieces["pile_counts"].start
        self._pile_bases = pieces["pile_counts"].start + 6 * np.arange(slots)
        self._top_bases = pieces["discard_top"].start + (KIND_COUNT + 1) * self._rel
        self._phase = pieces["phase"].start
        self._current = pieces["current"].start
        self._stalled = pieces["stalled"].start
        self._seat = pieces["seat"].start
        self._rel_rows = tuple(tuple(row) for row in rel)
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
        lists: list[list[int]] = []
        known: list[list[int]] = []
        hands: list[list[int]] = []
        chips: list[list[int]] = []
        ints: list[int] = []
        legal = list(map(legal_action_ids, states, seats))
        odd: list[int] = []  # games outside the playing phase: window or result pieces
        playing = _PLAYING
        for index, (state, seat) in enumerate(zip(states, seats, strict=True)):
            lists += (
                state.hands[seat],
                state.pool,
                state.special,
                *state.piles,
                *state.discards,
            )
            known += state.known
            hands += state.hands  # for their sizes only
            chips += state.chips
            ints += (
                len(state.draw),
                state.direction,
                state.pending_skips,
                state.turn_actions,
                state.turn_count,
                state.phase,
                state.current,
                state.stall_mask,
                *state.supply,
            )
            if state.phase is not playing:
                odd.append(index)
        games = len(states)
        seat_array = np.fromiter(seats, np.int64, games)
        # Card ids and list lengths fit in a byte (a deck has 120 cards at most).
        lengths = np.frombuffer(bytes(map(len, lists)), np.uint8)
        card_bytes = bytes(functools.reduce(operator.iadd, lists, []))
        # One byte more, so that the discard-top lookup of an empty pile stays in range.
        kinds = np.frombuffer(card_bytes.translate(self._kind_bytes) + b"\0", np.uint8)
        numbers = self._numbers(games, lengths, hands, chips, ints)
        self._kind_counts(seat_array, lengths, kinds, known, observations)
        self._scalars(seat_array, numbers, observations)
        self._ones(seat_array, numbers, lengths, kinds, observations)
        if odd:
            ones = [
                index * self.size + position
                for index in odd
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

    def _numbers(
        self,
        games: int,
        lengths: ByteArray,
        hands: list[list[int]],
        chips: list[list[int]],
        ints: list[int],
    ) -> IntArray:
        """Return one row of numbers per game: list lengths, hand sizes, chips, ints."""
        count = self._count
        return np.concatenate(
            (
                lengths.reshape(games, self._list_count),
                np.fromiter(map(len, hands), np.int64, games * count).reshape(games, count),
                np.fromiter(chain.from_iterable(chips), np.int64, games * 2 * count).reshape(
                    games, 2 * count
                ),
                np.fromiter(ints, np.int64, games * _INT_FIELDS).reshape(games, _INT_FIELDS),
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

    def _known_positions(self, known: list[list[int]], sizes: bytes, seats: IntArray) -> list[int]:
        """Where each known card (R25) is counted: game row, the holder's row, kind."""
        count = self._count
        positions: list[int] = []
        for flat_index in np.flatnonzero(np.frombuffer(sizes, np.uint8)).tolist():
            game, holder = divmod(flat_index, count)
            base = game * self.size + KIND_COUNT * (4 + self._rel_rows[seats[game]][holder])
            positions += [base + CARD_KIND[card] for card in known[flat_index]]
        return positions

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


class VectorActionError(ValueError):
    """An action given to :meth:`SequenceStacksVectorEnv.step` was refused; no game changed.

    Attributes:
        index: the game (slot) the action was for.
        seat: the seat that game waits for.
        action_id: the refused action id.
        rule_id: the RULES.md id it breaks (``"R37"`` for an id outside the space).
    """

    def __init__(self, message: str, *, index: int, seat: int, action_id: int, rule_id: str):
        super().__init__(message)
        self.index = index
        self.seat = seat
        self.action_id = action_id
        self.rule_id = rule_id


class SequenceStacksVectorEnv:
    """``num_envs`` games of one settings, stepped together with same-step autoreset.

    Args:
        num_envs: how many games (K) run side by side.
        player_count: seats, 2-6 (ignored when ``settings`` is given).
        settings: every variant option (R40); defaults to ``Settings(player_count=...)``.
        max_steps: if set, a game is truncated after this many decisions.
        copy: return fresh arrays from :meth:`reset` and :meth:`step` (the default);
            with False they are the environment's own buffers, overwritten by the next
            call.
    """

    metadata: Final[dict[str, Any]] = {"autoreset_mode": "SameStep"}

    def __init__(
        self,
        num_envs: int,
        *,
        player_count: int = 4,
        settings: Settings | None = None,
        max_steps: int | None = None,
        copy: bool = True,
    ) -> None:
        given: object = num_envs  # callers may not be type-checked
        if not isinstance(given, int) or isinstance(given, bool) or given < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        self.settings = settings if settings is not None else Settings(player_count=player_count)
        self.num_envs = num_envs
        self.player_count = self.settings.player_count
        self.max_steps = max_steps
        self.copy = copy
        self.encoder = BatchEncoder(self.settings)
        self.observation_size = self.encoder.size
        self.action_count = self.encoder.action_count
        space = action_space(self.player_count, self.settings.piles_per_colour)
        self._tables = tuple(space.actions_of(seat) for seat in range(self.player_count))
        self._observations: FloatArray = np.zeros((num_envs, self.observation_size), np.float32)
        self._masks: MaskArray = np.zeros((num_envs, self.action_count), np.int8)
        self._states: list[State] = []
        self._seats: list[int] = [0] * num_envs
        self._legal: list[list[int]] = []
        self._generators = [random.Random() for _ in range(num_envs)]
        self.game_seeds: list[int] = [0] * num_envs
        self.step_counts: list[int] = [0] * num_envs

    # --- spaces (Gymnasium's names; gymnasium is imported on first use) ----------------

    @property
    def single_observation_space(self) -> spaces.Box:
        """The observation space of one game: the encoder's bounds."""
        from gymnasium import spaces  # noqa: PLC0415 - gymnasium is slow to import

        low, high = self.encoder.encoder.low, self.encoder.encoder.high
        return spaces.Box(low, high, dtype=np.float32)

    @property
    def single_action_space(self) -> spaces.Discrete:
        """The action space of one game: the engine's fixed action ids."""
        from gymnasium import spaces  # noqa: PLC0415 - gymnasium is slow to import

        return spaces.Discrete(self.action_count)

    @property
    def observation_space(self) -> spaces.Box:
        """The batched observation space, ``[num_envs, D]``."""
        from gymnasium import spaces  # noqa: PLC0415 - gymnasium is slow to import

        low, high = self.encoder.encoder.low, self.encoder.encoder.high
        shape = (self.num_envs, 1)
        return spaces.Box(np.tile(low, shape), np.tile(high, shape), dtype=np.float32)

    @property
    def action_space(self) -> spaces.MultiDiscrete:
        """The batched action space: one action id per game."""
        from gymnasium import spaces  # noqa: PLC0415 - gymnasium is slow to import

        return spaces.MultiDiscrete(np.full(self.num_envs, self.action_count, np.int64))

    # --- the vector-env API -----------------------------------------------------------

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        """Start a new game in every slot and return the first observations and info.

        ``seed=s`` gives game ``k`` the engine seed ``s + k``; a sequence gives one seed
        per game. Without a seed each slot's game seed comes from its generator, which
        the last seeded reset seeded (so seeded runs replay exactly).
        """
        del options  # no options: variants are chosen at construction
        seeds = self._seeds(seed)
        for index, generator in enumerate(self._generators):
            if seeds is None:
                self.game_seeds[index] = generator.getrandbits(63)
            else:
                generator.seed(seeds[index])
                self.game_seeds[index] = seeds[index]
        self._states = [new_game(self.settings, game_seed) for game_seed in self.game_seeds]
        self.step_counts = [0] * self.num_envs
        observations, masks, _ = self._encode([])
        return observations, self._info(masks)

    def _seeds(self, seed: int | Sequence[int] | None) -> list[int] | None:
        if seed is None:
            return None
        if isinstance(seed, int | np.integer):
            return [int(seed) + index for index in range(self.num_envs)]
        seeds = [int(value) for value in seed]
        if len(seeds) != self.num_envs:
            raise ValueError(f"reset takes one seed per game: {self.num_envs}, got {len(seeds)}")
        return seeds

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[FloatArray, FloatArray, BoolArray, BoolArray, dict[str, Any]]:
        """Take one action per game; return observations, rewards, terminations,
        truncations and info (see the module's docstring).

        Raises:
            ValueError: not exactly one integer action per game.
            VectorActionError: an action is illegal for its game (it names the game);
                then no game has changed.
        """
        if not self._states:
            raise RuntimeError("call reset() before step()")
        action_ids = self._action_ids(actions)
        legal = self._legal
        for index, action_id in enumerate(action_ids):
            if action_id not in legal[index]:
                raise self._refusal(index, action_id)
        states = self._states
        seats = self._seats
        tables = self._tables
        counts = self.step_counts
        limit = self.max_steps or 0
        ended: list[int] = []
        for index, state in enumerate(states):
            seat = seats[index]
            apply_in_place(state, seat, tables[seat][action_ids[index]], checked=False)
            counts[index] += 1
            if state.result is not None or counts[index] == limit:
                ended.append(index)
        rewards = np.zeros((self.num_envs, self.player_count), np.float32)
        terminations = np.zeros(self.num_envs, np.bool_)
        truncations = np.zeros(self.num_envs, np.bool_)
        finished = [states[index] for index in ended]
        final_info = self._restart(ended, rewards, terminations, truncations)
        observations, masks, finals = self._encode(finished)
        info = self._info(masks)
        if ended:
            info.update(self._final_entries(ended, finals, final_info))
        return observations, rewards, terminations, truncations, info

    def _action_ids(self, actions: npt.ArrayLike) -> list[int]:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(
                f"step takes one action per game: {self.num_envs} actions, got an array "
                f"of shape {array.shape}"
            )
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions must be integer action ids, not {array.dtype}")
        action_ids: list[int] = array.tolist()
        return action_ids

    def _refusal(self, index: int, action_id: int) -> VectorActionError:
        """The error for an action not among game ``index``'s legal ids (R37)."""
        seat = self._seats[index]
        where = f"game {index} (seat {seat} to decide)"
        if action_id not in range(self.action_count):
            message = f"{where}: action id {action_id} is outside 0-{self.action_count - 1}"
            return VectorActionError(
                f"{message} (R37)", index=index, seat=seat, action_id=action_id, rule_id="R37"
            )
        action = self._tables[seat][action_id]
        try:
            check(self._states[index], seat, action)
        except IllegalActionError as error:
            return VectorActionError(
                f"{where}: action {action_id} ({action}) is illegal: {error}",
                index=index,
                seat=seat,
                action_id=action_id,
                rule_id=error.rule_id,
            )
        raise AssertionError(f"{where}: action {action_id} passes check but is not listed")

    def _restart(
        self,
        ended: list[int],
        rewards: FloatArray,
        terminations: BoolArray,
        truncations: BoolArray,
    ) -> dict[str, IntArray]:
        """Record how the ended games ended and start each slot's next game; return
        their seeds, lengths and winners (-1: none) for ``final_info``."""
        seeds = np.zeros(self.num_envs, np.int64)
        lengths = np.zeros(self.num_envs, np.int64)
        winners = np.full(self.num_envs, -1, np.int64)
        for index in ended:
            result = self._states[index].result
            if result is None:
                truncations[index] = True
            else:
                terminations[index] = True
                rewards[index] = result.returns
                winners[index] = -1 if result.winner is None else result.winner
            seeds[index] = self.game_seeds[index]
            lengths[index] = self.step_counts[index]
            self.game_seeds[index] = self._generators[index].getrandbits(63)
            self._states[index] = new_game(self.settings, self.game_seeds[index])
            self.step_counts[index] = 0
        return {"game_seed": seeds, "length": lengths, "winner": winners}

    def _final_entries(
        self, ended: list[int], finals: FloatArray, final_info: dict[str, IntArray]
    ) -> dict[str, Any]:
        """Gymnasium's same-step entries: ``final_obs`` (per ended game, one row per
        seat), ``final_info`` and their ``_``-prefixed masks."""
        count = self.player_count
        final_obs = np.full(self.num_envs, None, object)
        has_final = np.zeros(self.num_envs, np.bool_)
        for row, index in enumerate(ended):
            final_obs[index] = finals[row * count : (row + 1) * count]
            has_final[index] = True
        masked: dict[str, Any] = dict(final_info)
        masked |= {f"_{key}": has_final for key in final_info}
        return {
            "final_obs": final_obs,
            "_final_obs": has_final,
            "final_info": masked,
            "_final_info": has_final,
        }

    def _encode(self, finished: list[State]) -> tuple[FloatArray, MaskArray, FloatArray]:
        """Encode every running game for its deciding seat, and every seat of each
        finished game, in one pass; return observations, masks and the final rows."""
        states = self._states
        seats: list[int] = [state.current_player() for state in states]  # type: ignore[misc]
        self._seats = seats  # a running game always has a seat to decide
        games = self.num_envs
        count = self.player_count
        rows = games + count * len(finished)
        if self.copy or finished:
            observations = np.empty((rows, self.observation_size), np.float32)
            masks = np.empty((rows, self.action_count), np.int8)
        else:
            observations, masks = self._observations, self._masks
        if finished:
            states = states + [state for state in finished for _ in range(count)]
            seats = seats + list(range(count)) * len(finished)
        self._legal = self.encoder.encode(states, seats, observations, masks)[:games]
        if self.copy:
            return observations[:games], masks[:games], observations[games:]
        if finished:
            self._observations[:] = observations[:games]
            self._masks[:] = masks[:games]
        return self._observations, self._masks, observations[games:]

    def _info(self, masks: MaskArray) -> dict[str, Any]:
        return {"seat": np.array(self._seats, np.int64), "action_mask": masks}

    def state(self, index: int) -> State:
        """Return a copy of game ``index``'s full state, hidden cards included (for tests
        and analysis; a policy must see only the observations)."""
        return self._states[index].clone()

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""
