"""The server's log never holds a link's token: whoever reads the line could open the link
with it."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from scorekeeper.logs import LINK_PREFIXES
from scorekeeper.models import GameSession, Player
from scorekeeper.services import create_session

TOKEN = "w" * 12 + "turned-off"


@pytest.fixture
def written() -> Iterator[io.StringIO]:
    """What the console handler writes while the test runs."""
    console = next(h for h in logging.getLogger().handlers if isinstance(h, logging.StreamHandler))
    out = io.StringIO()
    before = console.setStream(out)
    try:
        yield out
    finally:
        console.setStream(before)


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def _link_routes() -> list[str]:
    """Every URL that carries a token: a link."""
    return [route for route in _routes(get_resolver().url_patterns) if "<str:token>" in route]


def test_every_kind_of_link_is_known_to_the_log_filter() -> None:
    routes = _link_routes()
    kinds = {route.split("/")[0] for route in routes}
    assert kinds == set(LINK_PREFIXES), routes
    assert all(route.startswith(f"{route.split('/')[0]}/<str:token>/") for route in routes)


def test_a_link_turned_off_is_logged_without_its_token(
    alice: User, roster: list[Player], written: io.StringIO
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    GameSession.objects.filter(pk=game.pk).update(watch_token=None)
    for path in (f"/w/{TOKEN}/", f"/s/{TOKEN}/live/", f"/w/{TOKEN}/events/?x=1"):
        assert Client().get(path).status_code == 404
    lines = written.getvalue().splitlines()
    assert lines == ["Not Found: /w/…/", "Not Found: /s/…/live/", "Not Found: /w/…/events/"]


def test_no_link_of_any_kind_is_logged_with_its_token(db: None, written: io.StringIO) -> None:
    routes = _link_routes()
    for route in routes:
        path = "/" + route.replace("<str:token>", TOKEN)
        assert Client().get(path).status_code in (404, 405), path
        # A form posted without its CSRF cookie is logged too ("Forbidden (CSRF cookie not
        # set.): /t/<token>/").
        Client(enforce_csrf_checks=True).post(path, {"x": "1"})
    text = written.getvalue()
    assert TOKEN not in text
    assert len(text.splitlines()) >= 2 * len(routes)
    assert "Forbidden (CSRF cookie not set.): /t/…/" in text
