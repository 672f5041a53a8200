"""Benchmark: serve the table page of a long trick-game session.

Builds sessions inside a transaction that is rolled back, requests the session
page through Django's test client (the whole middleware stack, templates
included, no network) several times, and prints the median server time and the
number of SQL queries per request.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.management.commands.bench_standings import random_deals
from scorekeeper.rules import trick
from scorekeeper.scoresheet import TrickSheet
from scorekeeper.services import import_scoresheet


class Command(BaseCommand):
    help = "Print the median server time and SQL queries of a long session's table page."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--deals", type=int, nargs="+", default=[9, 90])
        parser.add_argument("--runs", type=int, default=15)

    def handle(self, *args: Any, **options: Any) -> None:
        for count in options["deals"]:
            self._measure(count, options["runs"])

    def _measure(self, count: int, runs: int) -> None:
        with transaction.atomic():
            owner = User.objects.create_user(f"bench-{time.monotonic_ns()}")
            overrides = {"match": {"type": "deals", "deals": count + 1}}
            players = ["Ann", "Ben", "Cat"]
            rules = trick.resolve_rules("parlett-jokerless", overrides, players)
            sheet = TrickSheet.build(
                ruleset="parlett-jokerless",
                options=overrides,
                players=players,
                deals=random_deals(rules, count, seed=count),
            )
            session = import_scoresheet(owner=owner, sheet=sheet)
            client = Client(SERVER_NAME="localhost")
            client.force_login(owner)
            url = f"/sessions/{session.public_id}/"
            timings = []
            for _ in range(runs):
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    response = client.get(url)
                    timings.append(time.perf_counter() - started)
                assert response.status_code == 200, response.status_code
            median = statistics.median(timings) * 1000
            self.stdout.write(
                f"{count:>4} deals: session page {median:7.2f} ms median of {runs} "
                f"({len(response.content) // 1024} KiB), SQL queries per request: {len(queries)}"
            )
            transaction.set_rollback(True)
