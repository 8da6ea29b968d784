// A minimal service worker for alerts (#26) until the site's own one (/sw.js, offline
// play) takes the push handler with `importScripts("/static/push-sw.js")`. The
// Content-Security-Policy reaches workers too: the script URL comes from the one
// Trusted Types policy it allows, which makes this URL and nothing else.

const HANDLER = "/static/push-sw.js";
const policy = self.trustedTypes?.createPolicy("service-worker", {
  createScriptURL: (url) => {
    if (url !== HANDLER) throw new TypeError("not the push handler");
    return url;
  },
});
importScripts(policy ? policy.createScriptURL(HANDLER) : HANDLER);

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
