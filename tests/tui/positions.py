"""Positions for the terminal tests, reached by real play (no rigging of the state)."""

from __future__ import annotations

from sequence_stacks.engine import Phase
from sequence_stacks.tui import GameSession

from .helpers import make_session


def session_at_block_prompt(*, holding_block: bool) -> GameSession:
    """Return a 2-player session (seat 0 human) whose seat 0 must answer a Block window.

    Greedy bots play both seats from the deal until seat 1 completes a sequence while seat
    0 does (or does not) hold a Block; the human session then replays those actions.
    """
    for seed in range(1, 200):
        sim = make_session(players=2, humans=0, bot="greedy", seed=seed)
        while not sim.is_over:
            view = sim.view(0)
            if view.phase == Phase.BLOCK_WINDOW and 0 in view.window_pending:
                if (1 in view.legal_action_ids) == holding_block:
                    return make_session(players=2, humans=1, seed=seed, actions=sim.actions)
                break
            seat = sim.to_act()
            assert seat is not None
            sim.submit(seat, sim.bot_for(seat).choose(sim.view(seat)))
    raise AssertionError("no seed reaches the wanted Block window")
