"""The Textual interface: a table that renders views and sends actions.

:class:`PlayApp` owns no rules. It draws the viewer's :class:`~sequence_stacks.engine.View`,
lets the player pick a card and a target (legal ones read from ``legal_action_ids``),
and sends the action to the :class:`~sequence_stacks.tui.session.GameSession`, showing
the engine's refusal (rule id and reason) when there is one. Bots choose in a worker
thread, so the screen never freezes while they think.

The app runs the turns and draws the table; it holds the parts that do the rest:
:class:`~.picking.HandPicker` (the card and target picked), :class:`~.botturns.BotTurns`
(the bots' moves at their pace), :class:`~.saving.SaveFile` and
:class:`~.saving.GameExits` (saving, and the ways out of the game).
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Container, Vertical
from textual.widgets import Footer, OptionList, Static
from textual.worker import Worker

from sequence_stacks.engine import END_ID, Action, ActionType, IllegalActionError, Phase, View
from sequence_stacks.i18n import render

from .botturns import BotTurns, stepped_speed
from .cells import use_terminal_widths
from .choices import Source, sources
from .layout import BOT_SPEEDS, CONTEXT_ACTIONS, PLAY_BINDINGS, PLAY_CSS, WIDE_SIZE, is_compact_size
from .picking import HandPicker
from .plain import summary_lines
from .present import action_words
from .saving import GameExits, SaveFile
from .screens import (
    BlockScreen,
    HandoffScreen,
    HelpScreen,
    SummaryScreen,
    speak_bindings,
)
from .session import GameSession, refusal_text
from .widgets import (
    HandPanel,
    PilesPanel,
    PlayersPanel,
    StatusBar,
    TableLog,
    hand_hint,
    render_players,
    render_status,
)

__all__ = ["BOT_SPEEDS", "WIDE_SIZE", "PlayApp"]


class Waiting(enum.Enum):
    """What the app waits for before it hands the game on (None: for nobody)."""

    BOT = "bot"  # a bot's move, thought over on a worker thread
    HANDOFF = "handoff"  # the device passed to the next person (a screen)
    BLOCK = "block"  # the viewer's Block answer (a screen)
    SUMMARY = "summary"  # the player's choice after the game


class PlayApp(App[int]):
    """Play one game of Sequence Stacks in the terminal."""

    TITLE = "Sequence Stacks"
    ENABLE_COMMAND_PALETTE = False  # its footer entry would take room from the game's keys
    CSS = PLAY_CSS
    BINDINGS: ClassVar[list[BindingType]] = PLAY_BINDINGS

    def __init__(self, session: GameSession, *, bot_delay: float = 0.3, save_path: Path) -> None:
        use_terminal_widths()  # lay out by the cells a terminal gives each character
        super().__init__()
        speak_bindings(self)
        self.title = render("page.brand")
        self.session = session
        self._save_file = SaveFile(session, save_path)
        self._exits = GameExits(self, self._save_file)
        self.bot_delay = bot_delay
        humans = session.human_seats
        # Hotseat: nobody's eyes until the first person to act has taken the keyboard.
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.names = tuple(spec.label(seat) for seat, spec in enumerate(session.seats))
        self.picker = HandPicker(self)
        self.message = ""
        self._refused = False
        self._pending: Waiting | None = None
        self._bots = BotTurns(self, session, on_played=self._bot_played)
        self._logged = 0
        self.farewell = ""
        """What to print once the terminal is back (where a quit saved the game)."""

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Container(id="table"):
            with Vertical(id="left"):
                yield PilesPanel(id="piles")
                yield PlayersPanel(id="players")
            yield TableLog(widget_id="log")
        yield HandPanel(id="hand")
        yield OptionList(id="targets", markup=False)
        yield Static(id="message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Draw the table and let whoever acts first act."""
        log = self.query_one("#log", TableLog)
        log.border_title = render("term.log")  # the seed under it once the game is over (R36)
        self._fit_layout(self.size)
        self.query_one("#hand", HandPanel).focus()
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        """Choose the wide or the compact layout for the terminal's new size (the event's:
        the app's own may not have changed yet)."""
        self._fit_layout(event.size)

    @property
    def is_compact(self) -> bool:
        """True when the terminal is smaller than :data:`WIDE_SIZE` either way."""
        return is_compact_size(self.size)

    def _fit_layout(self, size: tuple[int, int]) -> None:
        compact = is_compact_size(size)
        if self.has_class("-compact") == compact:
            return
        self.set_class(compact, "-compact")  # the log wraps itself again (TableLog)
        self.redraw()

    # --- what the app is doing ----------------------------------------------------

    @property
    def is_waiting_for_human(self) -> bool:
        """True when nothing happens until a human presses a key (tests wait for this)."""
        if self.session.is_over:
            return self._pending is Waiting.SUMMARY
        return self._pending in (None, Waiting.HANDOFF, Waiting.BLOCK) and self._to_act_is_human()

    def _to_act_is_human(self) -> bool:
        seat = self.session.to_act()
        return seat is not None and self.session.is_human(seat)

    def view(self) -> View:
        """The view the screen shows now (the viewer's seat, or a spectator's)."""
        return self.session.view(self.viewer)

    def advance(self) -> None:
        """Redraw, then hand the game to whoever must act: a bot, a prompt, or the player."""
        self.redraw()
        if self._pending is not None:
            return
        seat = self.session.to_act()
        if seat is None:
            self._show_summary()
        elif not self.session.is_human(seat):
            self._schedule_bot(seat)
        elif seat != self.viewer:
            self._pending = Waiting.HANDOFF
            self.push_screen(HandoffScreen(seat), lambda _: self._handed_to(seat))
        elif self.view().phase == Phase.BLOCK_WINDOW:
            self._pending = Waiting.BLOCK
            self.push_screen(BlockScreen(self.view(), self._answer_block), self._answered)
        else:
            self.picker.focus_hand()

    def _handed_to(self, seat: int) -> None:
        self.viewer = seat
        self._pending = None
        self.message = ""
        self.picker.reset()
        self.query_one("#log", TableLog).clear()
        self._logged = 0
        self.advance()

    def _answer_block(self, action: Action) -> str | None:
        assert self.viewer is not None
        return self._submit(self.viewer, action)

    def _answered(self, _: None) -> None:
        self._pending = None
        self.advance()

    # --- drawing ------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw every panel from the viewer's view."""
        view = self.view()
        # The bots' pace is shown when it changes; the status keeps it only when wide.
        speed = "" if self.is_compact else render("term.status.bot_wait", seconds=self.bot_delay)
        self.query_one("#status", StatusBar).update(render_status(view, self.names, extra=speed))
        self.query_one("#piles", PilesPanel).show(view, self.picker.lit_slots(view))
        self.query_one("#players", PlayersPanel).update(render_players(view, self.names))
        self.picker.draw_hand(view)
        self._draw_message()
        self._sync_log()
        self.refresh_bindings()

    def _draw_message(self) -> None:
        text = Text(self.message, style="bold red" if self._refused else "")
        hint = ""
        if self._is_my_turn():
            hint = hand_hint(self.selected)
        elif self._pending is Waiting.BOT and (seat := self.session.to_act()) is not None:
            hint = render("term.thinking", player=self.names[seat])
        if hint:
            text.append(("\n" if self.message else "") + hint, style="dim")
        self.query_one("#message", Static).update(text)

    def _sync_log(self) -> None:
        log = self.query_one("#log", TableLog)
        for line in self.session.log_lines(self.viewer, self._logged):
            log.add(line)
        self._logged = self.session.event_count

    def say(self, text: str, *, refused: bool = False) -> None:
        """Show a one-line message under the hand (in red for a refusal)."""
        self.message = text
        self._refused = refused
        self._draw_message()

    # --- picking cards and targets -------------------------------------------------

    def _is_my_turn(self) -> bool:
        view = self.view()
        return (
            self._pending is None
            and len(self.screen_stack) == 1  # no help, prompt or summary on top
            and view.seat is not None
            and self.session.to_act() == view.seat
            and view.phase == Phase.PLAYING
        )

    def _can_pick(self) -> bool:
        if self._is_my_turn():
            return True
        self.say(render("term.not_your_turn"))
        return False

    @property
    def selected(self) -> Source | None:
        """The hand card picked now, if any."""
        return self.picker.selected

    def action_pick(self, number: int) -> None:
        """Pick hand card ``number``, or target ``number`` once a card is picked."""
        if self._can_pick() and (action := self.picker.pick(number)) is not None:
            self._play(action)

    def action_pick_top(self) -> None:
        """Pick the top card of the viewer's own discard pile."""
        if self._can_pick():
            self.picker.pick_top()

    def action_cursor(self, delta: int) -> None:
        """Move the hand cursor."""
        self.picker.move(delta)

    def action_confirm(self) -> None:
        """Enter on the hand: pick the card under the cursor."""
        if self._can_pick():
            self.picker.confirm()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on the target menu."""
        event.stop()
        if self.selected is not None and self._can_pick():
            self._play(self.picker.targets[event.option_index].action)

    def action_discard(self) -> None:
        """Discard the picked hand card, ending the turn."""
        if self._can_pick() and (action := self.picker.discard()) is not None:
            self._play(action)

    def action_end_turn(self) -> None:
        """End the turn without a discard (only possible with an empty hand, R19)."""
        if self._can_pick():
            self._play(Action(ActionType.END))

    def action_drop(self) -> None:
        """Escape: drop the picked card; nothing was played."""
        self.picker.drop()

    def _play(self, action: Action) -> None:
        assert self.viewer is not None
        view = self.view()
        refusal = self._submit(self.viewer, action)
        if refusal is not None:
            self.say(refusal, refused=True)
            return
        self.picker.reset()
        self.message = render("term.you_did", action=action_words(action, view))
        self._refused = False
        self.advance()

    def _submit(self, seat: int, action: Action) -> str | None:
        try:
            self.session.submit(seat, action)
        except IllegalActionError as error:
            return refusal_text(error)
        return None

    # --- bots -----------------------------------------------------------------------

    def _schedule_bot(self, seat: int) -> None:
        self._pending = Waiting.BOT
        self._draw_message()
        self._bots.ask(seat, delay=self.bot_delay)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A bot finished thinking: apply its choice when its time is due."""
        self._bots.worker_changed(event)

    def _bot_played(self, seat: int, *, failed: bool) -> None:
        if failed:
            self.say(render("term.bot_failed", player=self.names[seat]))
        self._pending = None
        self.advance()

    def action_speed(self, delta: int) -> None:
        """Step the bots' waiting time along :data:`BOT_SPEEDS`."""
        self.bot_delay = stepped_speed(self.bot_delay, delta)
        self.say(render("term.bots_wait", seconds=self.bot_delay))
        self.redraw()

    # --- save, help, end -------------------------------------------------------------

    def action_save(self) -> None:
        """Save the game to the save file (the engine's record format)."""
        self.say(self._save_file.save())

    def action_help(self) -> None:
        """Show the keys and the rules in brief."""
        self.push_screen(HelpScreen())

    def action_quit_game(self) -> None:
        """Ask before leaving a game in progress; leaving saves it so --load resumes it."""
        self._exits.ask_quit()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer a key (in the footer, and to press) only when it does something now: x
        and Esc with a card picked, t with a discard top, e when ending is legal, + and -
        with bots, s until the game ends."""
        if action not in CONTEXT_ACTIONS:
            return True
        view = self.view()
        free = self._is_my_turn() and self.selected is None
        playing = not self.session.is_over  # then the summary has its own s
        return {
            "save": playing,
            "speed": playing and len(self.session.human_seats) < self.session.player_count,
            "drop": self.selected is not None,
            "discard": self.picker.can_discard,
            "pick_top": free and any(source.from_discard for source in sources(view)),
            "end_turn": free and END_ID in view.legal_action_ids,
        }[action]

    def _show_summary(self) -> None:
        self._pending = Waiting.SUMMARY
        log = self.query_one("#log", TableLog)
        log.border_subtitle = render("term.seed", seed=str(self.session.seed))
        summary = SummaryScreen(summary_lines(self.session), on_choice=self._exits.after_game)
        self.push_screen(summary)
