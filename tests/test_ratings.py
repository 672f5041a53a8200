"""Ratings from finished games: openskill's Plackett-Luce model, fed each game's finishing
order in the order the games were played."""

from __future__ import annotations

import datetime
import random
import statistics
from collections.abc import Hashable

import pytest
from openskill.models import PlackettLuce

from scorekeeper.ratings import SCALE, SCALE_GAMES, Game, Rating, rate

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


def regular(share: float, seed: int, pool: int = 8) -> float:
    """The rating of a player after SCALE_GAMES games at tables of three against two of `pool`
    regulars of equal strength (who also play one another as often), winning `share` of them
    and otherwise second or third alike."""
    draw = random.Random(seed)
    games: list[Game] = []

    def played(places: dict[Hashable, int]) -> None:
        games.append(Game(family="trick", played=DAY, order=(len(games), 0), places=places))

    for _ in range(SCALE_GAMES):
        played(dict(zip(draw.sample(range(pool), 3), draw.sample([1, 2, 3], 3), strict=True)))
        mine = 1 if draw.random() < share else draw.choice([2, 3])
        others = draw.sample([place for place in (1, 2, 3) if place != mine], 2)
        played({"me": mine, **dict(zip(draw.sample(range(pool), 2), others, strict=True))})
    return rate(games)["trick"]["me"].shown


@pytest.mark.parametrize(
    ("key", "share"), [("third", 1 / 3), ("half", 1 / 2), ("three_in_four", 3 / 4)]
)
def test_the_scale_the_pages_give_is_what_the_model_gives(key: str, share: float) -> None:
    """The pages say where a regular stands after SCALE_GAMES games by the share they win
    (ratings.SCALE): the median of a hundred such players, played through the model, is
    that figure give or take 1.5."""
    figures = [regular(share, seed) for seed in range(100)]
    assert abs(statistics.median(figures) - SCALE[key]) <= 1.5, statistics.median(figures)


def test_a_new_player_starts_at_0_as_the_pages_say() -> None:
    new = PlackettLuce().rating()
    assert Rating(mu=new.mu, sigma=new.sigma).shown == pytest.approx(0)
