// The pages a one-time code or link opens (#26): /link (add this device to an account
// by a code from another of its devices, or from a recovery e-mail), /move (take a
// seat another device gave away), /verify (an e-mail address checked), and
// /unsubscribe/<token> (stop e-mails without signing in). A code in the link comes
// after "#", so it never reaches a server's log.

import { call, problemText } from "./api.js";
import { loadWords, t } from "./messages.js";
import { makePasskey } from "./passkey.js";
import { setUpPage } from "./pagewords.js";
import { NOTICE } from "./vocabulary.js";

const $ = (selector) => document.querySelector(selector);
const fromLink = decodeURIComponent(location.hash.slice(1));

function say(key) {
  $("#status").textContent = t(key);
}

function problem(error) {
  const box = $("#problem");
  box.textContent = problemText(error);
  box.hidden = false;
  $("#status").textContent = "";
}

function codeForm(form, work) {
  const input = form.elements.namedItem("code");
  if (fromLink) input.value = fromLink;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#problem").hidden = true;
    const button = form.querySelector("button");
    button.disabled = true;
    say("page.code.working");
    try {
      await work(input.value.trim());
    } catch (error) {
      problem(error);
    } finally {
      button.disabled = false;
    }
  });
}

async function addDevice(code) {
  const { options } = await call("POST", "/api/accounts/link/options", { code });
  const credential = await makePasskey(options);
  await call("POST", "/api/accounts/link", { credential });
  say("page.link.done");
  location.href = "/account";
}

async function takeSeat(code) {
  const data = await call("POST", "/api/move", { code });
  localStorage.setItem(`sequence-stacks:token:${data.id}`, data.token);
  location.href = data.url;
}

async function verify() {
  say("page.code.working");
  try {
    await call("POST", "/api/email/verify", { code: fromLink });
    say("page.verify.done");
  } catch (error) {
    problem(error);
  }
}

function unsubscribe(token) {
  const kind = new URLSearchParams(location.search).get("kind");
  const known = Object.values(NOTICE).includes(kind) ? kind : "all";
  $("#unsubscribe-what").textContent = t(`unsub.${known}`);
  $("#unsubscribe-one").hidden = known === "all";
  const stop = async (which) => {
    try {
      await call("POST", `/api/unsubscribe/${encodeURIComponent(token)}?kind=${which}`);
      say("page.unsub.done");
      for (const button of document.querySelectorAll("#unsubscribe button")) button.disabled = true;
    } catch (error) {
      problem(error);
    }
  };
  $("#unsubscribe-one").addEventListener("click", () => stop(known));
  $("#unsubscribe-all").addEventListener("click", () => stop("all"));
}

function start() {
  setUpPage();
  const [, page, token] = location.pathname.split("/");
  const section = $(`#${page}`);
  if (section) section.hidden = false;
  if (page === "link") codeForm($("#link-form"), addDevice);
  else if (page === "move") codeForm($("#move-form"), takeSeat);
  else if (page === "verify") verify();
  else if (page === "unsubscribe") unsubscribe(decodeURIComponent(token ?? ""));
}

loadWords()
  .catch((error) => console.error(`the messages did not load: ${error}`))
  .finally(start);
