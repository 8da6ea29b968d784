"""A Gymnasium environment: one learning seat against bots from :mod:`sequence_stacks.bots`.

Each step is one decision of the learning seat (a play, a discard, or an answer in a
Block window, R29); the bots' decisions in between happen inside :meth:`step`. The
observation is the seat's :class:`~sequence_stacks.env.encoding.ObservationEncoder`
array and ``info["action_mask"]`` (int8) marks its legal actions. The reward is the
seat's entry of the engine's returns vector when the game ends, 0 before. An illegal
action ends the episode with ``illegal_reward`` (-1 by default) and
``info["illegal_action"]`` naming the rule it breaks, as PettingZoo's classic games do.

Seeding: ``reset(seed=s)`` seeds the environment's generator, which draws the engine's
game seed and every bot's seed, so the same seed replays the same game for the same
actions. Importing this module registers the id ``SequenceStacks-v0``; or call
:func:`sequence_stacks.env.register_envs` and ``gymnasium.make("SequenceStacks-v0",
opponents="greedy")``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces

from sequence_stacks.bots import Bot, make_bot
from sequence_stacks.engine import (
    IllegalActionError,
    Settings,
    State,
    View,
    action_space,
    apply_in_place,
    check,
    new_game,
    observe,
)

from .encoding import FloatArray, encoder_for
from .text import ansi_text

__all__ = ["ENV_ID", "SequenceStacksEnv", "register"]

ENV_ID: Final = "SequenceStacks-v0"
_SEED_BOUND: Final = 2**63 - 1


class SequenceStacksEnv(gymnasium.Env[FloatArray, np.int64]):
    """One seat of a game of Sequence Stacks; the other seats are bots.

    Args:
        player_count: seats, 2-6 (ignored when ``settings`` is given).
        settings: every variant option (R40); defaults to ``Settings(player_count=...)``.
        seat: the learning seat, or None for a random seat each episode.
        opponents: a bot name for every other seat, or one name per other seat in seat
            order after the learner (``make_bot`` names: "random", "greedy", ...).
        illegal_reward: the reward for an illegal action, which ends the episode.
        render_mode: ``"ansi"`` to make :meth:`render` return the seat's view as text.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        *,
        player_count: int = 4,
        settings: Settings | None = None,
        seat: int | None = 0,
        opponents: str | Sequence[str] = "random",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings if settings is not None else Settings(player_count=player_count)
        count = self.settings.player_count
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if seat is not None and not 0 <= seat < count:
            raise ValueError(f"seat {seat} is not a seat of a {count}-player game")
        names = [opponents] * (count - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != count - 1:
            raise ValueError(f"{count - 1} opponents are needed, got {len(names)}: {names}")
        for name in names:
            make_bot(name)  # refuse unknown names now, listing the known ones
        self.opponent_names = tuple(names)
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self._fixed_seat = seat
        self._encoder = encoder_for(self.settings)
        self._space = action_space(count, self.settings.piles_per_colour)
        self.observation_space = spaces.Box(self._encoder.low, self._encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self._encoder.action_count)
        self.seat = 0 if seat is None else seat
        self.game_seed: int | None = None
        self._state: State | None = None
        self._bots: dict[int, Bot] = {}
        self._done = True

    # --- the Gymnasium API ----------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        """Deal a new game and let the bots play until the learning seat must decide."""
        super().reset(seed=seed)
        del options  # no options: variants are chosen at construction
        rng = self.np_random
        count = self.settings.player_count
        if self._fixed_seat is None:
            self.seat = int(rng.integers(count))
        self.game_seed = int(rng.integers(_SEED_BOUND))
        others = [(self.seat + offset) % count for offset in range(1, count)]
        self._bots = {
            other: make_bot(name, seed=int(rng.integers(_SEED_BOUND)))
            for other, name in zip(others, self.opponent_names, strict=True)
        }
        self._state = new_game(self.settings, self.game_seed)
        self._done = False
        self._play_bots()
        view = observe(self._state, self.seat)
        self._done = self._state.is_over
        return self._encoder.encode(view), self._info(view)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        """Take the learning seat's action, then the bots' until the seat decides again."""
        state = self._state
        if state is None or self._done:
            raise RuntimeError("the episode is over: call reset() to start a new game")
        seat = self.seat
        action_id = int(action)
        refused = self._refusal(state, seat, action_id)
        if refused is not None:
            self._done = True
            view = observe(state, seat)
            info = self._info(view)
            info["action_mask"][:] = 0
            info["illegal_action"] = refused
            return self._encoder.encode(view), self.illegal_reward, True, False, info
        apply_in_place(state, seat, self._space.action(action_id, seat), checked=False)
        self._play_bots()
        view = observe(state, seat)
        reward = 0.0
        if state.result is not None:
            self._done = True
            reward = state.result.returns[seat]
        return self._encoder.encode(view), reward, self._done, False, self._info(view)

    def _refusal(self, state: State, seat: int, action_id: int) -> str | None:
        """Why ``seat`` may not take ``action_id`` now (``"R15: ..."``), or None."""
        if action_id not in range(self._space.size):
            return f"R37: action id {action_id} is outside the space"
        try:
            check(state, seat, self._space.action(action_id, seat))
        except IllegalActionError as error:
            return f"{error.rule_id}: {error.reason}"
        return None

    def render(self) -> str | None:
        """Return the learning seat's view as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass 'ansi'.")
            return None
        return ansi_text(self._state, self.seat)

    # --- helpers --------------------------------------------------------------------

    def _play_bots(self) -> None:
        """Let the bots decide until the learning seat must act or the game ends."""
        state = self._state
        assert state is not None
        while True:
            decider = state.current_player()
            if decider is None or decider == self.seat:
                return
            bot_action = self._bots[decider].choose(observe(state, decider))
            apply_in_place(state, decider, bot_action)

    def _info(self, view: View) -> dict[str, Any]:
        return {"action_mask": self._encoder.mask(view), "seat": self.seat}


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (again is harmless)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="sequence_stacks.env.gym_env:SequenceStacksEnv")


register()
