// The adding game's tap buttons: the row tapped stays where it was on the screen.
// htmx swaps the whole table for the new one; the browser's scroll anchoring then jumps by the
// table's height (the new table goes in before the old one is taken out). So: note where the
// tapped row (or the undo button's place, or the counter's card grid) was on the screen, and
// put it back there after the swap. Its answer is said in the live region by that row
// (aria-live), or in its form's: its text is put in again once the swap is over, so that
// screen readers announce a region that was already there.
// Without JavaScript the server sends the page back at the row's anchor instead.
//
// On load the page scrolls itself, so that no finger has to: just far enough for the last
// row's buttons to come into sight under the standings strip (which holds the top of the
// screen), stopping where a part of the page begins (the title, the round), so that none
// shows cut in half under the strip; at most until the round meets the strip. Not when the
// page opens at an anchor or already scrolled, nor once the game is over (nothing to tap).
(function () {
  "use strict";
  var place = null; // {id, top} of the row whose button was tapped

  function bringRowsInSight() {
    var table = document.getElementById("table");
    if (!table || !table.querySelector("li.adding-seat button")) return;
    if (window.location.hash || window.scrollY > 0) return;
    var rows = table.querySelectorAll("li.adding-seat");
    var last = rows[rows.length - 1];
    var buttons = last.querySelector(".event-buttons") || last;
    var need = buttons.getBoundingClientRect().bottom - window.innerHeight;
    if (need <= 0) return;
    // Where a part's top comes once scrolled: under the strip, stuck at the top of the screen.
    var strip = document.getElementById("standings-strip");
    var under = strip ? strip.offsetHeight : 0;
    var by = table.getBoundingClientRect().top - under;
    for (var part = table.previousElementSibling; part && part !== strip; part = part.previousElementSibling) {
      var top = part.getBoundingClientRect().top - under;
      if (part.offsetHeight && top >= need && top < by) by = top;
    }
    if (by > 0) window.scrollBy({ top: by, behavior: "instant" });
  }
  bringRowsInSight();

  document.addEventListener("click", function (event) {
    var button = event.target.closest("form[data-keep-place] button[type=submit]");
    var row = button && button.closest("[data-place][id]");
    place = row ? { id: row.id, top: null } : null;
  });

  // The event is the target's (the table): the form that asked is the request's element.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var asked = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!place || !asked || !asked.matches("form[data-keep-place]")) return;
    var row = document.getElementById(place.id);
    place.top = row ? row.getBoundingClientRect().top : null;
  });

  // Fired once for each element swapped in, all after the whole swap: the first one will do.
  document.addEventListener("htmx:afterSwap", function () {
    if (!place || place.top === null) return;
    var row = document.getElementById(place.id);
    var top = place.top;
    place = null;
    if (!row) return;
    window.scrollBy({ top: row.getBoundingClientRect().top - top, behavior: "instant" });
    var form = row.closest("form");
    var region = row.querySelector("[aria-live]") || (form && form.querySelector("[aria-live]"));
    if (region && region.children.length) {
      window.setTimeout(function () {
        region.replaceChildren.apply(region, Array.prototype.map.call(region.children, function (said) {
          return said.cloneNode(true);
        }));
      }, 50);
    }
  });
})();
