"""Rate limits on logins and on link guessing, kept in the database."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from scorekeeper.models import GameSession, Player, RateLimit
from scorekeeper.ratelimit import attempt, client_address, exceeded, forget_old
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


@pytest.mark.parametrize(
    ("proxies", "forwarded", "remote", "counted_as"),
    [
        (0, "203.0.113.7", "10.0.0.2", "10.0.0.2"),  # no proxy trusted: the header is ignored
        (1, "203.0.113.7", "10.0.0.2", "203.0.113.7"),
        (1, "6.6.6.6, 203.0.113.7", "10.0.0.2", "203.0.113.7"),  # the client's own entry
        (2, "6.6.6.6, 203.0.113.7, 10.0.0.9", "10.0.0.2", "203.0.113.7"),
        (2, "203.0.113.7", "10.0.0.2", "10.0.0.2"),  # fewer entries than proxies
        (1, "", "10.0.0.2", "10.0.0.2"),
    ],
)
def test_behind_trusted_proxies_the_limit_counts_the_forwarded_address(
    settings: Any, proxies: int, forwarded: str, remote: str, counted_as: str
) -> None:
    settings.TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == counted_as


def test_behind_a_proxy_each_phone_has_its_own_link_allowance(
    client: Client, settings: Any, db: None
) -> None:
    settings.TRUSTED_PROXIES = 1
    settings.LINK_RATE_LIMIT = (3, 600)
    for guess in range(3):
        assert (
            client.get(f"/w/guess-{guess}/", HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 404
        )
    assert client.get("/w/guess-9/", HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
    # The same proxy (REMOTE_ADDR) forwarding another phone: that phone is not blocked.
    assert client.get("/w/guess-9/", HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 404
    # Writing a fresh address in front of the header does not reset the count.
    spoofed = "198.51.100.1, 203.0.113.7"
    assert client.get("/w/guess-9/", HTTP_X_FORWARDED_FOR=spoofed).status_code == 429


@pytest.mark.parametrize("spelling", [" carol", "carol ", "\u3000carol", "ｃａｒｏｌ", "Carol"])
def test_every_spelling_of_an_account_name_shares_its_limit(db: None, spelling: str) -> None:
    # The log-in strips the name and normalises it (NFKC) before it looks the account up, so
    # every spelling that reaches carol's account counts against carol's one allowance.
    User.objects.create_user("carol", password="correct horse battery")
    for n, wrong in enumerate(["carol", " carol", "ｃａｒｏｌ"]):
        phone = Client(REMOTE_ADDR=f"198.51.100.{n + 1}")
        assert (
            phone.post("/accounts/login/", {"username": wrong, "password": "no"}).status_code == 200
        )
    phone = Client(REMOTE_ADDR="198.51.100.9")
    right = {"username": spelling, "password": "correct horse battery"}
    assert phone.post("/accounts/login/", right).status_code == 429
    assert "_auth_user_id" not in phone.session


def test_a_name_that_case_folds_long_is_counted_in_a_key_that_fits(
    client: Client, db: None
) -> None:
    # "ﬃ" folds to three letters: 150 of them make 450, past the key column's 200 characters
    # (PostgreSQL refuses a value too long for its column; SQLite stores it).
    response = client.post("/accounts/login/", {"username": "ﬃ" * 150, "password": "no"})
    assert response.status_code == 200
    longest = RateLimit._meta.get_field("key").max_length
    assert all(len(key) <= longest for key in RateLimit.objects.values_list("key", flat=True))
    assert RateLimit.objects.filter(key__startswith="login-user:").count() == 1
