"""The writes of the trick game: a deal entered, corrected or undone, a session extended."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from scorekeeper.families import TRICK
from scorekeeper.models import ChangeAction, GameSession
from scorekeeper.rules import trick
from scorekeeper.scoresheet import deal_data, read_deal
from scorekeeper.services.changes import (
    Conflict,
    Rejected,
    Saved,
    Who,
    accepted,
    changing,
    scored,
    settle,
)
from scorekeeper.services.stored import store_deal, store_hands


def add_deal(
    *,
    session: GameSession,
    number: int,
    entry: trick.DealEntry,
    who: Who,
) -> Saved:
    """Store deal `number`, which must be the next one; all or nothing."""
    with changing(session, who, deal_data(entry)) as locked:
        entries = TRICK.entries(locked)
        if number != len(entries) + 1:
            raise Conflict(
                _("Deal %(number)s was just entered on another phone.") % {"number": number}
            )
        rules, changed = TRICK.rules(locked), [*entries, entry]
        result = accepted(trick.evaluate(rules, changed))
        store_deal(locked, rules, number, entry)
        return settle(
            locked,
            who,
            action=ChangeAction.ADDED,
            number=number,
            result=result,
            entries=changed,
            after=deal_data(entry),
        )


def edit_deal(
    *,
    session: GameSession,
    number: int,
    revision: int,
    entry: trick.DealEntry,
    who: Who,
) -> Saved:
    """Correct a past deal; everything after it is worked out again. `Saved.before` is the
    result before the correction. Sent again with the same key, the same hands are already
    saved (AlreadyDone) and other hands are a new correction that is not saved (KeyReused)."""
    with changing(session, who, deal_data(entry)) as locked:
        deals = list(locked.deals.all())
        if number > len(deals):
            raise Conflict(
                _("Deal %(number)s was just undone on another phone.") % {"number": number}
            )
        deal = deals[number - 1]
        if deal.revision != revision:
            raise Conflict(
                _("Deal %(number)s was just corrected on another phone.") % {"number": number}
            )
        before = TRICK.result(locked)
        entries = TRICK.entries(locked)
        old = entries[number - 1]
        rules, changed = TRICK.rules(locked), [*entries[: number - 1], entry, *entries[number:]]
        result = accepted(trick.evaluate(rules, changed))
        deal.trump = trick.entered_trump(rules, entry) or ""
        deal.revision += 1
        deal.save(update_fields=["trump", "revision"])
        deal.hands.all().delete()
        store_hands(deal, entry, locked.seats_by_name())
        return settle(
            locked,
            who,
            action=ChangeAction.EDITED,
            number=number,
            result=result,
            entries=changed,
            before=deal_data(old),
            after=deal_data(entry),
            was=before,
        )


def delete_last_deal(
    *,
    session: GameSession,
    number: int,
    who: Who,
) -> Saved:
    """Undo the last deal (it must still be deal `number`); it stays in the history."""
    with changing(session, who) as locked:
        entries = TRICK.entries(locked)
        if number < 1 or number != len(entries):
            raise Conflict(
                _("Deal %(number)s is no longer the last deal: the session changed meanwhile.")
                % {"number": number}
            )
        changed = entries[:-1]
        result = scored(locked, changed)
        locked.deals.filter(number=number).delete()
        return settle(
            locked,
            who,
            action=ChangeAction.DELETED,
            number=number,
            result=result,
            entries=changed,
            before=deal_data(entries[-1]),
        )


def undone_deal(session: GameSession) -> tuple[int, trick.DealEntry] | None:
    """The deal the latest change undid, if it would be the next deal again: (number, deal)."""
    change = session.last_undo()
    if change is None or change.number != len(session.entries()) + 1:
        return None
    entry = read_deal(change.before)
    return None if entry is None else (change.number, entry)


def redo_deal(
    *,
    session: GameSession,
    number: int,
    who: Who,
) -> Saved:
    """Put back deal `number` as it was before the undo that took it out (the latest change);
    recorded in the history as entered again. (If another phone enters a deal meanwhile, the
    add refuses it as it refuses any stale deal.)"""
    undone = undone_deal(session)
    if undone is None or undone[0] != number:
        raise Conflict(
            _("Deal %(number)s can no longer be redone: the session changed meanwhile.")
            % {"number": number}
        )
    return add_deal(
        session=session,
        number=number,
        entry=undone[1],
        who=who,
    )


def may_extend(session: GameSession, user: User | None) -> bool:
    """Whether `user` may play more deals once the session is finished: anyone who scores it,
    but a club night's table plays the deals the night planned (its leaderboard and the next
    round count on it), and only the organiser changes that."""
    return session.night_id is None or (user is not None and user.pk == session.owner_id)


def extend_session(
    *,
    session: GameSession,
    deals: int,
    who: Who,
) -> Saved:
    """Play `deals` more deals in a finished session of a fixed number of deals."""
    with changing(session, who) as locked:
        if not may_extend(locked, who.by_user):
            planned = _(
                "A club night's table plays the deals the night planned: only its organiser "
                "can add more."
            )
            raise Rejected([planned])
        entries = TRICK.entries(locked)
        if not TRICK.result(locked).finished or trick.more_deals(TRICK.rules(locked)) != deals:
            raise Conflict(_("This session cannot be extended now."))

        old = dict(locked.options)
        new = {**old, "match": {"type": "deals", "deals": len(entries) + deals}}
        locked.change_options(
            trick.resolve_rules(locked.ruleset, new, locked.player_names()).overrides_data()
        )
        result = scored(locked, entries)
        return settle(
            locked,
            who,
            action=ChangeAction.EXTENDED,
            number=None,
            result=result,
            entries=entries,
            before=old,
            after=locked.options,
        )
