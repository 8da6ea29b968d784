"""What a player can pick: cards to play from, and the targets each card has.

Nothing here decides legality. The targets of a card are the actions of the game's
action table that use that card and that the view's ``legal_action_ids`` lists as legal
now: an illegal move is never offered. The engine still checks every action it gets.
"""

from __future__ import annotations

import dataclasses

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionSpace,
    ActionType,
    Kind,
    View,
    kind_colour,
)

from .present import action_words

__all__ = [
    "Source",
    "Target",
    "hand_order",
    "highlighted_slots",
    "playable_sources",
    "sources",
    "targets",
]

_NOT_PLAYABLE = (ActionType.DISCARD, ActionType.PASS, ActionType.BLOCK, ActionType.END)


@dataclasses.dataclass(frozen=True, slots=True)
class Source:
    """A card the player may try to use: one from the hand, or the own discard top.

    Attributes:
        card: the card id.
        from_discard: True for the top of the player's own discard pile.
        position: 1-based place in the shown hand (0 for the discard top).
    """

    card: int
    from_discard: bool
    position: int

    @property
    def kind(self) -> Kind:
        """The card's kind."""
        return Kind(CARD_KIND[self.card])


@dataclasses.dataclass(frozen=True, slots=True)
class Target:
    """One legal thing to do with a chosen card: the action, its id and its words."""

    action: Action
    action_id: int
    label: str


def hand_order(hand: tuple[int, ...]) -> list[int]:
    """Return the hand as shown: grouped by kind, so keys stay put as cards come and go."""
    return sorted(hand, key=lambda card: (CARD_KIND[card], card))


def sources(view: View) -> list[Source]:
    """Return the viewer's hand cards in shown order, then their discard top if any."""
    if view.seat is None or view.hand is None:
        return []
    found = [
        Source(card, from_discard=False, position=index)
        for index, card in enumerate(hand_order(view.hand), start=1)
    ]
    discard = view.discards[view.seat]
    if discard:
        found.append(Source(discard[-1], from_discard=True, position=0))
    return found


def targets(view: View, space: ActionSpace, source: Source) -> list[Target]:
    """Return the legal actions using ``source``'s card: what the player may choose.

    Plays come in action-table order, then, for a hand card, discarding it. Nothing
    illegal is offered (the view's ``legal_action_ids`` decide, the engine's list).
    """
    assert view.seat is not None
    legal = set(view.legal_action_ids)
    found: list[Target] = []
    discard: list[Target] = []
    for action_id, action in enumerate(space.actions_of(view.seat)):
        if action.kind != source.kind or action_id not in legal:
            continue
        target = Target(action, action_id, action_words(action, view))
        if action.type == ActionType.DISCARD:
            if not source.from_discard:
                discard.append(target)
        elif action.from_discard == source.from_discard:
            found.append(target)
    return found + discard


def playable_sources(view: View, space: ActionSpace) -> set[tuple[bool, Kind]]:
    """Return ``(from_discard, kind)`` of every card with a legal play (not a discard)."""
    if view.seat is None:
        return set()
    result: set[tuple[bool, Kind]] = set()
    for action_id in view.legal_action_ids:
        action = space.action(action_id, view.seat)
        if action.type not in _NOT_PLAYABLE and action.kind is not None:
            result.add((action.from_discard, action.kind))
    return result


def highlighted_slots(view: View, found: list[Target]) -> set[int]:
    """Return the pile slots a target of the chosen card would go on.

    A "new pile" target lights every empty slot of the card's colour.
    """
    per_colour = view.settings.piles_per_colour
    slots: set[int] = set()
    for target in found:
        action = target.action
        if action.type != ActionType.PLAY or action.kind is None:
            continue
        base = kind_colour(action.kind) * per_colour
        if action.pile is not None:
            slots.add(base + action.pile)
        else:
            slots.update(s for s in range(base, base + per_colour) if not view.piles[s])
    return slots
