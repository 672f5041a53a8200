// A page kept for every phone (scorekeeper/live/pages.py) cannot say from the server whether
// it came over plain HTTP from another computer: the same bytes go to every phone. The
// phone's browser says (a page that is not a secure context is what the server's plain_http
// means): its notes of what plain HTTP turns off ([data-plain-http], hidden as served) are
// shown there and removed elsewhere. Without JavaScript they stay hidden, and what they speak
// of (keeping the screen on, offline copies, installing) needs JavaScript anyway.
(function () {
  "use strict";
  document.querySelectorAll("[data-plain-http]").forEach(function (note) {
    if (window.isSecureContext) note.remove();
    else note.hidden = false;
  });
})();
