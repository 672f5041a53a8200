// Offline support: register the service worker (templates/cheatsheets/sw.js), whose URL the
// script tag gives in data-sw. Without service workers the app works as before, online only.
(function () {
  var script = document.currentScript;
  var url = script && script.getAttribute("data-sw");
  if (!url || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      // Blocked (private mode, an old browser, a test harness): stay online only.
    });
  });
})();
