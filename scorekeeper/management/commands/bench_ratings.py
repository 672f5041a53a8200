"""Benchmark: work out every rating of a club with a long history.

In a scratch database (SQLite by default, or PostgreSQL), migrated for the run and dropped
after it, and a process of its own with DEBUG off: one owner with
`--players` players and `--sessions` finished sessions spread over a year: two in three of the
trick game (a custom preset, 3 to 5 players, 2 to 4 random deals), one in three of the adding
game (Pagat's 99 with 2 tokens, 3 to 5 players, random busts until one is left). They are
stored in bulk, as an import stores its deals. Then it times:

- the full recompute the app does once per history version (`live.ratings.ratings` without
  its cache): gathering the games (`live.ratings.games`) and rating them, warm (every session's
  result already kept in this process) and cold (no result kept: each session read and scored);
- openskill's rating alone (`ratings.rate`) over the games gathered.
"""

from __future__ import annotations

import argparse
import datetime
import random
import secrets
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scorekeeper.bench.server import (
    DEFAULT_POSTGRES,
    app_env,
    manage,
    postgres_answers,
    scratch_database,
)
from scorekeeper.bench.sessions import random_deals
from scorekeeper.live import ratings as live_ratings
from scorekeeper.live import results
from scorekeeper.models import Deal, GameSession, Hand, Player, Round, RoundEvent, Seat
from scorekeeper.ratings import rate
from scorekeeper.rules import adding, trick
from scorekeeper.rules.bounds import name_key

TRICK_PRESET = "custom"
ADDING_PRESET, ADDING_OPTIONS = "ninety-nine", {"tokens": 2}
FIRST_DAY = datetime.date(2026, 1, 1)
BATCH = 2000


class Command(BaseCommand):
    help = "Print how long working out every rating takes over many finished sessions."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--sessions", type=int, default=5000)
        parser.add_argument("--runs", type=int, default=3, help="median of this many runs")
        parser.add_argument("--seed", type=int, default=99)
        parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
        parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
        parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["inside"]:  # the scratch database's own process
            self.measure(options)
            return
        kind = options["database"]
        if kind == "postgresql" and not postgres_answers(options["postgres_url"]):
            raise CommandError(f"No PostgreSQL server answers at {options['postgres_url']}.")
        with scratch_database(kind, options["postgres_url"]) as database:
            env = app_env(
                database,
                DEBUG="false",
                SECRET_KEY=secrets.token_urlsafe(40),
                ALLOWED_HOSTS="localhost",
            )
            manage(env, "migrate", "-v", "0")
            self.stdout.write(
                manage(
                    env,
                    "bench_ratings",
                    "--inside",
                    f"--players={options['players']}",
                    f"--sessions={options['sessions']}",
                    f"--runs={options['runs']}",
                    f"--seed={options['seed']}",
                ),
                ending="",
            )

    def measure(self, options: dict[str, Any]) -> None:
        runs: int = options["runs"]
        started = time.perf_counter()
        with transaction.atomic():
            owner, made = make_history(options["players"], options["sessions"], options["seed"])
        self.stdout.write(
            f"{options['sessions']} finished sessions of {options['players']} players "
            f"({made['trick']} trick game, {made['adding']} adding game; "
            f"{made['entries']} deals and rounds) stored in "
            f"{time.perf_counter() - started:.1f} s on {connection.vendor}"
        )
        if results.shared():
            self.stdout.write("(the cache is shared: a cold run may still find results there)")

        def cold() -> object:
            results.forget_all()
            return rate(live_ratings.games(owner.pk))

        def warm() -> object:
            return rate(live_ratings.games(owner.pk))

        cold_figures = measure(cold, runs)
        warm()  # every result kept from here on
        warm_figures = measure(warm, runs)
        games = live_ratings.games(owner.pk)
        rate_figures = measure(lambda: rate(games), runs)
        rated = rate(games)
        count = len(games)
        for label, (clock, cpu, queries) in (
            ("full recompute, cold (no result kept)", cold_figures),
            ("full recompute, warm (every result kept)", warm_figures),
            ("rate alone (openskill)", rate_figures),
        ):
            self.stdout.write(
                f"{label}: {clock:.2f} s, {clock / count * 1000:.3f} ms a game "
                f"(CPU {cpu:.2f} s, {cpu / count * 1000:.3f} ms a game), {queries} SQL queries"
            )
        ratings = sum(len(family) for family in rated.values())
        self.stdout.write(
            f"({count} games, {ratings} ratings in {len(rated)} games; median of {runs})"
        )


def measure(work: Callable[[], object], runs: int) -> tuple[float, float, int]:
    """The median seconds of `runs` runs of `work`, on the clock and of this process's CPU (on
    a busy machine, the clock counts time other processes took), and the SQL queries of one
    more run (counted apart: counting them slows the queries down)."""
    clock, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        work()
        clock.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    with CaptureQueriesContext(connection) as queries:
        work()
    return statistics.median(clock), statistics.median(cpu), len(queries)


def make_history(players: int, sessions: int, seed: int) -> tuple[User, dict[str, int]]:
    """A new owner with `players` players and `sessions` finished sessions, stored in bulk."""
    rng = random.Random(seed)
    owner = User.objects.create_user(f"bench-ratings-{time.monotonic_ns()}")
    roster = Player.objects.bulk_create(
        Player(owner=owner, name=f"Player {n:03}", name_key=name_key(f"Player {n:03}"))
        for n in range(1, players + 1)
    )
    made = {"trick": 0, "adding": 0, "entries": 0}
    # (the session, its players, its entries), each worked out and checked by the rules first
    planned: list[tuple[GameSession, list[Player], list[Any]]] = []
    for number in range(sessions):
        seated = rng.sample(roster, min(rng.randint(3, 5), len(roster)))
        names = [player.name for player in seated]
        day = FIRST_DAY + datetime.timedelta(days=number * 365 // max(sessions, 1))
        if number % 3 == 2:
            entries: list[Any] = adding_rounds(names, rng)
            session = GameSession(
                owner=owner, family="adding", ruleset=ADDING_PRESET, options=ADDING_OPTIONS
            )
            made["adding"] += 1
        else:
            deals = rng.randint(2, 4)
            options = {"match": {"type": "deals", "deals": deals}}
            rules = trick.resolve_rules(TRICK_PRESET, options, names)
            entries = trick_deals(rules, deals, rng)
            session = GameSession(
                owner=owner, family="trick", ruleset=TRICK_PRESET, options=options
            )
            made["trick"] += 1
        session.played_on, session.finished = day, True
        made["entries"] += len(entries)
        planned.append((session, seated, entries))
    for start in range(0, len(planned), BATCH):
        store(planned[start : start + BATCH])
    return owner, made


def trick_deals(rules: trick.TrickRules, count: int, rng: random.Random) -> list[Any]:
    """`count` random deals the rules accept (random_deals may draw a bid out of range for
    four players: drawn again)."""
    while True:
        deals = random_deals(rules, count, seed=rng.randrange(1 << 30))
        try:
            if trick.score_session(rules, deals).finished:
                return deals
        except trick.InvalidDeals:
            pass


def adding_rounds(names: list[str], rng: random.Random) -> list[adding.RoundEntry]:
    """Rounds of one bust each, by a player still in, until one player is left."""
    rules = adding.resolve_rules(ADDING_PRESET, ADDING_OPTIONS, names)
    entries: list[adding.RoundEntry] = []
    while not (found := adding.score_session(rules, entries)).finished:
        still_in = [standing.player for standing in found.standings if not standing.out]
        entries.append(adding.RoundEntry((adding.Event(rng.choice(still_in), "bust"),)))
    return entries


def store(planned: list[tuple[GameSession, list[Player], list[Any]]]) -> None:
    stored = GameSession.objects.bulk_create(session for session, _, _ in planned)
    seats = Seat.objects.bulk_create(
        Seat(session=session, position=position, player=player)
        for session, (_, seated, _) in zip(stored, planned, strict=True)
        for position, player in enumerate(seated)
    )
    by_name: dict[int, dict[str, Seat]] = {}
    for seat in seats:
        by_name.setdefault(seat.session_id, {})[seat.player.name] = seat
    # Each family's sessions, by the family's id (a key, never compared).
    by_family: dict[str, list[tuple[GameSession, list[Any]]]] = {}
    for session, (_, _, entries) in zip(stored, planned, strict=True):
        by_family.setdefault(session.family, []).append((session, entries))
    trick_plan = by_family.get(trick.ID, [])
    deals = Deal.objects.bulk_create(
        Deal(session=session, number=number)
        for session, entries in trick_plan
        for number in range(1, len(entries) + 1)
    )
    deal_entries = [entry for _, entries in trick_plan for entry in entries]
    deal_seats = [by_name[session.pk] for session, entries in trick_plan for _ in entries]
    Hand.objects.bulk_create(
        Hand(
            deal=deal,
            seat=seats_of[name],
            tricks=hand.tricks,
            bid=hand.bid,
            made=hand.made,
            premium=hand.premium or "",
        )
        for deal, entry, seats_of in zip(deals, deal_entries, deal_seats, strict=True)
        for name, hand in entry.hands.items()
    )
    adding_plan = by_family.get(adding.ID, [])
    rounds = Round.objects.bulk_create(
        Round(session=session, number=number)
        for session, entries in adding_plan
        for number in range(1, len(entries) + 1)
    )
    round_entries = [entry for _, entries in adding_plan for entry in entries]
    round_seats = [by_name[session.pk] for session, entries in adding_plan for _ in entries]
    RoundEvent.objects.bulk_create(
        RoundEvent(
            round=game_round, position=position, seat=seats_of[event.player], event=event.event
        )
        for game_round, entry, seats_of in zip(rounds, round_entries, round_seats, strict=True)
        for position, event in enumerate(entry.events)
    )
