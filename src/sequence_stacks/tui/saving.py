"""Saving the Textual app's game, and leaving it: the quit prompt and the summary's choices."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from textual.screen import Screen

from sequence_stacks.i18n import render

from .screens import QuitScreen, ReplayScreen
from .session import GameSession

__all__ = ["ExitingTable", "GameExits", "SaveFile"]


class ExitingTable(Protocol):
    """What the ways out need of the app (``PlayApp``): its game, whose eyes the replay
    takes, the seats' names, and the app's screens and exit."""

    session: GameSession
    viewer: int | None
    names: Sequence[str]
    farewell: str

    def push_screen(self, screen: Screen[Any], *args: Any, **kwargs: Any) -> Any:
        """Show a screen over the table."""
        ...

    def exit(self, result: int | None = None, return_code: int = 0, message: Any = None) -> None:
        """Leave the app."""
        ...


class SaveFile:
    """Saves the session's game to one file and says, in words, what came of it."""

    def __init__(self, session: GameSession, path: Path) -> None:
        self._session = session
        self.path = path

    @property
    def resume_command(self) -> str:
        """The command that resumes the saved game."""
        return f"sequence-stacks play --load {self.path}"

    def save(self) -> str:
        """Save the game; return what happened, in words."""
        failure = self.write()
        return failure or render("term.saved", path=str(self.path), command=self.resume_command)

    def write(self) -> str | None:
        """Save the game; return why it failed, in words, or None when it is saved."""
        try:
            self._session.save(self.path)
        except OSError as error:
            return render("term.save_failed", path=str(self.path), error=str(error))
        return None

    def farewell(self) -> str:
        """What to print once the terminal is back, after a quit that saved the game."""
        return render("term.quit.saved", path=str(self.path), command=self.resume_command)


class GameExits:
    """The ways out of a game: the quit prompt while it runs (save and leave, leave, or
    play on) and the summary's choices once it is over (replay, save, quit)."""

    def __init__(self, app: ExitingTable, save_file: SaveFile) -> None:
        self._app = app
        self._save_file = save_file

    def ask_quit(self) -> None:
        """Ask before leaving a game in progress; leaving saves it so --load resumes it."""
        if self._app.session.is_over:
            self._app.exit(0)
            return
        path, command = str(self._save_file.path), self._save_file.resume_command
        self._app.push_screen(QuitScreen(path, command, self._leave))

    def _leave(self, *, save: bool) -> str | None:
        """Leave the game, saving it first if ``save``; return why saving failed, if it
        did (then nothing is left, so the player can choose again)."""
        if save and (failure := self._save_file.write()) is not None:
            return failure
        if save:
            self._app.farewell = self._save_file.farewell()
        self._app.exit(0)
        return None

    def after_game(self, choice: str) -> str:
        """Do the summary's ``choice`` (``"replay"``, ``"save"`` or ``"quit"``); return a
        line to show under it."""
        app = self._app
        if choice == "replay":
            steps = list(app.session.replay_steps(app.viewer))
            app.push_screen(ReplayScreen(steps, app.names))
        elif choice == "save":
            return self._save_file.save()
        else:
            app.exit(0)
        return ""
