// What tests/test_js_client.py writes from Python into $SEQUENCE_STACKS_JS_FIXTURES:
// the messages, the catalog, sampled events and entries with the lines Python renders,
// and a copy of the static client's scripts (static/), imported from there.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

function directory() {
  const found = process.env.SEQUENCE_STACKS_JS_FIXTURES;
  if (!found) throw new Error("no fixtures: run these tests through `pytest tests/test_js_client.py`");
  return found;
}

/** The folder of the static client's scripts, as a file URL ending in "/". */
export const STATIC = pathToFileURL(join(directory(), "static") + "/");

/** One fixture file, parsed. */
export function fixture(name) {
  return JSON.parse(readFileSync(join(directory(), name), "utf8"));
}

/** How the fixtures name a seat (tests/test_js_client.py's `player`). */
export function player(seat) {
  return `Player ${seat + 1}`;
}
