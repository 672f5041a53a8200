"""Writes that make or change a session as a whole: start one, import one, rename a player."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper import club, live
from scorekeeper.models import GameSession, Player, SavedRuleset, Seat, new_link_token
from scorekeeper.night_models import Night
from scorekeeper.rules import adding, trick
from scorekeeper.rules.bounds import name_key
from scorekeeper.rules.common import InvalidRules, Problem
from scorekeeper.rules.registry import family as rules_family
from scorekeeper.scoresheet import Sheet
from scorekeeper.services.changes import Rejected
from scorekeeper.services.limits import PLAYERS, SESSIONS, make_room
from scorekeeper.services.stored import STORE_ALL


@transaction.atomic
def create_session(
    *,
    owner: User,
    ruleset: str,
    options: dict[str, object],
    players: Sequence[Player],
    title: str = "",
    family: str = trick.ID,
    saved_ruleset: SavedRuleset | None = None,
    ruleset_name: str | None = None,
    first_dealer: int = 0,
    table: NightPlace | None = None,
) -> GameSession:
    """A new session; `players` in seat order, the seat `first_dealer` (0 is seat 1) deals
    first (raises InvalidRules, or AccountFull past the sessions an account keeps). It keeps
    its own copy of `options`,
    whichever saved ruleset it was started from, and of that ruleset's name (`ruleset_name`
    where it is not the saved ruleset's name now: a rematch keeps the one it began with).
    A club night's `table` is seated by the night, which works its leaderboard out once for
    all the tables of a round."""
    make_room(owner, SESSIONS)
    names = [player.name for player in players]
    game = rules_family(family)
    rules = game.resolve_rules(ruleset, options, names, first_dealer)
    where = {}
    if table is not None:
        where = {
            "night": table.night,
            "night_round": table.round,
            "night_table": table.number,
            "played_on": table.night.played_on,
            "scorer_token": new_link_token(),
        }
    session = GameSession.objects.create(
        owner=owner,
        family=family,
        ruleset=ruleset,
        options=dict(options),
        title=title,
        saved_ruleset=saved_ruleset,
        ruleset_name=(saved_ruleset.name if saved_ruleset else "")
        if ruleset_name is None
        else ruleset_name,
        first_dealer=first_dealer,
        **where,
    )
    Seat.objects.bulk_create(
        Seat(session=session, position=position, player=player)
        for position, player in enumerate(players)
    )
    seated = GameSession.objects.with_seats().get(pk=session.pk)
    club.session_changed(seated, game.score_session(rules, []), 0, night=table is None)
    return session


@dataclass(frozen=True)
class NightPlace:
    """Where a club night seats a new session: its night, round and table."""

    night: Night
    round: int
    number: int


# A new session of the adding game: create_session with its family.
create_adding_session = partial(create_session, family=adding.ID)


@transaction.atomic
def import_scoresheet(*, owner: User, sheet: Sheet) -> GameSession:
    """Store a parsed (so already valid) scoresheet as a new session of `owner`.

    Players are matched to the owner's roster by name as people read it (bounds.name_key);
    missing ones are added to the roster. AccountFull if the account has no room for the
    session or for the players it adds.
    """
    make_room(owner, SESSIONS)
    roster = {player.name_key: player for player in Player.objects.for_user(owner)}
    new = sum(name_key(name) not in roster for name in sheet.players)
    if new:
        adds = ngettext(
            "This file adds %(count)s player to your roster, which has no room for them.",
            "This file adds %(count)s players to your roster, which has no room for them.",
            new,
        )
        make_room(owner, PLAYERS, new, why=adds % {"count": new})
    session = GameSession.objects.create(
        owner=owner,
        family=sheet.family,
        ruleset=sheet.ruleset,
        options=dict(sheet.options),
        title=sheet.title or "",
        played_on=sheet.played_on,
    )
    seats = {}
    for position, name in enumerate(sheet.players):
        player = roster.get(name_key(name))
        if player is None:
            player = Player.objects.create(owner=owner, name=name)
        seats[name] = Seat.objects.create(session=session, position=position, player=player)
    entries = list(sheet.entries)
    STORE_ALL[sheet.family](session, sheet.rules, entries, seats)
    session = GameSession.objects.select_for_update().with_seats().get(pk=session.pk)
    result = session.rules_family.score_session(sheet.rules, entries)
    session.finished = result.finished
    live.bump(session, "finished")
    live.keep_result(session, result, len(entries))
    club.session_changed(session, result, len(entries))
    return session


def _rules_problems(session: GameSession) -> list[Problem]:
    """What the rules refuse in the session as stored, with its players' names now."""
    try:
        session.rules_family.resolve_rules(
            session.ruleset, session.options, session.player_names(), session.first_dealer
        )
    except InvalidRules as error:
        return error.problems
    return []


@transaction.atomic
def rename_player(player: Player, name: str) -> None:
    """Give a player a new name; every session seating them shows it (their versions go up,
    so that live pages and kept results follow). IntegrityError if the owner has a player of
    that name already; Rejected, with nothing changed, if a session seating them cannot take
    it (the dummy's name, in the game with a dummy). Only what the new name brings is
    refused: a session whose stored rules were refused already (a value stored before the
    bounds existed) does not stop its players being renamed."""
    with transaction.atomic():
        seated = GameSession.objects.filter(seats__player=player)
        before = {session.pk: _rules_problems(session) for session in seated.with_seats()}
        player.name = name
        player.save(update_fields=["name"])
        problems = [
            _("%(session)s: %(problem)s") % {"session": session, "problem": problem.message}
            for session in seated.with_seats().distinct()
            for problem in _rules_problems(session)
            if problem not in before[session.pk]
        ]
        if problems:
            raise Rejected(problems)
        for session in GameSession.objects.select_for_update().filter(pk__in=seated.values("pk")):
            live.bump(session)
