"""A game night's event streams under `scripts/run` (gunicorn's asyncio workers, from a fresh
clone): phones open watch and scorer links' streams and pages, close them at every moment (some
before any answer, some after the first event, some a while later), deals are saved meanwhile,
and the host's terminal shows no traceback and no warning.

Phones that close a stream or a page as it opens are the everyday case at a table (a page left,
a phone locked): each such request once printed "CurrentThreadExecutor already quit or is
broken" (scorekeeper/disconnects.py says why), and each static file "StreamingHttpResponse must
consume synchronous iterators" (scorekeeper/staticfiles.py). The second came every time; the
first comes of a race between two threads (a phone leaving while its request's middleware runs on
one), which the walk gives many chances but which a run may still not lose:
tests/test_asgi_app.py checks the hold on the leaving that takes the race away.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.serving.scripts_run import NOT_PASSED, Network, Server

pytestmark = pytest.mark.browser  # starts scripts/run: with the browser tests, on SQLite only

ROUNDS = 16
STREAMS = 40  # a round's streams, under STREAMS_PER_ADDRESS from either phone
PATIENCE = 30.0  # seconds: an answer not begun by then is a stalled server

# Run in the clone, on the database scripts/run prepared: a session with both links, then a
# deal saved at each line read (a fresh session once one is played out, the links moved to it).
SAVER = """
import sys, django
django.setup()
from django.contrib.auth.models import User
from django.db import transaction
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_session

host = User.objects.create_user("host", password="a long table password")
players = [Player.objects.create(owner=host, name=name) for name in ("Ann", "Ben", "Cat")]

def fresh():
    with transaction.atomic():
        old = GameSession.objects.filter(watch_token="w-night")
        old.update(watch_token=None, scorer_token=None)
        game = create_session(owner=host, ruleset="parlett-jokerless", options={}, players=players)
        game.watch_token, game.scorer_token = "w-night", "s-night"
        game.save(update_fields=["watch_token", "scorer_token"])
    return game

game = fresh()
print("ready", flush=True)
for line in sys.stdin:
    game.refresh_from_db()
    if len(game.entries()) >= 8:
        game = fresh()
    hands = {name: trick.HandEntry(tricks=3, made=True) for name in ("Ann", "Ben", "Cat")}
    number = len(game.entries()) + 1
    add_deal(session=game, number=number, entry=trick.DealEntry(hands), who=Who(host))
    game.refresh_from_db()
    print(game.version, flush=True)
"""


class Saver:
    """The host saving deals: a process of its own on the server's SQLite database."""

    def __init__(self, clone: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in NOT_PASSED}
        env |= {"DJANGO_SETTINGS_MODULE": "scorekeeper.settings", "DEBUG": "true"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", SAVER],
            cwd=clone,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.answer() == "ready"

    def answer(self) -> str:
        assert self.process.stdout
        line = self.process.stdout.readline().strip()
        assert line, f"the saver stopped (exit {self.process.poll()})"
        return line

    def deal(self) -> int:
        """Save a deal: the session's version after it."""
        assert self.process.stdin
        self.process.stdin.write("deal\n")
        self.process.stdin.flush()
        return int(self.answer())

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(30)
        if self.process.stdout:
            self.process.stdout.close()


async def _ask(host: str, port: int, source: str, path: str, leave: float | None) -> bytes:
    """GET `path` from `source`, and leave: at once (`leave` None, before any answer), after
    the answer's first bytes (0), or that many seconds after them. What was heard."""
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    heard = b""
    try:
        if leave is not None:
            heard = await asyncio.wait_for(reader.read(4096), PATIENCE)
            if leave:
                await asyncio.sleep(leave)
                while chunk := await _read_now(reader):
                    heard += chunk
    finally:
        writer.close()
    return heard


async def _read_now(reader: asyncio.StreamReader) -> bytes:
    try:
        return await asyncio.wait_for(reader.read(4096), 0.01)
    except TimeoutError:
        return b""


async def _night(
    host: str, port: int, phones: tuple[str, str], saver: Saver
) -> tuple[list[int], list[int]]:
    """The walk: ROUNDS rounds of streams and pages opened and left, a deal saved in each.
    The versions saved, and the version every stream held across a save heard last."""
    page = await _ask(host, port, phones[0], "/w/w-night/", 0)
    assert page.startswith(b"HTTP/1.1 200 OK"), page[:200]
    static = sorted(set(re.findall(rb'/static/[^"\s]+\.(?:js|css)', page)))
    assert static, "the watch page names no static file"
    loop = asyncio.get_running_loop()
    saved: list[int] = []
    heard_last: list[int] = []
    for _ in range(ROUNDS):
        leaves = [None, None, 0, 0.05, 0.3, 1.5]
        asked = [
            _ask(host, port, phones[n % 2], f"/{'ws'[n % 2]}/{'ws'[n % 2]}-night/events/", leave)
            for n, leave in enumerate(random.choice(leaves) for _ in range(STREAMS))
        ]
        paths = ["/w/w-night/", "/w/w-night/live/", "/s/s-night/", *(p.decode() for p in static)]
        asked += [_ask(host, port, phones[0], path, leave) for path in paths for leave in (None, 0)]
        held = asyncio.ensure_future(_ask(host, port, phones[1], "/w/w-night/events/", 2.5))
        running = [asyncio.ensure_future(call) for call in asked]
        await asyncio.sleep(0.3)
        version = await loop.run_in_executor(None, saver.deal)
        await asyncio.gather(*running)
        versions = re.findall(rb"event: version\ndata: (\d+)", await held)
        heard_last.append(int(versions[-1]) if versions else -1)
        saved.append(version)
    return saved, heard_last


def test_streams_and_pages_left_at_any_moment_print_nothing_on_the_terminal(
    clone: Path, network: Network, servers: list[Server]
) -> None:
    server = Server(clone, network)
    servers.append(server)
    parts = urlsplit(server.url)
    assert parts.hostname and parts.port
    saver = Saver(clone)
    try:
        with ThreadPoolExecutor(1) as apart:  # a browser test may keep a loop on this thread
            saved, heard = apart.submit(
                asyncio.run, _night(parts.hostname, parts.port, network.phones, saver)
            ).result()
    finally:
        saver.close()
    # A stream held open across each save heard its version.
    assert heard == saved
    server.stop()
    assert "must consume" not in server.output, server.output
    server.expect_stopped_cleanly()  # no Traceback, no Error
