"""Benchmark: load a long trick-game session and compute its standings.

Builds sessions of several lengths inside a transaction that is rolled back, so
nothing stays in the database, then prints the median time to compute the
standings and the number of SQL queries that loading and computing take.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from bench.sessions import scratch_session
from scorekeeper.families import TRICK
from scorekeeper.models import GameSession
from scorekeeper.rules import trick


class Command(BaseCommand):
    help = "Print how long computing a long session's standings takes, and its SQL queries."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--deals", type=int, nargs="+", default=[20, 200])
        parser.add_argument("--runs", type=int, default=9)

    def handle(self, *args: Any, **options: Any) -> None:
        for count in options["deals"]:
            self._measure(count, options["runs"])

    def _measure(self, count: int, runs: int) -> None:
        with transaction.atomic():
            options = {"match": {"type": "deals", "deals": count}}
            made = scratch_session("parlett-jokerless", options, ["A", "B", "C"], count)
            public_id = made.public_id

            timings = []
            for _ in range(runs):
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    session = GameSession.objects.with_seats().get(public_id=public_id)
                    entries = TRICK.entries(session)
                    loaded = time.perf_counter()
                    result = trick.score_session(TRICK.rules(session), entries)
                    done = time.perf_counter()
                timings.append((loaded - started, done - loaded))
            assert len(result.deals) == count
            load = statistics.median(t[0] for t in timings) * 1000
            calc = statistics.median(t[1] for t in timings) * 1000
            self.stdout.write(
                f"{count:>4} deals: load {load:7.2f} ms, compute standings {calc:7.2f} ms "
                f"(median of {runs}), SQL queries to load and compute: {len(queries)}"
            )
            transaction.set_rollback(True)
