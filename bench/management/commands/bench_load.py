"""manage.py bench_load: see bench.load."""

from __future__ import annotations

import asyncio
import json
import resource
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.cpu import CpuMeter, cpu_line, named, process_tree
from bench.load import (
    BARE_REQUESTS,
    OPTIONS,
    PLAYERS,
    PRESET,
    Faults,
    TableRun,
    Tally,
    bare_cost,
    entry_json,
    percentile,
    play,
    setup_tables,
    verify,
)
from bench.server import (
    Gunicorn,
    Nginx,
    add_database_options,
    app_servers,
    connections_made,
    database_kinds,
    manage,
    redis_answers,
)
from scorekeeper.rules import trick

# Unset options take these; --real-pace takes a busy evening's real pace instead.
DEFAULTS = {
    "tables": 50, "watchers": 3, "seconds": 60.0, "deal_every": 5.0, "poll_every": 3.0, "ramp": 0.0,
}  # fmt: skip
REAL_PACE = {
    "tables": 1000, "watchers": 3, "seconds": 180.0, "deal_every": 60.0, "poll_every": 3.0,
    "ramp": 60.0,
}  # fmt: skip
DEFAULT_REDIS = "redis://127.0.0.1:6379/9"


class Command(BaseCommand):
    help = (
        "Run many tables at once against gunicorn on SQLite and PostgreSQL (or two gunicorns "
        "behind nginx, one killed half way); print throughput, latency, errors and who used the "
        "CPU, then check every accepted deal is stored exactly once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_database_options(parser)
        parser.add_argument("--tables", type=int, help=f"default {DEFAULTS['tables']}")
        parser.add_argument("--watchers", type=int, help="per table (default 3)")
        parser.add_argument("--seconds", type=float, help=f"default {DEFAULTS['seconds']:g}")
        parser.add_argument(
            "--deal-every",
            type=float,
            help=f"seconds, on average (default {DEFAULTS['deal_every']:g})",
        )
        parser.add_argument("--poll-every", type=float, help="seconds (default 3)")
        parser.add_argument(
            "--ramp", type=float, metavar="SECONDS",
            help="phones join at random over this long (default: a watcher within its first "
            "poll interval, a scorer within its first deal interval)",
        )  # fmt: skip
        parser.add_argument(
            "--real-pace", action="store_true",
            help="1000 tables, 1 scorer and 3 watchers each, a deal a minute per table, a poll "
            "every 3 s, phones joining over the first 60 s, for 180 s (any of those options "
            "given as well wins)",
        )  # fmt: skip
        parser.add_argument(
            "--workers", type=int, default=8,
            help="gunicorn workers per server (default 8, four per core: a sync worker waits on "
            "the database's round trips and on each phone's closing of its connection)",
        )  # fmt: skip
        parser.add_argument(
            "--servers", type=int, default=1, choices=[1, 2],
            help="app servers; 2: two gunicorns on one PostgreSQL database behind nginx "
            "(bench/nginx.conf), sharing the cache through Redis (--redis-url)",
        )  # fmt: skip
        parser.add_argument(
            "--kill-server-at", type=float, default=0, metavar="SECONDS",
            help="with --servers 2: SIGKILL one app server (master and workers) this far in",
        )  # fmt: skip
        parser.add_argument(
            "--redis-url", default=DEFAULT_REDIS,
            help="the cache the app servers share with --servers 2 or --redis (skipped if none "
            "answers)",
        )  # fmt: skip
        parser.add_argument(
            "--redis", action="store_true",
            help="one app server's workers, too, share their cache through Redis (--redis-url), "
            "as REDIS_URL makes them in production (default: each worker keeps its own)",
        )  # fmt: skip
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
        parser.add_argument(
            "--push",
            choices=["none", "asgi", "table", "split"],
            default="none",
            help="none: gunicorn alone, watchers poll every 3 s; asgi: uvicorn (--workers "
            "processes) serves everything, watchers open an event stream as browsers do and poll "
            "only while it is not open; table: gunicorn's asyncio workers serve everything, as "
            "scripts/run does on game night; split: gunicorn as for none plus one uvicorn for "
            "the streams alone",
        )
        parser.add_argument(
            "--stream-workers", type=int, default=2,
            help="with --push split: the streams' uvicorn processes (default 2, as "
            "docs/DEPLOYMENT.md runs it)",
        )  # fmt: skip
        parser.add_argument("--setup-tables", type=int, help="(internal)")
        parser.add_argument("--verify", action="store_true", help="(internal)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["setup_tables"] is not None:
            self.stdout.write(json.dumps(setup_tables(options["setup_tables"])))
            return
        if options["verify"]:
            self.stdout.write(json.dumps(verify(json.load(sys.stdin))))
            return
        preset = REAL_PACE if options["real_pace"] else DEFAULTS
        for key, value in preset.items():
            if options[key] is None:
                options[key] = value
        if options["kill_server_at"] and options["servers"] < 2:
            raise CommandError("--kill-server-at needs --servers 2 (one to kill, one to carry on).")
        _more_files()
        failed = False
        for kind in database_kinds(options, self.stdout.write):
            if options["servers"] > 1 and kind == "sqlite":
                self.stdout.write("SQLite: several app servers need PostgreSQL; skipped.")
                continue
            failed |= not self.run(kind, options)
        if failed:
            raise CommandError("The load run had errors or a failed check (see above).")

    def run(self, kind: str, options: dict[str, Any]) -> bool:
        label = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[kind]
        redis_url = ""
        if options["servers"] > 1 or options["redis"]:
            if redis_answers(options["redis_url"]):
                redis_url = options["redis_url"]
            else:
                self.stdout.write(
                    f"No Redis at {options['redis_url']}: each app server keeps its own cache."
                )
        with app_servers(
            kind,
            servers=options["servers"],
            workers=options["workers"],
            postgres_url=options["postgres_url"],
            redis_url=redis_url,
            push="" if options["push"] == "none" else options["push"],
            stream_workers=options["stream_workers"],
        ) as (base_url, servers, proxy):
            env = servers[0].env
            if options["push"] != "none":
                # Through nginx when there is one; else where nginx would send them.
                events = [server for server in servers if server.role == "events"]
                options["events_url"] = events[0].base_url if events and not proxy else base_url
            made = manage(env, "bench_load", "--setup-tables", str(options["tables"]))
            tables = [TableRun(seed=n, **links) for n, links in enumerate(json.loads(made))]
            tally = Tally()
            meter = CpuMeter(_cpu_groups(kind, servers, proxy))
            restart = options["restart"] if kind == "postgresql" else ""
            faults = Faults(servers, options | {"restart": restart}, meter)
            app = {name: pids for name, pids in meter.groups.items() if name.startswith(APP)}
            bare = run_apart(bare_cost(base_url, CpuMeter(app)))
            before = connections_made(env)
            elapsed = run_apart(play(base_url, tables, options, faults, tally))
            after = connections_made(env)
            connected = None if before is None or after is None else after - before
            used = faults.used
            expected = {t.public_id: {"deals": [entry_json(d) for d in t.accepted],
                                      "form_keys": t.form_keys} for t in tables}  # fmt: skip
            stored = json.loads(manage(env, "bench_load", "--verify", stdin=json.dumps(expected)))
            log_errors = [
                f"{server.address}: {line}"
                for server in servers
                for line in server.log_text().splitlines()
                if "[ERROR]" in line
            ]
            proxy_log = proxy.log_text() if proxy else ""
        run = Run(
            label, options, tables, tally, elapsed, stored, log_errors, faults, used, proxy_log,
            connections=connected, bare=bare,
        )  # fmt: skip
        return self.report(run, redis_url)

    def report(self, run: Run, redis_url: str) -> bool:
        out, options, tables, tally = self.stdout.write, run.options, run.tables, run.tally
        servers = options["servers"]
        serving = {
            "none": f"gunicorn {options['workers']} sync workers",
            "asgi": f"uvicorn {options['workers']} workers (the whole ASGI app, streams too)",
            "table": f"gunicorn {options['workers']} asyncio workers as scripts/run serves "
            "(the whole ASGI app, streams too)",
            "split": f"gunicorn {options['workers']} sync workers",
        }[options["push"]]
        streams = f"uvicorn {options['stream_workers']} workers for the streams"
        split = options["push"] == "split"
        if servers > 1:
            where = f"{servers} app servers behind nginx, each {serving}"
            where += f", and one {streams}, behind nginx too" if split else ""
            where += f", cache in Redis ({redis_url})" if redis_url else ", each its own cache"
        else:
            where = serving + (f" + {streams}" if split else "")
            where += f", cache in Redis ({redis_url})" if redis_url else ""
        if options["push"] != "none":
            where += "; watchers on push (an event stream each, no polls while it is open)"
        joining = f"phones joining over {options['ramp']:g} s, " if options["ramp"] else ""
        out(
            f"\n{run.label} ({run.stored['server']}), {where}, "
            f"{len(tables)} tables x (1 scorer + {options['watchers']} watchers), "
            f"deal every ~{options['deal_every']:g} s, poll every {options['poll_every']:g} s, "
            f"{joining}{run.elapsed:.0f} s; load client: one asyncio process (aiohttp)"
        )
        if run.faults.done:
            out(f"  faults made: {'; '.join(run.faults.done)}")
        by_kind: dict[str, list[float]] = defaultdict(list)
        for kind, _status, seconds, _ended, _upstream in tally.samples:
            by_kind[kind].append(seconds * 1000)
            if kind != "stream":  # (the time to open it; the stream itself stays open)
                by_kind["all"].append(seconds * 1000)
        for kind, seconds in tally.shed:  # answered 503 at once: apart from "all"
            by_kind[f"shed {kind}"].append(seconds * 1000)
        out(f"  {'request':<10}{'count':>8}{'per s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
        for kind in (
            "poll 304", "poll 200", "push 200", "page", "save", "stream", "all", "shed poll",
            "shed push",
        ):  # fmt: skip
            values = by_kind.get(kind)
            if values:
                out(
                    f"  {kind:<10}{len(values):>8}{len(values) / run.elapsed:>8.1f}"
                    f"{statistics.median(values):>9.1f}{percentile(values, 0.95):>9.1f}"
                    f"{percentile(values, 0.99):>9.1f}"
                )
        pages: dict[str, list[float]] = defaultdict(list)
        for page, seconds in tally.pages:
            pages[page].append(seconds * 1000)
        if pages:
            out(
                "  page p99, by which page (answers): "
                + ", ".join(
                    f"{page} {percentile(values, 0.99):.1f} ms ({len(values)})"
                    for page, values in pages.items()
                )
            )
        # When the slow answers came (the minute the phones join, or the steady pace after).
        windows: dict[int, list[float]] = defaultdict(list)
        for kind, _status, seconds, ended, _upstream in tally.samples:
            if kind != "stream":
                windows[int(ended // WINDOW)].append(seconds * 1000)
        if len(windows) > 1:
            meter = run.faults.meter

            def busy(n: int) -> str:
                cores = meter.cores(n * WINDOW, (n + 1) * WINDOW) if meter else None
                return "" if cores is None else f" ({cores:.2f} cores)"

            out(
                f"  p99 of all, by {WINDOW} s of the run (the machine's busy cores): "
                + ", ".join(
                    f"{n * WINDOW}-{(n + 1) * WINDOW} s {percentile(values, 0.99):.0f} ms{busy(n)}"
                    for n, values in sorted(windows.items())
                )
            )
        # Below zero: the stream had the version before the scorer had the save's answer (on
        # SQLite the commit wakes the streams' watcher, live.wake).
        delays = [
            (heard - table.saved_at[version]) * 1000
            for table in tables
            for version, heard in table.heard_at
            if version in table.saved_at
        ]
        if delays:
            out(
                f"  a saved deal's version on a watcher's stream, from the save's answer: "
                f"{len(delays)} pushes, p50 {statistics.median(delays):.0f} ms, "
                f"p99 {percentile(delays, 0.99):.0f} ms "
                f"({sum(delay < 0 for delay in delays)} before the answer)"
            )
        out(f"  {cpu_line(run.used)}")
        if run.connections is not None:
            out(
                f"  PostgreSQL connections opened during the run: {run.connections:,} (each "
                f"a server process, whose CPU time is not counted above once it has ended)"
            )
        if tally.lags:
            lags = [lag * 1000 for lag in tally.lags]
            out(
                f"  the load client's event loop, late waking a task (it times every answer): "
                f"p50 {statistics.median(lags):.1f} ms, p99 {percentile(lags, 0.99):.1f} ms, "
                f"most {max(lags):.0f} ms"
            )
        # What each answer cost the app, whatever share of the machine the run was given.
        app_seconds = sum(
            seconds for name, seconds in run.used.items() if name.startswith((*APP, "uvicorn"))
        )
        answered = len(tally.samples)
        if answered:
            each = app_seconds / answered
            weighed = (
                f" = {each / run.bare:.1f}x a bare view ({run.bare * 1000:.2f} ms each, "
                f"{BARE_REQUESTS} asked for before the run)"
                if run.bare
                else ""
            )
            out(
                f"  app servers' CPU per request: {each * 1000:.1f} ms{weighed} "
                f"({answered} requests and streams opened); the load client's: "
                f"{run.used.get('load client', 0.0) / answered * 1000:.1f} ms"
            )
        if run.faults.killed_at is not None:
            self.after_kill(run)
        self.shed(run)
        out(
            f"  errors: {len(tally.failures)} (5xx or broken connections, each tried again); "
            f"given up: {len(tally.gave_up)}; gunicorn log errors: {len(run.log_errors)}"
        )
        for problem in (tally.gave_up + tally.failures + run.log_errors)[:10]:
            out(f"    {problem}")
        accepted = sum(len(t.accepted) for t in tables)
        rules = trick.resolve_rules(PRESET, OPTIONS, PLAYERS)
        matching = [t for t in tables if t.shown == trick.score_session(rules, t.accepted).totals]
        out(
            f"  deals accepted: {accepted}; stored: {run.stored['deals']} "
            f"({run.stored['exactly_once']} tables hold exactly the accepted deals, once each, "
            f"as entered)"
        )
        out(
            f"  totals shown to watchers = rules package on the scorer's record: "
            f"{len(matching)} of {len(tables)} tables"
        )
        for problem in run.stored["problems"][:10]:
            out(f"    {problem}")
        clean = run.faults.done or not (tally.failures or run.log_errors)  # only from faults
        return bool(
            clean
            and not tally.gave_up
            and not run.stored["problems"]
            and run.stored["exactly_once"] == len(tables)
            and len(matching) == len(tables)
        )

    def shed(self, run: Run) -> None:
        """What the server shed past its capacity (live-region polls answered 503 with
        Retry-After, scorekeeper/shedding.py), what could not wait meanwhile (the saves), and
        the answers that never came (each tried again, as a phone does)."""
        tally = run.tally
        shed = Counter(kind for kind, _seconds in tally.shed)
        saves = [seconds * 1000 for kind, _s, seconds, _e, _u in tally.samples if kind == "save"]
        timeouts = sum(1 for failure in tally.failures if "Timeout" in failure)
        said = (
            f"{shed.total()} live-region polls answered 503 with Retry-After ({shed['poll']} "
            f"timed polls, {shed['push']} fetches after a stream's news), each phone asking "
            "again after it"
            if shed
            else "nothing"
        )
        saved = (
            f"p50 {statistics.median(saves):.0f} ms, p99 {percentile(saves, 0.99):.0f} ms "
            f"({len(saves)})"
            if saves
            else "none"
        )
        self.stdout.write(
            f"  shed: {said}; saves {saved}; timeouts: {timeouts} (no answer within the "
            "phone's 30 s, each tried again)"
        )

    def after_kill(self, run: Run) -> None:
        """The watchers' polls answered before and after an app server was killed, by server,
        and the requests nginx passed to the other server. A poll counts as after the kill when
        it was sent after it; one in flight across the kill is counted on neither side."""
        killed_at = run.faults.killed_at or 0.0
        polls = [
            ("after" if ended - seconds > killed_at else "before" if ended <= killed_at else "",
             status, upstream.split(",")[-1].strip())
            for kind, status, seconds, ended, upstream in run.tally.samples
            if kind.startswith("poll") and status < 500
        ]  # fmt: skip
        for when in ("before", "after"):
            served = Counter(server for side, _status, server in polls if side == when)
            news = sum(1 for side, status, _server in polls if side == when and status == 200)
            by = ", ".join(f"{count} by {server}" for server, count in sorted(served.items()))
            self.stdout.write(
                f"  {when} the kill at {killed_at:.0f} s: {served.total()} watcher polls "
                f"answered ({news} with a new deal): {by or 'none'}"
            )
        across = sum(1 for side, _status, _server in polls if not side)
        self.stdout.write(f"  in flight across the kill: {across} watcher polls")
        passed = [line for line in run.proxy_log.splitlines() if "[error]" in line]
        self.stdout.write(
            f"  the killed server was {run.faults.killed}; nginx logged {len(passed)} errors "
            "reaching an app server (refused or dropped; each request went on to the other)"
        )


WINDOW = 30  # seconds: the report's p99 over time


def run_apart[T](job: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(job)` in a thread of its own: the caller's thread may already run an event
    loop (Playwright's sync API keeps one in the test process), and asyncio.run refuses that."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="load-client") as pool:
        return pool.submit(asyncio.run, job).result()


@dataclass
class Run:
    """What one database's run gave, for the report."""

    label: str
    options: dict[str, Any]
    tables: list[TableRun]
    tally: Tally
    elapsed: float
    stored: dict[str, Any]
    log_errors: list[str]
    faults: Faults
    used: dict[str, float]
    proxy_log: str
    connections: int | None  # PostgreSQL connections opened during the run
    bare: float | None  # the app servers' CPU seconds per bare view, asked for before the run


APP = ("gunicorn", "app server")  # the groups of the app's own WSGI processes (see _cpu_groups)


def _cpu_groups(kind: str, servers: list[Gunicorn], proxy: Nginx | None) -> dict[str, Any]:
    """Whose CPU time the report shows, besides the load client's own."""
    groups: dict[str, Any] = {}
    for number, server in enumerate(servers, 1):
        name = f"{server.name} ({server.role})" if server.role != "app" else server.name
        if len([s for s in servers if s.role == "app"]) > 1 and server.role == "app":
            name = f"app server {number}"
        groups[name] = lambda pid=server.process.pid: process_tree(pid)
    if proxy:
        groups["nginx"] = lambda: process_tree(proxy.process.pid)
    if kind == "postgresql":
        groups["PostgreSQL (all its processes)"] = lambda: named("postgres")
    return groups


def _more_files() -> None:
    """Thousands of phones' connections: as many open files as this process may have."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
