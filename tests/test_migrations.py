"""Migrations that change people's data, run on the test database (SQLite or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper import live
from scorekeeper.models import GameSession

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


BEFORE_LONG = [("scorekeeper", "0014_notify_names_session")]
WITH_LONG = [("scorekeeper", "0015_long_first_trump")]


def test_long_sessions_with_trump_by_successes_keep_their_first_trump(
    executor: MigrationExecutor,
) -> None:
    # Long Ninety-Nine's own first trump is now the usual `none` (RULES.md §1.4); the sessions
    # and saved rulesets that gave it trump by successes and left the first trump at its old
    # ♦ keep ♦, so that no deal already played changes.
    executor.migrate(BEFORE_LONG)
    apps = executor.loader.project_state(BEFORE_LONG).apps
    User = apps.get_model("auth", "User")
    Session = apps.get_model("scorekeeper", "GameSession")
    Saved = apps.get_model("scorekeeper", "SavedRuleset")
    alice = User.objects.create(username="alice")
    stored = {
        "long-successes": ("long", {"trump": "by-successes"}),
        "long-none": ("long", {"trump": "by-successes", "first_trump": "none"}),
        "long-own": ("long", {}),
        "classic-successes": ("parlett-classic", {"trump": "by-successes"}),
    }
    for title, (ruleset, options) in stored.items():
        Session.objects.create(
            owner=alice, family="trick", ruleset=ruleset, options=options, title=title
        )
        Saved.objects.create(
            owner=alice, name=title, name_key=title, family="trick", ruleset=ruleset,
            options=options,
        )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(WITH_LONG)
    apps = executor.loader.project_state(WITH_LONG).apps
    Session = apps.get_model("scorekeeper", "GameSession")
    Saved = apps.get_model("scorekeeper", "SavedRuleset")
    sessions = {session.title: session.options for session in Session.objects.all()}
    saved = {ruleset.name: ruleset.options for ruleset in Saved.objects.all()}
    expected = {
        "long-successes": {"trump": "by-successes", "first_trump": "diamonds"},
        "long-none": {"trump": "by-successes", "first_trump": "none"},
        "long-own": {},
        "classic-successes": {"trump": "by-successes"},
    }
    assert sessions == expected
    assert saved == expected


WITH_RULESET_NAME = [("scorekeeper", "0016_session_ruleset_name")]


def test_sessions_started_from_saved_rules_take_their_name(executor: MigrationExecutor) -> None:
    executor.migrate(WITH_LONG)
    apps = executor.loader.project_state(WITH_LONG).apps
    alice = apps.get_model("auth", "User").objects.create(username="alice")
    Saved = apps.get_model("scorekeeper", "SavedRuleset")
    Session = apps.get_model("scorekeeper", "GameSession")
    friday = Saved.objects.create(
        owner=alice, name="Our Friday rules", name_key="our friday rules", family="trick",
        ruleset="parlett-classic", options={"trump": "declared"},
    )  # fmt: skip
    Session.objects.create(
        owner=alice, family="trick", ruleset="parlett-classic", options={"trump": "declared"},
        title="from-saved", saved_ruleset=friday,
    )  # fmt: skip
    Session.objects.create(owner=alice, family="trick", ruleset="parlett-classic", title="plain")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(WITH_RULESET_NAME)
    Session = executor.loader.project_state(WITH_RULESET_NAME).apps.get_model(
        "scorekeeper", "GameSession"
    )
    names = {session.title: session.ruleset_name for session in Session.objects.all()}
    assert names == {"from-saved": "Our Friday rules", "plain": ""}


WITH_FIRST_DEALER = [("scorekeeper", "0017_session_first_dealer")]


def test_sessions_started_before_keep_their_first_dealer_in_seat_1(
    executor: MigrationExecutor,
) -> None:
    # Before, the seats were turned round so that the first dealer sat in seat 1.
    executor.migrate(WITH_RULESET_NAME)
    apps = executor.loader.project_state(WITH_RULESET_NAME).apps
    alice = apps.get_model("auth", "User").objects.create(username="alice")
    Player = apps.get_model("scorekeeper", "Player")
    Session = apps.get_model("scorekeeper", "GameSession")
    Seat = apps.get_model("scorekeeper", "Seat")
    session = Session.objects.create(owner=alice, family="trick", ruleset="parlett-jokerless")
    for position, name in enumerate(["Ben", "Cat", "Ann"]):  # Ben chosen to deal first
        player = Player.objects.create(owner=alice, name=name, name_key=name.lower())
        Seat.objects.create(session=session, position=position, player=player)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    # Through WITH_FIRST_DEALER to the latest: the models as the app has them.
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert WITH_FIRST_DEALER[0] in MigrationExecutor(connection).loader.applied_migrations
    stored = GameSession.objects.with_seats().get(pk=session.pk)
    assert stored.first_dealer == 0
    assert stored.player_names() == ["Ben", "Cat", "Ann"]
    assert live.result(stored).next.dealer == "Ben"
