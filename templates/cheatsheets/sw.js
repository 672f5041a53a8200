{% load static %}// The service worker of Ninety-Nine Scorekeeper, rendered by scorekeeper.cheatsheets.service_worker.
//
// - Static files (/static/…): cache first. Those the rule sheets and the table pages need are
//   stored when the worker is installed; in production their names carry a hash, so a new file
//   is a new URL.
// - Rule sheets, score pads, the rules list, the offline page and the manifest: network first,
//   stored as they are opened, served from the cache when there is no network.
// - Table pages (the owner's table, the scorer and the watch links), opened: network first. The
//   last copy of each is kept in TABLE_CACHE with the time it came; offline it is shown with
//   <html data-offline-copy="that time">, and static/js/offline-copy.js says that it is not live.
//   A table the server no longer shows here (404, or sent elsewhere) loses its copy. A table
//   page that changes in place (the adding game's taps) asks for its copy to be kept again
//   after each change ("keep-copy", from static/js/sw-register.js).
// - Any other page: the network, and the offline page when there is none.
// Only GET requests of this site are answered; POSTs, htmx requests and the session's other
// pages are never stored, and neither is a response that says no-store.
"use strict";

{% autoescape off %}{# URLs from static() and reverse() are percent-encoded: no quote, no backslash. #}
const VERSION = "{{ version }}";
const STATIC_CACHE = "scorekeeper-static-" + VERSION;
const PAGE_CACHE = "scorekeeper-pages";
// Not versioned: a copy of a table outlives an update of the worker. Logging out deletes it
// (static/js/forget.js names it too).
const TABLE_CACHE = "scorekeeper-tables";
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
];
// A table page's address: a prefix, the one path segment naming the table, a suffix; the other
// pages of that shape are listed.
const TABLE_PAGES = [{% for prefix, suffix in table_pages %}
  ["{{ prefix }}", "{{ suffix }}"],{% endfor %}
];
const NOT_TABLES = [{% for path in not_tables %}
  "{{ path }}",{% endfor %}
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
      await self.clients.claim();
      // Stored pages point at the static files of the version that stored them: fetch them
      // again, and store the page that registered this worker (it loaded before it ran).
      const pages = await caches.open(PAGE_CACHE);
      const tables = await caches.open(TABLE_CACHE);
      const stored = [...(await pages.keys()), ...(await tables.keys())].map((request) => request.url);
      const open = (await self.clients.matchAll({ type: "window", includeUncontrolled: true })).map(
        (client) => client.url
      );
      await Promise.all([...new Set([...stored, ...open])].map(refresh));
      // A table's copy that could not be fetched again still needs the static files of its
      // version: those stay until the copy is replaced or deleted.
      const copies = await Promise.all((await tables.keys()).map((request) => tables.match(request)));
      const kept = new Set(copies.map((copy) => "scorekeeper-static-" + copy.headers.get("X-Stored-Version")));
      const names = await caches.keys();
      const old = names.filter(
        (name) => name.startsWith("scorekeeper-static-") && name !== STATIC_CACHE && !kept.has(name)
      );
      await Promise.all(old.map((name) => caches.delete(name)));
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
  } else if (request.mode === "navigate" && isTablePage(url) && !request.headers.has("HX-Request")) {
    event.respondWith(tablePage(request));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage()));
  }
});

// The page that sent "keep-copy" changed in place: fetch it and keep it again, one at a time
// and in order, so that an older answer never replaces a newer one.
let keeping = Promise.resolve();
self.addEventListener("message", (event) => {
  if (event.data !== "keep-copy" || !event.source || !event.source.url) return;
  const url = new URL(event.source.url);
  url.hash = "";
  if (url.origin !== self.location.origin || !isTablePage(url)) return;
  keeping = keeping.then(() => refresh(url.href));
  event.waitUntil(keeping);
});

function isCachedPage(url) {
  return url.origin === self.location.origin && CACHED_PAGES.some((prefix) => url.pathname.startsWith(prefix));
}

function isTablePage(url) {
  const path = url.pathname;
  return (
    url.origin === self.location.origin &&
    !NOT_TABLES.includes(path) &&
    TABLE_PAGES.some(
      ([prefix, suffix]) =>
        path.length > prefix.length + suffix.length &&
        path.startsWith(prefix) &&
        path.endsWith(suffix) &&
        !path.slice(prefix.length, path.length - suffix.length).includes("/")
    )
  );
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

async function tablePage(request) {
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    return (await offlineCopy(request)) || offlinePage();
  }
  await keepTable(request.url, response);
  return response;
}

// Keep the table page's answer as its copy, stamped with the time and the worker's version; or
// drop the copy when the answer says this phone no longer sees the table there: gone (404), or
// sent elsewhere (logged out, asked for a name).
async function keepTable(url, response) {
  const tables = await caches.open(TABLE_CACHE);
  if (storable(response)) {
    const headers = new Headers(response.headers);
    headers.set("X-Stored-At", new Date().toISOString());
    headers.set("X-Stored-Version", VERSION);
    // The body is stored decoded, and shown changed: its length and encoding no longer hold.
    headers.delete("Content-Encoding");
    headers.delete("Content-Length");
    const body = await response.clone().arrayBuffer();
    await tables.put(url, new Response(body, { status: response.status, statusText: response.statusText, headers }));
  } else if (response.status === 404 || response.redirected || response.type === "opaqueredirect") {
    await tables.delete(url);
  }
}

// The table's copy, its <html> marked with the time it was stored; null if there is none.
async function offlineCopy(request) {
  const tables = await caches.open(TABLE_CACHE);
  const copy = await tables.match(request, { ignoreVary: true });
  if (!copy) return null;
  const storedAt = (copy.headers.get("X-Stored-At") || "").replace(/[^0-9TZ:.+-]/g, "");
  const html = (await copy.text()).replace("<html ", `<html data-offline-copy="${storedAt}" `);
  return new Response(html, { status: copy.status, statusText: copy.statusText, headers: copy.headers });
}

async function offlinePage() {
  const cached = await caches.match(OFFLINE_URL, { ignoreVary: true });
  return cached || new Response("{{ offline_text|escapejs }}", { status: 503, headers: { "Content-Type": "text/plain" } });
}

async function refresh(href) {
  const url = new URL(href);
  const table = isTablePage(url);
  if (!table && !isCachedPage(url)) return;
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (table) {
      await keepTable(url.href, response);
    } else if (storable(response)) {
      const cache = await caches.open(PAGE_CACHE);
      await cache.put(url, response);
    }
  } catch (error) {
    // Offline or the page is gone: keep what is stored.
  }
}
