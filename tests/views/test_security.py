"""Rate limits on logins and on link guessing, kept in the database."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player, RateLimit
from scorekeeper.ratelimit import attempt, exceeded, forget_old
from scorekeeper.services import create_session


@pytest.fixture(autouse=True)
def _low_limits(settings: Any) -> None:
    settings.LOGIN_RATE_LIMIT = (3, 600)
    settings.LINK_RATE_LIMIT = (4, 600)


def test_attempts_are_counted_per_key(db: None) -> None:
    assert [attempt("k", limit=2, seconds=60) for _ in range(4)] == [True, True, False, False]
    assert exceeded("k", limit=2, seconds=60)
    assert not exceeded("other", limit=2, seconds=60)
    assert attempt("other", limit=2, seconds=60)
    assert RateLimit.objects.get(key="k").count == 4
    assert forget_old() == 0


def test_login_is_limited_per_account(client: Client, alice: User) -> None:
    for _ in range(3):
        response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
        assert response.status_code == 200
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct horse battery"}
    )
    assert response.status_code == 429
    assert "Too many attempts to log in." in response.text
    assert "_auth_user_id" not in client.session
    # Another account from elsewhere is not affected.
    other = Client(REMOTE_ADDR="198.51.100.9")
    User.objects.create_user("bob", password="another staple battery")
    response = other.post(
        "/accounts/login/", {"username": "bob", "password": "another staple battery"}
    )
    assert response.status_code == 302


def test_guessing_links_is_limited(client: Client, alice: User) -> None:
    players = [Player.objects.create(owner=alice, name=n) for n in ["Ann", "Ben", "Cat"]]
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    GameSession.objects.filter(pk=game.pk).update(watch_token="real-token-of-this-table")
    for guess in range(4):
        assert client.get(f"/w/guess-{guess}/").status_code == 404
    response = client.get("/s/guess-5/live/")
    assert response.status_code == 429
    assert "Too many wrong links" in response.text
    # A real link still opens, and polls stay one query (no limit check on a hit).
    assert client.get("/w/real-token-of-this-table/").status_code == 200
    # Another address may still look for links.
    assert Client(REMOTE_ADDR="198.51.100.9").get("/w/guess/").status_code == 404
