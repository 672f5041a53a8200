"""The pieces the load benchmark trusts: reading standings off a page, and its checks."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from django.test import Client

from bench.cpu import CpuMeter
from bench.load import (
    OPTIONS,
    PLAYERS,
    PRESET,
    TableRun,
    Tally,
    _fetch_live,
    backed_off,
    entry_json,
    loop_lag,
    setup_tables,
    shown_etag,
    verify,
)
from bench.management.commands.bench_load import run_apart
from bench.phone import Response, deal_post, form_fields, standings
from bench.sessions import random_deals
from scorekeeper.models import GameSession
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal
from tests.stored import compute, deal_entries

RULES = trick.resolve_rules(PRESET, OPTIONS, PLAYERS)
DEALS = random_deals(RULES, 4, seed=7)


def _expected(game: GameSession, deals: list[trick.DealEntry], keys: list[str]) -> dict:
    return {game.public_id: {"deals": [entry_json(d) for d in deals], "form_keys": keys}}


@pytest.mark.django_db
def test_standings_are_read_off_the_watch_page_as_computed(client: Client) -> None:
    setup_tables(1)
    game = GameSession.objects.get()
    for number, deal in enumerate(DEALS, 1):
        add_deal(
            session=game, number=number, entry=deal, who=Who(game.owner, form_key=f"k{number}")
        )
    shown = standings(client.get(f"/w/{game.watch_token}/live/").text)
    assert shown == compute(game).totals == trick.score_session(RULES, DEALS).totals
    assert set(shown) == set(PLAYERS)


@pytest.mark.django_db
def test_the_deal_form_filled_in_by_a_phone_saves_the_deal(client: Client) -> None:
    setup_tables(1)
    game = GameSession.objects.get()
    session = client.session
    session["scorer_names"] = {game.scorer_token: "Dee"}
    session.save()
    path = f"/s/{game.scorer_token}/"
    for deal in DEALS:
        form = form_fields(client.get(path).text)
        assert client.post(path, deal_post(deal, PLAYERS, form)).status_code == 302
    assert [entry_json(d) for d in deal_entries(game)] == [entry_json(d) for d in DEALS]


@pytest.mark.django_db
def test_verify_passes_only_exactly_the_accepted_deals() -> None:
    setup_tables(2)
    first, second = GameSession.objects.order_by("pk")
    for number, deal in enumerate(DEALS[:2], 1):
        add_deal(
            session=first, number=number, entry=deal, who=Who(first.owner, form_key=f"k{number}")
        )
    right = _expected(first, DEALS[:2], ["k1", "k2"])
    report = verify(right)
    assert (report["deals"], report["exactly_once"], report["problems"]) == (2, 2, [])

    missing = _expected(first, DEALS[:3], ["k1", "k2", "k3"])  # accepted, never stored
    extra = _expected(first, DEALS[:1], ["k1"])  # stored, never accepted
    changed = _expected(first, [DEALS[0], DEALS[3]], ["k1", "k2"])  # stored otherwise
    twice = _expected(first, DEALS[:2], ["k1", "k1"])  # one save recorded for two
    elsewhere = right | _expected(second, DEALS[:1], ["k9"])
    for wrong in (missing, extra, changed, twice, elsewhere):
        report = verify(wrong)
        assert report["exactly_once"] == 1, wrong
        assert len(report["problems"]) == 1


@pytest.mark.django_db
def test_a_watcher_polls_with_the_etag_its_page_shows_and_gets_304(client: Client) -> None:
    setup_tables(1)
    game = GameSession.objects.get()
    etag = shown_etag(client.get(f"/w/{game.watch_token}/").text)
    assert etag == f'"v{game.version}"'
    assert (
        client.get(f"/w/{game.watch_token}/live/", headers={"If-None-Match": etag}).status_code
        == 304
    )


def test_the_machine_cores_of_a_window_come_from_the_samples_inside_it() -> None:
    meter = CpuMeter({})
    # (seconds into the run, the machine's busy CPU seconds so far): 1 core, then 2 cores.
    meter.timeline = [(0.0, 0.0), (10.0, 10.0), (20.0, 20.0), (30.0, 40.0), (40.0, 60.0)]
    assert meter.cores(0, 20) == 1.0
    assert meter.cores(20, 40) == 2.0
    assert meter.cores(0, 40) == 1.5
    assert meter.cores(35, 60) is None  # one sample: no span to measure


def test_the_load_client_sees_how_late_its_own_event_loop_runs() -> None:
    """A phone whose answer came while the loop was busy is timed late by as much: a loop
    held for 50 ms shows as one lag of about 50 ms."""

    async def run() -> Tally:
        tally, stop = Tally(), asyncio.Event()
        watching = asyncio.create_task(loop_lag(stop, tally))
        await asyncio.sleep(0.05)
        time.sleep(0.05)  # the loop held, as by thousands of phones' answers at once
        await asyncio.sleep(0.05)
        stop.set()
        await watching
        return tally

    lags = run_apart(run()).lags  # a thread of its own: a browser test may hold this one's loop
    assert len(lags) >= 3
    assert 0.03 <= max(lags) <= 1.0
    assert sorted(lags)[len(lags) // 2] < 0.03  # the others wake about on time


class AnsweringPhone:
    """A phone whose live-region requests get `status` with `headers`, and which notes them."""

    def __init__(self, status: int, headers: dict[str, str]) -> None:
        self.answer = Response(status, headers, b"", 0.002, 0)
        self.asked: list[tuple[str, dict[str, str]]] = []

    async def get(self, path: str, **headers: str) -> Response:
        self.asked.append((path, headers))
        return self.answer


def test_a_shed_poll_is_no_failure_and_the_phone_waits_its_retry_after() -> None:
    table = TableRun(public_id="p", watch="w", scorer="s", seed=1)
    tally = Tally()
    busy = AnsweringPhone(503, {"retry-after": "10", "content-type": "text/plain"})
    shown = run_apart(_fetch_live(busy, table, '"v3"', tally))  # type: ignore[arg-type]
    pushed = run_apart(_fetch_live(busy, table, '"v3"', tally, pushed=True))  # type: ignore[arg-type]
    assert shown == pushed == ('"v3"', 10.0)
    assert [kind for kind, _ in tally.shed] == ["poll", "push"]
    assert not tally.failures and not tally.samples
    assert busy.asked[0] == ("/w/w/live/", {"If_None_Match": '"v3"'})
    # Another 503 (the database out of reach, no Retry-After) is a failure, as before.
    down = AnsweringPhone(503, {})
    assert run_apart(_fetch_live(down, table, '"v3"', tally)) == ('"v3"', 0.0)  # type: ignore[arg-type]
    assert tally.failures == ["poll 200: HTTP 503"]
    waits = [backed_off(10.0, random.Random(seed)) for seed in range(200)]
    assert 10.0 <= min(waits) < 11.0 and 14.0 < max(waits) <= 15.0
