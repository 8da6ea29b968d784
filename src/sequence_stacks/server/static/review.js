// The review page (#27): a finished game's win-chance graph (each player's chance from
// their own view, turn by turn), the three moments that moved it most, and the viewer's
// decisions against the Champion's, the better move and the mistakes marked. The
// server computes the review after the game; while it does, the page says so and asks
// again. A seat's review comes only with that seat's token (kept by the table page);
// anyone else reads the spectators' review. Every word is a message, every name data.

import { h, svg } from "./dom.js";
import { actionWords } from "./choices.js";
import { loadWords, t } from "./messages.js";
import { setUpPage } from "./pagewords.js";
import { line, seatLabel, tableTitle } from "./words.js";

const parts = location.pathname.split("/");
const tableId = decodeURIComponent(parts[2]);
const game = Number(parts[3]);
const token = localStorage.getItem(`sequence-stacks:token:${tableId}`);
const $ = (selector) => document.querySelector(selector);
// The chart: one line a player, told apart by colour (Okabe-Ito) and by dash pattern;
// drawn at the width it is shown (one unit a pixel: its words stay readable on a phone).
const HEIGHT = 240;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4"];

const page = { names: [], options: null, viewer: null, slots: null };

/** A seat's display name: the player's, else "Player N". */
function seatName(seat) {
  return page.names[seat] || t("seat.numbered", { number: seat + 1 });
}

/** A seat as the review names it: "Ann (you)" for the viewer's own. */
function viewerName(seat) {
  const name = seatName(seat);
  return seat === page.viewer ? t("seat.you_named", { name }) : name;
}

const percent = (chance) => Math.round(100 * chance);

async function tableFacts() {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!response.ok) return;
  const table = await response.json();
  page.names = table.seats.map((seat) => seatLabel(seat));
  page.options = table.options ?? null;
}

async function load() {
  const headers = token ? { "x-seat-token": token } : {};
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/games/${game}/review`, { headers });
  const data = await response.json();
  if (response.status === 202) {
    status(t("review.computing"));
    setTimeout(load, 1000 * (data.retry_after ?? 3));
    return;
  }
  if (!response.ok) {
    status(t("review.unavailable"));
    return;
  }
  page.viewer = data.viewer;
  page.slots = data.slots;
  show(data.review);
}

function status(text) {
  $("#review-status").hidden = !text;
  $("#review-status").textContent = text;
}

function show(review) {
  status("");
  $("#review-title").textContent = page.viewer === null ? t("review.title") : t("review.title.seat", { player: seatName(page.viewer) });
  $("#review-note").textContent = t("review.note", { name: tableTitle(tableId, page.options), game });
  showGraph(review);
  showMoments(review);
  showDecisions(review);
}

// --- the graph ------------------------------------------------------------------------

function showGraph(review) {
  $("#graph-box").hidden = false;
  const WIDTH = Math.max(280, Math.round($("#graph").clientWidth || 640));
  const points = review.points;
  const players = review.player_count;
  const last = Math.max(1, points.length - 1);
  const x = (index) => PAD.left + ((WIDTH - PAD.left - PAD.right) * index) / last;
  const y = (chance) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - chance);
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "chance-chart", role: "img", "aria-labelledby": "graph-heading" });
  for (const level of [0, 0.25, 0.5, 0.75, 1]) {
    chart.append(svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(level), y2: y(level), class: level === 0.5 ? "grid half" : "grid" }));
    chart.append(svg("text", { x: PAD.left - 6, y: y(level) + 4, class: "tick", "text-anchor": "end" }, `${percent(level)}%`));
  }
  const turns = points.filter((point) => point.seat !== null).map((point) => point.turn);
  const first = turns[0] ?? 1;
  const final = turns[turns.length - 1] ?? first;
  chart.append(svg("text", { x: PAD.left, y: HEIGHT - 8, class: "tick" }, String(first)));
  chart.append(svg("text", { x: WIDTH - PAD.right, y: HEIGHT - 8, class: "tick", "text-anchor": "end" }, String(final)));
  const rows = [];
  for (let seat = 0; seat < players; seat += 1) {
    const path = points.map((point, index) => `${x(index).toFixed(1)},${y(point.chances[seat]).toFixed(1)}`).join(" ");
    const own = seat === page.viewer ? " own" : "";
    chart.append(svg("polyline", { points: path, class: `chance line-${seat}${own}`, "stroke-dasharray": DASHES[seat] || null }));
    const start = percent(points[0].chances[seat]);
    const end = percent(points[points.length - 1].chances[seat]);
    rows.push(h("li", { class: `row line-${seat}` }, h("span", { class: `swatch line-${seat}`, "aria-hidden": "true" }), h("strong", {}, viewerName(seat)), " ", t("review.graph.row", { start, end })));
  }
  $("#graph").replaceChildren(chart, h("p", { class: "muted axis" }, t("review.graph.turns", { first, last: final })));
  $("#graph-rows").replaceChildren(...rows);
}

// --- the moments and the decisions ----------------------------------------------------

function showMoments(review) {
  const items = review.moments.map((moment) =>
    h("li", {}, t("review.moment", { turn: moment.turn, event: line(moment.event, seatName), change: line(moment.change, seatName) })),
  );
  $("#moments").replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, t("review.moments.none"))]));
  $("#moments-box").hidden = false;
}

function showDecisions(review) {
  if (page.viewer === null) return;
  const decisions = review.decisions;
  const mistakes = decisions.filter((decision) => decision.mistake);
  $("#decisions-count").textContent = t("review.decisions.count", { count: decisions.length });
  $("#mistakes-count").textContent = mistakes.length ? t("review.mistakes.count", { count: mistakes.length }) : t("review.mistakes.none");
  // The decisions where the better move was better by at least a whole point (as the
  // terminal's review: Review.better in bots/review_format.py).
  const better = decisions.filter((d) => d.best.notation !== d.played.notation && percent(d.best_chance ?? 0) > percent(d.played_chance ?? 0));
  $("#better-heading").hidden = !better.length;
  $("#decisions").replaceChildren(...better.map(decisionItem));
  $("#decisions-box").hidden = false;
}

function decisionItem(decision) {
  const words = t("review.mistake", {
    turn: decision.turn,
    played: actionWords(decision.played, seatName, page.slots),
    best: actionWords(decision.best, seatName, page.slots),
    played_chance: percent(decision.played_chance ?? 0),
    best_chance: percent(decision.best_chance ?? 0),
  });
  return h(
    "li",
    { class: decision.mistake ? "decision mistake" : "decision" },
    decision.mistake ? h("span", { class: "badge mistake-mark" }, t("review.mistake_mark")) : null,
    decision.mistake ? " " : null,
    words,
    decision.why ? h("span", { class: "why muted" }, " ", line(decision.why, seatName)) : null,
  );
}

function links() {
  $("#replay-link").href = `/replay/${encodeURIComponent(tableId)}/${game}`;
  $("#table-link").href = `/t/${encodeURIComponent(tableId)}`;
}

loadWords()
  .catch((error) => console.error(`the messages or the catalog did not load: ${error}`))
  .finally(async () => {
    setUpPage();
    links();
    await tableFacts().catch((error) => console.error(error));
    load().catch((error) => {
      console.error(error);
      status(t("review.unavailable"));
    });
  });
