"""Write the golden game records of ``tests/golden/records/`` (R41).

Run from the repository root, after a deliberate change of the rules engine:

    python -m tests.golden.make_golden          (or: python tests/golden/make_golden.py)

Each spec names settings, a preference policy and the features its game must show.
Games are played with seeded random choices steered by the policy; seeds 0, 1, 2, ...
are tried until a game shows every wanted feature, and that game is written as a
:class:`GameRecord` with its final digest and a ``meta`` block naming what it covers.
``test_golden_games.py`` replays every record and checks those claims from the events.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from pathlib import Path

from sequence_stacks.engine import (
    Action,
    ActionType,
    DrawReason,
    Event,
    GameRecord,
    Settings,
    State,
    apply_in_place,
    legal_actions,
    new_game,
    position_digest,
)
from sequence_stacks.engine.events import (
    BlockAnswered,
    BlockWindowOpened,
    CardPlayed,
    CardsDrawn,
    CardStolen,
    ChipStolen,
    ChipTaken,
    GameEnded,
    PileBlocked,
    Reshuffled,
    ReversePlayed,
    SkipPlayed,
    TurnSkipped,
    TurnStarted,
)

RECORDS_DIR = Path(__file__).resolve().parent / "records"
SEED_LIMIT = 20_000
T = ActionType

# A policy is the order in which action types are preferred; ties are broken at
# random, and a seat with none of the listed types picks uniformly at random.
POLICIES: dict[str, tuple[ActionType, ...]] = {
    # Every action card as soon as it can, then build piles, then discard; always block.
    "eager": (T.BLOCK, T.STEAL_CHIP, T.STEAL_CARD, T.SKIP, T.REVERSE, T.PLAY, T.END, T.DISCARD),
    # Build piles only; never block; action cards are discarded sooner or later.
    "builder": (T.PASS, T.PLAY, T.END, T.DISCARD),
    # Never play a card: pass every window, only discard.
    "hoarder": (T.PASS, T.END, T.DISCARD),
    # Uniform among the legal actions.
    "random": (),
}


@dataclasses.dataclass(frozen=True)
class Spec:
    """One golden game: its settings, its policy and the features it must show."""

    name: str
    description: str
    settings: Settings
    policy: str
    covers: tuple[str, ...]


SPECS: tuple[Spec, ...] = (
    Spec(
        "win-4p-action-cards",
        "Default 4-player game won on chips; every action card is played, one Block spent.",
        Settings(),
        "eager",
        (
            "win",
            "skip",
            "reverse",
            "steal_card",
            "steal_chip",
            "block",
            "reshuffle",
            "from_discard",
        ),
    ),
    Spec(
        "win-2p",
        "Default 2-player game (112-card deck, R2) won on chips, with a Skip that gives "
        "its player another turn (R26) and a Block.",
        Settings(player_count=2),
        "eager",
        ("win", "two_players", "skip", "skip_another_turn", "steal_card", "block"),
    ),
    Spec(
        "win-6p-two-blockers",
        "Default 6-player game won on chips, with a Reverse and a Block window in which "
        "two seats answer block and only the first in turn order spends its card (N5).",
        Settings(player_count=6),
        "eager",
        ("win", "six_players", "reverse", "two_blockers", "block"),
    ),
    Spec(
        "stalemate-3p-hoarders",
        "3 players who never play a card: the draw pile runs dry and a full round passes "
        "with nothing played (R33, N7).",
        Settings(player_count=3),
        "hoarder",
        ("stalemate",),
    ),
    Spec(
        "stalemate-5p-random-end",
        "5 players at random: a stalemate in which a player with an empty hand and nothing "
        "to draw ends the turn without discarding (R19, R33).",
        Settings(player_count=5),
        "random",
        ("stalemate", "end_action", "reshuffle"),
    ),
    Spec(
        "max-turns-3p",
        "3 players at random, stopped by max_turns=40 (R33, N8).",
        Settings(player_count=3, max_turns=40),
        "random",
        ("max_turns", "variant"),
    ),
    Spec(
        "max-turns-6p",
        "6 players at random, stopped by max_turns=25 (R33, N8).",
        Settings(player_count=6, max_turns=25),
        "random",
        ("max_turns", "six_players", "variant"),
    ),
    Spec(
        "variant-steal-chip-wins",
        "One pile per colour, unlimited chips, and a game won by Steal-a-Chip "
        "(steal_chip_can_win=true, N10).",
        Settings(piles_per_colour=1, chip_supply=None, steal_chip_can_win=True),
        "eager",
        ("win", "steal_chip_win", "variant"),
    ),
    Spec(
        "variant-short-supply",
        "3 chips of each colour: the supply runs dry, a completer takes no chip (R17), "
        "and nobody can win before max_turns=300.",
        Settings(player_count=3, chip_supply=3, max_turns=300),
        "builder",
        ("supply_empty", "max_turns", "variant"),
    ),
    Spec(
        "variant-no-refill",
        "No refill at the start of a turn and 3-card hands: hands are redrawn only when "
        "emptied (R18, N4).",
        Settings(refill_at_turn_start=False, hand_size=3),
        "eager",
        ("win", "empty_hand_draw", "variant"),
    ),
    Spec(
        "variant-2p-reverses",
        "2 players with the Reverses kept: a Reverse is played and does nothing (R30, N6).",
        Settings(player_count=2, two_player_reverses=True),
        "eager",
        ("reverse_no_effect", "two_players", "variant"),
    ),
    Spec(
        "variant-quick-5p",
        "5 players, seat 2 first, 7-card hands, three piles a colour, 3 chips (1 of each "
        "colour) to win.",
        Settings(
            player_count=5,
            first_seat=2,
            hand_size=7,
            piles_per_colour=3,
            chips_to_win=3,
            min_each_colour=1,
        ),
        "builder",
        ("win", "variant"),
    ),
)


def choose(state: State, seat: int, policy: str, rng: random.Random) -> Action:
    """Pick ``seat``'s action: the first preferred type that is legal, else any."""
    legal = legal_actions(state, seat)
    for wanted in POLICIES[policy]:
        candidates = [action for action in legal if action.type == wanted]
        if candidates:
            return rng.choice(candidates)
    return rng.choice(legal)


def play(spec: Spec, seed: int) -> tuple[GameRecord, list[Event]]:
    """Play one game of ``spec``; return its record and every event, deal included."""
    events: list[Event] = []
    state = new_game(spec.settings, seed, events)
    rng = random.Random(f"golden/{spec.name}/{seed}")
    actions: list[tuple[int, Action]] = []
    while not state.is_over:
        seat = rng.choice(state.deciders())  # Block answers arrive in any order (N5)
        action = choose(state, seat, spec.policy, rng)
        apply_in_place(state, seat, action, events)
        actions.append((seat, action))
    record = GameRecord(
        settings=spec.settings,
        seed=seed,
        actions=tuple(actions),
        result=state.result,
        digest=position_digest(state),
        meta={
            "name": spec.name,
            "description": spec.description,
            "covers": list(spec.covers),
            "variant": variant_options(spec.settings),
            "policy": spec.policy,
            "generator": "tests/golden/make_golden.py",
        },
    )
    return record, events


def variant_options(settings: Settings) -> list[str]:
    """Return ``name=value`` for each option (but the player count) not at its default."""
    defaults = Settings(player_count=settings.player_count).to_dict()
    return [
        f"{name}={value}"
        for name, value in settings.to_dict().items()
        if name != "player_count" and value != defaults[name]
    ]


def features(record: GameRecord, events: list[Event]) -> set[str]:  # noqa: PLR0912 - one branch per event type
    """Return the coverage tags a played game shows (see test_golden_games.py)."""
    found: set[str] = set()
    count = record.settings.player_count
    found.update({2: {"two_players"}, 6: {"six_players"}}.get(count, set()))
    if variant_options(record.settings):
        found.add("variant")
    if record.result is not None:
        found.add(record.result.reason)
    if any(action.type == ActionType.END for _, action in record.actions):
        found.add("end_action")
    blocks_in_window = 0
    for index, event in enumerate(events):
        if isinstance(event, SkipPlayed):
            found.add("skip")
        elif isinstance(event, ReversePlayed):
            found.add("reverse" if count > 2 else "reverse_no_effect")
        elif isinstance(event, CardStolen):
            found.add("steal_card")
        elif isinstance(event, ChipStolen):
            found.add("steal_chip")
            after = events[index + 1] if index + 1 < len(events) else None
            if isinstance(after, GameEnded) and after.winner == event.seat:
                found.add("steal_chip_win")
        elif isinstance(event, BlockWindowOpened):
            blocks_in_window = 0
        elif isinstance(event, BlockAnswered) and event.blocked:
            blocks_in_window += 1
            if blocks_in_window >= 2:
                found.add("two_blockers")
        elif isinstance(event, PileBlocked):
            found.add("block")
        elif isinstance(event, Reshuffled):
            found.add("reshuffle")
        elif isinstance(event, ChipTaken) and not event.taken:
            found.add("supply_empty")
        elif isinstance(event, CardPlayed) and event.from_discard:
            found.add("from_discard")
        elif (
            isinstance(event, CardsDrawn) and event.reason == DrawReason.EMPTY_HAND and event.count
        ):
            found.add("empty_hand_draw")
    if "skip" in found and not any(isinstance(event, TurnSkipped) for event in events):
        found.discard("skip")
    if count == 2 and _skipper_plays_again(events):
        found.add("skip_another_turn")
    return found


def _skipper_plays_again(events: list[Event]) -> bool:
    """True if a seat that played a Skip starts the very next turn (R26, 2 players)."""
    skipper = None
    for event in events:
        if isinstance(event, SkipPlayed):
            skipper = event.seat
        elif isinstance(event, TurnStarted):
            if event.seat == skipper:
                return True
            skipper = None
    return False


def find_game(spec: Spec) -> GameRecord:
    """Return the game of the first seed that shows every feature ``spec`` covers."""
    wanted = set(spec.covers)
    for seed in range(SEED_LIMIT):
        record, events = play(spec, seed)
        if wanted <= features(record, events):
            return record
    raise SystemExit(f"{spec.name}: no seed below {SEED_LIMIT} shows {sorted(wanted)}")


def write_record(record: GameRecord, path: Path) -> None:
    """Write a record as JSON, one action per line."""
    path.write_text(json.dumps(record.to_dict(), indent=1) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    """Regenerate every record (or only the named ones) and report each."""
    names = set(argv)
    RECORDS_DIR.mkdir(exist_ok=True)
    for spec in SPECS:
        if names and spec.name not in names:
            continue
        record = find_game(spec)
        path = RECORDS_DIR / f"{spec.name}.json"
        write_record(record, path)
        print(
            f"{path.name}: seed {record.seed}, {len(record.actions)} actions, "
            f"{record.result}, {path.stat().st_size} bytes"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
