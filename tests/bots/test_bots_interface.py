"""Every bot: legal choices only, determinism per seed, views only (STYLE principle 3)."""

import ast
import random
from pathlib import Path

import pytest

import sequence_stacks.bots as bots_package
from sequence_stacks.bots import (
    BOT_NAMES,
    Bot,
    GreedyBot,
    IsmctsBot,
    RandomBot,
    describe_bots,
    legal_actions_of,
    make_bot,
)
from sequence_stacks.bots.expert import make_expert
from sequence_stacks.engine import (
    Settings,
    State,
    action_space,
    apply_in_place,
    new_game,
    observe,
    resample,
)
from sequence_stacks.sim import play_game

_TURN_CAPS = {"ismcts": 8, "expert": 8}


def _make(name: str, seed: int | None = None) -> Bot:
    """A bot by registry name; ``ismcts`` and ``expert`` with a small search (the default
    budget takes ~0.15 s a turn; their strength is measured by `simulate`, docs/bots.md)."""
    if name == "ismcts":
        return IsmctsBot(seed=seed, iterations=4, candidates=3)
    if name == "expert":
        return make_expert(seed=seed, iterations=4, candidates=3)
    return make_bot(name, seed=seed)


def _play_checking(bot_name: str, player_count: int, seed: int) -> int:
    """Play one game with ``bot_name`` in every seat; assert each choice is legal."""
    # Search bots are slow: their games stop at a turn cap (R33).
    settings = Settings(player_count=player_count, max_turns=_TURN_CAPS.get(bot_name, 2000))
    state = new_game(settings, seed)
    space = action_space(player_count, settings.piles_per_colour)
    players = [_make(bot_name, seed=seed * 10 + seat) for seat in range(player_count)]
    decisions = 0
    while not state.is_over:
        seat = state.current_player()
        assert seat is not None
        view = observe(state, seat)
        action = players[seat].choose(view)
        assert space.id_of(action, seat) in view.legal_action_ids, (seat, action)
        apply_in_place(state, seat, action)
        decisions += 1
    return decisions


@pytest.mark.parametrize("player_count", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("bot_name", BOT_NAMES)
def test_bots_choose_only_legal_actions(bot_name: str, player_count: int) -> None:
    for seed in range(3):
        assert _play_checking(bot_name, player_count, seed) > 0


@pytest.mark.parametrize("player_count", [2, 4, 6])
def test_mixed_tables_finish_with_a_valid_record(player_count: int) -> None:
    seats = [_make(BOT_NAMES[s % len(BOT_NAMES)], seed=s) for s in range(player_count)]
    state, record = play_game(Settings(player_count=player_count), 11, seats)
    assert state.is_over
    assert record.replay() == state


@pytest.mark.parametrize("bot_name", BOT_NAMES)
def test_same_seed_same_game(bot_name: str) -> None:
    def game() -> tuple[str, ...]:
        seats = [_make(bot_name, seed=7), _make(bot_name, seed=8), make_bot("random", seed=9)]
        _, record = play_game(Settings(player_count=3), 5, seats)
        return tuple(f"{seat} {action}" for seat, action in record.actions)

    assert game() == game()


def test_random_bot_seed_changes_its_choices() -> None:
    settings = Settings(player_count=2)

    def actions(seed: int) -> list[str]:
        seats = [make_bot("random", seed=seed), make_bot("random", seed=seed + 1)]
        _, record = play_game(settings, 3, seats)
        return [str(action) for _, action in record.actions]

    assert actions(1) != actions(2)


@pytest.mark.parametrize("bot_name", BOT_NAMES)
def test_same_seed_same_views_same_choices(bot_name: str) -> None:
    state = new_game(Settings(player_count=4), 21)
    first, second = _make(bot_name, seed=3), _make(bot_name, seed=3)
    for _ in range(60):
        seat = state.current_player()
        assert seat is not None
        view = observe(state, seat)
        action = first.choose(view)
        assert second.choose(view) == action
        apply_in_place(state, seat, action)


def _midgame_states(player_count: int, count: int) -> list[State]:
    state = new_game(Settings(player_count=player_count), 99)
    players = [make_bot("greedy", seed=s) for s in range(player_count)]
    states: list[State] = []
    while not state.is_over and len(states) < count:
        seat = state.current_player()
        assert seat is not None
        states.append(state.clone())
        apply_in_place(state, seat, players[seat].choose(observe(state, seat)))
    return states


@pytest.mark.parametrize("bot_name", BOT_NAMES)
def test_bots_work_on_views_from_observe_and_from_resample(bot_name: str) -> None:
    rng = random.Random(4)
    bot = _make(bot_name, seed=1)
    space = action_space(3, 2)
    for state in _midgame_states(3, 80):
        seat = state.current_player()
        assert seat is not None
        view = observe(state, seat)
        assert space.id_of(bot.choose(view), seat) in view.legal_action_ids
        sampled_view = observe(resample(view, seat, rng), seat)
        assert sampled_view.hand == view.hand
        assert space.id_of(bot.choose(sampled_view), seat) in sampled_view.legal_action_ids


@pytest.mark.parametrize("bot_name", BOT_NAMES)
def test_bots_refuse_views_with_nothing_to_decide(bot_name: str) -> None:
    state = new_game(Settings(player_count=3), 1)
    bot = make_bot(bot_name)
    with pytest.raises(ValueError, match=r"spectator|no legal action"):
        bot.choose(observe(state, None))
    with pytest.raises(ValueError, match="no legal action"):
        bot.choose(observe(state, 1))  # seat 0 is to play


# Modules of the first two bots: they may import only the engine's public API, and none
# of the names that reach or change a full State.
_BOT_MODULES = ("__init__.py", "base.py", "random_bot.py", "greedy.py", "registry.py")
_FORBIDDEN_NAMES = {
    "State",
    "apply",
    "apply_id",
    "apply_in_place",
    "check",
    "is_legal",
    "legal_action_ids",
    "legal_actions",
    "new_game",
    "position_from_dict",
    "position_to_dict",
    "resample",
    "validate_state",
}


@pytest.mark.parametrize("module_name", _BOT_MODULES)
def test_bot_modules_see_views_only(module_name: str) -> None:
    path = Path(bots_package.__file__).parent / module_name
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
            assert not any(name.startswith("sequence_stacks") for name in names), names
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            module = node.module or ""
            if module.startswith("sequence_stacks"):
                assert module == "sequence_stacks.engine", f"{module_name} imports {module}"
                imported = {alias.name for alias in node.names}
                assert not imported & _FORBIDDEN_NAMES, f"{module_name}: {imported}"


def test_registry_names_and_descriptions() -> None:
    assert BOT_NAMES == ("random", "greedy", "heuristic", "ismcts", "expert")
    descriptions = describe_bots()
    assert set(descriptions) == set(BOT_NAMES)
    assert all(text and "\n" not in text for text in descriptions.values())
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot(" Random "), RandomBot)
    assert all(make_bot(name).name == name for name in BOT_NAMES)


def test_unknown_bot_name_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown bot 'clever'; known bots: random, greedy"):
        make_bot("clever")


def test_bots_satisfy_the_protocol() -> None:
    players: list[Bot] = [RandomBot(seed=1), GreedyBot(seed=1)]
    assert [bot.name for bot in players] == ["random", "greedy"]


def test_legal_actions_of_decodes_the_view() -> None:
    state = new_game(Settings(player_count=2), 8)
    view = observe(state, 0)
    pairs = legal_actions_of(view)
    space = action_space(2, 2)
    assert [action_id for action_id, _ in pairs] == list(view.legal_action_ids)
    assert all(space.id_of(action, 0) == action_id for action_id, action in pairs)
    with pytest.raises(ValueError, match="spectator"):
        legal_actions_of(observe(state, None))
