"""The game on one device (#25): pass-and-play and play against bots, offline.

The page ``/local`` runs this package, with the engine and the bots, in Pyodide inside
a Web Worker (the server bundles these very files at start-up: docs/server.md, "The
game on one device"). :class:`Session` answers the page's JSON requests;
:class:`DeviceGame` is one game: its state, players, bots, save and record.
"""

from __future__ import annotations

from .game import SAVE_FORMAT, DeviceGame, Player, SaveError, bot_seed
from .session import Session

__all__ = ["SAVE_FORMAT", "DeviceGame", "Player", "SaveError", "Session", "bot_seed"]
