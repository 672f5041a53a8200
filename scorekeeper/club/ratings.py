"""Each player's rating, updated game by game as the games count.

An owner's games of one family form one chain, in the order they were played (`Outcome`'s
day, start and session). A game that starts or stops counting, or whose places change, is
rated again with every game after it, and only those (`replay`): the states before it are the
ratings its players had after their previous games, stored on those games' outcomes. A newly
finished game is nearly always the last, so its replay is that one game. A replay longer than
`IN_REQUEST` games (a correction of an old game) runs as a task outside the request
(`bring_up_to_date`), and until it has run the pages say the ratings are being brought up to
date (`RatingsBehind`).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q, QuerySet
from django.tasks import task

from scorekeeper.club.locks import lock_owner
from scorekeeper.club_models import Outcome, PlayerRating, RatingsBehind
from scorekeeper.ratings import rate_game, rated, shown

IN_REQUEST = 50  # the most games a change rates again before answering; a longer replay is a task

Key = tuple[datetime.date, datetime.datetime, int]


def after(key: Key) -> Q:
    """The games played at `key` or after it."""
    day, started, session = key
    return (
        Q(day__gt=day)
        | Q(day=day, started__gt=started)
        | Q(day=day, started=started, session_id__gte=session)
    )


def changed(owner_id: int, family: str, key: Key, players: Iterable[int]) -> None:
    """A game at `key` was changed (its players' outcomes `players`, before and after): rate it
    and the games after it again, now or, past IN_REQUEST of them, by a task."""
    behind = RatingsBehind.objects.select_for_update().filter(owner_id=owner_id, family=family)
    waiting = behind.first()
    if waiting is not None:  # a task will rate everything from the earlier of the two
        if key < waiting.key:
            waiting.day, waiting.started, waiting.session_id = key
            waiting.save(update_fields=["day", "started", "session_id"])
        return
    games = _chain(owner_id, family).filter(after(key)).values("session_id").distinct().count()
    if games <= IN_REQUEST:
        replay(owner_id, family, key, players)
        return
    day, started, session = key
    RatingsBehind.objects.create(
        owner_id=owner_id, family=family, day=day, started=started, session_id=session
    )
    transaction.on_commit(lambda: bring_up_to_date.enqueue(owner_id, family))


def _chain(owner_id: int, family: str) -> QuerySet[Outcome]:
    """The rated outcomes of an owner's games of one family: counted, with a place."""
    return Outcome.objects.filter(
        owner_id=owner_id, family=family, counted=True, place__isnull=False
    )


def replay(owner_id: int, family: str, key: Key, players: Iterable[int] | None = None) -> int:
    """Rate again the games of the chain from `key` on that the change reaches; each player's
    rating now is their state after their last rated game. `players`: the changed game's
    players, before and after the change. A game is rated again when one of its players' ratings
    before it moved (one of `players`, or a player of a game rated again before it); any other
    game keeps its ratings, as its players come to it as they were (the tables of one round of
    a club night share no player). None: every game from `key` on, with every player whose
    latest game is at `key` or after (the task's long replay). The number of games rated."""
    rows = list(_chain(owner_id, family).filter(after(key)).order_by(*Outcome.order_by, "pk"))
    games: dict[int, list[Outcome]] = {}
    for row in rows:
        games.setdefault(row.session_id, []).append(row)
    if players is None:
        latest = PlayerRating.objects.filter(owner_id=owner_id, family=family).filter(
            _at_or_after(key)
        )
        moved = {row.player_id for row in rows} | set(latest.values_list("player_id", flat=True))
    else:
        moved = set(players)
    states = _states_before(family, key, moved)
    written: list[Outcome] = []
    rated_games = 0
    for outcomes in games.values():
        if not any(row.player_id in moved for row in outcomes):
            for row in outcomes:  # rated as it was: the state its players leave it with
                if row.mu is not None and row.sigma is not None and row.games is not None:
                    states[row.player_id] = State(row.mu, row.sigma, row.games, row.key)
            continue
        reached = [row.player_id for row in outcomes if row.player_id not in moved]
        for player in reached:
            if player not in states:  # no game of theirs walked yet: as they came to `key`
                states |= _states_before(family, key, {player})
        moved.update(reached)
        written += outcomes
        places = {row.player_id: row.place or 0 for row in outcomes}
        if not rated(places):
            for row in outcomes:
                row.mu = row.sigma = row.games = None
            continue
        rated_games += 1
        now = rate_game({player: _mu_sigma(states[player]) for player in places}, places)
        for row in outcomes:
            state = states[row.player_id]
            row.mu, row.sigma = now[row.player_id]
            row.games = (state.games if state else 0) + 1
            states[row.player_id] = State(row.mu, row.sigma, row.games, row.key)
    # An upsert: Django's bulk_update writes one CASE a field over every row of a batch,
    # whose cost grows with the square of a long replay's rows.
    Outcome.objects.bulk_create(
        written,
        update_conflicts=True,
        unique_fields=["session", "player"],
        update_fields=["mu", "sigma", "games"],
    )
    _keep(owner_id, family, {player: states[player] for player in moved})
    return rated_games


def _at_or_after(key: Key) -> Q:
    """The ratings whose latest game is at `key` or after it."""
    day, started, session = key
    return (
        Q(last_day__gt=day)
        | Q(last_day=day, last_started__gt=started)
        | Q(last_day=day, last_started=started, last_session__gte=session)
    )


@dataclass(frozen=True)
class State:
    """A player's rating after a game: (μ, σ), their rated games, and where that game stands."""

    mu: float
    sigma: float
    games: int
    key: Key


def _mu_sigma(state: State | None) -> tuple[float, float] | None:
    return None if state is None else (state.mu, state.sigma)


def _states_before(family: str, key: Key, players: set[int]) -> dict[int, State | None]:
    """Each player's state after their last rated game before `key` (None before any): their
    rating now where their latest game is before it (a new game, the usual case), none for a
    player without a rating (no rated game at all), else read from their outcomes."""
    states: dict[int, State | None] = dict.fromkeys(players)
    for rating in PlayerRating.objects.filter(player_id__in=players, family=family):
        if rating.last_key < key:
            states[rating.player_id] = State(rating.mu, rating.sigma, rating.games, rating.last_key)
        else:
            states[rating.player_id] = _state_before(rating.player_id, family, key)
    return states


def _state_before(player: int, family: str, key: Key) -> State | None:
    """The player's state after their last rated game before `key`, from their outcomes."""
    last = (
        Outcome.objects.filter(player_id=player, family=family, mu__isnull=False)
        .exclude(after(key))
        .order_by(*(f"-{name}" for name in Outcome.order_by))
        .first()
    )
    if last is None or last.mu is None or last.sigma is None or last.games is None:
        return None
    return State(last.mu, last.sigma, last.games, last.key)


def _keep(owner_id: int, family: str, states: dict[int, State | None]) -> None:
    """Each player's rating now, as the replay left it (none for a player without a game)."""
    gone = [player for player, state in states.items() if state is None]
    if gone:
        PlayerRating.objects.filter(player_id__in=gone, family=family).delete()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                player_id=player,
                owner_id=owner_id,
                family=family,
                mu=state.mu,
                sigma=state.sigma,
                games=state.games,
                shown=shown(state.mu, state.sigma),
                last_day=state.key[0],
                last_started=state.key[1],
                last_session=state.key[2],
            )
            for player, state in states.items()
            if state is not None
        ],
        update_conflicts=True,
        unique_fields=["player", "family"],
        update_fields=["mu", "sigma", "games", "shown", "last_day", "last_started", "last_session"],
    )


@task()
def bring_up_to_date(owner_id: int, family: str) -> int:
    """The task of a long replay: rate again every game from the one RatingsBehind names, in
    one transaction holding the owner's ratings (a change meanwhile waits, then sees them up
    to date). The number of games rated."""
    with transaction.atomic():
        lock_owner(owner_id)
        waiting = (
            RatingsBehind.objects.select_for_update()
            .filter(owner_id=owner_id, family=family)
            .first()
        )
        if waiting is None:
            return 0
        rated_games = replay(owner_id, family, waiting.key, None)
        waiting.delete()
        return rated_games
