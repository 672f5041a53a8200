"""Ratings: how strong each player is, per game family, from every game they finished.

A game's result is its players' finishing order (each family's `table_places`: the trick
game's final standings, the adding game's elimination order, ties as the rules rank them).
The ratings come from openskill's Plackett-Luce model, which rates games of several players
and handles ties; nothing here does rating maths of its own. A player's shown figure is the
conservative one, μ − 3σ (openskill's `ordinal`): the skill the model is nearly sure the player
has at least, which starts at 0 and rises as they win and as their games add up.

Games are taken in the order they were played (their day, then when they were started), so
the same history always gives the same ratings. No Django here: the app rates each game as it
counts, in that order (`scorekeeper.club.ratings`, one game at a time with `rate_game`), and
`rate` works out a whole history at once.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

# What a rating means to a player, as the pages say it: a new player's is 0, and after
# SCALE_GAMES games at tables of three among regulars, a player who wins this share of them is
# near this figure. Worked out by playing such players through this model, not guessed
# (tests/test_ratings.py plays them again and checks the figures).
SCALE_GAMES = 50
SCALE = {"third": 13, "half": 18, "three_in_four": 26}


@dataclass(frozen=True)
class Game:
    """One finished game: its family, when it was played, and each player's place (1 best;
    tied players share a place). Players are any hashable ids (the app's player ids)."""

    family: str
    played: datetime.date
    order: tuple[int, int]  # ties on the day broken by this (when it was started, its id)
    places: Mapping[Hashable, int]


@dataclass
class Rating:
    """A player's rating in one family, and how it went."""

    mu: float
    sigma: float
    games: int = 0
    trend: list[tuple[datetime.date, float]] = field(default_factory=list)  # after each game

    @property
    def shown(self) -> float:
        """The conservative figure: μ − 3σ."""
        return shown(self.mu, self.sigma)


def rated[P: Hashable](places: Mapping[P, int]) -> bool:
    """Whether a game says something of who is stronger: two players or more, not all tied."""
    return len(places) >= 2 and len(set(places.values())) >= 2


def rate_game[P: Hashable](
    before: Mapping[P, tuple[float, float] | None], places: Mapping[P, int]
) -> dict[P, tuple[float, float]]:
    """Each player's (μ, σ) after one game from their (μ, σ) before it (None: a new player)
    and their places in it (a game that is `rated`)."""
    model = _MODEL
    players = list(places)
    teams = [
        [model.rating(mu=known[0], sigma=known[1]) if known else model.rating()]
        for known in (before.get(player) for player in players)
    ]
    after = model.rate(teams, ranks=[places[player] for player in players])
    return {player: (now.mu, now.sigma) for player, (now,) in zip(players, after, strict=True)}


def shown(mu: float, sigma: float) -> float:
    """The conservative figure the pages show: μ − 3σ."""
    return mu - 3 * sigma


def rate(games: Iterable[Game]) -> dict[str, dict[Hashable, Rating]]:
    """Every player's rating in every family, from these games (in any order: they are taken
    in the order they were played). A game that is not `rated` is skipped: it says nothing of
    who is stronger."""
    ratings: dict[str, dict[Hashable, Rating]] = {}
    for game in sorted(games, key=lambda game: (game.played, game.order)):
        if not rated(game.places):
            continue
        family = ratings.setdefault(game.family, {})
        before = {
            player: (known.mu, known.sigma) if (known := family.get(player)) else None
            for player in game.places
        }
        for player, (mu, sigma) in rate_game(before, game.places).items():
            rating = family.get(player) or Rating(mu=mu, sigma=sigma)
            rating.mu, rating.sigma = mu, sigma
            rating.games += 1
            rating.trend.append((game.played, rating.shown))
            family[player] = rating
    return ratings


_MODEL = PlackettLuce()
