"""The plain line mode: the same session, read and written one line at a time.

Meant for dumb terminals and screen readers: no cursor movement, no colour, cards in
words ("blue 3"), every move numbered, and every refusal printed with its rule id.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from sequence_stacks.engine import (
    Action,
    ActionType,
    EngineError,
    IllegalActionError,
    Phase,
    View,
    parse_action,
)
from sequence_stacks.i18n import render

from .choices import hand_order
from .helptext import plain_commands, rules_lines
from .present import (
    action_words,
    block_prompt,
    card_words,
    direction_words,
    pile_words,
)
from .session import GameSession, player_name, refusal_text

__all__ = ["PlainGame", "board_lines", "summary_lines"]

_HANDOFF_BLANK_LINES = 40


def board_lines(session: GameSession, view: View) -> list[str]:
    """Return the whole table as ``view`` may see it, one fact a line, in words."""
    to_act = session.to_act()
    whose = render("term.plain.nobody") if to_act is None else _name(session, view, to_act)
    sizes = {"draw": view.draw_size, "pool": len(view.pool), "special": len(view.special)}
    lines = [
        render("term.plain.turn", turn=view.turn_count, player=whose),
        render(
            "term.plain.direction",
            direction=direction_words(view.direction),
            count=view.pending_skips,
        ),
        render("term.plain.sizes", **{name: _cards(count) for name, count in sizes.items()}),
        _supply_line(view),
        render("term.plain.piles"),
    ]
    for slot, pile in enumerate(view.piles):
        words = pile_words(view, slot)
        if pile:
            words = render("term.plain.top", pile=words, card=card_words(pile[-1]))
        lines.append(f"  {words}")
    lines.append(render("term.plain.players"))
    seats = range(view.settings.player_count)
    lines.extend(f"  {_player_line(session, view, seat)}" for seat in seats)
    if view.hand is not None:
        cards = render("list.separator").join(card_words(c) for c in hand_order(view.hand))
        lines.append(render("term.plain.hand", cards=cards))
    return lines


def _supply_line(view: View) -> str:
    if view.supply is None:
        return render("term.plain.supply.unlimited")
    return render("term.plain.supply", blue=view.supply[0], red=view.supply[1])


def _name(session: GameSession, view: View, seat: int) -> str:
    label = session.seats[seat].label(seat)
    return render("seat.you_named", name=label) if seat == view.seat else label


def _player_line(session: GameSession, view: View, seat: int) -> str:
    blue, red = view.chips[seat]
    discard = view.discards[seat]
    args = {
        "player": _name(session, view, seat),
        "hand": _cards(view.hand_sizes[seat]),
        "blue": blue,
        "red": red,
        "discard": _cards(len(discard)),
    }
    if discard:
        return render("term.plain.player.top", **args, card=card_words(discard[-1]))
    return render("term.plain.player", **args)


def _cards(count: int) -> str:
    return render("term.plain.cards", count=count)


def summary_lines(session: GameSession) -> list[str]:
    """Return the end-of-game summary: how it ended, every player's chips, and the seed
    (hidden from everyone until the game is over, R36)."""
    result = session.result
    view = session.view(None)
    if result is None:
        return [render("term.summary.not_over")]
    if result.winner is not None:
        winner = session.seats[result.winner].label(result.winner)
        head = render("term.summary.win", player=winner)
    else:
        head = render("term.summary.none", reason=render(f"end.{result.reason}"))
    lines = [head, render("term.summary.turns", count=view.turn_count)]
    for seat in range(session.player_count):
        blue, red = view.chips[seat]
        player = session.seats[seat].label(seat)
        lines.append("  " + render("term.summary.chips", player=player, blue=blue, red=red))
    lines.append(render("term.summary.seed", seed=str(session.seed)))  # over: it may be told
    return lines


class PlainGame:
    """Run a session in line mode between a text input and a text output."""

    def __init__(
        self,
        session: GameSession,
        *,
        stdin: TextIO,
        stdout: TextIO,
        bot_delay: float = 0.0,
        save_path: Path,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self._in = stdin
        self._out = stdout
        self.bot_delay = bot_delay
        self.save_path = save_path
        self._sleep = sleep
        self._clock = clock
        humans = session.human_seats
        # Hotseat: nobody's eyes until the first person to act has the keyboard.
        self._viewer: int | None = humans[0] if len(humans) == 1 else None
        self._logged = 0
        self._quit = False
        self._board_shown: tuple[int, int, Phase] | None = None

    def say(self, text: str = "") -> None:
        """Write one line (or several) and flush, so a pipe or a reader gets it now."""
        self._out.write(text + "\n")
        self._out.flush()

    def _ask(self, prompt: str) -> str | None:
        self._out.write(prompt)
        self._out.flush()
        line = self._in.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def run(self) -> int:
        """Play until the game ends or the player quits; return an exit status."""
        self.say(render("term.plain.start"))  # no seed while the game runs (R36)
        while not self.session.is_over and not self._quit:
            self._flush_log()
            seat = self.session.to_act()
            assert seat is not None
            if self.session.is_human(seat):
                self._human_turn(seat)
            else:
                self._bot_move(seat)
        self._flush_log()
        if self._quit:
            return 0
        for line in summary_lines(self.session):
            self.say(line)
        self._offer_replay()
        return 0

    def _flush_log(self) -> None:
        for line in self.session.log_lines(self._viewer, self._logged):
            self.say(f"  {line}")
        self._logged = self.session.event_count

    def _bot_move(self, seat: int) -> None:
        # The bot's move shows ``bot_delay`` after its turn (or Block window) began,
        # however long it thought: a longer think (ismcts searches a Block answer only
        # when it holds a Block) must not show in the timing (R36).
        start = self._clock()
        view = self.session.view(seat)
        action = self.session.bot_for(seat).choose(view)
        if self.bot_delay > 0:
            self._sleep(max(0.0, self.bot_delay - (self._clock() - start)))
        try:
            self.session.submit(seat, action)
        except IllegalActionError as error:
            player = self.session.seats[seat].label(seat)
            words = action_words(action, view)
            self.say(
                render("term.plain.bot_refused", player=player, action=words, rule=error.rule_id)
            )
            self.session.submit(seat, self.session.action_of(view.legal_action_ids[0], seat))

    def _handoff(self, seat: int) -> bool:
        if self._viewer == seat or len(self.session.human_seats) < 2:
            self._viewer = seat
            return True
        self.say("\n" * _HANDOFF_BLANK_LINES)
        player = player_name(seat)
        answer = self._ask(render("term.plain.handoff", player=player))
        if answer is None:
            self._quit = True
            return False
        self._viewer = seat
        self._logged = 0
        self._flush_log()
        return True

    def _human_turn(self, seat: int) -> None:
        if not self._handoff(seat):
            return
        view = self.session.view(seat)
        lines = board_lines(self.session, view)
        shown = (seat, view.turn_count, view.phase)
        if shown != self._board_shown:  # the whole table once a turn; then the hand
            self._board_shown = shown
            for line in lines:
                self.say(line)
        elif view.hand is not None:
            self.say(lines[-1])
        prompt = block_prompt(view)
        if prompt:
            self.say(prompt)
        moves = self._list_moves(view)
        while not self._quit:
            player = player_name(seat)
            answer = self._ask(render("term.plain.ask", player=player, count=len(moves)))
            if answer is None:
                self._quit = True
                return
            if self._command(answer, seat, moves):
                return

    def _list_moves(self, view: View) -> list[Action]:
        assert view.seat is not None
        moves = [self.session.action_of(i, view.seat) for i in view.legal_action_ids]
        moves.sort(key=lambda action: action.type == ActionType.DISCARD)
        self.say(render("term.plain.moves"))
        for number, action in enumerate(moves, start=1):
            self.say(f"  {number}. {action_words(action, view)}")
        return moves

    def _command(self, line: str, seat: int, moves: list[Action]) -> bool:
        """Handle one typed line; return True once an action was accepted."""
        word, _, rest = line.partition(" ")
        lowered = word.lower()
        if not line:
            return False
        if lowered.isdigit():
            number = int(lowered)
            if not 1 <= number <= len(moves):
                self.say(render("term.plain.no_move", number=number, count=len(moves)))
                return False
            return self._try(seat, moves[number - 1])
        handler = self._commands().get(lowered)
        if handler is not None:
            handler(seat, rest.strip())
            return False
        try:
            action = parse_action(line)
        except EngineError as error:
            self.say(render("term.plain.not_understood", error=str(error)))
            return False
        return self._try(seat, action)

    def _commands(self) -> dict[str, Callable[[int, str], None]]:
        return {
            "help": self._help,
            "?": self._help,
            "rules": self._rules,
            "board": self._board,
            "moves": self._moves,
            "log": self._log,
            "save": self._save,
            "quit": self._leave,
            "q": self._leave,
        }

    def _help(self, _seat: int, _rest: str) -> None:
        self.say(plain_commands())

    def _rules(self, _seat: int, _rest: str) -> None:
        for line in rules_lines():
            self.say(line)

    def _board(self, seat: int, _rest: str) -> None:
        for line in board_lines(self.session, self.session.view(seat)):
            self.say(line)

    def _moves(self, seat: int, _rest: str) -> None:
        self._list_moves(self.session.view(seat))

    def _log(self, seat: int, _rest: str) -> None:
        for line in self.session.log_lines(seat):
            self.say(f"  {line}")

    def _try(self, seat: int, action: Action) -> bool:
        before = self.session.view(seat)
        try:
            self.session.submit(seat, action)
        except IllegalActionError as error:
            self.say(refusal_text(error))
            return False
        self.say(render("term.you_did", action=action_words(action, before)))
        return True

    def _save(self, _seat: int, rest: str) -> None:
        path = Path(rest) if rest else self.save_path
        if self._write(path):
            command = f"sequence-stacks play --plain --load {path}"
            self.say(render("term.plain.saved", path=str(path), command=command))

    def _write(self, path: Path) -> bool:
        try:
            self.session.save(path)
        except OSError as error:
            self.say(render("term.plain.save_failed", path=str(path), error=str(error)))
            return False
        return True

    def _leave(self, _seat: int, _rest: str) -> None:
        """Ask first: save and leave (so --load resumes), leave unsaved, or play on."""
        answer = self._ask(render("term.plain.quit_ask", path=str(self.save_path)))
        choice = (answer or "").strip().lower()
        yes = {"y", "yes", *render("term.plain.replay_yes").lower().split()}
        if answer is not None and choice not in {*yes, "x"}:
            self.say(render("term.plain.staying"))
            return
        if choice == "x":
            self.say(render("term.plain.left_unsaved"))
        elif not self._write(self.save_path):
            return
        else:
            command = f"sequence-stacks play --plain --load {self.save_path}"
            self.say(render("term.quit.saved", path=str(self.save_path), command=command))
        self._quit = True

    def _offer_replay(self) -> None:
        answer = self._ask(render("term.plain.replay_ask"))
        yes = {"y", "yes", *render("term.plain.replay_yes").lower().split()}
        if answer is None or answer.lower() not in yes:
            return
        turn_lines: list[str] = []
        turn = 1  # the deal is shown with the first turn
        for view, lines in self.session.replay_steps(self._viewer):
            turn_lines.extend(lines)
            if view.turn_count != turn:
                turn = view.turn_count
                if not self._show_turn(turn_lines):
                    return
                turn_lines = []
        if turn_lines:
            self._show_turn(turn_lines)
        self.say(render("term.plain.replay_end"))

    def _show_turn(self, lines: list[str]) -> bool:
        for line in lines:
            self.say(f"  {line}")
        answer = self._ask(render("term.plain.replay_next"))
        return answer is not None and answer.lower() != "q"
