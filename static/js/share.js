// The share page's links: "Share…" opens the phone's own share sheet (Web Share API) where the
// browser has one; "Copy link" puts the link on the clipboard, or where that is refused selects
// it to copy by hand; either says what it did. Without JavaScript the buttons stay hidden and
// the link itself is there to select.
(function () {
  "use strict";

  // What it says comes translated from the page: the data attributes of .share-said.
  function say(box, what) {
    var said = box.querySelector(".share-said");
    var text = said.dataset[what];
    said.textContent = "";
    window.setTimeout(function () { said.textContent = text; }, 50); // announced afresh
  }

  function select(link) {
    var range = document.createRange();
    range.selectNodeContents(link);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  document.querySelectorAll("[data-share-for]").forEach(function (box) {
    var link = document.getElementById(box.dataset.shareFor);
    if (!link) return;
    var url = link.href;
    var share = box.querySelector("[data-share]");
    var copy = box.querySelector("[data-copy]");

    if (typeof navigator.share === "function") {
      share.hidden = false;
      share.addEventListener("click", function () {
        navigator.share({ title: box.dataset.shareTitle, url: url }).then(function () {
          say(box, "shared");
        }).catch(function (error) {
          if (error && error.name === "AbortError") return; // closed without sharing
          select(link);
          say(box, "shareFailed");
        });
      });
    }

    copy.addEventListener("click", function () {
      function byHand() {
        select(link);
        say(box, "byHand");
      }
      if (!navigator.clipboard || typeof navigator.clipboard.writeText !== "function") {
        byHand();
        return;
      }
      navigator.clipboard.writeText(url).then(function () {
        say(box, "copied");
      }, byHand);
    });

    box.hidden = false;
  });
})();
