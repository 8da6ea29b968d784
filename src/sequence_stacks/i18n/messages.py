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
    # --- the pages' own words, the language menu and the help (#14) ---------------------
    m("page.brand", "Sequence Stacks"),
    m("page.language", "Language"),
    m("page.lobby_link", "Lobby"),
    m("page.lobby.title", "Sequence Stacks: play with friends"),
    m(
        "page.lobby.tagline",
        "Build sequences 1 to 5, win chips, block your friends. No account needed.",
    ),
    m("page.lobby.new_table", "New table"),
    m("page.lobby.players", "Players"),
    m("page.lobby.visibility", "Who can see it"),
    m("page.lobby.public", "Public: listed, anyone may watch"),
    m("page.lobby.unlisted", "Unlisted: only people with the link"),
    m("page.lobby.variants", "Variant options"),
    m("page.lobby.chips_to_win", "Chips to win"),
    m("page.lobby.min_each_colour", "Of each colour at least"),
    m("page.lobby.hand_size", "Hand size"),
    m("page.lobby.piles_per_colour", "Piles per colour"),
    m("page.lobby.refill_at_turn_start", "Refill the hand at the start of each turn"),
    m("page.lobby.steal_chip_can_win", "Steal-a-Chip may take the winning chip"),
    m("page.lobby.two_player_reverses", "Keep Reverses with two players"),
    m("page.lobby.create", "Create table"),
    m("page.lobby.public_tables", "Public tables"),
    m("page.lobby.option_range", "{option}: a whole number from {low} to {high}."),
    m("page.lobby.options_refused", "These options do not make a game; change them and try again."),
    m("page.table.title", "Sequence Stacks table"),
    m("page.table.heading", "Table"),
    m("page.table.rules", "Rules"),
    m("page.table.rules_key", "Rules (?)"),
    m("page.table.seats", "Seats"),
    m("page.table.watch_replay", "Watch the replay"),
    m("page.table.empty_note", "Empty seats are filled with bots when the game starts."),
    m("page.table.take_seat", "Take a seat"),
    m("page.table.your_name", "Your name"),
    m("page.table.sit_down", "Sit down"),
    m("page.table.leave", "Leave seat"),
    m("page.table.invite", "Invite friends with this link"),
    m("page.table.copy", "Copy"),
    m("page.table.game", "Game"),
    m("page.table.block_prompt", "Block prompt"),
    m("page.table.block", "Block"),
    m("page.table.pass", "Pass"),
    m("page.table.draw", "Draw"),
    m("page.table.played_actions", "Played actions"),
    m("page.table.set_aside", "Set aside"),
    m("page.table.piles", "Sequence piles"),
    m("page.table.your_hand", "Your hand"),
    m("page.table.players", "Players"),
    m("page.table.log", "Game log"),
    m("page.table.close", "Close"),
    m("page.replay.title", "Sequence Stacks replay"),
    m("page.replay.heading", "Replay"),
    m("page.replay.first", "First step"),
    m("page.replay.previous", "Previous step"),
    m("page.replay.step", "Step"),
    m("page.replay.next", "Next step"),
    m("page.replay.last", "Last step"),
    m("page.help.using", "Using this page"),
    m(
        "page.help.select",
        "Select a card (click, or Tab to it and press Enter): the places where it can go "
        "light up. Choose one.",
    ),
    m(
        "page.help.keys",
        "Keys: 1-9 select cards in your hand, D discards the selected card, Esc clears the "
        "selection, B/P answer a Block prompt, ? opens this help.",
    ),
    m("page.help.loading", "Loading the rules…"),
    m("page.help.unavailable", "The rule book could not be loaded; try again later."),
)

MESSAGES: Final[dict[str, Message]] = {message.key: message for message in _ALL}
