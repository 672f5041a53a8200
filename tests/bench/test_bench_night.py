"""A tiny club night (`bench_night`): the command seats and plays it against scripts/run's
server, and prints its figures; and how a save's delay to the screen is read off the polls."""

from __future__ import annotations

import io
import os
import re

import pytest
from django.core.management import call_command
from django.db import connection

from bench.night import update_delays


def test_a_tiny_night_runs_and_prints_its_figures() -> None:
    database = ["--database", connection.vendor]
    if connection.vendor == "postgresql":
        database += ["--postgres-url", os.environ["DATABASE_URL"]]
    out = io.StringIO()
    call_command(
        "bench_night", *database, "--tables=3", "--deals=2", "--seconds=8", "--pace=30",
        "--watchers=2", stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert re.search(r"round 1 start_round \d+ ms; round 2 .* start_round \d+ ms", text), text
    assert re.search(r"plan of 4 rounds .* \d+ ms, seat_round .* \d+ ms", text), text
    saves = int(re.findall(r"saves: (\d+); polls answered 304: [\d.]+% of \d+", text)[0])
    assert saves >= 3, text
    assert re.search(r"leaderboard on the display after a save's answer: p50 \d+ ms", text), text
    assert re.search(r"leaderboard on the 2 phones after a save's answer: p50 \d+ ms", text)
    assert re.search(r"read from its stored lines [\d.]+ ms; its lines worked out again", text)
    assert re.search(
        r"\(a save that changes a table's result does this in its transaction\) [\d.]+ ms", text
    )
    assert re.search(r"app's CPU per request: [\d.]+ ms = [\d.]+x a bare view", text), text
    assert "errors: 0 (5xx or broken connections); given up: 0; gunicorn log errors: 0" in text
    assert f"deals accepted: {saves}; stored in round 2: {saves} (3 of 3 tables" in text


@pytest.mark.parametrize(
    ("saves", "polls", "delays"),
    [
        # The first poll sent after the save is a 200: on the screen when it answers.
        ([10.0], [(9.5, 9.6, 304), (10.4, 10.5, 200)], [0.5]),
        # A 304: the screen already showed it, since the 200 that answered after the save.
        ([10.0], [(9.9, 10.2, 200), (10.9, 11.0, 304)], [0.2]),
        # ... or before the save's answer came back: 0.
        ([10.0], [(9.8, 9.9, 200), (10.8, 10.9, 304)], [0.0]),
        # No poll sent after the save: left out.
        ([10.0, 20.0], [(10.5, 10.6, 200)], [0.6]),
    ],
)
def test_a_saves_delay_to_the_screen_is_read_off_its_polls(
    saves: list[float], polls: list[tuple[float, float, int]], delays: list[float]
) -> None:
    assert update_delays(saves, polls) == pytest.approx(delays)
