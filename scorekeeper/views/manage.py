"""Managing a session, for its owner only: its name, a player's name, the seat order, a player
who leaves replaced, abandoning and resuming it, deleting it (kept until restored or deleted for
good), and a rematch.

Every view takes the session through `owner_table` (or, once deleted, the owner's deleted
sessions): another user gets 404, and scorer and watch links have no way here. Each form is
one `<form>` told apart by its submit button's name; a form with a problem comes back as typed
with the problem next to its field; a change goes to its service (services.manage) and the page
is sent again (POST → redirect).
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import live
from scorekeeper.forms.manage import ReplaceForm, SeatNameForm, SeatOrderForm, TitleForm
from scorekeeper.http import AuthedRequest
from scorekeeper.models import GameSession, Seat, new_link_token
from scorekeeper.presenters.manage import replacement, seat_rows
from scorekeeper.services import (
    AlreadyDone,
    Conflict,
    KeyReused,
    Rejected,
    Who,
    abandon_session,
    delete_for_good,
    delete_session,
    rematch,
    rename_seated_player,
    rename_session,
    reorder_seats,
    replace_player,
    restore_session,
    resume_session,
)
from scorekeeper.views.access import Table, form_key, owner_table, whole
from scorekeeper.views.players import post_data

SESSIONS_PER_PAGE = 20
ABANDONED = gettext_lazy(
    "The session is abandoned where it stands. Resume it on this page any time (entering a "
    "deal or round resumes it too)."
)
SENT_TWICE = gettext_lazy(
    "This form was already sent once, for another change, so what you sent this time was "
    "not saved. Check it and save again."
)


def _seat(table: Table, number: int) -> Seat:
    """Seat `number` (1-based) of the session; 404 if it has none."""
    for seat in table.session.seats.all():
        if seat.position + 1 == number:
            return seat
    raise Http404("No such seat")


def _refused(form: forms.Form, field: str | None, error: Exception) -> None:
    """Put what a service refused next to the field it is about."""
    if isinstance(error, Rejected):
        for line in error.lines:
            form.add_error(field, line)
    elif isinstance(error, KeyReused):
        form.add_error(None, SENT_TWICE)
    else:
        form.add_error(None, str(error))


# The "Manage session" page


@login_required
@require_http_methods(["GET", "POST"])
def session_manage(request: AuthedRequest, public_id: str) -> HttpResponse:
    table = owner_table(request, public_id)
    if request.method == "GET":
        return _manage_page(request, table)
    here = reverse("session_manage", args=[public_id])
    actions = {
        "rename": _rename,
        "fix_name": _fix_name,
        "reseat": _reseat,
        "abandon": _abandon,
        "resume": _resume,
    }
    action = next((name for name in actions if name in request.POST), None)
    if action is None:
        return _manage_page(request, table)
    try:
        answer = actions[action](request, table)
    except AlreadyDone as done:
        messages.info(request, str(done))
        return redirect(here)
    return answer or redirect(here)


def _manage_page(request: AuthedRequest, table: Table, **bound: Any) -> HttpResponse:
    """The page, with the forms in `bound` as they were sent (their problems shown) and the
    others as the session is now."""
    session = table.session
    result = live.result(session)
    rows = seat_rows(session, result)
    names = bound.get("names", {})
    played = len(session.entries())
    ctx = {
        "session": session,
        "base": table.base,
        "result": result,
        "played": played,
        "title_form": bound.get("title_form") or TitleForm(initial={"title": session.title}),
        "seats": [
            (row, names.get(row.number) or SeatNameForm(seat=row.seat, owner=request.user))
            for row in rows
        ],
        "order_form": bound.get("order_form")
        or (None if played else SeatOrderForm(session=session)),
        "made": session.rematches.not_deleted().order_by("-created").first(),
        "first_dealer": session.rematch_dealer(),
        "keys": {name: new_link_token() for name in ("title", "order", "status")},
    }
    return render(request, "scorekeeper/session_manage.html", ctx)


def _rename(request: AuthedRequest, table: Table) -> HttpResponse | None:
    form = TitleForm(request.POST)
    if form.is_valid():
        try:
            rename_session(
                session=table.session, title=form.cleaned_data["title"], who=table.who(request)
            )
        except (Rejected, KeyReused) as error:
            _refused(form, "title", error)
        else:
            title = form.cleaned_data["title"]
            nameless = _("The session has no name now: it is called by its rules and day.")
            messages.success(
                request,
                _("The session is now called “%(title)s”.") % {"title": title}
                if title
                else nameless,
            )
            return None
    return _manage_page(request, table, title_form=form)


def _fix_name(request: AuthedRequest, table: Table) -> HttpResponse | None:
    seat = _seat(table, whole(request.POST["fix_name"]))
    old = seat.player.name
    form = SeatNameForm(request.POST, seat=seat, owner=request.user)
    if form.is_valid():
        name = form.cleaned_data["name"]
        try:
            rename_seated_player(
                session=table.session, position=seat.position, name=name, who=table.who(request)
            )
        except (Rejected, KeyReused, Conflict) as error:
            _refused(form, "name", error)
        else:
            messages.success(
                request,
                _("%(old)s is now called %(name)s, here and in every session.")
                % {"old": old, "name": name},
            )
            return None
    return _manage_page(request, table, names={form.position: form})


def _reseat(request: AuthedRequest, table: Table) -> HttpResponse | None:
    form = SeatOrderForm(request.POST, session=table.session)
    if form.is_valid():
        try:
            saved = reorder_seats(
                session=table.session, players=form.players(), who=table.who(request)
            )
        except (Rejected, KeyReused, Conflict) as error:
            _refused(form, None, error)
        else:
            names = saved.session.player_names()
            messages.success(
                request,
                _("New seats: %(seats)s. %(first)s deals first.")
                % {"seats": ", ".join(names), "first": names[0]},
            )
            return None
    return _manage_page(request, table, order_form=form)


def _abandon(request: AuthedRequest, table: Table) -> HttpResponse | None:
    try:
        abandon_session(session=table.session, who=table.who(request))
    except (Rejected, KeyReused) as error:
        messages.error(request, str(error))
    else:
        messages.success(request, ABANDONED)
    return None


def _resume(request: AuthedRequest, table: Table) -> HttpResponse | None:
    try:
        resume_session(session=table.session, who=table.who(request))
    except KeyReused as error:
        messages.error(request, str(error))
        return None
    messages.success(request, _("The session is resumed: play on."))
    return redirect(table.base)


# Replacing a player who leaves


@login_required
@require_http_methods(["GET", "POST"])
def session_replace(request: AuthedRequest, public_id: str, seat: int) -> HttpResponse:
    """Who takes the seat of a player who leaves: choose, read what it means, confirm."""
    table = owner_table(request, public_id)
    session = table.session
    chair = _seat(table, seat)
    data = post_data(request)
    form = ReplaceForm(data, session=session, seat=chair)
    plan, note = None, ""
    if data is not None and "edit" not in data and form.is_valid():
        result = live.result(session)
        newcomer = form.newcomer()
        plan = replacement(session, result, chair, form.newcomer_name(), isinstance(newcomer, str))
        shown = form.cleaned_data.get("played")
        if "confirm" in data and shown is not None and shown != plan.played:
            note = _("The session changed on another phone meanwhile: this is what it means now.")
        elif "confirm" in data:
            try:
                replace_player(
                    session=session,
                    position=chair.position,
                    newcomer=newcomer,
                    played=plan.played,
                    statement=plan.statement,
                    who=table.who(request),
                )
            except AlreadyDone as done:
                messages.info(request, str(done))
                return redirect(table.base)
            except Conflict as error:
                note = str(error)
            except (Rejected, KeyReused) as error:
                _refused(form, None, error)
                plan = None
            else:
                messages.success(request, plan.statement)
                return redirect(table.base)
    ctx = {
        "session": session,
        "base": table.base,
        "seat": chair,
        "number": chair.position + 1,
        "form": form,
        "plan": plan,
        "note": note,
        "form_key": new_link_token(),
        "standing": seat_rows(session, live.result(session))[chair.position].standing,
    }
    return render(request, "scorekeeper/session_replace.html", ctx)


# Deleting, restoring, deleting for good


@login_required
@require_http_methods(["GET", "POST"])
def session_delete(request: AuthedRequest, public_id: str) -> HttpResponse:
    """Confirm, then delete: the session is kept under Deleted sessions."""
    table = owner_table(request, public_id)
    session = table.session
    if request.method == "POST" and "delete" in request.POST:
        name = str(session)
        with suppress(AlreadyDone):  # sent twice: deleted the first time
            delete_session(session=session, who=table.who(request))
        messages.success(
            request,
            _("Deleted “%(name)s”. It is kept under Deleted sessions, where you can restore it.")
            % {"name": name},
        )
        return redirect("sessions")
    ctx = {
        "session": session,
        "base": table.base,
        "played": len(session.entries()),
        "form_key": new_link_token(),
    }
    return render(request, "scorekeeper/session_delete.html", ctx)


def _deleted_session(request: AuthedRequest, public_id: str) -> GameSession:
    sessions = GameSession.objects.deleted_for_user(request.user).with_seats()
    return get_object_or_404(sessions, public_id=public_id)


@login_required
@require_GET
def sessions_deleted(request: AuthedRequest) -> HttpResponse:
    """The sessions this user deleted: restore one, or delete it for good."""
    gone = (
        GameSession.objects.deleted_for_user(request.user)
        .with_counts()
        .prefetch_related("seats__player")
        .order_by("-deleted")
    )
    page = Paginator(gone, SESSIONS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "scorekeeper/sessions_deleted.html", {"page": page})


@login_required
@require_http_methods(["GET", "POST"])
def session_deleted(request: AuthedRequest, public_id: str) -> HttpResponse:
    """A deleted session: restore it, or (a second confirmation) delete it for good."""
    session = _deleted_session(request, public_id)
    name = str(session)
    if request.method == "POST" and "restore" in request.POST:
        with suppress(AlreadyDone):  # sent twice: restored the first time
            restore_session(session=session, who=Who(request.user, form_key=form_key(request)))
        messages.success(request, _("Restored “%(name)s”.") % {"name": name})
        return redirect("session", session.public_id)
    if request.method == "POST" and "delete_for_good" in request.POST:
        delete_for_good(session=session)
        messages.success(request, _("Deleted “%(name)s” for good.") % {"name": name})
        return redirect("sessions_deleted")
    ctx = {"session": session, "played": len(session.entries()), "form_key": new_link_token()}
    return render(request, "scorekeeper/session_deleted.html", ctx)


# A rematch


@login_required
@require_POST
def session_rematch(request: AuthedRequest, public_id: str) -> HttpResponse:
    """A new session with the same seats and rules, the first deal moved on by one; its
    table."""
    table = owner_table(request, public_id)
    try:
        new = rematch(session=table.session, who=Who(request.user, form_key=form_key(request)))
    except (Rejected, AlreadyDone) as error:
        messages.error(request, str(error))
        return redirect(table.base)
    seated = GameSession.objects.with_seats().get(pk=new.pk)
    first = seated.player_names()[seated.first_dealer]
    messages.success(
        request,
        _("Rematch: the same seats, the same rules. %(first)s deals first.") % {"first": first},
    )
    return redirect("session", new.public_id)
