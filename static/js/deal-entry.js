// Deal entry with a keypad: each hand's bid and tricks filled in turn, in as few taps as paper.
//
// The boxes are the form's own number inputs (without JavaScript they are typed into, and each
// hand has bid-card buttons that post the form). Here the keypad at the bottom fills the box
// under the cursor and moves on:
//   - a suit key adds a bid-card to the hand's bid (three make the bid), then goes to its tricks;
//   - a number key fills the box (two digits where the box can take them), then goes on to the
//     next box: bid → tricks → the next hand's bid;
//   - ✓ / ✗ mark the hand made or failed with its bid kept hidden;
//   - ⌫ takes back the last card or number; → moves on.
// When every hand's tricks but one are in, that one is filled with the tricks left, marked as
// worked out, until it is typed over. Every change fires "change", so htmx rechecks the deal.
//
// The page scrolls itself, so that no finger has to: the standings strip holds the top of the
// screen and the entry bar (status, keypad, Save) the bottom, and the hands are kept between
// them. On load the form comes up just far enough for its last hand to clear the bar (its top
// never past the strip); when the cursor moves, a ⋯ panel opens or the bar changes height, the
// row concerned comes clear of both.
(function () {
  "use strict";
  var form = document.getElementById("deal-form");
  var keypad = document.getElementById("keypad");
  if (!form || !keypad) return;

  var TRICKS = parseInt(form.dataset.tricks, 10);
  var MOST_BID = parseInt(form.dataset.mostBid, 10);
  var target = document.getElementById("keypad-target");
  var SUITS = {};
  keypad.querySelectorAll(".key-suit").forEach(function (key) {
    SUITS[key.dataset.key] = { symbol: key.dataset.symbol, value: parseInt(key.dataset.value, 10) };
  });

  var hands = Array.prototype.map.call(form.querySelectorAll("fieldset.hand-card"), function (card) {
    return {
      card: card,
      label: card.querySelector(".hand-label").textContent,
      bid: card.querySelector("input[data-slot=bid]"),
      tricks: card.querySelector("input[data-slot=tricks]"),
      cards: card.querySelector("input[type=hidden][name$='-cards']"),
      shown: card.querySelector("output.cards-shown"),
      made: card.querySelector("input[type=radio][name$='-made'][value=made]"),
      failed: card.querySelector("input[type=radio][name$='-made'][value=failed]"),
      byBid: card.querySelector("input[type=radio][name$='-made'][value='']"),
      typed: card.querySelector("input[data-slot=tricks]").value !== "", // tricks given, not worked out
    };
  });
  if (!hands.length) return;

  var slots = [];
  hands.forEach(function (hand, index) {
    slots.push({ hand: index, name: "bid", input: hand.bid });
    slots.push({ hand: index, name: "tricks", input: hand.tricks });
  });
  var cursor = 0;
  var pending = false; // the box under the cursor holds one digit and may take a second

  var root = document.documentElement;
  var bar = form.querySelector(".entry-bar");
  var strip = document.getElementById("standings-strip");

  // The screen between the strip and the bar, as scroll padding: scrollIntoView keeps clear of
  // both. Returns the band's top and bottom on the screen.
  function band() {
    var top = strip ? strip.offsetHeight : 0;
    var held = bar.offsetHeight;
    // Written only when changed: each write would make the next read lay the page out again.
    if (root.style.scrollPaddingTop !== top + "px") root.style.scrollPaddingTop = top + "px";
    if (root.style.scrollPaddingBottom !== held + "px") root.style.scrollPaddingBottom = held + "px";
    return { top: top, bottom: window.innerHeight - held };
  }

  function inSight(element) {
    band();
    element.scrollIntoView({ block: "nearest" });
  }

  // On load: enough scrolling to bring the last hand above the bar, stopping where a part of
  // the page begins (the next deal's banner, a heading), so that none shows cut in half under
  // the strip; at most until the form's top (the trump, a message) meets the strip.
  function place() {
    var screen = band();
    var need = hands[hands.length - 1].card.getBoundingClientRect().bottom - screen.bottom;
    if (need <= 0) return;
    var by = form.getBoundingClientRect().top - screen.top;
    for (var part = form.previousElementSibling; part; part = part.previousElementSibling) {
      var top = part.getBoundingClientRect().top - screen.top;
      if (top >= need && top < by) by = top;
    }
    if (by > 0) window.scrollBy({ top: by, behavior: "instant" });
  }

  // Once a ⋯ panel folds: the form's top back under the strip, if the whole form fits.
  function refit() {
    var screen = band();
    var top = form.getBoundingClientRect().top;
    var bottom = hands[hands.length - 1].card.getBoundingClientRect().bottom;
    if (top < screen.top && bottom - top <= screen.bottom - screen.top) {
      window.scrollBy({ top: top - screen.top });
    }
  }

  function changed(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function show() {
    slots.forEach(function (slot, index) {
      slot.input.closest(".slot").classList.toggle("slot-active", index === cursor);
    });
    var slot = slots[cursor];
    // The words come translated from the template: "{hand}: bid" and "{hand}: tricks".
    var text = slot.name === "bid" ? keypad.dataset.bidText : keypad.dataset.tricksText;
    target.textContent = text.replace("{hand}", hands[slot.hand].label);
    var dummy = !hands[slot.hand].made;
    keypad.querySelectorAll(".key-made").forEach(function (key) { key.disabled = dummy; });
    // A box tapped keeps the focus (its ring and caret) while the keys fill it: the focus
    // moves on with the cursor, so that only one box ever looks like the cursor.
    var focused = document.activeElement;
    if (focused !== slot.input && slots.some(function (s) { return s.input === focused; })) {
      slot.input.focus({ preventScroll: true });
    }
    inSight(hands[slot.hand].card);
  }

  function moveTo(index) {
    cursor = Math.max(0, Math.min(slots.length - 1, index));
    pending = false;
    show();
  }

  // What a hand's ⋯ holds, in words on its row: "Failed ✗ · Declare" (nothing by default).
  function chosen(card) {
    var words = [];
    card.querySelectorAll(".more-panel input[type=radio]:checked").forEach(function (radio) {
      if (radio.value) words.push(card.querySelector("label[for='" + radio.id + "']").textContent);
    });
    card.querySelector(".hand-chosen").textContent = words.join(" · ");
  }

  function cardsShown(hand) {
    var letters = hand.cards.value.split("").filter(function (c) { return SUITS[c]; });
    if (!letters.length) { hand.shown.textContent = ""; return null; }
    var sum = letters.reduce(function (total, c) { return total + SUITS[c].value; }, 0);
    hand.shown.textContent = letters.map(function (c) { return SUITS[c].symbol; }).join("") + "=" + sum;
    return sum;
  }

  // The tricks left go to the one hand whose tricks are not in yet.
  function fillLast() {
    var open = hands.filter(function (hand) { return !hand.typed; });
    hands.forEach(function (hand) { hand.tricks.closest(".slot").classList.remove("slot-worked-out"); });
    if (open.length !== 1) {
      open.forEach(function (hand) {
        if (hand.tricks.value !== "") { hand.tricks.value = ""; changed(hand.tricks); }
      });
      return;
    }
    var taken = hands.reduce(function (total, hand) {
      return hand.typed ? total + (parseInt(hand.tricks.value, 10) || 0) : total;
    }, 0);
    var last = open[0];
    var left = TRICKS - taken;
    var value = left >= 0 ? String(left) : "";
    if (last.tricks.value !== value) { last.tricks.value = value; changed(last.tricks); }
    if (value !== "") last.tricks.closest(".slot").classList.add("slot-worked-out");
  }

  function bidGiven(hand) {
    return hand.cards.value.length === 3 || (!hand.cards.value && hand.bid.value !== "") ||
      Boolean(hand.made && (hand.made.checked || hand.failed.checked));
  }

  function suit(letter) {
    var slot = slots[cursor];
    var index = slot.hand;
    // Past a hand whose bid is in, a suit starts the next hand's bid.
    if (slot.name === "tricks" && bidGiven(hands[index]) && index + 1 < hands.length) index += 1;
    var hand = hands[index];
    var letters = hand.cards.value;
    if (letters.length >= 3 || (letters === "" && hand.bid.value !== "")) letters = "";
    hand.cards.value = letters + letter;
    var sum = cardsShown(hand);
    hand.bid.value = sum === null ? "" : String(sum);
    if (hand.byBid && !hand.byBid.checked) { hand.byBid.checked = true; changed(hand.byBid); }
    changed(hand.cards);
    if (hand.cards.value.length === 3) moveTo(index * 2 + 1);
    else moveTo(index * 2);
  }

  function digit(value) {
    var slot = slots[cursor];
    var hand = hands[slot.hand];
    var most = slot.name === "bid" ? MOST_BID : TRICKS;
    var number = value;
    if (pending) {
      var longer = parseInt(slot.input.value, 10) * 10 + value;
      if (longer <= most) number = longer;
      else if (cursor < slots.length - 1) {
        // The box held a whole number: this digit is for the next box.
        next();
        digit(value);
        return;
      }
    }
    if (number > most) return;
    slot.input.value = String(number);
    if (slot.name === "bid" && hand.cards.value) {
      hand.cards.value = "";
      cardsShown(hand);
      changed(hand.cards);
    }
    if (slot.name === "tricks") { hand.typed = true; fillLast(); }
    changed(slot.input);
    if (!pending && number * 10 <= most && number > 0) {
      pending = true; // "1" may be the start of "10"
      return;
    }
    next();
  }

  function next() {
    moveTo(cursor + 1);
  }

  function made(mark) {
    var hand = hands[slots[cursor].hand];
    var radio = mark === "made" ? hand.made : hand.failed;
    if (!radio) return;
    radio.checked = true;
    hand.bid.value = "";
    hand.cards.value = "";
    cardsShown(hand);
    chosen(hand.card);
    changed(radio);
    moveTo(slots[cursor].hand * 2 + 1);
  }

  function back() {
    var slot = slots[cursor];
    var hand = hands[slot.hand];
    if (slot.name === "bid" && hand.cards.value) {
      hand.cards.value = hand.cards.value.slice(0, -1);
      var sum = cardsShown(hand);
      hand.bid.value = sum === null ? "" : String(sum);
      changed(hand.cards);
    } else if (slot.input.value !== "" && (slot.name === "bid" || hand.typed)) {
      slot.input.value = "";
      if (slot.name === "tricks") { hand.typed = false; fillLast(); }
      changed(slot.input);
    } else {
      moveTo(cursor - 1);
      return;
    }
    pending = false;
  }

  keypad.addEventListener("pointerdown", function (event) {
    if (event.target.closest(".key")) event.preventDefault(); // the box keeps its focus
  });
  keypad.addEventListener("click", function (event) {
    var key = event.target.closest(".key");
    if (!key || key.disabled) return;
    var name = key.dataset.key;
    if (SUITS[name]) suit(name);
    else if (name === "made" || name === "failed") made(name);
    else if (name === "back") back();
    else if (name === "next") next();
    else digit(parseInt(name, 10));
  });

  // A tap on a box puts the cursor there; typing into it (a keyboard) works as ever.
  slots.forEach(function (slot, index) {
    slot.input.setAttribute("inputmode", "none");
    function here() { if (cursor !== index) moveTo(index); }
    slot.input.addEventListener("focus", here);
    slot.input.addEventListener("click", here); // a box that kept its focus
    slot.input.addEventListener("input", function () {
      var hand = hands[slot.hand];
      if (slot.name === "tricks") { hand.typed = slot.input.value !== ""; fillLast(); }
      else if (hand.cards.value) { hand.cards.value = ""; cardsShown(hand); }
    });
  });
  // A ⋯ panel opens in sight. Its choices are said on the hand's row (the panel folded); a
  // premium is the panel's last question, so choosing one folds it.
  form.querySelectorAll("details.hand-more").forEach(function (details) {
    details.addEventListener("toggle", function () {
      if (details.open) inSight(details.querySelector(".more-panel"));
      else refit();
    });
    details.addEventListener("change", function (event) {
      chosen(details.closest(".hand-card"));
      if (/-premium$/.test(event.target.name)) details.open = false;
    });
  });
  form.querySelector(".entry-check").addEventListener("htmx:afterSettle", function () {
    sayQueue();
    inSight(hands[slots[cursor].hand].card);
  });
  // The live region came back changed: another phone entered, undid or corrected a deal.
  // Check the form again at once, so that the status box (in sight, above the keypad) says what
  // happened to what is typed here, and Save says what it does now.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target.id === "live") changed(form);
  });

  // Deals kept on this phone while the scoresheet cannot be reached (static/js/outbox.js): the
  // table goes on with the deal after the last of them, its seats as the server sent them in
  // advance (data-upcoming); a trump that follows the deal before is worked out once that deal
  // is scored. The form comes up whole, its trump row in sight.
  form.addEventListener("outbox:waiting", function (event) {
    var upcoming = JSON.parse(form.dataset.upcoming || "[]");
    var numberBox = form.querySelector("input[name=number]");
    var last = event.detail.bodies.reduce(function (most, body) {
      return Math.max(most, parseInt(body.get("number"), 10) || 0);
    }, 0);
    var deal = upcoming.find(function (later) { return later.number === last + 1; });
    if (!deal || !numberBox || deal.number <= parseInt(numberBox.value, 10)) return;
    clear();
    form.querySelectorAll("input[name=number]").forEach(function (box) { box.value = String(deal.number); });
    form.querySelector("input[name=form_key]").value = event.detail.key; // the next deal's own
    seats(deal);
    document.getElementById("save-label").textContent = form.dataset.saveNext.replace("{number}", deal.number);
    sayQueue();
    moveTo(0);
    fillLast();
    refit();
  });

  // What waits on the phone, said in the status box, in sight. While entries wait before this
  // form, the server cannot check it (it would check it against the session without them):
  // the box says so instead. Entries waiting behind it (it holds an entry refused on arrival)
  // are named under what the check says. Once nothing waits before it, it is checked again.
  var queue = { before: [], after: [] };
  function sayQueue() {
    var box = document.getElementById("entry-status");
    if (!box) return;
    box.querySelectorAll(".entry-queue").forEach(function (line) { line.remove(); });
    var words = queue.before.length ? form.dataset.waitingBefore : queue.after.length ? form.dataset.waitingAfter : "";
    if (!words) return;
    if (queue.before.length) {
      Array.prototype.slice.call(box.children).forEach(function (child) {
        if (child.tagName !== "INPUT") child.remove();
      });
    }
    var line = document.createElement("p");
    line.className = "entry-queue mb-0";
    line.textContent = words.replace("{labels}", (queue.before.length ? queue.before : queue.after).join(", "));
    box.append(line);
  }
  form.addEventListener("outbox:queue", function (event) {
    var blocked = queue.before.length > 0;
    queue = event.detail;
    sayQueue();
    var typed = hands.some(function (hand) { return hand.bid.value || hand.tricks.value || hand.cards.value; });
    if (blocked && !queue.before.length && typed) changed(form);
  });
  function clear() {
    hands.forEach(function (hand) {
      hand.bid.value = "";
      hand.tricks.value = "";
      hand.cards.value = "";
      hand.typed = false;
      cardsShown(hand);
      hand.card.querySelectorAll("input[type=radio]").forEach(function (radio) { radio.checked = radio.value === ""; });
      var said = hand.card.querySelector(".hand-chosen");
      if (said) said.textContent = "";
    });
    form.querySelectorAll(".trump-pick input[type=radio]").forEach(function (radio) { radio.checked = false; });
    form.querySelectorAll(".is-invalid").forEach(function (box) { box.classList.remove("is-invalid"); });
    form.querySelectorAll(".has-problem").forEach(function (part) { part.classList.remove("has-problem"); });
  }

  // The badges move to the deal's dealer and leader; the banner above says the same.
  function seats(deal) {
    [["text-bg-secondary", deal.dealer], ["text-bg-success", deal.leader]].forEach(function (pair) {
      var badge = form.querySelector(".hand-name .badge." + pair[0]);
      var card = form.querySelector("fieldset.hand-card[data-name='" + CSS.escape(pair[1]) + "']");
      if (badge && card) card.querySelector(".hand-name").append(" ", badge);
    });
    var banner = document.getElementById("next-deal-heading");
    if (banner) {
      banner.textContent = form.dataset.outboxLabel.replace("{number}", deal.number);
      var facts = banner.parentNode.querySelectorAll(".next-deal-facts dd");
      if (facts.length >= 3) {
        facts[0].textContent = deal.dealer;
        facts[1].textContent = deal.leader;
        if (form.dataset.trumpLater) facts[2].textContent = form.dataset.trumpLater;
      }
    }
  }

  // The page's messages (a deal saved, corrected, undone, redone) sit above the form, which
  // the page scrolls to: they come into the bar, in sight above the keypad, in place of the
  // status box's first hint, with a link to correct the deal just saved; once the scorer
  // starts on the form, they go back to their place at the top.
  var messages = document.getElementById("messages");
  var correct = bar.querySelector(".entry-correct");
  var home = null; // where the messages sit in the page while they are in the bar
  function messagesInSight() {
    if (!messages || !messages.querySelector(".alert") || bar.contains(messages)) return;
    if (messages.getBoundingClientRect().top >= band().top) return; // in sight where they are
    home = { parent: messages.parentNode, next: messages.nextSibling };
    bar.insertBefore(messages, bar.firstChild);
    messages.classList.add("in-bar");
    if (correct) correct.hidden = false;
    var box = document.getElementById("entry-status");
    if (box && box.querySelector(".entry-hint") && !box.querySelector(".entry-queue")) box.hidden = true;
    place();
  }
  function messagesHome(event) {
    if (!home || (event && event.target.closest && event.target.closest(".entry-correct, #messages"))) return;
    home.parent.insertBefore(messages, home.next);
    messages.classList.remove("in-bar");
    home = null;
    if (correct) correct.hidden = true;
    var box = document.getElementById("entry-status");
    if (box) box.hidden = false;
  }
  form.addEventListener("pointerdown", messagesHome);
  form.addEventListener("change", messagesHome);
  form.addEventListener("outbox:waiting", function () { messagesHome(); });

  // The cursor starts at the first box still empty.
  var first = slots.findIndex(function (slot) { return slot.input.value === ""; });
  keypad.hidden = false;
  if (!window.location.hash) {
    place();
    messagesInSight();
  }
  moveTo(first < 0 ? 0 : first);
  fillLast();

  // Taps are handled here from now on (before this, a bid-card tap is a plain form post).
  document.documentElement.setAttribute("data-deal-entry", "ready");
})();
