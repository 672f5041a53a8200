"""SQLite's online backup taken while gunicorn stores deals, then the README's restore.

README, Production, Backups: `manage.py backup_sqlite FILE` while the app runs; to restore,
stop the app, put the copy in place of the database, delete any -wal and -shm beside it,
and start again. Here the copy is taken in the middle of a stream of saves; the restored
database must pass its integrity check, hold a whole prefix of the deals (never a deal
without its hands), and be served by the app as before.
"""

from __future__ import annotations

import io
import json
import shutil
import threading
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection

from bench.phone import Phone, standings
from bench.server import gunicorn, manage
from scorekeeper.models import GameSession, new_link_token
from scorekeeper.rules import trick
from tests.factories import new_players, trick_session, with_links
from tests.faults.test_faults import PLAYERS, Scorer, _env
from tests.stored import deal_entries

PRESET = "parlett-jokerless"
pytestmark = pytest.mark.django_db(transaction=True)


OPTIONS: dict[str, object] = {"match": {"type": "deals", "deals": 40}}


@pytest.fixture
def game(db: None) -> GameSession:
    owner = User.objects.create_user("owner")
    game = trick_session(owner, new_players(owner, PLAYERS), ruleset=PRESET, options=OPTIONS)
    return with_links(game, watch=new_link_token(), scorer=new_link_token())


def test_an_online_backup_during_saves_restores_whole(tmp_path: Path, game: GameSession) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL backs up with pg_dump (README, Production, Backups)")
    env = _env(tmp_path)
    backup = tmp_path / "backup.sqlite3"
    with gunicorn(env, workers=2) as server:
        scorer = Scorer(server.base_url, game)
        saving = threading.Event()
        saved: list[int] = []

        def keep_saving() -> None:
            while not saving.is_set() or len(saved) < 12:
                page = scorer.send(scorer.filled_form())
                saved.append(len(saved) + 1)
                assert f"Deal {len(saved)} saved" in page
                if len(saved) == 4:
                    saving.set()  # the backup starts once a few deals are in

        writer = threading.Thread(target=keep_saving)
        writer.start()
        saving.wait(60)
        out = io.StringIO()
        call_command("backup_sqlite", str(backup), stdout=out)
        writer.join(120)
        assert not writer.is_alive()
    assert "integrity ok" in out.getvalue()
    final = deal_entries(GameSession.objects.get(pk=game.pk))
    assert len(final) == 12

    # Restore as the README says, into a fresh place, and serve it.
    restored = tmp_path / "restored" / "db.sqlite3"
    restored.parent.mkdir()
    shutil.copy(backup, restored)
    for leftover in ("-wal", "-shm"):
        Path(f"{restored}{leftover}").unlink(missing_ok=True)
    env_restored = env | {"SQLITE_PATH": str(restored)}
    sheet = json.loads(manage(env_restored, "export_scoresheet", game.public_id))
    count = len(sheet["deals"])
    assert 4 <= count <= 12
    assert all(len(deal["hands"]) == len(PLAYERS) for deal in sheet["deals"])
    rules = trick.resolve_rules(PRESET, OPTIONS, PLAYERS)
    with gunicorn(env_restored, workers=1) as server:
        page = Phone(server.base_url).get(f"/w/{game.watch_token}/live/")
    assert standings(page.text) == trick.score_session(rules, final[:count]).totals
