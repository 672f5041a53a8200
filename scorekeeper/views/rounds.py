"""The adding game's screens at the table: tapping what happens, and correcting a round.

Reached through `views.table` for a session of this family. Every tap is stored at once by
the service, which checks and scores it in one pass of the rules; with htmx the table comes
back in place, drawn from the result that write computed.
"""

from __future__ import annotations

from contextlib import suppress

from django.contrib import messages
from django.contrib.messages.storage.base import Message
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from scorekeeper.families import ADDING
from scorekeeper.forms.rounds import AdjustForm, RoundEventForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Change, ChangeAction, GameSession, Round, new_link_token
from scorekeeper.presenters import adding as presenter
from scorekeeper.rules import adding
from scorekeeper.scoresheet import read_change
from scorekeeper.services import (
    AlreadyDone,
    Conflict,
    KeyReused,
    Rejected,
    edit_round,
    record_event,
    undo_event,
)
from scorekeeper.services import count as counting
from scorekeeper.views.access import Table, form_key, whole
from scorekeeper.views.live import COUNTER_SHOWN, live_context

SCRIPTS = ("js/live.js", "js/tap-table.js", "js/haptics.js", "js/outbox.js")
UNDO = "undo"  # where "Undo the last tap" sits: its answer is said there
COUNTER = "counter"  # the count assistant's panel: its answers are said there
ADJUST = "adjust"  # the correction agreed at the table: its answers are said by its fields
COUNTER_FIELDS = ("card", "count_undo", "confirm", "dismiss", "counter")


def page(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """The table: every tap is stored at once, with its effect said beside the row tapped."""
    session = table.session
    if request.method == "GET":
        return _render(request, table)
    if any(field in request.POST for field in COUNTER_FIELDS):
        return _count(request, table)
    state = request.POST.get("state", "")
    after = form_key(request, "after")
    who = table.who(request)
    now = session
    place = ""  # where the page says what happened: by a row, by the undo button, or on top
    try:
        if "undo_tap" in request.POST:
            place = UNDO
            try:
                now = undo_event(session=session, state=state, who=who, after=after).session
            except KeyReused as reused:
                messages.error(request, _undo_again_message(session, reused.change), place)
            else:
                messages.success(request, _("Last tap undone. It is kept in the history."), place)
        elif "tap" in request.POST:
            seat, event = _tapped(session, request.POST["tap"])
            place = presenter.seat_anchor(seat)
            try:
                saved = record_event(
                    session=session, state=state, event=event, who=who, after=after
                )
            except KeyReused as reused:
                messages.error(request, _tap_again_message(session, reused.change, event), place)
            else:
                now = saved.session
                messages.success(request, presenter.outcome(saved.result), place)
        else:
            place = ADJUST
            names = session.player_names()
            adjust_form = AdjustForm(request.POST, players=names)
            if not adjust_form.is_valid():
                return _render(request, table, adjust_form)
            event = adding.Event(
                player=names[int(adjust_form.cleaned_data["player"])],
                event="adjust",
                tokens=adjust_form.cleaned_data["tokens"],
            )
            saved = record_event(session=session, state=state, event=event, who=who, after=after)
            now = saved.session
            messages.success(request, presenter.outcome(saved.result), place)
    except AlreadyDone as done:
        messages.info(request, str(done), place)
    except (Conflict, Rejected) as error:
        messages.error(request, str(error), place)
    if request.htmx:
        # Show the table as it is now in place: tokens, buttons and the message, no reload.
        if now is session:
            now = GameSession.objects.with_seats().get(pk=session.pk)
        return _render(request, table.now(now))
    # Without JavaScript: back to the row tapped (or the undo button), not to the page's top.
    return redirect(f"{table.base}#{place}" if place else table.base)


def _render(
    request: HtmxHttpRequest,
    table: Table,
    adjust_form: AdjustForm | None = None,
    ask: str | None = None,
) -> HttpResponse:
    session = table.session
    said, rest = _placed_messages(request)
    shown = counter_shown(request, session)
    asked = request.GET.get("ask", "") if ask is None else ask
    ctx = {
        "counter_shown": shown,
        **(_counter(session, asked) if shown else {}),
        "said": said,
        "messages": rest,
        "form_key": new_link_token(),
        "adjust_form": adjust_form or AdjustForm(players=session.player_names()),
        # Open while it has something to say: what was wrong, or what it did.
        "adjust_open": adjust_form is not None or any(m.extra_tags == ADJUST for m in said),
        "scripts": SCRIPTS,
        "table_template": "adding/table.html",
        **live_context(table),
        **presenter.table_context(ADDING.result(session)),
    }
    if request.htmx and request.htmx.target == "table":
        return render(request, "adding/table.html#table", ctx)
    return render(request, "scorekeeper/table.html", ctx)


def _placed_messages(request: HtmxHttpRequest) -> tuple[list[Message], list[Message]]:
    """The messages said by a row or by the undo button (their place is their extra tag),
    and the others, said at the top of the page as on every page."""
    said: list[Message] = []
    rest: list[Message] = []
    for message in messages.get_messages(request):
        place = message.extra_tags or ""
        placed = place in (UNDO, COUNTER, ADJUST) or place.startswith("seat-")
        (said if placed else rest).append(message)
    return said, rest


def _tap_again_message(session: GameSession, change: Change, event: adding.Event) -> str:
    rules = ADDING.rules(session)
    earlier = _earlier_tap(change)
    return _(
        "That page's tap was already recorded (%(earlier_player)s: %(earlier_event)s). "
        "%(player)s: %(event)s was not recorded: tap it again to record it."
    ) % {
        "earlier_player": earlier.player,
        "earlier_event": presenter.event_label(rules, earlier),
        "player": event.player,
        "event": presenter.event_label(rules, event),
    }


def _undo_again_message(session: GameSession, change: Change) -> str:
    earlier = _earlier_tap(change)
    return _(
        "That page's tap was already recorded (%(earlier_player)s: %(earlier_event)s). "
        "The undo was not done: the table is below as it is now; undo again if a tap "
        "should go."
    ) % {
        "earlier_player": earlier.player,
        "earlier_event": presenter.event_label(ADDING.rules(session), earlier),
    }


def _earlier_tap(change: Change) -> adding.Event:
    """The event that a page's key already recorded (the change's `after`)."""
    stored = change.after if isinstance(change.after, dict) else {}
    return adding.Event(
        player=str(stored.get("player")),
        event=str(stored.get("event")),
        target=stored.get("target"),
        tokens=stored.get("tokens"),
    )


def _tapped(session: GameSession, value: str) -> tuple[int, adding.Event]:
    """The seat and event of a tap button's value; Rejected if it is none of this table's
    buttons (the answer is then said at the top of the page)."""
    found = presenter.read_tap(value, session.player_names())
    if found is None:
        raise Rejected([_("That button is not one of this table's.")])
    return found


# The count assistant: tap the card played, see the total, confirm the event it proposes


def counter_shown(request: HtmxHttpRequest, session: GameSession) -> bool:
    """Whether this browser shows the counter on this session's table (its own choice)."""
    return session.public_id in request.session.get(COUNTER_SHOWN, [])


def _counter(session: GameSession, ask: str) -> dict[str, object]:
    """The panel's context: the count (from 0 when the table has not used it yet)."""
    found = presenter.counter_context(session, ADDING.result(session), ask)
    if not found:
        now = counting.pile(session)
        found = {"counter": presenter.counter(ADDING.rules(session), now.count, ask=ask)}
    return {**found, "counter_form_key": new_link_token()}


def _count(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """A tap on the counter's panel: show or hide it, count a card (or ask for its choice),
    take the last card back, record or dismiss a proposed event."""
    session = table.session
    post = request.POST
    now = session
    ask = ""
    try:
        version = int(post.get("version", ""))
    except ValueError:
        version = -1
    try:
        if "counter" in post:
            _show_counter(request, session, post["counter"] == "show")
        elif "count_undo" in post:
            now = counting.undo_card(session=session, version=version)
            messages.success(request, _("Last card taken back."), COUNTER)
        elif "confirm" in post:
            proposal, saved = counting.confirm(
                session=session,
                version=version,
                state=post.get("state", ""),
                index=_index(post["confirm"]),
                who=table.who(request),
            )
            now = saved.session
            recorded = _("Recorded: %(event)s %(outcome)s") % {
                "event": proposal.sentence,
                "outcome": presenter.outcome(saved.result),
            }
            messages.success(request, recorded, COUNTER)
        elif "dismiss" in post:
            now = counting.dismiss(session=session, version=version, index=_index(post["dismiss"]))
            messages.info(request, _("Not recorded."), COUNTER)
        else:
            now, ask = _card(request, session, version, post["card"])
    except KeyReused:
        messages.error(request, _("That page's tap was already recorded; tap again."), COUNTER)
    except AlreadyDone as done:
        messages.info(request, str(done), COUNTER)
    except (Conflict, Rejected) as error:
        messages.error(request, str(error), COUNTER)
    if request.htmx:
        if now is session:
            now = GameSession.objects.with_seats().get(pk=session.pk)
        return _render(request, table.now(now), ask=ask)
    query = f"?{urlencode({'ask': ask})}" if ask else ""
    return redirect(f"{table.base}{query}#{COUNTER}")


def _card(
    request: HtmxHttpRequest, session: GameSession, version: int, value: str
) -> tuple[GameSession, str]:
    """Count the card tapped ("A", or with its choice "A|11"); a card that needs a choice and
    came without one is asked about (nothing is written): (the session, the card asked)."""
    card, has_choice, raw = value.partition("|")
    rules = ADDING.rules(session)
    found = adding.CARD_TABLES[rules.card_table].card(card)
    if found is None:
        raise Rejected(
            [
                _("The %(preset)s card table has no card “%(card)s”.")
                % {"preset": rules.preset.name, "card": card}
            ]
        )
    choice: int | str | None = None
    if has_choice:
        choice = raw
        if found.effect.asks != adding.cards.ASK_PLAYER:
            with suppress(ValueError):  # else the rules refuse it, saying what the card takes
                choice = int(raw.replace("−", "-"))
    elif found.effect.asks is not None:
        count = counting.pile(session).count
        if count is not None and len(adding.card_choices(rules, count, card)) > 1:
            return session, card
    now, played = counting.play_card(session=session, version=version, card=card, choice=choice)
    count = played.count
    if played.counted:  # a refused card is said in the count itself, with what it proposes
        said = {"card": adding.cards.card_words(card), "total": count.total, "player": count.turn}
        if count.turn:
            text = _("%(card)s: the total is %(total)s. %(player)s to play.") % said
        else:
            text = _("%(card)s: the total is %(total)s.") % said
        messages.success(request, text, COUNTER)
    return now, ""


def _index(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise Rejected([_("That proposal is not one of this table's.")]) from None


def _show_counter(request: HtmxHttpRequest, session: GameSession, show: bool) -> None:
    """Remember on this browser whether the counter is shown on this session's table."""
    shown = [each for each in request.session.get(COUNTER_SHOWN, []) if each != session.public_id]
    if show:
        shown = [*shown[-49:], session.public_id]
    request.session[COUNTER_SHOWN] = shown


# Correcting a round


def correct(request: HtmxHttpRequest, table: Table, number: int) -> HttpResponse:
    """The page that corrects round `number`: change an event (its player, its kind), remove
    one, or add one anywhere in the round. A change the rules refuse comes back with the
    reason beside the form it was sent from, and what was chosen in it."""
    session = table.session
    stored = list(session.rounds.all())
    if not 1 <= number <= len(stored):
        raise Http404("No such round")
    rules = ADDING.rules(session)
    shown = [effect.event for effect in ADDING.result(session).rounds[number - 1].events]
    places = [presenter.event_said(rules, event) for event in shown]
    form = RoundEventForm(rules=rules, places=places)
    changing: tuple[int, RoundEventForm] | None = None  # the change form sent, bound
    if request.method == "POST":
        revision = whole(request.POST.get("revision", ""))
        remove: int | None = None
        add: adding.Event | None = None
        at: int | None = None
        sent: RoundEventForm | None = None  # the form whose values the request carried
        if "remove" in request.POST:
            remove = whole(request.POST["remove"])
        elif "change" in request.POST:
            index = whole(request.POST["change"])
            sent = RoundEventForm(request.POST, rules=rules, auto_id=_change_id(index))
            changing = (index, sent)
            if sent.is_valid():
                remove, add, at = index, sent.entered_event(), index
        else:
            sent = form = RoundEventForm(request.POST, rules=rules, places=places)
            if form.is_valid():
                add, at = form.entered_event(), form.place()
        if remove is not None or add is not None:
            try:
                saved = edit_round(
                    session=session,
                    number=number,
                    revision=revision,
                    remove=remove,
                    add=add,
                    at=at,
                    who=table.who(request),
                )
            except AlreadyDone as done:
                messages.info(request, str(done))
            except KeyReused as reused:
                # The page as the round is now, under a fresh key, with what was sent.
                again = _correct_again_message(rules, reused, number, remove, add)
                messages.error(request, again)
                return _render_correction(request, table, number, stored, form, changing)
            except (Conflict, Rejected) as error:
                if sent is None:
                    messages.error(request, str(error))
                else:
                    # Said beside the form it was sent from, which keeps what was chosen.
                    for line in _lines(error):
                        sent.add_error(None, line)
                    return _render_correction(request, table, number, stored, form, changing)
            else:
                lines = presenter.describe_round_changes(saved.before, saved.result, number)
                edit = presenter.describe_edit(rules, shown, remove, add, at)
                for line in [lines[0], edit, *lines[1:]]:
                    messages.success(request, line)
            # Back at the top of the page, where it says what changed (the form sent may
            # name its own place in the page, which the browser would keep otherwise).
            return redirect(table.url(f"rounds/{number}/#main"))
    return _render_correction(request, table, number, stored, form, changing)


def _lines(error: Conflict | Rejected) -> list[str]:
    return error.lines if isinstance(error, Rejected) else [str(error)]


def _change_id(index: int) -> str:
    """The ids of the fields of the form that changes event `index`: one form per event."""
    return f"id_change{index}_%s"


def _correct_again_message(
    rules: adding.AddingRules,
    reused: KeyReused,
    number: int,
    remove: int | None,
    add: adding.Event | None,
) -> str:
    """What a round's correction page says when its form comes again with another request
    (Back to the page, another event removed, changed or added): which event was not
    removed, changed or added, to do again on the round as it is now."""
    change = reused.change
    edited = change.action == ChangeAction.EDITED and change.number == number
    shown = read_change(change.before) if edited else None  # the round the page showed
    was = (
        shown[remove]
        if shown is not None and remove is not None and 0 <= remove < len(shown)
        else None
    )
    if add is not None and was is not None:
        return _(
            "This form was already used once. What you sent this time is different, so it was "
            "not saved: changing %(event)s to %(new)s. It is filled in below, to change again."
        ) % {"event": presenter.event_said(rules, was), "new": presenter.event_said(rules, add)}
    if add is not None:
        return _(
            "This form was already used once. What you sent this time is different, so it was "
            "not saved: adding %(event)s. It is filled in below, to add again."
        ) % {"event": presenter.event_said(rules, add)}
    if was is None:
        return str(reused)
    return _(
        "This form was already used once. What you sent this time is different, so it was "
        "not saved: removing %(event)s. The round is below as it is now; remove it again if "
        "it should go."
    ) % {"event": presenter.event_said(rules, was)}


def _render_correction(
    request: HtmxHttpRequest,
    table: Table,
    number: int,
    stored: list[Round],
    form: RoundEventForm,
    changing: tuple[int, RoundEventForm] | None = None,
) -> HttpResponse:
    """The round as it is now: each event with its Remove button and its Change form (filled
    in as the event is, or as it was sent when the rules refused it), and the Add form."""
    session = table.session
    rules = ADDING.rules(session)
    played = ADDING.result(session).rounds[number - 1]
    events = [effect.event for effect in played.events]
    change_forms = []
    for index, event in enumerate(events):
        sent = changing[1] if changing is not None and changing[0] == index else None
        change_form = sent or RoundEventForm(rules=rules, event=event, auto_id=_change_id(index))
        said = presenter.event_said(rules, event)
        change_forms.append((index, said, change_form, sent is not None))
    ctx = {
        "table": table,
        "session": session,
        "base": table.base,
        "number": number,
        "revision": stored[number - 1].revision,
        "form_key": new_link_token(),
        "played": played,
        "change_forms": change_forms,
        "form": form,
    }
    return render(request, "adding/correct.html", ctx)
