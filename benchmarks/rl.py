"""RL adapter speed: the documented PettingZoo loop and the raw encode + mask path (issue 6).

Run: ``python benchmarks/rl.py [--players 4] [--steps 100000] [--json]``.

Every figure is printed with its ratio to the same pure-Python calibration loop as
``benchmarks/engine.py``, run in the same process, and the PettingZoo loops also as a
ratio to the engine's own random play timed here. Targets (4 players): documented
PettingZoo loop (``raw_env``, mask sampling) >= 20,000 steps/s; encode + mask of a view
>= 50,000/s. Where RLCard is installed, PettingZoo's RLCard-based classic games (UNO
where the installed PettingZoo still has it, Texas and Leduc Hold'em; they need pygame)
run through the same loop, and RLCard's own UNO environment through its own API.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from benchmarks import engine as engine_benchmark
from sequence_stacks.engine import (
    Settings,
    View,
    action_space,
    apply_in_place,
    legal_action_ids,
    new_game,
    observe,
)
from sequence_stacks.env import encoder_for
from sequence_stacks.env.gym_env import SequenceStacksEnv
from sequence_stacks.env.pettingzoo_env import env, raw_env

TARGETS = {
    "pettingzoo_raw_steps_per_s": (20_000.0, "higher"),
    "encode_mask_per_s": (50_000.0, "higher"),
}
RLCARD_GAMES = ("uno_v3", "texas_holdem_v4", "leduc_holdem_v4")
# The clock every figure uses: wall time, or with --cpu this process's CPU time (steadier
# on a machine shared with other work).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def calibration_ops_per_s(seconds: float = 0.3) -> float:
    """Return the rate of benchmarks/engine.py's pure-Python calibration loop, timed by
    ``CLOCK``."""
    return engine_benchmark.calibration_ops_per_s(seconds, clock=CLOCK[0])


def engine_actions_per_s(player_count: int, steps: int) -> tuple[float, list[View]]:
    """Time the engine's random legal play; return actions/s and sample views."""
    settings = Settings(player_count=player_count)
    space = action_space(player_count, settings.piles_per_colour)
    rng = random.Random(1)
    views: list[View] = []
    done = 0
    game = 0
    elapsed = 0.0
    while done < steps:
        state = new_game(settings, game)
        game += 1
        start = CLOCK[0]()
        while not state.is_over:
            seat = state.current_player()
            assert seat is not None
            action_id = rng.choice(legal_action_ids(state, seat))
            apply_in_place(state, seat, space.action(action_id, seat), checked=False)
            done += 1
            if done % 97 == 0:
                elapsed += CLOCK[0]() - start
                views.append(observe(state, state.current_player() or 0))
                start = CLOCK[0]()
        elapsed += CLOCK[0]() - start
    return done / elapsed, views


def encode_mask_per_s(views: list[View], repeat: int) -> float:
    """Time ``encode`` + ``mask`` of ready-made views (the raw path, no engine work)."""
    encoder = encoder_for(views[0].settings)
    start = CLOCK[0]()
    for _ in range(repeat):
        for view in views:
            encoder.encode(view)
            encoder.mask(view)
    return repeat * len(views) / (CLOCK[0]() - start)


def observe_encode_mask_per_s(views: list[View], player_count: int, repeat: int) -> float:
    """Time ``observe`` + ``encode`` + ``mask`` from states (what an env does per step)."""
    settings = Settings(player_count=player_count)
    encoder = encoder_for(settings)
    states = [new_game(settings, seed) for seed in range(len(views))]
    start = CLOCK[0]()
    for _ in range(repeat):
        for state in states:
            view = observe(state, state.current)
            encoder.encode(view)
            encoder.mask(view)
    return repeat * len(states) / (CLOCK[0]() - start)


def pettingzoo_loop_steps_per_s(game: Any, steps: int) -> float:
    """Run the documented loop (mask sampling) for ``steps`` agent steps; return steps/s."""
    rng = random.Random(0)
    done = 0
    seed = 0
    start = CLOCK[0]()
    while done < steps:
        game.reset(seed=seed)
        seed += 1
        for _agent in game.agent_iter():
            observation, _reward, termination, truncation, info = game.last()
            if termination or truncation:
                action = None
            else:
                mask = observation["action_mask"] if isinstance(observation, dict) else None
                if mask is None:
                    mask = info["action_mask"]
                action = rng.choice(mask.nonzero()[0].tolist())
            game.step(action)
            done += 1
    return done / (CLOCK[0]() - start)


def gym_steps_per_s(player_count: int, steps: int) -> float:
    """Time the Gymnasium env (one random learner against random bots): learner steps/s."""
    game = SequenceStacksEnv(player_count=player_count, opponents="random")
    rng = random.Random(0)
    done = 0
    seed = 0
    start = CLOCK[0]()
    while done < steps:
        _, info = game.reset(seed=seed)
        seed += 1
        finished = False
        while not finished:
            action = rng.choice(info["action_mask"].nonzero()[0].tolist())
            _, _, terminated, truncated, info = game.step(action)
            finished = terminated or truncated
            done += 1
    return done / (CLOCK[0]() - start)


def rlcard_env(name: str) -> Any:
    """Return PettingZoo's classic game ``name`` (RLCard-based), or None where absent."""
    try:
        return importlib.import_module(f"pettingzoo.classic.{name}").env()
    except Exception:  # absent, deprecated or RLCard missing: skip it
        return None


def rlcard_uno_env_steps_per_s(steps: int) -> float | None:
    """Time RLCard's own UNO environment (its state encoding included), if installed."""
    try:
        rlcard = importlib.import_module("rlcard")  # optional, untyped: imported by name
    except ImportError:
        return None
    game = rlcard.make("uno", config={"seed": 0, "game_num_players": 4})
    rng = random.Random(0)
    done = 0
    start = CLOCK[0]()
    while done < steps:
        state, _ = game.reset()
        while not game.is_over() and done < steps:
            state, _ = game.step(rng.choice(list(state["legal_actions"])))
            done += 1
    return done / (CLOCK[0]() - start)


def best_of(rounds: int, figure: Callable[[], float]) -> tuple[float, float]:
    """Return the best of ``rounds`` runs of ``figure`` and the calibration rate measured
    just before that run (so each ratio compares like with like)."""
    best = (0.0, 1.0)
    for _ in range(rounds):
        calibration = calibration_ops_per_s(0.15)
        value = figure()
        if value > best[0]:
            best = (value, calibration)
    return best


def measure(players: int, steps: int, rounds: int, rlcard: bool) -> dict[str, tuple[float, float]]:
    """Run every measurement; return ``name -> (rate, calibration rate beside it)``."""
    figures: dict[str, tuple[float, float]] = {}
    _, views = engine_actions_per_s(players, 2_000)
    repeat = max(1, steps // (4 * len(views)))
    figures["engine_actions_per_s"] = best_of(
        rounds, lambda: engine_actions_per_s(players, steps)[0]
    )
    figures["encode_mask_per_s"] = best_of(rounds, lambda: encode_mask_per_s(views, repeat))
    figures["observe_encode_mask_per_s"] = best_of(
        rounds, lambda: observe_encode_mask_per_s(views, players, repeat)
    )
    figures["pettingzoo_raw_steps_per_s"] = best_of(
        rounds, lambda: pettingzoo_loop_steps_per_s(raw_env(player_count=players), steps)
    )
    figures["pettingzoo_env_steps_per_s"] = best_of(
        rounds, lambda: pettingzoo_loop_steps_per_s(env(player_count=players), steps // 2)
    )
    figures["gym_learner_steps_per_s"] = best_of(
        rounds, lambda: gym_steps_per_s(players, steps // 8)
    )
    if rlcard:
        if rlcard_uno_env_steps_per_s(100) is not None:
            figures["rlcard_uno_env_steps_per_s"] = best_of(
                rounds, lambda: rlcard_uno_env_steps_per_s(steps // 4) or 0.0
            )
        for name in RLCARD_GAMES:
            game = rlcard_env(name)
            if game is not None:
                figures[f"pettingzoo_{name}_steps_per_s"] = best_of(
                    rounds, functools.partial(pettingzoo_loop_steps_per_s, game, steps // 4)
                )
    return figures


def main(argv: list[str] | None = None) -> int:
    """Print the figures with their ratios to the calibration loop, the engine and targets."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=60_000)
    parser.add_argument("--rounds", type=int, default=3, help="runs per figure; the best counts")
    parser.add_argument("--cpu", action="store_true", help="time with process CPU time")
    parser.add_argument("--no-rlcard", action="store_true", help="skip the RLCard-based games")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.process_time
    figures = measure(args.players, args.steps, args.rounds, not args.no_rlcard)
    if args.json:
        print(json.dumps({name: rate for name, (rate, _) in figures.items()}, indent=2))
        return 0
    clock = "process CPU time" if args.cpu else "wall time"
    engine_rate = figures["engine_actions_per_s"][0]
    print(f"Python {sys.version.split()[0]}, {args.players} players, {args.steps:,} steps, {clock}")
    print("best of", args.rounds, "runs; ratio = figure / calibration loop run just before it")
    for name, (value, calibration) in figures.items():
        line = f"  {name:38} {value:>10,.0f}/s   ratio {value / calibration:.3e}"
        if name.startswith(("pettingzoo", "gym", "rlcard")):
            line += f"   x engine {value / engine_rate:.3f}"
        if name in TARGETS:
            target, _ = TARGETS[name]
            line += f"   target >= {target:,.0f}: {'met' if value >= target else 'NOT met'}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
