"""A tiny club history (`bench_ratings`): the command makes its scratch database, stores the
sessions, works out the ratings cold, warm and by openskill alone, and prints its figures."""

from __future__ import annotations

import io
import os
import re

from django.core.management import call_command
from django.db import connection

SECONDS = r"[\d.]+ s, [\d.]+ ms a game \(CPU [\d.]+ s, [\d.]+ ms a game\)"


def test_a_tiny_history_is_rated_and_prints_its_figures() -> None:
    database = ["--database", connection.vendor]
    if connection.vendor == "postgresql":
        database += ["--postgres-url", os.environ["DATABASE_URL"]]
    out = io.StringIO()
    call_command(
        "bench_ratings", *database, "--players=10", "--sessions=20", "--runs=1", stdout=out
    )
    text = out.getvalue()
    assert re.search(r"20 finished sessions of 10 players \(\d+ trick game, \d+ adding game", text)
    assert re.search(rf"full recompute, cold \(no result kept\): {SECONDS}, \d+ SQL queries", text)
    warm = re.search(rf"full recompute, warm \(every result kept\): {SECONDS}, (\d+) SQL", text)
    assert warm and int(warm[1]) == 2, text  # the sessions and their seats: no entries read
    assert re.search(rf"rate alone \(openskill\): {SECONDS}, 0 SQL queries", text), text
    assert re.search(r"\(20 games, \d+ ratings in 2 games; median of 1\)", text), text
