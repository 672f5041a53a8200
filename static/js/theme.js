// Colour mode, applied on the phone: the choice is the phone's "theme" cookie (set by the
// colour switch's form, views/site.py), else the one the page was rendered with (<html
// data-theme-choice>; "auto" on a page kept for every phone, scorekeeper/live/pages.py, which
// cannot know it). "auto" follows the system. Run in <head>, before the page is drawn, so it
// never shows in the wrong colours first. The stylesheet shows the colour switch's button for
// the choice set here.
(function () {
  var root = document.documentElement;
  var found = /(?:^|;\s*)theme=(auto|light|dark)(?:;|$)/.exec(document.cookie);
  var choice = found ? found[1] : root.getAttribute("data-theme-choice") || "auto";
  root.setAttribute("data-theme-choice", choice);
  if (choice !== "auto") {
    root.setAttribute("data-bs-theme", choice);
    return;
  }
  if (!window.matchMedia) return;
  var query = window.matchMedia("(prefers-color-scheme: dark)");
  function apply() { root.setAttribute("data-bs-theme", query.matches ? "dark" : "light"); }
  apply();
  query.addEventListener("change", apply);
})();
