"""Benchmark: an unchanged live poll next to a full standings render.

Builds a session inside a transaction that is rolled back, turns its watch link on,
and requests through Django's test client (whole middleware stack, no network):
the watch page's live fragment with the current ETag (answered 304), the same
fragment without it (a full render), and the owner's table page.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.sessions import scratch_session
from scorekeeper.models import new_link_token


class Command(BaseCommand):
    help = "Print the cost of an unchanged live poll next to a full standings render."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--deals", type=int, default=90)
        parser.add_argument("--runs", type=int, default=25)

    def handle(self, *args: Any, **options: Any) -> None:
        deals, runs = options["deals"], options["runs"]
        with transaction.atomic():
            overrides = {"match": {"type": "deals", "deals": deals + 1}}
            session = scratch_session("parlett-jokerless", overrides, ["Ann", "Ben", "Cat"], deals)
            owner = session.owner
            session.watch_token = new_link_token()
            session.save(update_fields=["watch_token"])
            watcher = Client(SERVER_NAME="localhost")
            owner_client = Client(SERVER_NAME="localhost")
            owner_client.force_login(owner)
            live = f"/w/{session.watch_token}/live/"
            etag = watcher.get(live)["ETag"]
            rows = [
                ("unchanged poll (304)", watcher, live, {"If-None-Match": etag}, 304),
                ("live fragment (200)", watcher, live, {}, 200),
                ("owner's table page", owner_client, f"/sessions/{session.public_id}/", {}, 200),
            ]
            self.stdout.write(f"{deals}-deal session, median of {runs} requests each:")
            for label, client, url, headers, status in rows:
                timings = []
                for _ in range(runs):
                    with CaptureQueriesContext(connection) as queries:
                        started = time.perf_counter()
                        response = client.get(url, headers=headers)
                        timings.append(time.perf_counter() - started)
                    assert response.status_code == status, (label, response.status_code)
                median = statistics.median(timings) * 1000
                self.stdout.write(
                    f"  {label:<22} {median:8.2f} ms  {len(response.content):>7} bytes  "
                    f"{len(queries)} SQL queries"
                )
            transaction.set_rollback(True)
