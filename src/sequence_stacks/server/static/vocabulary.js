// The closed vocabularies the client compares values to, as named constants (#23): the
// engine's (phases, action types, event kinds, end and draw reasons) and the server's
// (table statuses, seat kinds, log entry ops, timer kinds), generated from
// /api/catalog when the words load (`setWords` in messages.js). `PHASE.BLOCK_WINDOW` is
// "block_window", `EVENT.TURN_STARTED` is "TurnStarted". A name the catalog does not
// have throws, so a typo fails loudly instead of comparing false; and so does any name
// read before the catalog is loaded (read them in functions, never at a module's top).
// No script compares a vocabulary value to a string literal of its own
// (tests/test_static_client.py). No DOM here.

// Each vocabulary and where the catalog lists its values.
const SOURCES = {
  PHASE: (catalog) => catalog.phases,
  ACTION: (catalog) => catalog.action_types,
  EVENT: (catalog) => Object.keys(catalog.events),
  END_REASON: (catalog) => catalog.end_reasons,
  DRAW_REASON: (catalog) => catalog.draw_reasons,
  TABLE_STATUS: (catalog) => catalog.table_statuses,
  SEAT_KIND: (catalog) => catalog.seat_kinds,
  OP: (catalog) => catalog.ops,
  TIMER: (catalog) => catalog.timer_kinds,
  NOTICE: (catalog) => catalog.notice_kinds ?? [],
  CHANNEL: (catalog) => catalog.notice_channels ?? [],
};

const filled = new Map(); // vocabulary -> Map(constant name -> value)

/** A value's constant name: "block_window" -> BLOCK_WINDOW, "TurnStarted" -> TURN_STARTED. */
export function constantName(value) {
  return String(value).replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[^A-Za-z0-9]+/g, "_").toUpperCase();
}

function constants(vocabulary) {
  const values = new Map();
  filled.set(vocabulary, values);
  return new Proxy({}, {
    get(_, name) {
      if (typeof name !== "string") return undefined;
      if (!values.has(name)) throw new Error(`${vocabulary}.${name} is not in the catalog`);
      return values.get(name);
    },
    has: (_, name) => values.has(name),
    ownKeys: () => [...values.keys()],
    getOwnPropertyDescriptor: (_, name) => (values.has(name) ? { value: values.get(name), enumerable: true, configurable: true } : undefined),
    set() {
      throw new Error(`${vocabulary} is the catalog's, not to be changed`);
    },
  });
}

export const PHASE = constants("PHASE");
export const ACTION = constants("ACTION");
export const EVENT = constants("EVENT");
export const END_REASON = constants("END_REASON");
export const DRAW_REASON = constants("DRAW_REASON");
export const TABLE_STATUS = constants("TABLE_STATUS");
export const SEAT_KIND = constants("SEAT_KIND");
export const OP = constants("OP");
export const TIMER = constants("TIMER");
export const NOTICE = constants("NOTICE"); // what a player is told away from the table (#26)
export const CHANNEL = constants("CHANNEL"); // how: push alert or e-mail (#26)

/** Fill every vocabulary from the catalog (what `setWords` does with /api/catalog's). */
export function setVocabulary(catalog) {
  for (const [vocabulary, source] of Object.entries(SOURCES)) {
    const values = filled.get(vocabulary);
    values.clear();
    for (const value of (catalog && source(catalog)) ?? []) values.set(constantName(value), value);
  }
}
