// A minimal service worker for alerts (#26) until the site's own one (/sw.js, offline
// play) takes the push handler with `importScripts("/static/push-sw.js")`.

importScripts("/static/push-sw.js");

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
