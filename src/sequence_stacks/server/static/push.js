// Alerts on this device (#26): a service worker that shows push messages
// (push-worker.js, which takes its handler from push-sw.js) and a push subscription for
// the server's VAPID key, kept by the server for the signed-in account.

import { call } from "./api.js";

const WORKER = "/static/push-worker.js";

function keyBytes(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "="));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

/** Ask leave to alert, subscribe this browser and tell the server; false if it cannot. */
export async function enablePush(serverKey) {
  if (!serverKey || !("serviceWorker" in navigator) || !("PushManager" in window)) return false;
  if ((await Notification.requestPermission()) !== "granted") return false;
  const registration = await navigator.serviceWorker.register(WORKER, { scope: "/static/" });
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(serverKey) });
  const { endpoint, keys } = subscription.toJSON();
  await call("POST", "/api/me/push", { endpoint, keys });
  return true;
}
