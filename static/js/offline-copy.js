// A table page shown offline is the service worker's copy (templates/cheatsheets/sw.js), its
// <html> marked data-offline-copy with the time the copy was stored. Say so at the top of the
// screen, with that time on the phone's clock, so that nobody takes it for the live table. When
// the server answers again, reload for the live table, unless something was typed on the page:
// then say so and offer the reload.
//
// The banner sits in the standings strip, which stays in sight at the top of a table page, so
// that it shows however far the page has scrolled; this script runs before the page's own, so
// that static/js/deal-entry.js places the form below the strip with the banner in it.
(function () {
  "use strict";

  var root = document.documentElement;
  var stored = root.getAttribute("data-offline-copy");
  // The words come translated from the page (templates/scorekeeper/live_words.html).
  var words = document.getElementById("offline-copy-words");
  if (!stored || !words || document.getElementById("offline-copy")) return;

  var banner = document.createElement("div");
  banner.id = "offline-copy";
  banner.className = "alert alert-warning py-2 mb-1";
  banner.setAttribute("role", "status");
  var text = document.createElement("p");
  text.className = "mb-0";
  var reload = document.createElement("button");
  reload.type = "button";
  reload.className = "btn btn-warning btn-tap mt-2";
  reload.textContent = words.dataset.reload;
  reload.hidden = true;
  reload.addEventListener("click", function () {
    window.location.reload();
  });
  banner.append(text, reload);

  // The strip is replaced whole when the live region answers: the banner goes back into it.
  function place() {
    var top = document.getElementById("standings-strip") || document.getElementById("main");
    if (top && banner.parentNode !== top) top.insertBefore(banner, top.firstChild);
  }
  place();
  document.addEventListener("htmx:afterSettle", place);

  function offline() {
    text.textContent = words.dataset.offline.replace("{time}", shown(new Date(stored)));
    reload.hidden = true;
  }
  offline();

  // The time in the phone's own way of writing it when the phone speaks the page's language
  // (else the page's language's), with the day when it is not today.
  function shown(when) {
    var language = root.lang || "en";
    var phone = navigator.language || "";
    var locale = phone.split("-")[0] === language.split("-")[0] ? phone : language;
    if (isNaN(when.getTime())) return "?";
    if (when.toDateString() === new Date().toDateString()) {
      return when.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
    }
    return when.toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
  }

  var touched = false;
  function touch() {
    touched = true;
  }
  document.addEventListener("input", touch);
  document.addEventListener("change", touch);

  var reloading = false;
  function back() {
    if (reloading) return;
    if (!touched) {
      reloading = true;
      window.location.reload();
      return;
    }
    text.textContent = words.dataset.online;
    reload.hidden = false;
  }
  window.addEventListener("online", back);
  window.addEventListener("offline", offline);
  // The "online" event may come before the server can be reached (a reload then brings this
  // copy back) or not at all (the server was down, not the network): the live region's next
  // answer from the server says that it is back. While the phone says it has no network at
  // all, an answer is no server's (a request from before the network went, or a copy).
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0 && navigator.onLine !== false) back();
  });
})();
