"""A club night's and a season's life beyond play: their names, their end (a night ended
early), their links turned off or replaced, their deletion, the account's limits on them and
the days they may hold."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from scorekeeper.club.reads import ratings
from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night, NightTable, Season
from scorekeeper.services.nights import start_round
from scorekeeper.services.seasons import create_season
from tests.factories import club_night, new_players, play

NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


@pytest.fixture
def nine(alice: User) -> list[Player]:
    return new_players(alice, NINE)


@pytest.fixture
def night(alice: User, nine: list[Player]) -> Night:
    """Round 1 of four seated: three tables of three, one deal a round."""
    return start_round(night=club_night(alice, nine, name="Thursday club"))


def _play_round(night: Night, alice: User) -> None:
    for session in GameSession.objects.filter(night=night, night_round=night.round):
        play(session, alice, (5, 3, 1))


def _season(alice: User, **fields: Any) -> Season:
    return create_season(
        owner=alice,
        season=Season(
            name="Autumn",
            family="trick",
            starts=datetime.date(2026, 9, 1),
            ends=datetime.date(2026, 12, 31),
            **fields,
        ),
    )


# A night's name


def test_a_night_is_renamed_with_its_tables(alice_client: Client, night: Night) -> None:
    url = f"/nights/{night.public_id}/manage/"
    response = alice_client.post(url, {"rename": "", "name": " "})
    assert "This field is required" in response.text
    response = alice_client.post(url, {"rename": "", "name": "Friday club"}, follow=True)
    assert "The night is called Friday club now." in response.text
    assert Night.objects.get().name == "Friday club"
    titles = set(GameSession.objects.filter(night=night).values_list("title", flat=True))
    assert titles == {"Friday club"}


# Its end


def test_a_night_ended_early_closes_its_tables_and_says_so(
    alice_client: Client, alice: User, night: Night
) -> None:
    url = f"/nights/{night.public_id}/"
    page = alice_client.get(url).text
    assert "End the night after round 1" in page
    played = GameSession.objects.get(night=night, night_table=1)
    play(played, alice, (5, 3, 1))
    response = alice_client.post(url, {"end_early": "", "reason": ""})
    assert "This field is required" in response.text
    assert not Night.objects.get().finished
    response = alice_client.post(url, {"end_early": "", "reason": "The hall closes"}, follow=True)
    assert "The night is over: here are the final standings." in response.text
    assert "It ended after round 1 of 4." in response.text
    closed = GameSession.objects.filter(night=night, abandoned__isnull=False)
    assert closed.count() == 2  # the table that had finished stays finished
    history = alice_client.get(f"/sessions/{closed[0].public_id}/history/").text
    assert "Why: The hall closes" in history
    listed = alice_client.get("/nights/").text
    assert "ended after round 1 of 4" in listed


def test_a_night_over_turns_its_cards_and_tables_scorer_links_off(
    client: Client, alice_client: Client, alice: User, night: Night
) -> None:
    card = night.tables.get(number=1).scorer_token
    scorer_links = list(
        GameSession.objects.filter(night=night).values_list("scorer_token", flat=True)
    )
    assert client.get(f"/s/{scorer_links[0]}/").status_code in (200, 302)
    _play_round(night, alice)
    alice_client.post(f"/nights/{night.public_id}/", {"end_early": "", "reason": "Late"})
    for token in scorer_links:
        assert client.get(f"/s/{token}/").status_code == 404
        assert client.post(f"/s/{token}/", {"number": "2"}).status_code == 404
    waits = client.get(f"/t/{card}/")
    assert waits.status_code == 200 and "The night is over" in waits.text
    # The organiser still corrects from their own pages.
    table = GameSession.objects.filter(night=night).first()
    assert table is not None
    assert alice_client.get(f"/sessions/{table.public_id}/deals/1/").status_code == 200


# Its links


def test_the_night_s_link_is_replaced_and_turned_off(
    client: Client, alice_client: Client, night: Night
) -> None:
    url = f"/nights/{night.public_id}/manage/"
    old = night.watch_token
    response = alice_client.post(url, {"watch": "replace"}, follow=True)
    assert "New link made for the night; the old one opens nothing now." in response.text
    new = Night.objects.get().watch_token
    assert new and new != old
    assert client.get(f"/n/{old}/").status_code == 404
    assert client.get(f"/n/{new}/").status_code == 200
    assert client.get(f"/n/{new}/display/").status_code == 200
    response = alice_client.post(url, {"watch": "off"}, follow=True)
    assert "The night&#x27;s link is off: it opens nothing now." in response.text
    assert Night.objects.get().watch_token is None
    assert client.get(f"/n/{new}/").status_code == 404
    # The organiser's pages do without it: the big screen is theirs.
    page = alice_client.get(f"/nights/{night.public_id}/").text
    assert f"/nights/{night.public_id}/display/" in page and "/n/" not in page
    assert alice_client.get(f"/nights/{night.public_id}/display/").status_code == 200
    alice_client.post(url, {"watch": "on"})
    assert client.get(f"/n/{Night.objects.get().watch_token}/").status_code == 200


def test_a_table_s_card_is_replaced_and_turned_off(
    client: Client, alice_client: Client, night: Night
) -> None:
    url = f"/nights/{night.public_id}/manage/"
    card = NightTable.objects.get(night=night, number=2)
    old = card.scorer_token
    response = alice_client.post(url, {"card": "replace", "table": "2"}, follow=True)
    assert "New link made for table 2: print its card again" in response.text
    card.refresh_from_db()
    assert client.get(f"/t/{old}/").status_code == 404
    assert client.get(f"/t/{card.scorer_token}/").status_code == 302
    alice_client.post(url, {"card": "off", "table": "2"})
    card.refresh_from_db()
    assert card.scorer_token is None
    # The other cards still open their tables.
    other = NightTable.objects.get(night=night, number=1).scorer_token
    assert client.get(f"/t/{other}/").status_code == 302
    assert alice_client.post(url, {"card": "off", "table": "9"}).status_code == 404
    assert alice_client.post(url, {"card": "off", "table": "x"}).status_code == 404


def test_the_season_s_link_is_replaced_and_turned_off(
    client: Client, alice_client: Client, alice: User
) -> None:
    season = _season(alice)
    url = f"/seasons/{season.public_id}/manage/"
    old = season.watch_token
    alice_client.post(url, {"watch": "replace"})
    season.refresh_from_db()
    assert client.get(f"/g/{old}/").status_code == 404
    assert client.get(f"/g/{season.watch_token}/").status_code == 200
    response = alice_client.post(url, {"watch": "off"}, follow=True)
    assert "The season&#x27;s link is off: it opens nothing now." in response.text
    season.refresh_from_db()
    assert season.watch_token is None
    assert "/g/" not in alice_client.get(f"/seasons/{season.public_id}/").text


def test_a_season_s_page_names_a_night_whose_link_is_off_without_a_link(
    client: Client, alice: User, night: Night
) -> None:
    season = _season(alice)
    Night.objects.filter(pk=night.pk).update(watch_token=None)
    page = client.get(f"/g/{season.watch_token}/").text
    assert "Thursday club" in page and "/n/" not in page
    assert "round 1 of 4, still being played" in page


# Its deletion


def test_a_night_deleted_leaves_its_season_and_the_ratings(
    alice_client: Client, alice: User, night: Night
) -> None:
    season = _season(alice)
    _play_round(night, alice)
    assert ratings(alice.pk)["trick"]
    page = alice_client.get(f"/nights/{night.public_id}/delete/").text
    assert "3 tables played" in page
    assert "The season Autumn no longer counts this night" in page
    assert "3 finished games no longer count in the players' ratings" in page
    assert f"/nights/{night.public_id}/night.json" in page
    response = alice_client.post(f"/nights/{night.public_id}/delete/", {"delete": ""}, follow=True)
    assert "Deleted the night Thursday club for good." in response.text
    assert not Night.objects.exists() and not GameSession.objects.exists()
    assert Player.objects.count() == 9
    assert ratings(alice.pk) == {}
    standings = alice_client.get(f"/seasons/{season.public_id}/").text
    assert "No night of this season has been played yet." in standings


def test_a_season_is_changed_and_deleted_without_touching_its_nights(
    alice_client: Client, alice: User, night: Night
) -> None:
    season = _season(alice)
    _play_round(night, alice)
    url = f"/seasons/{season.public_id}/manage/"
    fields = {"name": "Winter", "family": "trick", "starts": "2026-12-01", "ends": "2026-12-31"}
    response = alice_client.post(url, {**fields, "save": ""}, follow=True)
    assert "The season is saved." in response.text
    assert "No night of this season has been played yet." in response.text  # 26 November left
    response = alice_client.post(url, {**fields, "ends": "2026-11-30", "save": ""})
    assert "The season ends before it starts." in response.text
    page = alice_client.get(f"/seasons/{season.public_id}/delete/").text
    assert "Its nights, their tables and every game stay as they are" in page
    response = alice_client.post(
        f"/seasons/{season.public_id}/delete/", {"delete": ""}, follow=True
    )
    assert "Deleted the season Winter." in response.text
    assert not Season.objects.exists()
    assert Night.objects.count() == 1 and GameSession.objects.count() == 3


# What an account may keep, and the days


NIGHT_FORM = {
    "name": "Club",
    "played_on": "2026-11-26",
    "least": "3",
    "most": "3",
    "deals": "2",
    "rounds": "4",
    "method": "placement",
}


def test_an_account_keeps_so_many_nights_and_seasons(
    alice_client: Client, alice: User, nine: list[Player], settings: Any
) -> None:
    settings.ACCOUNT_MAX_NIGHTS = 1
    settings.ACCOUNT_MAX_SEASONS = 1
    club_night(alice, nine)
    data = {**NIGHT_FORM, "players": [player.pk for player in nine]}
    response = alice_client.post("/nights/new/trick/parlett-jokerless/", data)
    assert response.status_code == 200
    assert escape("An account keeps at most 1 club night, and yours has 1") in response.text
    assert 'value="Club"' in response.text
    assert Night.objects.count() == 1
    _season(alice)
    season = {"name": "Spring", "family": "trick", "starts": "2027-03-01", "ends": "2027-05-31"}
    response = alice_client.post("/seasons/", season)
    assert escape("An account keeps at most 1 season, and yours has 1") in response.text
    assert 'value="Spring"' in response.text
    assert Season.objects.count() == 1


def test_the_lists_of_nights_and_seasons_come_a_page_at_a_time(
    alice_client: Client, alice: User, nine: list[Player]
) -> None:
    for day in range(1, 26):
        club_night(alice, nine, name=f"Night {day}", played_on=datetime.date(2026, 10, day))
    Season.objects.bulk_create(
        Season(
            owner=alice,
            name=f"Season {number}",
            family="trick",
            starts=datetime.date(2000 + number, 1, 1),
            ends=datetime.date(2000 + number, 12, 31),
        )
        for number in range(25)
    )
    first = alice_client.get("/nights/").text
    assert first.count('class="session-title"') == 20 and "Page 1 of 2" in first
    assert "Night 25" in first and "Night 1<" not in first
    second = alice_client.get("/nights/?page=2").text
    assert second.count('class="session-title"') == 5 and "Night 1<" in second
    seasons = alice_client.get("/seasons/").text
    assert seasons.count('class="session-title"') == 20 and "Page 1 of 2" in seasons


@pytest.mark.parametrize("day", ["0001-01-01", "1899-12-31", "2100-01-01", "9999-12-31"])
def test_a_night_or_a_season_outside_the_club_s_days_is_refused(
    alice_client: Client, nine: list[Player], day: str
) -> None:
    data = {**NIGHT_FORM, "played_on": day, "players": [player.pk for player in nine]}
    response = alice_client.post("/nights/new/trick/parlett-jokerless/", data)
    assert "Choose a day between" in response.text and not Night.objects.exists()
    for field in ("starts", "ends"):
        season = {"name": "Always", "family": "trick", "starts": "2026-01-01", "ends": "2026-12-31"}
        response = alice_client.post("/seasons/", {**season, field: day})
        assert "Choose a day between" in response.text, field
    assert not Season.objects.exists()
