"""The management commands: FORMAT.md's import and export, and the benchmarks (briefly)."""

import io
import json
import os
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.models import GameSession, Player
from tests.views.test_sessions import SHEET


def _import(path: Path, owner: str = "alice") -> list[str]:
    out = io.StringIO()
    call_command("import_scoresheet", str(path), owner=owner, stdout=out)
    return out.getvalue().splitlines()


def _export(identifier: str) -> str:
    out = io.StringIO()
    call_command("export_scoresheet", identifier, stdout=out)
    return out.getvalue()


def test_import_prints_identifier_then_url(tmp_path: Path, alice: User) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET))
    identifier, url = _import(path)
    session = GameSession.objects.get(owner=alice)
    assert identifier == session.public_id
    assert url == f"/sessions/{session.public_id}/"


def test_export_then_import_then_export_is_identical(tmp_path: Path, alice: User) -> None:
    first = tmp_path / "first.json"
    first.write_text(json.dumps(SHEET))
    exported = _export(_import(first)[0])
    second = tmp_path / "second.json"
    second.write_text(exported)
    assert _export(_import(second)[0]) == exported
    data = json.loads(exported)
    assert data["deals"][0]["totals"] == {"Ann": 84, "Ben": 5, "Cat": 20}
    assert data["standings"][0] == {"player": "Ann", "total": 84, "rank": 1}


def test_import_rejects_an_invalid_file_whole(tmp_path: Path, alice: User) -> None:
    bad = {**SHEET, "deals": [*SHEET["deals"], {"hands": {"Ann": {"tricks": -1}}}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(CommandError) as error:
        _import(path)
    message = str(error.value)
    assert "nothing was saved" in message
    assert "deals[1]" in message
    assert not GameSession.objects.exists()
    assert not Player.objects.exists()


def test_import_needs_a_known_owner(tmp_path: Path, db: None) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET))
    with pytest.raises(CommandError, match="No user called 'nobody'"):
        _import(path, owner="nobody")


def test_import_reports_a_missing_file(tmp_path: Path, alice: User) -> None:
    with pytest.raises(CommandError, match="Cannot read"):
        _import(tmp_path / "missing.json")


def test_export_reports_an_unknown_session(db: None) -> None:
    with pytest.raises(CommandError, match="No session 'nope'"):
        _export("nope")


def test_benchmark_prints_figures(db: None) -> None:
    out = io.StringIO()
    call_command("bench_standings", deals=[3, 12], runs=1, stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    queries = [int(line.rsplit(":", 1)[1]) for line in lines]
    assert queries[0] == queries[1]  # loading does not grow with the number of deals
    assert not GameSession.objects.exists()  # the benchmark leaves nothing behind


def test_import_check_benchmark_prints_a_line_per_shape_and_size() -> None:
    out = io.StringIO()
    call_command("bench_import_check", sizes=[1_000, 5_000], runs=1, stdout=out)
    header, *lines = out.getvalue().splitlines()
    assert "check ms" in header
    assert len(lines) == 2 * 9
    assert lines[0].startswith("scoresheet") and lines[0].endswith("read")
    assert "Unterminated string" in lines[2]


def test_import_stores_only_the_trumps_the_table_supplied(tmp_path: Path, alice: User) -> None:
    # An exported file writes every deal's trump; where the rules compute it,
    # storing it would pin it against a later correction of an earlier deal.
    first = tmp_path / "first.json"
    first.write_text(json.dumps(SHEET))
    exported = json.loads(_export(_import(first)[0]))
    assert exported["deals"][0]["trump"] == "diamonds"
    second = tmp_path / "second.json"
    second.write_text(json.dumps(exported))
    session = GameSession.objects.get(public_id=_import(second)[0])
    assert list(session.deals.values_list("trump", flat=True)) == [""]

    turn_up = {**SHEET, "ruleset": "parlett-classic", "options": {}}
    turn_up["deals"] = [{**SHEET["deals"][0], "trump": "spades"}]
    third = tmp_path / "third.json"
    third.write_text(json.dumps(turn_up))
    session = GameSession.objects.get(public_id=_import(third)[0])
    assert list(session.deals.values_list("trump", flat=True)) == ["spades"]


def test_page_benchmark_prints_figures(db: None) -> None:
    out = io.StringIO()
    call_command("bench_session_page", deals=[2, 20], runs=1, stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    queries = [int(line.rsplit(":", 1)[1]) for line in lines]
    assert queries[0] == queries[1]
    assert not GameSession.objects.exists()


def test_live_benchmark_prints_figures(db: None) -> None:
    out = io.StringIO()
    call_command("bench_live", deals=3, runs=1, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1].split()[:3] == ["unchanged", "poll", "(304)"]
    assert lines[1].endswith("1 SQL queries")
    assert " 0 bytes" in lines[1]
    assert not GameSession.objects.exists()


def test_sqlite_backup_copies_everything(
    tmp_path: Path, transactional_db: None, alice: User
) -> None:
    # transactional_db: the command runs outside a transaction, as it does in production.
    import sqlite3
    from contextlib import closing

    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("the online backup is SQLite's; PostgreSQL uses pg_dump")
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET))
    identifier = _import(path)[0]
    dest = tmp_path / "backup.sqlite3"
    out = io.StringIO()
    call_command("backup_sqlite", str(dest), stdout=out)
    assert "integrity ok" in out.getvalue()
    with closing(sqlite3.connect(dest)) as copy:
        found = copy.execute(
            "SELECT count(*) FROM scorekeeper_gamesession WHERE public_id = ?", [identifier]
        ).fetchone()
        hands = copy.execute("SELECT count(*) FROM scorekeeper_hand").fetchone()
    assert found == (1,)
    assert hands == (3,)
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup_sqlite", str(dest))


def _server_benchmark_args() -> list[str]:
    """The benchmarks that run gunicorn make their own scratch database: on this pass's kind."""
    if connection.vendor == "sqlite":
        return ["--databases", "sqlite"]
    return ["--databases", "postgresql", "--postgres-url", os.environ["DATABASE_URL"]]


def test_the_load_benchmark_runs_briefly_and_checks_every_deal() -> None:
    out = io.StringIO()
    call_command(
        "bench_load", *_server_benchmark_args(), "--tables=2", "--seconds=4", "--deal-every=1",
        "--poll-every=1", "--workers=2", stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert re.search(r"all +\d+ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+", text), text
    # The pages broken down: 2 scorers name themselves and each watcher opens its page.
    pages = re.search(r"page p99, by which page \(answers\): (.*)", text)
    assert pages, text
    joined = {"name page": 2, "name sent": 2, "scorer's page": 2, "watch page": 6}
    for page, count in joined.items():
        assert re.search(rf"\b{page} [\d.]+ ms \({count}\)", pages[1]), pages[1]
    assert "scorer's page after a save" in pages[1]
    assert "errors: 0 (5xx or broken connections, each tried again); given up: 0;" in text
    # Each request's cost weighed against the bare view's, measured on the same server first.
    weighed = re.search(
        r"CPU per request: ([\d.]+) ms = ([\d.]+)x a bare view \(([\d.]+) ms each, 1000 asked", text
    )
    assert weighed, text
    each, times, bare = (float(figure) for figure in weighed.groups())
    assert bare > 0 and abs(each / bare - times) <= 0.1 * times + 0.1
    accepted = int(re.findall(r"deals accepted: (\d+); stored: (\d+)", text)[0][0])
    assert accepted >= 2
    assert f"deals accepted: {accepted}; stored: {accepted} (2 tables hold exactly" in text
    assert "on the scorer's record: 2 of 2 tables" in text


def test_the_load_benchmark_keeps_every_deal_once_while_workers_are_killed() -> None:
    out = io.StringIO()
    call_command(
        "bench_load", *_server_benchmark_args(), "--tables=3", "--seconds=6", "--deal-every=0.5",
        "--poll-every=0.5", "--workers=2", "--kill-workers-every=1.5", stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert re.search(r"faults made: (a worker killed at \d+ s; ){2,}", text), text
    assert re.search(r"given up: 0; gunicorn log errors: [1-9]", text), text
    accepted = int(re.findall(r"deals accepted: (\d+)", text)[0])
    assert f"deals accepted: {accepted}; stored: {accepted} (3 tables hold exactly" in text
    assert "on the scorer's record: 3 of 3 tables" in text


def test_the_figures_benchmark_compares_with_a_bare_view() -> None:
    out = io.StringIO()
    call_command("bench_figures", *_server_benchmark_args(), "--deals=3", "--runs=3", stdout=out)
    text = out.getvalue()
    assert re.search(r"bare Django view \(/healthz/\) +[\d.]+ms +[\d.]+ms +1\.0x +0 ", text), text
    assert re.search(r"unchanged poll \(304\) .* 1 +\d+", text)
    assert re.search(r"first visit of a watch link: [\d.]+ KiB in \d+ responses", text)
    assert re.search(r"poll after a new deal \(200\): [\d.]+ KiB", text)


@pytest.mark.django_db
def test_bench_login_on_an_unmigrated_database_says_to_migrate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It made a user per hasher and ended in a raw 'no such table' traceback."""
    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [object()])
    with pytest.raises(CommandError, match="not migrated: run `manage.py migrate` first"):
        call_command("bench_login", "--runs", "1")
