"""Seasons, the club ladder and each player's rating, from the stored history."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.club.reads import ratings
from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night, Season
from scorekeeper.ratings import SCALE, SCALE_GAMES
from scorekeeper.services import Who, abandon_session, delete_session, edit_deal
from scorekeeper.services.nights import finish_night, start_round
from scorekeeper.services.seasons import create_season
from tests.factories import club_night, made_deal, new_players, play, trick_session

SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


@pytest.fixture
def six(alice: User) -> list[Player]:
    return new_players(alice, SIX)


def finished_game(owner: User, players: list[Player], *deals: tuple[int, ...]) -> GameSession:
    session = trick_session(
        owner, players, options={"match": {"type": "deals", "deals": len(deals)}}
    )
    play(session, owner, *deals)
    return GameSession.objects.get(pk=session.pk)


def night_played(owner: User, players: list[Player], day: int) -> Night:
    night = club_night(
        owner, players, name=f"Night {day}", played_on=datetime.date(2026, 11, day), rounds=2
    )
    for _ in range(2):
        night = start_round(night=night)
        for session in GameSession.objects.filter(
            night=night, night_round=night.round
        ).with_seats():
            play(session, owner, (5, 3, 1))  # the first seat wins
    return finish_night(night=night)


def test_a_rating_counts_finished_games_only_and_follows_a_correction(
    alice: User, roster: list[Player]
) -> None:
    ann, ben, cat = roster
    game = finished_game(alice, roster, (5, 3, 1))
    first = ratings(alice.pk)["trick"]
    assert first[ann.pk].shown > first[cat.pk].shown

    unfinished = trick_session(alice, roster, options={"match": {"type": "deals", "deals": 5}})
    play(unfinished, alice, (0, 0, 9))
    abandoned = trick_session(alice, roster, options={"match": {"type": "deals", "deals": 5}})
    play(abandoned, alice, (0, 0, 9))
    abandon_session(session=abandoned, who=Who(alice))
    assert ratings(alice.pk)["trick"][ann.pk].mu == first[ann.pk].mu  # neither counts

    edit_deal(
        session=game,
        number=1,
        revision=game.deals.get().revision,
        entry=made_deal((1, 3, 5)),
        who=Who(alice),
    )
    corrected = ratings(alice.pk)["trick"]
    assert corrected[cat.pk].shown > corrected[ann.pk].shown  # worked out again

    delete_session(session=GameSession.objects.get(pk=game.pk), who=Who(alice))
    assert ratings(alice.pk) == {}


def test_the_player_page_shows_the_rating_and_its_trend(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    finished_game(alice, roster, (5, 3, 1))
    finished_game(alice, roster, (5, 3, 1))
    page = alice_client.get(f"/players/{roster[0].pk}/").text
    # The figure explained in a player's words (the ladder names the model's μ − 3σ).
    assert "A new player&#x27;s rating is 0" in page
    assert "after 2 games" in page and "rating-chart" in page
    assert "Abandoned, deleted and unfinished sessions do not count." in page
    empty = alice_client.get(f"/players/{Player.objects.create(owner=alice, name='Zed').pk}/")
    assert "No rating yet" in empty.text


def test_a_season_ranks_its_nights_and_downloads(
    client: Client, alice_client: Client, alice: User, six: list[Player]
) -> None:
    night_played(alice, six, 5)
    night_played(alice, six[:3], 12)
    night_played(alice, six, 30)  # after the season
    response = alice_client.post(
        "/seasons/",
        {
            "name": "Autumn",
            "family": "trick",
            "starts": "2026-11-01",
            "ends": "2026-11-20",
            "best_of": "2",
        },
        follow=True,
    )
    assert "Season Autumn made." in response.text
    season = Season.objects.get()
    page = response.text
    assert "Night 5" in page and "Night 12" in page and "Night 30" not in page
    assert "each player's best 2 nights count" in page
    rows = list(
        csv.reader(io.StringIO(alice_client.get(f"/seasons/{season.public_id}/standings.csv").text))
    )
    assert rows[0] == [
        "Place",
        "Player",
        "Points",
        "Nights counted",
        "Nights played",
        "Games",
        "Rating",
    ]
    assert {row[1] for row in rows[1:]} == set(SIX)
    watch = client.get(f"/g/{season.watch_token}/")
    assert watch.status_code == 200 and "Autumn" in watch.text
    # The link's page leads to none of the owner's pages (the menu is the visitor's own).
    assert "/seasons/" not in watch.text.split('<main id="main"', 1)[1]
    ladder = alice_client.get(f"/ladder/?season={season.public_id}").text
    assert "Club ladder" in ladder and all(name in ladder for name in SIX)
    night = Night.objects.get(name="Night 5")
    data = alice_client.get(f"/nights/{night.public_id}/night.json").json()
    assert data["seasons"][0]["season"] == "Autumn" and len(data["seasons"][0]["standings"]) == 6


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": ""}, "This field is required"),
        ({"ends": "2026-10-01"}, "The season ends before it starts."),
        ({"best_of": "0"}, "At least one night counts."),
        ({"family": "chess"}, "Select a valid choice"),
    ],
)
def test_a_season_s_form_says_what_is_wrong(
    alice_client: Client, fields: dict[str, str], message: str
) -> None:
    data = {
        "name": "Autumn",
        "family": "trick",
        "starts": "2026-11-01",
        "ends": "2026-11-30",
        **fields,
    }
    response = alice_client.post("/seasons/", data)
    assert response.status_code == 200 and message in response.text
    assert not Season.objects.exists()


def test_another_user_sees_no_season(alice: User, alice_client: Client, bob_client: Client) -> None:
    alice_client.post(
        "/seasons/",
        {"name": "Autumn", "family": "trick", "starts": "2026-11-01", "ends": "2026-11-30"},
    )
    season = Season.objects.get()
    for url in (f"/seasons/{season.public_id}/", f"/seasons/{season.public_id}/standings.csv"):
        assert bob_client.get(url).status_code == 404
    assert bob_client.get(f"/ladder/?season={season.public_id}").status_code == 404
    assert "Autumn" not in bob_client.get("/seasons/").text


def test_every_page_with_ratings_gives_their_scale_in_words(
    alice: User, alice_client: Client, six: list[Player]
) -> None:
    """A rating is explained where it is shown, by what a player knows: a new player's figure
    and where regulars stand after some games (ratings.SCALE, checked against the model)."""
    finished_game(alice, six[:3], (5, 3, 1))
    season = create_season(
        owner=alice,
        season=Season(
            name="Autumn", family="trick", starts=datetime.date(2000, 1, 1),
            ends=datetime.date(2099, 12, 31),
        ),
    )  # fmt: skip
    night_played(alice, six, 20)
    scale = (
        "A new player's rating is 0; it grows as they finish above others, most against strong "
        f"players, and as their games add up. After {SCALE_GAMES} games at tables of three, a "
        f"player who wins a third of them is near {SCALE['third']}, one who wins half near "
        f"{SCALE['half']}, and one who wins three in four near {SCALE['three_in_four']}."
    )
    for url in ("/ladder/", f"/seasons/{season.public_id}/", f"/players/{six[0].pk}/"):
        page = alice_client.get(url).text.replace("&#x27;", "'")
        assert scale in page, url
        assert "nearly sure this player" not in page
