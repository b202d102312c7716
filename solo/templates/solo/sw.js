// The service worker (solo.views.service_worker): keeps the offline page and everything it
// needs, so a player who has been here before can play solo with no network.
const CACHE = "{{ cache }}";
const URLS = {{ urls_json|safe }};
const PAGE = "{{ page_url }}";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(URLS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("hearts-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Pages come from the network; with none, the offline page (the player's games are on it).
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (url.pathname === PAGE && response.ok) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(PAGE, copy));
          }
          return response;
        })
        .catch(() => caches.match(PAGE))
    );
    return;
  }
  if (URLS.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname).then((kept) => kept || fetch(request)));
  }
});
