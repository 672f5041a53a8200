"""Benchmark: serve the table page of long trick-game sessions, up to the largest one.

Builds sessions inside a transaction that is rolled back, requests the session page through
Django's test client (the whole middleware stack, templates included, no network) several
times, and prints the median server time and the number of SQL queries per request, and the
time of the first request after a change (the kept result forgotten, so the page scores the
session again, as it does once per change in each process). With
--largest, a last row is the largest session the bounds allow (RULES.md §3): 2,000 deals of
five players with 40-character names, printed as a multiple of the 90-deal page too.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.sessions import scratch_session
from scorekeeper import live
from scorekeeper.rules import bounds

# The longest a trick session can last: to the largest target, with nothing but trick points.
LARGEST = {
    "match": {"type": "target", "target": bounds.MAX_TARGET},
    "bonus": [0] * 5,
    "premiums": [],
}
LARGEST_NAMES = [f"{letter}{'x' * (bounds.MAX_NAME_LENGTH - 1)}" for letter in "ABCDE"]


class Command(BaseCommand):
    help = "Print the median server time and SQL queries of long sessions' table pages."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--deals", type=int, nargs="+", default=[9, 90])
        parser.add_argument("--runs", type=int, default=15)
        parser.add_argument(
            "--largest", action="store_true", help="also the largest session the bounds allow"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        medians = {}
        for count in options["deals"]:
            overrides = {"match": {"type": "deals", "deals": count + 1}}
            label = f"{count:>4} deals, 3 players"
            medians[count] = self._measure(
                label, "parlett-jokerless", overrides, ["Ann", "Ben", "Cat"], count, options["runs"]
            )
        if options["largest"]:
            label = f"{bounds.MAX_DEALS} deals, 5 players, the largest session"
            largest = self._measure(
                label, "custom", LARGEST, LARGEST_NAMES, bounds.MAX_DEALS, options["runs"]
            )
            if 90 in medians:
                self.stdout.write(f"largest / 90 deals: {largest / medians[90]:.2f}x")

    def _measure(
        self,
        label: str,
        preset: str,
        overrides: Mapping[str, object],
        players: list[str],
        count: int,
        runs: int,
    ) -> float:
        with transaction.atomic():
            session = scratch_session(preset, overrides, players, count)
            client = Client(SERVER_NAME="localhost")
            client.force_login(session.owner)
            url = f"/sessions/{session.public_id}/"
            cold: list[float] = []
            warm: list[float] = []
            for _ in range(runs):
                for timings in (cold, warm):
                    if timings is cold:
                        live.forget_all()  # as the first page after a change, elsewhere
                    with CaptureQueriesContext(connection) as queries:
                        started = time.perf_counter()
                        response = client.get(url)
                        timings.append(time.perf_counter() - started)
                    assert response.status_code == 200, response.status_code
            median = statistics.median(warm) * 1000
            first = statistics.median(cold) * 1000
            self.stdout.write(
                f"{label}: session page {median:7.2f} ms median of {runs} "
                f"({len(response.content) // 1024} KiB), the first after a change "
                f"(scored again) {first:.2f} ms, SQL queries per request: {len(queries)}"
            )
            transaction.set_rollback(True)
        return median
