"""Every message a player reads, defined once: a stable key, the English text with
named placeholders, and a plural form where a count changes the words.

The browser gets these templates as JSON from the server (``/api/messages``) and fills
them in itself; the terminal fills the same ones in Python (:mod:`.render`). Nothing
else writes a sentence a player reads. ``m`` and ``mp`` mark the texts for extraction
into translation catalogs (docs/translating.md).
"""

from __future__ import annotations

import dataclasses
from typing import Final

__all__ = ["MESSAGES", "Message", "m", "mp"]


@dataclasses.dataclass(frozen=True, slots=True)
class Message:
    """One message: ``text`` (the singular when ``plural`` is set), chosen by ``count``."""

    key: str
    text: str
    plural: str | None = None
    count: str | None = None  # the placeholder holding the number that picks the form


def m(key: str, text: str) -> Message:
    """A message with no plural forms."""
    return Message(key, text)


def mp(key: str, singular: str, plural: str, count: str = "count") -> Message:
    """A message whose words depend on the number in placeholder ``count``."""
    return Message(key, singular, plural, count)


_ALL: Final = (
    # --- names ------------------------------------------------------------------------
    m("colour.blue", "blue"),
    m("colour.red", "red"),
    m("card.number", "{colour} {rank}"),
    m("card.wild", "{colour} wild"),
    m("card.skip", "Skip"),
    m("card.reverse", "Reverse"),
    m("card.steal_card", "Steal-a-Card"),
    m("card.block", "Block"),
    m("card.steal_chip", "Steal-a-Chip"),
    m("card.wild_short", "wild"),
    m("card.wild_corner", "W"),
    m("pile.name", "{colour} pile {number}"),
    m("seat.numbered", "Player {number}"),
    m("seat.you", "You"),
    m("seat.you_named", "{name} (you)"),
    m("list.separator", ", "),
    m("end.win", "win"),
    m("end.stalemate", "stalemate"),
    m("end.max_turns", "turn limit reached"),
    m("end.max_turn_actions", "a turn ran too long"),
    # --- the game log: one line per event (engine event kinds) -------------------------
    m("log.TurnStarted", "Turn {turn}: {player}."),
    m("log.TurnSkipped", "{player} is skipped."),
    mp(
        "log.Reshuffled",
        "The pool ({count} card) is shuffled into a new draw pile.",
        "The pool ({count} cards) is shuffled into a new draw pile.",
    ),
    mp(
        "log.CardsDrawn.deal",
        "{player} was dealt {count} card.",
        "{player} was dealt {count} cards.",
    ),
    mp(
        "log.CardsDrawn.deal.seen",
        "{player} was dealt {count} card: {cards}.",
        "{player} was dealt {count} cards: {cards}.",
    ),
    mp("log.CardsDrawn.refill", "{player} drew {count} card.", "{player} drew {count} cards."),
    mp(
        "log.CardsDrawn.refill.seen",
        "{player} drew {count} card: {cards}.",
        "{player} drew {count} cards: {cards}.",
    ),
    mp(
        "log.CardsDrawn.empty-hand",
        "{player} emptied the hand and drew {count} card.",
        "{player} emptied the hand and drew {count} cards.",
    ),
    mp(
        "log.CardsDrawn.empty-hand.seen",
        "{player} emptied the hand and drew {count} card: {cards}.",
        "{player} emptied the hand and drew {count} cards: {cards}.",
    ),
    m("log.CardPlayed", "{player} plays {card} on {pile} (now {count})."),
    m("log.CardPlayed.top", "{player} plays {card} from the discard pile on {pile} (now {count})."),
    m("log.SkipPlayed", "{player} plays a Skip."),
    m("log.SkipPlayed.top", "{player} plays a Skip from the discard pile."),
    m("log.ReversePlayed", "{player} plays a Reverse."),
    m("log.ReversePlayed.top", "{player} plays a Reverse from the discard pile."),
    m("log.CardStolen", "{player} steals {card} from {victim}'s discard pile."),
    m("log.ChipStolen", "{player} steals a {colour} chip from {victim}."),
    m("log.BlockWindowOpened", "{player} completes a {colour} sequence; opponents may block."),
    m("log.BlockAnswered", "{player} answers."),
    m("log.BlockAnswered.block", "{player} answers block."),
    m("log.BlockAnswered.pass", "{player} answers pass."),
    m("log.PileBlocked", "{player} blocks! The {colour} sequence is lost."),
    m("log.PileCompleted", "The {colour} sequence goes to the pool."),
    m("log.ChipTaken", "{player} takes a {colour} chip."),
    m("log.ChipTaken.none", "No {colour} chip is left in the supply for {player}."),
    m("log.Discarded", "{player} discards {card}."),
    m("log.TurnEnded.empty", "{player} ends the turn with no cards."),
    m("log.GameEnded.win", "{player} wins!"),
    m("log.GameEnded.none", "The game ends with no winner ({reason})."),
    # --- the game log: table entries ---------------------------------------------------
    m("log.sit", "{player} takes a seat."),
    m("log.leave", "{player} leaves the table."),
    m("log.add_bot", "{player} joins (bot)."),
    m("log.remove_bot", "{player} is removed."),
    m("log.replace", "{player} is away: a bot plays for them."),
    m("log.reclaim", "{player} is back and takes the seat again."),
    m("log.start", "Game {game} begins."),
    # --- refusals (the rule id is shown beside the reason) ------------------------------
    m("refused.stale", "The table moved on before that arrived; try again."),
    m("refused.not_seated", "Only a seated player can do that; take a seat first."),
    m("refused.game_running", "That cannot be done while a game is being played."),
    m("refused.table_full", "Every seat is taken."),
    m("refused.bad_request", "That request was not understood."),
    m("refused.rate_limited", "Too many requests; slow down a little."),
    m("refused.too_large", "That message is too long."),
    m("refused.bad_origin", "Requests from another web site are not accepted."),
    m("refused.not_found", "There is no such table."),
    m("refused.unknown_type", "That request was not understood."),
    m("refused.bad_json", "That request was not understood."),
    m("refused.hello_first", "Still connecting; try again in a moment."),
    m("refused.illegal", "That move is not allowed."),
    m("refused.with_rule", "{reason} ({rule})"),
    # --- the table page -----------------------------------------------------------------
    m("table.title", "Table {id}"),
    mp(
        "table.goal",
        "First to {count} chip, at least {each} of each colour",
        "First to {count} chips, at least {each} of each colour",
    ),
    m("table.start", "Start game"),
    m("table.rematch", "Rematch"),
    m("table.open_seat", "Open seat"),
    m("table.bot_badge", "{bot} bot"),
    m("table.online", "online"),
    m("table.away", "away"),
    m("table.empty", "empty"),
    m("table.add_bot", "Add {bot} bot"),
    m("table.remove_bot", "Remove"),
    m("table.you_win", "You win!"),
    m("table.wins", "{player} wins!"),
    m("table.no_winner", "Game over: no winner ({reason})."),
    m("table.your_turn", "Your turn"),
    m("table.turn_of", "{player}'s turn"),
    m("table.waiting_for_blocks", "{player} completed a sequence: waiting for Block answers"),
    m("table.clockwise", "Clockwise"),
    m("table.anticlockwise", "Anticlockwise"),
    mp("table.skips_pending", "{count} skip pending", "{count} skips pending"),
    m("table.start_here", "Start here"),
    m("table.pile_empty", "empty"),
    mp("table.pile_label", "{pile}: {count} card of 5", "{pile}: {count} cards of 5"),
    m("table.play_here", "{label}, play here"),
    mp("table.hand_size", "{count} card in hand", "{count} cards in hand"),
    m("table.chips_label", "{blue} blue and {red} red chips"),
    mp(
        "table.discard_label",
        "{player}'s discard pile, {count} card",
        "{player}'s discard pile, {count} cards",
    ),
    m("table.empty_discard", "empty discard pile"),
    m("table.deciding", "deciding… "),
    m("table.turn_timer", "turn timer "),
    m("table.seconds", "{count}s"),
    m("table.link_copied", "Link copied: send it to your friends."),
    m("table.seat_number", "{number}."),
    m("table.pile_count", "{count}/5"),
    m("table.connected", "Connected"),
    m("table.connecting", "Connecting…"),
    m("table.reconnecting", "Reconnecting…"),
    # --- the lobby and the replay page ----------------------------------------------------
    m("lobby.no_tables", "No public tables yet: create one!"),
    mp("lobby.table", "Table {id} · {count} player", "Table {id} · {count} players"),
    mp("lobby.open_seats", "{count} open seat", "{count} open seats"),
    m("lobby.status.playing", "playing"),
    m("lobby.status.over", "over"),
    m("lobby.open_seat", "open seat"),
    m("lobby.bot_seat", "{name} (bot)"),
    m("replay.title", "Replay: table {id}, game {game}"),
    m("replay.over", "The game is over: every hand is shown."),
    m("replay.running_spectator", "The game is running: you see what a spectator sees."),
    m("replay.running_seat", "The game is running: you see only your own hand."),
    m("replay.step", "step {step} of {count}"),
    m("replay.discard_pile", "discard pile"),
    # --- prompts and choices -----------------------------------------------------------
    m("prompt.block", "{player} completed {pile}. Block it?"),
    m("prompt.block_title", "Spend a Block card"),
    m("prompt.no_block_title", "You hold no Block card"),
    m("choice.end", "End turn"),
    m("choice.cancel", "Cancel"),
    m("choice.hint", "Select a card to see where it can go. A discard ends your turn."),
    m("choice.discard", "Discard {card} (ends turn)"),
    m("choice.new_pile", "Start a new {colour} pile"),
    m("choice.play_on", "Play on {pile}"),
    m("choice.play", "Play {card}"),
    m("choice.steal_card", "Steal {player}'s top discard"),
    m("choice.steal_chip", "Take a {colour} chip from {player}"),
)

MESSAGES: Final[dict[str, Message]] = {message.key: message for message in _ALL}
