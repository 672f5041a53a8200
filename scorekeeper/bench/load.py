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
import os
import random
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from django.contrib.auth.models import User

from scorekeeper.bench.phone import (
    Phone,
    Response,
    ServerGone,
    csrf_token,
    deal_post,
    form_fields,
)
from scorekeeper.bench.server import (
    Gunicorn,
    database_server,
)
from scorekeeper.bench.sessions import random_deals
from scorekeeper.models import Change, GameSession, Player, new_link_token
from scorekeeper.rules import trick
from scorekeeper.services import create_session

PRESET = "parlett-jokerless"
PLAYERS = ("Ann", "Ben", "Cat")
OPTIONS: dict[str, object] = {"match": {"type": "deals", "deals": 999}}
RETRIES = 10  # a request given up after ten tries, a second apart
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
    failures: list[str] = field(default_factory=list)  # 5xx and broken connections, retried
    gave_up: list[str] = field(default_factory=list)  # what a phone could not get done

    def record(self, kind: str, response: Response) -> Response:
        self.samples.append((kind, response.status, response.seconds))
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


def _pause(stop: threading.Event, seconds: float) -> bool:
    """Sleep up to `seconds`; whether the run is still on."""
    return not stop.wait(seconds)


def ask(call: Callable[[], Response], kind: str, tally: Tally) -> Response | None:
    """A request as a person at the table makes it: after a 5xx or a broken connection,
    the same again a second later (a deal form keeps its idempotency key)."""
    for attempt in range(RETRIES):
        if attempt:
            time.sleep(1)
        try:
            answer = tally.record(kind, call())
        except ServerGone as error:
            tally.failures.append(f"{kind}: {error}")
            continue
        if answer.status < 500:
            return answer
    return None


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
    name_page = ask(lambda: phone.get(path + "name/"), "page", tally)
    named = {"csrfmiddlewaretoken": csrf_token(name_page.text if name_page else ""),
             "name": f"Scorer {table.seed}"}  # fmt: skip
    page = ask(lambda: phone.post(path + "name/", named), "page", tally) and ask(
        lambda: phone.get(path), "page", tally
    )
    while page and _pause(stop, rng.uniform(every * 0.5, every * 1.5)):
        number = int(form_fields(page.text).get("number", "0"))
        if not number:
            break
        data = deal_post(deals[number - 1], PLAYERS, form_fields(page.text))
        sent = ask(partial(phone.post, path, data), "save", tally)
        if not sent or sent.status != 302:
            break
        page = ask(lambda: phone.get(path), "page", tally)
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


def watcher(
    base_url: str, table: TableRun, every: float, stop: threading.Event, tally: Tally, seed: int
) -> None:
    rng = random.Random(seed)
    phone = Phone(base_url)
    if not _pause(stop, rng.uniform(0, every)):
        return
    page = ask(lambda: phone.get(f"/w/{table.watch}/"), "page", tally)
    found = _ETAG.search(page.text) if page else None
    etag = found.group(1) if found else ""
    while _pause(stop, rng.uniform(every * 0.8, every * 1.2)):
        try:  # a poll that fails is simply made again at the next tick, as live.js does
            answer = phone.get(f"/w/{table.watch}/live/", If_None_Match=etag)
        except ServerGone as error:
            tally.failures.append(f"poll: {error}")
            continue
        tally.record("poll 304" if answer.status == 304 else "poll 200", answer)
        if answer.status == 200:
            etag = answer.headers.get("ETag", etag).removeprefix("W/")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def phones(
    base_url: str,
    tables: list[TableRun],
    stop: threading.Event,
    tally: Tally,
    options: dict[str, Any],
) -> Iterator[tuple[Callable[..., None], tuple[Any, ...]]]:
    """Each table's scorer and watchers, as (function, arguments) for a thread."""
    for table in tables:
        yield scorer, (base_url, table, options["deal_every"], stop, tally)
        for n in range(options["watchers"]):
            seed = table.seed * 100 + n
            yield watcher, (base_url, table, options["poll_every"], stop, tally, seed)


@dataclass
class Faults:
    """Faults made during the run, when asked for: workers killed, PostgreSQL restarted."""

    server: Gunicorn
    options: dict[str, Any]
    done: list[str] = field(default_factory=list)

    def during(self, seconds: float, stop: threading.Event) -> None:
        every, restart = self.options["kill_workers_every"], self.options["restart"]
        started = time.monotonic()
        next_kill = every or seconds + 1
        restarted = not restart
        while (now := time.monotonic() - started) < seconds:
            if now >= next_kill:
                workers = sorted(self.server.worker_pids())
                if workers:
                    os.kill(random.choice(workers), signal.SIGKILL)
                    self.done.append(f"a worker killed at {now:.0f} s")
                next_kill += every
            if not restarted and now >= seconds / 2:
                restarted = True
                took = time.monotonic()
                subprocess.run(restart, shell=True, check=True, capture_output=True)
                self.done.append(
                    f"PostgreSQL restarted at {now:.0f} s ({time.monotonic() - took:.1f} s)"
                )
            stop.wait(0.2)


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
        entries = [entry_json(entry) for entry in game.entries()]
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
