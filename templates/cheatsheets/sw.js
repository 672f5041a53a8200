{% load static %}// The service worker of Ninety-Nine Scorekeeper, rendered by scorekeeper.cheatsheets.service_worker.
//
// - Static files (/static/…): cache first. Those the rule sheets need are stored when the worker
//   is installed; in production their names carry a hash, so a new file is a new URL.
// - Rule sheets, score pads, the rules list, the offline page and the manifest: network first,
//   stored as they are opened, served from the cache when there is no network.
// - Any other page: the network, and the offline page when there is none.
// Only GET requests of this site are answered; POSTs, htmx requests and session pages are never
// stored, and neither is a response that says no-store.
"use strict";

{% autoescape off %}{# URLs from static() and reverse() are percent-encoded: no quote, no backslash. #}
const VERSION = "{{ version }}";
const STATIC_CACHE = "scorekeeper-static-" + VERSION;
const PAGE_CACHE = "scorekeeper-pages";
const OFFLINE_URL = "{{ offline_url }}";
const STATIC_PREFIX = "{% get_static_prefix %}";
const PRECACHED_STATIC = [{% for path in static_paths %}
  "{% static path %}",{% endfor %}
];
const PRECACHED_PAGES = [{% for url in page_urls %}
  "{{ url }}",{% endfor %}
];
const CACHED_PAGES = [{% for prefix in cached_prefixes %}
  "{{ prefix }}",{% endfor %}
];{% endautoescape %}

self.addEventListener("install", (event) => {
  event.waitUntil(
    Promise.all([
      caches.open(STATIC_CACHE).then((cache) => cache.addAll(PRECACHED_STATIC)),
      caches.open(PAGE_CACHE).then((cache) => cache.addAll(PRECACHED_PAGES)),
    ]).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      const old = names.filter((name) => name.startsWith("scorekeeper-static-") && name !== STATIC_CACHE);
      await Promise.all(old.map((name) => caches.delete(name)));
      await self.clients.claim();
      // Stored pages point at the static files of the version that stored them: fetch them
      // again, and store the page that registered this worker (it loaded before it ran).
      const pages = await caches.open(PAGE_CACHE);
      const stored = (await pages.keys()).map((request) => request.url);
      const open = (await self.clients.matchAll({ type: "window", includeUncontrolled: true })).map(
        (client) => client.url
      );
      await Promise.all([...new Set([...stored, ...open])].map(refresh));
    })()
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(cacheFirst(request));
  } else if (isCachedPage(url) && !request.headers.has("HX-Request")) {
    event.respondWith(networkFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage()));
  }
});

function isCachedPage(url) {
  return url.origin === self.location.origin && CACHED_PAGES.some((prefix) => url.pathname.startsWith(prefix));
}

function storable(response) {
  const control = response.headers.get("Cache-Control") || "";
  return response.ok && !response.redirected && response.type === "basic" && !/no-store/.test(control);
}

async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (storable(response)) {
    const cache = await caches.open(STATIC_CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (storable(response)) {
      const cache = await caches.open(PAGE_CACHE);
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request, { ignoreVary: true });
    return cached || offlinePage();
  }
}

async function offlinePage() {
  const cached = await caches.match(OFFLINE_URL, { ignoreVary: true });
  return cached || new Response("{{ offline_text|escapejs }}", { status: 503, headers: { "Content-Type": "text/plain" } });
}

async function refresh(href) {
  const url = new URL(href);
  if (!isCachedPage(url)) return;
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (storable(response)) {
      const cache = await caches.open(PAGE_CACHE);
      await cache.put(url, response);
    }
  } catch (error) {
    // Offline or the page is gone: keep what is stored.
  }
}
