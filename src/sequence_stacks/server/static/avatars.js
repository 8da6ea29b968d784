// The fixed set of avatars a player picks from (#26): a shape on a coloured disc, drawn
// as SVG, named by the message avatar.<key>. No picture is ever uploaded.

import { svg } from "./dom.js";
import { t } from "./messages.js";

const SHAPES = {
  star: { colour: "#b8860b", d: "M12 3l2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.6 6.6 19.5l1.2-6-4.5-4.2 6.1-.7z" },
  heart: { colour: "#c0392b", d: "M12 20s-7-4.4-7-9.5A4 4 0 0 1 12 8a4 4 0 0 1 7 2.5C19 15.6 12 20 12 20z" },
  moon: { colour: "#34495e", d: "M15 3.5A8.5 8.5 0 1 0 20.5 15 7 7 0 0 1 15 3.5z" },
  sun: { colour: "#d35400", d: "M12 7a5 5 0 1 1 0 10 5 5 0 0 1 0-10zM11 1h2v4h-2zM11 19h2v4h-2zM1 11h4v2H1zM19 11h4v2h-4z" },
  leaf: { colour: "#1e8449", d: "M5 19C5 9 11 4 20 4c0 9-5 15-15 15zm0 0l7-7" },
  flower: { colour: "#8e44ad", d: "M12 8a3 3 0 1 1 0-.01zM12 16a3 3 0 1 1 0 .01zM8 12a3 3 0 1 1 .01 0zM16 12a3 3 0 1 1-.01 0zM12 10a2 2 0 1 1 0 4 2 2 0 0 1 0-4z" },
  drop: { colour: "#1f6fb2", d: "M12 3s6 7 6 11a6 6 0 0 1-12 0c0-4 6-11 6-11z" },
  bolt: { colour: "#7d6608", d: "M13 2L5 13h6l-1 9 8-11h-6z" },
};

export const AVATARS = Object.keys(SHAPES);

/** An avatar, `size` pixels wide, named for screen readers (or hidden beside a name). */
export function avatar(key, { size = 32, named = false } = {}) {
  const shape = SHAPES[key] ?? SHAPES.star;
  const label = named ? { role: "img", "aria-label": t(`avatar.${key}`) } : { "aria-hidden": "true" };
  return svg(
    "svg",
    { class: "avatar", viewBox: "0 0 24 24", width: size, height: size, focusable: "false", ...label },
    svg("circle", { cx: 12, cy: 12, r: 12, fill: shape.colour }),
    svg("g", { transform: "translate(4.8 4.8) scale(0.6)" }, svg("path", { d: shape.d, fill: "#fff", stroke: "#fff", "stroke-width": 0.6, "stroke-linejoin": "round" })),
  );
}
