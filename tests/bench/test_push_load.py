"""A short run of the load client's push watchers (`bench_load --push`): each watcher opens an
event stream as a browser does, fetches the live region when a new version is pushed, and the
exactly-once and totals checks hold as they do with polling; for the ASGI app served whole by
uvicorn and by gunicorn's asyncio workers (as scripts/run serves it), and for gunicorn with a
uvicorn for the streams beside it."""

from __future__ import annotations

import asyncio
import gc
import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from bench import load
from bench.management.commands.bench_load import DEFAULT_REDIS
from bench.server import redis_answers


@pytest.mark.parametrize("push", ["asgi", "table", "split"])
def test_watchers_on_push_get_every_deal_and_the_checks_hold(push: str, monkeypatch: Any) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("a scratch SQLite database of its own: runs in the SQLite pass")
    automatic, during = gc.get_threshold(), []
    timing_lags = load.loop_lag

    async def loop_lag(stop: asyncio.Event, tally: load.Tally) -> None:
        during.append(gc.get_threshold())
        await timing_lags(stop, tally)

    monkeypatch.setattr(load, "loop_lag", loop_lag)
    out = io.StringIO()
    call_command(
        "bench_load", "--databases", "sqlite", "--push", push, "--tables=3", "--seconds=8",
        "--deal-every=1", "--workers=1", stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    pushed = re.search(r"push 200\s+(\d+)", text)
    assert pushed and int(pushed[1]) > 0, text  # live regions fetched on the stream's news
    streams = re.search(r"stream\s+(\d+)", text)
    assert streams and int(streams[1]) >= 9, text  # every watcher opened its stream
    assert re.search(r"from the save's answer: \d+ pushes, p50 -?\d+ ms", text), text
    assert "watchers on push" in text
    assert re.search(r"the load client's event loop, late waking a task .*: p50 [\d.]+ ms", text)
    assert "errors: 0 " in text and "given up: 0;" in text, text
    accepted = int(re.findall(r"deals accepted: (\d+)", text)[0])
    assert accepted >= 3
    assert f"deals accepted: {accepted}; stored: {accepted} (3 tables hold exactly" in text
    assert "on the scorer's record: 3 of 3 tables" in text
    # The load client made no full collection of its own during the run, and then could again.
    assert during == [(automatic[0], automatic[1], 2**31 - 1)]
    assert gc.get_threshold() == automatic


def test_one_server_shares_its_workers_cache_through_redis_when_asked() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("a scratch SQLite database of its own: runs in the SQLite pass")
    if not redis_answers(DEFAULT_REDIS):
        pytest.skip(f"no Redis answers at {DEFAULT_REDIS}")
    out = io.StringIO()
    call_command(
        "bench_load", "--databases", "sqlite", "--redis", "--tables=2", "--seconds=4",
        "--deal-every=1", "--workers=2", stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert f"gunicorn 2 sync workers, cache in Redis ({DEFAULT_REDIS})" in text, text
    assert "errors: 0 " in text and "given up: 0;" in text, text
    assert "on the scorer's record: 2 of 2 tables" in text
