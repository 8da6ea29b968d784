// A one-time code's box (#26), as the server made the code ({code, url, qr}): a device
// added to an account (account.html) or a seat moved to another device (table.html).
// Each page's `.code-box` holds parts/codebox.html: a line saying where to type the
// code, the code, its link and the link's QR code.

import { t } from "./messages.js";

/**
 * Show the code `data` in `box`; `about` is the message saying where to type it, given
 * the URL of the page `path` (/link, /move) on this site.
 */
export function showCode(box, data, about, path) {
  box.querySelector(".code-about").textContent = t(about, { url: new URL(path, location.href).href });
  box.querySelector(".code").textContent = data.code;
  const link = box.querySelector("a");
  link.href = data.url;
  link.textContent = data.url;
  box.querySelector("img").src = data.qr;
  box.hidden = false;
}
