"""A PettingZoo AEC environment: every seat is an agent ``player_<seat>``.

``agent_selection`` is always the seat that must decide now (``current_player()``), so
Block windows (R29) ask each opponent in turn. Observations follow PettingZoo's classic
games: ``{"observation": float32 Box, "action_mask": int8 Box}`` over the fixed action
space, with a zero mask for every agent but the selected one. Rewards are the engine's
returns vector when the game ends (+1 for the winner, -1/(n-1) for the others, 0 for
all with no winner), and 0 before.

Use :func:`env` (wrapped as PettingZoo's classic games are: an illegal action ends the
game with -1 for the offender and 0 for the others, out-of-range actions and calls
out of order are caught) or :class:`raw_env` (which refuses an illegal action with
:class:`~sequence_stacks.engine.IllegalActionError` naming the rule)::

    import random
    from sequence_stacks.env.pettingzoo_env import env

    rng = random.Random(0)
    game = env(player_count=4)  # or raw_env(player_count=4): faster, see docs/rl.md
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            action = rng.choice(observation["action_mask"].nonzero()[0].tolist())
        game.step(action)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from sequence_stacks.engine import (
    Settings,
    State,
    View,
    action_space,
    apply_in_place,
    check,
    legal_action_ids,
    new_game,
    observe,
)

from .encoding import encoder_for
from .text import ansi_text

__all__ = ["env", "raw_env"]

Observation = dict[str, np.ndarray[Any, Any]]


def env(**kwargs: Any) -> AECEnv:
    """Return the wrapped environment (the usual entry point), as PettingZoo classic games do."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


# PettingZoo ships no type information, so AECEnv is Any to mypy (see pyproject.toml).
class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name for it
    """The unwrapped AEC environment for one game of Sequence Stacks.

    Args:
        player_count: seats, 2-6 (ignored when ``settings`` is given).
        settings: every variant option (R40); defaults to ``Settings(player_count=...)``.
        max_cycles: if set, truncate the game after ``max_cycles * player_count`` steps.
        render_mode: ``"ansi"`` to make :meth:`render` return text, or None.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads a class attribute
        "render_modes": ["ansi"],
        "name": "sequence_stacks_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        player_count: int = 4,
        settings: Settings | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, not {max_cycles}")
        self.settings = settings if settings is not None else Settings(player_count=player_count)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        count = self.settings.player_count
        self._encoder = encoder_for(self.settings)
        self._space = action_space(count, self.settings.piles_per_colour)
        self.possible_agents = [f"player_{seat}" for seat in range(count)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        encoder = self._encoder
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(encoder.low, encoder.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (encoder.action_count,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {
            agent: spaces.Discrete(encoder.action_count) for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self._step_limit = None if max_cycles is None else max_cycles * count
        self._state: State | None = None
        self._view: View | None = None
        self._view_key = (-1, -1)
        self.game_seed: int | None = None
        self.step_count = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """Return the (shared) observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """Return the (shared) action space of ``agent``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` is the engine's seed (R41).

        Without a seed, the game's seed comes from a generator that the last seeded
        reset seeded, so a seeded reset followed by plain resets replays exactly.
        """
        del options  # no options: variants are chosen at construction
        if seed is not None:
            self._seeds.seed(seed)
            self.game_seed = int(seed)
        else:
            self.game_seed = self._seeds.getrandbits(63)
        self._state = new_game(self.settings, self.game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._view = None
        self._view_key = (-1, -1)
        self.step_count = 0
        self.agent_selection = self._selected(self._state)

    def _selected(self, state: State) -> str:
        seat = state.current_player()
        return self.possible_agents[state.current if seat is None else seat]

    def _view_of(self, seat: int) -> View:
        """Return the seat's view now, computed once per step and seat."""
        key = (seat, self.step_count)
        if self._view is None or self._view_key != key:
            assert self._state is not None
            self._view = observe(self._state, seat)
            self._view_key = key
        return self._view

    def observe(self, agent: str) -> Observation:
        """Return ``agent``'s observation and action mask (zero unless it is selected)."""
        seat = self._seat_of[agent]
        view = self._view_of(seat)
        encoder = self._encoder
        if agent == self.agent_selection and not self.terminations[agent]:
            mask = encoder.mask(view)
        else:
            mask = np.zeros(encoder.action_count, np.int8)
        return {"observation": encoder.encode(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action; refuse an illegal one (R37)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state
        assert state is not None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        seat = self._seat_of[agent]
        action_id = int(action)
        view = self._view
        if view is not None and self._view_key == (seat, self.step_count):
            legal: Sequence[int] = view.legal_action_ids  # observed this step already
        else:
            legal = legal_action_ids(state, seat)
        if action_id not in legal:
            check(state, seat, self._space.action(action_id, seat))  # raises, naming the rule
        apply_in_place(state, seat, self._space.action(action_id, seat), checked=False)
        self._cumulative_rewards[agent] = 0.0
        self.step_count += 1
        if state.result is not None:
            for other, value in zip(self.agents, state.result.returns, strict=True):
                self.rewards[other] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()  # rewards are 0 before the end: nothing to add
        elif self._step_limit is not None and self.step_count >= self._step_limit:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._selected(state)

    def render(self) -> str | None:
        """Return the table as a spectator sees it (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass 'ansi'.")
            return None
        return ansi_text(self._state, None)

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""
