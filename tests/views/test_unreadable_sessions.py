"""Sessions stored before the bounds existed (RULES.md §3, Bounds) still open without a 500.

A session stored when the start form took up to 10,000 match deals (or more tokens than 99)
holds a value the rules refuse now. Its pages that need the rules answer 409 with a page that
says which option holds which value and what is allowed; the owner may download the
scoresheet file as stored and delete the session. Nothing stored is changed or cut down, and
the session list and every player's page keep working.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper import live
from scorekeeper.club.rebuild import rebuild
from scorekeeper.models import Change, Deal, GameSession, Player, RoundEvent
from scorekeeper.services import create_adding_session, create_session, rename_player
from tests.factories import play
from tests.french import needs_french
from tests.i18n.test_every_page_in_french import APP_NAMES, leftovers

TOO_LONG = {"match": {"type": "deals", "deals": 5000}}  # the old start form allowed 10,000
TOO_MANY_TOKENS = {"tokens": 500}
# The owner's pages that need the rules, and what the watch and scorer links open.
OWNER_PAGES = ["", "manage/", "manage/seats/1/", "deals/", "live/", "history/", "display/",
               "display/live/", "session.csv"]  # fmt: skip
WATCH_PAGES = ["", "live/", "deals/", "display/", "display/live/"]
SCORER_PAGES = ["live/", "deals/"]
# What the page says of the trick session.
SAYS = ["Match", "stored: 5,000", "The number of deals must be a whole number from 1 to 999."]


def _break(session: GameSession, options: dict[str, object]) -> GameSession:
    """Store `options` as a session stored before the bounds would hold them, with its links,
    and what is stored above the tables worked out from that history, as a server upgraded
    from then works it out (`manage.py rebuild_club`)."""
    GameSession.objects.filter(pk=session.pk).update(
        options=options, watch_token=f"watch-{session.pk}", scorer_token=f"score-{session.pk}"
    )
    live.forget_all()  # as a process that never saw it scored
    rebuild(session.owner_id)
    return GameSession.objects.get(pk=session.pk)


@pytest.fixture
def old(alice: User, roster: list[Player]) -> GameSession:
    """A trick session with two deals entered, whose match was stored as 5,000 deals."""
    game = create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=roster, title="Old Friday"
    )
    play(game, alice, (4, 5, 0), (3, 3, 3))
    return _break(game, TOO_LONG)


@pytest.fixture
def old_adding(alice: User, roster: list[Player]) -> GameSession:
    game = create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=roster, title="Old pennies"
    )
    return _break(game, TOO_MANY_TOKENS)


def _stored(session: GameSession) -> dict[str, Any]:
    """Everything a visit could change: the session's row, its entries and its history."""
    row = GameSession.objects.filter(pk=session.pk).values().get()
    return {
        "row": row,
        "deals": list(Deal.objects.filter(session=session).values()),
        "events": list(RoundEvent.objects.filter(round__session=session).values()),
        "changes": Change.objects.filter(session=session).count(),
    }


def _explains(response: Any, *words: str) -> str:
    assert response.status_code == 409, response.status_code
    page = response.content.decode()
    assert "cannot be shown" in page
    assert "Nothing has been changed" in page
    for word in words:
        assert word in page, word
    assert response["Cache-Control"].startswith("max-age=0")
    return page


@pytest.mark.parametrize("suffix", OWNER_PAGES)
def test_the_owners_pages_say_what_is_wrong_and_offer_what_works(
    alice_client: Client, old: GameSession, suffix: str
) -> None:
    page = _explains(alice_client.get(f"/sessions/{old.public_id}/{suffix}"), *SAYS)
    assert "“Old Friday” cannot be shown" in page
    assert f'href="/sessions/{old.public_id}/scoresheet.json"' in page
    assert f'href="/sessions/{old.public_id}/manage/delete/"' in page
    # Nothing that would fail is offered: no CSV, no rematch, no deals.
    assert f'href="/sessions/{old.public_id}/session.csv"' not in page
    assert "rematch" not in page
    assert f'href="/sessions/{old.public_id}/deals/"' not in page


def test_an_adding_session_with_too_many_tokens(
    alice_client: Client, old_adding: GameSession
) -> None:
    _explains(
        alice_client.get(f"/sessions/{old_adding.public_id}/"),
        "Tokens",
        "stored: 500",
        "Must be a whole number from 1 to 99.",
    )
    _explains(alice_client.get(f"/w/{old_adding.watch_token}/"), "stored: 500")


@pytest.mark.parametrize("suffix", [*OWNER_PAGES, "manage/delete/", "scoresheet.json", "rules/"])
def test_another_user_gets_404_as_always(bob_client: Client, old: GameSession, suffix: str) -> None:
    assert bob_client.get(f"/sessions/{old.public_id}/{suffix}").status_code == 404


@pytest.mark.parametrize("suffix", WATCH_PAGES)
def test_the_watch_link_explains_without_the_owners_actions(
    client: Client, old: GameSession, suffix: str
) -> None:
    page = _explains(client.get(f"/w/{old.watch_token}/{suffix}"), *SAYS)
    assert "Whoever runs the table can download what was entered" in page
    assert "scoresheet.json" not in page
    assert "/manage/delete/" not in page


@pytest.mark.parametrize("suffix", SCORER_PAGES)
def test_the_scorer_link_explains_without_the_owners_actions(
    client: Client, old: GameSession, suffix: str
) -> None:
    assert client.post(f"/s/{old.scorer_token}/name/", {"name": "Sam"}).status_code == 302
    page = _explains(client.get(f"/s/{old.scorer_token}/{suffix}"), *SAYS)
    assert "scoresheet.json" not in page
    assert "/manage/delete/" not in page


def test_a_deal_sent_to_it_is_refused_and_nothing_is_saved(
    alice_client: Client, old: GameSession
) -> None:
    before = _stored(old)
    deal = {"number": "3", "h0-tricks": "3", "h1-tricks": "3", "h2-tricks": "3", "save": ""}
    _explains(alice_client.post(f"/sessions/{old.public_id}/", deal), *SAYS)
    assert _stored(old) == before


def test_an_open_page_asking_for_a_fragment_is_reloaded(
    alice_client: Client, old: GameSession
) -> None:
    response = alice_client.get(f"/sessions/{old.public_id}/live/", headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert response["HX-Refresh"] == "true"


def test_visiting_every_page_changes_nothing_stored(
    alice_client: Client, client: Client, old: GameSession
) -> None:
    before = _stored(old)
    assert before["row"]["options"] == TOO_LONG
    for suffix in [*OWNER_PAGES, "manage/delete/", "scoresheet.json", "rules/", "share/"]:
        assert alice_client.get(f"/sessions/{old.public_id}/{suffix}").status_code < 500
    for suffix in WATCH_PAGES:
        assert client.get(f"/w/{old.watch_token}/{suffix}").status_code == 409
    assert alice_client.get("/sessions/").status_code == 200
    assert _stored(old) == before


def test_the_scoresheet_file_downloads_as_stored(alice_client: Client, old: GameSession) -> None:
    response = alice_client.get(f"/sessions/{old.public_id}/scoresheet.json")
    assert response.status_code == 200
    day = old.played_on or old.created.date()
    assert response["Content-Disposition"] == f'attachment; filename="old-friday-{day}.json"'
    sheet = json.loads(response.content)
    assert sheet["family"] == "trick"
    assert sheet["ruleset"] == "parlett-jokerless"
    assert sheet["options"] == TOO_LONG  # as stored, not cut down to 999
    assert sheet["title"] == "Old Friday"
    assert sheet["players"] == ["Ann", "Ben", "Cat"]
    assert [deal["hands"]["Ben"]["tricks"] for deal in sheet["deals"]] == [5, 3]
    assert "standings" not in sheet  # computed fields need the rules


def test_the_adding_scoresheet_downloads_as_stored(
    alice_client: Client, old_adding: GameSession
) -> None:
    response = alice_client.get(f"/sessions/{old_adding.public_id}/scoresheet.json")
    assert response.status_code == 200
    sheet = json.loads(response.content)
    assert (sheet["family"], sheet["options"], sheet["rounds"]) == ("adding", {"tokens": 500}, [])


def test_the_session_list_still_lists_it(alice_client: Client, old: GameSession) -> None:
    page = alice_client.get("/sessions/").content.decode()
    assert "Old Friday" in page


def test_a_players_page_counts_the_rest_and_says_what_it_leaves_out(
    alice: User, alice_client: Client, roster: list[Player], old: GameSession
) -> None:
    fine = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    play(fine, alice, (4, 5, 0))
    response = alice_client.get(f"/players/{roster[1].pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Left out: 1 session whose stored rules the app no longer accepts" in page
    assert f'<a href="/sessions/{old.public_id}/">Old Friday</a>' in page
    assert "<dt>Deals</dt><dd>1</dd>" in page  # the fine session's deal, not the old one's two
    assert "<dt>Sessions</dt><dd>1</dd>" in page


def test_a_player_seated_only_there_has_a_page(
    alice_client: Client, roster: list[Player], old: GameSession
) -> None:
    page = alice_client.get(f"/players/{roster[0].pk}/").content.decode()
    assert "Left out: 1 session" in page
    assert "No sessions yet." not in page


def test_its_players_can_still_be_renamed(roster: list[Player], old: GameSession) -> None:
    rename_player(roster[0], "Annie")
    assert GameSession.objects.with_seats().get(pk=old.pk).player_names()[0] == "Annie"
    assert GameSession.objects.get(pk=old.pk).options == TOO_LONG


def test_the_owner_deletes_it_and_it_is_kept_in_the_history(
    alice: User, alice_client: Client, old: GameSession
) -> None:
    assert alice_client.get(f"/sessions/{old.public_id}/manage/delete/").status_code == 200
    response = alice_client.post(f"/sessions/{old.public_id}/manage/delete/", {"delete": ""})
    assert response.status_code == 302
    gone = GameSession.objects.get(pk=old.pk)
    assert gone.deleted is not None
    assert gone.options == TOO_LONG
    assert Deal.objects.filter(session=old).count() == 2
    change = Change.objects.filter(session=old).first()
    assert change is not None and (change.action, change.by_user) == ("removed", alice)
    assert "Old Friday" in alice_client.get("/sessions/deleted/").content.decode()
    assert alice_client.get(f"/sessions/deleted/{old.public_id}/").status_code == 200
    assert alice_client.get(f"/w/{old.watch_token}/").status_code == 404  # links stop working
    assert "Old Friday" not in alice_client.get("/sessions/").content.decode()
    # Restored, it is as it was: still explained, still not cut down.
    restored = alice_client.post(f"/sessions/deleted/{old.public_id}/", {"restore": ""})
    assert restored.status_code == 302
    _explains(alice_client.get(f"/sessions/{old.public_id}/"), *SAYS)
    assert GameSession.objects.get(pk=old.pk).options == TOO_LONG


@needs_french
def test_the_page_reads_in_french(alice_client: Client, old: GameSession) -> None:
    url = f"/sessions/{old.public_id}/"
    pages = {
        language: alice_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for language in ("en", "fr")
    }
    french = pages["fr"]
    assert '<html lang="fr"' in french[:300]
    assert "« Old Friday » ne peut pas être affichée" in french
    assert "enregistré\xa0: 5\xa0000" in french
    assert "Rien n’a été modifié\xa0: chaque donne et chaque manche" in french
    found = leftovers(pages["en"], french, [*APP_NAMES, "Old Friday"])
    assert not found, found
