"""A tiny club history (`bench_ratings`): the command makes its scratch database, stores the
sessions, works out what sits above the tables from them, and prints the pages' CPU against a
bare view and a correction's replay of the ratings by the games after it."""

from __future__ import annotations

import io
import os
import re

from django.core.management import call_command
from django.db import connection

MS = r"[\d.]+ ms +[\d.]+x"


def test_a_tiny_history_prints_its_pages_and_replays() -> None:
    database = ["--database", connection.vendor]
    if connection.vendor == "postgresql":
        database += ["--postgres-url", os.environ["DATABASE_URL"]]
    out = io.StringIO()
    call_command(
        "bench_ratings", *database, "--players=10", "--sessions=20", "--runs=1", stdout=out
    )
    text = out.getvalue()
    assert re.search(r"20 finished sessions of 10 players \(\d+ trick game, \d+ adding game", text)
    assert re.search(r"rebuilt from the history \(rebuild_club\): [\d.]+ s, CPU [\d.]+ s", text)
    for page in ("bare Django view", "season's watch page", "club ladder", "player's page"):
        assert re.search(rf"{page}.* warm +{MS} +\d+ SQL; first after a correction +{MS}", text), (
            page,
            text,
        )
    assert re.search(r" +0 games after: 1 rated again in [\d.]+ s \(CPU [\d.]+ s\)", text), text
    assert re.search(r" +10 games after: 11 rated again in", text), text
    assert re.search(
        r"a correction of the oldest of \d+ trick games: every rating up to date [\d.]+ s", text
    ), text
