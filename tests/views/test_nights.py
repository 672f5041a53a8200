"""Club night pages: planning a night, running it round by round, the room's leaderboard,
the table cards, the downloads; each page refuses other users and bad input."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night
from scorekeeper.services.nights import start_round
from tests.factories import new_players, play

NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
NEW_TRICK = "/nights/new/trick/parlett-jokerless/"


@pytest.fixture
def nine(alice: User) -> list[Player]:
    return new_players(alice, NINE)


def plan(client: Client, players: list[Player], **fields: object) -> Night:
    data = {
        "name": "Thursday club",
        "played_on": "2026-11-26",
        "least": "3",
        "most": "3",
        "deals": "2",
        "rounds": "4",
        "method": "placement",
        "players": [player.pk for player in players],
        "new_players": "",
        "prizes": "A bottle\nA box of chocolates",
        **fields,
    }
    response = client.post(NEW_TRICK, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Night.objects.get()


def test_the_pages_that_lead_to_a_night(alice_client: Client) -> None:
    assert "Club nights" in alice_client.get("/sessions/").text
    assert "Plan a new night" in alice_client.get("/nights/").text
    page = alice_client.get("/nights/new/").text
    assert NEW_TRICK in page and "/nights/new/adding/thirty-three/" in page
    form = alice_client.get(NEW_TRICK).text
    assert "Deals at each table in a round" in form and "Placement points" in form


def test_a_night_is_planned_with_new_players_typed_in(
    alice_client: Client, nine: list[Player]
) -> None:
    night = plan(alice_client, nine[:7], new_players="Hal2\n  Ivy2 ")
    assert night.players.count() == 9
    assert {"Hal2", "Ivy2"} <= set(Player.objects.values_list("name", flat=True))
    assert night.deals == 2 and night.rounds == 4 and night.method == "placement"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": ""}, "This field is required"),
        ({"players": []}, "Choose at least 3 players"),
        ({"rounds": "0"}, "greater than or equal to 1"),
        ({"swiss_from": "9"}, "The night has 4 rounds"),
        ({"new_players": "Ann"}, "Line 1: You already have a player called Ann."),
        ({"new_players": "Zed\nzed"}, "Line 2: zed is there twice."),
        ({"method": "nonsense"}, "Select a valid choice"),
    ],
)
def test_a_night_s_form_says_what_is_wrong_and_keeps_what_was_typed(
    alice_client: Client, nine: list[Player], fields: dict[str, object], message: str
) -> None:
    data = {
        "name": "Thursday club",
        "played_on": "2026-11-26",
        "least": "3",
        "most": "3",
        "deals": "2",
        "rounds": "4",
        "method": "placement",
        "players": [player.pk for player in nine],
        "new_players": "",
        **fields,
    }
    response = alice_client.post(NEW_TRICK, data)
    assert response.status_code == 200
    assert message in response.text.replace("&#x27;", "'")
    assert not Night.objects.exists()


def test_the_adding_game_offers_placement_alone(alice_client: Client) -> None:
    page = alice_client.get("/nights/new/adding/thirty-three/").text
    assert "Placement points" in page
    assert "Total points" not in page and "Deals at each table" not in page


def test_a_night_runs_round_by_round_and_ends_with_its_prizes(
    alice_client: Client, alice: User, nine: list[Player]
) -> None:
    night = plan(alice_client, nine)
    url = f"/nights/{night.public_id}/"
    assert "Seat round 1" in alice_client.get(url).text
    for number in range(1, 5):
        response = alice_client.post(url, {"start": ""}, follow=True)
        assert f"Round {number} is seated." in response.text
        assert "Deal 1 of 2" in response.text
        for session in GameSession.objects.filter(night=night, night_round=number):
            play(session, alice, (3, 3, 3), (4, 3, 2))
    page = alice_client.get(url).text
    assert "So far no pair of players has met more than once." in page
    response = alice_client.post(url, {"finish": ""}, follow=True)
    assert "Final standings" in response.text and "A bottle" in response.text


def test_a_round_cannot_be_seated_while_tables_play(
    alice_client: Client, nine: list[Player]
) -> None:
    night = plan(alice_client, nine)
    url = f"/nights/{night.public_id}/"
    alice_client.post(url, {"start": ""})
    response = alice_client.post(url, {"start": ""}, follow=True)
    assert "Round 1 is still being played." in response.text
    assert GameSession.objects.filter(night=night).count() == 3


def test_a_table_closed_early_needs_a_reason(alice_client: Client, nine: list[Player]) -> None:
    night = plan(alice_client, nine)
    url = f"/nights/{night.public_id}/"
    alice_client.post(url, {"start": ""})
    table = GameSession.objects.get(night=night, night_table=2)
    response = alice_client.post(url, {"close": table.public_id, "reason": ""})
    assert "This field is required" in response.text
    # Its panel comes back open, the reason asked where it was typed; the others stay shut.
    assert response.text.count('<details class="mt-1" id="close-2" open>') == 1
    assert response.text.count("This field is required") == 1
    assert 'action="#close-2"' in response.text
    response = alice_client.post(
        url, {"close": table.public_id, "reason": "Dan fell ill"}, follow=True
    )
    assert "Table 2 is closed: it counts as it stands." in response.text
    history = alice_client.get(f"/sessions/{table.public_id}/history/").text
    assert "Why: Dan fell ill" in history


def test_late_arrivals_and_leavers(alice_client: Client, alice: User, nine: list[Player]) -> None:
    night = plan(alice_client, nine[:6])
    url = f"/nights/{night.public_id}/"
    response = alice_client.post(url, {"arrive": "", "player": "", "name": ""})
    assert "Choose a player, or type a new one" in response.text
    response = alice_client.post(url, {"arrive": "", "player": nine[6].pk}, follow=True)
    assert "Gus plays from round 1." in response.text
    response = alice_client.post(url, {"arrive": "", "name": "Zoe"}, follow=True)
    assert "Zoe plays from round 1." in response.text
    response = alice_client.post(url, {"leave": nine[0].pk}, follow=True)
    assert "Ann plays no more rounds." in response.text
    assert night.players.count() == 7


def test_the_room_s_leaderboard_follows_the_tables(
    client: Client, alice_client: Client, alice: User, nine: list[Player]
) -> None:
    night = plan(alice_client, nine)
    night = start_round(night=night)
    watch = f"/n/{night.watch_token}/"
    first = client.get(watch)
    assert first.status_code == 200 and "Standings, round 1 of 4" in first.text
    etag = first["ETag"]
    unchanged = client.get(watch, headers={"HX-Request": "true", "If-None-Match": etag})
    assert unchanged.status_code == 304
    play(GameSession.objects.get(night=night, night_table=1), alice, (3, 3, 3))
    changed = client.get(watch, headers={"HX-Request": "true", "If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert 'id="live"' in changed.text and "<html" not in changed.text
    display = client.get(f"/n/{night.watch_token}/display/")
    assert display.status_code == 200 and "night-display" in display.text
    assert client.get("/n/not-a-token/").status_code == 404


def test_a_table_s_card_opens_its_session_of_the_round_being_played(
    client: Client, alice_client: Client, alice: User, nine: list[Player], settings: Any
) -> None:
    settings.SITE_URL = "http://192.168.1.20:8000"
    night = plan(alice_client, nine)
    cards = alice_client.get(f"/nights/{night.public_id}/cards/")
    assert "The cards are ready once round 1 is seated" in cards.text
    night = start_round(night=night)
    cards = alice_client.get(f"/nights/{night.public_id}/cards/")
    assert "http://192.168.1.20:8000/t/" in cards.text
    assert cards.text.count("<svg") == 3 and "Round 1:" in cards.text
    table = night.tables.get(number=1)
    waiting = client.get(f"/t/{table.scorer_token}/")
    session = GameSession.objects.get(night=night, night_round=1, night_table=1)
    assert waiting.status_code == 302 and waiting["Location"] == f"/s/{session.scorer_token}/"
    client.post(f"/s/{session.scorer_token}/name/", {"name": "Sam"})
    for other in GameSession.objects.filter(night=night, night_round=1):
        play(other, alice, (3, 3, 3), (3, 3, 3))
    night = start_round(night=night)
    later = GameSession.objects.get(night=night, night_round=2, night_table=1)
    assert client.get(f"/t/{table.scorer_token}/")["Location"] == f"/s/{later.scorer_token}/"
    page = client.get(f"/s/{later.scorer_token}/", follow=True)
    assert "Sam" in page.text  # the name typed in round 1 holds for the night


def test_the_round_sheet_and_the_downloads(
    alice_client: Client, alice: User, nine: list[Player]
) -> None:
    night = start_round(night=plan(alice_client, nine))
    for session in GameSession.objects.filter(night=night):
        play(session, alice, (3, 3, 3))
    sheet = alice_client.get(f"/nights/{night.public_id}/sheet/").text
    assert "Who sits where" in sheet and "Round 1" in sheet
    rows = list(
        csv.reader(io.StringIO(alice_client.get(f"/nights/{night.public_id}/results.csv").text))
    )
    assert rows[0][:2] == ["Rank", "Player"] and len(rows) == 10
    data = json.loads(alice_client.get(f"/nights/{night.public_id}/night.json").content)
    assert data["night"] == "Thursday club" and len(data["seating"][0]["tables"]) == 3
    assert len(data["leaderboard"]) == 9


@pytest.mark.parametrize(
    "suffix", ["", "display/", "cards/", "sheet/", "results.csv", "night.json"]
)
def test_another_user_gets_404(
    alice_client: Client, bob_client: Client, nine: list[Player], suffix: str
) -> None:
    night = plan(alice_client, nine)
    assert bob_client.get(f"/nights/{night.public_id}/{suffix}").status_code == 404
    assert bob_client.post(f"/nights/{night.public_id}/", {"start": ""}).status_code == 404


def test_a_finished_table_points_its_scorer_to_the_next_round(
    client: Client, alice_client: Client, alice: User, nine: list[Player]
) -> None:
    night = start_round(night=plan(alice_client, nine))
    session = GameSession.objects.get(night=night, night_table=1)
    play(session, alice, (3, 3, 3), (3, 3, 3))
    client.post(f"/s/{session.scorer_token}/name/", {"name": "Sam"})
    page = client.get(f"/s/{session.scorer_token}/").text
    card = night.tables.get(number=1).scorer_token
    assert "Open the next round" in page and f"/t/{card}/" in page
    owner_page = alice_client.get(f"/sessions/{session.public_id}/").text
    assert f"/t/{card}/" in owner_page and "Rematch" not in owner_page
    session.watch_token = "watch-table-1"
    session.save()
    assert f"/t/{card}/" not in client.get("/w/watch-table-1/").text  # watchers never score


def test_only_the_organiser_plays_more_deals_at_a_finished_table(
    client: Client, alice_client: Client, alice: User, nine: list[Player]
) -> None:
    night = start_round(night=plan(alice_client, nine))
    table = GameSession.objects.get(night=night, night_table=1)
    play(table, alice, (3, 3, 3), (3, 3, 3))
    client.post(f"/s/{table.scorer_token}/name/", {"name": "Sam"})
    response = client.post(f"/s/{table.scorer_token}/", {"extend": "9"}, follow=True)
    assert "only its organiser can add more" in response.text.replace("&#x27;", "'")
    table.refresh_from_db()
    assert table.finished and table.options["match"]["deals"] == 2
    response = alice_client.post(f"/sessions/{table.public_id}/", {"extend": "9"}, follow=True)
    assert "9 more deals to play." in response.text
    table.refresh_from_db()
    assert not table.finished and table.options["match"]["deals"] == 11
