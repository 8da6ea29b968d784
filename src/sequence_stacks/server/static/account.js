// The account page (#26): sign up or in with a passkey; then the profile, the devices and
// passkeys, another device added by a one-time code, the e-mail address, the notices.
// Every word is a message; an e-mail address is only ever shown on this page, to its
// own account.

import { h } from "./dom.js";
import { AVATARS, avatar } from "./avatars.js";
import { call, problemText, Refused } from "./api.js";
import { showCode } from "./codebox.js";
import { accountNav } from "./nav.js";
import { loadWords, t } from "./messages.js";
import { canUsePasskeys, makePasskey, usePasskey } from "./passkey.js";
import { setUpPage } from "./pagewords.js";
import { enablePush } from "./push.js";
import { CHANNEL, NOTICE } from "./vocabulary.js";

const $ = (selector) => document.querySelector(selector);
let state = null;

function showProblem(error) {
  const box = $("#problem");
  box.textContent = problemText(error);
  box.hidden = false;
}

function clearProblem() {
  $("#problem").hidden = true;
}

async function guarded(button, work) {
  clearProblem();
  if (button) button.disabled = true;
  try {
    await work();
  } catch (error) {
    showProblem(error);
  } finally {
    if (button) button.disabled = false;
  }
}

function avatarPicker(box, name, chosen) {
  box.replaceChildren(
    ...AVATARS.map((key) =>
      h("label", { class: "avatar-choice", title: t(`avatar.${key}`) }, h("input", { type: "radio", name, value: key, checked: key === chosen, "aria-label": t(`avatar.${key}`) }), avatar(key, { size: 40 })),
    ),
  );
}

async function languageChoices(select, chosen) {
  const data = await call("GET", "/api/languages");
  select.replaceChildren(...data.languages.map(({ code, name }) => h("option", { value: code, lang: code, selected: code === chosen }, name)));
  select.value = chosen || data.current;
}

// --- signed out -------------------------------------------------------------------------

async function signUp(form) {
  if (!canUsePasskeys()) throw new Error("no passkeys");
  const body = { name: form.elements.namedItem("name").value.trim(), avatar: form.querySelector("input[name=avatar]:checked")?.value ?? AVATARS[0], language: form.elements.namedItem("language").value };
  const { options } = await call("POST", "/api/accounts/signup/options", body);
  const credential = await makePasskey(options);
  await call("POST", "/api/accounts/signup", { credential });
  afterSignIn();
}

async function signIn() {
  const { options } = await call("POST", "/api/accounts/signin/options");
  const credential = await usePasskey(options);
  await call("POST", "/api/accounts/signin", { credential });
  afterSignIn();
}

function afterSignIn() {
  const next = new URLSearchParams(location.search).get("next");
  if (next && next.startsWith("/") && !next.startsWith("//")) location.href = next;
  else location.reload();
}

async function showSignedOut() {
  $("#signed-out").hidden = false;
  avatarPicker($("#sign-up-avatars"), "avatar", AVATARS[0]);
  await languageChoices($("#sign-up-language"), document.documentElement.lang);
  const form = $("#sign-up");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    guarded(form.querySelector("button"), () => signUp(form));
  });
  $("#sign-in").addEventListener("click", (event) => guarded(event.currentTarget, signIn));
  const recover = $("#recover");
  recover.addEventListener("submit", (event) => {
    event.preventDefault();
    guarded(recover.querySelector("button"), async () => {
      await call("POST", "/api/accounts/recover", { email: recover.elements.namedItem("email").value });
      $("#recover-done").hidden = false;
    });
  });
  if (!canUsePasskeys()) {
    $("#problem").textContent = t("account.no_passkeys");
    $("#problem").hidden = false;
  }
}

// --- signed in ----------------------------------------------------------------------------

function dateText(seconds) {
  return new Date(seconds * 1000).toLocaleString(document.documentElement.lang);
}

function renderDevices() {
  $("#sessions").replaceChildren(
    ...state.sessions.map((row) => {
      const label = row.this ? `${row.label} (${t("page.account.this_device")})` : row.label;
      const out = h("button", { type: "button", class: "small", "data-session": row.id }, t("page.account.sign_out_device"));
      out.addEventListener("click", () => guarded(out, async () => {
        await call("DELETE", `/api/me/sessions/${encodeURIComponent(row.id)}`);
        if (row.this) location.reload();
        else await load();
      }));
      return h("li", { class: "device" }, h("span", {}, label), h("span", { class: "muted" }, dateText(row.seen_at)), out);
    }),
  );
  $("#passkeys").replaceChildren(
    ...state.passkeys.map((key) => {
      const remove = h("button", { type: "button", class: "small", disabled: state.passkeys.length < 2 }, t("page.account.remove"));
      remove.addEventListener("click", () => guarded(remove, async () => {
        await call("DELETE", `/api/me/passkeys/${encodeURIComponent(key.id)}`);
        await load();
      }));
      return h("li", { class: "device" }, h("span", {}, key.label), h("span", { class: "muted" }, dateText(key.created_at)), remove);
    }),
  );
}

function renderEmail() {
  const account = state.account;
  const form = $("#email");
  form.elements.namedItem("email").value = account.email ?? "";
  let words = "";
  if (!state.email_sending) words = t("page.account.email_none");
  else if (account.email) words = t(account.email_verified ? "page.account.email_verified" : "page.account.email_unverified");
  $("#email-state").textContent = words;
}

function renderNotices() {
  const prefs = state.account.prefs;
  $("#notices").replaceChildren(
    ...Object.values(NOTICE).map((kind) =>
      h("tr", {}, h("th", { scope: "row", id: `notice-${kind}` }, t(`page.account.notice.${kind}`)), ...Object.values(CHANNEL).map((channel) => {
        // Named by its row and its column, each a message of its own.
        const box = h("input", { type: "checkbox", checked: prefs[kind][channel], "aria-labelledby": `notice-${kind} channel-${channel}`, "data-kind": kind, "data-channel": channel });
        box.addEventListener("change", () => guarded(null, async () => {
          prefs[kind][channel] = box.checked;
          const data = await call("PUT", "/api/me/notifications", { prefs });
          state.account = data.account;
        }));
        return h("td", {}, h("label", { class: "notice-box" }, box));
      })),
    ),
  );
  $("#push-state").textContent = state.push_key ? "" : t("page.account.push_none");
  $("#push-on").disabled = !state.push_key;
}

function renderProfile() {
  const account = state.account;
  const form = $("#profile");
  form.elements.namedItem("name").value = account.name;
  form.elements.namedItem("never_block").checked = account.never_block;
  avatarPicker($("#profile-avatars"), "avatar", account.avatar);
  $("#public-page").href = `/players/${encodeURIComponent(account.id)}`;
  return languageChoices($("#profile-language"), account.language);
}

async function load() {
  state = await call("GET", "/api/me");
  await renderProfile();
  renderDevices();
  renderEmail();
  renderNotices();
}

function wireSignedIn() {
  const profile = $("#profile");
  profile.addEventListener("submit", (event) => {
    event.preventDefault();
    guarded(profile.querySelector("button"), async () => {
      const body = {
        name: profile.elements.namedItem("name").value.trim(),
        avatar: profile.querySelector("input[name=avatar]:checked")?.value ?? state.account.avatar,
        language: profile.elements.namedItem("language").value,
        never_block: profile.elements.namedItem("never_block").checked,
      };
      const data = await call("PUT", "/api/me/profile", body);
      state.account = data.account;
      $("#profile-saved").hidden = false;
    });
  });
  const email = $("#email");
  email.addEventListener("submit", (event) => {
    event.preventDefault();
    guarded(email.querySelector("button"), async () => {
      const data = await call("PUT", "/api/me/email", { email: email.elements.namedItem("email").value.trim() });
      state.account = data.account;
      renderEmail();
    });
  });
  $("#add-device").addEventListener("click", (event) => guarded(event.currentTarget, async () => {
    const data = await call("POST", "/api/me/devices/code");
    showCode($("#device-code"), data, "page.account.add_device_about", "/link");
  }));
  $("#push-on").addEventListener("click", (event) => guarded(event.currentTarget, async () => {
    $("#push-state").textContent = (await enablePush(state.push_key)) ? t("page.account.push_done") : t("page.account.push_none");
  }));
  $("#sign-out").addEventListener("click", (event) => guarded(event.currentTarget, async () => {
    await call("POST", "/api/accounts/signout");
    location.reload();
  }));
}

async function start() {
  setUpPage();
  accountNav();
  try {
    // Asked first, so that a signed-out reader's page asks for nothing it may not have.
    if (!(await call("GET", "/api/me/badge")).signed_in) return showSignedOut();
    await load();
  } catch (error) {
    if (error instanceof Refused && error.status === 401) return showSignedOut();
    return showProblem(error);
  }
  $("#signed-in").hidden = false;
  wireSignedIn();
}

loadWords()
  .catch((error) => console.error(`the messages did not load: ${error}`))
  .finally(start);
