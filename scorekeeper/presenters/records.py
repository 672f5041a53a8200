"""A player's record across their owner's sessions, computed from the stored entries.

Every figure comes from the rules package's results of each session (never from stored
totals), so a corrected deal changes the record too. What each family counts (deals and bids,
or rounds and tokens) is its presenter's `count_record`.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from scorekeeper import live
from scorekeeper.families import app
from scorekeeper.models import GameSession, Player, UnreadableRules
from scorekeeper.presenters.common import HeadToHead, Record


def sessions_of(player: Player) -> QuerySet[GameSession]:
    """The owner's sessions (not deleted) in which `player` had a seat, now or before someone
    took it over, with their seats and who left them loaded."""
    return (
        GameSession.objects.for_user(player.owner_id)
        .filter(Q(seats__player=player) | Q(seats__former__player=player))
        .with_seats()
        .prefetch_related("seats__former")
        .with_counts()
        .distinct()
    )


def ended(session: GameSession, finished: bool) -> bool:
    """Whether the session says who finished above whom: it is finished, or it was stopped
    (abandoned) where it stood after at least one deal or round. One still being played, or
    stopped before anything was entered, says nothing yet."""
    played: int = session.entry_count  # type: ignore[attr-defined]  # sessions_of() counts them
    return finished or (session.abandoned is not None and played > 0)


def player_record(player: Player) -> Record:
    """The player's record. A player who left a seat is credited with the deals or rounds
    they played in it; the session's end (finished, won, head to head) counts for whoever
    held the seat at the end. Head to head counts only the sessions that `ended()`: an empty
    one, or one still being played, would read as level. A session whose stored rules are
    no longer accepted is left out, and listed as such."""
    record = Record()
    for session in sessions_of(player):
        try:
            result = live.result(session)
        except UnreadableRules:
            record.left_out.append(session)
            continue
        record.sessions += 1
        shown = app(session.family).presenter
        seated = None
        for seat in session.seats.all():
            for holder, numbers in seat.holders():
                if holder == player.pk:
                    shown.count_record(record, seat.player.name, result, numbers)
            if seat.player_id == player.pk:
                seated = seat
        if seated is None:
            continue  # they left the table before the end
        name = seated.player.name
        if result.finished:
            record.finished += 1
            if name in result.winners:
                record.won += 1
        if not ended(session, result.finished):
            continue
        ranks = {standing.player: standing.rank for standing in result.standings}
        for opponent in session.player_names():
            if opponent == name:
                continue
            rival = record.head_to_head.setdefault(opponent, HeadToHead(opponent))
            rival.sessions += 1
            if ranks[name] < ranks[opponent]:
                rival.ahead += 1
            elif ranks[name] > ranks[opponent]:
                rival.behind += 1
            else:
                rival.level += 1
    return record
