"""Club nights, seasons and ratings in French, as a French phone reads them: numbers with the
language's decimal comma, a no-break space before every colon, « de » elided before a name
that begins with a vowel sound, and sentences that read one way only.

They need the compiled catalogue (the setup scripts make it); without it they are skipped."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night, NightTable, Season
from scorekeeper.rules import adding
from scorekeeper.services import Who, record_event
from scorekeeper.services.nights import finish_night, start_round
from scorekeeper.services.seasons import create_season
from tests.factories import adding_session, club_night, finished_session, play
from tests.french import needs_french

pytestmark = [needs_french, pytest.mark.django_db]

NBSP = "\u00a0"
FRENCH = {"Accept-Language": "fr"}


def french(client: Client, url: str) -> str:
    response = client.get(url, headers=FRENCH)
    assert response.status_code == 200, url
    return response.content.decode().replace("&nbsp;", NBSP).replace("&#x27;", "'")


def english(client: Client, url: str) -> str:
    response = client.get(url, headers={"Accept-Language": "en"})
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.fixture
def night(alice: User, roster: list[Player]) -> Night:
    """Ann, Ben and Cat at one table, ranked by placement points: the one deal leaves all three
    level, so each has (3 + 1 + 0) / 3 = 1.33 points."""
    night = club_night(alice, roster, name="Jeudi", rounds=1)
    night = start_round(night=night)
    play(GameSession.objects.get(night=night), alice, (3, 3, 3))
    return night


def test_the_leaderboard_writes_its_decimals_as_the_page_s_language_does(
    alice_client: Client, night: Night
) -> None:
    for url in (f"/nights/{night.public_id}/", f"/n/{night.watch_token}/display/"):
        page = french(alice_client, url)
        assert re.search(r'<td class="text-end fw-semibold">1,33</td>', page), url
        assert "1.33" not in page
        assert '<td class="text-end fw-semibold">1.33</td>' in english(alice_client, url)
    # The downloads keep the figure a spreadsheet and a program read.
    csv = alice_client.get(f"/nights/{night.public_id}/results.csv", headers=FRENCH)
    assert ",1.33," in csv.content.decode()


def test_a_label_and_its_words_are_one_sentence_with_a_no_break_space_before_the_colon(
    alice_client: Client, alice: User, night: Night, roster: list[Player]
) -> None:
    page = french(alice_client, f"/nights/{night.public_id}/")
    assert f"Points de place{NBSP}: À chaque manche" in page
    assert "Points de place: " not in page
    assert f"Égalités{NBSP}:" in page
    sheet = french(alice_client, f"/nights/{night.public_id}/sheet/")
    assert f"Points de place{NBSP}: À chaque manche" in sheet
    # A table's card once the night is over: "Jeudi : table 1".
    finish_night(night=night)
    card = NightTable.objects.get(night=night, number=1)
    assert f"Jeudi{NBSP}: table 1" in french(alice_client, f"/t/{card.scorer_token}/")
    # A player's rating, game by game: "Jeu de levées : 1,2".
    finished_session(alice, roster)
    player = french(alice_client, f"/players/{roster[0].pk}/")
    assert re.search(rf"<h3 class=\"h6\">[^<:]+{NBSP}: <strong>-?\d+,\d</strong>", player)
    # The adding game's buttons say whose they are ("Ann : Éliminé"), and the outbox joins
    # an entry's name and what it says the same way.
    pennies = adding_session(alice, roster, title="Sous")
    table = french(alice_client, f"/sessions/{pennies.public_id}/")
    assert re.search(rf'aria-label="Ann{NBSP}: [^"]+"', table)
    assert f'data-labelled="{{label}}{NBSP}: {{text}}"' in table
    record_event(session=pennies, state="0.0", event=adding.Event("Ann", "bust"), who=Who(alice))
    correction = french(alice_client, f"/sessions/{pennies.public_id}/rounds/1/")
    assert f"Ann{NBSP}: " in correction and "Ann: " not in correction


def test_the_season_s_standings_elide_de_before_a_vowel_and_write_decimals_in_french(
    alice_client: Client, alice: User, night: Night, roster: list[Player]
) -> None:
    finish_night(night=night)
    finished_session(alice, roster)  # a game with places: a rating for each
    day = night.played_on
    autumn = create_season(
        owner=alice,
        season=Season(
            name="Automne 2026",
            family="trick",
            starts=day - datetime.timedelta(days=30),
            ends=day + datetime.timedelta(days=30),
        ),
    )
    page = french(alice_client, f"/seasons/{autumn.public_id}/")
    assert "Le classement d’Automne 2026" in page
    assert "Le classement de Automne" not in page
    assert '<td class="text-end fw-semibold">1,33</td>' in page
    assert re.search(r'<td class="text-end">-?\d+,\d</td>', page)  # the rating beside
    assert f"La cote d’un nouveau joueur est 0{NBSP}; elle monte" in page  # and what it means
    winter = create_season(
        owner=alice,
        season=Season(name="Saison 2026", family="trick", starts=autumn.starts, ends=autumn.ends),
    )
    assert "Le classement de Saison 2026" in french(alice_client, f"/seasons/{winter.public_id}/")
    assert "The standings of Automne 2026" in english(alice_client, f"/seasons/{autumn.public_id}/")


def test_how_often_pairs_met_reads_one_way(alice_client: Client, night: Night) -> None:
    page = french(alice_client, f"/nights/{night.public_id}/")
    assert "Jusqu’ici, aucun joueur n’a rencontré le même adversaire plus d’une fois." in page
    assert "deux joueurs ne se sont jamais rencontrés" not in page
