"""manage.py bench_load: see scorekeeper.bench.load."""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time
from collections import defaultdict
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.bench.load import (
    OPTIONS,
    PLAYERS,
    PRESET,
    Faults,
    TableRun,
    Tally,
    entry_json,
    percentile,
    phones,
    setup_tables,
    verify,
)
from scorekeeper.bench.phone import (
    Phone,
    standings,
)
from scorekeeper.bench.server import (
    add_database_options,
    database_kinds,
    manage,
    production_server,
)
from scorekeeper.rules import trick


class Command(BaseCommand):
    help = (
        "Run many tables at once against gunicorn on SQLite and PostgreSQL; print throughput, "
        "latency and errors, then check every accepted deal is stored exactly once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_database_options(parser)
        parser.add_argument("--tables", type=int, default=50)
        parser.add_argument("--watchers", type=int, default=3, help="per table")
        parser.add_argument("--seconds", type=float, default=60)
        parser.add_argument("--deal-every", type=float, default=5, help="seconds, on average")
        parser.add_argument("--poll-every", type=float, default=3, help="seconds")
        parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
        parser.add_argument(
            "--kill-workers-every", type=float, default=0, metavar="SECONDS",
            help="SIGKILL a random gunicorn worker this often (0: never)",
        )  # fmt: skip
        parser.add_argument(
            "--restart", default="", metavar="COMMAND",
            help="a shell command that restarts PostgreSQL, run once half way "
            "(e.g. 'pg_ctlcluster 15 main restart')",
        )  # fmt: skip
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
        for kind in database_kinds(options, self.stdout.write):
            failed |= not self.run(kind, options)
        if failed:
            raise CommandError("The load run had errors or a failed check (see above).")

    def run(self, kind: str, options: dict[str, Any]) -> bool:
        label = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[kind]
        with production_server(
            kind, workers=options["workers"], postgres_url=options["postgres_url"]
        ) as server:
            made = manage(server.env, "bench_load", "--setup-tables", str(options["tables"]))
            tables = [TableRun(seed=n, **links) for n, links in enumerate(json.loads(made))]
            tally = Tally()
            stop = threading.Event()
            jobs = phones(server.base_url, tables, stop, tally, options)
            threads = [threading.Thread(target=f, args=a, daemon=True) for f, a in jobs]
            faults = Faults(server, options if kind == "postgresql" else options | {"restart": ""})
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            faults.during(options["seconds"], stop)
            stop.set()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - started
            final = Phone(server.base_url)
            for table in tables:
                table.shown = standings(final.get(f"/w/{table.watch}/live/").text)
            expected = {t.public_id: {"deals": [entry_json(d) for d in t.accepted],
                                      "form_keys": t.form_keys} for t in tables}  # fmt: skip
            stored = json.loads(
                manage(server.env, "bench_load", "--verify", stdin=json.dumps(expected))
            )
            log_errors = [line for line in server.log_text().splitlines() if "[ERROR]" in line]
        return self.report(label, options, tables, tally, elapsed, stored, log_errors, faults)

    def report(
        self,
        label: str,
        options: dict[str, Any],
        tables: list[TableRun],
        tally: Tally,
        elapsed: float,
        stored: dict[str, Any],
        log_errors: list[str],
        faults: Faults,
    ) -> bool:
        out = self.stdout.write
        out(
            f"\n{label} ({stored['server']}), gunicorn {options['workers']} sync workers, "
            f"{len(tables)} tables x (1 scorer + {options['watchers']} watchers), "
            f"deal every ~{options['deal_every']:g} s, poll every {options['poll_every']:g} s, "
            f"{elapsed:.0f} s"
        )
        if faults.done:
            out(f"  faults made: {'; '.join(faults.done)}")
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
        out(
            f"  errors: {len(tally.failures)} (5xx or broken connections, each tried again); "
            f"given up: {len(tally.gave_up)}; gunicorn log errors: {len(log_errors)}"
        )
        for problem in (tally.gave_up + tally.failures + log_errors)[:10]:
            out(f"    {problem}")
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
        clean = faults.done or not (tally.failures or log_errors)  # errors only from faults
        return (
            clean
            and not tally.gave_up
            and not stored["problems"]
            and stored["exactly_once"] == len(tables)
            and len(matching) == len(tables)
        )
