"""Faults while a phone saves a deal: a worker killed, the database gone or locked.

Each test runs the app under gunicorn on this test run's own database (SQLite on the
first pass, PostgreSQL on the second) with `faulty_wsgi`, and plays a scorer phone
over HTTP. Whatever breaks, no deal is half stored, the phone gets an answer it can
act on (a broken connection, or a 503 page saying to send the form again), and
sending the same form again stores the deal exactly once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client

from bench.phone import Phone, ServerGone, csrf_token, deal_post, form_fields
from bench.server import Gunicorn, app_env, gunicorn
from scorekeeper.models import Change, Deal, GameSession, Hand, new_link_token
from scorekeeper.rules import trick
from tests.factories import new_players, trick_session, with_links
from tests.faults.proxy import Proxy

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ("Ann", "Ben", "Cat")
ENTRY = trick.DealEntry(
    hands={
        "Ann": trick.HandEntry(tricks=4, bid=4),
        "Ben": trick.HandEntry(tricks=5, made=False),
        "Cat": trick.HandEntry(tricks=0, bid=0),
    }
)
on_postgresql = pytest.mark.skipif("connection.vendor != 'postgresql'", reason="a PostgreSQL fault")
on_sqlite = pytest.mark.skipif("connection.vendor != 'sqlite'", reason="a SQLite fault")


def _database_url(port: int | None = None) -> str:
    db = connection.settings_dict
    auth = f"{quote(db['USER'] or '')}:{quote(db['PASSWORD'] or '')}"
    host = db["HOST"] or "127.0.0.1"
    return f"postgres://{auth}@{host}:{port or db['PORT'] or 5432}/{db['NAME']}"


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The app on this test run's database (DEBUG on: no collected static files needed)."""
    if connection.vendor == "sqlite":
        database = {"SQLITE_PATH": str(connection.settings_dict["NAME"])}
    else:
        database = {"DATABASE_URL": _database_url(), "FAULT_ADMIN_URL": _database_url()}
    return app_env(
        database,
        DEBUG="true",
        SECRET_KEY="faults",
        ALLOWED_HOSTS="127.0.0.1",
        FAULT_DIR=str(tmp_path),
        **extra,
    )


@pytest.fixture
def game(db: None) -> GameSession:
    owner = User.objects.create_user("owner")
    game = trick_session(owner, new_players(owner, PLAYERS))
    return with_links(game, watch=new_link_token(), scorer=new_link_token())


@pytest.fixture
def server(tmp_path: Path, game: GameSession) -> Iterator[Gunicorn]:
    with gunicorn(_env(tmp_path), workers=2, app="tests.faults.faulty_wsgi:application") as up:
        yield up


class Scorer:
    """A phone on the game's scorer link, named, with the deal form read off the page."""

    def __init__(self, base_url: str, game: GameSession) -> None:
        self.phone = Phone(base_url, timeout=20)
        self.path = f"/s/{game.scorer_token}/"
        page = self.phone.get(self.path + "name/")
        named = self.phone.post(
            self.path + "name/", {"csrfmiddlewaretoken": csrf_token(page.text), "name": "Dee"}
        )
        assert named.status == 302

    def filled_form(self) -> dict[str, str]:
        return deal_post(ENTRY, PLAYERS, form_fields(self.phone.get(self.path).text))

    def send(self, form: dict[str, str]) -> str:
        """Post the form as the phone's retry would; the page the phone then shows."""
        answer = self.phone.post(self.path, form)
        assert answer.status == 302, answer.text
        return self.phone.get(self.path).text


def _arm(tmp_path: Path, fault: str) -> None:
    (tmp_path / fault).touch()


def _stored(game: GameSession) -> tuple[int, int, int, int]:
    """Deals, hands, history entries and version: all move together or not at all."""
    game.refresh_from_db()
    return (
        Deal.objects.filter(session=game).count(),
        Hand.objects.filter(deal__session=game).count(),
        Change.objects.filter(session=game).count(),
        game.version,
    )


def test_a_worker_killed_mid_save_stores_nothing_and_the_retry_stores_once(
    tmp_path: Path, game: GameSession, server: Gunicorn
) -> None:
    scorer = Scorer(server.base_url, game)
    form = scorer.filled_form()
    before = _stored(game)
    workers = server.worker_pids()
    _arm(tmp_path, "kill-mid-save")
    with pytest.raises(ServerGone):
        scorer.phone.post(scorer.path, form)
    assert not (tmp_path / "kill-mid-save").exists()  # the fault did fire
    assert _stored(game) == before  # no deal row without its hands, no history, same version
    assert "Deal 1 saved" in scorer.send(form)
    assert _stored(game)[:3] == (1, 3, 1)
    assert "Deal 1 saved (sent again, stored once)" in scorer.send(form)
    assert _stored(game)[:3] == (1, 3, 1)
    assert server.worker_pids() != workers  # gunicorn replaced the dead worker


def test_a_worker_killed_after_the_commit_keeps_the_deal_once(
    tmp_path: Path, game: GameSession, server: Gunicorn
) -> None:
    scorer = Scorer(server.base_url, game)
    form = scorer.filled_form()
    _arm(tmp_path, "kill-after-save")
    with pytest.raises(ServerGone):  # the phone never hears that it worked
        scorer.phone.post(scorer.path, form)
    assert _stored(game)[:3] == (1, 3, 1)
    assert "Deal 1 saved (sent again, stored once)" in scorer.send(form)
    assert _stored(game)[:3] == (1, 3, 1)


def _assert_try_again(answer_status: int, headers: dict[str, str], text: str) -> None:
    assert answer_status == 503
    assert headers["Retry-After"] == "5"
    assert "what you sent was not saved" in text
    assert "Sending the same form twice stores it once" in text


@on_postgresql
def test_the_database_ending_the_connection_mid_save(
    tmp_path: Path, game: GameSession, server: Gunicorn
) -> None:
    scorer = Scorer(server.base_url, game)
    form = scorer.filled_form()
    before = _stored(game)
    _arm(tmp_path, "drop-connection-mid-save")
    answer = scorer.phone.post(scorer.path, form)
    _assert_try_again(answer.status, answer.headers, answer.text)
    assert _stored(game) == before
    assert "Deal 1 saved" in scorer.send(form)
    assert _stored(game)[:3] == (1, 3, 1)


@on_postgresql
def test_a_database_restart_during_entry(tmp_path: Path, game: GameSession) -> None:
    db = connection.settings_dict
    proxy = Proxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    env = _env(tmp_path, DATABASE_URL=_database_url(proxy.port))
    try:
        with gunicorn(env, workers=1, app="tests.faults.faulty_wsgi:application") as server:
            scorer = Scorer(server.base_url, game)
            watcher = Phone(server.base_url)
            assert "Deal 1 saved" in scorer.send(scorer.filled_form())
            form = scorer.filled_form()  # deal 2 is being entered...
            proxy.go_down()  # ...when the database restarts
            answer = scorer.phone.post(scorer.path, form)
            _assert_try_again(answer.status, answer.headers, answer.text)
            assert watcher.get(f"/w/{game.watch_token}/live/").status == 503
            assert _stored(game)[:3] == (1, 3, 1)
            proxy.come_up()
            assert "Deal 2 saved" in scorer.send(form)
            assert "Deal 2 saved (sent again, stored once)" in scorer.send(form)
            assert _stored(game)[:3] == (2, 6, 2)
            assert watcher.get(f"/w/{game.watch_token}/live/").status == 200
    finally:
        proxy.close()


@on_sqlite
def test_a_database_locked_past_its_timeout(tmp_path: Path, game: GameSession) -> None:
    env = _env(tmp_path, SQLITE_TIMEOUT="1")
    with gunicorn(env, workers=1, app="tests.faults.faulty_wsgi:application") as server:
        scorer = Scorer(server.base_url, game)
        form = scorer.filled_form()
        other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
            answer = scorer.phone.post(scorer.path, form)
            _assert_try_again(answer.status, answer.headers, answer.text)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert _stored(game)[:3] == (0, 0, 0)
        assert "Deal 1 saved" in scorer.send(form)
        assert "Deal 1 saved (sent again, stored once)" in scorer.send(form)
        assert _stored(game)[:3] == (1, 3, 1)


def test_an_unreachable_database_gets_the_try_again_page_in_process(
    client: Client, game: GameSession
) -> None:
    """The same answer without a server: the middleware turns the error into a 503."""

    def refuse(*args: object) -> None:
        raise OperationalError("the database system is shutting down")

    path = f"/s/{game.scorer_token}/"
    session = client.session
    session["scorer_names"] = {game.scorer_token: "Dee"}
    session.save()
    with connection.execute_wrapper(refuse):
        response = client.get(path)
    assert response.status_code == 503
    assert "reload this page in a few seconds" in response.text
    with connection.execute_wrapper(refuse):
        response = client.post(path, deal_post(ENTRY, PLAYERS, {"number": "1"}))
    _assert_try_again(response.status_code, dict(response.headers), response.text)


def test_a_session_that_cannot_be_saved_gets_the_try_again_page(game: GameSession) -> None:
    """Saving the phone's login session meets the outage (here: a scorer typing its name,
    the write a table still makes there; a saved deal's message rides in a cookie since, so a
    deal no longer writes the session): 503 rather than Django's 400 "session was deleted",
    and sending the same form again works."""

    def refuse_session_writes(execute: Any, sql: str, *args: Any) -> Any:
        if sql.startswith(('UPDATE "django_session"', 'INSERT INTO "django_session"')):
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, *args)

    client = Client(raise_request_exception=False)
    path = f"/s/{game.scorer_token}/name/"
    client.get(path)
    named = {"csrfmiddlewaretoken": client.cookies["csrftoken"].value, "name": "Dee"}
    with connection.execute_wrapper(refuse_session_writes):
        response = client.post(path, named)
    _assert_try_again(response.status_code, dict(response.headers), response.text)
    assert client.post(path, named).status_code == 302
    form = deal_post(ENTRY, PLAYERS, form_fields(client.get(f"/s/{game.scorer_token}/").text))
    assert client.post(f"/s/{game.scorer_token}/", form).status_code == 302
    assert _stored(game)[:3] == (1, 3, 1)


def test_other_errors_still_get_the_plain_500_page(
    client: Client, game: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("scorekeeper.live.result", broken)
    client.raise_request_exception = False
    session = client.session
    session["scorer_names"] = {game.scorer_token: "Dee"}
    session.save()
    response = client.get(f"/s/{game.scorer_token}/")
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.text
