"""A season on the organiser's phone: two club nights of six players are played through the
services (tables of three, two rounds each, one deal a round the first night and two the
second), then the owner makes a season of both on /seasons/ through its form, each player's
best night counting. The season page's standings are checked against the season rules fed the
two nights' leaderboards, and each rating against openskill fed every table's places; the
season's watch link opens on an anonymous phone, the club ladder over the season shows the same
ratings, and a player's page draws their rating's trend.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Hashable
from pathlib import Path

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper import live
from scorekeeper.live import nights as live_nights
from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night, Season
from scorekeeper.ratings import Game, rate
from scorekeeper.rules import night as rules
from scorekeeper.services.nights import finish_night, start_round
from tests.browser.conftest import CheckA11y, LogIn, NewPage
from tests.factories import club_night, new_players, play

SIX = ["Ada", "Bea", "Cal", "Dee", "Eli", "Fay"]
SEASON = "Autumn ladder"
SHOTS = Path("/tmp")
# Tricks won by seats 1, 2 and 3 (every bid made), deal after deal over the night's tables, so
# that the places vary from table to table (one table has two players level).
TRICKS = [(5, 3, 1), (1, 5, 3), (3, 1, 5), (4, 4, 1), (2, 2, 5), (0, 6, 3), (6, 0, 3)]


def night_played(owner: User, players: list[Player], day: int, deals: int) -> Night:
    """A finished night of two rounds at tables of three, `deals` deals a round."""
    night = club_night(
        owner,
        players,
        name=f"Club {day} November",
        played_on=datetime.date(2026, 11, day),
        deals=deals,
        rounds=2,
    )
    dealt = day  # a different run of deals each night
    for _ in range(2):
        night = start_round(night=night)
        for session in GameSession.objects.filter(night=night, night_round=night.round):
            tables = [TRICKS[(dealt + n) % len(TRICKS)] for n in range(deals)]
            dealt += deals
            play(session, owner, *tables)
    return finish_night(night=night)


def expected_standings(
    owner: User, nights: list[Night], best_of: int
) -> tuple[list[list[str]], dict[str, int]]:
    """Each row as the season page should show it (place, player, points, nights, games,
    rating), worked out from the nights' leaderboards and every table's places; and the games
    each rating rests on (a table where everyone tied says nothing of who is stronger)."""
    scores = []
    games: dict[str, int] = {}
    for night in nights:
        lines = live_nights.board(night).lines
        scores.append({line.player: line.score for line in lines if line.rounds})
        for line in lines:
            games[line.player] = games.get(line.player, 0) + line.rounds
    season = rules.season_standings(scores, games, best_of)
    ids = {player.name: player.pk for player in Player.objects.filter(owner=owner)}
    rated = rate(
        Game(
            family="trick",
            played=night.played_on,
            order=(int(table.created.timestamp() * 1_000_000), table.pk),
            places=session_places(table, ids),
        )
        for night in nights
        for table in GameSession.objects.filter(night=night, finished=True).with_seats()
    )["trick"]
    tied = [line.rank for line in season]
    rows = [
        [
            f"={line.rank}" if tied.count(line.rank) > 1 else str(line.rank),
            line.player,
            rules.score_text(line.points),
            f"{line.counted} of {line.nights}" if line.counted != line.nights else str(line.nights),
            str(line.games),
            f"{rated[ids[line.player]].shown:.1f}",
        ]
        for line in season
    ]
    return rows, {name: rated[pk].games for name, pk in ids.items()}


def session_places(table: GameSession, ids: dict[str, int]) -> dict[Hashable, int]:
    """Each player's place at the table, by player id."""
    places = table.rules_family.table_places(live.result(table))
    return {ids[name]: place for name, place in places.items()}


def field(label: str) -> re.Pattern[str]:
    """A form field by its label, a required one's mark (*) after it or not."""
    return re.compile(rf"^\s*{re.escape(label)}\W*$")


def shown_rows(page: Page, selector: str) -> list[list[str]]:
    rows = page.locator(f"{selector} tbody tr")
    return [
        [text.strip() for text in rows.nth(n).locator("td, th").all_inner_texts()]
        for n in range(rows.count())
    ]


def test_a_season_of_two_club_nights_on_the_organisers_phone(
    alice: User, new_page: NewPage, log_in: LogIn, check_a11y: CheckA11y
) -> None:
    players = new_players(alice, SIX)
    nights = [night_played(alice, players, 5, deals=1), night_played(alice, players, 12, deals=2)]
    expected, rated_games = expected_standings(alice, nights, best_of=1)
    assert [row[3] for row in expected] == ["1 of 2"] * 6  # everyone came to both nights
    assert len({row[5] for row in expected}) > 1  # the ratings tell the players apart

    phone = new_page()
    log_in(phone, alice)
    phone.goto("/seasons/")
    phone.get_by_label(field("Name of the season")).fill(SEASON)
    phone.get_by_label(field("Game")).select_option("trick")
    phone.get_by_label(field("From")).fill("2026-11-01")
    phone.get_by_label(field("To")).fill("2026-11-30")
    phone.get_by_label(field("Nights that count for each player")).fill("1")
    phone.get_by_role("button", name="Make the season").click()

    season = Season.objects.get(owner=alice)
    expect(phone).to_have_url(f"/seasons/{season.public_id}/")
    expect(phone.get_by_text(f"Season {SEASON} made.")).to_be_visible()
    expect(phone.get_by_role("heading", name=SEASON)).to_be_visible()
    expect(phone.get_by_text("each player's best night counts")).to_be_visible()
    standings = phone.locator(".season-standings")
    expect(standings.locator("tbody tr")).to_have_count(6)
    header = standings.locator("thead th").all_inner_texts()
    assert header == ["Place", "Player", "Points", "Nights", "Games", "Rating"]
    assert shown_rows(phone, ".season-standings") == expected
    for night in nights:
        expect(phone.get_by_role("link", name=night.name)).to_be_visible()
    check_a11y(phone, "season")
    phone.screenshot(path=SHOTS / "seasons-season.png")
    phone.screenshot(path=SHOTS / "seasons-season-full.png", full_page=True)

    # The watch link, on a phone that is not logged in: the same standings, no owner's links.
    watch_link = phone.get_by_role("link", name="The season's link for every phone")
    watcher = new_page()
    watcher.goto(watch_link.get_attribute("href") or "")
    expect(watcher.get_by_role("heading", name=SEASON)).to_be_visible()
    expect(watcher.locator(".season-standings tbody tr")).to_have_count(6)
    assert shown_rows(watcher, ".season-standings") == expected
    expect(watcher.locator(".season-standings a")).to_have_count(0)
    expect(watcher.get_by_role("link", name="Download the standings (CSV)")).to_have_count(0)

    # The club ladder over the season: the same ratings, best first.
    phone.get_by_role("link", name="Ratings over this season").click()
    expect(phone).to_have_url(f"/ladder/?season={season.public_id}")
    expect(phone.get_by_role("heading", name="Club ladder")).to_be_visible()
    expect(phone.get_by_label("Over")).to_have_value(season.public_id)
    ladder = phone.locator("table")
    expect(ladder).to_have_count(1)  # the season's game alone
    rows = shown_rows(phone, "table")
    by_rating = sorted(expected, key=lambda row: -float(row[5]))
    assert [row[2] for row in rows] == [row[5] for row in by_rating]
    assert {row[1] for row in rows} == set(SIX)
    assert {(row[1], row[2]) for row in rows} == {(row[1], row[5]) for row in expected}
    assert {(row[1], row[3]) for row in rows} == {(n, str(g)) for n, g in rated_games.items()}
    check_a11y(phone, "ladder")

    # A player's page, from the season's standings: their rating and its trend.
    phone.go_back()
    leader = expected[0][1]
    phone.locator(".season-standings").get_by_role("link", name=leader).click()
    expect(phone.get_by_role("heading", name=leader, exact=True)).to_be_visible()
    ratings = phone.locator(".player-ratings")
    expect(ratings).to_contain_text(f"{expected[0][5]} after {rated_games[leader]} games")
    chart = ratings.locator(".rating-chart svg")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(1)
    points = (chart.locator("polyline").get_attribute("points") or "").split()
    assert len(points) == rated_games[leader] + 1  # the start (0), then after each game
    check_a11y(phone, "player")
    chart.scroll_into_view_if_needed()
    phone.screenshot(path=SHOTS / "seasons-player.png")
    phone.screenshot(path=SHOTS / "seasons-player-full.png", full_page=True)
