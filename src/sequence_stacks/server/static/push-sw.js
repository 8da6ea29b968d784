// The push handler of a service worker (#26), for `importScripts`: a push message from
// the server carries its words already in the reader's language ({title, body, url,
// tag}); it is shown as a notification, and tapping it opens (or focuses) the game.

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = data.title || "Sequence Stacks";
  event.waitUntil(self.registration.showNotification(title, { body: data.body || "", tag: data.tag, data: { url: data.url || "/" } }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  let url = new URL(event.notification.data?.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).pathname === url.pathname);
      return open ? open.focus() : self.clients.openWindow(url.href);
    }),
  );
});
