"""Engine speed: random legal play, clone, observe and resample (issue 2's targets).

Run: ``python benchmarks/engine.py [--players 4] [--games 400] [--json]``.

Every figure is printed with its ratio to a pure-Python calibration loop run in the same
process, so runs on busy or different machines can be compared. Targets (4 players):
atomic actions/s >= 150,000; games/s >= 800; clone <= 5 us; resample <= 30 us.
With ``--rlcard`` (and RLCard installed) RLCard's UNO game is timed the same way.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

from sequence_stacks.engine import (
    Settings,
    State,
    action_space,
    apply_in_place,
    legal_action_ids,
    new_game,
    observe,
    resample,
)

TARGETS = {
    "actions_per_s": (150_000.0, "higher"),
    "games_per_s": (800.0, "higher"),
    "clone_us": (5.0, "lower"),
    "resample_us": (30.0, "lower"),
}


def calibration_ops_per_s(
    seconds: float = 0.3, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Return the rate of a fixed pure-Python loop (list, dict and int work), run for
    ``seconds`` of ``clock`` (wall time by default; benchmarks/rl.py may pass CPU time)."""
    count = 0
    data = list(range(16))
    table: dict[int, int] = {}
    deadline = clock() + seconds
    while clock() < deadline:
        for _ in range(1000):
            value = data[count & 15] + count
            table[value & 255] = value
            data.append(value)
            data.pop()
            count += 1
    return count / seconds


def random_play(player_count: int, games: int, seed: int) -> tuple[int, float, list[State]]:
    """Play ``games`` random legal games; return (actions, seconds, sample states)."""
    settings = Settings(player_count=player_count)
    space = action_space(player_count, settings.piles_per_colour)
    rng = random.Random(seed)
    actions = 0
    samples: list[State] = []
    start = time.perf_counter()
    for game in range(games):
        state = new_game(settings, seed * 100_003 + game)
        while not state.is_over:
            seat = state.current_player()
            assert seat is not None
            action_id = rng.choice(legal_action_ids(state, seat))
            apply_in_place(state, seat, space.action(action_id, seat), checked=False)
            actions += 1
            if actions % 997 == 0:
                samples.append(state.clone())
    return actions, time.perf_counter() - start, samples


def per_call_us(function: Callable[[State], object], states: list[State], repeat: int) -> float:
    """Return the median over states of the mean microseconds per call."""
    timings = []
    for state in states:
        start = time.perf_counter()
        for _ in range(repeat):
            function(state)
        timings.append((time.perf_counter() - start) / repeat * 1e6)
    return statistics.median(timings)


def rlcard_uno_steps_per_s(steps: int = 100_000) -> float | None:
    """Time RLCard's UNO game object under random play, if RLCard is installed."""
    try:  # optional: imported by name so type checking works with or without them
        uno_module = importlib.import_module("rlcard.games.uno.game")
        numpy = importlib.import_module("numpy")
    except ImportError:
        return None
    UnoGame = uno_module.UnoGame  # noqa: N806 - the class's own name
    np = numpy

    game = UnoGame(num_players=4)
    rng = np.random.RandomState(0)
    done = 0
    start = time.perf_counter()
    while done < steps:
        game.np_random = rng
        _, _player = game.init_game()
        while not game.is_over() and done < steps:
            legal = game.get_legal_actions()
            game.step(legal[rng.randint(len(legal))])
            done += 1
    return done / (time.perf_counter() - start)


def measure(players: int, games: int, seed: int) -> dict[str, float]:
    """Run every measurement and return the figures."""
    calibration = calibration_ops_per_s()
    actions, seconds, samples = random_play(players, games, seed)
    rng = random.Random(seed)
    seat = 0
    return {
        "calibration_ops_per_s": calibration,
        "actions_per_s": actions / seconds,
        "games_per_s": games / seconds,
        "actions_per_game": actions / games,
        "clone_us": per_call_us(State.clone, samples, 200),
        "observe_us": per_call_us(lambda s: observe(s, seat), samples, 100),
        "resample_us": per_call_us(lambda s: resample(s, seat, rng), samples, 100),
        "legal_ids_us": per_call_us(lambda s: legal_action_ids(s, s.current), samples, 200),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures with their ratios to the calibration loop and to the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rlcard", action="store_true", help="also time RLCard UNO if installed")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    figures = measure(args.players, args.games, args.seed)
    if args.rlcard:
        uno = rlcard_uno_steps_per_s()
        if uno is not None:
            figures["rlcard_uno_steps_per_s"] = uno
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    calibration = figures["calibration_ops_per_s"]
    print(f"Python {sys.version.split()[0]}, {args.players} players, {args.games} games")
    print(f"calibration loop: {calibration:,.0f} ops/s (ratios below are figure / calibration)")
    for name, value in figures.items():
        if name == "calibration_ops_per_s":
            continue
        ratio = value / calibration
        line = f"  {name:24} {value:>14,.2f}   ratio {ratio:.3e}"
        if name in TARGETS:
            target, better = TARGETS[name]
            met = value >= target if better == "higher" else value <= target
            line += f"   target {'>=' if better == 'higher' else '<='} {target:,.0f}: "
            line += "met" if met else "NOT met"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
