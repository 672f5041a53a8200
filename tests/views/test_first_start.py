"""What a server fresh from scripts/run says: the host's first account, and on plain HTTP
from a phone on the local network, which browser features are off and why."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Player, new_link_token
from scorekeeper.services import create_session

PLAIN_HTTP_NOTE = 'id="plain-http"'
WAKE_LOCK_NOTE = "Keeping the screen on needs HTTPS"
FIRST_START = "First start: nobody has an account here yet"


@pytest.fixture
def lan(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["192.168.1.20", "localhost", "127.0.0.1", "testserver"]


def test_the_first_visitor_of_a_new_server_is_asked_to_host(client: Client, db: None) -> None:
    page = client.get("/").text
    assert FIRST_START in page
    assert "The others need no account" in page
    assert 'href="/accounts/signup/"' in page
    User.objects.create_user("host", password="x")
    page = client.get("/").text
    assert FIRST_START not in page
    assert "Create an account" in page


@pytest.mark.parametrize(
    ("host", "secure", "noted"),
    [
        ("192.168.1.20:8000", False, True),  # a phone on the Wi-Fi, plain HTTP
        ("192.168.1.20:8000", True, False),  # scripts/run --https
        ("localhost:8000", False, False),  # the laptop itself is a secure context
        ("127.0.0.1:8000", False, False),
    ],
)
def test_plain_http_on_the_lan_says_what_is_off(
    client: Client, db: None, lan: None, host: str, secure: bool, noted: bool
) -> None:
    for url in ["/", "/rules/", "/accounts/login/"]:
        page = client.get(url, HTTP_HOST=host, secure=secure).text
        assert (PLAIN_HTTP_NOTE in page) is noted, url
    rules = client.get("/rules/", HTTP_HOST=host, secure=secure).text
    assert ("but not over this plain HTTP connection" in rules) is noted
    assert ("the sheets you open also work offline." in rules) is not noted


def test_the_wake_lock_buttons_say_why_they_are_missing(
    alice_client: Client, alice: User, lan: None
) -> None:
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    game.watch_token = new_link_token()
    game.save(update_fields=["watch_token"])
    for url in [
        f"/sessions/{game.public_id}/",
        f"/sessions/{game.public_id}/display/",
    ]:
        assert WAKE_LOCK_NOTE in alice_client.get(url, HTTP_HOST="192.168.1.20").text, url
        assert WAKE_LOCK_NOTE not in alice_client.get(url, HTTP_HOST="localhost").text, url
    # A link's page is the same for every phone: each phone's browser says whether it came
    # over plain HTTP, and shows or removes the notes (static/js/plain-http.js; in the
    # browser: tests/browser/test_plain_http.py).
    for url in [f"/w/{game.watch_token}/", f"/w/{game.watch_token}/display/"]:
        lan, itself = (
            alice_client.get(url, HTTP_HOST=host).text for host in ("192.168.1.20", "localhost")
        )
        assert lan == itself and WAKE_LOCK_NOTE in lan, url
        note = lan.split(WAKE_LOCK_NOTE)[0].rsplit("<p ", 1)[1]
        assert "data-plain-http hidden" in note, url
