// The table display: a "Full screen" button where the browser has the Fullscreen API. It puts
// the display (its title, board and buttons) on the whole screen; the live region inside goes
// on polling as before. And where some players' rows are below the screen's edge (more players
// than fit), a line at the bottom says how many, until they are scrolled into sight.
(function () {
  "use strict";
  var stage = document.getElementById("display");
  if (!stage) return;

  var more = document.getElementById("display-more");
  function below() {
    var rows = stage.querySelectorAll(".display-board tbody tr");
    var bottom = window.innerHeight - (more.hidden ? 0 : more.offsetHeight);
    var count = 0;
    rows.forEach(function (row) {
      if (row.getBoundingClientRect().bottom > bottom + 0.5) count += 1;
    });
    return count;
  }
  function words(count) {
    more.textContent = more.getAttribute("data-words").replace("{count}", count);
  }
  function say() {
    var count = below();
    if (count && more.hidden) {
      words(count);
      more.hidden = false; // it covers the screen's foot: count again above it
      count = below();
    }
    more.hidden = count === 0;
    if (count) words(count);
  }
  var queued = false;
  function soon() {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () { queued = false; say(); });
  }
  if (more) {
    say();
    window.addEventListener("resize", soon);
    document.addEventListener("scroll", soon, { capture: true, passive: true }); // the stage too
    document.body.addEventListener("htmx:afterSettle", soon); // a new board from the live region
  }

  var button = document.getElementById("full-screen");
  if (!button || !document.fullscreenEnabled || !stage.requestFullscreen) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    if (document.fullscreenElement) {
      document.exitFullscreen();
    } else {
      stage.requestFullscreen().catch(function () { /* refused: stay as we are */ });
    }
  });
  document.addEventListener("fullscreenchange", function () {
    button.setAttribute("aria-pressed", String(document.fullscreenElement === stage));
    soon();
  });
})();

// A club night's big screen (templates/nights/display.html): where the standings or the round's
// tables are longer than the screen, each shows as many lines as fit, a page at a time, with
// "Page 1 of 3" under it, and turns to its next page every PAGE_SECONDS. Only where the two
// columns stand side by side (the big screen's layout); narrower, the page scrolls as any does.
// A new leaderboard from the live region (any change inside the screen) is measured again and
// keeps the page it was on. Without JavaScript every line shows.
(function () {
  "use strict";
  var screen = document.querySelector(".night-display");
  if (!screen) return;
  var seconds = Number(screen.getAttribute("data-page-seconds")) || 10;
  var words = screen.getAttribute("data-page-words") || "{page} / {pages}";
  var wide = window.matchMedia("(min-width: 1200px)");
  var shown = { standings: 0, tables: 0 }; // the page each list is on
  var lists = {};

  function say(page, pages) {
    return words.replace("{page}", page).replace("{pages}", pages);
  }
  // How far a column, and what follows it on the page (margins, the page's padding), runs
  // past the screen's foot.
  function overflow(column) {
    var columns = screen.querySelectorAll(".night-board-standings, .night-board-round");
    var lowest = 0;
    columns.forEach(function (one) { lowest = Math.max(lowest, one.getBoundingClientRect().bottom); });
    var after = document.documentElement.scrollHeight - window.scrollY - lowest;
    return column.getBoundingClientRect().bottom + Math.max(after, 0) - window.innerHeight;
  }
  // Pages of consecutive items, each page's items together at most `room` high (one at least).
  function split(heights, room) {
    var pages = [];
    var start = 0;
    var taken = 0;
    heights.forEach(function (height, index) {
      if (index > start && taken + height > room) {
        pages.push([start, index]);
        start = index;
        taken = 0;
      }
      taken += height;
    });
    pages.push([start, heights.length]);
    return pages;
  }
  function show(list) {
    var page = list.pages[shown[list.name] % list.pages.length];
    list.items.forEach(function (item, index) {
      item.hidden = index < page[0] || index >= page[1];
    });
    list.line.textContent = say(shown[list.name] % list.pages.length + 1, list.pages.length);
  }
  // Measure a list with every item shown: one page if its column ends on the screen, else as
  // many as the room left, checked page by page (a page of taller lines gets fewer).
  function measure(name, column, items, after) {
    delete lists[name];
    items.forEach(function (item) { item.hidden = false; });
    var old = column && column.querySelector(".night-page");
    if (old) old.remove();
    if (!column || !wide.matches || items.length < 2 || overflow(column) <= 0.5) return;
    var line = document.createElement("p");
    line.className = "night-page";
    line.textContent = say(items.length, items.length);
    after.insertAdjacentElement("afterend", line);
    var heights = items.map(function (item) { return item.getBoundingClientRect().height; });
    var room = heights.reduce(function (a, b) { return a + b; }, 0) - overflow(column);
    var list = { name: name, items: items, line: line, pages: split(heights, room) };
    var tries = 0;
    for (var turn = 0; turn < list.pages.length; turn += 1) {
      shown[name] = turn;
      show(list);
      var over = overflow(column);
      if (over > 0.5 && room > 0 && tries < 20) { // its lines wrap more: fewer a page, again
        room -= over;
        list.pages = split(heights, room);
        tries += 1;
        turn = -1;
      }
    }
    lists[name] = list;
  }
  var watcher = new MutationObserver(layout);
  function layout() {
    watcher.disconnect();
    var kept = { standings: shown.standings, tables: shown.tables };
    var standings = screen.querySelector(".night-standings");
    var tables = screen.querySelector(".night-tables");
    measure("standings", screen.querySelector(".night-board-standings"),
      standings ? Array.prototype.slice.call(standings.tBodies[0].rows) : [], standings);
    measure("tables", screen.querySelector(".night-board-round"),
      tables ? Array.prototype.slice.call(tables.children) : [], tables);
    Object.keys(lists).forEach(function (name) {
      shown[name] = kept[name] % lists[name].pages.length;
      show(lists[name]);
    });
    watcher.observe(screen, { childList: true, subtree: true, characterData: true });
  }
  function turn() {
    watcher.disconnect();
    Object.keys(lists).forEach(function (name) {
      shown[name] = (shown[name] + 1) % lists[name].pages.length;
      show(lists[name]);
    });
    watcher.observe(screen, { childList: true, subtree: true, characterData: true });
  }
  layout();
  window.setInterval(turn, seconds * 1000);
  var queued = false;
  window.addEventListener("resize", function () {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () { queued = false; layout(); });
  });
})();
