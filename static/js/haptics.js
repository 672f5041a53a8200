// Tap feedback: a short buzz when a table-side button marked `data-haptic` is tapped, where the
// phone can vibrate (navigator.vibrate) and its user has not asked for reduced motion.
(function () {
  "use strict";
  var BUZZ_MS = 12;
  if (typeof navigator.vibrate !== "function") return;
  var calm = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  document.addEventListener("click", function (event) {
    if (calm && calm.matches) return;
    var tapped = event.target.closest && event.target.closest("[data-haptic]");
    if (!tapped || tapped.disabled) return;
    try {
      navigator.vibrate(BUZZ_MS);
    } catch (ignored) {
      // A browser that refuses (e.g. no user activation yet) just stays silent.
    }
  });
})();
