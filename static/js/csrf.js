// htmx's requests carry the CSRF token from its cookie (Django's documented way for scripts:
// "Setting the token on the AJAX request"), so that no page holds a token of its own and a
// page kept for every phone (scorekeeper/live/pages.py) is the same for all. The cookie is
// Django's (CSRF_COOKIE_NAME's default, not HttpOnly), set by every page with a form that
// posts ({% csrf_token %}); a request that changes nothing sends none.
(function () {
  "use strict";
  var SAFE = /^(GET|HEAD|OPTIONS|TRACE)$/i;
  function token() {
    var found = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    return found ? decodeURIComponent(found[1]) : "";
  }
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (SAFE.test(detail.verb || "")) return;
    var value = token();
    if (value) detail.headers["X-CSRFToken"] = value;
  });
})();
