"""The writes of the adding game: a tap recorded or taken back, a round corrected."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.families import ADDING
from scorekeeper.models import Change, ChangeAction, GameSession, Round
from scorekeeper.rules import adding
from scorekeeper.scoresheet import event_data, read_change, round_data
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
from scorekeeper.services.stored import store_events

TABLE_CHANGED = gettext_lazy(
    "The table changed on another phone just now; here it is as it is now."
)


def record_event(
    *,
    session: GameSession,
    state: str,
    event: adding.Event,
    who: Who,
    after: str = "",
) -> Saved:
    """Record one tap where the table would put it; `state` is the table_state it was made on,
    or `after` the key of the tap this phone made just before it (see `_made_on`)."""
    with changing(session, who, event_data(event)) as locked:
        rounds = ADDING.entries(locked)
        if not _made_on(locked, rounds, state, after):
            raise Conflict(str(TABLE_CHANGED))
        placed, evaluation = adding.record(ADDING.rules(locked), rounds, event)
        changed = list(placed)
        result = accepted(evaluation)
        number = len(changed)
        if number > len(rounds):
            game_round = Round.objects.create(session=locked, number=number)
        else:
            game_round = locked.rounds.get(number=number)
        last = changed[-1]
        store_events(game_round, last, locked.seats_by_name(), len(last.events) - 1)
        return settle(
            locked,
            who,
            action=ChangeAction.ADDED,
            number=number,
            result=result,
            entries=changed,
            after=event_data(event),
        )


def undo_event(
    *,
    session: GameSession,
    state: str,
    who: Who,
    after: str = "",
) -> Saved:
    """Take back the last event of the session (it stays in the history).

    The undo button shares its page's key with the taps: sent again with a key that made an
    undo, it is AlreadyDone; with a key that recorded a tap, it is not that tap (KeyReused)."""
    with changing(session, who, same=_an_undo) as locked:
        rounds = ADDING.entries(locked)
        if not _made_on(locked, rounds, state, after) or not rounds:
            raise Conflict(str(TABLE_CHANGED))
        last = rounds[-1]
        shorter = adding.RoundEntry(last.events[:-1])
        changed = [*rounds[:-1], shorter] if len(last.events) > 1 else rounds[:-1]
        result = scored(locked, changed)
        game_round = locked.rounds.get(number=len(rounds))
        if len(last.events) > 1:
            game_round.events.filter(position=len(last.events) - 1).delete()
        else:
            game_round.delete()
        return settle(
            locked,
            who,
            action=ChangeAction.DELETED,
            number=len(rounds),
            result=result,
            entries=changed,
            before=event_data(last.events[-1]),
        )


def _made_on(session: GameSession, rounds: list[adding.RoundEntry], state: str, after: str) -> bool:
    """Whether a tap was made on the table as it is now: on its `state`, or right after the
    change whose key is `after`. A phone that taps while its answers cannot come back (the
    Wi-Fi down) sends its taps later, in order, each after the one before: the table then
    moved on by its own taps only, and by nobody else's, exactly when the latest change is
    the one before it."""
    if state == adding.table_state(rounds):
        return True
    latest = Change.objects.filter(session=session).order_by("-pk").values_list("form_key")
    return bool(after) and latest.first() == (after,)


def _an_undo(earlier: Change) -> bool:
    """Whether the change a key made is an undo (an undo sent again asks for the same)."""
    return earlier.action == ChangeAction.DELETED


def edit_round(
    *,
    session: GameSession,
    number: int,
    revision: int,
    remove: int | None = None,
    add: adding.Event | None = None,
    at: int | None = None,
    who: Who,
) -> Saved:
    """Correct a round as its page asks: take out its event at `remove` (0-based, as the page
    listed them), then put `add` in at position `at` (at its end when None). Both at once
    change an event (its player, its kind) in one step, so that the round is never checked
    without it. Everything after the round is worked out again by the rules, which refuse a
    round (or a later one) that the change leaves invalid, saying why.
    `Saved.before` is the result before the correction.

    Sent again with the same key, the page's request is applied to the round the page showed
    (the `before` of the change the key made): the same round as that change made is
    AlreadyDone, another one is a new correction that is not saved (KeyReused)."""

    def same(earlier: Change) -> bool:
        if earlier.action != ChangeAction.EDITED or earlier.number != number:
            return False
        shown = read_change(earlier.before)
        return (
            shown is not None
            and round_data(adding.RoundEntry(_corrected(shown, remove, add, at))) == earlier.after
        )

    with changing(session, who, same=same) as locked:
        stored = list(locked.rounds.all())
        if not 1 <= number <= len(stored):
            raise Conflict(
                _("Round %(number)s was just undone on another phone.") % {"number": number}
            )
        game_round = stored[number - 1]
        if game_round.revision != revision:
            raise Conflict(
                _("Round %(number)s was just corrected on another phone.") % {"number": number}
            )
        rounds = ADDING.entries(locked)
        old = rounds[number - 1]
        if remove is not None and not 0 <= remove < len(old.events):
            missing = _("Round %(number)s has no event %(position)s.")
            raise Rejected([missing % {"number": number, "position": remove + 1}])
        events = _corrected(old.events, remove, add, at)
        if not events:
            if number == len(stored):
                empty = _("Round %(number)s: a round needs at least one event; undo it instead.")
            else:
                empty = _(
                    "Round %(number)s needs at least one event: change this one instead of "
                    "removing it."
                )
            raise Rejected([empty % {"number": number}])

        before = ADDING.result(locked)
        changed = [*rounds[: number - 1], adding.RoundEntry(events), *rounds[number:]]
        result = scored(locked, changed)
        game_round.revision += 1
        game_round.save(update_fields=["revision"])
        game_round.events.all().delete()
        store_events(game_round, changed[number - 1], locked.seats_by_name())
        return settle(
            locked,
            who,
            action=ChangeAction.EDITED,
            number=number,
            result=result,
            entries=changed,
            before=round_data(old),
            after=round_data(changed[number - 1]),
            was=before,
        )


def _corrected(
    events: tuple[adding.Event, ...],
    remove: int | None,
    add: adding.Event | None,
    at: int | None = None,
) -> tuple[adding.Event, ...]:
    """A round's events with the event at `remove` taken out, then `add` put in at position
    `at` of what is left (at the end when None)."""
    kept = [event for position, event in enumerate(events) if position != remove]
    if add is not None:
        kept.insert(len(kept) if at is None else max(0, min(at, len(kept))), add)
    return tuple(kept)
