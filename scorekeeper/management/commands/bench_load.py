"""Load benchmark: many tables at once against gunicorn, then an exactly-once check.

For each database asked for, it makes a scratch database, migrates it, starts gunicorn
(production settings, plain HTTP on 127.0.0.1 only) and sets up `--tables` sessions
with a scorer link and a watch link each. Then, for `--seconds`, every table has one
scorer phone entering a deal every `--deal-every` seconds (reading the form, posting
it, following the redirect, as a browser does) and `--watchers` phones polling the
live standings every `--poll-every` seconds with the ETag they show.

It prints requests per second, p50/p95/p99 latency per kind of request, and errors.
Afterwards it checks, table by table, that every deal a scorer saw accepted is stored
exactly once and as entered, that nothing else is stored, and that the totals a
watcher is shown equal the rules package's totals for the scorer's own record.

A save that fails (a 5xx or a broken connection) is retried with the same form, as a
phone's Reload does; the form's idempotency key must keep it from being stored twice.
"""

from __future__ import annotations

import json
import random
import re
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from scorekeeper.harness.phone import (
    Phone,
    Response,
    ServerGone,
    csrf_token,
    deal_post,
    form_fields,
    standings,
)
from scorekeeper.harness.server import DEFAULT_POSTGRES, manage, postgres_answers, production_server
from scorekeeper.management.commands.bench_standings import random_deals
from scorekeeper.models import Change, GameSession, Player, new_link_token
from scorekeeper.rules import trick
from scorekeeper.services import create_session, deal_entries

PRESET = "parlett-jokerless"
PLAYERS = ("Ann", "Ben", "Cat")
OPTIONS: dict[str, object] = {"match": {"type": "deals", "deals": 1000}}
SAVE_TRIES = 5
_ETAG = re.compile(r"data-etag='([^']*)'")
_SAVED = re.compile(r"Deal (\d+) (?:saved|was already saved)")


def entry_json(entry: trick.DealEntry) -> dict[str, Any]:
    """A deal entry as plain JSON data (tuples become lists), for comparing."""
    data: dict[str, Any] = json.loads(json.dumps(asdict(entry)))
    return data


@dataclass
class Tally:
    """Every request's kind, status and time, from all phone threads (appends are atomic)."""

    samples: list[tuple[str, int, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def record(self, kind: str, response: Response) -> Response:
        self.samples.append((kind, response.status, response.seconds))
        if response.status >= 500:
            self.errors.append(f"{kind}: HTTP {response.status}")
        return response


@dataclass
class TableRun:
    """One table: its links, and what its scorer saw accepted."""

    public_id: str
    watch: str
    scorer: str
    seed: int
    accepted: list[trick.DealEntry] = field(default_factory=list)
    form_keys: list[str] = field(default_factory=list)
    retried_saves: int = 0
    shown: dict[str, int] = field(default_factory=dict)


def _pause(stop: threading.Event, seconds: float) -> bool:
    """Sleep up to `seconds`; whether the run is still on."""
    return not stop.wait(seconds)


def scorer(
    base_url: str, table: TableRun, every: float, stop: threading.Event, tally: Tally
) -> None:
    rng = random.Random(table.seed)
    rules = trick.resolve_rules(PRESET, OPTIONS, PLAYERS)
    deals = random_deals(rules, 1000, seed=table.seed)
    phone = Phone(base_url)
    path = f"/s/{table.scorer}/"
    if not _pause(stop, rng.uniform(0, every)):
        return
    try:
        name_page = tally.record("page", phone.get(path + "name/"))
        token = csrf_token(name_page.text)
        named = {"csrfmiddlewaretoken": token, "name": f"Scorer {table.seed}"}
        tally.record("page", phone.post(path + "name/", named))
        page = tally.record("page", phone.get(path))
        while _pause(stop, rng.uniform(every * 0.5, every * 1.5)):
            form = form_fields(page.text)
            number = int(form.get("number", "0"))
            if not number:
                tally.errors.append(f"{table.public_id}: no deal form on the scorer's page")
                return
            data = deal_post(deals[number - 1], PLAYERS, form)
            saved = _save(phone, path, data, table, tally)
            if saved is None:
                return
            page = saved
            if f"Deal {number} saved" in page.text or f"Deal {number} was already" in page.text:
                table.accepted.append(deals[number - 1])
                table.form_keys.append(data["form_key"])
            else:
                found = _SAVED.search(page.text)
                tally.errors.append(
                    f"{table.public_id}: deal {number} not confirmed"
                    f" ({found.group(0) if found else 'no message'})"
                )
                return
    except ServerGone as error:
        tally.errors.append(f"{table.public_id}: scorer {error}")


def _save(
    phone: Phone, path: str, data: dict[str, str], table: TableRun, tally: Tally
) -> Response | None:
    """Post the deal; on a 5xx or a broken connection post the same form again."""
    for attempt in range(SAVE_TRIES):
        if attempt:
            table.retried_saves += 1
            time.sleep(1)
        try:
            answer = tally.record("save", phone.post(path, data))
        except ServerGone as error:
            tally.errors.append(f"save: {error}")
            continue
        if answer.status >= 500:
            continue
        if answer.status != 302:
            tally.errors.append(f"{table.public_id}: the save was refused (HTTP {answer.status})")
            return None
        return tally.record("page", phone.get(path))
    return None


def watcher(
    base_url: str, table: TableRun, every: float, stop: threading.Event, tally: Tally, seed: int
) -> None:
    rng = random.Random(seed)
    phone = Phone(base_url)
    if not _pause(stop, rng.uniform(0, every)):
        return
    try:
        page = tally.record("page", phone.get(f"/w/{table.watch}/"))
        found = _ETAG.search(page.text)
        etag = found.group(1) if found else ""
        while _pause(stop, rng.uniform(every * 0.8, every * 1.2)):
            answer = phone.get(f"/w/{table.watch}/live/", If_None_Match=etag)
            tally.record("poll 304" if answer.status == 304 else "poll 200", answer)
            etag = answer.headers.get("ETag", etag)
    except ServerGone as error:
        tally.errors.append(f"{table.public_id}: watcher {error}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Command(BaseCommand):
    help = (
        "Run many tables at once against gunicorn on SQLite and PostgreSQL; print throughput, "
        "latency and errors, then check every accepted deal is stored exactly once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--databases", nargs="+", choices=["sqlite", "postgresql"],
            default=["sqlite", "postgresql"],
        )  # fmt: skip
        parser.add_argument("--tables", type=int, default=50)
        parser.add_argument("--watchers", type=int, default=3, help="per table")
        parser.add_argument("--seconds", type=float, default=60)
        parser.add_argument("--deal-every", type=float, default=5, help="seconds, on average")
        parser.add_argument("--poll-every", type=float, default=3, help="seconds")
        parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
        parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
        # The steps run inside a process pointed at the scratch database:
        parser.add_argument("--setup-tables", type=int, help="(internal)")
        parser.add_argument("--verify", action="store_true", help="(internal)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["setup_tables"] is not None:
            self.stdout.write(json.dumps(setup_tables(options["setup_tables"])))
            return
        if options["verify"]:
            self.stdout.write(json.dumps(verify(json.load(sys.stdin))))
            return
        failed = False
        for kind in options["databases"]:
            if kind == "postgresql" and not postgres_answers(options["postgres_url"]):
                self.stdout.write(f"PostgreSQL: no server at {options['postgres_url']}; skipped.")
                continue
            failed |= not self.run(kind, options)
        if failed:
            raise CommandError("The load run had errors or a failed check (see above).")

    def run(self, kind: str, options: dict[str, Any]) -> bool:
        label = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[kind]
        with production_server(
            kind, workers=options["workers"], postgres_url=options["postgres_url"]
        ) as server:
            tables = [
                TableRun(seed=index, **links)
                for index, links in enumerate(
                    json.loads(
                        manage(server.env, "bench_load", "--setup-tables", str(options["tables"]))
                    )
                )  # fmt: skip
            ]
            tally = Tally()
            stop = threading.Event()
            jobs: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
            for table in tables:
                jobs.append((scorer, (server.base_url, table, options["deal_every"], stop, tally)))
                for n in range(options["watchers"]):
                    seed = table.seed * 100 + n
                    every = options["poll_every"]
                    jobs.append((watcher, (server.base_url, table, every, stop, tally, seed)))
            threads = [threading.Thread(target=f, args=a, daemon=True) for f, a in jobs]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            time.sleep(options["seconds"])
            stop.set()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - started
            final = Phone(server.base_url)
            for table in tables:
                table.shown = standings(final.get(f"/w/{table.watch}/live/").text)
            stored = json.loads(
                manage(
                    server.env,
                    "bench_load",
                    "--verify",
                    stdin=json.dumps(
                        {
                            t.public_id: {
                                "deals": [entry_json(d) for d in t.accepted],
                                "form_keys": t.form_keys,
                            }
                            for t in tables
                        }
                    ),
                )  # fmt: skip
            )
            log_errors = [line for line in server.log_text().splitlines() if "[ERROR]" in line]
        return self.report(label, options, tables, tally, elapsed, stored, log_errors)

    def report(
        self,
        label: str,
        options: dict[str, Any],
        tables: list[TableRun],
        tally: Tally,
        elapsed: float,
        stored: dict[str, Any],
        log_errors: list[str],
    ) -> bool:
        out = self.stdout.write
        out(
            f"\n{label} ({stored['server']}), gunicorn {options['workers']} sync workers, "
            f"{len(tables)} tables x (1 scorer + {options['watchers']} watchers), "
            f"deal every ~{options['deal_every']:g} s, poll every {options['poll_every']:g} s, "
            f"{elapsed:.0f} s"
        )
        by_kind: dict[str, list[float]] = defaultdict(list)
        for kind, _status, seconds in tally.samples:
            by_kind[kind].append(seconds * 1000)
            by_kind["all"].append(seconds * 1000)
        out(f"  {'request':<10}{'count':>8}{'per s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
        for kind in ("poll 304", "poll 200", "page", "save", "all"):
            values = by_kind.get(kind)
            if values:
                out(
                    f"  {kind:<10}{len(values):>8}{len(values) / elapsed:>8.1f}"
                    f"{statistics.median(values):>9.1f}{percentile(values, 0.95):>9.1f}"
                    f"{percentile(values, 0.99):>9.1f}"
                )
        errors = tally.errors + log_errors
        out(f"  errors: {len(errors)}; saves retried: {sum(t.retried_saves for t in tables)}")
        for error in errors[:10]:
            out(f"    {error}")
        accepted = sum(len(t.accepted) for t in tables)
        rules = trick.resolve_rules(PRESET, OPTIONS, PLAYERS)
        matching = [t for t in tables if t.shown == trick.score_session(rules, t.accepted).totals]
        out(
            f"  deals accepted: {accepted}; stored: {stored['deals']} "
            f"({stored['exactly_once']} tables hold exactly the accepted deals, once each, "
            f"as entered)"
        )
        out(
            f"  totals shown to watchers = rules package on the scorer's record: "
            f"{len(matching)} of {len(tables)} tables"
        )
        for problem in stored["problems"][:10]:
            out(f"    {problem}")
        return (
            not errors
            and not stored["problems"]
            and stored["exactly_once"] == len(tables)
            and len(matching) == len(tables)
        )


def setup_tables(count: int) -> list[dict[str, str]]:
    owner = User.objects.create_user("bench-owner")
    players = [Player.objects.create(owner=owner, name=name) for name in PLAYERS]
    tables = []
    for number in range(count):
        game = create_session(
            owner=owner, ruleset=PRESET, options=OPTIONS, players=players, title=f"T{number}"
        )
        game.watch_token, game.scorer_token = new_link_token(), new_link_token()
        game.save(update_fields=["watch_token", "scorer_token"])
        tables.append({"public_id": game.public_id, "watch": game.watch_token,
                       "scorer": game.scorer_token})  # fmt: skip
    return tables


def verify(expected: dict[str, dict[str, list[Any]]]) -> dict[str, Any]:
    """Compare what is stored with what the scorers saw accepted."""
    problems: list[str] = []
    exactly_once = stored = 0
    for game in GameSession.objects.prefetch_related("seats__player", "deals__hands"):
        wanted = expected.get(game.public_id, {"deals": [], "form_keys": []})
        entries = [entry_json(entry) for entry in deal_entries(game)]
        stored += len(entries)
        keys = list(
            Change.objects.filter(session=game, action="added").values_list("form_key", flat=True)
        )
        if entries != wanted["deals"]:
            problems.append(
                f"{game.title}: {len(entries)} deals stored, {len(wanted['deals'])} accepted"
                " (or they differ)"
            )
        elif sorted(keys) != sorted(wanted["form_keys"]):
            problems.append(f"{game.title}: the history's saves differ from the scorer's")
        else:
            exactly_once += 1
    with connection.cursor() as cursor:
        cursor.execute("select version()" if connection.vendor != "sqlite" else
                       "select 'SQLite ' || sqlite_version()")  # fmt: skip
        server = cursor.fetchone()[0].split(" on ")[0]
    return {"deals": stored, "exactly_once": exactly_once, "problems": problems, "server": server}
