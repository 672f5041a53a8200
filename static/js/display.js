// The table display: a "Full screen" button where the browser has the Fullscreen API. It puts
// the display (its title, board and buttons) on the whole screen; the live region inside goes
// on polling as before. And where some players' rows are below the screen's edge (more players
// than fit), a line at the bottom says how many, until they are scrolled into sight.
(function () {
  "use strict";
  var stage = document.getElementById("display");
  if (!stage) return;

  var more = document.getElementById("display-more");
  function below() {
    var rows = stage.querySelectorAll(".display-board tbody tr");
    var bottom = window.innerHeight - (more.hidden ? 0 : more.offsetHeight);
    var count = 0;
    rows.forEach(function (row) {
      if (row.getBoundingClientRect().bottom > bottom + 0.5) count += 1;
    });
    return count;
  }
  function words(count) {
    more.textContent = more.getAttribute("data-words").replace("{count}", count);
  }
  function say() {
    var count = below();
    if (count && more.hidden) {
      words(count);
      more.hidden = false; // it covers the screen's foot: count again above it
      count = below();
    }
    more.hidden = count === 0;
    if (count) words(count);
  }
  var queued = false;
  function soon() {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () { queued = false; say(); });
  }
  if (more) {
    say();
    window.addEventListener("resize", soon);
    document.addEventListener("scroll", soon, { capture: true, passive: true }); // the stage too
    document.body.addEventListener("htmx:afterSettle", soon); // a new board from the live region
  }

  var button = document.getElementById("full-screen");
  if (!button || !document.fullscreenEnabled || !stage.requestFullscreen) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    if (document.fullscreenElement) {
      document.exitFullscreen();
    } else {
      stage.requestFullscreen().catch(function () { /* refused: stay as we are */ });
    }
  });
  document.addEventListener("fullscreenchange", function () {
    button.setAttribute("aria-pressed", String(document.fullscreenElement === stage));
    soon();
  });
})();
