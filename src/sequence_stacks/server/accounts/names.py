"""What an account may be called and look like: a display name that is nobody else's
and never a bot's, an avatar from a fixed set, a language of the game (#26). A child's
profile has nothing more: no free text about themselves, no messages."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

from sequence_stacks.bots import BOT_NAMES
from sequence_stacks.i18n import LANGUAGES, translation
from sequence_stacks.server.play import Refusal, RefusalCode
from sequence_stacks.server.play.seats import clean_name

__all__ = ["AVATARS", "account_name", "name_key", "valid_avatar", "valid_language"]

# The avatars a player picks from (drawn by static/avatars.js, named avatar.<key>).
AVATARS: Final = ("star", "heart", "moon", "sun", "leaf", "flower", "drop", "bolt")
# Words that make a name read as a bot's, besides each language's word for "bot" and
# the bots' own names.
_BOT_WORDS: Final = frozenset({"bot", "bots", "robot", "ai", "computer", "cpu", "server"})
_MARKS: Final = "\x00"


def name_key(name: str) -> str:
    """Two names that read alike have one key: any case, Unicode form or spacing."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@functools.cache
def _bot_words() -> frozenset[str]:
    """Every word a seat of a bot is called by in any language, and the bots' names."""
    found = set(_BOT_WORDS) | {name.casefold() for name in BOT_NAMES}
    for language in LANGUAGES:
        for key in ("seat.bot", "seat.stand_in"):
            text = translation(language).text(key)
            text = re.sub(r"\{[a-z_]+\}", _MARKS, text)
            found |= {word for word in _words(text) if word}
    return frozenset(found)


def _words(text: str) -> list[str]:
    """The words of a text: runs of letters, marks and digits (a Devanagari vowel
    sign is a mark, part of its word)."""
    spaced = "".join(
        char if unicodedata.category(char)[0] in "LMN" else " "
        for char in unicodedata.normalize("NFKC", text).casefold()
    )
    return spaced.split()


def account_name(name: str) -> tuple[str, str]:
    """A display name as an account keeps it and its key; refused when it is empty,
    too long or reads as a bot's name (a person may not pass for a bot, #26)."""
    clean = clean_name(name)
    if any(word in _bot_words() for word in _words(clean)):
        raise Refusal(
            RefusalCode.BAD_REQUEST,
            "a player's name may not look like a bot's",
            detail={"key": "account.name_like_bot", "args": {}},
        )
    return clean, name_key(clean)


def valid_avatar(avatar: str) -> str:
    """One of the fixed avatars, else refused."""
    if avatar not in AVATARS:
        raise Refusal(RefusalCode.BAD_REQUEST, f"the avatar is one of {', '.join(AVATARS)}")
    return avatar


def valid_language(language: str) -> str:
    """One of the game's languages, else refused."""
    if language not in LANGUAGES:
        raise Refusal(RefusalCode.BAD_REQUEST, f"the language is one of {', '.join(LANGUAGES)}")
    return language
