"""The event stream of a watch or scorer link (Server-Sent Events): its version now and at each
change, under an ASGI server; a WSGI server answers 204 so that the phone keeps polling."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.db import connections
from django.db.backends.signals import connection_created
from django.test import AsyncClient, Client

from scorekeeper import events
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.services import add_deal, create_session

pytestmark = pytest.mark.django_db(transaction=True)  # the watcher reads from its own thread


def _apart[T](call: Callable[[], T]) -> T:
    """Run `call` in a thread of its own: a browser test on the same worker may keep an event
    loop running in this one, where neither asyncio.run nor an async view may run."""

    def closing() -> T:
        try:
            return call()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(closing).result()


def _game(alice: User, players: list[Player]) -> GameSession:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    game.watch_token, game.scorer_token = "w-events", "s-events"
    game.save(update_fields=["watch_token", "scorer_token"])
    return game


def _deal(game: GameSession, alice: User) -> None:
    game.refresh_from_db()
    hands = {p: trick.HandEntry(tricks=3, made=True) for p in ("Ann", "Ben", "Cat")}
    number = len(game.entries()) + 1
    try:
        add_deal(session=game, number=number, entry=trick.DealEntry(hands), by_user=alice)
    finally:
        connections.close_all()  # run in a worker thread of its own


def _turn_off(game: GameSession) -> None:
    try:
        GameSession.objects.filter(pk=game.pk).update(scorer_token=None)
    finally:
        connections.close_all()  # run in a worker thread of its own


def test_a_wsgi_server_answers_no_stream_and_the_phone_polls(
    alice: User, ann_ben_cat: list[Player]
) -> None:
    _game(alice, ann_ben_cat)

    def statuses() -> list[int]:
        return [
            Client().get("/w/w-events/events/").status_code,
            Client().get("/s/s-events/events/").status_code,
            Client().get("/w/nothing-here/events/").status_code,
            Client().post("/w/w-events/events/").status_code,
        ]

    assert _apart(statuses) == [204, 204, 404, 405]


def test_the_stream_says_the_version_now_and_at_each_change(
    alice: User, ann_ben_cat: list[Player], monkeypatch: Any
) -> None:
    monkeypatch.setattr(events, "KEEP_ALIVE", 0.5)
    game = _game(alice, ann_ben_cat)

    async def follow() -> list[tuple[str, float]]:
        response = await AsyncClient().get("/w/w-events/events/")
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        heard: list[tuple[str, float]] = []
        chunks = aiter(response.streaming_content)
        heard.append(((await anext(chunks)).decode(), time.monotonic()))
        saved = time.monotonic()
        await sync_to_async(_deal, thread_sensitive=False)(game, alice)
        while len(heard) < 3:
            chunk = (await asyncio.wait_for(anext(chunks), 5)).decode()
            heard.append((chunk, time.monotonic() - saved))
        await response.streaming_content.aclose()  # type: ignore[union-attr]
        await sync_to_async(connections.close_all)()  # the view's thread's connection
        return heard

    heard = _apart(lambda: asyncio.run(follow()))
    game.refresh_from_db()
    first, *after = [chunk for chunk, _ in heard]
    assert first == f"retry: 3000\nevent: version\ndata: {game.version - 1}\n\n"
    news = next(seconds for chunk, seconds in heard[1:] if "event: version" in chunk)
    assert f"event: version\ndata: {game.version}\n\n" in after
    print(f"\npush: the new version reached the stream {news * 1000:.0f} ms after the save")
    assert news < 1.0  # one tick of the watcher: 0.25 s
    assert ": still here\n\n" in after or len(after) == 2


def test_a_link_turned_off_ends_its_stream(alice: User, ann_ben_cat: list[Player]) -> None:
    game = _game(alice, ann_ben_cat)

    async def follow() -> list[str]:
        response = await AsyncClient().get("/s/s-events/events/")
        chunks = aiter(response.streaming_content)
        heard = [(await anext(chunks)).decode()]
        await sync_to_async(_turn_off, thread_sensitive=False)(game)
        heard.append((await asyncio.wait_for(anext(chunks), 5)).decode())
        await sync_to_async(connections.close_all)()  # the view's thread's connection
        return heard

    assert _apart(lambda: asyncio.run(follow()))[1] == "event: gone\ndata: \n\n"


def test_streams_opening_one_after_another_share_one_kept_connection(
    alice: User, ann_ben_cat: list[Player]
) -> None:
    """Each stream's first read, and the watcher's reads, run on one thread whose connection
    is kept while streams are open: a new PostgreSQL connection costs a process on the server,
    and a thousand tables open 3,000 streams in a minute."""
    _game(alice, ann_ben_cat)
    made: list[object] = []

    def counted(sender: object, connection: object, **kwargs: object) -> None:
        made.append(connection)

    async def open_six() -> int:
        first = await AsyncClient().get("/w/w-events/events/")
        chunks = aiter(first.streaming_content)
        await anext(chunks)
        # Read on, as the server does: the watcher follows the stream from now on.
        reading = asyncio.ensure_future(anext(chunks))
        await asyncio.sleep(events.TICK * 2)  # and has read the versions on its connection
        connection_created.connect(counted)
        try:
            for _ in range(5):
                other = await AsyncClient().get("/s/s-events/events/")
                assert other.status_code == 200
                await anext(aiter(other.streaming_content))
                await other.streaming_content.aclose()  # type: ignore[union-attr]
            await asyncio.sleep(events.TICK * 2)  # two more reads of the watcher
        finally:
            connection_created.disconnect(counted)
        reading.cancel()
        await first.streaming_content.aclose()  # type: ignore[union-attr]
        return len(made)

    assert _apart(lambda: asyncio.run(open_six())) == 0
