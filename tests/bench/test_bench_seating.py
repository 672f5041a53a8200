"""A small night (`bench_seating`): seated by the rules alone at each size asked for, and
through the services in the command's scratch database; the figures printed."""

from __future__ import annotations

import io
import os
import re

import pytest
from django.core.management import CommandError, call_command
from django.db import connection


def test_the_rules_alone_print_each_rounds_cpu_and_the_worst() -> None:
    out = io.StringIO()
    call_command("bench_seating", "--players=30", "--rounds=4", "--sizes", "3", "2-10", stdout=out)
    text = out.getvalue()
    assert "30 players, 4 rounds, each seated by rules.next_round" in text, text
    assert re.search(r"^ +3 +10( +[\d.]+){2} +\d +[\d.]+  \d+ \(\d+\)$", text, re.M), text
    assert re.search(r"^ +2-10 +3( +[\d.]+){2} +\d +[\d.]+  \d+ \(\d+\)$", text, re.M), text
    assert len(re.findall(r"each round:( [\d.]+){4}$", text, re.M)) == 2, text


def test_a_table_size_is_a_number_or_a_range() -> None:
    with pytest.raises(CommandError, match="a table size is 4 or 2-10, not '4-2'"):
        call_command("bench_seating", "--sizes", "4-2", stdout=io.StringIO())


def test_a_night_seated_through_the_services_prints_each_round() -> None:
    database = ["--database", connection.vendor]
    if connection.vendor == "postgresql":
        database += ["--postgres-url", os.environ["DATABASE_URL"]]
    out = io.StringIO()
    call_command(
        "bench_seating", "--services", *database, "--players=12", "--rounds=3", "--size=3",
        stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert f"on {connection.vendor}: 12 players at tables of 3 (4 tables), 3 rounds" in text
    for number in (1, 2, 3):
        assert re.search(rf"^ +{number}( +\d+){{5}}$", text, re.M), text
