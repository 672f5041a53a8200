"""A season's ladder: points a night, the best nights of each player counting.

Each night (a club night, or an ordinary session where the season counts them) gives each of
its players the score they ended it with under its own ranking method (an ordinary session:
its placement points). A player's season points are the sum of their best `best_of` nights
(every night when it is None), so that a player who missed some nights is not ranked below
one who came to every one merely for coming. Equal points are split by the most nights
counted, then the most games played; players still equal share a rank (1, 1, 3).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scorekeeper.rules.i18n import gettext_noop

BEST_RULE = gettext_noop(
    "Season points are the sum of each player's best nights; equal points are split by the "
    "most nights counted, then the most games played."
)


@dataclass(frozen=True)
class SeasonLine:
    """One player's line in a season's standings."""

    player: str
    points: Fraction  # the best nights' scores, added up
    counted: int  # nights counted (at most best_of)
    nights: int  # nights played
    games: int  # tables played over the season
    rank: int  # 1 best; equals share a rank


def season_points(scores: Sequence[Fraction], best_of: int | None = None) -> tuple[Fraction, int]:
    """A player's season points from their nights' scores: the best `best_of` of them (all if
    None) added up, and how many that is."""
    best = sorted(scores, reverse=True)[: best_of if best_of is not None else len(scores)]
    return sum(best, Fraction(0)), len(best)


@dataclass(frozen=True)
class SeasonTotal:
    """A player's season before ranking."""

    player: str
    points: Fraction
    counted: int
    nights: int
    games: int


def ranked(totals: Sequence[SeasonTotal]) -> tuple[SeasonLine, ...]:
    """The season's standings, best first: by points, then the most nights counted, then the
    most games played; players still equal share a rank and are listed by name."""

    def key(total: SeasonTotal) -> tuple[Fraction, int, int]:
        return (total.points, total.counted, total.games)

    ordered = sorted(totals, key=lambda total: (tuple(-part for part in key(total)), total.player))
    lines: list[SeasonLine] = []
    for position, total in enumerate(ordered, start=1):
        tied = bool(lines) and key(ordered[position - 2]) == key(total)
        lines.append(
            SeasonLine(
                player=total.player,
                points=total.points,
                counted=total.counted,
                nights=total.nights,
                games=total.games,
                rank=lines[-1].rank if tied else position,
            )
        )
    return tuple(lines)


def season_standings(
    nights: Sequence[Mapping[str, Fraction]],
    games: Mapping[str, int],
    best_of: int | None = None,
) -> tuple[SeasonLine, ...]:
    """The season's standings, best first, from each night's scores by player and the games
    each player played; `best_of` nights count for each player (all of them if None)."""
    scores: dict[str, list[Fraction]] = {}
    for night in nights:
        for player, score in night.items():
            scores.setdefault(player, []).append(Fraction(score))
    totals = []
    for player, each in scores.items():
        points, counted = season_points(each, best_of)
        totals.append(SeasonTotal(player, points, counted, len(each), games.get(player, 0)))
    return ranked(totals)
