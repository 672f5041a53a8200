"""Whose a page is (scorekeeper/owner.py): every page names the phone's login state with a mark
that the service worker and the outbox keep beside what they store (templates/cheatsheets/sw.js,
static/js/forget.js), and, for an account, how long its session has left. The browser tests
(test_offline_table.py, test_cheatsheets.py, test_outbox.py) show what the phone does with them.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from scorekeeper.models import GameSession
from scorekeeper.owner import ANONYMOUS
from scorekeeper.services import save_ruleset
from tests.factories import with_links

MARK = re.compile(r"[0-9a-f]{32}")


def _mark(client: Client, url: str = "/rules/") -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    mark: str = response["X-Owner-Mark"]
    assert f'data-owner="{mark}"' in response.text
    return mark


def test_a_page_with_nobody_logged_in_is_nobodys(client: Client, game: GameSession) -> None:
    game = with_links(game, watch="w" * 32, scorer="s" * 32)
    client.post(f"/s/{game.scorer_token}/name/", {"name": "Sam"})
    for url in (
        "/rules/",
        "/accounts/login/",
        f"/w/{game.watch_token}/",
        f"/s/{game.scorer_token}/",
    ):
        response = client.get(url)
        assert response["X-Owner-Mark"] == ANONYMOUS, url
        assert f'data-owner="{ANONYMOUS}"' in response.text, url
        assert "X-Owner-Ends" not in response, url
    # Asked again, the watch page kept for every phone carries the same mark.
    assert _mark(client, f"/w/{game.watch_token}/") == ANONYMOUS


def test_an_accounts_mark_is_its_own_and_says_nothing_of_it(
    alice_client: Client, bob_client: Client, alice: User, game: GameSession
) -> None:
    alices = _mark(alice_client)
    assert MARK.fullmatch(alices)
    assert alices != _mark(bob_client)
    # The same on every page of hers, and in another session of hers (another phone).
    assert _mark(alice_client, f"/sessions/{game.public_id}/") == alices
    other = Client()
    other.force_login(alice)
    assert _mark(other) == alices


def test_a_password_change_makes_another_mark(alice_client: Client, alice: User) -> None:
    before = _mark(alice_client)
    response = alice_client.post(
        "/accounts/password/",
        {
            "old_password": "correct horse battery",
            "new_password1": "a new table password",
            "new_password2": "a new table password",
        },
    )
    assert response.status_code == 302
    assert _mark(alice_client) != before


def test_an_account_page_says_how_long_its_session_has_left(
    alice_client: Client, alice: User
) -> None:
    response = alice_client.get("/rules/")
    left = int(response["X-Owner-Ends"])
    assert settings.SESSION_COOKIE_AGE - 60 <= left <= settings.SESSION_COOKIE_AGE
    # The stored session's own end, not a fresh one's: the cookie ends then.
    key = alice_client.cookies[settings.SESSION_COOKIE_NAME].value
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() + timedelta(seconds=100)
    )
    assert 90 <= int(alice_client.get("/rules/")["X-Owner-Ends"]) <= 100


def test_a_part_of_a_page_and_a_file_carry_no_mark(alice_client: Client, game: GameSession) -> None:
    response = alice_client.get(f"/sessions/{game.public_id}/live/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "X-Owner-Mark" not in response
    for url in ("/sw.js", "/manifest.webmanifest", f"/sessions/{game.public_id}/session.csv"):
        assert "X-Owner-Mark" not in alice_client.get(url), url


def test_the_offline_page_answers_head_with_whose_the_phone_is(
    client: Client, alice_client: Client
) -> None:
    assert Client().head("/offline/")["X-Owner-Mark"] == ANONYMOUS
    response = alice_client.head("/offline/")
    assert response.status_code == 200
    assert response["X-Owner-Mark"] == _mark(alice_client)


def test_a_saved_rulesets_sheet_and_pad_are_the_owners_alone(
    alice_client: Client, alice: User
) -> None:
    saved = save_ruleset(owner=alice, name="House", family="trick", ruleset="five", options={})
    for url in (f"/rules/saved/{saved.pk}/", f"/rules/saved/{saved.pk}/pad/"):
        control = {part.strip() for part in alice_client.get(url)["Cache-Control"].split(",")}
        assert "private" in control, url
        assert "public" not in control, url


def test_the_service_worker_keeps_copies_by_whose_they_are(client: Client, db: None) -> None:
    script = client.get("/sw.js").text
    assert f'const ANONYMOUS = "{ANONYMOUS}";' in script
    assert 'const PRIVATE_CACHE = "scorekeeper-private";' in script
    assert 'const OWNER_KEY = "/sw.js?owner";' in script
    assert 'headers.set("X-Stored-Owner", response.headers.get("X-Owner-Mark") || ANONYMOUS);' in (
        script
    )
