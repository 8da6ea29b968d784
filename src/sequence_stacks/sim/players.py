"""Players for studies, by spec: registry bots, ``ismcts`` at a scaled budget, and
players barred from one action card (restricted play).

A spec is ``NAME[:xSCALE][:no-CARD]``: ``heuristic``, ``ismcts:x0.5`` (half the default
deals and work per search), ``heuristic:no-steal-chip`` (a heuristic player that never
plays a Steal-a-Chip). Specs are what :class:`~sequence_stacks.sim.runner.SimConfig`
lists as its bots, so a study's configs and rows name their players exactly.

A barred player never plays the barred card (from hand or from its discard-pile top) and,
for Block, never blocks; it may still discard the card, and does so at the first turn
end that holds one, since the card is dead weight to it. Restricted play (Jaffe et al.,
"Evaluating competitive game balance with restricted play", 2012) reads a card's worth
as the win rate a player loses when barred from it.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from typing import Final

from sequence_stacks.bots import Bot, IsmctsBot, make_bot
from sequence_stacks.bots.heuristic import Evaluator, Planner
from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    Kind,
    Phase,
    View,
    action_space,
    resample,
)

__all__ = ["BarredBot", "PlayerSpec", "Restriction", "make_player"]

_BARRABLE: Final = ("random", "greedy", "heuristic")


class Restriction(enum.StrEnum):
    """An action card (or the wild cards) a restricted player may not play."""

    SKIP = "skip"
    REVERSE = "reverse"
    STEAL_CARD = "steal-card"
    STEAL_CHIP = "steal-chip"
    BLOCK = "block"
    WILDS = "wilds"

    @property
    def kinds(self) -> frozenset[Kind]:
        """The card kinds it bars."""
        return _KINDS[self]

    @property
    def card_name(self) -> str:
        """The card's name as the rules print it."""
        return _NAMES[self]


_KINDS: Final = {
    Restriction.SKIP: frozenset({Kind.SKIP}),
    Restriction.REVERSE: frozenset({Kind.REV}),
    Restriction.STEAL_CARD: frozenset({Kind.SCARD}),
    Restriction.STEAL_CHIP: frozenset({Kind.SCHIP}),
    Restriction.BLOCK: frozenset({Kind.BLOCK}),
    Restriction.WILDS: frozenset({Kind.BW, Kind.RW}),
}
_NAMES: Final = {
    Restriction.SKIP: "Skip",
    Restriction.REVERSE: "Reverse",
    Restriction.STEAL_CARD: "Steal-a-Card",
    Restriction.STEAL_CHIP: "Steal-a-Chip",
    Restriction.BLOCK: "Block",
    Restriction.WILDS: "wild cards",
}


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player: a registry bot, its search budget scale (``ismcts`` only) and the card
    it is barred from, if any."""

    bot: str
    scale: float = 1.0
    barred: Restriction | None = None

    def __post_init__(self) -> None:
        make_bot(self.bot)  # refuses unknown names
        if self.scale <= 0:
            raise ValueError("a budget scale must be positive")
        if self.scale != 1.0 and self.bot != "ismcts":
            raise ValueError(f"only ismcts has a search budget to scale, not {self.bot!r}")
        if self.barred is not None and self.bot not in _BARRABLE:
            raise ValueError(f"a barred player is one of {', '.join(_BARRABLE)}")

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """Read ``NAME[:xSCALE][:no-CARD]``; raises ValueError naming what is wrong."""
        name, *parts = text.strip().lower().split(":")
        scale = 1.0
        barred = None
        for part in parts:
            if part.startswith("x"):
                try:
                    scale = float(part[1:])
                except ValueError:
                    raise ValueError(f"{part!r} is not a budget scale like x0.5") from None
            elif part.startswith("no-"):
                try:
                    barred = Restriction(part[3:])
                except ValueError:
                    known = ", ".join(f"no-{r.value}" for r in Restriction)
                    raise ValueError(f"{part!r}: a bar is one of {known}") from None
            else:
                raise ValueError(f"{part!r} in player {text!r}: expected xSCALE or no-CARD")
        return cls(name, scale, barred)

    def __str__(self) -> str:
        text = self.bot
        if self.scale != 1.0:
            text += f":x{self.scale:g}"
        if self.barred is not None:
            text += f":no-{self.barred.value}"
        return text


def make_player(text: str, *, seed: int, player_count: int) -> Bot:
    """The player a spec names, with its own RNG seeded by ``seed``."""
    spec = PlayerSpec.parse(text)
    if spec.bot == "ismcts" and spec.scale != 1.0:
        return IsmctsBot(seed=seed, budget_scale=spec.scale)
    bot = make_bot(spec.bot, seed=seed)
    if spec.barred is None:
        return bot
    return BarredBot(bot, spec.barred, seed=seed)


class BarredBot:
    """A bot that never plays one action card (see the module docstring).

    ``random`` and ``greedy`` choose from their view's legal actions, so they are shown
    the view without the barred plays. ``heuristic`` plans from a resampled state: its
    planner scores every first action of the turn as usual and the best allowed one is
    played (its plans may count on the barred card later in the turn; the next decision
    is filtered again).
    """

    def __init__(self, inner: Bot, barred: Restriction, *, seed: int) -> None:
        self.inner = inner
        self.barred = barred
        self.name = f"{inner.name}:no-{barred.value}"
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        """The inner bot's choice among the actions that do not play the barred card."""
        assert view.seat is not None
        settings = view.settings
        table = action_space(settings.player_count, settings.piles_per_colour).actions_of(view.seat)
        allowed = tuple(i for i in view.legal_action_ids if not self._bars(table[i], view))
        if len(allowed) == 1:
            return table[allowed[0]]
        if view.phase == Phase.BLOCK_WINDOW:
            return self.inner.choose(view)
        if self.inner.name == "heuristic":
            action = self._planned(view, set(allowed))
        else:
            action = self.inner.choose(dataclasses.replace(view, legal_action_ids=allowed))
        return self._dead_weight_first(action, view)

    def _bars(self, action: Action, view: View) -> bool:
        if action.type == ActionType.BLOCK:
            return self.barred == Restriction.BLOCK
        if action.type in (ActionType.DISCARD, ActionType.PASS, ActionType.END):
            return False
        return action.kind in self.barred.kinds

    def _planned(self, view: View, allowed: set[int]) -> Action:
        assert view.seat is not None
        state = resample(view, view.seat, self.rng)
        planner = Planner(Evaluator.from_view(view), view.seat, view.settings)
        scored = [(score, i) for score, i in planner.scores(state, 0) if i in allowed]
        top = max(score for score, _ in scored)
        best = [i for score, i in scored if score == top]
        return planner.table[best[0] if len(best) == 1 else self.rng.choice(best)]

    def _dead_weight_first(self, action: Action, view: View) -> Action:
        """Ending the turn with a barred card in hand: discard that card."""
        if action.type != ActionType.DISCARD or action.kind in self.barred.kinds:
            return action
        barred = self.barred.kinds
        held = sorted(CARD_KIND[card] for card in view.hand or () if CARD_KIND[card] in barred)
        return Action(ActionType.DISCARD, kind=Kind(held[0])) if held else action
