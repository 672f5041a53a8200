"""How long a deal saved on the scorer's phone takes to show on the watching phones, and where
that time goes: a benchmark that prints figures, never a test (pytest does not collect it
unless named: `python -m pytest tests/browser/serving/bench_push.py -s`).

The server is the one `scripts/run` starts (`tableserver.gunicorn_command`: gunicorn's asyncio
workers, two of them, pages and event streams on one port, its task worker beside it), on a
scratch database: SQLite as scripts/run keeps it, or PostgreSQL (`-k postgresql`; a database of
its own, dropped afterwards, on the server of BENCH_POSTGRES_URL). One scorer phone (the
session's scorer link) saves BENCH_DEALS deals; BENCH_WATCHERS phones hold the watch link open.
Every phone is Chromium at 360×740 with touch.

Each save is split in four, on one clock (the pages' `performance.timeOrigin + now()`):

- tap → saved: from the tap on Save to the save's answer on the scorer's phone;
- saved → event: from there to the new version's `version` event on a watching phone's stream
  (below zero when the stream is told before the scorer's phone has its answer);
- event → fetched: from there to the last byte of the live region the page then asks for;
- fetched → swapped: from there to htmx's `afterSettle` of the region showing that version (its
  settle delay, 20 ms, included).

A phone whose timed poll (one in 30 s while the stream is open) showed the version before its
stream said it is left out of that save, and counted.

A row per part: the median, 90th percentile and largest over every save (tap → saved) or
every save and watching phone (the others).
"""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper import tableserver
from tests.browser.conftest import PHONE
from tests.browser.journeys import save_button, wait_for_keypad
from tests.browser.test_outbox import DEALS, enter_deal

ROOT = Path(__file__).resolve().parents[3]
WATCHERS = int(os.environ.get("BENCH_WATCHERS", "3"))
SAVES = int(os.environ.get("BENCH_DEALS", "9"))  # at most 9: one round of the game
POSTGRES_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
SCORER, WATCH = "bench-push-scorer-0123456789", "bench-push-watch-0123456789"
NOT_PASSED = ("DATABASE_URL", "SQLITE_PATH", "DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG")
# The session the phones open, made in the server's database before it starts.
SETUP = f"""
from django.contrib.auth.models import User
from tests.factories import new_players, trick_session, with_links
owner = User.objects.create_user("bench-push")
with_links(trick_session(owner, new_players(owner)), watch="{WATCH}", scorer="{SCORER}")
"""

# The scorer's phone: when Save was tapped and when the save's POST was answered, kept in
# sessionStorage across the page that follows.
SCORER_MARKS = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const mark = (what) => {
    const line = JSON.parse(sessionStorage.getItem("bench-push") || "{}");
    if (!(what in line)) line[what] = now();
    sessionStorage.setItem("bench-push", JSON.stringify(line));
  };
  document.addEventListener("pointerdown", (event) => {
    if (event.target.closest && event.target.closest(".save-btn")) {
      sessionStorage.setItem("bench-push", "{}");
      mark("tap");
    }
  }, true);
  const fetched = window.fetch;
  window.fetch = function (url, options) {
    const save = options && options.method === "POST" && !(options.headers || {})["HX-Request"];
    return fetched.apply(this, arguments).then((answer) => {
      if (save) mark("saved");
      return answer;
    });
  };
})();
"""
# A watching phone: each `version` event heard (before live.js's own listener runs), and each
# settled swap of the live region; the fetches' ends come from the resource timings.
WATCHER_MARKS = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const heard = window.benchPush = {events: [], settled: []};
  performance.setResourceTimingBufferSize(100000);
  const Original = window.EventSource;
  if (Original) {
    window.EventSource = class extends Original {
      constructor(url, init) {
        super(url, init);
        this.addEventListener("version", (event) => heard.events.push([now(), event.data]));
      }
    };
  }
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target.id === "live") heard.settled.push([now(), event.target.dataset.etag]);
  });
})();
"""
# The times of one save on one watching phone, given the scorer's tap (ms): the first version
# heard after it, the live region showing that version settled, and the last fetch of the region
# before that; or `polled` if a timed poll showed the version before the stream said it.
SPLIT = """(tap) => {
  const heard = window.benchPush;
  const event = heard.events.find(([at]) => at > tap);
  if (!event) return null;
  const shows = (etag) => (etag || "").replace(/^"v(\\d+).*$/, "$1") === event[1];
  const settled = heard.settled.find(([at, etag]) => at > tap && shows(etag));
  if (!settled) return null;
  if (settled[0] < event[0]) return {polled: true};
  const fetched = performance.getEntriesByType("resource")
    .filter((entry) => entry.name.includes("/live/"))
    .map((entry) => performance.timeOrigin + entry.responseEnd)
    .filter((at) => at > event[0] && at <= settled[0]);
  if (!fetched.length) return null;
  return {event: event[0], fetched: fetched[fetched.length - 1], settled: settled[0]};
}"""
PARTS = ["tap → saved", "saved → event", "event → fetched", "fetched → swapped", "tap → swapped"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def _database(kind: str, scratch: Path) -> Iterator[dict[str, str]]:
    if kind == "sqlite":
        yield {"SQLITE_PATH": str(scratch / "db.sqlite3")}
        return
    import psycopg

    try:
        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=2)
    except psycopg.Error as refused:
        pytest.skip(f"no PostgreSQL at {POSTGRES_URL}: {refused}")
    name = f"sk_bench_push_{os.getpid()}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield {"DATABASE_URL": urlunsplit(urlsplit(POSTGRES_URL)._replace(path=f"/{name}"))}
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def table_server(kind: str) -> Iterator[str]:
    """scripts/run's server on 127.0.0.1 and a scratch database of `kind`, holding the
    session; its address."""
    with (
        tempfile.TemporaryDirectory(prefix="bench-push-") as folder,
        _database(kind, Path(folder)) as database,
    ):
        scratch = Path(folder)
        port = _free_port()
        served = tableserver.plan({"BIND": "127.0.0.1", "PORT": str(port)}, https=False, lan=[])
        env = {k: v for k, v in os.environ.items() if k not in NOT_PASSED}
        env |= database | {"STATIC_ROOT": str(scratch / "static"), "WEB_CONCURRENCY": "2"}
        env = tableserver.environment(env, served, secrets.token_urlsafe(40))
        env["PYTHONUNBUFFERED"] = "1"
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run([*manage, "prepare_table"], env=env, cwd=ROOT, check=True)
        subprocess.run([*manage, "shell", "-c", SETUP], env=env, cwd=ROOT, check=True)
        log = (scratch / "server.log").open("wb")
        server = subprocess.Popen(
            tableserver.gunicorn_command(served, None),
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"{url}/healthz/", timeout=2).close()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        pytest.fail((scratch / "server.log").read_text(errors="replace"))
                    time.sleep(0.2)
            yield url
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
            log.close()


def _phone(browser: Browser, url: str, marks: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(base_url=url, **PHONE)
    context.set_default_timeout(30_000)
    context.add_init_script(marks)
    return context, context.new_page()


def _summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered):7.0f} {p90:7.0f} {ordered[-1]:7.0f}"


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_from_save_to_the_watching_phones(browser: Browser, kind: str) -> None:
    with table_server(kind) as url:
        contexts = []
        try:
            context, scorer = _phone(browser, url, SCORER_MARKS)
            contexts.append(context)
            scorer.goto(f"/s/{SCORER}/")
            scorer.get_by_label("Your name").fill("Sam")
            scorer.get_by_role("button", name="Start scoring").click()
            watchers = []
            for _ in range(WATCHERS):
                context, watcher = _phone(browser, url, WATCHER_MARKS)
                contexts.append(context)
                watcher.goto(f"/w/{WATCH}/")
                expect(watcher.locator("html")).to_have_attribute("data-push", "open")
                watchers.append(watcher)
            rows: dict[str, list[float]] = {part: [] for part in PARTS}
            polled = 0
            for number in range(1, SAVES + 1):
                wait_for_keypad(scorer)
                enter_deal(scorer, DEALS[(number - 1) % len(DEALS)])
                expect(scorer.locator("#entry-status")).to_contain_text("Ready to save")
                time.sleep(random.uniform(0, 0.5))  # any moment of the server's poll
                save_button(scorer).tap()
                saved = re.compile(rf"Deal {number} saved\.|The session ended after deal {number}")
                expect(scorer.locator("#messages")).to_contain_text(saved, timeout=30_000)
                line = json.loads(scorer.evaluate("sessionStorage.getItem('bench-push')"))
                rows["tap → saved"].append(line["saved"] - line["tap"])
                for watcher in watchers:
                    split = watcher.wait_for_function(SPLIT, arg=line["tap"]).json_value()
                    if split.get("polled"):
                        polled += 1
                        continue
                    rows["saved → event"].append(split["event"] - line["saved"])
                    rows["event → fetched"].append(split["fetched"] - split["event"])
                    rows["fetched → swapped"].append(split["settled"] - split["fetched"])
                    rows["tap → swapped"].append(split["settled"] - line["tap"])
        finally:
            for context in contexts:
                context.close()
    print(
        f"\n{kind}: {SAVES} saves × {WATCHERS} watching phones, ms"
        f" ({polled} left out: a timed poll showed the version before the stream said it)\n"
        f"{'':20} {'median':>7} {'p90':>7} {'max':>7}"
    )
    for part in PARTS:
        print(f"{part:20} {_summary(rows[part])}")
