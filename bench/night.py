"""The club-night benchmark (`manage.py bench_night`): a night of many tables at real pace.

In the scratch database's own process (`setup_night`): an owner, three players a table and a
trick-game night; round 1 seated (timed), played through the services, then the seating of
round 2 timed alone (`rules.plan`, `rules.seat_round`) and round 2 seated (timed). Then, against
the server as `scripts/run` starts it, each table's scorer phone opens its table card's link,
names itself once and saves its deals at a table's pace (`scorer`), while one display and
the room's phones poll the night's watch link every second as its page does (`screen`).

From the save's answer to the leaderboard showing it (`update_delays`): a poll sent after a
save answered reads a version that includes it. If it is a 200, the save is on the screen when
that answer comes; if it is a 304, the screen already showed it, since the last 200.
Afterwards (`after_run`): every accepted deal stored once, and the board worked out anew.
"""

from __future__ import annotations

import asyncio
import datetime
import random
import statistics
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from django.contrib.auth.models import User
from django.core.cache import cache

from bench.load import (
    Tally,
    _listen,
    _pause,
    ask,
    entry_json,
    shown_etag,
    until_poll,
)
from bench.phone import AsyncPhone, ServerGone, csrf_token, deal_post, form_fields
from bench.sessions import random_deals
from scorekeeper.club import nights as club_nights
from scorekeeper.families import TRICK
from scorekeeper.live import nights as live_nights
from scorekeeper.models import Change, GameSession, Player
from scorekeeper.night_models import Night, NightTable
from scorekeeper.rules import night as seating
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal
from scorekeeper.services.nights import create_night, history, start_round

PRESET = "parlett-jokerless"
SIZE = 3  # players a table
ROUNDS = 4
METHOD = "placement"
REPEAT = 3  # the seating alone is timed this many times (the median is shown)
# Pages a scorer's phone asks for (Tally.pages), as the report breaks them down.
TABLE_LINK, NAME_SENT, AFTER_SAVE, NIGHT_PAGE = (
    "table card's link (and its redirects)", "name sent", "scorer's page after a save",
    "watch link's page",
)  # fmt: skip


def _timed[T](job: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    done = job()
    return done, time.perf_counter() - started


def _deals_for(names: tuple[str, ...], count: int, seed: int) -> list[trick.DealEntry]:
    return random_deals(trick.resolve_rules(PRESET, {}, names), count, seed=seed)


def setup_night(tables: int, deals: int) -> dict[str, Any]:
    """The night, round 1 played and round 2 seated; its links and the seating's times (s)."""
    owner = User.objects.create_user("bench-night-owner")
    players = [
        Player.objects.create(owner=owner, name=f"Player {number:03d}")
        for number in range(1, SIZE * tables + 1)
    ]
    today = datetime.datetime.now(datetime.UTC).date()
    night = create_night(
        owner=owner, name="Bench night", played_on=today, family="trick",
        ruleset=PRESET, options={}, least=SIZE, most=SIZE, deals=deals, rounds=ROUNDS,
        method=METHOD, players=players,
    )  # fmt: skip
    times: dict[str, float] = {}
    night, times["start_round 1"] = _timed(lambda: start_round(night=night))
    started = time.perf_counter()
    played = 0
    for session in GameSession.objects.filter(night=night, night_round=1).with_seats():
        seated = tuple(session.player_names())
        for number, entry in enumerate(_deals_for(seated, deals, seed=session.pk), 1):
            add_deal(session=session, number=number, entry=entry, who=Who(owner))
            played += 1
    times["round 1 played"] = time.perf_counter() - started
    names = [player.name for player in players]
    before, times["history read"] = _timed(lambda: history(night, 2))
    for name, job in {
        "plan": lambda: seating.plan(sorted(names), SIZE, ROUNDS, seed=night.pk),
        "seat_round": lambda: seating.seat_round(names, SIZE, before, seed=night.pk + 2),
    }.items():
        times[name] = statistics.median(_timed(job)[1] for _ in range(REPEAT))
    night, times["start_round 2"] = _timed(lambda: start_round(night=night))
    cards = {table.number: table.scorer_token for table in NightTable.objects.filter(night=night)}
    return {
        "watch": night.watch_token,
        "played": played,
        "times": times,
        "tables": [
            {
                "public_id": session.public_id,
                "card": cards[session.night_table or 0],
                "players": list(session.player_names()),
                "seed": session.pk,
            }
            for session in GameSession.objects.filter(night=night, night_round=2)
            .with_seats()
            .order_by("night_table")
        ],
    }


def after_run(expected: dict[str, dict[str, list[Any]]], watch: str) -> dict[str, Any]:
    """Whether each table of round 2 stores exactly the deals its scorer saw accepted (by
    their form keys, once each); what the board costs now: read from its stored lines (a
    worker's first board at a new version), and its lines worked out again from every table
    (what a save that changes a table's result adds to its transaction)."""
    problems: list[str] = []
    stored = 0
    night = Night.objects.get(watch_token=watch)
    for session in GameSession.objects.filter(night=night, night_round=2).with_seats():
        wanted = expected.get(session.public_id, {"deals": [], "form_keys": []})
        entries = [entry_json(entry) for entry in TRICK.entries(session)]
        stored += len(entries)
        keys = Change.objects.filter(session=session, action="added").values_list(
            "form_key", flat=True
        )
        if entries != wanted["deals"] or sorted(keys) != sorted(wanted["form_keys"]):
            problems.append(
                f"table {session.night_table}: {len(entries)} deals stored, "
                f"{len(wanted['deals'])} accepted (or they differ)"
            )
    at, version_seconds = _timed(lambda: live_nights.version(night))
    reads, refreshes = [], []
    for _ in range(REPEAT):
        cache.clear()
        reads.append(_timed(lambda: live_nights.board(night, at))[1])
        refreshes.append(_timed(lambda: club_nights.refresh(night))[1])
    return {
        "stored": stored,
        "problems": problems,
        "version": at,
        "version_seconds": version_seconds,
        "board read": statistics.median(reads),
        "lines refreshed": statistics.median(refreshes),
        "sessions": GameSession.objects.filter(night=night).count(),
    }


@dataclass
class TableRun:
    """One table of the round the phones play: its links, and what its scorer saw accepted."""

    public_id: str
    card: str  # the table card's token: /t/<card>/
    players: tuple[str, ...]
    seed: int
    accepted: list[trick.DealEntry] = field(default_factory=list)
    form_keys: list[str] = field(default_factory=list)
    saved_at: list[float] = field(default_factory=list)  # when each save's answer came


@dataclass
class Screen:
    """A screen showing the leaderboard: each poll's (sent, answered, status), and each
    version its event stream named, when (`heard_at`)."""

    name: str
    polls: list[tuple[float, float, int]] = field(default_factory=list)
    heard_at: list[tuple[int, float]] = field(default_factory=list)


async def follow(phone: AsyncPhone, path: str, tally: Tally, stop: asyncio.Event) -> Any:
    """A GET and the redirects after it, as a browser follows them: the last answer and path."""
    for _ in range(5):
        answer = await ask(partial(phone.get, path), "page", tally, stop, TABLE_LINK)
        if answer is None or answer.status not in (301, 302, 303):
            return answer, path
        path = urlsplit(answer.headers["location"]).path
    return None, path


async def scorer(
    phone: AsyncPhone,
    table: TableRun,
    every: float,
    ramp: float,
    deals: int,
    stop: asyncio.Event,
    tally: Tally,
) -> None:
    """A table's scorer: scans the table card within `ramp` seconds of the round being seated,
    names itself once, then saves a deal every `every` seconds on average (from half to one and
    a half times it, the first too), until the round's last deal or the run's end."""
    rng = random.Random(table.seed)
    entries = _deals_for(table.players, deals, seed=table.seed)
    if not await _pause(stop, rng.uniform(0, ramp)):
        return
    page, path = await follow(phone, f"/t/{table.card}/", tally, stop)
    if page is not None and "name/" in path:
        named = {"csrfmiddlewaretoken": csrf_token(page.text), "name": f"Scorer {table.seed}"}
        sent = await ask(lambda: phone.post(path, named), "page", tally, stop, NAME_SENT)
        page, path = (
            await follow(phone, path.removesuffix("name/"), tally, stop) if sent else (None, path)
        )
    while page is not None and await _pause(stop, rng.uniform(every * 0.5, every * 1.5)):
        form = form_fields(page.text)
        number = int(form.get("number", "0"))
        if not number:
            tally.gave_up.append(f"table {table.public_id}: no deal form on the scorer's page")
            return
        data = deal_post(entries[number - 1], table.players, form)
        answer = await ask(partial(phone.post, path, data), "save", tally)
        if answer is None or answer.status != 302:
            tally.gave_up.append(f"table {table.public_id}: deal {number} not saved")
            return
        table.saved_at.append(time.monotonic())
        page = await ask(lambda: phone.get(path), "page", tally, page=AFTER_SAVE)
        shown = form_fields(page.text).get("number") if page else None
        if page is None or (number < deals and shown != str(number + 1)):
            tally.gave_up.append(f"table {table.public_id}: deal {number} not confirmed")
            return
        table.accepted.append(entries[number - 1])
        table.form_keys.append(data["form_key"])
        if number == deals:
            return  # the table's round is over: it waits for the next


async def screen(
    phone: AsyncPhone,
    stream: aiohttp.ClientSession,
    watch: str,
    path: str,
    shown: Screen,
    after: float,
    stop: asyncio.Event,
    tally: Tally,
) -> None:
    """A screen on the night's watch link as a browser with JavaScript shows it
    (static/js/live.js): the page once, the night's event stream open beside it, its `#live`
    region asked for (`If-None-Match` with the ETag shown) when the stream names a new
    version, and polled every POLL_SECONDS while the stream is not open (none while it is)."""
    if not await _pause(stop, after):
        return
    page = await ask(lambda: phone.get(path), "page", tally, stop, NIGHT_PAGE)
    etag = shown_etag(page.text) if page else ""
    news, opened = asyncio.Event(), asyncio.Event()
    events = f"{phone.base_url}/n/{watch}/events/"
    listening = asyncio.create_task(
        _listen(stream, events, shown.heard_at, news, opened, tally, stop)
    )
    loop = asyncio.get_running_loop()
    try:
        while not stop.is_set():
            await until_poll(loop.time() + POLL_SECONDS, news, opened, stop, 1.0)
            if stop.is_set():
                break
            news.clear()
            sent = time.monotonic()
            try:
                answer = await phone.get(path, HX_Request="true", If_None_Match=etag)
            except ServerGone as error:
                tally.failures.append(f"{shown.name} poll: {error}")
                continue
            tally.record(f"poll {answer.status}", answer)
            shown.polls.append((sent, time.monotonic(), answer.status))
            if answer.status == 200:
                etag = answer.headers.get("etag", etag).removeprefix("W/")
    finally:
        listening.cancel()
        with suppress(asyncio.CancelledError):
            await listening


POLL_SECONDS = 3  # views.live: a screen whose stream is not open polls this often


def update_delays(saves: list[float], polls: list[tuple[float, float, int]]) -> list[float]:
    """For each save (when its answer came), seconds until the screen showed it: the answer to
    the first poll sent after it if that is a 200, else (a 304: the screen showed that version
    already) since the last 200, or 0 if that came before the save's answer. Saves with no
    poll sent after them are left out."""
    ordered = sorted(polls)
    delays = []
    for saved in saves:
        index = next((n for n, poll in enumerate(ordered) if poll[0] >= saved), None)
        if index is None:
            continue
        _sent, answered, status = ordered[index]
        if status != 200:
            earlier = [poll[1] for poll in ordered[:index] if poll[2] == 200]
            if not earlier:
                continue
            answered = earlier[-1]
        delays.append(max(0.0, answered - saved))
    return delays
