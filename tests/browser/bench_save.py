"""How long a scorer's own phone takes from the tap on Save to the page that says "Deal N
saved", and where that time goes: a benchmark that prints figures, never a test (pytest does
not collect it unless named: `python -m pytest tests/browser/bench_save.py -s`).

Each row is the median over deals 2-6 of one session, in ms after the tap: the outbox's POST
leaves (`post`) and is answered (`posted`), the next page is asked for (`request`), its first
byte and last byte arrive (`response`, `body`), its scripts have run (`dcl`), and its first
paint. With the service worker blocked (scripts/run) and allowed (a hosted site), on the
machine's CPU and on a CPU four times slower (Chrome's throttling, near a mid-range phone).
"""

from __future__ import annotations

import json
import statistics

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Player
from scorekeeper.services import create_session
from tests.browser.conftest import LogIn, NewPage
from tests.browser.journeys import save_button, wait_for_keypad
from tests.browser.test_outbox import DEALS, enter_deal

# When each step happened, kept in sessionStorage across the page change.
TIMELINE = """
(() => {
  const mark = (what) => {
    const line = JSON.parse(sessionStorage.getItem("bench-save") || "{}");
    if (!(what in line)) line[what] = Date.now();
    sessionStorage.setItem("bench-save", JSON.stringify(line));
  };
  document.addEventListener("pointerdown", (event) => {
    if (event.target.closest && event.target.closest(".save-btn")) {
      sessionStorage.setItem("bench-save", "{}");
      mark("tap");
    }
  }, true);
  const fetched = window.fetch;
  window.fetch = function (url, options) {
    const save = options && options.method === "POST" && !(options.headers || {})["HX-Request"];
    if (save) mark("post");
    return fetched.apply(this, arguments).then((answer) => {
      if (save) mark("posted");
      return answer;
    });
  };
})();
"""
READ = """() => {
  const line = JSON.parse(sessionStorage.getItem("bench-save"));
  const page = performance.getEntriesByType("navigation")[0];
  const paint = performance.getEntriesByType("paint")
    .find((entry) => entry.name === "first-contentful-paint");
  const at = (time) => Math.round(performance.timeOrigin + time - line.tap);
  return {
    post: line.post - line.tap, posted: line.posted - line.tap,
    request: at(page.requestStart), response: at(page.responseStart), body: at(page.responseEnd),
    dcl: at(page.domContentLoadedEventEnd), paint: paint ? at(paint.startTime) : null,
  };
}"""
STEPS = ["post", "posted", "request", "response", "body", "dcl", "paint"]


@pytest.mark.parametrize("worker", ["block", "allow"])
@pytest.mark.parametrize("slower", [1, 4])
def test_from_save_to_saved(
    new_page: NewPage, log_in: LogIn, alice: User, roster: list[Player], slower: int, worker: str
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    page = new_page(service_workers=worker)
    page.add_init_script(TIMELINE)
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slower})
    log_in(page, alice)
    page.goto(f"/sessions/{game.public_id}/")
    rows = []
    for number in range(1, 7):
        wait_for_keypad(page)
        enter_deal(page, DEALS[(number - 1) % 3])
        expect(page.locator("#entry-status")).to_contain_text("Ready to save")
        save_button(page).tap()
        expect(page.locator("#messages")).to_contain_text(f"Deal {number} saved.")
        page.wait_for_load_state("load")
        if number > 1:  # the first save warms the caches
            rows.append(page.evaluate(READ))
    median = {
        step: statistics.median(row[step] for row in rows if row[step] is not None)
        for step in STEPS
    }
    print(f"\nworker {worker}, CPU ×{slower}: ms after the tap, median: {json.dumps(median)}")
