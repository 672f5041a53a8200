"""The server's log never holds a watch or scorer link's token: whoever reads the line could
open the link with it."""

from __future__ import annotations

import io
import logging

from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player
from scorekeeper.services import create_session


def test_a_link_turned_off_is_logged_without_its_token(alice: User, roster: list[Player]) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    token = "w" * 12 + "turned-off"
    GameSession.objects.filter(pk=game.pk).update(watch_token=None)
    console = next(h for h in logging.getLogger().handlers if isinstance(h, logging.StreamHandler))
    written = io.StringIO()
    before = console.setStream(written)
    try:
        for path in (f"/w/{token}/", f"/s/{token}/live/", f"/w/{token}/events/?x=1"):
            assert Client().get(path).status_code == 404
    finally:
        console.setStream(before)
    lines = written.getvalue().splitlines()
    assert lines == ["Not Found: /w/…/", "Not Found: /s/…/live/", "Not Found: /w/…/events/"]
