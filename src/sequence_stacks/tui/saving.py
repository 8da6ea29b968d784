"""Where the Textual app saves its game, and what it tells the player about it."""

from __future__ import annotations

from pathlib import Path

from sequence_stacks.i18n import render

from .session import GameSession

__all__ = ["SaveFile"]


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
