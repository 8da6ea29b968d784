// Alerts on this device (#26): the site's one service worker (/sw.js, which also keeps
// the game for offline play, #25, and takes its push handler from push-sw.js) and a
// push subscription for the server's VAPID key, kept by the server for the signed-in
// account.

import { call } from "./api.js";

const WORKER = "/sw.js";

// The page's Content-Security-Policy takes script URLs only from a Trusted Types policy,
// and allows one, "service-worker", that makes this one URL and nothing else.
let policy = null;
function workerUrl() {
  if (!window.trustedTypes) return WORKER;
  policy ??= window.trustedTypes.createPolicy("service-worker", {
    createScriptURL: (url) => {
      if (url !== WORKER) throw new TypeError("not the service worker");
      return url;
    },
  });
  return policy.createScriptURL(WORKER);
}

/** Register the site's service worker (scope /, as /local registers it); its registration. */
export async function registerWorker() {
  const registration = await navigator.serviceWorker.register(workerUrl(), { scope: "/", updateViaCache: "none" });
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (worker && worker.state !== "activated") {
    await new Promise((resolve, reject) =>
      worker.addEventListener("statechange", () => {
        if (worker.state === "activated") resolve();
        else if (worker.state === "redundant") reject(new Error("the service worker did not install"));
      }),
    );
  }
  return registration;
}

function keyBytes(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "="));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

/** Ask leave to alert, subscribe this browser and tell the server; false if it cannot. */
export async function enablePush(serverKey) {
  if (!serverKey || !("serviceWorker" in navigator) || !("PushManager" in window)) return false;
  if ((await Notification.requestPermission()) !== "granted") return false;
  const registration = await registerWorker();
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(serverKey) });
  const { endpoint, keys } = subscription.toJSON();
  await call("POST", "/api/me/push", { endpoint, keys });
  return true;
}
