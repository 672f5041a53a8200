"""What one account may keep: players, saved rulesets and sessions (settings ACCOUNT_MAX_*).

Each way of creating one refuses past the limit with a message saying so, saves nothing and
gives back what was typed; the start page's seat menus cost one query of the roster.
"""

from __future__ import annotations

import io
import json
import threading
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from scorekeeper.forms.players import roster_name
from scorekeeper.models import GameSession, Player, SavedRuleset
from scorekeeper.night_models import Night
from scorekeeper.scoresheet import loads_scoresheet
from scorekeeper.services import Rejected, create_session, import_scoresheet, save_ruleset
from scorekeeper.services.limits import AccountFull
from tests.factories import EMPTY_SHEET, club_night, finished_session, post_scoresheet
from tests.french import needs_french

PLAYERS_FULL = "An account keeps at most 4 players, archived ones included, and yours has 4."
RULESETS_FULL = "An account keeps at most 2 saved rulesets, and yours has 2"
SESSIONS_FULL = "An account keeps at most 2 sessions, deleted ones included until"
SHEET = EMPTY_SHEET


@pytest.fixture(autouse=True)
def _small_limits(settings: Any) -> None:
    settings.ACCOUNT_MAX_PLAYERS = 4
    settings.ACCOUNT_MAX_RULESETS = 2
    settings.ACCOUNT_MAX_SESSIONS = 2


@pytest.fixture
def full_roster(alice: User, roster: list[Player]) -> list[Player]:
    """Four players, one of them archived: archived players count."""
    return [*roster, Player.objects.create(owner=alice, name="Old", archived=True)]


def _sessions(alice: User, players: list[Player], count: int) -> list[GameSession]:
    return [
        create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
        for _ in range(count)
    ]


# Players


@pytest.mark.parametrize("htmx", [False, True])
def test_a_full_roster_refuses_another_player_and_keeps_the_name(
    alice_client: Client, full_roster: list[Player], htmx: bool
) -> None:
    headers = {"HX-Request": "true"} if htmx else {}
    response = alice_client.post("/players/", {"name": "Dan"}, headers=headers)
    assert response.status_code == 200
    assert escape(PLAYERS_FULL) in response.text
    assert 'value="Dan"' in response.text
    assert Player.objects.count() == 4


@needs_french
def test_a_full_roster_says_so_in_french(alice_client: Client, full_roster: list[Player]) -> None:
    page = alice_client.post("/players/", {"name": "Dan"}, HTTP_ACCEPT_LANGUAGE="fr").text
    assert "Un compte garde au plus 4 joueurs, archivés compris, et le vôtre en a 4." in page


@pytest.mark.django_db(transaction=True)
def test_phones_adding_players_at_once_never_pass_the_limit(
    alice: User, roster: list[Player]
) -> None:
    barrier = threading.Barrier(4)
    pages: list[str] = []

    def phone(name: str) -> None:
        client = Client()
        client.force_login(alice)
        barrier.wait()
        pages.append(client.post("/players/", {"name": name}, follow=True).text)
        connection.close()

    names = ("Dan", "Eve", "Fay", "Gil")
    threads = [threading.Thread(target=phone, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Player.objects.count() == 4
    assert sum(escape(PLAYERS_FULL) in page for page in pages) == 3


def test_renaming_a_player_of_a_full_roster_is_still_allowed(
    alice_client: Client, full_roster: list[Player]
) -> None:
    ann = full_roster[0]
    assert alice_client.post(f"/players/{ann.pk}/", {"name": "Anne"}).status_code == 302
    assert Player.objects.get(pk=ann.pk).name == "Anne"


def test_adding_a_player_on_the_start_page_is_refused_with_the_seats_kept(
    alice_client: Client, full_roster: list[Player]
) -> None:
    ann, ben, cat, _old = full_roster
    response = alice_client.post(
        "/sessions/new/trick/five/",
        {"seat_0": ann.pk, "seat_1": cat.pk, "new-name": "Dan", "add_player": ""},
    )
    assert response.status_code == 200
    assert escape(PLAYERS_FULL) in response.text
    assert 'value="Dan"' in response.text
    assert f'<option value="{cat.pk}" selected>' in response.text.split('name="seat_1"')[1]
    assert Player.objects.count() == 4


def test_a_newcomer_by_name_is_refused_when_the_roster_is_full(
    alice_client: Client, alice: User, full_roster: list[Player]
) -> None:
    (game,) = _sessions(alice, full_roster[:3], 1)
    url = f"/sessions/{game.public_id}/manage/seats/3/"
    for step in ({"check": ""}, {"confirm": "", "played": "0"}):
        response = alice_client.post(url, {**step, "new_name": "Dan"})
        assert response.status_code == 200
        assert escape(PLAYERS_FULL) in response.text
        assert 'value="Dan"' in response.text
    assert Player.objects.count() == 4
    assert GameSession.objects.with_seats().get(pk=game.pk).player_names() == ["Ann", "Ben", "Cat"]


def test_an_import_that_brings_players_past_the_limit_is_refused(
    alice_client: Client, full_roster: list[Player]
) -> None:
    response = post_scoresheet(alice_client, {**SHEET, "players": ["Ann", "Dan", "Eve"]})
    assert response.status_code == 200
    assert "This file adds 2 players to your roster, which has no room for them." in response.text
    assert escape(PLAYERS_FULL) in response.text
    assert GameSession.objects.count() == 0
    assert Player.objects.count() == 4
    # A file of players the roster has already fits.
    assert post_scoresheet(alice_client, SHEET).status_code == 302


NIGHT = {
    "name": "Thursday club",
    "played_on": "2026-11-26",
    "least": "3",
    "most": "3",
    "deals": "2",
    "rounds": "4",
    "method": "placement",
}


def test_a_night_s_new_players_are_refused_together_past_the_limit(
    alice_client: Client, roster: list[Player]
) -> None:
    # Three players and room for one: each of two new names fits alone, not both.
    data = {**NIGHT, "players": [player.pk for player in roster], "new_players": "Dan\nEve"}
    response = alice_client.post("/nights/new/trick/parlett-jokerless/", data)
    assert response.status_code == 200
    assert "These lines add 2 players to your roster, which has no room for them." in response.text
    assert escape(PLAYERS_FULL.replace("4.", "3.")) in response.text
    assert "Dan\nEve" in response.text  # what was typed stays
    assert Player.objects.count() == 3
    assert not Night.objects.exists()


def test_a_night_made_when_the_roster_filled_meanwhile_makes_nothing(
    alice: User, roster: list[Player]
) -> None:
    Player.objects.create(owner=alice, name="Old")  # another phone took the last room
    with pytest.raises(AccountFull, match="The night adds 1 new player to your roster"):
        club_night(alice, roster, new_names=["Dan"])
    assert Player.objects.count() == 4
    assert not Night.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_organisers_adding_the_same_late_arrival_make_one_player(
    alice: User, roster: list[Player], settings: Any
) -> None:
    settings.ACCOUNT_MAX_PLAYERS = 500
    night = club_night(alice, roster)
    barrier = threading.Barrier(2)
    answers: list[tuple[int, str]] = []
    checked = threading.Barrier(2, timeout=30)

    def name_checked_on_both_phones(*args: Any, **kwargs: Any) -> str:
        # Both forms find the name free before either phone stores it.
        name = roster_name(*args, **kwargs)
        checked.wait()
        return name

    def organiser() -> None:
        client = Client()
        client.force_login(alice)
        barrier.wait()
        response = client.post(
            f"/nights/{night.public_id}/", {"arrive": "", "name": "Zoe"}, follow=True
        )
        answers.append((response.status_code, response.text))
        connection.close()

    threads = [threading.Thread(target=organiser) for _ in range(2)]
    with mock.patch("scorekeeper.forms.nights.roster_name", name_checked_on_both_phones):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert [status for status, _text in answers] == [200, 200]
    pages = [text.replace("&#x27;", "'") for _status, text in answers]
    assert sum("Zoe plays from round 1." in page for page in pages) == 1
    assert sum("You already have a player called Zoe." in page for page in pages) == 1
    assert Player.objects.filter(name="Zoe").count() == 1
    assert night.players.filter(player__name="Zoe").count() == 1


# Saved rulesets


def test_a_full_account_refuses_another_ruleset_but_changes_one(alice_client: Client) -> None:
    for name in ("Friday", "Sunday"):
        response = alice_client.post("/rulesets/new/trick/parlett-classic/", {"name": name})
        assert response.status_code == 302
    response = alice_client.post(
        "/rulesets/new/trick/parlett-classic/", {"name": "Monday", "trump": "declared"}
    )
    assert response.status_code == 200
    assert escape(RULESETS_FULL) in response.text
    assert 'value="Monday"' in response.text
    assert '<option value="declared" selected>' in response.text
    assert SavedRuleset.objects.count() == 2
    friday = SavedRuleset.objects.get(name="Friday")
    response = alice_client.post(f"/rulesets/{friday.pk}/change/", {"name": "Fridays"})
    assert response.status_code == 302


# Sessions


def test_a_full_account_refuses_to_start_a_session_and_keeps_the_form(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    _sessions(alice, roster, 2)
    ann, ben, cat = roster
    response = alice_client.post(
        "/sessions/new/trick/parlett-jokerless/",
        {"seat_0": ann.pk, "seat_1": ben.pk, "seat_2": cat.pk, "title": "Third", "start": ""},
    )
    assert response.status_code == 200
    assert escape(SESSIONS_FULL) in response.text
    assert 'value="Third"' in response.text
    assert f'<option value="{cat.pk}" selected>' in response.text.split('name="seat_2"')[1]
    assert GameSession.objects.count() == 2


def test_deleted_sessions_count_until_deleted_for_good(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    first, _second = _sessions(alice, roster, 2)
    GameSession.objects.filter(pk=first.pk).update(deleted=first.created)
    with pytest.raises(Rejected, match="deleted ones included"):
        _sessions(alice, roster, 1)
    first.delete()
    _sessions(alice, roster, 1)


def test_a_full_account_refuses_an_import(alice_client: Client, roster: list[Player]) -> None:
    assert post_scoresheet(alice_client, SHEET).status_code == 302
    assert post_scoresheet(alice_client, SHEET).status_code == 302
    response = post_scoresheet(alice_client, SHEET)
    assert response.status_code == 200
    assert escape(SESSIONS_FULL) in response.text
    assert GameSession.objects.count() == 2


def test_a_full_account_refuses_a_rematch(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    done = finished_session(alice, roster)
    _sessions(alice, roster, 1)
    response = alice_client.post(f"/sessions/{done.public_id}/rematch/", {"form_key": "k"})
    assert response["Location"] == f"/sessions/{done.public_id}/"
    page = alice_client.get(response["Location"]).text
    assert escape(SESSIONS_FULL) in page
    assert GameSession.objects.count() == 2


# Every service that creates refuses past the limit, whoever calls it.


def test_every_service_that_creates_refuses_past_the_limit(
    alice: User, full_roster: list[Player]
) -> None:
    players = full_roster[:3]
    _sessions(alice, players, 2)
    with pytest.raises(Rejected, match="at most 2 sessions"):
        _sessions(alice, players, 1)
    with pytest.raises(Rejected, match="at most 2 sessions"):
        import_scoresheet(owner=alice, sheet=loads_scoresheet(json.dumps(SHEET)))
    for name in ("A", "B"):
        save_ruleset(owner=alice, name=name, family="trick", ruleset="five", options={})
    with pytest.raises(Rejected, match="at most 2 saved rulesets"):
        save_ruleset(owner=alice, name="C", family="trick", ruleset="five", options={})
    assert (GameSession.objects.count(), SavedRuleset.objects.count()) == (2, 2)


def test_limits_are_per_account(
    alice: User, bob: User, full_roster: list[Player], bob_client: Client
) -> None:
    assert bob_client.post("/players/", {"name": "Dan"}).status_code == 302


# The start page


def test_the_start_page_reads_the_roster_once_for_every_seat(
    alice_client: Client, roster: list[Player]
) -> None:
    with CaptureQueriesContext(connection) as queries:
        page = alice_client.get("/sessions/new/adding/thirty-three/").text
    reads = [q["sql"] for q in queries if 'FROM "scorekeeper_player"' in q["sql"]]
    assert len(reads) == 1, reads
    assert page.count('<select name="seat_') == 10
    # One menu a seat: the first dealer is ticked beside its seat.
    assert page.count(f'<option value="{roster[0].pk}">Ann</option>') == 10


def test_the_import_command_says_the_account_is_full(
    alice: User, roster: list[Player], tmp_path: Any
) -> None:
    _sessions(alice, roster, 2)
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET))
    with pytest.raises(CommandError, match="An account keeps at most 2 sessions"):
        call_command("import_scoresheet", str(path), owner="alice", stdout=io.StringIO())
    assert GameSession.objects.count() == 2
