"""The browser speaks the same words as Python (#13, #23): the log line it makes of each
event's and each entry's message (the data the server sends with it) equals
``i18n.event_line`` for every engine event kind; and it reads where a card may go from
the view and the action table as the engine decides it.

Python writes the fixtures (the messages, the catalog as /api/catalog serves it, real
events from seeded random games as frames carry them, redacted for another seat and
whole, each with the line Python renders; one entry per table op; positions with the
slot the engine puts each legal play on), then Node's own test runner runs tests/js
against the static client's modules. Node is needed: in CI (``CI=true``) a missing
``node`` fails the test instead of skipping it.
"""

from __future__ import annotations

import collections
import json
import os
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from sequence_stacks.engine import (
    EndReason,
    Event,
    Settings,
    State,
    action_space,
    apply,
    apply_in_place,
    event_for,
    legal_actions,
    new_game,
    observe,
)
from sequence_stacks.engine.catalog import catalog, pile_slots, seat_action_fields
from sequence_stacks.engine.events import GameEnded
from sequence_stacks.i18n import (
    MESSAGES,
    event_line,
    event_message,
    messages_json,
    placeholders,
    render,
    words,
)
from sequence_stacks.server.app import STATIC_DIR
from sequence_stacks.server.play.entries import Op
from sequence_stacks.server.play.table import Entry
from sequence_stacks.server.play.viewdata import entry_dict, event_dict
from sequence_stacks.server.play.vocabulary import server_vocabulary
from sequence_stacks.server.web.pages import document

ROOT: Final = Path(__file__).resolve().parents[1]
JS_TESTS: Final = ROOT / "tests" / "js"
PARTICLE_CASES: Final = ROOT / "tests" / "i18n" / "korean_particles.json"
FIXTURES_ENV: Final = "SEQUENCE_STACKS_JS_FIXTURES"  # tests/js reads the fixtures from here
PER_VARIANT: Final = 4  # samples kept per message key, redacted and whole each
PER_GAME: Final = 4  # board samples kept per game

# Settings that make every event kind come up within a few random games: short hands
# (an emptied hand draws again), a tiny chip supply (a chip none is left of), a turn
# limit (a game with no winner), a low goal (a winner), Steal-a-Chip that may win.
SETTINGS: Final = (
    Settings(player_count=2),
    Settings(player_count=3, chip_supply=2, chips_to_win=3, min_each_colour=1),
    Settings(player_count=4, hand_size=2),
    Settings(player_count=6, max_turns=40),
    Settings(player_count=5, steal_chip_can_win=True, chips_to_win=2, min_each_colour=1),
    Settings(
        player_count=2,
        two_player_reverses=True,
        hand_size=1,
        chip_supply=1,
        chips_to_win=2,
        min_each_colour=1,
    ),
)


def player(seat: int) -> str:
    """How both sides name a seat in these fixtures (tests/js uses the same)."""
    return f"Player {seat + 1}"


def _random_game(settings: Settings, rng: random.Random) -> Iterator[tuple[Event, Settings]]:
    """Every event of one game of random legal play, with the game's settings."""
    events: list[Event] = []
    state = new_game(settings, rng.randrange(2**31), events)
    yield from ((event, settings) for event in events)
    while not state.is_over:
        seat = rng.choice(state.deciders())
        state, step = apply(state, seat, rng.choice(legal_actions(state, seat)))
        yield from ((event, settings) for event in step)


def _wire(data: Any) -> Any:
    """Data as a client reads it (tuples are JSON arrays)."""
    return json.loads(json.dumps(data))


def _sample(
    event: Event, settings: Settings, viewer: int | None, *, redacted: bool
) -> dict[str, Any]:
    """An event as frames carry it (with its message), and the line Python renders."""
    data = _wire(event_dict(event, settings.piles_per_colour))
    return {
        "event": data,
        "viewer": viewer,
        "redacted": redacted,
        "expected": event_line(event, player),
    }


def event_samples(seed: int = 13, max_games: int = 200) -> list[dict[str, Any]]:
    """Real events, up to PER_VARIANT of each message key (and of each event kind with
    no line), each as its seat sees it, as another seat sees it (redacted), and as a
    spectator sees it; plus a game end of every end reason."""
    rng = random.Random(seed)
    kept: collections.Counter[tuple[str, bool]] = collections.Counter()
    samples: list[dict[str, Any]] = []
    for number in range(max_games):
        settings_of_game = SETTINGS[number % len(SETTINGS)]
        for event, settings in _random_game(settings_of_game, rng):
            for viewer in (None, *range(settings.player_count)):
                shown = event_for(event, viewer)
                found = event_message(shown)
                redacted = shown != event
                variant = (found[0] if found else type(event).__name__, redacted)
                if kept[variant] < PER_VARIANT:
                    kept[variant] += 1
                    samples.append(_sample(shown, settings, viewer, redacted=redacted))
        if _covered(samples):
            break
    for reason in catalog()["end_reasons"]:
        winner = 1 if reason == "win" else None
        event = GameEnded(EndReason(reason), winner, (0.0, 0.0))
        samples.append(_sample(event, SETTINGS[0], None, redacted=False))
    return samples


def _covered(samples: list[dict[str, Any]]) -> bool:
    """Every event kind and every event message (``log.<EventKind>...``) was sampled."""
    kinds = {sample["event"]["type"] for sample in samples}
    keys = {sample["event"]["message"]["key"] for sample in samples if sample["event"]["message"]}
    return kinds >= set(catalog()["events"]) and keys >= event_keys()


def event_keys() -> set[str]:
    """The messages of engine events: ``log.<EventKind>`` and its variants."""
    return {key for key in messages_json("en") if key.startswith("log.") and key[4:5].isupper()}


def entry_samples() -> list[dict[str, Any]]:
    """One table entry per op (two seats each) as frames carry it, and a move made for a
    person whose time ran out, with the line Python renders for each (None: no line)."""
    samples: list[dict[str, Any]] = []

    def add(entry: Entry, expected: str | None, *, timed_out: bool = False) -> None:
        data = entry_dict(entry, None, piles_per_colour=2, timed_out=timed_out)
        samples.append({"entry": _wire(data), "expected": expected})

    for op in Op:
        if op is Op.ACT:
            add(Entry(5, op, 2, 1), None)
            add(
                Entry(6, op, 3, 1, auto=True),
                render("log.timed_out", player=player(3)),
                timed_out=True,
            )
        elif op is Op.START:
            for game in (1, 12):
                add(Entry(1, op, None, game), render("log.start", game=game))
        else:
            for seat in (0, 5):
                add(Entry(1, op, seat, 1), render(f"log.{op.value}", player=player(seat)))
    return samples


def board_samples(seed: int = 23, count: int = 40) -> list[dict[str, Any]]:
    """Positions of random games, each as the deciding seat's view, action table and
    slots, with the slot the engine puts every legal play's card on."""
    rng = random.Random(seed)
    samples: list[dict[str, Any]] = []
    while len(samples) < count:
        settings = Settings(
            player_count=rng.choice([2, 3, 4]), piles_per_colour=rng.choice([1, 2, 3])
        )
        state = new_game(settings, rng.randrange(2**31))
        wanted = len(samples) + PER_GAME
        while not state.is_over and len(samples) < min(count, wanted):
            seat = rng.choice(state.deciders())
            plays = _plays(state, seat)
            if plays and rng.random() < 0.3:
                samples.append(
                    {
                        "view": _wire(observe(state, seat).to_dict()),
                        "action_table": seat_action_fields(
                            settings.player_count, settings.piles_per_colour, seat
                        ),
                        "slots": pile_slots(settings.piles_per_colour),
                        "plays": plays,
                    }
                )
            state, _ = apply(state, seat, rng.choice(legal_actions(state, seat)))
    return samples


def _plays(state: State, seat: int) -> list[list[int]]:
    """[action id, the slot the card went on] for every legal play of ``seat``."""
    settings = state.settings
    space = action_space(settings.player_count, settings.piles_per_colour)
    found = []
    for action in legal_actions(state, seat):
        trial = state.clone()
        apply_in_place(trial, seat, action)
        grown = [s for s, pile in enumerate(trial.piles) if len(pile) > len(state.piles[s])]
        if len(grown) == 1:
            found.append([space.id_of(action, seat), grown[0]])
    return found


def refusal_samples() -> list[dict[str, Any]]:
    """Every illegal.* message with arguments of each kind it takes (a seat, a card
    kind, a pile, a colour, numbers), and the line Python renders for it."""
    values = {"player": 1, "victim": 2, "kind": 14, "pile": [1, 0], "colour": 0}
    samples = []
    for key, message in MESSAGES.items():
        if not key.startswith("illegal."):
            continue
        names = placeholders(message.text) | placeholders(message.plural or "")
        args = {name: values.get(name, 3) for name in sorted(names)}
        python_args = {k: tuple(v) if isinstance(v, list) else v for k, v in args.items()}
        # Players read no rule ids (#24): the browser shows the reason alone.
        expected = render(key, **words(python_args, lambda seat: f"Player {seat + 1}"))
        samples.append({"detail": {"key": key, "args": args}, "expected": expected})
    return samples


def write_fixtures(directory: Path) -> None:
    """The JSON files tests/js reads, and the static client's scripts as an ES
    module package (a copy beside a ``{"type": "module"}`` package.json: Node before
    20.19 reads a bare ``.js`` file as CommonJS, and the served folder needs none)."""
    scripts = directory / "static"
    scripts.mkdir()
    for script in STATIC_DIR.glob("*.js"):
        shutil.copyfile(script, scripts / script.name)
    for page in STATIC_DIR.glob("*.html"):  # each page whole, as the server sends it
        (scripts / page.name).write_text(document(page.name), encoding="utf-8")
    (scripts / "package.json").write_text('{"type": "module"}\n')
    files = {
        "messages.json": messages_json("en"),
        "catalog.json": catalog() | server_vocabulary(),  # as /api/catalog serves it
        "events.json": event_samples(),
        "entries.json": entry_samples(),
        "refusals.json": refusal_samples(),
        "boards.json": board_samples(),
        # The Korean particle cases Python's render is tested on too (#24).
        "particles.json": json.loads(PARTICLE_CASES.read_text(encoding="utf-8")),
    }
    for name, data in files.items():
        (directory / name).write_text(json.dumps(data, ensure_ascii=False, indent=1))


def test_the_samples_cover_every_event_kind_and_message() -> None:
    samples = event_samples()
    assert _covered(samples)
    redacted = {sample["event"]["type"] for sample in samples if sample["redacted"]}
    assert redacted == {"CardsDrawn", "BlockAnswered"}  # what event_for hides (R35, R29)


def test_the_browser_renders_every_event_as_python_does(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is not installed (scripts/test installs Debian's nodejs as root)")
        pytest.skip("node is not installed: apt-get install nodejs")
    write_fixtures(tmp_path)
    result = subprocess.run(
        [node, "--test", str(JS_TESTS)],
        env={**os.environ, FIXTURES_ENV: str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, f"node --test failed:\n{result.stdout}\n{result.stderr}"


def test_the_board_samples_have_plays_on_new_and_on_numbered_piles() -> None:
    samples = board_samples()
    fields = [s["action_table"][action_id] for s in samples for action_id, _ in s["plays"]]
    assert any(f["slot"] is None for f in fields)
    assert any(f["slot"] is not None for f in fields)
    assert {len(s["slots"]) for s in samples} >= {2, 4, 6}
