"""Engine speed: the compiled and the pure-Python engine in one run, and RLCard's UNO.

Run: ``python benchmarks/engine.py [--players 4] [--games 400] [--rlcard] [--json]``.

Random legal play, then clone, observe, resample and the legal id list, timed once on
the compiled engine (as installed) and once on its Python source
(``SEQUENCE_STACKS_PURE=1``), each in its own process started by this one; the
figures are printed side by side with the compiled / pure ratio, and each with its
ratio to a pure-Python calibration loop run in the same process, so runs on busy or
different machines can be compared. With ``--rlcard`` (and RLCard installed) RLCard's
UNO game object is timed the same way, in this process. Targets (issue #16, 4 players):
compiled >= 2.5x pure atomic actions/s and >= 4x RLCard UNO; compiled clone <= 2 us,
resample <= 10 us.

``--ismcts GAMES``: ISMCTS searches per second on each engine (its default work cap, so
both make the same decisions), then ``GAMES`` two-player games of ISMCTS on the
compiled engine against ``heuristic``, given the time the pure engine needs for the
default search (``--budget-scale`` times the default deals and work cap, the measured
speed-up by default): its win rate says whether more search in the same second makes
it stronger.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sequence_stacks import ENGINE_BUILD
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

# Targets of the compiled engine (issue #16); the pure engine's of issue #2 in brackets.
TARGETS = {
    "actions_per_s": (150_000.0, "higher"),
    "games_per_s": (800.0, "higher"),
    "clone_us": (2.0, "lower"),
    "resample_us": (10.0, "lower"),
}
SPEEDUP_TARGET = 2.5  # compiled / pure atomic actions per second
RLCARD_TARGET = 4.0  # compiled atomic actions / RLCard UNO steps per second


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


def random_play(
    player_count: int, games: int, seed: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[int, float, list[State]]:
    """Play ``games`` random legal games; return (actions, seconds of ``clock``, sample
    states)."""
    settings = Settings(player_count=player_count)
    space = action_space(player_count, settings.piles_per_colour)
    rng = random.Random(seed)
    actions = 0
    samples: list[State] = []
    start = clock()
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
    return actions, clock() - start, samples


def per_call_us(
    function: Callable[[State], object],
    states: list[State],
    repeat: int,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Return the median over states of the mean microseconds per call."""
    timings = []
    for state in states:
        start = clock()
        for _ in range(repeat):
            function(state)
        timings.append((clock() - start) / repeat * 1e6)
    return statistics.median(timings)


def rlcard_uno_steps_per_s(python: str | None = None, steps: int = 100_000) -> float | None:
    """Time RLCard's UNO game object under random play (CPU time), if RLCard is installed
    here or in ``python`` (then in a process of that Python)."""
    if python is not None:
        code = f"{inspect.getsource(_uno_rate)}\nprint(_uno_rate({steps}))"
        done = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
        return float(done.stdout.strip())
    try:
        return _uno_rate(steps)
    except ImportError:
        return None


def _uno_rate(steps: int) -> float:
    import importlib  # noqa: PLC0415 - this function's source also runs on its own
    import time  # noqa: PLC0415

    uno_module = importlib.import_module("rlcard.games.uno.game")
    np = importlib.import_module("numpy")
    game = uno_module.UnoGame(num_players=4)
    rng = np.random.RandomState(0)
    done = 0
    start = time.process_time()
    while done < steps:
        game.np_random = rng
        game.init_game()
        while not game.is_over() and done < steps:
            legal = game.get_legal_actions()
            game.step(legal[rng.randint(len(legal))])
            done += 1
    return done / (time.process_time() - start)


def measure(
    players: int, games: int, seed: int, clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    """Run every measurement and return the figures (seconds of ``clock``)."""
    calibration = calibration_ops_per_s(clock=clock)
    actions, seconds, samples = random_play(players, games, seed, clock)
    rng = random.Random(seed)
    seat = 0
    return {
        "calibration_ops_per_s": calibration,
        "actions_per_s": actions / seconds,
        "games_per_s": games / seconds,
        "actions_per_game": actions / games,
        "clone_us": per_call_us(State.clone, samples, 200, clock),
        "observe_us": per_call_us(lambda s: observe(s, seat), samples, 100, clock),
        "resample_us": per_call_us(lambda s: resample(s, seat, rng), samples, 100, clock),
        "legal_ids_us": per_call_us(lambda s: legal_action_ids(s, s.current), samples, 200, clock),
    }


def measure_in_process(players: int, games: int, seed: int, *, pure: bool) -> dict[str, float]:
    """Run :func:`measure` in a new process on the compiled (or the pure) engine."""
    env = {**os.environ, "SEQUENCE_STACKS_PURE": "1" if pure else "0"}
    command = [sys.executable, __file__, "--single", "--json", "--cpu"]
    command += ["--players", str(players), "--games", str(games), "--seed", str(seed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def print_table(pure: dict[str, float], compiled: dict[str, float], uno: float | None) -> None:
    """Print the two engines side by side, with the ratios and the targets."""
    print(f"{'figure':24} {'pure':>14} {'compiled':>14}  compiled/pure   target (compiled)")
    for name, value in compiled.items():
        ratio = value / pure[name] if pure[name] else math.nan
        line = f"{name:24} {pure[name]:>14,.2f} {value:>14,.2f}  {ratio:>12.2f}x"
        if name in TARGETS:
            target, better = TARGETS[name]
            met = value >= target if better == "higher" else value <= target
            line += f"   {'>=' if better == 'higher' else '<='} {target:,.0f}: "
            line += "met" if met else "NOT met"
        print(line)
    speedup = compiled["actions_per_s"] / pure["actions_per_s"]
    verdict = "met" if speedup >= SPEEDUP_TARGET else "NOT met"
    print(
        f"compiled / pure atomic actions/s: {speedup:.2f}x (target >= {SPEEDUP_TARGET}x: {verdict})"
    )
    # Each engine ran in its own process: their calibration loops tell how busy it was.
    load = pure["calibration_ops_per_s"] / compiled["calibration_ops_per_s"]
    print(f"  the same, each divided by its process's calibration rate: {speedup * load:.2f}x")
    if uno is not None:
        versus = compiled["actions_per_s"] / uno
        verdict = "met" if versus >= RLCARD_TARGET else "NOT met"
        print(f"RLCard UNO game object: {uno:,.0f} steps/s in this process")
        print(f"compiled / RLCard UNO: {versus:.2f}x (target >= {RLCARD_TARGET}x: {verdict})")
        print(f"pure / RLCard UNO: {pure['actions_per_s'] / uno:.2f}x")


def main(argv: list[str] | None = None) -> int:
    """Print the figures of both engines with their ratios and the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rlcard", action="store_true", help="also time RLCard UNO if installed")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--single", action="store_true", help="time this process's engine only")
    parser.add_argument("--cpu", action="store_true", help="CPU time (process_time), not wall")
    parser.add_argument("--rlcard-python", help="a Python with RLCard installed, for --rlcard")
    parser.add_argument("--ismcts", type=int, metavar="GAMES", help="ISMCTS figures (see above)")
    parser.add_argument("--budget-scale", type=float, help="ISMCTS search scale on compiled")
    args = parser.parse_args(argv)
    if args.ismcts is not None:
        from benchmarks.ismcts_speed import run_ismcts  # noqa: PLC0415 - this mode only

        return run_ismcts(args.ismcts, args.seed, args.budget_scale)
    if args.single:
        clock = time.process_time if args.cpu else time.perf_counter
        figures = measure(args.players, args.games, args.seed, clock)
        figures["compiled"] = float(bool(ENGINE_BUILD.compiled))
        print(json.dumps(figures, indent=2) if args.json else figures)
        return 0
    compiled = measure_in_process(args.players, args.games, args.seed, pure=False)
    pure = measure_in_process(args.players, args.games, args.seed, pure=True)
    uno = rlcard_uno_steps_per_s(args.rlcard_python) if args.rlcard else None
    if not compiled.pop("compiled") or pure.pop("compiled"):
        print(f"the compiled engine is not installed: {ENGINE_BUILD.reason}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"pure": pure, "compiled": compiled, "rlcard_uno_steps_per_s": uno}))
        return 0
    print(f"Python {sys.version.split()[0]}, {args.players} players, {args.games} games")
    print(f"engine: {ENGINE_BUILD.reason}; calibration loop ratios: see --json")
    print_table(pure, compiled, uno)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
