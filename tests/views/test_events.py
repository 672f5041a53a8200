"""The event stream of a watch or scorer link (Server-Sent Events): its version now and at each
change, under an ASGI server; a WSGI server answers 204 so that the phone keeps polling."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.core.handlers.asgi import ASGIHandler
from django.db import connections
from django.db.backends.signals import connection_created
from django.test import AsyncClient, Client
from django.urls import resolve

from scorekeeper.live import streams as events
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_session, delete_for_good, delete_session
from tests.asgi import apart

pytestmark = pytest.mark.django_db(transaction=True)  # the watcher reads from its own thread


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
        add_deal(session=game, number=number, entry=trick.DealEntry(hands), who=Who(alice))
    finally:
        connections.close_all()  # run in a worker thread of its own


def _turn_off(game: GameSession) -> None:
    try:
        GameSession.objects.filter(pk=game.pk).update(scorer_token=None)
    finally:
        connections.close_all()  # run in a worker thread of its own


def test_a_wsgi_server_answers_no_stream_and_the_phone_polls(
    alice: User, roster: list[Player]
) -> None:
    _game(alice, roster)

    def statuses() -> list[int]:
        return [
            Client().get("/w/w-events/events/").status_code,
            Client().get("/s/s-events/events/").status_code,
            Client().get("/w/nothing-here/events/").status_code,
            Client().post("/w/w-events/events/").status_code,
        ]

    assert apart(statuses) == [204, 204, 404, 405]


def test_the_stream_says_the_version_now_and_at_each_change(
    alice: User, roster: list[Player], monkeypatch: Any
) -> None:
    monkeypatch.setattr(events, "KEEP_ALIVE", 0.5)
    game = _game(alice, roster)

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

    heard = apart(lambda: asyncio.run(follow()))
    game.refresh_from_db()
    first, *after = [chunk for chunk, _ in heard]
    assert first == f"retry: 3000\nevent: version\ndata: {game.version - 1}\n\n"
    news = next(seconds for chunk, seconds in heard[1:] if "event: version" in chunk)
    assert f"event: version\ndata: {game.version}\n\n" in after
    print(f"\npush: the new version reached the stream {news * 1000:.0f} ms after the save")
    assert news < 1.0  # one tick of the watcher: 0.25 s
    assert ": still here\n\n" in after or len(after) == 2


def test_a_link_turned_off_ends_its_stream(alice: User, roster: list[Player]) -> None:
    game = _game(alice, roster)

    async def follow() -> list[str]:
        response = await AsyncClient().get("/s/s-events/events/")
        chunks = aiter(response.streaming_content)
        heard = [(await anext(chunks)).decode()]
        await sync_to_async(_turn_off, thread_sensitive=False)(game)
        heard.append((await asyncio.wait_for(anext(chunks), 5)).decode())
        await sync_to_async(connections.close_all)()  # the view's thread's connection
        return heard

    assert apart(lambda: asyncio.run(follow()))[1] == "event: gone\ndata: \n\n"


def test_streams_opening_one_after_another_share_one_kept_connection(
    alice: User, roster: list[Player]
) -> None:
    """Each stream's first read, and the watcher's reads, run on one thread whose connection
    is kept while streams are open: a new PostgreSQL connection costs a process on the server,
    and a thousand tables open 3,000 streams in a minute."""
    _game(alice, roster)
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

    assert apart(lambda: asyncio.run(open_six())) == 0


def test_the_database_names_the_session_whose_version_links_or_deletion_changed(
    alice: User, roster: list[Player]
) -> None:
    """PostgreSQL's trigger (migrations 0012 and 0014): each server's watcher reads only the
    sessions named, so each change must name its session, down to its deletion for good."""
    if connections["default"].vendor != "postgresql":
        pytest.skip("NOTIFY is PostgreSQL's; on SQLite the watcher reads every TICK")
    import psycopg

    def heard(listener: psycopg.Connection[Any]) -> list[str]:
        return [n.payload for n in listener.notifies(timeout=0.5)]

    params = events._connection_params()
    with psycopg.connect(**params, autocommit=True) as listener:
        listener.execute(f"LISTEN {events.CHANNEL}")
        game = _game(alice, roster)  # its links given
        assert set(heard(listener)) == {str(game.pk)}
        _deal(game, alice)
        assert set(heard(listener)) == {str(game.pk)}
        delete_session(session=game, who=Who(alice))
        assert set(heard(listener)) == {str(game.pk)}
        delete_for_good(session=game)
        assert heard(listener) == [str(game.pk)]
        connections.close_all()


def test_after_a_notice_the_watcher_reads_only_the_sessions_named_and_new_streams(
    monkeypatch: Any,
) -> None:
    """At a thousand tables a server follows 3,000 streams: a read of them all at every notice
    held up the first read of each stream opening (they share one thread)."""
    asked: list[list[events.Key]] = []
    now = {
        ("session", "watch_token", "a"): 2,
        ("session", "scorer_token", "b"): 2,
        ("session", "watch_token", "c"): 5,
    }

    async def reader(read: object, keys: list[events.Key]) -> dict[events.Key, int]:
        asked.append(sorted(keys))
        return {key: now[key] for key in keys if key in now}

    monkeypatch.setattr(events, "on_reader", reader)

    async def scenario() -> list[object]:
        watcher = events.VersionWatcher()
        watcher._start = lambda: None  # type: ignore[method-assign]  # reads by hand below
        opened = [
            (("session", "watch_token", "a"), 1),
            (("session", "scorer_token", "b"), 1),
            (("session", "watch_token", "c"), 2),
        ]
        streams = [watcher.follow(key, 2, session) for key, session in opened]
        nexts = [asyncio.ensure_future(anext(stream)) for stream in streams]
        await asyncio.sleep(0)  # each stream is now followed
        await watcher._read(set())  # a notice naming no session here: the new streams only
        await asyncio.sleep(0)
        assert [future.done() for future in nexts] == [False, False, True]
        assert nexts[2].result() == 5
        nexts[2] = asyncio.ensure_future(anext(streams[2]))
        await watcher._read({("session", 9)})  # a session no stream here follows: no read at all
        now[("session", "watch_token", "c")] = 6
        del now[("session", "scorer_token", "b")]  # the scorer link turned off
        await watcher._read({("session", 2)})
        await asyncio.sleep(0)
        assert [future.done() for future in nexts] == [False, False, True]
        await watcher._read({("session", 1)})
        await asyncio.sleep(0)
        results = [future.result() if future.done() else "waiting" for future in nexts]
        for future in nexts:
            future.cancel()
        await asyncio.gather(*nexts, return_exceptions=True)
        for stream in streams:
            await stream.aclose()  # type: ignore[attr-defined]
        assert not watcher.queues and not watcher.keys_of and not watcher.thing_of
        return results

    assert apart(lambda: asyncio.run(scenario())) == ["waiting", None, 6]
    assert asked == [
        [
            ("session", "scorer_token", "b"),
            ("session", "watch_token", "a"),
            ("session", "watch_token", "c"),
        ],
        [("session", "watch_token", "c")],
        [("session", "scorer_token", "b"), ("session", "watch_token", "a")],
    ]


def test_a_notice_with_no_session_named_means_read_them_all() -> None:
    assert events.named({"12", "7"}) == {("session", 12), ("session", 7)}
    assert events.named(set()) == set()
    assert events.named({"12", ""}) is None  # migration 0012's trigger, before 0014
    # A club night's and a season's changes are named too (migration 0022).
    assert events.named({"n3", "g4", "5"}) == {("night", 3), ("season", 4), ("session", 5)}


def test_a_read_that_fails_is_made_again_at_the_next_notice(monkeypatch: Any) -> None:
    """A notice names a session only once: if the database is out of reach when the watcher
    reads it, its streams are read again at the next notice, whatever that one names."""
    asked: list[list[events.Key]] = []
    reachable = False

    async def reader(read: object, keys: list[events.Key]) -> dict[events.Key, int]:
        asked.append(sorted(keys))
        if not reachable:
            raise OSError("the database is out of reach")
        return dict.fromkeys(keys, 3)

    monkeypatch.setattr(events, "on_reader", reader)

    async def scenario() -> int | None:
        watcher = events.VersionWatcher()
        watcher._start = lambda: None  # type: ignore[method-assign]  # reads by hand below
        stream = watcher.follow(("session", "watch_token", "a"), 2, 1)
        found = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0)
        watcher.fresh.clear()  # as if read once already
        await watcher._read({("session", 1)})  # fails
        nonlocal reachable
        reachable = True
        await watcher._read({("session", 7)})  # a notice of another session
        result = await asyncio.wait_for(found, 1)
        await stream.aclose()  # type: ignore[attr-defined]
        return result

    assert apart(lambda: asyncio.run(scenario())) == 3
    assert asked == [[("session", "watch_token", "a")], [("session", "watch_token", "a")]]


def test_a_streams_request_keeps_few_patterns_tried_before_its_own():
    # Django keeps the patterns tried before the match with the request, for as long as it
    # is open: the streams come first in urls.py, so an open one holds two at most (was 48).
    for column in ("w", "s"):
        assert len(resolve(f"/{column}/some-token/events/").tried) <= 2


def _asgi_get(
    path: str, disconnect: asyncio.Event, client: str = "127.0.0.1", **headers: str
) -> dict[str, Any]:
    """A phone's GET sent to the app as a server sends it (ASGI messages), with the answer's
    status, headers and first chunk of body filled in as they come."""
    return {
        "scope": {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "client": (client, 50000),
            "server": ("testserver", 80),
            "headers": [(b"host", b"testserver")]
            + [
                (name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()
            ],
        },
        "disconnect": disconnect,
        "answer": {},
    }


async def _read_once() -> None:
    """Until the process's watcher follows a stream and has read the versions of those opened
    so far."""
    while not events.watcher.queues or events.watcher.fresh:
        await asyncio.sleep(0.01)


async def _serve(handler: Any, phone: dict[str, Any], first_body: asyncio.Event) -> None:
    sent_request = False

    async def receive() -> dict[str, Any]:
        nonlocal sent_request
        if not sent_request:
            sent_request = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await phone["disconnect"].wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        answer = phone["answer"]
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        elif message.get("body") and "body" not in answer:
            answer["body"] = message["body"]
            first_body.set()
        if not message.get("more_body", False) and message["type"] == "http.response.body":
            first_body.set()

    await handler(phone["scope"], receive, send)


def test_an_open_stream_holds_no_thread_and_no_compressor_of_its_own(
    alice: User, roster: list[Player]
) -> None:
    """Django's ASGI handler gives each request a thread kept until its answer ends, and its
    gzip a compressor kept as long: for a stream, as long as the phone stays. The streams' gate
    in front of Django's handler (asgi.py) gives a stream the process's shared thread, and the
    stream is sent as it is."""
    _game(alice, roster)

    async def open_streams() -> tuple[list[dict[str, Any]], int]:
        handler = events.Gate(ASGIHandler())
        leave = asyncio.Event()
        phones = [
            _asgi_get(path, leave, accept_encoding="gzip, deflate, br")
            for path in ["/w/w-events/events/"] * 5 + ["/s/s-events/events/"] * 4
        ]
        started = [asyncio.Event() for _ in phones]
        serving = [asyncio.ensure_future(_serve(handler, phones[0], started[0]))]
        # The process's threads made once, whatever the number of streams: the shared one, the
        # reader's, and on PostgreSQL the loop's own, which reads the listener's settings. All
        # are there once the watcher has listened and read the first stream's version.
        await asyncio.wait_for(started[0].wait(), 10)
        await asyncio.wait_for(_read_once(), 10)
        threads = set(threading.enumerate())
        serving += [
            asyncio.ensure_future(_serve(handler, phone, first))
            for phone, first in zip(phones[1:], started[1:], strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(first.wait() for first in started)), 10)
        # The threads made since (another test's thread ending meanwhile is not one less).
        grown = len(set(threading.enumerate()) - threads)
        leave.set()
        await asyncio.wait_for(asyncio.gather(*serving), 10)
        await sync_to_async(connections.close_all)()  # the shared thread's, as the test's own
        return [phone["answer"] for phone in phones], grown

    answers, grown = apart(lambda: asyncio.run(open_streams()))
    for answer in answers:
        assert answer["status"] == 200
        assert answer["headers"]["content-type"] == "text/event-stream"
        assert "content-encoding" not in answer["headers"]
        assert answer["body"].startswith(b"retry: 3000\nevent: version\ndata: ")
    # Eight more streams opened: no thread was made for any of them.
    # (Other requests keep Django's thread of their own: tests/bench/test_push_load.py serves
    # the whole app this way, and its pages are gzipped: tests/views/test_shared_cache.py.)
    assert grown == 0


def test_an_address_holds_so_many_streams_open_and_the_process_so_many_in_all(
    alice: User, roster: list[Player], settings: Any
) -> None:
    """Each open stream holds one of the files the process may open: one phone opening a
    thousand would leave none for the pages of the others. Past its share an address is
    answered 429, past the process's 503; the phone's page then polls."""
    settings.STREAMS_PER_ADDRESS = 2
    settings.STREAMS_PER_PROCESS = 3
    settings.TRUSTED_PROXIES = 0
    _game(alice, roster)

    async def open_streams() -> list[int]:
        handler = events.Gate(ASGIHandler())
        serving: list[asyncio.Future[None]] = []
        leaving: list[asyncio.Event] = []

        async def status(client: str, **headers: str) -> int:
            leave = asyncio.Event()
            phone = _asgi_get("/w/w-events/events/", leave, client, **headers)
            answered = asyncio.Event()
            serving.append(asyncio.ensure_future(_serve(handler, phone, answered)))
            leaving.append(leave)
            await asyncio.wait_for(answered.wait(), 10)
            return int(phone["answer"]["status"])

        statuses = [
            await status("10.0.0.1"),
            await status("10.0.0.1"),
            await status("10.0.0.1"),  # that address's share is open
            await status("10.0.0.2"),
            await status("10.0.0.3"),  # the process's share is open
        ]
        leaving[0].set()  # the first phone leaves: its stream no longer counts
        await asyncio.wait_for(serving[0], 10)
        statuses.append(await status("10.0.0.3"))
        for leave in leaving:
            leave.set()
        await asyncio.wait_for(asyncio.gather(*serving), 10)
        assert events.streams.total == 0 and not events.streams.by_address
        await sync_to_async(connections.close_all)()
        return statuses

    assert apart(lambda: asyncio.run(open_streams())) == [200, 200, 429, 200, 503, 200]


def test_behind_a_trusted_proxy_streams_count_by_the_address_the_proxy_saw(
    alice: User, roster: list[Player], settings: Any
) -> None:
    settings.STREAMS_PER_ADDRESS = 1
    settings.TRUSTED_PROXIES = 1
    _game(alice, roster)

    async def open_streams() -> list[int]:
        handler = events.Gate(ASGIHandler())
        leave = asyncio.Event()
        phones = [
            _asgi_get("/w/w-events/events/", leave, "10.0.0.9", x_forwarded_for=f"1.2.3.{n}")
            for n in (1, 2, 2)
        ]
        statuses = []
        serving = []
        for phone in phones:
            answered = asyncio.Event()
            serving.append(asyncio.ensure_future(_serve(handler, phone, answered)))
            await asyncio.wait_for(answered.wait(), 10)
            statuses.append(phone["answer"]["status"])
        leave.set()
        await asyncio.wait_for(asyncio.gather(*serving), 10)
        await sync_to_async(connections.close_all)()
        return statuses

    assert apart(lambda: asyncio.run(open_streams())) == [200, 200, 429]


def test_a_refused_accept_is_logged_once_while_it_lasts(caplog: Any) -> None:
    """With no file left for a connection, the event loop tries to accept it again every second
    and would log each failure with its traceback (megabytes a minute)."""

    async def fail_accepts() -> None:
        loop = asyncio.get_running_loop()
        events.log_accept_errors_once(loop)
        events.log_accept_errors_once(loop)  # once per loop, however many requests come
        failed = {"message": events.ACCEPT_FAILED, "exception": OSError(24, "Too many open files")}
        for _ in range(50):
            loop.call_exception_handler(failed)

    with caplog.at_level(logging.ERROR):
        apart(lambda: asyncio.run(fail_accepts()))
    said = [record for record in caplog.records if "New connections wait" in record.message]
    assert len(said) == 1, [record.message for record in caplog.records]
    assert "Too many open files" in said[0].message
    assert said[0].exc_info is None  # one line, no traceback
