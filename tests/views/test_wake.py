"""On SQLite a saved deal wakes the streams' watchers at once (`live.wake`), instead of waiting
for their next read of every version (`streams.TICK`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.db import connection, connections
from django.test import AsyncClient

from scorekeeper.live import streams as events
from scorekeeper.live import wake
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_session
from tests.asgi import apart

pytestmark = pytest.mark.django_db(transaction=True)  # the watcher reads from its own thread

PATIENCE = 30.0  # seconds: far below the poll interval the tests set, far above a busy wake


def _deal(game: GameSession, alice: User) -> None:
    try:
        hands = {p: trick.HandEntry(tricks=3, made=True) for p in ("Ann", "Ben", "Cat")}
        add_deal(session=game, number=1, entry=trick.DealEntry(hands), who=Who(alice))
    finally:
        connections.close_all()  # run in a worker thread of its own


async def _until(done: Callable[[], bool]) -> None:
    while not done():
        await asyncio.sleep(0.01)


async def _event(chunks: AsyncIterator[bytes]) -> tuple[str, float]:
    """The stream's next event, past its keep-alive comments, and when it came."""
    async for chunk in chunks:
        if not chunk.startswith(b":"):
            return chunk.decode(), time.perf_counter()
    raise AssertionError("the stream ended")


def _listening() -> bool:
    """Whether a watcher of this process has its alarm open."""
    folder = wake._folder()
    return folder is not None and any(
        name.startswith(f"{os.getpid()}-") for name in os.listdir(folder)
    )


def test_a_save_reaches_an_open_stream_without_waiting_for_the_poll(
    alice: User, roster: list[Player], monkeypatch: Any
) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("on PostgreSQL the database's NOTIFY wakes the watcher (test_events)")
    monkeypatch.setattr(events, "TICK", 3600.0)  # the watcher's poll: not within the test
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    game.watch_token = "w-wake"
    game.save(update_fields=["watch_token"])

    async def follow() -> tuple[str, float, float]:
        response = await AsyncClient().get("/w/w-wake/events/")
        chunks = aiter(response.streaming_content)
        await anext(chunks)  # the version now
        news = asyncio.ensure_future(_event(chunks))  # the watcher follows the stream
        await asyncio.wait_for(_until(_listening), PATIENCE)
        began = time.perf_counter()
        await sync_to_async(_deal, thread_sensitive=False)(game, alice)
        saved = time.perf_counter()
        heard, at = await asyncio.wait_for(news, PATIENCE)
        await response.streaming_content.aclose()  # type: ignore[union-attr]
        await sync_to_async(connections.close_all)()  # the view's thread's connection
        return heard, at - began, at - saved

    heard, after_start, after_return = apart(lambda: asyncio.run(follow()))
    game.refresh_from_db()
    assert heard == f"event: version\ndata: {game.version}\n\n"
    print(
        f"\nwake: the new version reached the stream {after_start * 1000:.0f} ms after the save "
        f"began, {after_return * 1000:.0f} ms after it returned"
    )


def test_a_change_wakes_every_alarm_of_its_database_and_forgets_those_gone(
    alice: User, roster: list[Player]
) -> None:
    """Each of scripts/run's workers has an alarm: a save in one wakes them all."""
    if connection.vendor != "sqlite":
        pytest.skip("on PostgreSQL the database's NOTIFY wakes the watchers")
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    folder = wake._folder()
    assert folder is not None
    gone = folder / f"{os.getpid()}-gone"  # a socket whose process died without removing it
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as dead:
        dead.bind(str(gone))

    async def two_alarms() -> list[set[str]]:
        first, second = wake.Alarm.open(), wake.Alarm.open()
        assert first is not None and second is not None
        try:
            await sync_to_async(_deal, thread_sensitive=False)(game, alice)
            return [await alarm.wait(PATIENCE) for alarm in (first, second)]
        finally:
            first.close()
            second.close()

    assert apart(lambda: asyncio.run(two_alarms())) == [{str(game.pk)}, {str(game.pk)}]
    assert not gone.exists()


def test_a_watcher_too_busy_to_take_its_datagrams_holds_no_save_back(tmp_path: Any) -> None:
    """A socket's queue is short (on Linux net.unix.max_dgram_qlen, 10 to 512 datagrams): past it
    a datagram is dropped, and that watcher reads at its next TICK, the sender never waiting."""
    folder = tmp_path / "w"
    folder.mkdir()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as busy:
        busy.bind(str(folder / "busy"))
        for _ in range(2000):
            wake.send(folder, b"12")
        busy.setblocking(False)
        taken = []
        with contextlib.suppress(BlockingIOError):
            while True:
                taken.append(busy.recv(16))
    assert 0 < len(taken) < 2000 and set(taken) == {b"12"}
    assert (folder / "busy").exists()  # its process is there: the socket is kept
