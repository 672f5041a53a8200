// Rule sheets and score pads: a Print button, since phone browsers hide Print in their menus.
// Without JavaScript the button stays hidden and the page says to print from the menu.
(function () {
  "use strict";
  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
})();
