"""Figures for one table, through gunicorn: pages against a bare Django view, SQL, bytes.

For each database asked for, it starts gunicorn (one worker, production settings,
plain HTTP on 127.0.0.1) on a scratch database holding one session of `--deals`
deals, and prints, side by side:

- the median and p95 time of the standings pages, the live fragment and an
  unchanged poll, each as a multiple of `/healthz/` (a bare Django view: no
  database, no template) on the same server, requested one at a time;
- the SQL queries each of those requests makes (counted in-process on the same data);
- the bytes a phone downloads, gzip as browsers ask: the first visit of a watch link
  (page, styles, scripts, icons, manifest, then what the service worker stores), and
  each htmx update (an unchanged poll, a poll after a new deal, an entry check).
"""

from __future__ import annotations

import json
import re
import statistics
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.load import OPTIONS, PLAYERS, PRESET, setup_tables
from bench.phone import Phone, Response, deal_post, form_fields
from bench.server import (
    add_database_options,
    database_kinds,
    database_server,
    manage,
    production_server,
)
from bench.sessions import random_deals
from scorekeeper.models import GameSession
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal

_ASSET = re.compile(r'(?:href|src|data-sw)="(/[^"]+)"')
_SW_LIST = re.compile(r"const PRECACHED_(?:STATIC|PAGES) = \[([^\]]*)\]")
HOUR_POLLS, HOUR_DEALS = 1200, 20  # a watcher for an hour: a poll every 3 s, a deal every 3 min


def kib(size: float) -> str:
    return f"{size / 1024:.1f} KiB"


class Command(BaseCommand):
    help = (
        "Print the standings page and an unchanged poll against a bare Django view on the same "
        "gunicorn, with SQL queries per request and the bytes a phone downloads."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_database_options(parser)
        parser.add_argument("--deals", type=int, default=30)
        parser.add_argument("--runs", type=int, default=200, help="requests per row")
        parser.add_argument("--setup-deals", type=int, help="(internal)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["setup_deals"] is not None:
            self.stdout.write(json.dumps(setup(options["setup_deals"])))
            return
        for kind in database_kinds(options, self.stdout.write):
            with production_server(kind, workers=1, postgres_url=options["postgres_url"]) as server:
                made = json.loads(manage(server.env, "bench_figures", "--setup-deals",
                                         str(options["deals"])))  # fmt: skip
                self.timings(server.base_url, made, options)
                self.downloads(server.base_url, made)

    def timings(self, base_url: str, made: dict[str, Any], options: dict[str, Any]) -> None:
        watcher = Phone(base_url)
        owner = Phone(base_url, cookies={"sessionid": made["sessionid"]})
        watch = f"/w/{made['watch']}/"
        etag = watcher.get(watch + "live/").headers["ETag"]
        rows = [
            ("bare Django view (/healthz/)", watcher, "/healthz/", {}, 200),
            ("unchanged poll (304)", watcher, watch + "live/", {"If_None_Match": etag}, 304),
            ("live fragment (standings, grid)", watcher, watch + "live/", {}, 200),
            ("watch page (standings page)", watcher, watch, {}, 200),
            ("owner's table page", owner, f"/sessions/{made['public_id']}/", {}, 200),
        ]
        self.stdout.write(
            f"\n{made['server']}, gunicorn 1 sync worker, one request at a time, "
            f"a {made['deals']}-deal session, {options['runs']} requests per row:"
        )
        self.stdout.write(
            f"  {'request':<33}{'median':>9}{'p95':>9}{'x bare':>8}{'SQL':>5}{'bytes (gzip)':>14}"
        )
        bare = 0.0
        for label, phone, path, headers, status in rows:
            for _ in range(10):  # warm up: imports, templates, connections
                phone.get(path, **headers)
            answers: list[Response] = [phone.get(path, **headers) for _ in range(options["runs"])]
            assert {a.status for a in answers} == {status}, (label, {a.status for a in answers})
            times = sorted(a.seconds * 1000 for a in answers)
            median = statistics.median(times)
            bare = bare or median
            self.stdout.write(
                f"  {label:<33}{median:>7.2f}ms{times[int(len(times) * 0.95)]:>7.2f}ms"
                f"{median / bare:>7.1f}x{made['queries'][label]:>5}{answers[-1].wire_bytes:>14,}"
            )

    def downloads(self, base_url: str, made: dict[str, Any]) -> None:
        phone = Phone(base_url)
        page = phone.get(f"/w/{made['watch']}/")
        assets = sorted({path for path in _ASSET.findall(page.text) if not path.startswith("/w/")})
        first = [page] + [phone.get(path) for path in assets]
        assert all(answer.status == 200 for answer in first), [a.status for a in first]
        worker = next(a for path, a in zip(assets, first[1:], strict=True) if path == "/sw.js")
        stored = sorted(
            {
                url
                for listed in _SW_LIST.findall(worker.text)
                for url in re.findall(r'"([^"]+)"', listed)
            }
            - set(assets)  # fmt: skip
        )
        installed = [phone.get(path) for path in stored]
        visit = sum(answer.wire_bytes for answer in first)
        background = sum(answer.wire_bytes for answer in installed)
        raw = sum(len(answer.body) for answer in first)
        out = self.stdout.write
        out("  Bytes a phone downloads (response headers included; gzip, as browsers ask):")
        out(
            f"    first visit of a watch link: {kib(visit)} in {len(first)} responses "
            f"({kib(raw)} unzipped; the page itself {kib(page.wire_bytes)})"
        )
        out(
            f"    then the service worker stores {len(installed)} files for offline use: "
            f"{kib(background)}"
        )
        out(
            "    a second visit: the page only (static files have hashed names and are "
            f"cached for a year): {kib(page.wire_bytes)}"
        )
        live = f"/w/{made['watch']}/live/"
        before = phone.get(live)
        unchanged = phone.get(live, If_None_Match=before.headers["ETag"])
        owner = Phone(base_url, cookies={"sessionid": made["sessionid"]})
        table = f"/sessions/{made['public_id']}/"
        form = form_fields(owner.get(table).text)
        rules = trick.resolve_rules(PRESET, OPTIONS, PLAYERS)
        entry = random_deals(rules, made["deals"] + 1, seed=made["deals"])[-1]
        data = deal_post(entry, PLAYERS, form)
        check = owner.post(
            table, {k: v for k, v in data.items() if k != "save"},
            HX_Request="true", HX_Target="entry-status", X_CSRFToken=data["csrfmiddlewaretoken"],
        )  # fmt: skip
        assert check.status == 200, check.status
        assert owner.post(table, data).status == 302
        changed = phone.get(live, If_None_Match=before.headers["ETag"])
        assert (unchanged.status, changed.status) == (304, 200)
        out("  Bytes per htmx update:")
        out(f"    unchanged poll (304, every 3 s): {unchanged.wire_bytes:,} bytes")
        out(
            f"    poll after a new deal (200): {kib(changed.wire_bytes)} "
            f"({kib(len(changed.body))} unzipped)"
        )
        out(f"    entry check while typing a deal: {kib(check.wire_bytes)}")
        hour = HOUR_POLLS * unchanged.wire_bytes + HOUR_DEALS * changed.wire_bytes
        out(
            f"    a watcher for an hour (a poll every 3 s, a deal every 3 min): {kib(hour)}"
            f" (= {HOUR_POLLS - HOUR_DEALS} unchanged + {HOUR_DEALS} changed polls)"
        )


def setup(deals: int) -> dict[str, Any]:
    """One session of `deals` random deals, with a watch link and the owner logged in;
    and the SQL queries of each request timed, counted here on the same data."""
    (table,) = setup_tables(1)
    game = GameSession.objects.get(public_id=table["public_id"])
    owner = game.owner
    rules = trick.resolve_rules(PRESET, OPTIONS, PLAYERS)
    for number, entry in enumerate(random_deals(rules, deals + 1, seed=deals)[:deals], 1):
        add_deal(session=game, number=number, entry=entry, who=Who(owner))
    game.refresh_from_db()
    watcher, client = Client(SERVER_NAME="127.0.0.1"), Client(SERVER_NAME="127.0.0.1")
    client.force_login(owner)
    watch = f"/w/{game.watch_token}/"
    etag = watcher.get(watch + "live/")["ETag"]
    requests = {
        "bare Django view (/healthz/)": (watcher, "/healthz/", {}),
        "unchanged poll (304)": (watcher, watch + "live/", {"If-None-Match": etag}),
        "live fragment (standings, grid)": (watcher, watch + "live/", {}),
        "watch page (standings page)": (watcher, watch, {}),
        "owner's table page": (client, f"/sessions/{game.public_id}/", {}),
    }
    queries = {}
    for label, (browser, path, headers) in requests.items():
        browser.get(path, headers=headers)  # sessions and caches as on a repeat visit
        with CaptureQueriesContext(connection) as captured:
            browser.get(path, headers=headers)
        queries[label] = len(captured)
    return {
        "public_id": game.public_id,
        "watch": game.watch_token,
        "sessionid": client.cookies["sessionid"].value,
        "queries": queries,
        "deals": deals,
        "server": database_server(),
    }
