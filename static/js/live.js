// Live tables: poll with the ETag of what is shown, pause while hidden, keep the screen on.
(function () {
  "use strict";

  // Send the version this page shows; the server answers 304 (nothing to swap) if unchanged.
  document.addEventListener("htmx:configRequest", function (event) {
    var live = event.detail.elt;
    if (live.id === "live" && live.dataset.etag) {
      event.detail.headers["If-None-Match"] = live.dataset.etag;
    }
  });

  // No polling while the page is hidden; catch up at once when it is shown again.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id === "live" && document.visibilityState !== "visible") {
      event.preventDefault();
    }
  });
  document.addEventListener("visibilitychange", function () {
    var live = document.getElementById("live");
    if (document.visibilityState === "visible" && live && window.htmx) {
      window.htmx.trigger(live, "refresh");
    }
  });

  // The server or its database out of reach for a moment: say so above the standings
  // (which stay as they were), keep polling, and take the note away once it answers.
  function trouble(live, show) {
    var note = document.getElementById("live-trouble");
    if (!show) { if (note) note.remove(); return; }
    if (note) return;
    note = document.createElement("p");
    note.id = "live-trouble";
    note.className = "alert alert-warning";
    note.setAttribute("role", "status");
    note.textContent = "The scoresheet cannot be reached just now. Still trying…";
    live.parentNode.insertBefore(note, live);
  }
  document.addEventListener("htmx:sendError", function (event) {
    if (event.detail.elt.id === "live") trouble(event.detail.elt, true);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var live = event.detail.elt;
    if (live.id !== "live") return;
    var status = event.detail.xhr.status;
    if (status >= 500) trouble(live, true);
    else if (status && status < 400) trouble(live, false);
  });

  // A link that was turned off or replaced: keep the last standings, stop polling, say so.
  document.addEventListener("htmx:responseError", function (event) {
    var live = event.detail.elt;
    var status = event.detail.xhr.status;
    if (live.id !== "live" || (status !== 404 && status !== 429)) return;
    var frozen = live.cloneNode(true);
    frozen.removeAttribute("hx-get");
    frozen.removeAttribute("hx-trigger");
    frozen.id = "live-ended";
    var note = document.createElement("div");
    note.className = "alert alert-warning";
    note.setAttribute("role", "status");
    note.textContent = "This link no longer works. Ask the table for the new one.";
    frozen.insertBefore(note, frozen.firstChild);
    live.replaceWith(frozen); // htmx stops polling an element that has left the page
  });

  // Screen Wake Lock, where the browser has it: a toggle that survives hiding the page.
  var button = document.getElementById("wake-lock");
  if (!button || !("wakeLock" in navigator)) return;
  var lock = null;
  var wanted = false;
  button.hidden = false;
  function show() {
    button.setAttribute("aria-pressed", String(wanted));
    button.textContent = wanted ? "The screen stays on (tap to stop)" : "Keep the screen on";
  }
  function acquire() {
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
    }).catch(function () {
      wanted = false;
      show();
    });
  }
  button.addEventListener("click", function () {
    wanted = !wanted;
    if (wanted) acquire();
    else if (lock) { lock.release(); lock = null; }
    show();
  });
  document.addEventListener("visibilitychange", function () {
    if (wanted && document.visibilityState === "visible") acquire();
  });
})();
