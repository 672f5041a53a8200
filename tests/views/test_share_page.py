"""The share page's Share and Copy buttons: progressive (hidden until static/js/share.js shows
them), one pair per link, beside the link itself."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Player
from scorekeeper.services import create_session


def test_each_link_has_share_and_copy_buttons_shown_by_script(
    alice_client: Client, alice: User
) -> None:
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=players, title="Friday"
    )
    url = f"/sessions/{game.public_id}/share/"
    page = alice_client.get(url).text
    assert "data-share-for" not in page  # no link yet, nothing to share
    alice_client.post(url, {"watch": "on", "scorer": "on"})
    game.refresh_from_db()
    page = alice_client.get(url).text
    assert '<script src="/static/js/share.js" defer></script>' in page
    assert f'id="watch-url">http://testserver/w/{game.watch_token}/</a>' in page
    assert f'id="scorer-url">http://testserver/s/{game.scorer_token}/</a>' in page
    for link, title in [("watch-url", "live standings"), ("scorer-url", "keep score with us")]:
        box = f'data-share-for="{link}" data-share-title="Friday: {title}" hidden>'
        assert f'<div class="share-actions" {box}' in page
    assert page.count('<button type="button" class="btn btn-success" data-share hidden>') == 2
    assert page.count("data-copy>Copy link</button>") == 2
