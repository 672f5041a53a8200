"""Ratings from finished games: openskill's Plackett-Luce model, fed each game's finishing
order in the order the games were played."""

from __future__ import annotations

import datetime

import pytest
from openskill.models import PlackettLuce

from scorekeeper.ratings import Game, rate

DAY = datetime.date(2026, 11, 1)


def game(day: int, order: int, places: dict[str, int], family: str = "trick") -> Game:
    return Game(
        family=family,
        played=DAY + datetime.timedelta(days=day),
        order=(order, order),
        places=places,
    )


GAMES = [
    game(2, 1, {"Ann": 2, "Ben": 1, "Cat": 3}),  # listed first, played second
    game(0, 1, {"Ann": 1, "Ben": 2, "Cat": 3}),
    game(1, 1, {"Ann": 1, "Ben": 1, "Dan": 3}),  # a tie for first
    game(1, 2, {"Cat": 1, "Dan": 2}, family="adding"),
]


def test_the_ratings_are_openskill_s_own_for_the_same_games_in_the_order_played() -> None:
    rated = rate(GAMES)
    model = PlackettLuce()
    own = {name: model.rating(name=name) for name in ("Ann", "Ben", "Cat", "Dan")}
    for places in (
        {"Ann": 1, "Ben": 2, "Cat": 3},
        {"Ann": 1, "Ben": 1, "Dan": 3},
        {"Ann": 2, "Ben": 1, "Cat": 3},
    ):
        names = list(places)
        after = model.rate([[own[name]] for name in names], ranks=[places[name] for name in names])
        own.update({name: team[0] for name, team in zip(names, after, strict=True)})
    for name in ("Ann", "Ben", "Cat", "Dan"):
        assert rated["trick"][name].mu == pytest.approx(own[name].mu)
        assert rated["trick"][name].sigma == pytest.approx(own[name].sigma)
        assert rated["trick"][name].shown == pytest.approx(own[name].ordinal())
    assert rated["trick"]["Ann"].games == 3 and rated["trick"]["Dan"].games == 1
    assert [day for day, _ in rated["trick"]["Ann"].trend] == [
        DAY + datetime.timedelta(days=d) for d in (0, 1, 2)
    ]


def test_each_family_is_rated_on_its_own() -> None:
    rated = rate(GAMES)
    assert set(rated["adding"]) == {"Cat", "Dan"}
    assert rated["adding"]["Cat"].shown > rated["adding"]["Dan"].shown
    assert rated["adding"]["Cat"].games == 1


def test_a_game_that_says_nothing_of_who_is_stronger_is_skipped() -> None:
    alone = game(0, 1, {"Ann": 1})
    all_tied = game(0, 2, {"Ann": 1, "Ben": 1})
    assert rate([alone, all_tied]) == {}


def test_a_winner_rises_and_the_last_falls() -> None:
    rated = rate([game(0, 1, {"Ann": 1, "Ben": 2, "Cat": 3})])["trick"]
    assert rated["Ann"].mu > 25 > rated["Cat"].mu
    assert rated["Ann"].shown > rated["Ben"].shown > rated["Cat"].shown
