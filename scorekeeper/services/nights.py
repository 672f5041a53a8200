"""The writes of a club night: create it, seat each round, players coming and going, a table
closed early, the night's end (early or not), its name, its links, and its deletion.

A round is seated by the rules (`rules.night`): by a pair-once design while one fits the players
and the rounds so far are its own, else by the search against the rounds before it, or by the
standings from the round the organiser chose. Each table of a round becomes an ordinary session
of the night's rules, seated as the seating says.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper import club, live
from scorekeeper.models import GameSession, Player, SavedRuleset, Seat, new_link_token
from scorekeeper.night_models import Night, NightBye, NightPlayer, NightTable
from scorekeeper.rules import night as rules
from scorekeeper.rules.common import InvalidRules
from scorekeeper.rules.registry import family as rules_family
from scorekeeper.services.changes import Rejected, Who
from scorekeeper.services.limits import NIGHTS, SESSIONS, make_room
from scorekeeper.services.manage import abandon_session
from scorekeeper.services.roster import new_players
from scorekeeper.services.sessions import NightPlace, create_session

MATCH = "match"  # the trick game's option that ends a table after its round's deals


def round_options(options: dict[str, object], deals: int | None) -> dict[str, object]:
    """The options a table of the night plays: the night's, ending after `deals` deals."""
    if deals is None:
        return dict(options)
    return {**options, MATCH: {"type": "deals", "deals": deals}}


def has_points(family: str, ruleset: str, options: dict[str, object], size: int) -> bool:
    """Whether the family's tables score points (the methods that need them apply): asked of
    the rules' own result of a table with nothing played yet."""
    game = rules_family(family)
    names = [f"P{number}" for number in range(1, size + 1)]
    return (
        game.table_points(game.score_session(game.resolve_rules(ruleset, options, names), []))
        is not None
    )


@transaction.atomic
def create_night(
    *,
    owner: User,
    name: str,
    played_on: datetime.date,
    family: str,
    ruleset: str,
    options: dict[str, object],
    least: int,
    most: int,
    deals: int | None,
    rounds: int,
    method: str,
    players: Sequence[Player],
    new_names: Sequence[str] = (),
    swiss_from: int | None = None,
    prizes: str = "",
    saved_ruleset: SavedRuleset | None = None,
) -> Night:
    """A new night, not yet seated, of `players` and a new player on the roster for each of
    `new_names`. Rejected with what is wrong (rules a table of its size cannot play, a method
    its game has no points for, too few players for one table); AccountFull if the roster has
    no room for every new name."""
    game = rules_family(family)
    problems: list[str] = []
    for size in range(least, most + 1):
        names = [f"P{number}" for number in range(1, size + 1)]
        try:
            game.resolve_rules(ruleset, round_options(options, deals), names)
        except InvalidRules as error:
            problems += [problem.message for problem in error.problems]
            break
    if not problems:
        allowed = rules.methods_for(has_points(family, ruleset, options, least))
        if method not in {allowed_method.id for allowed_method in allowed}:
            problems.append(_("This game has no points to rank by: choose placement points."))
    if len(players) + len(new_names) < least:
        problems.append(
            _("A night needs at least %(count)s players for one table.") % {"count": least}
        )
    if problems:
        raise Rejected(problems)
    adds = ngettext(
        "The night adds %(count)s new player to your roster, which has no room for them.",
        "The night adds %(count)s new players to your roster, which has no room for them.",
        len(new_names),
    )
    make_room(owner, NIGHTS)
    players = [*players, *new_players(owner, new_names, why=adds % {"count": len(new_names)})]
    night = Night.objects.create(
        owner=owner,
        name=name,
        played_on=played_on,
        family=family,
        ruleset=ruleset,
        options=dict(options),
        saved_ruleset=saved_ruleset,
        ruleset_name=saved_ruleset.name if saved_ruleset else "",
        least=least,
        most=most,
        deals=deals,
        rounds=rounds,
        method=method,
        swiss_from=swiss_from,
        prizes=prizes,
    )
    NightPlayer.objects.bulk_create(NightPlayer(night=night, player=player) for player in players)
    return night


def _locked(night: Night) -> Night:
    return Night.objects.select_for_update().get(pk=night.pk)


def _lock_tables(night: Night) -> None:
    """Lock the night's tables before the night itself: a write at a table locks its session
    first, then the night (`club.locks`), so a change to many tables takes them in that order
    too, or each would wait for the other."""
    list(GameSession.objects.select_for_update().filter(night=night).order_by("pk").values("pk"))


def history(night: Night, before: int) -> list[rules.Seating]:
    """The seating of each round before round `before`, as the seating rules read it: each
    table's players in seat order, read as names alone (a long night holds thousands of seats)."""
    tables: dict[int | None, dict[int | None, list[str]]] = {}  # round: table: names
    for number, table, name in (
        Seat.objects.filter(session__night=night, session__night_round__lt=before)
        .order_by("session__night_round", "session__night_table", "position")
        .values_list("session__night_round", "session__night_table", "player__name")
    ):
        tables.setdefault(number, {}).setdefault(table, []).append(name)
    byes: dict[int, list[str]] = {}
    for number, name in NightBye.objects.filter(night=night, round__lt=before).values_list(
        "round", "player__name"
    ):
        byes.setdefault(number, []).append(name)
    return [
        rules.Seating(
            tables=tuple(tuple(seated) for seated in tables.get(number, {}).values()),
            byes=tuple(byes.get(number, [])),
        )
        for number in range(1, before)
    ]


def round_over(night: Night) -> bool:
    """Whether every table of the round being played has finished or been closed."""
    if night.round == 0:
        return True
    return not GameSession.objects.filter(
        night=night, night_round=night.round, finished=False, abandoned__isnull=True
    ).exists()


def start_round(*, night: Night, standings: Sequence[str] = ()) -> Night:
    """Seat the next round: a session for each table, and the sit-outs. `standings` (best
    first) seat the tables the Swiss way from the night's `swiss_from` round on."""
    with transaction.atomic():
        locked = _locked(night)
        if locked.finished or locked.round >= locked.rounds:
            raise Rejected([_("Every round of this night has been played.")])
        if not round_over(locked):
            raise Rejected(
                [_("Round %(number)s is still being played.") % {"number": locked.round}]
            )
        number = locked.round + 1
        playing = [
            entry for entry in locked.players.select_related("player") if entry.plays(number)
        ]
        names = [entry.player.name for entry in playing]
        by_name = {entry.player.name: entry.player for entry in playing}
        seating = _seating(locked, number, names, standings)
        if not seating.tables:
            raise Rejected([_("Too few players are here to seat one table.")])
        make_room(locked.owner, SESSIONS, len(seating.tables))
        for table_number in range(1, len(seating.tables) + 1):
            NightTable.objects.get_or_create(night=locked, number=table_number)
        for table_number, seated in enumerate(seating.tables, start=1):
            create_session(
                owner=locked.owner,
                family=locked.family,
                ruleset=locked.ruleset,
                options=round_options(locked.options, locked.deals),
                players=[by_name[name] for name in seated],
                title=locked.name,  # the session says its round and table in the page's words
                saved_ruleset=locked.saved_ruleset,
                ruleset_name=locked.ruleset_name,
                table=NightPlace(locked, number, table_number),
            )
        NightBye.objects.bulk_create(
            NightBye(night=locked, round=number, player=by_name[name]) for name in seating.byes
        )
        locked.round = number
        locked.save(update_fields=["round"])
        club.night_changed(locked)
        return locked


def _seating(
    night: Night, number: int, names: list[str], standings: Sequence[str]
) -> rules.Seating:
    """The seating of round `number`: by the standings from `swiss_from` on; else the night's
    exact design while the same players play and the rounds so far are its own, else the search
    against the rounds before (`rules.next_round`, the players taken by name)."""
    before = history(night, number)
    if night.swiss_from is not None and number >= night.swiss_from and standings:
        ranked = [name for name in standings if name in names]
        ranked += [name for name in names if name not in ranked]
        return rules.seat_round(names, night.size, before, by_standings=ranked, seed=night.pk)
    return rules.next_round(sorted(names), night.size, before, seed=night.pk)


@transaction.atomic
def add_player(*, night: Night, player: Player | str) -> NightPlayer:
    """A late arrival, one of the owner's players or a new one named here: they play from the
    next round on (or come back, if they had left)."""
    locked = _locked(night)
    if locked.finished:
        raise Rejected([_("This night is over.")])
    if isinstance(player, str):
        (player,) = new_players(locked.owner_id, [player])
    entry, created = NightPlayer.objects.get_or_create(
        night=locked, player=player, defaults={"joined": locked.round + 1}
    )
    if not created:
        if entry.left is None:
            raise Rejected([_("%(name)s already plays tonight.") % {"name": player.name}])
        entry.joined, entry.left = locked.round + 1, None
        entry.save(update_fields=["joined", "left"])
    club.night_changed(locked)
    return entry


@transaction.atomic
def remove_player(*, night: Night, player: Player) -> None:
    """A player leaving: they play no round after the one being played (their rounds so far
    stay on the leaderboard)."""
    locked = _locked(night)
    entry = NightPlayer.objects.filter(night=locked, player=player, left__isnull=True).first()
    if entry is None:
        raise Rejected([_("%(name)s does not play tonight.") % {"name": player.name}])
    if entry.joined > locked.round:
        entry.delete()  # seated in no round yet
    else:
        entry.left = locked.round
        entry.save(update_fields=["left"])
    club.night_changed(locked)


def close_table(*, night: Night, session: GameSession, reason: str, who: Who) -> None:
    """End a table of the round where it stands (it counts as it stands), with the reason in
    its history."""
    if session.night_id != night.pk or session.night_round != night.round:
        raise Rejected([_("That table is not one of this round's.")])
    abandon_session(session=session, who=who, reason=reason)


@transaction.atomic
def finish_night(*, night: Night, reason: str = "", who: Who | None = None) -> Night:
    """The night is over: its leaderboard is final (the organiser can still correct a table).

    Once its last round has been played it ends as planned. Before that, it ends early with a
    `reason`: the tables still playing are closed where they stand with that reason in their
    history, and the rounds not played are never seated. Either way the scorer links of its
    tables open nothing from now on (the cards say the night is over)."""
    _lock_tables(night)
    locked = _locked(night)
    if locked.finished:
        raise Rejected([_("This night is over.")])
    if not (locked.round >= locked.rounds and round_over(locked)):
        if not reason:
            raise Rejected([_("Say why the night ends before its last round.")])
        playing = GameSession.objects.filter(
            night=locked, night_round=locked.round, finished=False, abandoned__isnull=True
        )
        for session in playing:
            abandon_session(session=session, who=who or Who(locked.owner), reason=reason)
    for session in GameSession.objects.select_for_update().filter(
        night=locked, scorer_token__isnull=False
    ):
        session.scorer_token = None
        live.bump(session, "scorer_token")
    locked.finished = True
    live.bump_night(locked, "finished")
    return locked


@transaction.atomic
def rename_night(*, night: Night, name: str) -> Night:
    """The night's new name: its tables carry it as their title too."""
    _lock_tables(night)
    locked = _locked(night)
    locked.name = name
    for session in GameSession.objects.select_for_update().filter(night=locked):
        session.title = name
        live.bump(session, "title")
    live.bump_night(locked, "name")
    return locked


@transaction.atomic
def delete_night(*, night: Night) -> None:
    """Delete the night for good, with every table of every round (their deals or rounds and
    history): it leaves its seasons' standings, and its games no longer count in ratings."""
    _lock_tables(night)
    locked = _locked(night)
    club.night_gone(locked)
    locked.delete()


def change_night_link(
    *, night: Night, action: str, table: NightTable | None = None
) -> Night | NightTable:
    """Turn the night's link (or `table`'s card link) on, replace it, or turn it off
    (`action`: "on", "replace", "off"); the old token opens nothing from now on."""
    with transaction.atomic():
        locked = _locked(night)
        token = None if action == "off" else new_link_token()
        if table is None:
            locked.watch_token = token
            live.bump_night(locked, "watch_token")
            return locked
        card = NightTable.objects.select_for_update().get(pk=table.pk, night=locked)
        card.scorer_token = token
        card.save(update_fields=["scorer_token"])
        return card
