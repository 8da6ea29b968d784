"""Play one game between bots: each bot sees only its own seat's view."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from sequence_stacks.bots import Bot
from sequence_stacks.engine import (
    Action,
    Event,
    GameRecord,
    IllegalActionError,
    Settings,
    State,
    apply_in_place,
    new_game,
    observe,
    position_digest,
)

__all__ = ["MAX_ACTIONS", "BotError", "play_game"]

EventHook = Callable[[Event], None]
StateHook = Callable[[State], None]
MAX_ACTIONS: Final = 200_000


class BotError(RuntimeError):
    """A bot chose an action the rules refuse (a bug in the bot, never in the game)."""


def play_game(
    settings: Settings,
    seed: int | str,
    bots: Sequence[Bot],
    *,
    on_event: EventHook | None = None,
    on_action: StateHook | None = None,
    meta: Mapping[str, Any] | None = None,
    max_actions: int = MAX_ACTIONS,
) -> tuple[State, GameRecord]:
    """Play a whole game, ``bots[seat]`` deciding for each seat; return state and record.

    Each decision goes to the seat :meth:`State.current_player` names (the turn owner,
    or each asked opponent of a Block window in turn) and is made from
    ``observe(state, seat)`` only. ``on_event`` receives every event, unredacted, in
    order; ``on_action`` receives the state after each action (after that action's
    events; read it, never change it). The record holds the bots' names in
    ``meta["bots"]`` and the final digest.
    Raises BotError if a bot picks an illegal action, or if the game runs past
    ``max_actions`` actions: the rules bound turns (R33) but not the actions within
    one, and a turn can go on forever once a colour's chips run out and completed
    piles keep cycling through the pool.
    """
    if len(bots) != settings.player_count:
        raise ValueError(f"{settings.player_count} seats need {settings.player_count} bots")
    events: list[Event] | None = [] if on_event is not None else None
    state = new_game(settings, seed, events)
    _flush(events, on_event)
    actions: list[tuple[int, Action]] = []
    while not state.is_over:
        if len(actions) >= max_actions:
            raise BotError(f"the game passed {max_actions} actions: a bot is stuck in a loop")
        seat = state.current_player()
        assert seat is not None
        bot = bots[seat]
        action = bot.choose(observe(state, seat))
        try:
            apply_in_place(state, seat, action, events)
        except IllegalActionError as error:
            raise BotError(
                f"bot {bot.name!r} at seat {seat} chose {action}, which is illegal: {error}"
            ) from error
        actions.append((seat, action))
        _flush(events, on_event)
        if on_action is not None:
            on_action(state)
    record = GameRecord(
        settings=settings,
        seed=seed,
        actions=tuple(actions),
        result=state.result,
        digest=position_digest(state),
        meta={"bots": [bot.name for bot in bots], **(meta or {})},
    )
    return state, record


def _flush(events: list[Event] | None, on_event: EventHook | None) -> None:
    if events is None or on_event is None:
        return
    for event in events:
        on_event(event)
    events.clear()
