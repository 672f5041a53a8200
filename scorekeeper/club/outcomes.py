"""Each player's outcome of a session, worked out from its result, and the records and head
to head that add the outcomes up.

A session's outcomes are written again whenever its result or standing changes (an entry, a
correction, an abandonment, a deletion, a restore, a seat taken over), and each player's
record moves by the difference between the old outcome and the new, so that no record is ever
added up again from the history.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from scorekeeper.club_models import Outcome, PlayerRecord, Rivalry
from scorekeeper.models import FormerSeat, GameSession, Seat
from scorekeeper.rules import night as night_rules
from scorekeeper.rules.registry import Result


@dataclass(frozen=True)
class Part:
    """One player's outcome of one session, as the fields of its row."""

    readable: bool = True
    seated: bool = False
    place: int | None = None
    points: int | None = None
    placement: str = ""
    finished: bool = False
    won: bool = False
    ended: bool = False
    counted: bool = False
    counts: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, row: Outcome) -> Part:
        return cls(
            readable=row.readable,
            seated=row.seated,
            place=row.place,
            points=row.points,
            placement=row.placement,
            finished=row.finished,
            won=row.won,
            ended=row.ended,
            counted=row.counted,
            counts=dict(row.counts),
        )


def parts_of(session: GameSession, result: Result | None, played: int) -> dict[int, Part]:
    """Each seat holder's outcome of the session (by player id): none for a deleted session;
    nothing counted where its stored rules are refused (`result` None); places once something
    is played (`played` deals or rounds)."""
    if session.deleted is not None:
        return {}
    holders = _holders(session)
    if result is None:
        return {holder: Part(readable=False) for holder, _numbers, _seat in holders}
    game = session.rules_family
    places = game.table_places(result) if played else {}
    points = game.table_points(result) if played else None
    placement = night_rules.placement_points(places) if places else {}
    ended = result.finished or (session.abandoned is not None and played > 0)
    counted = result.finished and session.abandoned is None
    parts: dict[int, Part] = {}
    for holder, numbers, seat in holders:
        name = seat.player.name
        counts = Counter(parts[holder].counts if holder in parts else {})
        counts.update(game.player_counts(result, name, numbers))
        if holder != seat.player_id:  # left the seat: their deals or rounds count, no place
            parts[holder] = Part(counts=dict(counts))
            continue
        parts[holder] = Part(
            seated=True,
            place=places.get(name),
            points=points.get(name) if points else None,
            placement=str(placement[name]) if name in placement else "",
            finished=result.finished,
            won=name in result.winners,
            ended=ended,
            counted=counted,
            counts=dict(counts),
        )
    return parts


def _holders(session: GameSession) -> list[tuple[int, range, Seat]]:
    """Who held each seat for which deals or rounds (`Seat.holders`), its players who left
    read in one query for every seat."""
    seats = list(session.seats.all())
    left: dict[int, list[tuple[int, int]]] = {}
    for seat, player, until in (
        FormerSeat.objects.filter(seat__session_id=session.pk)
        .order_by("until", "pk")
        .values_list("seat_id", "player_id", "until")
    ):
        left.setdefault(seat, []).append((player, until))
    return [
        (holder, numbers, seat)
        for seat in seats
        for holder, numbers in seat.holders(left.get(seat.pk, []))
    ]


@dataclass
class Change:
    """What storing a session's outcomes as `parts` changes: the players whose outcome does,
    whether its place in the ratings does (its game and those after it are rated again),
    and whether what a season counts of it does (placement points, as an ordinary session).
    `keys`: where the game stands in the order of games, now and as last stored."""

    session: GameSession
    parts: Mapping[int, Part]
    old: dict[int, Outcome]
    players: frozenset[int]
    rating_changed: bool
    season_changed: bool
    keys: list[tuple[datetime.date, datetime.datetime, int]]

    @property
    def days(self) -> set[datetime.date]:
        return {key[0] for key in self.keys}


def plan(session: GameSession, parts: Mapping[int, Part]) -> Change:
    """Compare the session's outcomes as stored with `parts` (nothing written)."""
    old = {row.player_id: row for row in Outcome.objects.filter(session=session)}
    before = {player: Part.of(row) for player, row in old.items()}
    players = frozenset(
        player for player in old.keys() | parts.keys() if before.get(player) != parts.get(player)
    )
    day = _day(session)
    days = {day} | {row.day for row in old.values()}
    moved = len(days) > 1 and any(part.counted for part in (*before.values(), *parts.values()))
    return Change(
        session=session,
        parts=parts,
        old=old,
        players=players,
        rating_changed=_rated_as(before) != _rated_as(parts) or moved,
        season_changed=_seasonal(before) != _seasonal(parts) or moved,
        keys=sorted((one, session.created, session.pk) for one in days),
    )


def apply(change: Change) -> None:
    """Store the outcomes a `plan` compared, and move each player's record and head to head by
    the difference (their rows locked, one player after another by id)."""
    if not change.players:
        return
    session, parts, old = change.session, change.parts, change.old
    before = {player: Part.of(row) for player, row in old.items()}
    _move_records(change.players, before, parts)
    _move_rivalries(before, parts)
    day = _day(session)
    rows = []
    for player, part in parts.items():
        was, row = before.get(player), old.get(player)
        same = was and row and _place(was) == _place(part) and row.day == day
        rows.append(outcome_row(session, player, part, row if same else None))
    # One statement, whatever changed (an update of each row costs more).
    if gone := [row.pk for player, row in old.items() if player not in parts]:
        Outcome.objects.filter(pk__in=gone).delete()
    Outcome.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["session", "player"],
        update_fields=[*vars(Part()).keys(), "family", "day", "started", "mu", "sigma", "games"],
    )


def outcome_row(
    session: GameSession, player: int, part: Part, rated: Outcome | None = None
) -> Outcome:
    """The row of a player's outcome; `rated`: the stored one whose rating stands (the game is
    rated as it was)."""
    return Outcome(
        session=session,
        player_id=player,
        owner_id=session.owner_id,
        family=session.family,
        day=_day(session),
        started=session.created,
        mu=rated.mu if rated else None,
        sigma=rated.sigma if rated else None,
        games=rated.games if rated else None,
        **vars(part),
    )


def add_to_record(record: PlayerRecord, part: Part, sign: int = 1) -> None:
    """Add an outcome to a player's record (take it away, `sign` -1); an unreadable session
    counts nothing."""
    if not part.readable:
        return
    record.sessions += sign
    record.finished += sign * part.finished
    record.won += sign * part.won
    counts = Counter(record.counts)
    for name, value in part.counts.items():
        counts[name] += sign * value
    record.counts = {name: value for name, value in counts.items() if value}


def _seasonal(parts: Mapping[int, Part]) -> dict[int, str]:
    """What of a game a season counts as an ordinary session: each player's placement points,
    if the game counts."""
    return {player: part.placement for player, part in parts.items() if part.counted}


def _day(session: GameSession) -> datetime.date:
    return session.played_on or session.created.date()


def _rated_as(parts: Mapping[int, Part]) -> dict[int, int | None]:
    """What of a game the ratings read: each player's place, if the game counts."""
    return {player: _place(part) for player, part in parts.items() if part.counted}


def _place(part: Part) -> int | None:
    """The place the ratings read of one outcome (none if its game does not count)."""
    return part.place if part.counted else None


def _move_records(
    players: Iterable[int], before: Mapping[int, Part], after: Mapping[int, Part]
) -> None:
    ids = sorted(players)
    held = PlayerRecord.objects.select_for_update().filter(player_id__in=ids)
    records = {record.player_id: record for record in held}
    for player in ids:
        record = records.setdefault(player, PlayerRecord(player_id=player))
        for part, sign in ((before.get(player), -1), (after.get(player), 1)):
            if part is not None:
                add_to_record(record, part, sign)
    # One statement, whatever the number of players (their rows locked above).
    PlayerRecord.objects.bulk_create(
        records.values(),
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["sessions", "finished", "won", "counts"],
    )


def meetings(parts: Mapping[int, Part]) -> Counter[tuple[int, int, str]]:
    """The head to head one session makes: (player, opponent, "ahead"/"behind"/"level") for
    every two players at the table when it ended."""
    at_end = {
        player: part.place
        for player, part in parts.items()
        if part.ended and part.seated and part.place is not None
    }
    met: Counter[tuple[int, int, str]] = Counter()
    for player, place in at_end.items():
        for opponent, other in at_end.items():
            if opponent != player:
                how = "ahead" if place < other else "behind" if place > other else "level"
                met[(player, opponent, how)] += 1
    return met


def _move_rivalries(before: Mapping[int, Part], after: Mapping[int, Part]) -> None:
    delta = meetings(after)
    delta.subtract(meetings(before))
    pairs = sorted({(player, opponent) for (player, opponent, _how), n in delta.items() if n})
    if not pairs:
        return
    players = {player for player, _opponent in pairs}
    held = Rivalry.objects.select_for_update().filter(
        player_id__in=players, opponent_id__in={opponent for _player, opponent in pairs}
    )
    rows = {(row.player_id, row.opponent_id): row for row in held}
    rivalries(delta, rows)
    # One statement for the pairs that stay, one for those that no longer met (their rows
    # locked above).
    Rivalry.objects.bulk_create(
        [row for row in rows.values() if row.sessions],
        update_conflicts=True,
        unique_fields=["player", "opponent"],
        update_fields=["sessions", "ahead", "behind", "level"],
    )
    if ended := [row.pk for row in rows.values() if row.pk and not row.sessions]:
        Rivalry.objects.filter(pk__in=ended).delete()


def rivalries(
    met: Counter[tuple[int, int, str]], rows: dict[tuple[int, int], Rivalry] | None = None
) -> list[Rivalry]:
    """The head to head `rows` (new ones where None) moved by the meetings `met`."""
    rows = {} if rows is None else rows
    for (player, opponent, how), change in met.items():
        if change:
            row = rows.setdefault(
                (player, opponent), Rivalry(player_id=player, opponent_id=opponent)
            )
            row.sessions += change
            setattr(row, how, getattr(row, how) + change)
    return list(rows.values())
