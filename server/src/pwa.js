// The rest of the worker (the server puts VERSION, PRECACHE and SHELL above).
// Pages are always asked of the network; only when it fails does the chat's shell,
// which holds no one's data, stand in for them. The bundle, style and icons of this
// build come from the cache. Nothing else is ever kept: not the API, not server
// functions, not streams.
self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The page says when: never while an answer is being written.
self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.match(SHELL)));
    return;
  }
  if (PRECACHE.includes(url.pathname) && url.pathname !== SHELL) {
    event.respondWith(caches.match(url.pathname).then((hit) => hit || fetch(request)));
  }
});
