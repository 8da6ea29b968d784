// Data in words (#13, #23): a card, a colour, a pile, a seat, a table; a message the
// server sent as data ({key, args}: an event's or a table entry's log line, a refusal's
// reason) filled in with its arguments worded here, as `words` in
// sequence_stacks/i18n/render.py words them (tests/js checks every event kind gives
// Python's line). Card facts come from the catalog. No DOM here.

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

/** A sequence pile in words: its colour and its index within that colour (from 0). */
export function pileName(colour, index) {
  return t(coloured("pile.name", colour), { number: index + 1 });
}

/** A pile slot in words, from what `slots` (a frame's or lesson's) says the slot is. */
export function slotName(slots, slot) {
  const { colour, index } = slots[slot];
  return pileName(colour, index);
}

function message(key, args) {
  return { key, args };
}

// Friendly table names (#15): an animal picked by the table's id, in the reader's words.
export const ANIMALS = ["otter", "fox", "owl", "panda", "tiger", "koala", "dolphin", "penguin", "rabbit", "turtle", "hedgehog", "squirrel", "zebra", "giraffe", "elephant", "whale"];

/** A table's friendly name from its id ("Otter table"): the same id, the same animal. */
export function tableName(id) {
  let sum = 0;
  for (const char of String(id)) sum = (sum * 31 + char.codePointAt(0)) % 65521;
  return t("table.named", { animal: t(`animal.${ANIMALS[sum % ANIMALS.length]}`) });
}

/**
 * A table's name as every page shows it (#24): the name stored with it ("Owl table",
 * "Owl table 2" when every animal was taken among the listed tables), else, for a table
 * stored before tables had names, the one its id picks.
 */
export function tableTitle(id, options) {
  const name = options?.name;
  if (!name || !has(`animal.${name.animal}`)) return tableName(id);
  const animal = t(`animal.${name.animal}`);
  return name.number > 1 ? t("table.named_numbered", { animal, number: name.number }) : t("table.named", { animal });
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

/**
 * A message's data arguments in words, by name: `player` and `victim` are seats (named
 * by `player(seat)`, the reader's way: "You", a name), `card` a card id, `cards` card
 * ids, `kind` a card kind, `pile` [colour, index within the colour] (a pile a refusal
 * names may not exist, so no slot), `colour` a colour, `reason` an end reason; numbers
 * stay numbers.
 */
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
    else if (name === "option" || name === "other_option") out[name] = optionLabel(value);
    else out[name] = value;
  }
  return out;
}

/** A variant option in the reader's words: the lobby form's own label of it (#24). */
export function optionLabel(option) {
  return has(`page.lobby.${option}`) ? t(`page.lobby.${option}`) : String(option);
}

/** A message ({key, args} with data arguments) as text; `player` names a seat. */
export function line(found, player) {
  return t(found.key, words(found.args, player));
}

/** One event's log line (the server sends its message), or null for an event with none. */
export function eventLine(event, player) {
  return event.message ? line(event.message, player) : null;
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
 * the engine's reason when the frame has a `detail` {key, args}, else the page's own
 * words for the code (`page.<page>.refused.<code>`, if it has them), else
 * `refused.<code>`. Players read no rule ids (#24): the frame's `rule` is for scripts.
 */
export function refusalLine(frame, player, page = null) {
  let reason;
  const detail = frame.detail && refusalMessage(frame.detail);
  const own = page && `page.${page}.refused.${frame.code}`;
  if (detail && has(detail.key)) reason = line(detail, player);
  else if (own && has(own)) reason = t(own);
  else reason = t(has(`refused.${frame.code}`) ? `refused.${frame.code}` : "refused.bad_request");
  return reason;
}
