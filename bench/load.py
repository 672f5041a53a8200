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

import asyncio
import gc
import json
import os
import random
import re
import signal
import subprocess
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from functools import partial
from html import unescape
from pathlib import Path
from typing import Any

import aiohttp
from django.contrib.auth.models import User

from bench.cpu import CpuMeter
from bench.phone import (
    CLIENT_ERRORS,
    AsyncPhone,
    Response,
    ServerGone,
    csrf_token,
    deal_post,
    form_fields,
    phone_client,
    standings,
)
from bench.server import (
    Gunicorn,
    database_server,
)
from bench.sessions import random_deals
from scorekeeper.families import TRICK
from scorekeeper.models import Change, GameSession, Player, new_link_token
from scorekeeper.rules import trick
from scorekeeper.services import create_session

PRESET = "parlett-jokerless"
PLAYERS = ("Ann", "Ben", "Cat")
OPTIONS: dict[str, object] = {"match": {"type": "deals", "deals": 999}}
# The pages a run asks for (its "page" requests), as the report breaks them down.
NAME_PAGE, NAME_SENT = "name page", "name sent"
SCORER_PAGE, AFTER_SAVE = "scorer's page", "scorer's page after a save"
WATCH_PAGE = "watch page"
RETRIES = 10  # a request given up after ten tries, a second apart
_ETAG = re.compile(r"data-etag='([^']*)'")
_SAVED = re.compile(r"Deal (\d+) (?:saved|was already saved)")


def entry_json(entry: trick.DealEntry) -> dict[str, Any]:
    """A deal entry as plain JSON data (tuples become lists), for comparing."""
    data: dict[str, Any] = json.loads(json.dumps(asdict(entry)))
    return data


@dataclass
class Tally:
    """Every request's kind, status, time, when it ended (seconds into the run) and which app
    server answered it (nginx's X-Upstream header, behind the proxy), from every phone."""

    samples: list[tuple[str, int, float, float, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # 5xx and broken connections, retried
    gave_up: list[str] = field(default_factory=list)  # what a phone could not get done
    started: float = field(default_factory=time.monotonic)
    lags: list[float] = field(default_factory=list)  # the client's event loop, late by (s)
    pages: list[tuple[str, float]] = field(default_factory=list)  # (which page, seconds)
    # Live-region polls the server shed (503 with Retry-After): ("poll" a timed one, "push"
    # one after a stream's news; the seconds its answer took). Not failures: the phone waits.
    shed: list[tuple[str, float]] = field(default_factory=list)

    def record(self, kind: str, response: Response, page: str = "") -> Response:
        """Keep an answer; `page` names which page a "page" answer is, for the breakdown."""
        ended = time.monotonic() - self.started
        upstream = response.headers.get("x-upstream", "")
        self.samples.append((kind, response.status, response.seconds, ended, upstream))
        if page:
            self.pages.append((page, response.seconds))
        if response.status >= 500:
            self.failures.append(f"{kind}: HTTP {response.status}")
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
    shown: dict[str, int] = field(default_factory=dict)
    saved_at: dict[int, float] = field(default_factory=dict)  # version: when its save answered
    heard_at: list[tuple[int, float]] = field(default_factory=list)  # (version, when) pushed


async def _pause(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep up to `seconds` (looking at `stop` every 5 s at most); whether the run is still on.
    Plain sleeps: waiting on the event with a timeout costs a task each time."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not stop.is_set() and (left := end - loop.time()) > 0:
        await asyncio.sleep(min(left, 5.0))
    return not stop.is_set()


LAG_TICK = 0.01  # the load client's event loop is looked at this often


async def loop_lag(stop: asyncio.Event, tally: Tally) -> None:
    """How late the load client's own event loop wakes a task that asked to sleep `LAG_TICK`,
    for the whole run: an answer that came while the loop was busy with other phones is timed
    late by about that much, so the report shows it beside the latencies."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + LAG_TICK
        await asyncio.sleep(LAG_TICK)
        tally.lags.append(loop.time() - due)


async def ask(
    call: Callable[[], Awaitable[Response]],
    kind: str,
    tally: Tally,
    stop: asyncio.Event | None = None,
    page: str = "",
) -> Response | None:
    """A request as a person at the table makes it: after a 5xx or a broken connection,
    the same again a second later (a deal form keeps its idempotency key). Given `stop`,
    not again once the run is over (a save, and the page confirming it, are always tried
    again: what was stored must be known). `page` names which page it is (Tally.pages)."""
    for attempt in range(RETRIES):
        if attempt and stop and stop.is_set():
            return None
        if attempt:
            await asyncio.sleep(1)
        try:
            answer = tally.record(kind, await call(), page)
        except ServerGone as error:
            tally.failures.append(f"{kind}: {error}")
            continue
        if answer.status < 500:
            return answer
    return None


async def scorer(
    phone: AsyncPhone,
    table: TableRun,
    every: float,
    stop: asyncio.Event,
    tally: Tally,
    deals: list[trick.DealEntry],
    ramp: float = 0,
) -> None:
    """One table's scorer: names itself, then enters a deal every `every` seconds on average,
    the first too: a deal is entered once it has been played, never the moment a table sits
    down (which put every table's first save, and its watchers' fetches, into the minute the
    phones join)."""
    rng = random.Random(table.seed)
    path = f"/s/{table.scorer}/"
    if not await _pause(stop, rng.uniform(0, ramp or every)):
        return
    name_page = await ask(lambda: phone.get(path + "name/"), "page", tally, stop, NAME_PAGE)
    named = {"csrfmiddlewaretoken": csrf_token(name_page.text if name_page else ""),
             "name": f"Scorer {table.seed}"}  # fmt: skip
    page = await ask(
        lambda: phone.post(path + "name/", named), "page", tally, stop, NAME_SENT
    ) and await ask(lambda: phone.get(path), "page", tally, stop, SCORER_PAGE)
    while page and await _pause(stop, rng.uniform(every * 0.5, every * 1.5)):
        number = int(form_fields(page.text).get("number", "0"))
        if not number:
            break
        data = deal_post(deals[number - 1], PLAYERS, form_fields(page.text))
        sent = await ask(partial(phone.post, path, data), "save", tally)
        if not sent or sent.status != 302:
            break
        saved = time.monotonic()
        page = await ask(lambda: phone.get(path), "page", tally, page=AFTER_SAVE)
        if page and (version := shown_etag(page.text)):
            table.saved_at.setdefault(int(version.strip('"v').split("-")[0]), saved)
        # One scorer per table: the form asking for the next deal means this one is stored
        # (its message may have gone with a worker that died after saving).
        if page and form_fields(page.text).get("number") == str(number + 1):
            table.accepted.append(deals[number - 1])
            table.form_keys.append(data["form_key"])
        else:
            found = _SAVED.search(page.text) if page else None
            tally.gave_up.append(
                f"{table.public_id}: deal {number} not confirmed"
                f" ({found.group(0) if found else 'no message'})"
            )
            return
    if not stop.is_set():
        tally.gave_up.append(f"{table.public_id}: the scorer could not go on")


async def watcher(
    phone: AsyncPhone,
    table: TableRun,
    every: float,
    stop: asyncio.Event,
    tally: Tally,
    seed: int,
    ramp: float = 0,
) -> None:
    """A phone showing the watch link: the page once, then its live standings polled every
    `every` seconds with the ETag it shows, as live.js does."""
    rng = random.Random(seed)
    etag = await _join(phone, table, rng.uniform(0, ramp or every), stop, tally)
    if etag is None:
        return
    while await _pause(stop, rng.uniform(every * 0.8, every * 1.2)):
        etag, wait = await _fetch_live(phone, table, etag, tally)
        while wait and await _pause(stop, backed_off(wait, rng)):  # shed: later, then again
            etag, wait = await _fetch_live(phone, table, etag, tally)


async def _join(
    phone: AsyncPhone, table: TableRun, after: float, stop: asyncio.Event, tally: Tally
) -> str | None:
    """A watcher's phone opening the watch page `after` seconds into the run: the ETag its
    live region shows ("" if the page never came), or None if the run ended first."""
    if not await _pause(stop, after):
        return None
    page = await ask(lambda: phone.get(f"/w/{table.watch}/"), "page", tally, stop, WATCH_PAGE)
    return shown_etag(page.text) if page else ""


async def _fetch_live(
    phone: AsyncPhone, table: TableRun, etag: str, tally: Tally, pushed: bool = False
) -> tuple[str, float]:
    """The live region asked for with the ETag shown, as live.js asks (after a push, or at a
    poll's tick): the ETag shown after, and the seconds the server asked the phone to wait
    before asking again (its `Retry-After` on a shed poll's 503; else 0). One that fails is
    made again at the next news or tick."""
    try:
        answer = await phone.get(f"/w/{table.watch}/live/", If_None_Match=etag)
    except ServerGone as error:
        tally.failures.append(f"poll: {error}")
        return etag, 0.0
    if answer.status == 304:
        tally.record("poll 304", answer)
        return etag, 0.0
    if answer.status == 503 and answer.headers.get("retry-after", "").isdigit():
        tally.shed.append(("push" if pushed else "poll", answer.seconds))
        return etag, float(answer.headers["retry-after"])
    tally.record("push 200" if pushed and answer.status == 200 else "poll 200", answer)
    if answer.status != 200:
        return etag, 0.0
    return answer.headers.get("etag", etag).removeprefix("W/"), 0.0


def backed_off(retry_after: float, rng: random.Random) -> float:
    """How long a phone waits after a shed poll, as live.js does: the server's `Retry-After`
    and up to half as much again, at random, so that the phones shed together come back
    spread out."""
    return retry_after * rng.uniform(1.0, 1.5)


async def until_poll(
    due: float, news: asyncio.Event, opened: asyncio.Event, stop: asyncio.Event, step: float
) -> None:
    """Wait, as static/js/live.js does, for the phone's next request of its live region: the
    stream naming a version (`news`), or the timed poll due at `due` (the loop's time), which
    waits while the stream is open and goes once it is not."""
    loop = asyncio.get_running_loop()
    while not stop.is_set() and not news.is_set():
        left = due - loop.time()
        if left <= 0 and not opened.is_set():
            return
        with suppress(TimeoutError):
            await asyncio.wait_for(news.wait(), min(left, step) if left > 0 else step)


async def push_watcher(
    phone: AsyncPhone,
    stream: aiohttp.ClientSession,
    events_url: str,
    table: TableRun,
    every: float,
    stop: asyncio.Event,
    tally: Tally,
    seed: int,
    ramp: float = 0,
) -> None:
    """A phone showing the watch link as a browser with JavaScript does (static/js/live.js):
    the page once, an event stream (Server-Sent Events) open beside it, the live region
    fetched when the stream names a version it does not show, and no timed poll while the
    stream is open (one every `every` seconds while it is not: refused, lost, or answered
    204)."""
    rng = random.Random(seed)
    etag = await _join(phone, table, rng.uniform(0, ramp or every), stop, tally)
    if etag is None:
        return
    news, opened = asyncio.Event(), asyncio.Event()
    listening = asyncio.create_task(
        _listen(
            stream,
            f"{events_url}/w/{table.watch}/events/",
            table.heard_at,
            news,
            opened,
            tally,
            stop,
        )
    )
    loop = asyncio.get_running_loop()
    try:
        while not stop.is_set():
            due = loop.time() + rng.uniform(every * 0.8, every * 1.2)
            await until_poll(due, news, opened, stop, 5.0)
            if stop.is_set():
                break
            pushed = news.is_set()
            news.clear()
            etag, wait = await _fetch_live(phone, table, etag, tally, pushed)
            while wait and await _pause(stop, backed_off(wait, rng)):  # shed: later, then again
                etag, wait = await _fetch_live(phone, table, etag, tally, news.is_set())
                news.clear()
    finally:
        listening.cancel()
        with suppress(asyncio.CancelledError):
            await listening


async def _listen(
    client: aiohttp.ClientSession,
    url: str,
    heard_at: list[tuple[int, float]],
    news: asyncio.Event,
    opened: asyncio.Event,
    tally: Tally,
    stop: asyncio.Event,
) -> None:
    """The phone's event stream: each version it names is news (and when it was heard, in
    `heard_at`); reconnects 3 s after a loss
    (the stream's `retry`), as EventSource does. A 204 (no stream here) ends it: polls only."""
    while not stop.is_set():
        started = time.perf_counter()
        try:
            async with client.get(url, headers={"Accept": "text/event-stream"}) as got:
                tally.samples.append(("stream", got.status, time.perf_counter() - started,
                                      time.monotonic() - tally.started, ""))  # fmt: skip
                if got.status == 204:
                    return
                if got.status != 200:
                    raise aiohttp.ClientResponseError(
                        got.request_info, (), status=got.status, message=f"HTTP {got.status}"
                    )
                opened.set()
                first = True  # the version when it opened: news to the phone, not a push
                async for raw in got.content:
                    line = raw.decode().strip()
                    if line.startswith("data:") and line[5:].strip().isdigit():
                        if not first:
                            heard_at.append((int(line[5:]), time.monotonic()))
                        first = False
                        news.set()
        except CLIENT_ERRORS as error:
            tally.failures.append(f"stream: {error!r}")
        opened.clear()
        if not await _pause(stop, 3.0):
            return


def shown_etag(html: str) -> str:
    """The ETag a page's live region shows, as the browser reads its data-etag (unescaped)."""
    found = _ETAG.search(html)
    return unescape(found.group(1)) if found else ""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def phones(
    clients: list[aiohttp.ClientSession],
    base_url: str,
    tables: list[TableRun],
    stop: asyncio.Event,
    tally: Tally,
    options: dict[str, Any],
) -> Iterator[Coroutine[Any, Any, None]]:
    """Each table's scorer and watchers, as coroutines, each its own phone (its own HTTP
    client and cookies; the clients are added to `clients`, to be closed after)."""

    def phone() -> AsyncPhone:
        clients.append(phone_client())
        return AsyncPhone(clients[-1], base_url)

    def stream() -> aiohttp.ClientSession:  # the phone's second connection: its event stream
        clients.append(phone_client(timeout=None, stream=True))
        return clients[-1]

    ramp = options.get("ramp") or 0  # phones join over this long (else a poll's or deal's interval)
    rules = trick.resolve_rules(PRESET, OPTIONS, PLAYERS)
    # As many deals as a scorer can enter in the run (made here, not while phones wait).
    count = min(1000, int(options["seconds"] / (options["deal_every"] * 0.5)) + 2)
    for table in tables:
        deals = random_deals(rules, count, seed=table.seed)
        yield scorer(phone(), table, options["deal_every"], stop, tally, deals, ramp)
        for n in range(options["watchers"]):
            seed = table.seed * 100 + n
            if options.get("events_url"):
                yield push_watcher(phone(), stream(), options["events_url"], table,
                                   options["poll_every"], stop, tally, seed, ramp)  # fmt: skip
            else:
                yield watcher(phone(), table, options["poll_every"], stop, tally, seed, ramp)


@dataclass
class Faults:
    """Faults made during the run, when asked for: workers killed, PostgreSQL restarted, one
    of several app servers killed (master and workers) at `kill_server_at` seconds."""

    servers: list[Gunicorn]
    options: dict[str, Any]
    meter: CpuMeter | None = None
    done: list[str] = field(default_factory=list)
    killed_at: float | None = None  # seconds into the run, when an app server was killed
    killed: str = ""  # its address
    used: dict[str, float] = field(default_factory=dict)  # CPU seconds by whom (meter.stop())

    async def during(self, seconds: float, stop: asyncio.Event, started: float) -> None:
        """The faults asked for, at their times, `started` being the run's start (monotonic)."""
        every, restart = self.options["kill_workers_every"], self.options["restart"]
        kill_server_at = self.options.get("kill_server_at") or 0
        next_kill = every or seconds + 1
        restarted = not restart
        server_killed = not (kill_server_at and len(self.servers) > 1)
        while (now := time.monotonic() - started) < seconds:
            if now >= next_kill:
                workers = sorted(
                    pid for server in self.servers if server.process.poll() is None
                    for pid in server.worker_pids()
                )  # fmt: skip
                if workers:
                    os.kill(random.choice(workers), signal.SIGKILL)
                    self.done.append(f"a worker killed at {now:.0f} s")
                next_kill += every
            if not restarted and now >= seconds / 2:
                restarted = True
                took = time.monotonic()
                await asyncio.to_thread(
                    subprocess.run, restart, shell=True, check=True, capture_output=True
                )
                self.done.append(
                    f"PostgreSQL restarted at {now:.0f} s ({time.monotonic() - took:.1f} s)"
                )
            if not server_killed and now >= kill_server_at:
                server_killed = True
                self.kill_server(self.servers[0], started)
            if self.meter:
                self.meter.sample()
            await _pause(stop, 0.5)

    def kill_server(self, server: Gunicorn, started: float) -> None:
        """SIGKILL to an app server's master and every worker, as a machine that dies. The
        time kept is taken once every signal is sent: a request sent later cannot reach it."""
        if self.meter:
            self.meter.sample()  # what it used up to now still counts
        pids = [server.process.pid, *sorted(server.worker_pids())]
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        server.process.wait()
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and any(_alive(pid) for pid in pids[1:]):
            time.sleep(0.005)  # its workers (not our children) die a moment later
        now = time.monotonic() - started
        self.killed_at, self.killed = now, server.address
        self.done.append(
            f"app server {server.address} killed at {now:.0f} s "
            f"(SIGKILL to its master and {len(pids) - 1} workers)"
        )


def _alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


BARE_REQUESTS = 1000  # bare views asked for before a run, to weigh its cost per request


async def bare_cost(base_url: str, app: CpuMeter, count: int = BARE_REQUESTS) -> float | None:
    """The app servers' CPU seconds per answer of the bare view (/healthz/, through the whole
    middleware stack, as bench_instructions measures it), asked for `count` times, eight at a
    time, before the run and after a quarter as many to warm up: what an answer costs on this
    machine now. The run's cost per request is given against it, as a machine shared with
    others is faster on some runs than on others. None if any answer failed."""
    failed = False

    async def ask(client: aiohttp.ClientSession, times: int) -> None:
        nonlocal failed
        for _ in range(times):
            try:
                async with client.get(f"{base_url}/healthz/") as answer:
                    await answer.read()
                    failed = failed or answer.status != 200
            except CLIENT_ERRORS:
                failed = True

    async with aiohttp.ClientSession() as client:
        # Each worker's first answers import and set up what it serves (a tenth of a second
        # each): not what an answer costs.
        await asyncio.gather(*(ask(client, count // 32) for _ in range(8)))
        app.start()
        await asyncio.gather(*(ask(client, count // 8) for _ in range(8)))
        used = app.stop()
    served = sum(seconds for name, seconds in used.items() if name in app.groups)
    return None if failed else served / (count // 8 * 8)


async def play(
    base_url: str, tables: list[TableRun], options: dict[str, Any], faults: Faults, tally: Tally
) -> float:
    """Every table's phones for `options["seconds"]`, in this one process; the seconds taken
    (until the last phone's last answer). Then each table's standings, read as a watcher."""
    stop = asyncio.Event()
    clients: list[aiohttp.ClientSession] = []
    automatic = gc.get_threshold()
    try:
        jobs = list(phones(clients, base_url, tables, stop, tally, options))
        # Thousands of phones' clients and deals, made now and kept all run: out of the
        # collector's reach. What the phones keep from then on (their connections, streams and
        # timings: 180,000 objects by the run's 50th second) would still bring a full
        # collection, a tenth of a second in which every answer in flight is timed late: none
        # until the run ends (what it leaves in cycles waits until then).
        gc.collect()
        gc.freeze()
        gc.set_threshold(automatic[0], automatic[1], 2**31 - 1)
        if faults.meter:
            faults.meter.start()
        tally.started = time.monotonic()
        tasks = [asyncio.create_task(job) for job in [*jobs, loop_lag(stop, tally)]]
        await faults.during(options["seconds"], stop, tally.started)
        stop.set()
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - tally.started
        if faults.meter:
            faults.used = faults.meter.stop()
        final = AsyncPhone(clients[0], base_url)
        for table in tables:
            table.shown = standings((await final.get(f"/w/{table.watch}/live/")).text)
    finally:
        gc.set_threshold(*automatic)
        await asyncio.gather(*(client.close() for client in clients))
    return elapsed


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
    for game in GameSession.objects.with_seats():
        wanted = expected.get(game.public_id, {"deals": [], "form_keys": []})
        entries = [entry_json(entry) for entry in TRICK.entries(game)]
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
    return {
        "deals": stored,
        "exactly_once": exactly_once,
        "problems": problems,
        "server": database_server(),
    }
