"""A club night in words and rows for its pages: the leaderboard, each table's progress, the
seating of every round, the prizes, the downloads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scorekeeper.club.reads import SeasonRow
from scorekeeper.live.nights import Board, Table
from scorekeeper.night_models import Night
from scorekeeper.rules import night as rules
from scorekeeper.rules.registry import family


@dataclass(frozen=True)
class Row:
    """A line of the leaderboard as every page shows it."""

    rank: int
    player: str
    score: str
    rounds: int
    byes: int
    firsts: int
    prize: str
    tied: bool  # shares its rank


def score(value: Fraction | str) -> str:
    """A score as the page shows it, in the page's language: the rules' figure ("102.67",
    two decimals at most) with the language's decimal mark ("102,67" in French), as Django
    writes the ratings beside it. The downloads keep the rules' own figure."""
    text = rules.score_text(value) if isinstance(value, Fraction) else value
    return number_format(Decimal(text))


def season_rows(rows: Sequence[SeasonRow]) -> list[SeasonRow]:
    """A season's standings with their points as the page shows them."""
    return [replace(row, points=score(row.points)) for row in rows]


def method_of(night: Night) -> rules.Method:
    return rules.method(night.method)


def rows(night: Night, board: Board) -> list[Row]:
    """The leaderboard, best first, with the prizes beside the places they go to."""
    prizes = [line.strip() for line in night.prizes.splitlines() if line.strip()]
    ranks = [line.rank for line in board.lines]
    return [
        Row(
            rank=line.rank,
            player=line.player,
            score=score(line.score),
            rounds=line.rounds,
            byes=line.byes,
            firsts=line.firsts,
            prize=prizes[line.rank - 1] if night.finished and line.rank <= len(prizes) else "",
            tied=ranks.count(line.rank) > 1,
        )
        for line in board.lines
    ]


def progress(night: Night, table: Table) -> str:
    """Where a table is: "Deal 7 of 9", "Round 3", "Finished", "Closed early"."""
    if table.closed:
        return _("Closed early")
    if table.finished:
        return pgettext("a table of a club night", "Finished")
    unit = family(night.family).UNIT
    if unit == "deal":
        if night.deals:
            return _("Deal %(number)s of %(deals)s") % {
                "number": min(table.played + 1, night.deals),
                "deals": night.deals,
            }
        return _("Deal %(number)s") % {"number": table.played + 1}
    return ngettext("%(count)s round played", "%(count)s rounds played", table.played) % {
        "count": table.played
    }


def round_length(night: Night) -> str:
    """A round's length in words: "2 deals at each table", "until the game ends"."""
    if night.deals:
        return ngettext(
            "%(count)s deal at each table", "%(count)s deals at each table", night.deals
        ) % {"count": night.deals}
    return _("each table plays until its game ends")


def table_size(night: Night) -> str:
    if night.least == night.most:
        return ngettext("%(count)s player a table", "%(count)s players a table", night.least) % {
            "count": night.least
        }
    return _("%(least)s to %(most)s players a table") % {"least": night.least, "most": night.most}


def seating_rows(night: Night, board: Board) -> list[dict[str, object]]:
    """Every round so far: its tables with their players, and who sat out."""
    return [
        {
            "number": number,
            "tables": board.round_tables(number),
            "byes": board.byes.get(number, ()),
        }
        for number in range(1, night.round + 1)
    ]


def csv_rows(night: Night, board: Board) -> list[list[object]]:
    """The leaderboard as CSV rows, a header first."""
    header: list[object] = [
        _("Rank"),
        _("Player"),
        method_of(night).shown_name,
        _("Rounds played"),
        _("Sat out"),
        _("First places"),
    ]
    return [header] + [
        [line.rank, line.player, rules.score_text(line.score), line.rounds, line.byes, line.firsts]
        for line in board.lines
    ]


def data(night: Night, board: Board) -> dict[str, object]:
    """The night as JSON: its settings, every round's seating and the leaderboard."""
    return {
        "night": night.name,
        "played_on": night.played_on.isoformat(),
        "family": night.family,
        "ruleset": night.ruleset,
        "options": night.options,
        "table_size": [night.least, night.most],
        "deals": night.deals,
        "rounds": night.rounds,
        "method": night.method,
        "finished": night.finished,
        "seating": [
            {
                "round": number,
                "tables": [
                    {
                        "table": table.number,
                        "players": list(table.players),
                        "session": table.session,
                    }
                    for table in board.round_tables(number)
                ],
                "sat_out": list(board.byes.get(number, ())),
            }
            for number in range(1, night.round + 1)
        ],
        "leaderboard": [
            {
                "rank": line.rank,
                "player": line.player,
                "score": rules.score_text(line.score),
                "rounds": line.rounds,
                "sat_out": line.byes,
                "first_places": line.firsts,
            }
            for line in board.lines
        ],
    }


def season_csv_rows(rows: Sequence[SeasonRow]) -> list[list[object]]:
    """A season's standings as CSV rows, a header first."""
    header: list[object] = [
        _("Place"),
        _("Player"),
        _("Points"),
        _("Nights counted"),
        _("Nights played"),
        _("Games"),
        _("Rating"),
    ]
    return [header] + [
        [
            row.rank,
            row.player,
            row.points,
            row.counted,
            row.nights,
            row.games,
            "" if row.rating is None else f"{row.rating:.1f}",
        ]
        for row in rows
    ]


def season_data(name: str, rows: Sequence[SeasonRow]) -> dict[str, object]:
    """A season's standings as a night's JSON download carries them."""
    return {
        "season": name,
        "standings": [
            {
                "rank": row.rank,
                "player": row.player,
                "points": row.points,
                "nights": row.nights,
                "games": row.games,
                "rating": None if row.rating is None else round(row.rating, 2),
            }
            for row in rows
        ],
    }
