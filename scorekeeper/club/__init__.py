"""What sits above a table, kept in step with the sessions: each player's outcomes, records
and head to head (`outcomes`), ratings (`ratings`), club nights' leaderboards (`nights`) and
seasons' standings (`seasons`), all stored as rows (`club_models`).

The services call these inside the transaction of the change that makes them, after the
change itself, so a page reads rows that are always in step, and nothing is worked out from
the history on a request (a long replay of ratings runs as a task). Locks are taken in one
order (`locks`): the session's, its night's, the owner's.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence

from scorekeeper.club import nights as night_lines
from scorekeeper.club import outcomes, ratings, seasons
from scorekeeper.club.locks import lock_night, lock_owner
from scorekeeper.models import GameSession
from scorekeeper.night_models import Night, Season
from scorekeeper.rules.registry import Result


def session_changed(
    session: GameSession, result: Result | None, played: int, *, night: bool = True
) -> None:
    """The session's result or standing changed (its row locked by the caller): `result` its
    result now (None if its stored rules are refused), `played` its deals or rounds. `night`
    False: the caller works its club night's leaderboard out itself, once for many tables."""
    sessions_changed([(session, result, played)], nights=night)


def sessions_changed(
    changed: Sequence[tuple[GameSession, Result | None, int]], *, nights: bool = True
) -> None:
    """Several sessions of one owner changed at once (a night deleted with its tables)."""
    if not changed:
        return
    night_ids = {session.night_id for session, _r, _p in changed if session.night_id}
    locked = [lock_night(night_id) for night_id in sorted(night_ids)] if nights else []
    owner_id = changed[0][0].owner_id
    plans = [
        outcomes.plan(session, outcomes.parts_of(session, result, played))
        for session, result, played in changed
    ]
    # The owner's row is taken only where ratings or seasons move (or a night's leaderboard,
    # which seasons read): every other save of a game being played locks its players'
    # records alone.
    if locked or any(plan.rating_changed or plan.season_changed for plan in plans):
        lock_owner(owner_id)
    replays: dict[str, tuple[ratings.Key, set[int]]] = {}
    due = _Seasons(owner_id)
    for plan in plans:
        outcomes.apply(plan)
        family = plan.session.family
        if plan.rating_changed:
            key, players = replays.get(family, (plan.keys[0], set()))
            # Every player of the game, before and after: the replay starts from them.
            seated = plan.parts.keys() | plan.old.keys()
            replays[family] = (min(key, plan.keys[0]), players | seated)
            due.rate(family, plan.days)
        if plan.season_changed and plan.session.night_id is None:
            due.count(family, plan.days, plan.players, sessions=True)
    for family, (key, players) in replays.items():
        ratings.changed(owner_id, family, key, players)
    for night in locked:
        moved = night_lines.refresh(night)
        if night.round and moved:
            due.count(night.family, {night.played_on}, moved)
    due.settle()


class _Seasons:
    """The seasons a change reaches, each worked out once at the end: the lines of the players
    whose nights changed, and the ratings where a rated game changed."""

    def __init__(self, owner_id: int) -> None:
        self.owner_id = owner_id
        self.players: dict[tuple[str, datetime.date, bool], set[int]] = {}
        self.rated: set[tuple[str, datetime.date]] = set()

    def count(
        self, family: str, days: set[datetime.date], players: Iterable[int], sessions: bool = False
    ) -> None:
        """`players`' nights changed on `days` (as ordinary sessions: seasons counting those)."""
        for day in days:
            self.players.setdefault((family, day, sessions), set()).update(players)

    def rate(self, family: str, days: set[datetime.date]) -> None:
        self.rated |= {(family, day) for day in days}

    def settle(self) -> None:
        due: dict[int, tuple[Season, set[int], bool]] = {}
        wanted = [(family, day, sessions, True) for family, day, sessions in self.players]
        wanted += [(family, day, False, False) for family, day in self.rated]
        for family, day, sessions, counting in wanted:
            found = seasons.seasons_of(self.owner_id, family, day)
            for season in found.filter(with_sessions=True) if sessions else found:
                _held, players, rate = due.get(season.pk, (season, set(), False))
                if counting:
                    players |= self.players[(family, day, sessions)]
                due[season.pk] = (season, players, rate or (family, day) in self.rated)
        for _pk, (season, players, rate) in sorted(due.items()):
            came = seasons.refresh(season, players) if players else False
            if rate or came:
                seasons.rate(season)


def night_changed(night: Night) -> None:
    """The night changed itself (a round seated, a player come or gone, its end), its row
    locked by the caller: its leaderboard, and the seasons that count it."""
    lock_owner(night.owner_id)
    _night_lines(night)


def _night_lines(night: Night) -> None:
    """The night's leaderboard again, and the lines of its players whose night changed in
    every season that counts it."""
    moved = night_lines.refresh(night)
    if night.round and moved:
        due = _Seasons(night.owner_id)
        due.count(night.family, {night.played_on}, moved)
        due.settle()


def night_gone(night: Night) -> None:
    """The night is about to be deleted with its tables: take their outcomes out of every
    record, rating and season first (a deletion's cascade would not)."""
    tables = list(GameSession.objects.filter(night=night).with_seats())
    for table in tables:
        table.deleted = table.deleted or night.created  # gone: no outcomes
    sessions_changed([(table, None, 0) for table in tables])


def season_changed(season: Season) -> None:
    """The season's settings changed (or it is new): all its lines and ratings worked out
    again."""
    lock_owner(season.owner_id)
    locked = Season.objects.select_for_update().get(pk=season.pk)
    seasons.refresh(locked)
    seasons.rate(locked)
