// Colour mode: the server renders the chosen mode; "auto" follows the system here.
(function () {
  var root = document.documentElement;
  if (root.getAttribute("data-theme-choice") !== "auto" || !window.matchMedia) return;
  var query = window.matchMedia("(prefers-color-scheme: dark)");
  function apply() { root.setAttribute("data-bs-theme", query.matches ? "dark" : "light"); }
  apply();
  query.addEventListener("change", apply);
})();
