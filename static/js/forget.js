// Logging out forgets what this phone keeps for the account: entries waiting to be sent
// (static/js/outbox.js) and the copies of table pages kept for offline (the service worker),
// so that nothing of theirs reaches the next person to use the phone.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-forget]") || form.dataset.forgotten) return;
    event.preventDefault();
    form.dataset.forgotten = "yes";
    var gone = [];
    if (window.indexedDB) {
      gone.push(new Promise(function (resolve) {
        var request = window.indexedDB.deleteDatabase("scorekeeper-outbox");
        request.onsuccess = request.onerror = request.onblocked = resolve;
      }));
    }
    if (window.caches) gone.push(window.caches.delete("scorekeeper-tables").catch(function () {}));
    Promise.all(gone).then(function () { form.submit(); });
  });
})();
