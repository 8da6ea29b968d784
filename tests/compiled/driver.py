"""Print a stream of digests of everything the engine does, one line per step.

Run once as installed (the compiled engine) and once with ``SEQUENCE_STACKS_PURE=1``
(its Python source): both streams must be equal line for line (test_same_game.py).

``python -m tests.compiled.driver golden``: each golden record, replayed action by action:
the position's digest and the events after every action, then the record's own check.
``python -m tests.compiled.driver bots``: games of the compiled bots (greedy, heuristic,
and a small ISMCTS): every decision and the final position's digest.
``python -m tests.compiled.driver random GAMES SEED``: GAMES random games at every
player count 2-6 with random variant settings; at every step, every seat's legal ids,
the action, the events, the position's digest, every seat's view and a spectator's, a
clone's equality, and each few steps a resampled deal and a pickled copy.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sequence_stacks import ENGINE_BUILD
from sequence_stacks.bots import Bot, make_bot
from sequence_stacks.bots.ismcts import IsmctsBot
from sequence_stacks.engine import (
    Event,
    GameRecord,
    Replay,
    Settings,
    State,
    action_space,
    apply,
    event_to_dict,
    legal_action_ids,
    new_game,
    observe,
    position_digest,
    resample,
)

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "records"


def _digest(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _events(events: list[Event] | tuple[Event, ...]) -> list[dict[str, Any]]:
    return [event_to_dict(event) for event in events]


def golden_lines() -> Iterator[str]:
    """The digests of every golden record's replay, step by step."""
    for path in sorted(GOLDEN.glob("*.json")):
        record = GameRecord.from_dict(json.loads(path.read_text(encoding="utf-8")))
        replay = Replay(record)
        start = _digest(_events(replay.start_events))
        yield f"{path.name} start {position_digest(replay.state)} {start}"
        for index, seat, action, events in replay:
            digest = position_digest(replay.state)
            yield f"{path.name} {index} {seat} {action} {digest} {_digest(_events(events))}"
        yield f"{path.name} final {position_digest(record.replay())} {record.digest}"


def random_settings(rng: random.Random, player_count: int) -> Settings:
    """Random variant settings (every option of RULES.md R40) for ``player_count``."""
    min_each = rng.choice([0, 1, 2, 2, 3])
    chips_to_win = rng.choice([max(1, 2 * min_each), 5, 5, 7])
    chips_to_win = max(chips_to_win, 2 * min_each, 1)
    supply = rng.choice([None, 20, 20, max(min_each, (chips_to_win + 1) // 2, 3)])
    return Settings(
        player_count=player_count,
        piles_per_colour=rng.choice([1, 2, 2, 3, 4]),
        refill_at_turn_start=rng.random() < 0.8,
        chip_supply=supply,
        steal_chip_can_win=rng.random() < 0.3,
        two_player_reverses=rng.random() < 0.5,
        max_turns=rng.choice([2000, 2000, 60, 300]),
        max_turn_actions=rng.choice([500, 500, 12]),
        hand_size=rng.choice([5, 5, 3, 7, 1]),
        chips_to_win=chips_to_win,
        min_each_colour=min_each,
        first_seat=rng.randrange(player_count),
    )


def _step_line(state: State, actor: int, action_id: int, events: tuple[Event, ...]) -> str:
    seats = range(state.player_count)
    legal = [legal_action_ids(state, seat) for seat in seats]
    views = [observe(state, seat).to_dict() for seat in seats]
    views.append(observe(state, None).to_dict())
    parts = (
        position_digest(state),
        _digest(legal),
        _digest(_events(events)),
        _digest(views),
        str(state.clone() == state),
    )
    return f"{actor} {action_id} " + " ".join(parts)


def random_lines(games: int, seed: int) -> Iterator[str]:
    """The digests of ``games`` random games at every player count, step by step."""
    for player_count in range(2, 7):
        for game in range(games):
            rng = random.Random(f"{seed}/{player_count}/{game}")
            settings = random_settings(rng, player_count)
            start: list[Event] = []
            state = new_game(settings, rng.getrandbits(32), start)
            space = action_space(player_count, settings.piles_per_colour)
            yield f"{player_count} {game} {settings.to_dict()} {_step_line(state, -1, -1, ())}"
            step = 0
            while not state.is_over:
                seat = state.current_player()
                assert seat is not None
                action_id = rng.choice(legal_action_ids(state, seat))
                state, events = apply(state, seat, space.action(action_id, seat))
                yield f"{player_count} {game} {step} {_step_line(state, seat, action_id, events)}"
                if step % 7 == 0:
                    sampled = resample(state, seat, random.Random(step))
                    copy = pickle.loads(pickle.dumps(state))
                    yield f"  resample {position_digest(sampled)} pickle {copy == state}"
                step += 1
            yield f"{player_count} {game} result {state.result}"


def bot_lines() -> Iterator[str]:
    """Every decision of bot games: heuristic and greedy at 2-6 players, and ISMCTS
    (a few deals a search) against heuristic at 2 and 3 players."""
    tables: list[tuple[int, list[Bot]]] = [
        (
            count,
            [make_bot("heuristic" if seat % 2 else "greedy", seed=seat) for seat in range(count)],
        )
        for count in range(2, 7)
    ]
    for count in (2, 3):
        bots: list[Bot] = [IsmctsBot(seed=7, iterations=4, work_limit=3000)]
        tables.append((count, bots + [make_bot("heuristic", seed=s) for s in range(1, count)]))
    for game, (count, bots) in enumerate(tables):
        state = new_game(Settings(player_count=count), game)
        space = action_space(count, state.settings.piles_per_colour)
        while not state.is_over:
            seat = state.current_player()
            assert seat is not None
            action = bots[seat].choose(observe(state, seat))
            state, _ = apply(state, seat, action)
            yield f"bots {game} {seat} {space.id_of(action, seat)}"
        yield f"bots {game} final {position_digest(state)}"


def main(argv: list[str]) -> int:
    """Print the stream named by ``argv`` (see the module docstring)."""
    print(f"engine {'compiled' if ENGINE_BUILD.compiled else 'pure'}")
    if argv[0] == "golden":
        lines = golden_lines()
    elif argv[0] == "bots":
        lines = bot_lines()
    else:
        lines = random_lines(int(argv[1]), int(argv[2]))
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
