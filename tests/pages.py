"""Where a session's pages are, and what a page says, read for assertions: without the parts
that are random on every answer."""

import re

from django.test import Client

from scorekeeper.models import GameSession


def session_url(session: GameSession, suffix: str = "") -> str:
    """The owner's page of a session (its table), or a page under it: "deals/1/", "share/"."""
    return f"/sessions/{session.public_id}/{suffix}"


def table_state(client: Client, session: GameSession) -> str:
    """The adding game's table state as the table page holds it, for the next tap to send."""
    found = re.search(r'name="state" value="([^"]+)"', client.get(session_url(session)).text)
    assert found
    return found.group(1)


def without_tokens(page: str) -> str:
    """The page without what differs on every response: its forms' CSRF token.
    (Random letters can spell a short name, such as "Ann".)"""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)
