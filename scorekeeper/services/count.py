"""The count assistant's writes (the adding game): a card counted or taken back, a proposed
event recorded or dismissed. The rules are `rules.adding.count`; this keeps their count with
the session (`GameSession.counter`) so every phone at the table shares one.

Every write locks the session and is refused when the session's version is not the one the
phone showed (`version`): two phones tapping the same card at once count it once, the second
hearing that the count changed and seeing it as it is now. Each raises the version, so the
live pages of every phone (and the table display) show the new total. A proposal is recorded
by `record_event`, exactly as the event button records it (same history, same idempotency
key, same check of the table's state); a dismissed one records nothing.

What is stored: {"count": Count.to_data() or None, "proposals": [Proposal.to_data()],
"refused": the last card's refusal or None}. The proposals are the last card's: the next card
or an undo replaces them. Events recorded by hand move the count on when it is read
(`follow_count`): players gone, or the next round's count at 0 with the next dealer.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper import live
from scorekeeper.families import ADDING
from scorekeeper.models import GameSession
from scorekeeper.reads import locked_session
from scorekeeper.rules import adding
from scorekeeper.services.changes import AlreadyDone, Conflict, Rejected, Saved, Who, replayed
from scorekeeper.services.rounds import record_event

COUNT_CHANGED = gettext_lazy(
    "The count changed on another phone just now; here it is as it is now."
)


def pile(session: GameSession) -> adding.Pile:
    """The session's count, brought up to date with what the table recorded since."""
    return adding.read_pile(session.counter, ADDING.rules(session), ADDING.result(session))


def play_card(
    *, session: GameSession, version: int, card: str, choice: int | str | None = None
) -> tuple[GameSession, adding.Played]:
    """Count one card (with the one more input it may need) played by whose turn it is."""
    with transaction.atomic():
        locked, count = _counting(session, version)
        try:
            played = adding.play_card(ADDING.rules(locked), count, card, choice)
        except adding.InvalidPlay as invalid:
            raise Rejected([invalid.message]) from None
        return _store(locked, adding.Pile(played.count, played.proposals, played.refused)), played


def undo_card(*, session: GameSession, version: int) -> GameSession:
    """Take back the last card counted (and what it proposed; nothing recorded changes)."""
    with transaction.atomic():
        locked, count = _counting(session, version)
        try:
            back = adding.undo_card(count)
        except adding.InvalidPlay as invalid:
            raise Rejected([invalid.message]) from None
        return _store(locked, adding.Pile(back))


def dismiss(*, session: GameSession, version: int, index: int) -> GameSession:
    """Drop proposal `index` (counted from 0, as the page lists them): nothing is recorded."""
    with transaction.atomic():
        locked = _locked(session, version)
        now = pile(locked)
        if not 0 <= index < len(now.proposals):
            raise Conflict(str(COUNT_CHANGED))
        rest = now.proposals[:index] + now.proposals[index + 1 :]
        return _store(locked, adding.Pile(now.count, rest, now.refused))


def confirm(
    *,
    session: GameSession,
    version: int,
    state: str,
    index: int,
    who: Who,
) -> tuple[adding.Proposal, Saved]:
    """Record proposal `index` as the event button records it (`record_event`: the same
    history, the same idempotency key and the same check of the table's `state`), then keep
    the count in step: the proposal goes, the rest stay while the table can still record
    them, and an event that ended the round starts the next round's count at 0."""
    with transaction.atomic():
        if replayed(session, who.form_key) is not None:
            raise AlreadyDone(_("That was already saved."))

        locked = _locked(session, version)
        now = pile(locked)
        if not 0 <= index < len(now.proposals):
            raise Conflict(str(COUNT_CHANGED))
        proposal = now.proposals[index]
        saved = record_event(
            session=locked,
            state=state,
            event=proposal.event,
            who=who,
        )
        after = saved.session
        rules, result = ADDING.rules(after), saved.result
        rest = adding.open_proposals(result, now.proposals[:index] + now.proposals[index + 1 :])
        count = adding.follow_count(rules, now.count, result) if now.count else None
        if count is not None and now.count is not None and count.round != now.count.round:
            rest = ()
        after.counter = adding.Pile(count, rest).to_data()
        after.save(update_fields=["counter"])
        return proposal, saved


def _locked(session: GameSession, version: int) -> GameSession:
    locked = locked_session(session)
    if locked.version != version:
        raise Conflict(str(COUNT_CHANGED))
    return locked


def _counting(session: GameSession, version: int) -> tuple[GameSession, adding.Count]:
    """The locked session and the round's count; Rejected once the game is over."""
    locked = _locked(session, version)
    count = pile(locked).count
    if count is None:
        raise Rejected([_("The game is over: there is no round left to count.")])
    return locked, count


def _store(locked: GameSession, now: adding.Pile) -> GameSession:
    """Keep the count and raise the version; the result stays the one of the entries, kept for
    the new version too."""
    result, played = ADDING.result(locked), len(locked.entries())
    locked.counter = now.to_data()
    live.bump(locked, "counter")
    live.keep_result(locked, result, played)
    return locked
