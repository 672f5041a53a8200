"""The browser sessions' store (scorekeeper/browser_sessions.py): a new session is stored
without first asking whether its key is taken, a taken key is never overwritten, and a stored
session is read back in one query unless it has expired."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper import browser_sessions
from scorekeeper.browser_sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_a_new_session_is_stored_without_a_lookup_of_its_key() -> None:
    store = SessionStore()
    store["scorer_names"] = {"token": "Sam"}
    with CaptureQueriesContext(connection) as done:
        store.save()
    reads = [query["sql"] for query in done.captured_queries if query["sql"].startswith("SELECT")]
    assert reads == []
    assert len(store.session_key or "") == 32
    assert SessionStore(store.session_key)["scorer_names"] == {"token": "Sam"}


def test_a_key_already_taken_is_drawn_again_and_the_other_session_kept(
    monkeypatch: Any,
) -> None:
    taken = SessionStore()
    taken["scorer_names"] = {"token": "Ann"}
    taken.create()
    taken.save()
    keys = iter([taken.session_key, "f" * 32])
    monkeypatch.setattr(browser_sessions, "get_random_string", lambda *args: next(keys))
    store = SessionStore()
    store["scorer_names"] = {"token": "Ben"}
    store.save()
    assert store.session_key == "f" * 32
    assert SessionStore(taken.session_key)["scorer_names"] == {"token": "Ann"}
    assert SessionStore("f" * 32)["scorer_names"] == {"token": "Ben"}
    assert Session.objects.count() == 2


def test_a_stored_session_is_read_back_in_one_query() -> None:
    stored = SessionStore()
    stored["scorer_names"] = {"token": "Cat"}
    stored.save()
    with CaptureQueriesContext(connection) as done:
        read = SessionStore(stored.session_key)
        assert read["scorer_names"] == {"token": "Cat"}
    assert len(done.captured_queries) == 1
    assert read.session_key == stored.session_key


def test_an_expired_session_reads_as_none_and_is_not_taken_up() -> None:
    stored = SessionStore()
    stored["scorer_names"] = {"token": "Dan"}
    stored.save()
    Session.objects.filter(session_key=stored.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    read = SessionStore(stored.session_key)
    assert read.load() == {}
    assert read.session_key is None  # a new one is drawn when it is saved
    assert SessionStore("x" * 32).load() == {}  # a key never stored
