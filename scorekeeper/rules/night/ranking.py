"""A club night's leaderboard: every table's result, ranked by the method chosen at the start.

Three methods (`METHODS`; docs/NIGHTS.md says why each exists):
- `total`: the raw points summed over the rounds (games with points only: the trick game).
- `placement`: placement points per table and round. A table of n ranked players gives the
  first place n points and the k-th place n - k (3: 3, 1, 0; 4: 4, 2, 1, 0; 5: 5, 3, 2, 1, 0;
  6: 6, 4, 3, 2, 1, 0), so winning a table is worth a clear step more than coming second.
  Tournaments play this way against the luck of the deal: a strong hand at a weak table
  earns a place, not a landslide. Chinese official (MCR) mahjong tournaments give 4, 2, 1
  and 0 table points for the four places, the same row as a table of four here; riichi
  tournaments add a placement bonus (uma). Tied players split the points of the places they
  share equally (two tied first at a table of four: (4 + 2) / 2 = 3 each).
- `share`: the points above or below the table's average, so that a table where everyone
  scores little does not hold its players back (games with points only).

A method applies to a family by whether its tables have points (`TableResult.points`), not by
the family's name. A bye scores the player's own average per round played that night under
the method (`BYE_RULE`). Ties in the leaderboard are broken as each method's `tie_break` says;
players still equal share a rank (1, 1, 3).

Every table's result counts as it stands, finished or closed early. The leaderboard is worked
out from scratch from the results each time, so a corrected table changes it at once.
"""

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scorekeeper.rules.i18n import _, gettext_noop


@dataclass(frozen=True)
class TableResult:
    """One table in one round, as its family reported it (`table_places`, `table_points`)."""

    round: int  # 1-based
    table: int  # 1-based
    places: Mapping[str, int]  # rank at the table, 1 best; ties share a rank: 1, 1, 3
    points: Mapping[str, int] | None  # raw points (the trick game's totals); None: places only
    finished: bool  # False: closed early or still in play; it counts as it stands


@dataclass(frozen=True)
class Method:
    """A way to rank the night, in words for the page (message ids: translate where shown)."""

    id: str
    name: str
    explanation: str  # one sentence for the page
    tie_break: str  # the tie-break rule in one sentence
    needs_points: bool  # only for games whose tables have raw points

    @property
    def shown_name(self) -> str:
        return _(self.name)

    @property
    def shown_explanation(self) -> str:
        return _(self.explanation)

    @property
    def shown_tie_break(self) -> str:
        return _(self.tie_break)


TOTAL, PLACEMENT, SHARE = "total", "placement", "share"
METHODS = (
    Method(
        TOTAL,
        gettext_noop("Total points"),
        gettext_noop("Each player's points from every round, added up."),
        gettext_noop("Equal totals are split by placement points, then by the most first places."),
        needs_points=True,
    ),
    Method(
        PLACEMENT,
        gettext_noop("Placement points"),
        gettext_noop(
            "Each round, the places at a table earn points (3, 1 and 0 at a table of three; "
            "4, 2, 1 and 0 at four), so a lucky deal wins a place, not the night."
        ),
        gettext_noop(
            "Equal placement points are split by the most first places, then by the total "
            "points where the game has them."
        ),
        needs_points=False,
    ),
    Method(
        SHARE,
        gettext_noop("Points against the table"),
        gettext_noop(
            "Each round, a player's points above or below their table's average, added up, "
            "so a low-scoring table does not hold its players back."
        ),
        gettext_noop("Equal scores are split by placement points, then by the most first places."),
        needs_points=True,
    ),
)
BYE_RULE = gettext_noop(
    "A player who sits out a round scores their own average per round played that night "
    "(0 before their first round)."
)


class UnknownMethod(KeyError):
    """No ranking method has this id."""


def method(method_id: str) -> Method:
    """The method with this id; UnknownMethod if there is none."""
    for candidate in METHODS:
        if candidate.id == method_id:
            return candidate
    raise UnknownMethod(method_id)


def methods_for(has_points: bool) -> tuple[Method, ...]:
    """The methods a night may choose: all of them where tables have points, else those that
    need none."""
    return tuple(m for m in METHODS if has_points or not m.needs_points)


def placement_points(places: Mapping[str, int]) -> dict[str, Fraction]:
    """Each player's placement points at one table (see the module's docstring): n for first
    place of n, n - k for the k-th; players sharing a rank split the points of the places
    they fill equally."""
    count = len(places)
    row = [count - place if place > 1 else count for place in range(1, count + 1)]
    sharing = Counter(places.values())
    return {
        player: Fraction(sum(row[rank - 1 : rank - 1 + sharing[rank]]), sharing[rank])
        for player, rank in places.items()
    }


def round_scores(method_id: str, result: TableResult) -> dict[str, Fraction]:
    """What one table earns each of its players under the method."""
    if method_id == PLACEMENT:
        return placement_points(result.places)
    points = _points(method_id, result)
    if method_id == TOTAL:
        return {player: Fraction(points[player]) for player in result.places}
    average = Fraction(sum(points[player] for player in result.places), len(result.places))
    return {player: points[player] - average for player in result.places}


@dataclass(frozen=True)
class Line:
    """One player's line in the leaderboard, and what its tie-breaks read."""

    player: str
    score: Fraction  # under the method, byes included
    rank: int  # 1 best; players equal on the score and its tie-breaks share a rank: 1, 1, 3
    rounds: int  # rounds played
    byes: int  # rounds the night had them sit out
    firsts: int  # rounds they finished first at their table (shared firsts count)
    placement: Fraction  # placement points, byes included
    points: Fraction | None  # raw points, byes included; None where the game has none


def leaderboard(
    method_id: str,
    players: Sequence[str],
    results: Sequence[TableResult],
    byes: Mapping[str, Sequence[int]],
) -> tuple[Line, ...]:
    """The night's leaderboard under the method, best first.

    `players` are everyone on the board (in the order equals are listed), `results` every
    table of every round so far, `byes` the rounds each player sat out. A late arrival simply
    has fewer rounds: only the rounds the night made them sit out are byes.
    """
    method(method_id)
    has_points = bool(results) and all(result.points is not None for result in results)
    scores = _nights(method_id, players, results, byes)
    placement = _nights(PLACEMENT, players, results, byes)
    totals = _nights(TOTAL, players, results, byes) if has_points else {}
    raw = {player: totals.get(player) for player in players}
    firsts = Counter(
        player for result in results for player, place in result.places.items() if place == 1
    )
    rounds = Counter(player for result in results for player in result.places)

    def key(player: str) -> tuple[Fraction, ...]:
        if method_id == PLACEMENT:
            return (scores[player], Fraction(firsts[player]), raw[player] or Fraction(0))
        return (scores[player], placement[player], Fraction(firsts[player]))

    ordered = sorted(players, key=key, reverse=True)
    lines: list[Line] = []
    for position, player in enumerate(ordered, start=1):
        tied = lines and key(lines[-1].player) == key(player)
        lines.append(
            Line(
                player=player,
                score=scores[player],
                rank=lines[-1].rank if tied else position,
                rounds=rounds[player],
                byes=len(byes.get(player, ())),
                firsts=firsts[player],
                placement=placement[player],
                points=raw[player],
            )
        )
    return tuple(lines)


def score_text(value: Fraction) -> str:
    """A score as the page shows it: "2", "1.5", "-0.33" (two decimals at most)."""
    rounded = round(value, 2)
    if rounded.denominator == 1:
        return str(rounded.numerator)
    return f"{float(rounded):.2f}".rstrip("0")


def _points(method_id: str, result: TableResult) -> Mapping[str, int]:
    if result.points is None:
        raise ValueError(
            f"The method {method_id!r} needs points, and round {result.round} table "
            f"{result.table} has none."
        )
    return result.points


def _nights(
    method_id: str,
    players: Sequence[str],
    results: Sequence[TableResult],
    byes: Mapping[str, Sequence[int]],
) -> dict[str, Fraction]:
    """Each player's night under the method: the rounds played, and each bye at their
    average."""
    played: dict[str, list[Fraction]] = {player: [] for player in players}
    for result in results:
        for player, score in round_scores(method_id, result).items():
            played.setdefault(player, []).append(score)
    nights = {}
    for player in players:
        scores = played[player]
        average = Fraction(sum(scores), len(scores)) if scores else Fraction(0)
        nights[player] = sum(scores, Fraction(0)) + average * len(byes.get(player, ()))
    return nights
