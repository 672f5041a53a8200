"""Benchmark: a club with a long history, and what sits above its tables.

In a scratch database (SQLite by default, or PostgreSQL), migrated for the run and dropped
after it, and a process of its own with DEBUG off: one owner with `--players` players and
`--sessions` finished sessions spread over a year: two in three of the trick game (a custom
preset, 3 to 5 players, 2 to 4 random deals), one in three of the adding game (Pagat's 99 with
2 tokens, 3 to 5 players, random busts until one is left), stored in bulk as an import stores
its deals, and a season over all of it (its ordinary sessions counting). Then it prints:

- everything stored above the tables worked out from that history once (`club.rebuild`, as
  `manage.py rebuild_club` does on an upgraded server);
- a club night on the history's last day, one round played through the services: each save's
  CPU, with what it stores above its table;
- the CPU of every club page, warm (asked again and again) and right after a correction of the
  latest finished game (the first asker of the new version), against a bare Django view
  (/healthz/) in the same process: the night's and the season's pages (the watch link's and
  the owner's), the club ladder, a player's page, the lists of nights and seasons;
- a correction's replay of the ratings against the number of games after the corrected one
  (`club.ratings.replay`), and a correction of the oldest game, its replay run by the task as
  the worker runs it, timed from the correction to every rating up to date.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.night import METHOD, PRESET
from bench.server import (
    DEFAULT_POSTGRES,
    manage,
    postgres_answers,
    production_env,
    scratch_database,
)
from bench.sessions import random_deals
from scorekeeper.club import ratings
from scorekeeper.club.rebuild import rebuild
from scorekeeper.club_models import RatingsBehind
from scorekeeper.families import TRICK
from scorekeeper.models import Deal, GameSession, Hand, Player, Round, RoundEvent, Seat
from scorekeeper.night_models import Night, Season
from scorekeeper.rules import adding, trick
from scorekeeper.rules.bounds import name_key
from scorekeeper.services import Who, add_deal, edit_deal
from scorekeeper.services.nights import create_night, start_round

TRICK_PRESET = "custom"
ADDING_PRESET, ADDING_OPTIONS = "ninety-nine", {"tokens": 2}
FIRST_DAY = datetime.date(2026, 1, 1)
BATCH = 2000
TABLES, NIGHT_DEALS = 8, 3  # the club night played on the history's last day


class Command(BaseCommand):
    help = (
        "Print what a long history costs the club's pages and a correction's replay of the "
        "ratings, over many finished sessions."
    )

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
        with (
            scratch_database(kind, options["postgres_url"]) as database,
            tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as scratch,
        ):
            # A production server's settings, its pages asked for by Django's test client.
            env = production_env(database, Path(scratch)) | {
                "ALLOWED_HOSTS": "testserver",
                # The history and the night's tables in one account, past the default cap.
                "ACCOUNT_MAX_SESSIONS": str(options["sessions"] + TABLES),
            }
            manage(env, "migrate", "-v", "0")
            manage(env, "collectstatic", "--noinput", "-v", "0")
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
        season = Season.objects.create(
            owner=owner,
            name="The whole year",
            family="trick",
            starts=FIRST_DAY,
            ends=FIRST_DAY + datetime.timedelta(days=365),
            with_sessions=True,
        )
        clock, cpu = time.perf_counter(), time.process_time()
        rebuild(owner.pk)
        self.stdout.write(
            f"rebuilt from the history (rebuild_club): {time.perf_counter() - clock:.1f} s, "
            f"CPU {time.process_time() - cpu:.1f} s"
        )
        night, saves = play_night(owner)
        self.stdout.write(
            f"a club night on the last day, {len(saves['deal'])} deals saved at its "
            f"{TABLES} tables through the services: CPU per save (median) "
            f"{statistics.median(saves['deal']) * 1000:.1f} ms, a table's last deal (the "
            f"night's board, ratings and season moved) "
            f"{statistics.median(saves['last deal']) * 1000:.1f} ms"
        )
        owners, phone = Client(), Client()  # the owner's, and a phone holding the links
        owners.force_login(owner)
        player = Player.objects.filter(owner=owner).first()
        assert player is not None
        pages = {
            "bare Django view (/healthz/)": (phone, "/healthz/"),
            "night's watch page": (phone, f"/n/{night.watch_token}/"),
            "night's page (organiser)": (owners, f"/nights/{night.public_id}/"),
            "season's watch page": (phone, f"/g/{season.watch_token}/"),
            "season's page (owner)": (owners, f"/seasons/{season.public_id}/"),
            "club ladder": (owners, "/ladder/"),
            "player's page": (owners, f"/players/{player.pk}/"),
            "nights": (owners, "/nights/"),
            "seasons": (owners, "/seasons/"),
        }
        warm = {label: cpu_of(client, url, runs) for label, (client, url) in pages.items()}
        bare = warm["bare Django view (/healthz/)"][0]
        latest = latest_trick_game(owner)
        first: dict[str, tuple[float, int]] = {}
        for label, (client, url) in pages.items():
            correct(latest, owner)  # a new version of everything it shows
            first[label] = cpu_of(client, url, 1)
        self.stdout.write("CPU per request (ms, median), and as a multiple of the bare view:")
        for label in pages:
            (warm_cpu, queries), (first_cpu, _q) = warm[label], first[label]
            self.stdout.write(
                f"  {label:<30} warm {warm_cpu * 1000:7.2f} ms {warm_cpu / bare:5.1f}x "
                f"{queries:>3} SQL; first after a correction {first_cpu * 1000:7.2f} ms "
                f"{first_cpu / bare:5.1f}x"
            )
        self.stdout.write("A correction's replay of the ratings, by the games after it:")
        games = list(trick_games(owner))
        for after in (0, 10, 100, 1000, 10_000):
            if after >= len(games):
                continue
            game = games[len(games) - 1 - after]
            clock, cpu = time.perf_counter(), time.process_time()
            with transaction.atomic():
                rated = ratings.replay(owner.pk, "trick", outcome_key(game))
            self.stdout.write(
                f"  {after:>6} games after: {rated} rated again in "
                f"{time.perf_counter() - clock:.2f} s (CPU {time.process_time() - cpu:.2f} s)"
            )
        oldest = games[0]
        clock, cpu = time.perf_counter(), time.process_time()
        correct(oldest, owner)
        queued = RatingsBehind.objects.filter(owner=owner).exists()
        ratings.bring_up_to_date.call(owner.pk, "trick")
        self.stdout.write(
            f"a correction of the oldest of {len(games)} trick games: every rating up to date "
            f"{time.perf_counter() - clock:.1f} s after it (CPU {time.process_time() - cpu:.1f} "
            f"s; {'by the task' if queued else 'in the request'})"
        )


def play_night(owner: User) -> tuple[Night, dict[str, list[float]]]:
    """A club night of TABLES tables of 3 on the history's last day, one round played to the
    end through the services as the scorers' phones save it: the night, and each save's CPU
    seconds (a table's last deal apart)."""
    players = list(Player.objects.filter(owner=owner).order_by("pk")[: 3 * TABLES])
    night = create_night(
        owner=owner, name="Bench club night", played_on=FIRST_DAY + datetime.timedelta(364),
        family="trick", ruleset=PRESET, options={}, least=3, most=3, deals=NIGHT_DEALS,
        rounds=2, method=METHOD, players=players,
    )  # fmt: skip
    night = start_round(night=night)
    saves: dict[str, list[float]] = {"deal": [], "last deal": []}
    for session in GameSession.objects.filter(night=night).with_seats():
        rules = trick.resolve_rules(PRESET, {}, session.player_names())
        deals = random_deals(rules, NIGHT_DEALS, seed=session.pk)
        for number, entry in enumerate(deals, start=1):
            started = time.process_time()
            add_deal(session=session, number=number, entry=entry, who=Who(owner))
            kind = "last deal" if number == NIGHT_DEALS else "deal"
            saves[kind].append(time.process_time() - started)
    night.refresh_from_db()
    return night, saves


def cpu_of(client: Client, url: str, runs: int) -> tuple[float, int]:
    """The median CPU seconds of `runs` requests of `url`, and the SQL of one more."""
    used = []
    for _ in range(runs):
        started = time.process_time()
        response = client.get(url)
        used.append(time.process_time() - started)
        assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(used), len(queries)


def trick_games(owner: User) -> list[GameSession]:
    """The owner's finished trick games, in the order they were played."""
    return list(
        GameSession.objects.filter(owner=owner, family="trick", finished=True)
        .with_seats()
        .order_by("played_on", "created", "pk")
    )


def latest_trick_game(owner: User) -> GameSession:
    return trick_games(owner)[-1]


def outcome_key(session: GameSession) -> ratings.Key:
    return (session.played_on or session.created.date(), session.created, session.pk)


def correct(session: GameSession, owner: User) -> None:
    """Correct the session as a scorer who entered its seats in the wrong order would: every
    deal's hands moved round one seat, a correction a deal at a time (the places change, and
    with them the ratings, the night's board and the season)."""
    session = GameSession.objects.with_seats().get(pk=session.pk)
    for number, deal in enumerate(TRICK.entries(session), start=1):
        names = list(deal.hands)
        turned = dict(zip(names, names[1:] + names[:1], strict=True))
        entry = trick.DealEntry(
            hands={turned[name]: hand for name, hand in deal.hands.items()}, trump=deal.trump
        )
        edit_deal(
            session=session,
            number=number,
            revision=session.deals.get(number=number).revision,
            entry=entry,
            who=Who(owner),
        )


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
