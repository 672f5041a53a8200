"""manage.py bench_night: a club night of many tables at real pace (bench.night).

The night's scale goal: 100 tables (300 players) on the laptop from `scripts/run`, the room's
leaderboard updated within 1 s of a save, and a round seated in under 1 s.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from typing import Any

import aiohttp
from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.cpu import CpuMeter, cpu_line, named, process_tree
from bench.load import BARE_REQUESTS, Faults, Tally, bare_cost, entry_json, loop_lag
from bench.load import percentile as pct
from bench.management.commands.bench_load import REAL_PACE, run_apart
from bench.night import (
    POLL_SECONDS,
    ROUNDS,
    Screen,
    TableRun,
    after_run,
    scorer,
    screen,
    setup_night,
    update_delays,
)
from bench.phone import AsyncPhone, phone_client
from bench.server import DEFAULT_POSTGRES, app_servers, manage, postgres_answers

RAMP = 30.0  # seconds: every table's scorer has scanned its card this long after the seating


class Command(BaseCommand):
    help = (
        "Play a club night at real pace against the server as scripts/run starts it: seating "
        "times, saves, the room's leaderboard after each save, the app's CPU per request."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=100, help="tables of 3 (default 100)")
        parser.add_argument("--deals", type=int, default=9, help="deals a round (default 9)")
        parser.add_argument(
            "--seconds", type=float, default=120.0, help="the phones play this long"
        )
        parser.add_argument(
            "--database", choices=["sqlite", "postgresql"], default="sqlite",
            help="scripts/run serves SQLite (default)",
        )  # fmt: skip
        parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
        parser.add_argument(
            "--deal-every", type=float, default=REAL_PACE["deal_every"],
            help="seconds a table takes for a deal, on average (from half to one and a half "
            "times it; default bench_load's real pace, %(default)g)",
        )  # fmt: skip
        parser.add_argument(
            "--pace", type=float, default=1.0,
            help="time compressed this many times for the tables (deals and joining), not for "
            "the screens' polls (default 1: real pace)",
        )  # fmt: skip
        parser.add_argument("--watchers", type=int, default=10, help="phones on the watch link")
        parser.add_argument(
            "--workers", type=int, default=2,
            help="gunicorn's asyncio workers (default 2, as scripts/run's WEB_CONCURRENCY)",
        )  # fmt: skip
        parser.add_argument("--setup", action="store_true", help="(internal)")
        parser.add_argument("--after", metavar="WATCH", help="(internal)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["setup"]:
            self.stdout.write(json.dumps(setup_night(options["tables"], options["deals"])))
            return
        if options["after"]:
            self.stdout.write(json.dumps(after_run(json.load(sys.stdin), options["after"])))
            return
        kind = options["database"]
        if kind == "postgresql" and not postgres_answers(options["postgres_url"]):
            raise CommandError(f"No PostgreSQL server answers at {options['postgres_url']}.")
        if not self.run(kind, options):
            raise CommandError("The night had errors or a failed check (see above).")

    def run(self, kind: str, options: dict[str, Any]) -> bool:
        out = self.stdout.write
        with app_servers(
            kind, workers=options["workers"], postgres_url=options["postgres_url"], push="table"
        ) as (base_url, servers, _proxy):
            env = servers[0].env
            made = json.loads(
                manage(env, "bench_night", "--setup", f"--tables={options['tables']}",
                       f"--deals={options['deals']}")
            )  # fmt: skip
            tables = [
                TableRun(t["public_id"], t["card"], tuple(t["players"]), t["seed"])
                for t in made["tables"]
            ]
            groups: dict[str, Any] = {"gunicorn": lambda: process_tree(servers[0].process.pid)}
            if kind == "postgresql":
                groups["PostgreSQL (all its processes)"] = lambda: named("postgres")
            bare = run_apart(bare_cost(base_url, CpuMeter({"gunicorn": groups["gunicorn"]})))
            meter = CpuMeter(groups)
            tally = Tally()
            screens = [Screen("display")] + [
                Screen(f"phone {n}") for n in range(options["watchers"])
            ]
            elapsed, used = run_apart(
                play(base_url, made["watch"], tables, screens, options, meter, tally)
            )
            expected = {t.public_id: {"deals": [entry_json(d) for d in t.accepted],
                                      "form_keys": t.form_keys} for t in tables}  # fmt: skip
            checked = json.loads(
                manage(
                    env, "bench_night", f"--after={made['watch']}", stdin=json.dumps(expected)
                )  # a token may start with '-'
            )
            log = servers[0].log_text().splitlines()
            log_errors = [line for line in log if "[ERROR]" in line]
            # The 503s' cause, as the app logs it (a warning: the phone retries).
            log_errors += [line for line in log if "Database unavailable" in line][:3]
        label = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[kind]
        out(
            f"\n{label}, gunicorn {options['workers']} asyncio workers as scripts/run serves; "
            f"a night of {len(tables)} tables of 3 ({3 * len(tables)} players), {options['deals']} "
            f"deals a round, {ROUNDS} rounds, placement"
        )
        times = made["times"]
        out(
            f"  seating: round 1 start_round {times['start_round 1'] * 1000:.0f} ms; round 2 "
            f"(after round 1 was played, {made['played']} deals through the services in "
            f"{times['round 1 played']:.1f} s) start_round {times['start_round 2'] * 1000:.0f} ms"
        )
        out(
            f"  the seating of round 2 alone (median of 3): plan of {ROUNDS} rounds "
            f"(the whole night at once) {times['plan'] * 1000:.0f} ms, seat_round against "
            f"round 1 (what start_round seats round 2 by) {times['seat_round'] * 1000:.0f} ms; "
            f"the history read {times['history read'] * 1000:.0f} ms"
        )
        pace = options["pace"]
        out(
            f"  round 2 at {'real pace' if pace == 1 else f'{pace:g}x real pace'}: a scorer phone "
            f"a table (scans its card within {RAMP / pace:g} s, names itself, a deal every "
            f"~{options['deal_every'] / pace:g} s), 1 display and {options['watchers']} phones "
            f"on the watch link, each with the night's event stream open and its region asked "
            f"for when the stream names a new version (every {POLL_SECONDS} s without a "
            f"stream); {elapsed:.0f} s"
        )
        return self.report(tally, tables, screens, checked, used, bare, elapsed, log_errors)

    def report(
        self,
        tally: Tally,
        tables: list[TableRun],
        screens: list[Screen],
        checked: dict[str, Any],
        used: dict[str, float],
        bare: float | None,
        elapsed: float,
        log_errors: list[str],
    ) -> bool:
        out = self.stdout.write
        by_kind: dict[str, list[float]] = defaultdict(list)
        for kind, _status, seconds, _ended, _upstream in tally.samples:
            by_kind[kind].append(seconds * 1000)
        out(f"  {'request':<10}{'count':>8}{'per s':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
        for kind in ("save", "page", "poll 200", "poll 304"):
            values = by_kind.get(kind)
            if values:
                out(
                    f"  {kind:<10}{len(values):>8}{len(values) / elapsed:>8.1f}"
                    f"{statistics.median(values):>9.1f}{pct(values, 0.99):>9.1f}"
                    f"{max(values):>9.1f}"
                )
        saves = [saved for table in tables for saved in table.saved_at]
        polls = len(by_kind["poll 200"]) + len(by_kind["poll 304"])
        share = len(by_kind["poll 304"]) / polls if polls else 0.0
        out(f"  saves: {len(saves)}; polls answered 304: {share:.1%} of {polls}")
        for name, shown in (
            ("the display", screens[:1]),
            (f"the {len(screens) - 1} phones", screens[1:]),
        ):
            delays = [d * 1000 for s in shown for d in update_delays(saves, s.polls)]
            if delays:
                late = sum(1 for delay in delays if delay > 1000)
                out(
                    f"  leaderboard on {name} after a save's answer: p50 "
                    f"{statistics.median(delays):.0f} ms, p99 {pct(delays, 0.99):.0f} ms, "
                    f"max {max(delays):.0f} ms "
                    f"({len(delays)} saves; {late} over 1 s)"
                )
        out(
            f"  the board at the run's last version ({checked['sessions']} tables' sessions, "
            f"median of 3): read from its stored lines {checked['board read'] * 1000:.1f} ms; "
            f"its lines worked out again from every table (a save that changes a table's "
            f"result does this in its transaction) {checked['lines refreshed'] * 1000:.1f} ms; "
            f"the night's version read {checked['version_seconds'] * 1000:.1f} ms"
        )
        out(f"  {cpu_line(used)}")
        answered = len(tally.samples)
        app = used.get("gunicorn", 0.0)
        if answered:
            each = app / answered
            weighed = (
                f" = {each / bare:.1f}x a bare view ({bare * 1000:.2f} ms each, "
                f"{BARE_REQUESTS} asked for before the run)"
                if bare
                else ""
            )
            out(f"  app's CPU per request: {each * 1000:.1f} ms{weighed} ({answered} requests)")
        if tally.lags:
            lags = [lag * 1000 for lag in tally.lags]
            out(
                f"  the load client's event loop, late waking a task: p50 "
                f"{statistics.median(lags):.1f} ms, p99 {pct(lags, 0.99):.1f} ms"
            )
        out(
            f"  errors: {len(tally.failures)} (5xx or broken connections); given up: "
            f"{len(tally.gave_up)}; gunicorn log errors: {len(log_errors)}"
        )
        kinds = Counter(problem.split(":")[0] for problem in tally.failures)
        for kind, count in kinds.most_common(5):
            out(f"    {count} × {kind}: {next(p for p in tally.failures if p.startswith(kind))}")
        for problem in (tally.gave_up + log_errors)[:10]:
            out(f"    {problem}")
        accepted = sum(len(table.accepted) for table in tables)
        out(
            f"  deals accepted: {accepted}; stored in round 2: {checked['stored']} "
            f"({len(tables) - len(checked['problems'])} of {len(tables)} tables hold exactly the "
            f"accepted deals, once each)"
        )
        for problem in checked["problems"][:10]:
            out(f"    {problem}")
        return not (tally.failures or tally.gave_up or log_errors or checked["problems"])


async def play(
    base_url: str,
    watch: str,
    tables: list[TableRun],
    screens: list[Screen],
    options: dict[str, Any],
    meter: CpuMeter,
    tally: Tally,
) -> tuple[float, dict[str, float]]:
    """Every table's scorer and every screen for `options["seconds"]`, in this one process:
    the seconds taken until the last phone's last answer, and the CPU seconds used by whom."""
    stop = asyncio.Event()
    clients = []

    def phone() -> AsyncPhone:
        clients.append(phone_client())
        return AsyncPhone(clients[-1], base_url)

    def stream() -> aiohttp.ClientSession:  # a screen's second connection: its event stream
        clients.append(phone_client(timeout=None, stream=True))
        return clients[-1]

    pace, every = options["pace"], options["deal_every"] / options["pace"]
    try:
        jobs = [scorer(phone(), table, every, RAMP / pace, options["deals"], stop, tally)
                for table in tables]  # fmt: skip
        jobs += [
            screen(phone(), stream(), watch, f"/n/{watch}/", shown, n / len(screens), stop, tally)
            for n, shown in enumerate(screens)
        ]
        meter.start()
        tally.started = time.monotonic()
        tasks = [asyncio.create_task(job) for job in [*jobs, loop_lag(stop, tally)]]
        await Faults([], {"kill_workers_every": 0, "restart": ""}, meter).during(
            options["seconds"], stop, tally.started
        )
        stop.set()
        await asyncio.gather(*tasks)
        used = meter.stop()
        return time.monotonic() - tally.started, used
    finally:
        await asyncio.gather(*(client.close() for client in clients))
