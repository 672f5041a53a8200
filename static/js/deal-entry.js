// Deal entry: apply stepper and bid-card taps at once, without a round trip.
// Without JavaScript the same buttons submit the form and the server applies them.
(function () {
  "use strict";
  // Each bid-card suit's symbol and value, as the page's buttons carry them (from the rules).
  var SUITS = {};
  document.querySelectorAll("button[data-card][data-symbol]").forEach(function (button) {
    SUITS[button.dataset.card] = [button.dataset.symbol, parseInt(button.dataset.value, 10)];
  });

  function changed(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function showCards(input) {
    var shown = document.getElementById(input.id + "-shown");
    if (!shown) return;
    var letters = input.value.split("").filter(function (c) { return SUITS[c]; });
    if (!letters.length) { shown.textContent = "–"; return; }
    var sum = letters.reduce(function (total, c) { return total + SUITS[c][1]; }, 0);
    shown.textContent = letters.map(function (c) { return SUITS[c][0]; }).join("") + "=" + sum;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step], button[data-card]");
    if (!button) return;
    var input = document.getElementById(button.dataset.target);
    if (!input) return;
    event.preventDefault();
    if (button.dataset.step) {
      var value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
      var max = input.max === "" ? Infinity : parseInt(input.max, 10);
      input.value = String(Math.min(Math.max(value, 0), max));
    } else if (button.dataset.card === "clear") {
      input.value = "";
      showCards(input);
    } else if (input.value.length < 3) {
      input.value += button.dataset.card;
      showCards(input);
    }
    changed(input);
  });

  // Taps are handled here from now on (before this, a tap is a plain form post).
  document.documentElement.setAttribute("data-deal-entry", "ready");
})();
