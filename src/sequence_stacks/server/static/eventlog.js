// Log lines from data (#13): an engine event or a table entry becomes a message key and
// its arguments, then words. This is the browser's copy of `event_message` and `words`
// in sequence_stacks/i18n/render.py (same keys, same argument names); tests/js checks
// the two give the same line for every event kind. Card facts come from the catalog.
// No DOM here.

import { catalog, has, t } from "./messages.js";

/** The catalog's entry for a card kind index: {index, key, colour, rank, wild, action}. */
export function kindInfo(kind) {
  return catalog().kinds[kind];
}

/** The kind index of a card id. */
export function kindOf(card) {
  return catalog().cards[card];
}

/** A colour index in words ("blue"). */
export function colourName(colour) {
  return t(`colour.${catalog().colours[colour].key}`);
}

/** A card kind in words: "blue 3", "red wild", "Steal-a-Chip". */
export function kindName(kind) {
  const info = kindInfo(kind);
  if (info.action) return t(`card.${info.action}`);
  const colour = colourName(info.colour);
  return info.wild ? t("card.wild", { colour }) : t("card.number", { colour, rank: info.rank });
}

/** A card id in words (its kind's name). */
export function cardName(card) {
  return kindName(kindOf(card));
}

/**
 * The key of message `key` worded for a colour index: messages that put a colour before
 * a noun exist once per colour ("pile.name.blue"), so the colour word can agree with the
 * noun in every language (`coloured` in i18n/render.py).
 */
export function coloured(key, colour) {
  return `${key}.${catalog().colours[colour].key}`;
}

/** A sequence pile in words: its colour and its index within that colour. */
export function pileName(colour, index) {
  return t(coloured("pile.name", colour), { number: index + 1 });
}

function message(key, args) {
  return { key, args };
}

/**
 * The message key of an event and its arguments as data (see `words`), or null for
 * an event with no log line (an ordinary end of turn). Reads fields, never `text`.
 */
export function eventMessage(event) {
  const kind = event.type;
  const top = event.from_discard ? ".top" : "";
  const seat = event.seat;
  switch (kind) {
    case "TurnStarted":
      return message("log.TurnStarted", { player: seat, turn: event.turn_number });
    case "Reshuffled":
      return message("log.Reshuffled", { count: event.card_count });
    case "CardsDrawn": {
      const seen = event.cards.length ? ".seen" : "";
      const args = { player: seat, count: event.count, cards: event.cards };
      return message(`log.CardsDrawn.${event.reason}${seen}`, args);
    }
    case "CardPlayed": {
      const args = { player: seat, card: event.card, pile: [event.colour, event.pile] };
      return message(`log.CardPlayed${top}`, { ...args, count: event.pile_count });
    }
    case "TurnSkipped":
    case "SkipPlayed":
    case "ReversePlayed":
    case "Discarded":
      return message(`log.${kind}${top}`, { player: seat, card: event.card ?? null });
    case "CardStolen":
      return message("log.CardStolen", { player: seat, card: event.stolen, victim: event.victim });
    case "ChipStolen":
      return message(coloured("log.ChipStolen", event.colour), { player: seat, victim: event.victim });
    case "BlockWindowOpened":
      return message(coloured(`log.${kind}`, event.colour), { player: event.completer });
    case "BlockAnswered": {
      const answer = event.blocked === true ? ".block" : event.blocked === false ? ".pass" : "";
      return message(`log.BlockAnswered${answer}`, { player: seat });
    }
    case "PileBlocked":
      return message(coloured(`log.${kind}`, event.colour), { player: event.blocker });
    case "PileCompleted":
      return message(coloured(`log.${kind}`, event.colour), {});
    case "ChipTaken":
      return message(event.taken ? coloured("log.ChipTaken", event.colour) : coloured("log.ChipTaken.none", event.colour), { player: seat });
    case "TurnEnded":
      return event.discarded ? null : message("log.TurnEnded.empty", { player: seat });
    case "GameEnded":
      if (event.winner !== null && event.winner !== undefined) return message("log.GameEnded.win", { player: event.winner });
      return message("log.GameEnded.none", { reason: event.reason });
    default:
      console.error(`not an event: ${kind}`);
      return null;
  }
}

// Table entries that name the seat they changed; `start` names the game instead.
const SEAT_OPS = new Set(["sit", "leave", "add_bot", "remove_bot", "replace", "reclaim"]);

/** The message of a table entry itself (a seat taken, a game begun), or null. */
export function entryMessage(entry) {
  if (SEAT_OPS.has(entry.op)) return entry.seat === null ? null : message(`log.${entry.op}`, { player: entry.seat });
  if (entry.op === "start") return message("log.start", { game: entry.game });
  return null;
}

/**
 * A message's data arguments in words, by name: `player` and `victim` are seats (named
 * by `player(seat)`), `card` a card id, `cards` card ids, `pile` [colour, index within
 * the colour], `colour` a colour, `reason` an end reason; numbers stay numbers.
 */
// Friendly table names (#15): an animal picked by the table's id, in the reader's words.
export const ANIMALS = ["otter", "fox", "owl", "panda", "tiger", "koala", "dolphin", "penguin", "rabbit", "turtle", "hedgehog", "squirrel", "zebra", "giraffe", "elephant", "whale"];

/** A table's friendly name from its id ("Otter table"): the same id, the same animal. */
export function tableName(id) {
  let sum = 0;
  for (const char of String(id)) sum = (sum * 31 + char.codePointAt(0)) % 65521;
  return t("table.named", { animal: t(`animal.${ANIMALS[sum % ANIMALS.length]}`) });
}

/** A bot strength in words ("greedy" -> its message), else as it is. */
export function botName(bot) {
  return has(`bot.${bot}`) ? t(`bot.${bot}`) : bot;
}

/**
 * A seat's name as the reader reads it: a name the server made (a bot's) comes as a
 * message with its data, worded here; a person's name is theirs.
 */
export function seatLabel(seat) {
  const label = seat?.label;
  if (!label) return seat?.name ?? "";
  const args = { ...label.args };
  if (args.bot !== undefined) args.bot = botName(args.bot);
  return t(label.key, args);
}

export function words(args, player) {
  const out = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue;
    if (name === "player" || name === "victim") out[name] = player(value);
    else if (name === "card") out[name] = cardName(value);
    else if (name === "kind") out[name] = kindName(value);
    else if (name === "cards") out[name] = value.map(cardName).join(t("list.separator"));
    else if (name === "pile") out[name] = pileName(value[0], value[1]);
    else if (name === "colour") out[name] = colourName(value);
    else if (name === "reason") out[name] = t(`end.${value}`);
    else out[name] = value;
  }
  return out;
}

/** A message ({key, args} with data arguments) as text; `player` names a seat. */
export function line(found, player) {
  return t(found.key, words(found.args, player));
}

/** One event's log line, or null. */
export function eventLine(event, player) {
  const found = eventMessage(event);
  return found ? line(found, player) : null;
}

/**
 * An engine refusal's message: `illegal.<code>` as the server names it, worded per colour
 * where it names a chip's colour (`refusal_message` in i18n/render.py).
 */
export function refusalMessage(detail) {
  const args = { ...(detail.args ?? {}) };
  if (!has(detail.key) && args.colour !== undefined && args.colour !== null) {
    const colour = args.colour;
    delete args.colour;
    return message(coloured(detail.key, colour), args);
  }
  return message(detail.key, args);
}

/**
 * Why a request changed nothing, from a `refused`/`error` frame or an HTTP error body:
 * the engine's reason when the frame has a `detail` {key, args}, else `refused.<code>`;
 * wrapped with the rule id when there is one.
 */
export function refusalLine(frame, player) {
  let reason;
  const detail = frame.detail && refusalMessage(frame.detail);
  if (detail && has(detail.key)) reason = line(detail, player);
  else reason = t(has(`refused.${frame.code}`) ? `refused.${frame.code}` : "refused.bad_request");
  return frame.rule ? t("refused.with_rule", { reason, rule: frame.rule }) : reason;
}
