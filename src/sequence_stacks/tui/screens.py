"""The screens around the table: help, hand-off, Block prompt, summary and replay."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Markdown, Static

from sequence_stacks.engine import CARD_KIND, Action, ActionType, Kind, View
from sequence_stacks.i18n import MESSAGES, render

from .helptext import rules_markdown, tui_keys
from .present import block_prompt
from .session import player_name
from .widgets import (
    PilesPanel,
    PlayersPanel,
    StatusBar,
    render_players,
    render_status,
)

__all__ = [
    "BlockScreen",
    "HandoffScreen",
    "HelpScreen",
    "QuitScreen",
    "ReplayScreen",
    "SummaryScreen",
    "speak_bindings",
]


def speak_bindings(node: DOMNode) -> None:
    """Put ``node``'s key descriptions (message keys in ``BINDINGS``) into words in the
    current language, for this instance's footer."""
    bindings = node._bindings.key_to_bindings
    for key, found in bindings.items():
        bindings[key] = [_spoken(binding) for binding in found]


def _spoken(binding: Binding) -> Binding:
    """A binding with its description and its group's put into words."""
    if binding.description in MESSAGES:
        binding = dataclasses.replace(binding, description=render(binding.description))
    group = binding.group
    if group is not None and group.description in MESSAGES:
        spoken = Binding.Group(render(group.description), compact=group.compact)
        binding = dataclasses.replace(binding, group=spoken)
    return binding


class HelpScreen(ModalScreen[None]):
    """The keys and the rules in brief; any of Escape, q, ? or h closes it."""

    BINDINGS = [  # noqa: RUF012 - Textual's own declaration style
        Binding("escape,q,question_mark,h", "close", "term.key.close_help"),
    ]

    def __init__(self) -> None:
        super().__init__()
        speak_bindings(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(Text(tui_keys()), id="help-keys")
            yield Static(Text(render("term.help.rules"), style="bold"), id="help-rules-title")
            yield Markdown(rules_markdown(), id="help-rules")
        yield Footer(compact=True)

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)


class HandoffScreen(Screen[None]):
    """Hides the table between two humans' turns: "pass the keyboard to Player N"."""

    BINDINGS = [Binding("enter,space", "ready", "term.key.ready")]  # noqa: RUF012

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat
        speak_bindings(self)

    def compose(self) -> ComposeResult:
        player = player_name(self.seat)
        yield Static(
            Text(
                render("term.handoff", player=player)
                + "\n\n"
                + render("term.handoff.ready", player=player),
                justify="center",
                style="bold",
            ),
            id="handoff-text",
        )
        yield Footer(compact=True)

    def action_ready(self) -> None:
        """The next player is at the keyboard."""
        self.dismiss(None)


class BlockScreen(ModalScreen[None]):
    """The Block prompt when an opponent completes a sequence (R29).

    ``answer`` sends the chosen action and returns a refusal to show, or None once the
    engine accepted it (the screen then closes).
    """

    BINDINGS = [  # noqa: RUF012
        Binding("b", "answer('block')", "term.key.block"),
        Binding("p,escape", "answer('pass')", "term.key.pass"),
    ]

    def __init__(self, view: View, answer: Callable[[Action], str | None]) -> None:
        super().__init__()
        self.view = view
        self._answer = answer
        speak_bindings(self)

    def compose(self) -> ComposeResult:
        hand = self.view.hand or ()
        blocks = sum(1 for card in hand if _is_block(card))
        held = render("term.block.held", count=blocks)
        with Vertical(id="block-box"):
            yield Static(Text(block_prompt(self.view), style="bold"), id="block-question")
            yield Static(Text(f"{held}\n\n{render('term.block.keys')}"), id="block-keys")
            yield Static("", id="block-message")

    def action_answer(self, word: str) -> None:
        """Send block or pass to the engine."""
        action = Action(ActionType.BLOCK if word == "block" else ActionType.PASS)
        refusal = self._answer(action)
        if refusal is None:
            self.dismiss(None)
        else:
            self.query_one("#block-message", Static).update(Text(refusal, style="bold red"))


def _is_block(card: int) -> bool:
    return CARD_KIND[card] == Kind.BLOCK


class QuitScreen(ModalScreen[None]):
    """Asked by q during a game: save and leave, leave without saving, or play on.

    ``leave(save=...)`` saves (if asked) and ends the app; it returns why the save
    failed, shown here so the player can choose again.
    """

    BINDINGS = [  # noqa: RUF012
        Binding("y", "leave(True)", "term.key.save_quit"),
        Binding("x", "leave(False)", "term.key.leave_unsaved"),
        Binding("n,escape", "stay", "term.key.stay"),
    ]

    def __init__(self, path: str, command: str, leave: Callable[..., str | None]) -> None:
        super().__init__()
        self.path = path
        self.command = command
        self._leave = leave
        speak_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="quit-box"):
            yield Static(Text(render("term.quit.ask"), style="bold"), id="quit-question")
            body = render("term.quit.body", path=self.path)
            yield Static(Text(f"{body}\n  {self.command}\n\n{render('term.quit.keys')}"))
            yield Static("", id="quit-message")
        yield Footer(compact=True)

    def action_leave(self, save: bool) -> None:
        """Leave the game, saving it first when ``save``."""
        failure = self._leave(save=save)
        if failure is not None:
            self.query_one("#quit-message", Static).update(Text(failure, style="bold red"))

    def action_stay(self) -> None:
        """Back to the game."""
        self.dismiss(None)


class SummaryScreen(Screen[None]):
    """The end of the game: the result, everyone's chips, and what next.

    ``on_choice`` gets ``"replay"``, ``"save"`` or ``"quit"`` and returns a line to show.
    """

    BINDINGS = [  # noqa: RUF012
        Binding("r", "choose('replay')", "term.key.replay"),
        Binding("s", "choose('save')", "term.key.save"),
        Binding("q,escape", "choose('quit')", "term.key.quit"),
    ]

    def __init__(self, lines: Sequence[str], *, on_choice: Callable[[str], str]) -> None:
        super().__init__()
        self.lines = tuple(lines)
        self._on_choice = on_choice
        speak_bindings(self)

    def compose(self) -> ComposeResult:
        body = Text("\n".join(self.lines), style="bold")
        body.append("\n\n" + render("term.summary.keys"), style="")
        yield Static(body, id="summary-text")
        yield Static("", id="summary-message")
        yield Footer(compact=True)

    def action_choose(self, choice: str) -> None:
        """Hand the choice to the app and show what it says."""
        self.query_one("#summary-message", Static).update(self._on_choice(choice))


class ReplayScreen(Screen[None]):
    """Step through a finished game: the table and the log after each action."""

    BINDINGS = [  # noqa: RUF012
        Binding("right,space,l", "step(1)", "term.key.next"),
        Binding("left,j", "step(-1)", "term.key.back"),
        Binding("home", "jump(0)", "term.key.start"),
        Binding("end", "jump(-1)", "term.key.last"),
        Binding("escape,q", "close", "term.key.leave_replay"),
    ]

    def __init__(self, steps: Sequence[tuple[View, list[str]]], names: Sequence[str]) -> None:
        super().__init__()
        self.steps = tuple(steps)
        self.names = tuple(names)
        self.index = 0
        speak_bindings(self)

    def compose(self) -> ComposeResult:
        yield StatusBar(id="replay-status")
        with Horizontal(id="replay-table"):
            with Vertical(id="replay-left"):
                yield PilesPanel(id="replay-piles")
                yield PlayersPanel(id="replay-players")
            with VerticalScroll(id="replay-log", can_focus=False):
                yield Static()
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Draw the first step."""
        self._draw()

    def action_step(self, delta: int) -> None:
        """Move forward or back one step."""
        self.index = max(0, min(len(self.steps) - 1, self.index + delta))
        self._draw()

    def action_jump(self, index: int) -> None:
        """Jump to the start (0) or the end (-1)."""
        self.index = index % len(self.steps)
        self._draw()

    def action_close(self) -> None:
        """Leave the replay."""
        self.dismiss(None)

    def _draw(self) -> None:
        view, _ = self.steps[self.index]
        extra = render("term.status.replay", step=self.index, count=len(self.steps) - 1)
        self.query_one("#replay-status", StatusBar).update(
            render_status(view, self.names, extra=extra)
        )
        self.query_one("#replay-piles", PilesPanel).show(view)
        self.query_one("#replay-players", PlayersPanel).update(render_players(view, self.names))
        lines = [line for _, step in self.steps[: self.index + 1] for line in step]
        log = self.query_one("#replay-log", VerticalScroll)
        log.query_one(Static).update(Text("\n".join(lines[-40:])))
        log.scroll_end(animate=False)
