"""What the "Manage session" pages say: each seat with what it holds and who held it before,
and, before a player is replaced, what that means for the score, in plain words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.models import GameSession, Seat
from scorekeeper.presenters.registry import presenter


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


def _played_words(player: str, unit: str, first: int, last: int) -> str:
    """'Cat played deals 1–5', 'Cat played round 3'."""
    words = {"player": player, "first": first, "last": last}
    if unit == "deal":
        if first == last:
            return _("%(player)s played deal %(first)s") % words
        return _("%(player)s played deals %(first)s–%(last)s") % words
    if first == last:
        return _("%(player)s played round %(first)s") % words
    return _("%(player)s played rounds %(first)s–%(last)s") % words


def seat_rows(session: GameSession, result: Any) -> list[SeatRow]:
    """Each seat in order, with what it holds and who held it before its player now."""
    shown = presenter(session.family)
    rows = []
    for seat in session.seats.all():
        before, start = [], 1
        for former in seat.former.all():
            before.append(_played_words(former.player.name, session.unit, start, former.until))
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
    words = {"newcomer": newcomer, "left": left, "seat": number, "played": played}
    if played:
        words["held"] = presenter(session.family).standing_words(result, left)
        statement = (
            _("%(newcomer)s takes %(left)s's seat (seat %(seat)s) and its score: %(held)s.") % words
        )
        if unit == "deal":
            details += [
                ngettext(
                    "Deal 1 stays listed under seat %(seat)s, shown under %(newcomer)s's name "
                    "from now on; the history keeps that %(left)s played it.",
                    "Deals 1–%(played)s stay listed under seat %(seat)s, shown under "
                    "%(newcomer)s's name from now on; the history keeps that %(left)s played them.",
                    played,
                )
                % words,
                ngettext(
                    "In the players' records, deal 1 counts for %(left)s and what comes after "
                    "for %(newcomer)s; how the session ends counts for %(newcomer)s.",
                    "In the players' records, deals 1–%(played)s count for %(left)s and what "
                    "comes after for %(newcomer)s; how the session ends counts for %(newcomer)s.",
                    played,
                )
                % words,
            ]
        else:
            details += [
                ngettext(
                    "Round 1 stays listed under seat %(seat)s, shown under %(newcomer)s's name "
                    "from now on; the history keeps that %(left)s played it.",
                    "Rounds 1–%(played)s stay listed under seat %(seat)s, shown under "
                    "%(newcomer)s's name from now on; the history keeps that %(left)s played them.",
                    played,
                )
                % words,
                ngettext(
                    "In the players' records, round 1 counts for %(left)s and what comes after "
                    "for %(newcomer)s; how the session ends counts for %(newcomer)s.",
                    "In the players' records, rounds 1–%(played)s count for %(left)s and what "
                    "comes after for %(newcomer)s; how the session ends counts for %(newcomer)s.",
                    played,
                )
                % words,
            ]
    else:
        statement = _("%(newcomer)s sits in seat %(seat)s instead of %(left)s.") % words
        if unit == "deal":
            details.append(_("No deal has been entered yet, so there is no score to take over."))
        else:
            details.append(_("No round has been entered yet, so there is no score to take over."))
    if is_new:
        details.append(_("%(newcomer)s is added to your players.") % words)
    return Replacement(statement=statement, details=tuple(details), played=played)
