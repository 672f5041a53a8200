// The table display: a "Full screen" button where the browser has the Fullscreen API. It puts
// the display (its title, board and buttons) on the whole screen; the live region inside goes
// on polling as before.
(function () {
  "use strict";
  var button = document.getElementById("full-screen");
  var stage = document.getElementById("display");
  if (!button || !stage || !document.fullscreenEnabled || !stage.requestFullscreen) return;
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
  });
})();
