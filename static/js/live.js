// Live tables: poll with the ETag of what is shown, pause while hidden, keep the screen on.
(function () {
  "use strict";

  // The words shown here come translated from the page (templates/scorekeeper/live_words.html).
  function words(name) {
    var holder = document.getElementById("live-words");
    return holder ? holder.dataset[name] : "";
  }

  // Send the version this page shows; the server answers 304 (nothing to swap) if unchanged.
  document.addEventListener("htmx:configRequest", function (event) {
    var live = event.detail.elt;
    if (live.id === "live" && live.dataset.etag) {
      event.detail.headers["If-None-Match"] = live.dataset.etag;
    }
  });

  // Push (Server-Sent Events, where the server streams them): the link's event stream says the
  // session's version at once and at every change, and the live region then asks for itself
  // when the version differs from the one it shows. While the stream is open the page makes no
  // timed polls: the stream's own heartbeat (a comment every 15 s, live/streams.py KEEP_ALIVE)
  // keeps it open through proxies, and a stream that drops is the browser's to open again
  // (after the stream's `retry`), the page polling every few seconds meanwhile. Each time the
  // stream (re)opens, its first event says the version now: the page catches up with one
  // refresh if it shows an older one. A stream refused or not served here (a 204, a 429, a
  // 503) is closed for good, and the page polls as it always did.
  var source = null;
  function pushing() {
    return source !== null && source.readyState === 1;
  }
  function listen() {
    var live = document.getElementById("live");
    if (source || !live || !live.dataset.events || !("EventSource" in window)) return;
    source = new EventSource(live.dataset.events);
    source.addEventListener("version", function (event) {
      var now = document.getElementById("live");
      document.documentElement.dataset.push = "open";
      document.documentElement.dataset.pushed = event.data; // the last version heard
      if (now) trouble(now, false); // the stream answers: the server is back
      // The region's ETag is "v12", or "v12-fr" in French: its version is the number.
      if (now && window.htmx && now.dataset.etag.replace(/^"v(\d+).*$/, "$1") !== event.data) {
        window.htmx.trigger(now, "refresh");
      }
    });
    source.addEventListener("gone", function () {
      source.close();
      source = null;
      document.documentElement.dataset.push = "";
      var now = document.getElementById("live");
      if (now && window.htmx) window.htmx.trigger(now, "refresh"); // shows "no longer works"
    });
    source.addEventListener("error", function () {
      // Lost (the browser opens it again: readyState 0) or refused (closed for good: 2).
      document.documentElement.dataset.push = "";
      if (source && source.readyState === 2) source = null;
    });
  }
  listen();

  // A poll still out when a tap's answer replaced the region (the adding game's table holds
  // it) comes back for an element that has left the page: drop that answer. Its standings
  // strip, sent out of band, would find no target from there, and the region that took its
  // place is newer and polls on. Events on a detached element never reach the document, so
  // the region gets its own listener (once: the same function is not added twice).
  function dropIfGone(event) {
    if (!event.target.isConnected) event.detail.shouldSwap = false;
  }

  // No polling while the page is hidden; catch up at once when it is shown again.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id !== "live") return;
    event.detail.elt.addEventListener("htmx:beforeSwap", dropIfGone);
    if (document.visibilityState !== "visible") {
      event.preventDefault();
      return;
    }
    // A timed poll (htmx's "every"), not a refresh the stream or the page asked for.
    var timed = !event.detail.requestConfig || !event.detail.requestConfig.triggeringEvent;
    if (timed && pushing()) event.preventDefault();
  });
  document.addEventListener("visibilitychange", function () {
    var live = document.getElementById("live");
    if (document.visibilityState === "visible" && live && window.htmx) {
      window.htmx.trigger(live, "refresh");
    }
  });

  // A busy server sheds the live region's polls: 503 with Retry-After (scorekeeper/shedding.py).
  // Nothing is wrong to say: the standings stay as they are, the region asks nothing until the
  // time the server gave (and up to half as much again, at random, so that the phones shed
  // together come back spread out), then asks at once and polls as before.
  var shedUntil = 0;
  var resume = null;
  function shedSeconds(xhr) {
    var seconds = xhr && xhr.status === 503 ? parseInt(xhr.getResponseHeader("Retry-After"), 10) : 0;
    return seconds > 0 ? seconds : 0;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id === "live" && Date.now() < shedUntil) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var seconds = shedSeconds(event.detail.xhr);
    if (event.detail.elt.id !== "live" || !seconds) return;
    var wait = seconds * 1000 * (1 + Math.random() / 2);
    shedUntil = Date.now() + wait;
    clearTimeout(resume);
    resume = setTimeout(function () {
      shedUntil = 0;
      var live = document.getElementById("live");
      if (live && window.htmx) window.htmx.trigger(live, "refresh");
    }, wait);
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
    note.textContent = words("trouble");
    live.parentNode.insertBefore(note, live);
  }
  // No answer at all: refused (the server stopped), or none in time (hx-request's timeout: a
  // laptop asleep or out of the Wi-Fi). The next poll tries again.
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (event.detail.elt.id === "live") trouble(event.detail.elt, true);
    });
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var live = event.detail.elt;
    if (live.id !== "live") return;
    var status = event.detail.xhr.status;
    if (status >= 500 && !shedSeconds(event.detail.xhr)) trouble(live, true);
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
    note.textContent = words("gone");
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
    button.textContent = words(wanted ? "screenOn" : "screenOff");
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
