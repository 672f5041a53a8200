// What this phone keeps for an account goes with the account's session, so that nothing of
// theirs reaches the next person to use the phone: the entries waiting to be sent
// (static/js/outbox.js) here, the copies of pages in the service worker
// (templates/cheatsheets/sw.js), which deletes those of other accounts as the pages come.
//   - Logging out deletes the outbox and the copies kept for the account at once.
//   - A session can end another way: its cookie expires, or a password changed on another
//     phone ends it. Each entry carries the owner mark of the page it was made on (<html
//     data-owner>, scorekeeper/owner.py), and a page of another mark deletes it. A page can
//     be older than the phone's login (a copy, the browser's cache), so when an entry of
//     another account waits, the server is asked whose the phone is now (the data-ask page
//     answers with its mark), and only its answer deletes anything. Entries made with
//     nobody logged in are a link's, not an account's: they stay.
(function () {
  "use strict";
  var script = document.currentScript;
  var root = document.documentElement;

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-forget]") || form.dataset.forgotten) return;
    event.preventDefault();
    form.dataset.forgotten = "yes";
    var gone = [];
    if (window.indexedDB) {
      gone.push(new Promise(function (resolve) {
        var request = window.indexedDB.deleteDatabase("scorekeeper-outbox");
        request.onsuccess = request.onerror = request.onblocked = resolve;
      }));
    }
    if (window.caches) {
      ["scorekeeper-tables", "scorekeeper-private"].forEach(function (name) {
        gone.push(window.caches.delete(name).catch(function () {}));
      });
    }
    Promise.all(gone).then(function () { form.submit(); });
  });

  var mark = root.getAttribute("data-owner");
  var ask = script && script.getAttribute("data-ask");
  var anonymous = script && script.getAttribute("data-anonymous");
  if (!mark || !ask || !anonymous || root.hasAttribute("data-offline-copy")) return;
  if (!window.indexedDB || !window.fetch) return;

  // Whether the phone has an outbox (where the browser can say without opening it).
  function hasOutbox() {
    if (!window.indexedDB.databases) return Promise.resolve(true);
    return window.indexedDB.databases().then(function (all) {
      return all.some(function (db) { return db.name === "scorekeeper-outbox"; });
    }, function () { return true; });
  }

  // The entries of owners other than `owner` (and the anonymous), counted; deleted too with
  // `remove`. An outbox the phone never had is not made.
  function others(owner, remove) {
    return new Promise(function (resolve) {
      var request = window.indexedDB.open("scorekeeper-outbox");
      request.onupgradeneeded = function () { request.transaction.abort(); };
      request.onerror = function () { resolve(0); };
      request.onsuccess = function () {
        var db = request.result;
        if (!db.objectStoreNames.contains("entries")) {
          db.close();
          resolve(0);
          return;
        }
        var found = 0;
        var done = db.transaction("entries", remove ? "readwrite" : "readonly");
        done.objectStore("entries").openCursor().onsuccess = function (event) {
          var cursor = event.target.result;
          if (!cursor) return;
          var entry = cursor.value;
          if (entry.owner !== owner && entry.owner !== anonymous) {
            found += 1;
            if (remove) cursor.delete();
          }
          cursor.continue();
        };
        done.oncomplete = function () { db.close(); resolve(found); };
        done.onerror = done.onabort = function () { db.close(); resolve(0); };
      };
    });
  }

  hasOutbox().then(function (any) {
    return any ? others(mark, false) : 0;
  }).then(function (found) {
    if (!found) return null;
    return window.fetch(ask, { method: "HEAD", credentials: "same-origin", cache: "no-store" }).then(function (response) {
      var now = response.ok && response.headers.get("X-Owner-Mark");
      return now ? others(now, true) : null;
    });
  }).catch(function () {
    // No answer: whose the phone is now is not known, and nothing is deleted.
  });
})();
