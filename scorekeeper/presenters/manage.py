"""What the "Manage session" pages say: each seat with what it holds and who held it before,
and, before a player is replaced, what that means for the score, in plain words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.models import GameSession, Seat
from scorekeeper.presenters import presenter


@dataclass(frozen=True)
class SeatRow:
    seat: Seat
    number: int  # 1-based
    name: str
    standing: str  # what the seat holds: '123 points', '7 tokens'
    before: tuple[str, ...]  # who held it before: 'Cat played deals 1–5'


@dataclass(frozen=True)
class Replacement:
    """A replacement as the owner confirms it: `statement` goes into the history."""

    statement: str
    details: tuple[str, ...]
    played: int


def numbers_words(unit: str, first: int, last: int) -> str:
    """'deal 3', 'deals 1–5'."""
    return f"{unit} {first}" if first == last else f"{unit}s {first}–{last}"


def seat_rows(session: GameSession, result: Any) -> list[SeatRow]:
    """Each seat in order, with what it holds and who held it before its player now."""
    shown = presenter(session)
    rows = []
    for seat in session.seats.all():
        before, start = [], 1
        for former in seat.former.all():
            span = numbers_words(session.unit, start, former.until)
            before.append(f"{former.player.name} played {span}")
            start = former.until + 1
        rows.append(
            SeatRow(
                seat=seat,
                number=seat.position + 1,
                name=seat.player.name,
                standing=shown.standing_words(result, seat.player.name),
                before=tuple(before),
            )
        )
    return rows


def replacement(
    session: GameSession, result: Any, seat: Seat, newcomer: str, is_new: bool
) -> Replacement:
    """What it means for `newcomer` to take the seat now (the rule of
    services.replace_player: the seat keeps its score; each player's record keeps the deals
    or rounds they played)."""
    unit, number, left = session.unit, seat.position + 1, seat.player.name
    played = len(session.entries())
    details = []
    if played:
        held = presenter(session).standing_words(result, left)
        statement = f"{newcomer} takes {left}'s seat (seat {number}) and its score: {held}."
        so_far = numbers_words(unit, 1, played)
        one = played == 1
        details += [
            f"{so_far.capitalize()} {'stays' if one else 'stay'} listed under seat {number}, "
            f"shown under {newcomer}'s name from now on; the history keeps that {left} "
            f"played {'it' if one else 'them'}.",
            f"In the players' records, {so_far} {'counts' if one else 'count'} for {left} and "
            f"what comes after for {newcomer}; how the session ends counts for {newcomer}.",
        ]
    else:
        statement = f"{newcomer} sits in seat {number} instead of {left}."
        details.append(f"No {unit} has been entered yet, so there is no score to take over.")
    if is_new:
        details.append(f"{newcomer} is added to your players.")
    return Replacement(statement=statement, details=tuple(details), played=played)
