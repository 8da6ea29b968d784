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

:class:`~sequence_stacks.env.batch_encoding.BatchEncoder` encodes the K observations in
one pass with numpy, identical to ``encoder.encode(observe(state, seat))`` (tested), and
the hidden-card permutation test applies to them. See docs/rl.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from sequence_stacks.engine import (
    IllegalActionError,
    IllegalCode,
    Settings,
    State,
    action_space,
    apply_in_place,
    check,
    new_game,
)

from .batch_encoding import BatchEncoder, IntArray
from .encoding import FloatArray, MaskArray

if TYPE_CHECKING:
    from gymnasium import spaces

__all__ = ["SequenceStacksVectorEnv", "VectorActionError"]

BoolArray = npt.NDArray[np.bool_]


class VectorActionError(ValueError):
    """An action given to :meth:`SequenceStacksVectorEnv.step` was refused; no game changed.

    Attributes:
        index: the game (slot) the action was for.
        seat: the seat that game waits for.
        action_id: the refused action id.
        rule_id: the RULES.md id it breaks (``"R37"`` for an id outside the space).
        code: the engine's refusal code (None for an id outside the space); the
            engine's :class:`~sequence_stacks.engine.IllegalActionError` is the cause.
    """

    def __init__(
        self,
        message: str,
        *,
        index: int,
        seat: int,
        action_id: int,
        rule_id: str,
        code: IllegalCode | None = None,
    ) -> None:
        super().__init__(message)
        self.index = index
        self.seat = seat
        self.action_id = action_id
        self.rule_id = rule_id
        self.code = code


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
        # With copy=False, rows [0, K) are the returned buffers and the rows after them
        # hold the final observations of the games that ended (P rows each).
        rows = 0 if copy else num_envs * (1 + self.player_count)
        self._buffer: FloatArray = np.zeros((rows, self.observation_size), np.float32)
        self._mask_buffer: MaskArray = np.zeros((rows, self.action_count), np.int8)
        self._states: list[State] = []
        self._seats: list[int] = [0] * num_envs
        self._legal: list[list[int]] = []
        self._generators = [random.Random() for _ in range(num_envs)]
        self.game_seeds: list[int] = [0] * num_envs
        self._counts: IntArray = np.zeros(num_envs, np.int64)

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
        self._counts[:] = 0
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
        tables = self._tables
        for state, seat, action_id in zip(states, self._seats, action_ids, strict=True):
            apply_in_place(state, seat, tables[seat][action_id], checked=False)  # checked above
        self._counts += 1
        ended = [index for index, state in enumerate(states) if state.result is not None]
        if self.max_steps is not None:
            ended = sorted({*ended, *np.flatnonzero(self._counts >= self.max_steps).tolist()})
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
            refusal = VectorActionError(
                f"{where}: action {action_id} ({action}) is illegal: {error}",
                index=index,
                seat=seat,
                action_id=action_id,
                rule_id=error.rule_id,
                code=error.code,
            )
            refusal.__cause__ = error
            return refusal
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
            lengths[index] = self._counts[index]
            self.game_seeds[index] = self._generators[index].getrandbits(63)
            self._states[index] = new_game(self.settings, self.game_seeds[index])
            self._counts[index] = 0
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
        if self.copy:
            observations = np.empty((rows, self.observation_size), np.float32)
            masks = np.empty((rows, self.action_count), np.int8)
        else:
            observations, masks = self._buffer[:rows], self._mask_buffer[:rows]
        if finished:
            states = states + [state for state in finished for _ in range(count)]
            seats = seats + list(range(count)) * len(finished)
        self._legal = self.encoder.encode(states, seats, observations, masks)[:games]
        return observations[:games], masks[:games], observations[games:]

    def _info(self, masks: MaskArray) -> dict[str, Any]:
        return {"seat": np.array(self._seats, np.int64), "action_mask": masks}

    @property
    def step_counts(self) -> list[int]:
        """Decisions taken so far in each slot's current game."""
        counts: list[int] = self._counts.tolist()
        return counts

    def state(self, index: int) -> State:
        """Return a copy of game ``index``'s full state, hidden cards included (for tests
        and analysis; a policy must see only the observations)."""
        return self._states[index].clone()

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""
