"""Picking a card and its target on the Textual table.

The player picks a hand card (by number, or with the cursor and Enter) or the top of
their discard pile, then one of the targets the view's legal actions allow, from the
target menu or by number. The app plays the chosen action; nothing here knows the rules.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from textual.widget import Widget
from textual.widgets import OptionList

from sequence_stacks.engine import Action, ActionType, View
from sequence_stacks.i18n import render

from .choices import Source, Target, highlighted_slots, playable_sources, sources, targets
from .present import kind_label
from .session import GameSession
from .widgets import HandPanel, render_hand, target_option

__all__ = ["HandPicker", "PickingTable"]

_W = TypeVar("_W", bound=Widget)


class PickingTable(Protocol):
    """What the picker needs of the app (``PlayApp``): the game, its widgets, its voice."""

    session: GameSession
    message: str

    @property
    def focused(self) -> Widget | None:
        """The widget with the keyboard focus."""
        ...

    def query_one(self, selector: str, expect_type: type[_W]) -> _W:
        """The one widget ``selector`` names."""
        ...

    def add_class(self, *class_names: str, update: bool = True) -> object:
        """Mark the screen (``-picking`` while a target is chosen)."""
        ...

    def remove_class(self, *class_names: str, update: bool = True) -> object:
        """Unmark the screen."""
        ...

    def view(self) -> View:
        """The acting person's view."""
        ...

    def say(self, text: str, *, refused: bool = False) -> None:
        """Show a line under the table."""
        ...

    def redraw(self) -> None:
        """Draw the table again."""
        ...


class HandPicker:
    """The viewer's pick: the hand cursor, the picked card, its targets and their menu."""

    def __init__(self, app: PickingTable) -> None:
        self._app = app
        self.selected: Source | None = None
        self.targets: list[Target] = []
        self.cursor = 0

    @property
    def can_discard(self) -> bool:
        """True when the picked card may be discarded."""
        return any(t.action.type == ActionType.DISCARD for t in self.targets)

    def lit_slots(self, view: View) -> set[int] | None:
        """The pile slots the picked card may go to (None with no card picked)."""
        return highlighted_slots(view, self.targets) if self.selected else None

    def draw_hand(self, view: View) -> None:
        """Draw the hand with the cursor (kept on a card) and the picked card marked."""
        shown = sources(view)
        self.cursor = min(self.cursor, max(len(shown) - 1, 0))
        hand = render_hand(
            view,
            shown,
            cursor=self.cursor,
            selected=self.selected,
            playable=set(playable_sources(view, self._app.session.space)),
        )
        self._app.query_one("#hand", HandPanel).update(hand)

    def pick(self, number: int) -> Action | None:
        """Pick hand card ``number``, or target ``number`` once a card is picked; return
        the target's action, to play."""
        if self.selected is not None:
            if number <= len(self.targets):
                return self.targets[number - 1].action
            self._app.say(render("term.no_target", number=number, count=len(self.targets)))
            return None
        shown = sources(self._app.view())
        match = [s for s in shown if not s.from_discard and s.position == number]
        if not match:
            self._app.say(render("term.no_card", number=number))
            return None
        self._select(match[0])
        return None

    def pick_top(self) -> None:
        """Pick the top card of the viewer's own discard pile."""
        match = [s for s in sources(self._app.view()) if s.from_discard]
        if not match:
            self._app.say(render("term.discard_empty"))
            return
        self._select(match[0])

    def move(self, delta: int) -> None:
        """Move the hand cursor (not while a card is picked)."""
        shown = sources(self._app.view())
        if shown and self.selected is None:
            self.cursor = (self.cursor + delta) % len(shown)
            self._app.redraw()

    def confirm(self) -> None:
        """Pick the card under the cursor, unless a card is picked already."""
        if self.selected is not None:
            return
        shown = sources(self._app.view())
        if shown:
            self._select(shown[self.cursor])

    def discard(self) -> Action | None:
        """The action discarding the picked card (None, said, when there is none)."""
        found = [t for t in self.targets if t.action.type == ActionType.DISCARD]
        if self.selected is None or not found:
            self._app.say(render("term.discard_first"))
            return None
        return found[0].action

    def drop(self) -> None:
        """Drop the picked card, if any, and say so; nothing was played."""
        if self.selected is not None:
            self.reset()
            self._app.say(render("term.dropped"))
            self._app.redraw()

    def _select(self, source: Source) -> None:
        app = self._app
        found = targets(app.view(), app.session.space, source)
        if not found:
            app.say(render("term.no_move_for_card", card=kind_label(source.kind)))
            return
        self.selected = source
        self.targets = found
        menu = app.query_one("#targets", OptionList)
        menu.set_options(target_option(n, t) for n, t in enumerate(self.targets, start=1))
        menu.highlighted = 0
        menu.add_class("shown")
        app.add_class("-picking")
        menu.focus()
        app.message = ""
        app.redraw()

    def reset(self) -> None:
        """Forget the picked card, hide the target menu and focus the hand."""
        self.selected = None
        self.targets = []
        menu = self._app.query_one("#targets", OptionList)
        if menu.has_class("shown"):
            menu.clear_options()
            menu.remove_class("shown")
        self._app.remove_class("-picking")
        self.focus_hand()

    def focus_hand(self) -> None:
        """Give the hand the keyboard focus, if it has not got it."""
        hand = self._app.query_one("#hand", HandPanel)
        if self._app.focused is not hand:
            hand.focus()
