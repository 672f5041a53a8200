// Offline support: register the service worker (templates/cheatsheets/sw.js), whose URL the
// script tag gives in data-sw. Without service workers the app works as before, online only.
//
// A part of a table page marked data-keep-copy changes the page in place (htmx swaps it after
// each tap): once the taps pause (KEEP_AFTER_MS), or the page is hidden, the page asks the
// worker to keep its copy again, so that the table offline is the table as last tapped, not as
// it was loaded; a burst of taps costs the server one page, not one a tap.
(function () {
  var script = document.currentScript;
  var url = script && script.getAttribute("data-sw");
  if (!url || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      // Blocked (private mode, an old browser, a certificate the phone does not trust, a test
      // harness): stay online only.
    });
  });
  // What works offline is said only once the worker runs here ([data-offline-ready] shown in
  // place of [data-offline-unready]): a page never promises what this browser will not do.
  navigator.serviceWorker.ready.then(function () {
    document.querySelectorAll("[data-offline-ready]").forEach(function (said) { said.hidden = false; });
    document.querySelectorAll("[data-offline-unready]").forEach(function (said) { said.hidden = true; });
  });
  var KEEP_AFTER_MS = 3000;
  var pending = null;
  function keepCopy() {
    if (pending === null) return;
    clearTimeout(pending);
    pending = null;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage("keep-copy");
    });
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    var part = event.target;
    if (!part.matches || !part.matches("[data-keep-copy]")) return;
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(keepCopy, KEEP_AFTER_MS);
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") keepCopy();
  });
  window.addEventListener("pagehide", keepCopy);
})();
