"""The trick game's screens at the table: entering a deal, and correcting one.

Reached through `views.table` for a session of this family (its owner's page, or a scorer
link). A save goes straight to the service, which checks and scores the deal in one pass of
the rules: its problems come back to sit next to their fields, its result is what the next
page shows. A status check (htmx, as the hands are filled in) is one pass too.
"""

from __future__ import annotations

import json
import re

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.families import TRICK
from scorekeeper.forms.deals import DealForm, apply_taps, entry_initial
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import GameSession, new_link_token
from scorekeeper.presenters import trick as presenter
from scorekeeper.rules import trick
from scorekeeper.services import (
    AlreadyDone,
    Conflict,
    KeyReused,
    Rejected,
    add_deal,
    delete_last_deal,
    edit_deal,
    extend_session,
    may_extend,
    redo_deal,
    replayed,
    undone_deal,
)
from scorekeeper.views.access import Table, whole
from scorekeeper.views.live import live_context

SCRIPTS = ("js/deal-entry.js", "js/haptics.js", "js/live.js", "js/outbox.js")


def _deal_form(
    table: Table,
    data: QueryDict | None,
    *,
    number: int,
    rules: trick.TrickRules | None = None,
) -> DealForm:
    """The deal form under the session's rules: `rules` when the page holds them already (its
    result's, scored with them at this version), else the session's."""
    return DealForm(
        data,
        rules=rules or TRICK.rules(table.session),
        initial={"number": number, "form_key": new_link_token()},
    )


def _render(
    request: HtmxHttpRequest, table: Table, form: DealForm | None, attempted: bool = False
) -> HttpResponse:
    if form is not None and request.htmx and request.htmx.target == "entry-status":
        return _status(request, form, table.base)
    session = table.session
    result = TRICK.result(session)
    undone = undone_deal(session) if table.can_score else None
    if form is None and not result.finished and table.can_score:
        number = len(result.deals) + 1
        if undone:
            # A deal just undone comes back filled in, checked, to correct and save (or redo
            # as it was).
            entries = [*TRICK.entries(session), undone[1]]
            again = trick.evaluate(result.rules, entries).result
            preview = again.deals[-1] if again is not None else None
            form = _filled(table, number, undone[1], preview, result.rules)
        else:
            form = _deal_form(table, None, number=number, rules=result.rules)
    ctx = {
        "form": form,
        "attempted": attempted,
        "action": table.base,
        "extension": trick.more_deals(result.rules)
        if result.finished and may_extend(session, table.by_user)
        else None,
        "scripts": SCRIPTS,
        "table_template": "trick/table.html",
        "redo": undone[0] if undone else None,
        "outbox_label": _("Deal %(number)s") % {"number": "{number}"},
        **live_context(table),
        **presenter.table_context(result),
    }
    if result.next:
        ctx |= {
            "upcoming": _upcoming(result.rules, result.next.number),
            # What the banner says of a later deal's trump while the deals before it wait on
            # the phone: a trump the table turns up is the table's, whatever came before.
            "trump_later": _("worked out once the deal before is scored")
            if result.rules.trump != "turn-up"
            else "",
            "save_next": _("Save deal %(number)s") % {"number": "{number}"},
            "dealer": result.next.dealer,
            "leader": result.next.leader,
            "save_label": (form.save_label if form is not None else "")
            or _("Save deal %(number)s") % {"number": result.next.number},
        }
    return render(request, "scorekeeper/table.html", ctx)


def _filled(
    table: Table,
    number: int,
    entry: trick.DealEntry,
    preview: trick.DealResult | None,
    rules: trick.TrickRules,
) -> DealForm:
    """The deal form filled in with a stored deal (one undone, or one to correct) as deal
    `number`, its status box saying what the rules make of it (`preview`, the deal's points
    as scored), as it says after a tap."""
    form = _deal_form(table, None, number=number, rules=rules)
    form.initial.update(entry_initial(rules, entry))
    form.preview = preview
    return form


def _upcoming(rules: trick.TrickRules, number: int) -> str:
    """The deals after deal `number` with their dealer and leader, as JSON for the page: a
    phone that keeps a deal while the scoresheet is out of reach goes on to the next one with
    these (the seats follow a deal's number alone; its trump may follow the deal before, and
    is then worked out once that deal is scored)."""
    last = number + 12
    if rules.match.type == "deals" and rules.match.deals:
        last = min(last, rules.match.deals)
    deals = []
    for later in range(number + 1, last + 1):
        dealer, leader = trick.seat(rules, later - 1)
        deals.append({"number": later, "dealer": dealer, "leader": leader})
    return json.dumps(deals, ensure_ascii=False)


def _status(request: HtmxHttpRequest, form: DealForm, action: str) -> HttpResponse:
    """The form's status box alone (htmx, as the hands are filled in): what is still wrong,
    or the deal's points."""
    ctx = {"form": form, "action": action, "status_only": True}
    return render(request, "trick/deal_form.html#entry-status", ctx)


def page(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """The table page: the next deal's form, the last deal, the standings; its actions."""
    session = table.session
    if request.method == "GET":
        return _render(request, table, None)
    who = table.who(request)
    try:
        if "undo" in request.POST:
            number = whole(request.POST["undo"])
            delete_last_deal(session=session, number=number, who=who)
            messages.success(
                request,
                _(
                    "Deal %(number)s undone. It is kept in the history. Its hands are back in "
                    "the form: correct them and save, or redo it as it was."
                )
                % {"number": number},
            )
            return redirect(table.base)
        if "redo" in request.POST:
            number = whole(request.POST["redo"])
            saved = redo_deal(session=session, number=number, who=who)
            messages.success(
                request,
                _("Redone as it was. %(outcome)s") % {"outcome": presenter.outcome(saved.result)},
            )
            return redirect(table.base)
        if "extend" in request.POST:
            more = whole(request.POST["extend"])
            extend_session(session=session, deals=more, who=who)
            messages.success(
                request,
                ngettext("%(count)s more deal to play.", "%(count)s more deals to play.", more)
                % {"count": more},
            )
            return redirect(table.base)
    except AlreadyDone as done:
        messages.info(request, str(done))
        return redirect(table.base)
    except (Conflict, Rejected) as error:
        messages.error(request, str(error))
        return redirect(table.base)

    saving = "save" in request.POST
    form = _next_deal_form(table, apply_taps(request.POST))
    if (form is None or form.moved_on) and not saving and _saved_here(table, request.POST):
        return HttpResponse(status=204)
    if form is None:
        return _ended(request, table)
    if not form.is_valid():
        return _render(request, table, form, attempted=saving)
    if form.saved_elsewhere and not saving:
        return _saved_elsewhere(request, table, form, saving)
    if not saving:
        # A status check, or a tap made without JavaScript: what the rules make of it.
        return _checked(request, table, form, attempted=False)
    # Saved as the deal it was typed for: a form sent again is recognised by its key, and a
    # deal that another phone entered meanwhile is a Conflict, which keeps what was typed
    # (unless it is that very deal).
    number = form.typed_number
    assert form.entry is not None
    try:
        saved = add_deal(session=session, number=number, entry=form.entry, who=who)
    except AlreadyDone:
        messages.success(request, _sent_again(table, form, number))
        return redirect(table.base)
    except KeyReused as reused:
        return _offer_again(request, table, reused.change.number, number)
    except (Conflict, IntegrityError):
        # Another phone saved a deal between this phone's check and its save.
        table = table.now(GameSession.objects.with_seats().get(pk=session.pk))
        form = _next_deal_form(table, apply_taps(request.POST))
        if form is None:
            return _ended(request, table)
        if form.is_valid() and form.saved_elsewhere:
            return _saved_elsewhere(request, table, form, saving)
        return _checked(request, table, form, attempted=True)
    except Rejected as error:
        form.place(error.problems)
        return _render(request, table, form, attempted=True)
    messages.success(request, presenter.outcome(saved.result))
    return redirect(table.base)


def _sent_again(table: Table, form: DealForm, number: int) -> str:
    """What a Save hears when its form was stored already (its answer never reached the
    phone, which sent it again): the deal's news, as the first answer said it, noting that it
    is stored once."""
    session = GameSession.objects.with_seats().get(pk=table.session.pk)
    change = replayed(session, form.cleaned_data["form_key"] or "")
    saved = change.number if change is not None and change.number else number
    deals = TRICK.result(session).deals
    if not 1 <= saved <= len(deals):
        return _("Deal %(number)s was already saved.") % {"number": saved}
    return presenter.deal_saved_message(deals[saved - 1], again=True)


def _saved_here(table: Table, data: QueryDict) -> bool:
    """Whether this very form was saved already (its key made a change). A status check sent
    just before Save can reach the server after the save: it then has nothing to say (no
    "ended" or "saved on another phone", no message, no redirect), and the save's own answer
    brings the page that says what happened."""
    return replayed(table.session, data.get("form_key", "")) is not None


def _tried(session: GameSession, form: DealForm, number: int) -> trick.Evaluation:
    """One pass of the form's rules over the session's deals with the form's deal as deal
    `number` (the next one, or a correction): its problems, and its result when there are
    none."""
    assert form.entry is not None
    entries = TRICK.entries(session)
    changed = [*entries[: number - 1], form.entry, *entries[number:]]
    return trick.evaluate(form.rules, changed)


def _checked(
    request: HtmxHttpRequest, table: Table, form: DealForm, attempted: bool
) -> HttpResponse:
    """The page (or its status box) with what one pass of the rules makes of the form's deal."""
    if form.entry is not None:
        form.show(_tried(table.session, form, form.cleaned_data["number"]))
    return _render(request, table, form, attempted=attempted)


def _ended(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    messages.error(
        request,
        _("The session ended after deal %(number)s.") % {"number": len(table.session.entries())},
    )
    if request.htmx:
        # A status check: the whole page comes back, finished (a redirect followed by htmx
        # would put that page inside the status box).
        return HttpResponseClientRedirect(table.base)
    return redirect(table.base)


def _next_deal_form(table: Table, data: QueryDict) -> DealForm | None:
    """The form for the deal this phone was entering, as the next deal to save. If another
    phone entered or undid a deal meanwhile, what was typed is kept, renumbered, with a
    message that says so (`form.moved_on`) and Save's new words (`form.save_label`); None
    once the session is over. Hands that another phone saved meanwhile, exactly as typed
    here, are marked (`form.saved_elsewhere`) once the form is valid."""
    session = table.session
    if session.finished:
        return None
    # The deals so far are counted, not read: a save reads them under its lock, and this form
    # needs them only when another phone moved the session on.
    number = session.deals.count() + 1
    typed = data.get("number", "")
    moved_on = ""
    if typed.isdigit() and int(typed) != number:
        data["number"] = str(number)
        moved_on = _moved_on_message(
            int(typed),
            number,
            typed_anything=_typed_anything(data),
            undone=int(typed) > number and session.last_undo() is not None,
        )
    form = _deal_form(table, data, number=number)
    form.moved_on = moved_on
    form.typed_number = int(typed) if typed.isdigit() else number
    if moved_on:
        form.save_label = _("Save deal %(number)s") % {"number": number}
        entries = TRICK.entries(session)
        form.saved_meanwhile = {
            saved: entries[saved - 1] for saved in range(max(form.typed_number, 1), number)
        }
    return form


def _typed_anything(data: QueryDict) -> bool:
    """Whether the form holds anything typed for the deal: a hand's box, a choice, the trump."""
    return any(value for key, value in data.items() if key == "trump" or re.match(r"h\d+-", key))


def _moved_on_message(typed: int, number: int, *, typed_anything: bool, undone: bool) -> str:
    """What happened to a form typed for deal `typed` when the next deal is `number`. A form
    ahead of the scoresheet was undone on another phone only if the session's latest change
    is an undo; otherwise a deal before it never arrived (one kept on this phone was refused,
    and left unsaved), and the message says only what the scoresheet holds."""
    if typed > number and not undone:
        if typed_anything:
            message = _(
                "The scoresheet's next deal is deal %(number)s, not %(typed)s. What you typed "
                "is kept here as deal %(number)s: check it, then save."
            )
        else:
            message = _(
                "The scoresheet's next deal is deal %(number)s: this form is deal %(number)s now."
            )
        return message % {"typed": typed, "number": number}
    if not typed_anything:
        if typed == number - 1:
            message = _(
                "Deal %(typed)s was just entered on another phone: this form is deal "
                "%(number)s now."
            )
        elif typed < number:
            message = _(
                "Deals %(typed)s–%(last)s were just entered on another phone: this form is "
                "deal %(number)s now."
            )
        else:
            message = _("A deal was undone on another phone: this form is deal %(number)s now.")
    elif typed == number - 1:
        message = _(
            "Deal %(typed)s was just entered on another phone. What you typed is kept here as "
            "deal %(number)s: check it, then save."
        )
    elif typed < number:
        message = _(
            "Deals %(typed)s–%(last)s were just entered on another phone. What you typed is kept "
            "here as deal %(number)s: check it, then save."
        )
    else:
        message = _(
            "A deal was undone on another phone. What you typed is kept here as deal "
            "%(number)s: check it, then save."
        )
    return message % {"typed": typed, "last": number - 1, "number": number}


def _saved_elsewhere(
    request: HtmxHttpRequest, table: Table, form: DealForm, saving: bool
) -> HttpResponse:
    """The hands typed here are a deal that another phone has just saved: say so, and never
    offer them as the next deal, so that a Save tapped by reflex cannot store it twice. A
    check shows the form as it is, with Save turned into "Start deal N"; Save (that button)
    brings the table back with the next deal's form empty."""
    number = form.cleaned_data["number"]
    said = _(
        "Deal %(saved)s was just saved on another phone, with the same hands as here: it is "
        "stored once, and these hands are not kept for deal %(number)s."
    ) % {"saved": form.saved_elsewhere, "number": number}
    if saving:
        messages.info(request, said)
        return redirect(table.base)
    form.moved_on = said
    form.save_label = _("Start deal %(number)s") % {"number": number}
    return _render(request, table, form)


def _offer_again(
    request: HtmxHttpRequest, table: Table, saved: int | None, number: int
) -> HttpResponse:
    """A deal form sent again with other content: say that it was not saved, and show what
    was typed as the next deal, under a fresh idempotency key, to check and save."""
    messages.error(
        request,
        _(
            "This form was already used to save deal %(saved)s. What you sent this time is "
            "different, so it was not saved: it is below, to save as deal %(number)s."
        )
        % {"saved": saved, "number": number},
    )
    return _render(request, table, _typed_again(table, request, number), attempted=True)


def _typed_again(
    table: Table, request: HtmxHttpRequest, number: int, revision: int | None = None
) -> DealForm:
    """What a deal form sent again with other content carried, checked, under a fresh
    idempotency key: the old key names the change it already made, so it cannot save this
    one. A correction also takes the deal's `revision` as it is now."""
    data = apply_taps(request.POST)
    data["number"], data["form_key"] = str(number), new_link_token()
    if revision is not None:
        data["revision"] = str(revision)
    form = _deal_form(table, data, number=number)
    form.is_valid()
    return form


# Correcting a deal


def correct(request: HtmxHttpRequest, table: Table, number: int) -> HttpResponse:
    """The page that corrects deal `number`; everything after it is worked out again."""
    session = table.session
    deals = list(session.deals.all())
    if not 1 <= number <= len(deals):
        raise Http404("No such deal")
    if request.method == "GET":
        result = TRICK.result(session)
        entry = TRICK.entries(session)[number - 1]
        form = _filled(table, number, entry, result.deals[number - 1], result.rules)
        form.initial["revision"] = deals[number - 1].revision
        return _render_correction(request, table, form, number)
    data = apply_taps(request.POST)
    data["number"] = str(number)  # the deal being corrected is the one in the URL
    form = _deal_form(table, data, number=number)
    saving = "save" in request.POST
    if not form.is_valid():
        return _render_correction(request, table, form, number, attempted=saving)
    assert form.entry is not None
    if not saving:
        form.show(_tried(session, form, number))
        return _render_correction(request, table, form, number)
    here = table.url(f"deals/{number}/")
    try:
        saved = edit_deal(
            session=session,
            number=number,
            revision=form.cleaned_data["revision"] or 0,
            entry=form.entry,
            who=table.who(request),
        )
    except AlreadyDone as done:
        messages.info(request, str(done))
        return redirect(table.base)
    except KeyReused:
        return _correct_again(request, table, number)
    except Conflict as error:
        messages.error(
            request,
            _("%(problem)s Here it is as it is now; make your correction again.")
            % {"problem": error},
        )
        return redirect(here)
    except Rejected as error:
        form.place(error.problems)
        return _render_correction(request, table, form, number, attempted=True)
    for line in presenter.describe_changes(saved.before, saved.result, number):
        messages.success(request, line)
    return redirect(table.base)


def _correct_again(request: HtmxHttpRequest, table: Table, number: int) -> HttpResponse:
    """A correction form sent again with other hands (Back to the page, changed, saved): say
    that it was not saved, and show what was typed as a new correction of the deal as it is
    now, to check and save."""
    messages.error(
        request,
        _(
            "This form was already used once. What you sent this time is different, so it "
            "was not saved: it is below, to save as a new correction of deal %(number)s."
        )
        % {"number": number},
    )
    deal = table.session.deals.filter(number=number).first()
    revision = deal.revision if deal is not None else None
    form = _typed_again(table, request, number, revision)
    return _render_correction(request, table, form, number, attempted=True)


def _render_correction(
    request: HtmxHttpRequest, table: Table, form: DealForm, number: int, attempted: bool = False
) -> HttpResponse:
    if request.htmx and request.htmx.target == "entry-status":
        return _status(request, form, table.url(f"deals/{number}/"))
    deal = TRICK.result(table.session).deals[number - 1]
    ctx = {
        "table": table,
        "session": table.session,
        "base": table.base,
        "form": form,
        "number": number,
        "attempted": attempted,
        "deal": deal,
        "trump_label": trick.trump_label(deal.trump),
        "dealer": deal.dealer,
        "leader": deal.leader,
        "action": table.url(f"deals/{number}/"),
        "save_label": _("Save the correction of deal %(number)s") % {"number": number},
        "outbox_label": _("Correction of deal %(number)s") % {"number": number},
    }
    return render(request, "trick/correct.html", ctx)
