{% load static %}// The service worker of Ninety-Nine Scorekeeper, rendered by scorekeeper.views.rules.service_worker.
//
// - Static files (/static/…): cache first. Those the rule sheets and the table pages need are
//   stored when the worker is installed; in production their names carry a hash, so a new file
//   is a new URL.
// - Rule sheets, score pads, the rules list, the offline page and the manifest: network first,
//   stored as they are opened, served from the cache when there is no network. Anyone's go in
//   PAGE_CACHE; an account's own (sent Cache-Control: private: a saved ruleset's sheet and
//   pad) in PRIVATE_CACHE.
// - Table pages (the owner's table, the scorer and the watch links), opened: network first. The
//   last copy of each is kept in TABLE_CACHE; offline, static/js/offline-copy.js says that it
//   is not live. A page the server no longer shows here (404, or sent elsewhere) loses its
//   copy. A table page that changes in place (the adding game's taps) asks for its copy to be
//   kept again once its changes pause ("keep-copy", from static/js/sw-register.js).
// - Any other page: the network, and the offline page when there is none.
// Every page served from a cache has <html data-offline-copy="the time it was stored">.
//
// Whose a copy is. Each page comes with the owner mark of the phone's login (X-Owner-Mark,
// scorekeeper/owner.py: an account's, or nobody's) and, for an account, the seconds its
// session has left (X-Owner-Ends); its copy keeps both. The mark of the last page that came is
// the phone's. A page of another mark (another account logged in, or nobody: a log-out, a
// session expired or ended by a password changed elsewhere) deletes every copy of an account
// other than the new one, and anyone's pages come again as the phone now sees them. Offline,
// a copy is shown only if it is the phone's or nobody's, and only until its session's end;
// the others are deleted. Copies made with nobody logged in (a link's table, a sheet) hold
// nothing of any account: they stay.
//
// Only GET requests of this site are answered; POSTs, htmx requests and the session's other
// pages are never stored, and neither is a response that says no-store.
"use strict";

{% autoescape off %}{# URLs from static() and reverse() are percent-encoded: no quote, no backslash. #}
const VERSION = "{{ version }}";
const STATIC_CACHE = "scorekeeper-static-" + VERSION;
// Not versioned: a copy outlives an update of the worker. Logging out deletes the account's
// own (static/js/forget.js names those two caches too).
const PAGE_CACHE = "scorekeeper-pages"; // anyone's pages
const PRIVATE_CACHE = "scorekeeper-private"; // an account's own pages that are not tables
const TABLE_CACHE = "scorekeeper-tables";
const KEPT = [PAGE_CACHE, PRIVATE_CACHE, TABLE_CACHE];
// The owner mark of the last page that came from the server: whose the phone is now.
const OWNER_CACHE = "scorekeeper-owner";
const OWNER_KEY = "{{ owner_key }}";
const ANONYMOUS = "{{ anonymous_mark }}";
const OFFLINE_URL = "{{ offline_url }}";
// Said on the worker's own fetches of a page to keep (not the phone's navigations): the server
// then leaves the page's one-off messages for the page the phone shows next.
const KEPT_COPY = { "{{ kept_copy_header }}": "1" };
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
      ...PRECACHED_PAGES.map((url) => precache(url, event)),
    ]).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await self.clients.claim();
      // Stored pages point at the static files of the version that stored them: fetch them
      // again, and store the page that registered this worker (it loaded before it ran).
      const stored = [];
      for (const name of KEPT) {
        stored.push(...(await (await caches.open(name)).keys()).map((request) => request.url));
      }
      const open = (await self.clients.matchAll({ type: "window", includeUncontrolled: true })).map(
        (client) => client.url
      );
      await Promise.all([...new Set([...stored, ...open])].map((href) => refresh(href, event)));
      // A copy that could not be fetched again still needs the static files of its version:
      // those stay until the copy is replaced or deleted.
      const kept = new Set();
      for (const name of KEPT) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          const copy = await cache.match(request);
          if (copy) kept.add("scorekeeper-static-" + copy.headers.get("X-Stored-Version"));
        }
      }
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
    event.respondWith(networkFirst(event, "page"));
  } else if (request.mode === "navigate" && isTablePage(url) && !request.headers.has("HX-Request")) {
    event.respondWith(networkFirst(event, "table"));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(event, null));
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

// A page from the network, its copy kept when it is a `kind` kept ("page", "table"; null: not
// kept). With no network: its copy, if the phone may show it, else the offline page. The page
// goes to the phone as it arrives; its copy is kept meanwhile (reading the whole page first
// would hold back the page that says a deal was saved).
async function networkFirst(event, kind) {
  const request = event.request;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    await forget(await phoneOwner());
    const copy = kind && (await copyOf(request, kind === "table" ? [TABLE_CACHE] : [PAGE_CACHE, PRIVATE_CACHE]));
    return copy || offlinePage();
  }
  await arrived(response, event);
  if (kind) event.waitUntil(keep(request.url, response.clone(), kind === "table"));
  return response;
}

async function precache(url, event) {
  const response = await fetch(url, { credentials: "same-origin", headers: KEPT_COPY });
  if (!response.ok) throw new TypeError(`${url}: ${response.status}`);
  await arrived(response, event);
  await keep(new URL(url, self.location.href).href, response, false);
}

async function refresh(href, event) {
  const url = new URL(href);
  const table = isTablePage(url);
  if (!table && !isCachedPage(url)) return;
  try {
    const response = await fetch(url, { credentials: "same-origin", headers: KEPT_COPY });
    await arrived(response, event);
    await keep(url.href, response, table);
  } catch (error) {
    // Offline or the page is gone: keep what is stored.
  }
}

// Keep the page's answer as its copy, stamped with the time, the worker's version, whose it is
// and when that account's session ends; or drop the copy when the answer says this phone no
// longer sees the page there: gone (404), or sent elsewhere (logged out, asked for a name).
// A response without a mark is nobody's (the manifest, which names no one).
async function keep(url, response, table) {
  const names = table ? [TABLE_CACHE] : [PAGE_CACHE, PRIVATE_CACHE];
  if (storable(response)) {
    const own = /\bprivate\b/.test(response.headers.get("Cache-Control") || "");
    const into = table ? TABLE_CACHE : own ? PRIVATE_CACHE : PAGE_CACHE;
    const headers = new Headers(response.headers);
    headers.set("X-Stored-At", new Date().toISOString());
    headers.set("X-Stored-Version", VERSION);
    headers.set("X-Stored-Owner", response.headers.get("X-Owner-Mark") || ANONYMOUS);
    const left = response.headers.get("X-Owner-Ends");
    if (left !== null) headers.set("X-Stored-Until", String(Date.now() + (Number(left) || 0) * 1000));
    // The body is stored decoded, and shown changed: its length and encoding no longer hold.
    headers.delete("Content-Encoding");
    headers.delete("Content-Length");
    const body = await response.clone().arrayBuffer();
    const copy = new Response(body, { status: response.status, statusText: response.statusText, headers });
    for (const name of names) {
      const cache = await caches.open(name);
      await (name === into ? cache.put(url, copy) : cache.delete(url, { ignoreVary: true }));
    }
  } else if (response.status === 404 || response.redirected || response.type === "opaqueredirect") {
    for (const name of names) await (await caches.open(name)).delete(url, { ignoreVary: true });
  }
}

// A page came from the server: its mark is now the phone's. When it is not the last one, the
// copies of other accounts go, and anyone's pages (those deleted, and those stored when the
// worker was installed) come again as the phone now sees them.
async function arrived(response, event) {
  const mark = response.headers.get("X-Owner-Mark");
  if (!mark) return;
  const owners = await caches.open(OWNER_CACHE);
  const last = await owners.match(OWNER_KEY);
  if (last && (await last.text()) === mark) return;
  await owners.put(OWNER_KEY, new Response(mark));
  const gone = await forget(mark);
  const again = new Set([...gone, ...PRECACHED_PAGES.map((url) => new URL(url, self.location.href).href)]);
  event.waitUntil(Promise.all([...again].map((href) => refresh(href, event))));
}

// The mark of the last page that came from the server; null before the first.
async function phoneOwner() {
  const last = await (await caches.open(OWNER_CACHE)).match(OWNER_KEY);
  return last ? last.text() : null;
}

// Delete every copy the phone may not show now that it is `owner`'s: another account's, or
// one whose session has ended. The addresses of anyone's pages deleted.
async function forget(owner) {
  const gone = [];
  const now = Date.now();
  for (const name of KEPT) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const copy = await cache.match(request);
      if (!copy) continue;
      const mark = copy.headers.get("X-Stored-Owner");
      const until = copy.headers.get("X-Stored-Until");
      const ended = until !== null && !(now < Number(until));
      const others = mark === null || (mark !== ANONYMOUS && mark !== owner);
      if (ended || others) {
        await cache.delete(request);
        if (name === PAGE_CACHE) gone.push(request.url);
      }
    }
  }
  return gone;
}

// The copy of `request` in one of the caches `names`, a page marked as a copy; null if none.
async function copyOf(request, names) {
  for (const name of names) {
    const copy = await (await caches.open(name)).match(request, { ignoreVary: true });
    if (copy) return shownCopy(copy);
  }
  return null;
}

// A page's copy with its <html> marked with the time it was stored.
async function shownCopy(copy) {
  if (!(copy.headers.get("Content-Type") || "").startsWith("text/html")) return copy;
  const storedAt = (copy.headers.get("X-Stored-At") || "").replace(/[^0-9TZ:.+-]/g, "");
  const html = (await copy.text()).replace("<html ", `<html data-offline-copy="${storedAt}" `);
  return new Response(html, { status: copy.status, statusText: copy.statusText, headers: copy.headers });
}

async function offlinePage() {
  const copy = await copyOf(OFFLINE_URL, [PAGE_CACHE]);
  return copy || new Response("{{ offline_text|escapejs }}", { status: 503, headers: { "Content-Type": "text/plain" } });
}
