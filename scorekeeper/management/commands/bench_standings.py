"""Benchmark: load a long trick-game session and compute its standings.

Builds sessions of several lengths inside a transaction that is rolled back, so
nothing stays in the database, then prints the median time to compute the
standings and the number of SQL queries that loading and computing take.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import GameSession
from scorekeeper.rules import trick
from scorekeeper.scoresheet import TrickSheet
from scorekeeper.services import compute, import_scoresheet, with_entries


def random_deals(rules: trick.TrickRules, count: int, seed: int) -> list[trick.DealEntry]:
    """`count` valid deals: random tricks, bids made or missed, some kept hidden."""
    rng = random.Random(seed)
    players = rules.players
    deals: list[trick.DealEntry] = []
    for _ in range(count):
        cuts = sorted(rng.randint(0, rules.tricks) for _ in players[1:])
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, rules.tricks], strict=True)]
        premium_at = rng.randrange(len(players) * 4)  # a premium in about one deal of four
        hands = {}
        for index, (name, won) in enumerate(zip(players, tricks, strict=True)):
            roll = rng.random()
            premium = rng.choice(rules.premiums) if index == premium_at and rules.premiums else None
            if roll < 0.5 or premium:
                bid = won if roll < 0.5 else (won + 1) % (rules.tricks + 1)
                hands[name] = trick.HandEntry(tricks=won, bid=bid, premium=premium)
            else:
                hands[name] = trick.HandEntry(tricks=won, made=False)
        deals.append(trick.DealEntry(hands=hands))
    return deals


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
            owner = User.objects.create_user(f"bench-{time.monotonic_ns()}")
            rules = trick.resolve_rules(
                "parlett-jokerless", {"match": {"type": "deals", "deals": count}}, ["A", "B", "C"]
            )
            sheet = TrickSheet.build(
                ruleset="parlett-jokerless",
                options={"match": {"type": "deals", "deals": count}},
                players=rules.players,
                deals=random_deals(rules, count, seed=count),
                title="Benchmark",
            )
            public_id = import_scoresheet(owner=owner, sheet=sheet).public_id

            timings = []
            for _ in range(runs):
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    session = with_entries(GameSession.objects.all()).get(public_id=public_id)
                    loaded = time.perf_counter()
                    result = compute(session)
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
