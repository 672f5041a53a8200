// The outbox of a phone that enters scores. An entry that cannot reach the scoresheet (no
// network, no answer in time, the server restarting: 429, 5xx) is kept on the phone, in
// IndexedDB, with the idempotency key its form carries, and the table goes on. The entries are
// sent by themselves, in order, as soon as the server answers again: on the `online` event,
// when the page is shown, on load, on a timer that backs off, and from "Send now". The server
// stores each once, whatever is sent again (its key).
//
// Two kinds of form keep their entries here:
//   - a page form (`form[data-outbox]`: a deal, a correction) is sent by fetch instead of the
//     browser. Stored, the page goes on to `data-outbox-next` (the server's message shows
//     there). Kept, the form says so (`outbox:kept` on it) and its script sets up the next
//     entry. Refused (the server answers with the form again: another phone changed the
//     session, or the entry no longer passes the checks), the phone posts it as the browser
//     would, so that it comes back in its form with the server's message;
//   - a tap (`form[data-keep-place]`, sent by htmx) whose request fails, or that is made while
//     taps wait, joins the queue. Each kept tap after the first carries a key of its own and
//     `after`, the key of the tap before it: the server takes it only if the table moved on by
//     this phone's taps alone. A refused tap, and those after it, are dropped and named.
// Entries wait while a page form holds something typed (sending could bring a refused entry
// into it); its Save sends them all. An entry refused on arrival comes back in its form and
// keeps its place at the head of the queue: saved again, it goes before the entries typed
// after it, and those follow its new number when the form renumbered it (another phone
// entered a deal meanwhile). Every page form hears what waits before it and behind it
// (`outbox:queue`), so that the page says so where the scorer looks.
// While entries wait, leaving the page asks first: over plain HTTP (scripts/run) there is no
// service worker, and a page reloaded while the server is away is the browser's error page.
// Only this account's (or link's) page of the same table sends an entry (`data-scope`), and
// only under the login it was made under: each entry carries the page's owner mark (<html
// data-owner>, scorekeeper/owner.py). Logging out, or a page of another account after a
// session ended another way, deletes them (static/js/forget.js). Without IndexedDB, or
// without JavaScript, forms are sent as they always were.
(function () {
  "use strict";
  var box = document.getElementById("outbox");
  if (!box || !window.indexedDB || !window.fetch || !window.URLSearchParams) return;

  var SCOPE = box.dataset.scope;
  var OWNER = document.documentElement.getAttribute("data-owner") || "";
  var STORE = "entries";
  var TIMEOUT_MS = 10000; // a send with no answer by then is kept, to go again
  var PATIENCE_MS = 3000; // a Save with no answer by then: the table goes on, the send too
  var BACK_OFF_MS = [1000, 2000, 4000, 8000, 15000];
  var TOLD = "scorekeeper-outbox-told"; // sessionStorage: messages to say again (sendNext)
  var PLACE = "scorekeeper-outbox-place"; // sessionStorage: the place of an entry refused
  var said = box.querySelector(".outbox-said");
  var list = box.querySelector(".outbox-entries");
  var sendNow = box.querySelector(".outbox-send");
  var entries = []; // this scope's, as stored, oldest first
  var fresh = null; // the seq of an entry just saved, on its first send: not said to wait yet
  var sending = false;
  var told = false; // the page form went on past the entries since its Save
  var leaving = false; // this script sends the page elsewhere
  var tries = 0;
  var timer = null;
  var refused = []; // labels of taps the server refused, with its words

  // IndexedDB, as promises, on one connection kept open (each open costs a phone a few tens
  // of milliseconds). Deleting the database (a log-out, forget.js) closes it; the next use
  // opens it again.
  var opened = null;
  function database() {
    if (opened) return opened;
    opened = new Promise(function (resolve, reject) {
      var request = window.indexedDB.open("scorekeeper-outbox", 1);
      request.onupgradeneeded = function () {
        var store = request.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
        store.createIndex("scope", "scope");
      };
      request.onsuccess = function () {
        var db = request.result;
        db.onversionchange = function () { db.close(); opened = null; };
        db.onclose = function () { opened = null; };
        resolve(db);
      };
      request.onerror = function () { opened = null; reject(request.error); };
    });
    return opened;
  }
  function transact(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var done = db.transaction(STORE, mode);
        var request = work(done.objectStore(STORE));
        done.oncomplete = function () { resolve(request.result); };
        done.onerror = done.onabort = function () { reject(done.error); };
      });
    });
  }
  function load() {
    return transact("readonly", function (store) { return store.index("scope").getAll(SCOPE); })
      .then(function (found) {
        entries = found.filter(function (entry) { return entry.owner === OWNER; });
        show();
        return entries;
      });
  }
  // Keep an entry; resolves with its seq. An entry refused on arrival and saved again takes
  // its old place (`entry.seq`), and the page entries behind it for the same form follow its
  // number by `shift` when the form renumbered it.
  function keep(entry, shift) {
    return transact("readwrite", function (store) {
      var added = store.add(entry);
      if (shift) {
        store.index("scope").openCursor(SCOPE).onsuccess = function (event) {
          var cursor = event.target.result;
          if (!cursor) return;
          var later = cursor.value;
          var body = new URLSearchParams(later.body);
          var number = parseInt(body.get("number"), 10);
          if (later.seq > entry.seq && later.owner === OWNER && later.kind === "page" && later.url === entry.url && number) {
            body.set("number", String(number + shift.by));
            later.body = body.toString();
            later.label = shift.label.replace("{number}", String(number + shift.by));
            cursor.update(later);
          }
          cursor.continue();
        };
      }
      return added;
    }).then(function (seq) {
      return load().then(function () { return seq; });
    });
  }
  function drop(entry) {
    return transact("readwrite", function (store) { return store.delete(entry.seq); }).then(load);
  }
  // The entries said to wait: all but one on its first send.
  function waiting() {
    return entries.filter(function (entry) { return entry.seq !== fresh; });
  }

  function words(count) {
    var text = count === 1 ? box.dataset.one : box.dataset.many;
    return text.replace("{count}", String(count));
  }
  // "Deal 6: not yet scored", in the page's language ("Donne 6 : pas encore comptée").
  function labelled(label, text) {
    return (box.dataset.labelled || "{label}: {text}")
      .replace("{label}", function () { return label; })
      .replace("{text}", function () { return text; });
  }

  // The note: what waits, each marked as not yet scored; taps refused, named once. Each page
  // form hears what waits before it and behind it.
  var lastShown = null; // what show() last said: unchanged, the page is left alone
  function show() {
    var shown = waiting();
    var signature = JSON.stringify([shown.map(function (entry) { return [entry.seq, entry.label]; }), sending && shown.length > 0, refused, placesOf()]);
    if (signature === lastShown) return;
    lastShown = signature;
    var mark = keepPlace();
    box.hidden = !shown.length && !refused.length;
    said.textContent = shown.length ? (sending ? box.dataset.sending + " " : "") + words(shown.length) : "";
    var items = shown.map(function (entry) {
      var item = document.createElement("li");
      item.textContent = labelled(entry.label, box.dataset.notScored);
      return item;
    });
    refused.forEach(function (text) {
      var item = document.createElement("li");
      item.className = "text-danger-emphasis";
      item.textContent = text;
      items.push(item);
    });
    list.replaceChildren.apply(list, items);
    sendNow.hidden = !shown.length;
    sendNow.disabled = sending;
    mark();
    Array.prototype.forEach.call(pageForms(), function (form) {
      var place = placeOf(form);
      var behind = place === null ? [] : shown.filter(function (entry) { return entry.seq > place; });
      var shift = shiftOf(form);
      form.dispatchEvent(new CustomEvent("outbox:queue", { detail: {
        before: before(form).map(function (entry) { return entry.label; }),
        // Named as they will be sent: after this form's deal, whatever number it has now.
        after: behind.map(function (entry) {
          var number = parseInt(new URLSearchParams(entry.body).get("number"), 10);
          return shift && entry.kind === "page" && entry.url === form.action && number
            ? shift.label.replace("{number}", String(number + shift.by))
            : entry.label;
        }),
      } }));
    });
  }

  // How far the entries behind a form that holds a refused entry move: by as much as the
  // server renumbered it (another phone entered a deal meanwhile); null when they stay.
  function shiftOf(form) {
    var box = form.querySelector("input[name=number]");
    var was = parseInt(form.dataset.outboxWas, 10);
    var by = box && was ? (parseInt(box.value, 10) || 0) - was : 0;
    return by ? { by: by, label: form.dataset.outboxLabel || "" } : null;
  }

  function placesOf() {
    return Array.prototype.map.call(pageForms(), function (form) {
      return [form.dataset.outboxPlace || "", form.querySelector("input[name=number]") ? form.querySelector("input[name=number]").value : ""];
    });
  }

  // The place a page form holds in the queue: an entry refused on arrival came back in it,
  // and goes first once saved again (null for any other form).
  function placeOf(form) {
    var place = form.dataset.outboxPlace;
    return place ? Number(place) : null;
  }
  // The entries said to wait that go before what this form saves.
  function before(form) {
    var place = placeOf(form);
    return waiting().filter(function (entry) { return place === null || entry.seq < place; });
  }

  // The note grows or shrinks above the rows: the element last touched stays where it was on
  // the screen, so that nothing moves under the finger.
  var touched = null;
  document.addEventListener("pointerdown", function (event) { touched = event.target; }, true);
  function keepPlace() {
    var anchor = touched && touched.isConnected && !box.contains(touched) ? touched : null;
    var top = anchor ? anchor.getBoundingClientRect().top : 0;
    return function () {
      if (anchor && anchor.isConnected) {
        var moved = anchor.getBoundingClientRect().top - top;
        if (moved) window.scrollBy({ top: moved, behavior: "instant" });
      }
    };
  }

  function freshKey() {
    var bytes = new Uint8Array(18);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // Whether a form for a new entry (`data-outbox-new`: empty as served) holds anything typed.
  var BOOKKEEPING = ["csrfmiddlewaretoken", "form_key", "number", "revision"];
  function pageForms() { return document.querySelectorAll("form[data-outbox]"); }
  function typedInto() {
    return Array.prototype.some.call(document.querySelectorAll("form[data-outbox-new]"), function (form) {
      var typed = false;
      new FormData(form).forEach(function (value, name) {
        if (value && BOOKKEEPING.indexOf(name) < 0) typed = true;
      });
      return typed;
    });
  }

  // A page form's Save: kept first, then sent with whatever waits before it. When entries
  // wait before it (the server is away), the form goes on at once; else it waits for the
  // answer, PATIENCE_MS at most, then goes on while the send carries on.
  var pressed = null; // the Save button whose entry is being kept or sent
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var submitter = event.submitter;
    if (!form.matches("form[data-outbox]") || !submitter || submitter.name !== form.dataset.outbox) return;
    event.preventDefault();
    var data = new FormData(form);
    data.append(submitter.name, submitter.value);
    var body = new URLSearchParams(data);
    var entry = {
      scope: SCOPE,
      owner: OWNER,
      kind: "page",
      url: form.action,
      next: form.dataset.outboxNext || window.location.pathname,
      body: body.toString(),
      label: (form.dataset.outboxLabel || "").replace("{number}", body.get("number") || ""),
      made: Date.now(),
    };
    var place = placeOf(form);
    var shift = place === null ? null : shiftOf(form);
    if (place !== null) entry.seq = place;
    submitter.disabled = true;
    pressed = submitter;
    told = false;
    keep(entry, shift).then(function (seq) {
      delete form.dataset.outboxPlace;
      delete form.dataset.outboxWas;
      var ahead = waiting().some(function (other) { return other.seq < seq; });
      if (ahead) {
        tell();
      } else {
        fresh = seq;
        window.setTimeout(function () {
          if (fresh === seq && !leaving) { fresh = null; show(); tell(); }
        }, PATIENCE_MS);
      }
      return flush(true);
    }).catch(function () {
      // No IndexedDB after all (a private window, a full disk): sent as the browser would.
      post(entry);
    }).then(function () {
      if (pressed) pressed.disabled = false;
      pressed = null;
    });
  });

  // A tap: queued behind taps that wait, or kept when its request fails.
  function tapForm(element) {
    return element && element.closest ? element.closest("form[data-outbox-tap]") : null;
  }
  function tapEntry(detail) {
    var config = detail.requestConfig || {};
    var body = new URLSearchParams();
    if (config.formData) config.formData.forEach(function (value, name) { body.append(name, value); });
    var last = entries.length ? entries[entries.length - 1] : null;
    if (last) {
      body.set("form_key", freshKey());
      body.set("after", last.key);
    }
    var button = config.triggeringEvent && config.triggeringEvent.submitter;
    var form = tapForm(detail.elt);
    var said = button ? button.getAttribute("aria-label") || button.textContent.trim() : "";
    return {
      scope: SCOPE,
      owner: OWNER,
      kind: "tap",
      url: config.path,
      body: body.toString(),
      key: body.get("form_key") || "",
      label: form && form.dataset.outboxLabel ? labelled(form.dataset.outboxLabel, said) : said,
      made: Date.now(),
    };
  }
  // A tap made while others wait goes behind them (sent now, it would find the table as it was
  // before them, and be refused). A page form is not checked while entries wait: the server
  // would check it against the session as it is without them.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var form = elt.closest ? elt.closest("form[data-outbox]") : null;
    if (form && before(form).length) {
      event.preventDefault();
      return;
    }
    if (!tapForm(elt) || !entries.length) return;
    event.preventDefault();
    keep(tapEntry(event.detail)).then(function () { flush(); });
  });
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (!tapForm(event.detail.elt)) return;
      if (name === "htmx:responseError" && !waits(event.detail.xhr.status)) return;
      keep(tapEntry(event.detail)).then(schedule);
    });
  });

  function waits(status) {
    return status === 0 || status === 408 || status === 429 || status >= 500;
  }

  // Send what waits, oldest first, one phone tab at a time. `mine`: a Save was just tapped
  // (what waits goes even though its form was typed into).
  var again = false; // a Save tapped while a send was under way: its turn comes next
  function flush(mine) {
    if (sending) {
      again = again || Boolean(mine);
      return Promise.resolve();
    }
    if (!mine && typedInto()) return Promise.resolve();
    sending = true;
    show();
    var run = function () { return load().then(function () { return sendNext(mine); }); };
    var done = navigator.locks ? navigator.locks.request("scorekeeper-outbox", run) : run();
    return done.then(function (outcome) {
      sending = false;
      if (outcome === "wait") fresh = null;
      show();
      if (again && !(outcome && (outcome.go || outcome.posted))) {
        again = false;
        return flush(true);
      }
      if (outcome === "wait") {
        if (mine) tell();
        schedule();
      } else {
        tries = 0;
        if (outcome && outcome.go) go(outcome.go);
      }
    }, function () {
      sending = false;
      fresh = null;
      show();
      schedule();
    });
  }

  function go(url) {
    leaving = true;
    window.location.assign(url);
  }

  // The oldest entry waiting, and those after it once it is stored. `version`: the session's
  // version the answer before it left (the count's taps are made on it).
  function sendNext(mine, version) {
    var entry = entries[0];
    if (!entry) return Promise.resolve(null);
    if (version && entry.kind === "tap") {
      // The count's taps are made on the session's version: one kept behind another is made
      // on the version the one before it left (its answer says which).
      var body = new URLSearchParams(entry.body);
      if (body.has("version")) { body.set("version", version); entry.body = body.toString(); }
    }
    return send(entry).then(function (answer) {
      if (answer.wait) return "wait";
      return drop(entry).then(function () {
        if (entry.kind === "tap") return tapAnswered(entry, answer);
        if (answer.stored) {
          // All stored: the page that says so, unless the form went on meanwhile and holds
          // the next deal's typing (the live region then brings the standings).
          if (entries.length) return sendNext(mine);
          return (mine && !told) || !typedInto() ? { go: entry.next } : null;
        }
        // Refused: posted as the browser would, so that it comes back in its form with the
        // server's message. Those after it wait for it. The messages its answer read (those
        // of the entries stored before it) are said again on the page that comes back.
        var told = new DOMParser().parseFromString(answer.text, "text/html").querySelectorAll("#messages .alert");
        try {
          window.sessionStorage.setItem(TOLD, JSON.stringify(Array.prototype.map.call(told, function (alert) {
            return { className: alert.className, text: alert.textContent.trim() };
          })));
        } catch (error) { /* no storage: those messages are not said again */ }
        try {
          window.sessionStorage.setItem(PLACE, JSON.stringify({
            scope: SCOPE, owner: OWNER, url: entry.url, seq: entry.seq,
            number: new URLSearchParams(entry.body).get("number"),
          }));
        } catch (error) { /* no storage: saved again, it goes behind the others */ }
        post(entry);
        return { posted: true };
      });
    });
  }

  function tapAnswered(entry, answer) {
    var part = new DOMParser().parseFromString(answer.text, "text/html");
    var problem = part.querySelector(".tap-said .alert-danger");
    if (problem) {
      // Refused: the taps after it were made on it, and go with it.
      refused = [entry.label].concat(entries.filter(function (e) { return e.kind === "tap"; }).map(function (e) { return e.label; }))
        .map(function (label) { return box.dataset.refused + " " + label + ". " + problem.textContent; });
      var chained = entries.filter(function (e) { return e.kind === "tap"; });
      return chained.reduce(function (all, e) { return all.then(function () { return drop(e); }); }, Promise.resolve())
        .then(function () { swapTable(answer.text); return null; });
    }
    var counted = part.querySelector("form input[name=version]");
    if (entries.length) return sendNext(false, counted ? counted.value : "");
    swapTable(answer.text);
    return null;
  }

  function swapTable(html) {
    var table = document.getElementById("table");
    if (table && window.htmx) window.htmx.swap(table, html, { swapStyle: "outerHTML" });
  }

  // One entry sent: {wait} (no answer that counts: kept), or the server's answer: a page
  // entry is {stored} when the server redirects (it stored it, or says why not on the page it
  // sends the phone to), refused when it answers with the form again.
  function send(entry) {
    var abort = new AbortController();
    var late = window.setTimeout(function () { abort.abort(); }, TIMEOUT_MS);
    var headers = { "Content-Type": "application/x-www-form-urlencoded" };
    if (entry.kind === "tap") {
      headers["HX-Request"] = "true";
      headers["HX-Target"] = "table";
      headers["HX-Current-URL"] = window.location.href;
    }
    return window.fetch(entry.url, {
      method: "POST",
      body: entry.body,
      headers: headers,
      credentials: "same-origin",
      redirect: entry.kind === "page" ? "manual" : "follow",
      signal: abort.signal,
    }).then(function (response) {
      window.clearTimeout(late);
      if (response.type === "opaqueredirect") return { stored: true };
      if (waits(response.status)) return { wait: true };
      return response.text().then(function (text) { return { text: text }; });
    }, function () {
      window.clearTimeout(late);
      return { wait: true };
    });
  }

  // A page entry, posted as the browser posts its form (the page becomes the server's answer).
  function post(entry) {
    leaving = true;
    var form = document.createElement("form");
    form.method = "post";
    form.action = entry.url;
    form.hidden = true;
    new URLSearchParams(entry.body).forEach(function (value, name) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.appendChild(input);
    });
    document.body.appendChild(form);
    form.submit();
  }

  // Tell each page form what waits for it (the bodies of its entries, oldest first): a form
  // for a new entry then goes on past them (its own script knows how).
  function tell() {
    told = true;
    if (pressed) pressed.disabled = false;
    Array.prototype.forEach.call(pageForms(), function (form) {
      var bodies = entries.filter(function (entry) { return entry.kind === "page" && entry.url === form.action; })
        .map(function (entry) { return new URLSearchParams(entry.body); });
      form.dispatchEvent(new CustomEvent("outbox:waiting", { detail: { bodies: bodies, key: freshKey() } }));
    });
  }

  function schedule() {
    if (timer !== null || !entries.length) return;
    var wait = BACK_OFF_MS[Math.min(tries, BACK_OFF_MS.length - 1)];
    tries += 1;
    timer = window.setTimeout(function () { timer = null; flush(); }, wait);
  }
  function now() {
    if (timer !== null) { window.clearTimeout(timer); timer = null; }
    tries = 0;
    flush();
  }

  sendNow.addEventListener("click", function () {
    refused = [];
    now();
  });
  window.addEventListener("online", now);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") now();
  });
  // The server answered the live region, or pushed a version: it is back.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt.id === "live" && event.detail.successful && entries.length) now();
  });

  // The messages of entries stored before one that came back refused (see sendNext).
  function sayAgain() {
    var holder = document.getElementById("messages");
    var told = null;
    try {
      told = JSON.parse(window.sessionStorage.getItem(TOLD) || "null");
      window.sessionStorage.removeItem(TOLD);
    } catch (error) { return; }
    if (!holder || !told) return;
    told.forEach(function (message) {
      var shown = Array.prototype.some.call(holder.querySelectorAll(".alert"), function (alert) {
        return alert.textContent.trim() === message.text;
      });
      if (shown) return;
      var alert = document.createElement("div");
      alert.className = message.className;
      alert.setAttribute("role", "status");
      alert.textContent = message.text;
      holder.appendChild(alert);
    });
  }
  sayAgain();

  // The form of an entry refused on arrival (see sendNext): saved again, it takes the
  // entry's place, before the entries typed after it.
  function placeAgain() {
    var kept = null;
    try {
      kept = JSON.parse(window.sessionStorage.getItem(PLACE) || "null");
      window.sessionStorage.removeItem(PLACE);
    } catch (error) { return; }
    if (!kept || kept.scope !== SCOPE || kept.owner !== OWNER) return;
    Array.prototype.forEach.call(pageForms(), function (form) {
      if (form.action !== kept.url) return;
      form.dataset.outboxPlace = String(kept.seq);
      form.dataset.outboxWas = kept.number || "";
    });
  }
  placeAgain();

  // Entries wait: leaving the page asks first (a log-out deletes them, and asks nothing).
  window.addEventListener("beforeunload", function (event) {
    if (leaving || !entries.length || document.querySelector("form[data-forget][data-forgotten]")) return;
    event.preventDefault();
    event.returnValue = "";
  });

  load().then(function () {
    if (entries.length && !typedInto()) tell();
    if (entries.length) now();
  });
})();
