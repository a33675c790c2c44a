// The verification page's service worker: it keeps a copy of the page's files (HTML, CSS,
// modules, the wasm and the samples) so that the page also opens offline. Network first —
// the worker serves them with no-cache, and a new build must win — the copy when offline.
// It handles only GET requests under its own scope (/ui/); the service's API is never cached.
const CACHE = 'edgeattest-page';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

const inScope = (url) => url.startsWith(self.registration.scope);

// The page lists the files it loaded before this worker controlled it; they are copied now.
self.addEventListener('message', (event) => {
  if (event.data?.type !== 'cache' || !Array.isArray(event.data.urls)) return;
  const urls = event.data.urls.filter((url) => typeof url === 'string' && inScope(url));
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(urls))
      .then(() => event.ports[0]?.postMessage({ cached: urls.length }))
      .catch((error) => event.ports[0]?.postMessage({ error: String(error) })),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !inScope(request.url)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })
      .catch(async () => (await caches.match(request, { ignoreSearch: true })) ?? Response.error()),
  );
});
