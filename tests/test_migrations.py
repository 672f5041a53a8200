"""Migrations that change people's data, run on the test database (SQLite or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE_KEYS = [("scorekeeper", "0006_rate_limits")]
WITH_KEYS = [("scorekeeper", "0007_player_name_key")]


@pytest.fixture
def executor(transactional_db: None) -> Iterator[MigrationExecutor]:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    yield executor
    # Back to the latest schema for the tests that follow (the rows are flushed after).
    executor = MigrationExecutor(connection)
    executor.migrate(latest)


def test_a_roster_with_names_alike_keeps_every_player_under_a_name_of_its_own(
    executor: MigrationExecutor,
) -> None:
    executor.migrate(BEFORE_KEYS)
    apps = executor.loader.project_state(BEFORE_KEYS).apps
    User = apps.get_model("auth", "User")
    Player = apps.get_model("scorekeeper", "Player")
    alice, bob = User.objects.create(username="alice"), User.objects.create(username="bob")
    # Before the keys, the database compared lower(name): neither SQLite nor PostgreSQL told
    # "STRASSE" from "Straße" or a full-width "Ｅｖａ" from "Eva", and SQLite, which folds ASCII
    # letters only, not "éva" from "Éva" either.
    names = ["Straße", "STRASSE", "Zoe", "Eva", "Ｅｖａ", "x" * 38 + "ß", "x" * 38 + "ss"]
    if connection.vendor == "sqlite":
        names += ["Éva", "éva"]
    for name in names:
        Player.objects.create(owner=alice, name=name)
    Player.objects.create(owner=bob, name="STRASSE")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(WITH_KEYS)
    Player = executor.loader.project_state(WITH_KEYS).apps.get_model("scorekeeper", "Player")

    keys = {(p.owner.username, p.name): p.name_key for p in Player.objects.order_by("pk")}
    expected = [
        ("alice", "Straße"),
        ("alice", "STRASSE (2)"),
        ("alice", "Zoe"),
        ("alice", "Eva"),
        ("alice", "Ｅｖａ (2)"),
        ("alice", "x" * 38 + "ß"),
        ("alice", "x" * 36 + " (2)"),
    ]
    if connection.vendor == "sqlite":
        expected += [("alice", "Éva"), ("alice", "éva (2)")]
    assert list(keys) == [*expected, ("bob", "STRASSE")]  # another owner's roster is its own
    assert keys[("alice", "Straße")] == keys[("bob", "STRASSE")] == "strasse"
    assert len(set(keys.values())) == len(keys) - 1
    assert all(len(name) <= 40 for _, name in keys)
