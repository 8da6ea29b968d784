// The service worker of the game on one device (#25): after one visit to /local, the
// game on one device, the tutorial and play against bots work with the network off.
// Hand-written, not Workbox: it needs two strategies and a list the server already
// makes (docs/server.md, "Offline"), and no build step or runtime library besides.
//
// The server serves this file as /sw.js with BUILD filled in: its version (a digest of
// everything listed) and the URLs to keep. A new version installs on the next visit
// (the browser checks /sw.js each time) and keeps its own copies, then waits until no
// page of the old version is open: it takes over at the next visit after that and drops
// the old copies. (Taking over at once, as it first did, swapped the copies under a page
// whose engine could still be loading its files; in a browser test under load such an
// engine never started.) A game in progress is in IndexedDB as its record, which the
// new version replays.
//
// - the runtime and the Python source (their URLs hold their version): from the cache;
// - everything else of this origin: from the network, kept for later; from the cache
//   when the network fails (the words of another language: the ones kept);
// - a move in the tutorial offline: answered from the tutorial's answers, kept;
// - what only a server can do (tables, seats, sockets): the network, or nothing;
// - alerts (#26): the push handler, from its own file (push-sw.js), shows a push
//   message and opens its game; the account API is never kept (it is the reader's own).

// The worker's Content-Security-Policy (the site's) takes script URLs only from its one
// Trusted Types policy, "service-worker", which makes this URL and nothing else.
const PUSH_HANDLER = "/static/push-sw.js";
const pushPolicy = self.trustedTypes?.createPolicy("service-worker", {
  createScriptURL: (url) => {
    if (url !== PUSH_HANDLER) throw new TypeError("not the push handler");
    return url;
  },
});
importScripts(pushPolicy ? pushPolicy.createScriptURL(PUSH_HANDLER) : PUSH_HANDLER);

const BUILD = /* build */ { version: "", precache: [], immutable: [] } /* build */;
const CACHE = `sequence-stacks-${BUILD.version}`;
const PREFIX = "sequence-stacks-";
// The page's engine keeps the bytecode it compiled from the game's source there (local-
// worker.js), per source and runtime: a new version drops what no longer matches.
const BYTECODE_CACHE = "sequence-stacks-bytecode";
const NETWORK_MS = 4000;
// Online only: the lobby's API and the tables (their pages fall back to /offline), and
// the account API.
const ONLINE_ONLY = [
  /^\/api\/(tables|play|health)\b/u,
  /^\/ws\//u,
  // An account's own data, its sessions and codes (#26): never kept on the device.
  /^\/api\/(me|accounts|email|push|move|unsubscribe)\b/u,
];
const TUTORIAL_MOVE = /^\/api\/tutorial\/(\d+)$/u;
const TUTORIAL_ANSWERS = "/api/tutorial/answers";
const KEPT_ANY_LANGUAGE = ["/api/messages", "/api/rules"];
const OFFLINE_PAGE = "/offline";

function immutable(path) {
  return BUILD.immutable.some((prefix) => path.startsWith(prefix));
}

async function keep(cache, url) {
  const path = new URL(url, self.location.origin).pathname;
  const response = await fetch(url, { cache: immutable(path) ? "default" : "no-cache", credentials: "same-origin" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  await cache.put(url, response);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(BUILD.precache.map((url) => keep(cache, url)));
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE && name !== BYTECODE_CACHE) await caches.delete(name);
      const bytecode = await caches.open(BYTECODE_CACHE);
      for (const request of await bytecode.keys()) {
        const params = new URL(request.url).searchParams;
        if (!BUILD.precache.includes(params.get("source"))) await bytecode.delete(request);
      }
      // The first version takes the page that installed it (it had none); a later one
      // activates only when no page of the old one is open, so it claims none of theirs.
      await self.clients.claim();
    })(),
  );
});

// A page asks to keep the words of its language (loaded before this worker ran).
self.addEventListener("message", (event) => {
  if (event.data?.type !== "keep" || !Array.isArray(event.data.urls)) return;
  const urls = event.data.urls.filter((url) => KEPT_ANY_LANGUAGE.some((path) => url.startsWith(`${path}?`)));
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(urls.map((url) => keep(cache, url).catch(() => null)))));
});

/** The network within NETWORK_MS, kept in the cache; else what the cache has. */
async function networkFirst(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("the network is too slow")), NETWORK_MS)),
    ]);
    if (response.ok && response.type === "basic") cache.put(request, response.clone());
    return response;
  } catch (error) {
    const found = (await cache.match(request, { ignoreVary: true })) ?? (await fallback(cache, request, url));
    if (found) return found;
    throw error;
  }
}

async function fallback(cache, request, url) {
  if (KEPT_ANY_LANGUAGE.includes(url.pathname)) return cache.match(url.pathname, { ignoreSearch: true, ignoreVary: true });
  if (request.mode === "navigate") {
    return (await cache.match(url.pathname, { ignoreSearch: true, ignoreVary: true })) ?? cache.match(OFFLINE_PAGE, { ignoreVary: true });
  }
  return undefined;
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(request, { ignoreVary: true });
  if (found) return found;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

/** A tutorial move: the server's answer, else the answer kept for that move. */
async function tutorialMove(request, lesson) {
  const body = await request.clone().text();
  try {
    return await fetch(request);
  } catch (error) {
    const kept = await (await caches.open(CACHE)).match(TUTORIAL_ANSWERS, { ignoreVary: true });
    let id = null;
    try {
      id = JSON.parse(body).action_id;
    } catch {
      id = null;
    }
    const answers = kept ? await kept.json() : null;
    const answer = answers?.lessons?.[lesson]?.[String(id)];
    if (!answer) throw error;
    return new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (ONLINE_ONLY.some((pattern) => pattern.test(url.pathname))) return;
  const lesson = TUTORIAL_MOVE.exec(url.pathname);
  if (request.method === "POST" && lesson) {
    event.respondWith(tutorialMove(request, Number(lesson[1])));
    return;
  }
  if (request.method !== "GET") return;
  event.respondWith(immutable(url.pathname) ? cacheFirst(request) : networkFirst(request, url));
});
