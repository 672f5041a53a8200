"""CI's short run of the two-server test: two app servers on one PostgreSQL behind nginx, one
killed half way (`bench_load --servers 2 --kill-server-at`); nothing lost or doubled, and the
watchers keep being answered, with new deals, by the other server."""

from __future__ import annotations

import io
import os
import re
import time

import pytest
from django.core.management import call_command
from django.db import connection

from bench.server import nginx_binary, postgres_answers


def _postgres_and_nginx() -> str:
    """The PostgreSQL server the app servers will share (the suite's), or skip the test when
    this is not the PostgreSQL pass, no server answers or nginx is not installed."""
    if connection.vendor != "postgresql":
        pytest.skip("two app servers share one PostgreSQL database: runs in the PostgreSQL pass")
    url = os.environ["DATABASE_URL"]
    if not postgres_answers(url):
        pytest.skip(f"no PostgreSQL server answers at {url}")
    if not nginx_binary():
        pytest.skip("nginx is not installed (Debian: apt-get install nginx)")
    return url


def test_two_app_servers_behind_nginx_lose_nothing_when_one_is_killed() -> None:
    url = _postgres_and_nginx()
    out = io.StringIO()
    started = time.monotonic()
    call_command(
        "bench_load", "--databases", "postgresql", "--postgres-url", url, "--servers", "2",
        "--tables=10", "--seconds=20", "--kill-server-at=10", "--deal-every=1", "--poll-every=1",
        "--workers=2", stdout=out,
    )  # fmt: skip
    took = time.monotonic() - started
    text = out.getvalue()
    killed = re.search(
        r"app server (127\.0\.0\.1:\d+) killed at 1\d s \(SIGKILL to its master", text
    )
    assert killed, text
    after = re.search(
        r"after the kill at \d+ s: (\d+) watcher polls answered \((\d+) with a new deal\): "
        r"(\d+) by (127\.0\.0\.1:\d+)\n",
        text,
    )
    assert after, text
    polls, news, by_other, other = after.groups()
    assert int(polls) == int(by_other) > 0 and int(news) > 0  # one server answers them all
    assert other != killed.group(1)
    assert "given up: 0;" in text
    opened = re.search(r"PostgreSQL connections opened during the run: (\d+) ", text)
    assert opened and int(opened[1]) > 0, text  # a new app server's workers connect, at least
    accepted = int(re.findall(r"deals accepted: (\d+)", text)[0])
    assert accepted >= 10
    assert f"deals accepted: {accepted}; stored: {accepted} (10 tables hold exactly" in text
    assert "on the scorer's record: 10 of 10 tables" in text
    print(f"\nThe short two-server run took {took:.0f} s")


def test_event_streams_reach_the_watchers_through_nginx() -> None:
    """With two app servers and a uvicorn for the streams (`--push split`), the phones open
    their streams at nginx, which sends them to the uvicorn (the README's block): gunicorn would
    answer 204 and no version would be pushed."""
    url = _postgres_and_nginx()
    out = io.StringIO()
    call_command(
        "bench_load", "--databases", "postgresql", "--postgres-url", url, "--servers", "2",
        "--push", "split", "--tables=3", "--seconds=8", "--deal-every=1", "--workers=1",
        "--stream-workers=1", stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert "one uvicorn 1 workers for the streams, behind nginx too" in text, text
    streams = re.search(r"stream\s+(\d+)", text)
    assert streams and int(streams[1]) >= 9, text  # every watcher opened its stream
    pushes = re.search(r"from the save's answer: (\d+) pushes", text)
    assert pushes and int(pushes[1]) > 0, text
    pushed = re.search(r"push 200\s+(\d+)", text)
    assert pushed and int(pushed[1]) > 0, text  # live regions fetched on the stream's news
    assert "errors: 0 " in text and "given up: 0;" in text, text
    accepted = int(re.findall(r"deals accepted: (\d+)", text)[0])
    assert accepted >= 3
    assert f"deals accepted: {accepted}; stored: {accepted} (3 tables hold exactly" in text
    assert "on the scorer's record: 3 of 3 tables" in text
