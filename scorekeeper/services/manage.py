"""Writes that change a session as a whole: its name, a player's name, the seats, a player
replaced, abandoning and resuming it, deleting and restoring it, and starting a rematch.

Each follows the skeleton of `changes`: one transaction that locks the session and refuses a
form already applied, the change itself, then `settle()`, which records it in the session's
history and raises its version, so that open pages refresh and the result kept by version
(`computed`) is the one for the new names. A change of names or seats scores the entries again
with one pass of the rules; the others keep the result as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper import live
from scorekeeper.models import (
    ChangeAction,
    FormerSeat,
    GameSession,
    Player,
    Seat,
    UnreadableRules,
    new_link_token,
)
from scorekeeper.reads import locked_session
from scorekeeper.rules.common import InvalidRules, dealer_moved_on
from scorekeeper.services.changes import (
    AlreadyDone,
    Conflict,
    Rejected,
    Saved,
    Who,
    changing,
    replayed,
    scored,
    settle,
)
from scorekeeper.services.roster import new_players
from scorekeeper.services.sessions import create_session, rename_player


def rename_session(
    *,
    session: GameSession,
    title: str,
    who: Who,
) -> Saved:
    """Give the session a new name ("" for none: it is then called by its rules and day)."""
    after = {"title": title}
    with changing(session, who, after) as locked:
        before = {"title": locked.title}
        if locked.title == title:
            if title:
                already = _("The session is already called “%(title)s”.") % {"title": title}
            else:
                already = _("It has no name.")
            raise Rejected([already])
        locked.title = title
        locked.save(update_fields=["title"])
        return _settled(locked, who, ChangeAction.TITLED, before=before, after=after)


def rename_seated_player(
    *,
    session: GameSession,
    position: int,
    name: str,
    who: Who,
) -> Saved:
    """Correct the name of the player in seat `position` (0-based). It is the player's name on
    the owner's roster, so every session seating them shows it (services.rename_player)."""
    with changing(session, who, {"seat": position + 1, "player": name}) as locked:
        player = _seat(locked, position).player
        old = player.name
        if old == name:
            called = _("Seat %(number)s is already called %(player)s.")
            raise Rejected([called % {"number": position + 1, "player": name}])
        try:
            rename_player(player, name)
        except IntegrityError:
            clash = _("You already have a player called %(player)s.") % {"player": name}
            raise Rejected([clash]) from None
        locked = _reloaded(locked)
        entries = locked.entries()
        return settle(
            locked,
            who,
            action=ChangeAction.NAMED,
            number=None,
            result=_rescored(locked, entries),
            entries=entries,
            before={"seat": position + 1, "player": old},
            after={"seat": position + 1, "player": name},
        )


def reorder_seats(
    *,
    session: GameSession,
    players: Sequence[Player],
    who: Who,
) -> Saved:
    """Seat the same players in a new order (the first deals first). Only before the first
    deal or round is entered: afterwards the seats are what the entries were made for."""
    after = {"seats": [player.name for player in players]}
    with changing(session, who, after) as locked:
        if locked.entries():
            raise Rejected([str(_SEATS_FIXED[locked.unit])])
        seats = list(locked.seats.all())
        if sorted(player.pk for player in players) != sorted(seat.player_id for seat in seats):
            raise Conflict(_("The players at this table changed on another phone meanwhile."))
        before = {"seats": locked.player_names()}
        if before == after:
            raise Rejected([_("That is the order they sit in already.")])
        # No entries refer to the seats yet: seat everyone anew.
        Seat.objects.filter(session=locked).delete()
        Seat.objects.bulk_create(
            Seat(session=locked, position=position, player=player)
            for position, player in enumerate(players)
        )
        locked = _reloaded(locked)
        return settle(
            locked,
            who,
            action=ChangeAction.SEATED,
            number=None,
            result=_rescored(locked, []),
            entries=[],
            before=before,
            after=after,
        )


def replace_player(
    *,
    session: GameSession,
    position: int,
    newcomer: Player | str,
    played: int,
    statement: str,
    who: Who,
) -> Saved:
    """Someone takes the seat of a player who leaves: an existing player of the owner's
    roster, or a new one by name (added to the roster).

    The seat keeps its score and its deals or rounds: the newcomer goes on from there. Who
    left is kept (`FormerSeat`: they played the seat up to now), so that each player's record
    counts the deals they played. `played` is the number of deals or rounds the person
    confirmed the replacement after, and `statement` what they were told it means; if the
    session moved on meanwhile, that statement is out of date and nothing changes (Conflict).
    """
    name = newcomer if isinstance(newcomer, str) else newcomer.name
    after = {"seat": position + 1, "player": name, "after": played, "statement": statement}
    with changing(session, who, after) as locked:
        seat = _seat(locked, position)
        if len(locked.entries()) != played:
            raise Conflict(str(_MOVED_ON[locked.unit]))
        player = _newcomer(locked, newcomer)
        for other in locked.seats.all():
            if other.player_id == player.pk:
                seated = _("%(player)s already sits at this table (seat %(number)s).") % {
                    "player": player.name,
                    "number": other.position + 1,
                }
                raise Rejected([seated])
        left = seat.player
        since = max((former.until for former in seat.former.all()), default=0)
        if played > since:  # they played some of the seat's deals or rounds
            FormerSeat.objects.create(seat=seat, player=left, until=played)
        seat.player = player
        seat.save(update_fields=["player"])
        locked = _reloaded(locked)
        entries = locked.entries()
        return settle(
            locked,
            who,
            action=ChangeAction.REPLACED,
            number=played or None,
            result=_rescored(locked, entries),
            entries=entries,
            before={"seat": position + 1, "player": left.name},
            after=after,
        )


def abandon_session(*, session: GameSession, who: Who, reason: str = "") -> Saved:
    """The session ends where it stands, marked abandoned (it can be resumed); `reason`, if
    given, stays in its history."""
    with changing(session, who) as locked:
        if locked.finished:
            raise Rejected([_("This session is finished: there is nothing to abandon.")])
        already = _("The session was already abandoned.")
        after: dict[str, object] = {"played": len(locked.entries())}
        if reason:
            after["reason"] = reason
        return _mark(locked, who, "abandoned", ChangeAction.ABANDONED, already, after=after)


def resume_session(*, session: GameSession, who: Who) -> Saved:
    """An abandoned session is played on."""
    with changing(session, who) as locked:
        already = _("The session is not abandoned: it can be played on.")
        return _mark(locked, who, "abandoned", ChangeAction.RESUMED, already, on=False)


def delete_session(*, session: GameSession, who: Who) -> Saved:
    """Delete the session: it leaves every list, link and record, but is kept (with its
    history) under the owner's deleted sessions, to restore or to delete for good."""
    with changing(session, who) as locked:
        already = _("The session was already deleted.")
        return _mark(locked, who, "deleted", ChangeAction.REMOVED, already)


def restore_session(*, session: GameSession, who: Who) -> Saved:
    """Bring a deleted session back, as it was."""
    with changing(session, who) as locked:
        already = _("The session was already restored.")
        return _mark(locked, who, "deleted", ChangeAction.RESTORED, already, on=False)


LINK_COLUMNS = {"watch": "watch_token", "scorer": "scorer_token"}


@transaction.atomic
def change_link(*, session: GameSession, kind: str, action: str) -> GameSession:
    """Turn a session's watch or scorer link (`kind`) on, replace it, or turn it off
    (`action`: "on", "replace", "off"). A new token opens the session; the old one opens
    nothing from now on, and its open streams end (the version goes up)."""
    locked = locked_session(session)
    column = LINK_COLUMNS[kind]
    setattr(locked, column, None if action == "off" else new_link_token())
    live.bump(locked, column)
    return locked


@transaction.atomic
def delete_for_good(*, session: GameSession) -> None:
    """Delete a deleted session for good, with its entries and history (its players stay on
    the roster)."""
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    if not locked.deleted:
        raise Conflict(_("Only a deleted session can be deleted for good."))
    locked.delete()


def rematch(*, session: GameSession, who: Who) -> GameSession:
    """A new session of a finished (or abandoned) one: the same players in the same seats,
    the first deal moved on by one seat so that the next player deals first; the same rules
    and options, and the same name. Recorded in the old session's history; sent again with the
    same form key, it answers the rematch already made."""
    try:
        with changing(session, who) as locked:
            if not (locked.finished or locked.abandoned):
                still = _("This session is still being played: a rematch can start once it ends.")
                raise Rejected([still])
            players = [seat.player for seat in locked.seats.all()]
            dealer = dealer_moved_on(locked.first_dealer, len(players))
            try:
                new = create_session(
                    owner=locked.owner,
                    ruleset=locked.ruleset,
                    options=dict(locked.options),
                    players=players,
                    first_dealer=dealer,
                    title=locked.title,
                    family=locked.family,
                    saved_ruleset=locked.saved_ruleset,
                    ruleset_name=locked.ruleset_name,
                )
            except InvalidRules as error:
                raise Rejected([problem.message for problem in error.problems]) from None
            new.rematch_of = locked
            new.save(update_fields=["rematch_of"])
            after = {
                "session": new.public_id,
                "seats": [player.name for player in players],
                "dealer": players[dealer].name,
            }
            _settled(locked, who, ChangeAction.REMATCH, after=after)
            return new
    except AlreadyDone:
        # The same tap again (a double tap, a resent form): the rematch it made.
        done = replayed(session, who.form_key)
        made = done.after if done is not None and isinstance(done.after, dict) else {}
        found = GameSession.objects.for_user(session.owner_id).filter(public_id=made.get("session"))
        if not made or not found.exists():
            raise
        return found.get()


# Helpers


def _settled(
    locked: GameSession,
    who: Who,
    action: str,
    *,
    before: object = None,
    after: object = None,
) -> Saved:
    """End a change that leaves the entries and names as they were: the result stays. A
    session whose stored rules are refused (a value stored before the bounds existed) has no
    result to keep, and needs none: it can still be deleted, restored or renamed."""
    try:
        result = live.result(locked)
    except UnreadableRules:
        result = None
    return settle(
        locked,
        who,
        action=action,
        number=None,
        result=result,
        entries=locked.entries(),
        before=before,
        after=after,
    )


def _mark(
    locked: GameSession,
    who: Who,
    field: str,
    action: str,
    already: str,
    *,
    on: bool = True,
    after: object = None,
) -> Saved:
    """Set the session's `field` ("abandoned", "deleted") to now, or clear it (`on=False`),
    recorded as `action`; AlreadyDone(`already`) if it is so already."""
    if (getattr(locked, field) is not None) == on:
        raise AlreadyDone(already)
    setattr(locked, field, timezone.now() if on else None)
    locked.save(update_fields=[field])
    return _settled(locked, who, action, after=after)


def _rescored(locked: GameSession, entries: list[Any]) -> Any:
    """The result under the session's new names or seats; Rejected if its rules refuse them
    (a name the game reserves, such as the dummy's)."""
    try:
        return scored(locked, entries)
    except InvalidRules as error:
        raise Rejected([problem.message for problem in error.problems]) from None


# What a family's unit ("deal", "round": `GameSession.unit`) makes of a change of seats, in
# whole sentences for each.
_SEATS_FIXED = {
    "deal": gettext_lazy("The seats can change only before the first deal is entered."),
    "round": gettext_lazy("The seats can change only before the first round is entered."),
}
_MOVED_ON = {
    "deal": gettext_lazy(
        "The session changed on another phone meanwhile (deals were entered or undone); "
        "check what the change means now."
    ),
    "round": gettext_lazy(
        "The session changed on another phone meanwhile (rounds were entered or undone); "
        "check what the change means now."
    ),
}


def _seat(locked: GameSession, position: int) -> Seat:

    for seat in locked.seats.all():
        if seat.position == position:
            return seat
    raise Conflict(_("There is no seat %(number)s at this table.") % {"number": position + 1})


def _reloaded(locked: GameSession) -> GameSession:
    """The session read again with its seats (still locked: same transaction), to score it
    under its new names or seats."""
    return GameSession.objects.with_seats().get(pk=locked.pk)


def _newcomer(locked: GameSession, newcomer: Player | str) -> Player:
    """The player taking a seat: one of the owner's, or a new one added to the roster."""
    if not isinstance(newcomer, str):
        if newcomer.owner_id != locked.owner_id:
            raise Rejected([_("Choose a player from your roster.")])
        return newcomer
    (player,) = new_players(locked.owner_id, [newcomer])
    return player
