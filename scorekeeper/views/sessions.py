"""Sessions: the list of past and current ones, starting one, and importing a scoresheet."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.core.paginator import Paginator
from django.db.models import F, QuerySet
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.forms.players import PlayerForm
from scorekeeper.forms.sessions import (
    TOO_BIG,
    ScoresheetUploadForm,
    SessionFilterForm,
    StartForm,
)
from scorekeeper.http import AuthedRequest
from scorekeeper.models import GameSession, SavedRuleset
from scorekeeper.presenters.registry import template
from scorekeeper.rules import bounds
from scorekeeper.rules.registry import FAMILIES, Family, UnknownFamily, family
from scorekeeper.services import create_session, import_scoresheet
from scorekeeper.services.limits import AccountFull
from scorekeeper.views.access import ruleset_for_user
from scorekeeper.views.players import post_data

SESSIONS_PER_PAGE = 20


def families() -> list[dict[str, Any]]:
    """Each game family with its presets, for the pages that list them."""
    return [
        {
            "family": rules_family,
            "presets": rules_family.PRESETS.values(),
            "players_template": template(rules_family.ID, "preset_players"),
        }
        for rules_family in FAMILIES.values()
    ]


def preset_of(family_id: str, preset_id: str) -> tuple[Family, Any]:
    """A family and one of its presets, by the ids in a URL; 404 if either is unknown."""
    try:
        rules_family = family(family_id)
    except UnknownFamily:
        raise Http404("No such game family") from None
    preset = rules_family.PRESETS.get(preset_id)
    if preset is None:
        raise Http404("No such ruleset")
    return rules_family, preset


@login_required
@require_GET
def sessions(request: AuthedRequest) -> HttpResponse:
    mine: QuerySet[GameSession] = (
        GameSession.objects.for_user(request.user).with_counts().with_stage()
    )
    form = SessionFilterForm(request.GET or None, owner=request.user)
    if form.is_valid():
        mine = form.apply(mine)
    # In progress first, then finished, then abandoned; the latest first in each.
    mine = mine.prefetch_related("seats__player").order_by(F("stage"), "-updated")
    page = Paginator(mine, SESSIONS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    ctx = {
        "sessions": page,
        "page": page,
        "form": form,
        "query": query.urlencode(),
        "deleted": GameSession.objects.deleted_for_user(request.user).exists(),
    }
    return render(request, "scorekeeper/sessions.html", ctx)


class _BoundedUpload(FileUploadHandler):
    """Stops reading an uploaded file once it is over the scoresheet bound, so that a huge
    upload sent without a Content-Length is neither read to its end nor stored."""

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if start + len(raw_data) > bounds.MAX_FILE_BYTES:
            self.request.too_big = True  # type: ignore[union-attr]
            raise StopUpload(connection_reset=True)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None


@csrf_exempt  # the CSRF check reads the body: the bound must be in place before that
@login_required
@require_http_methods(["GET", "POST"])
def session_import(request: AuthedRequest) -> HttpResponse:
    """Import a scoresheet file; a body over the server's bound is refused before it is read
    (the async server refuses it before Django: `scorekeeper/bodylimit.py`)."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    if request.method == "POST" and length.isdigit() and int(length) > settings.MAX_REQUEST_BODY:
        ctx = {"form": _too_big_form()}
        return render(request, "scorekeeper/session_import.html", ctx, status=413)
    request.upload_handlers.insert(0, _BoundedUpload(request))
    return _session_import(request)


def _too_big_form() -> ScoresheetUploadForm:
    form = ScoresheetUploadForm({}, {})
    form.is_valid()
    form.errors.clear()
    form.add_error("file", TOO_BIG)
    return form


@csrf_protect
def _session_import(request: AuthedRequest) -> HttpResponse:
    form = ScoresheetUploadForm(post_data(request), request.FILES or None)
    if getattr(request, "too_big", False):
        form = _too_big_form()
    if request.method == "POST" and form.is_valid():
        assert form.sheet is not None
        try:
            session = import_scoresheet(owner=request.user, sheet=form.sheet)
        except AccountFull as full:
            form.add_error("file", full.lines)
        else:
            messages.success(request, _("Imported %(session)s.") % {"session": session})
            return redirect("session", session.public_id)
    return render(request, "scorekeeper/session_import.html", {"form": form})


@login_required
@require_GET
def session_new(request: AuthedRequest) -> HttpResponse:
    """Pick the rules: the user's own saved rulesets first, then every preset."""
    saved = [
        (ruleset, ruleset.rules())
        for ruleset in SavedRuleset.objects.for_user(request.user)
        if ruleset.preset is not None
    ]
    ctx = {"families": families(), "saved": saved}
    return render(request, "scorekeeper/session_new.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def session_start(request: AuthedRequest, family: str, preset_id: str) -> HttpResponse:
    rules_family, preset = preset_of(family, preset_id)
    return _start(request, rules_family, preset, None)


@login_required
@require_http_methods(["GET", "POST"])
def session_start_saved(request: AuthedRequest, ruleset_id: int) -> HttpResponse:
    """Start a session from one of the user's saved rulesets: its options, changeable."""
    saved = ruleset_for_user(request, ruleset_id)
    return _start(request, saved.rules_family, saved.preset, saved)


def _start(
    request: AuthedRequest, rules_family: Family, preset: Any, saved: SavedRuleset | None
) -> HttpResponse:
    data = post_data(request)
    chosen = saved.options if saved is not None else None

    def start_form(data: QueryDict | None) -> StartForm:
        return StartForm(
            data, owner=request.user, family=rules_family, preset=preset, chosen=chosen
        )

    player_form = PlayerForm(prefix="new", owner=request.user)
    if data is not None and "add_player" in data:
        # Add someone to the roster on the spot; keep everything else as typed.
        player_form = PlayerForm(data, prefix="new", owner=request.user)
        if player_form.is_valid():
            try:
                player = player_form.save()
            except AccountFull as full:
                player_form.add_error("name", full.lines)
            else:
                messages.success(
                    request,
                    _("Added %(name)s to your roster; seat them below.") % {"name": player.name},
                )
                player_form = PlayerForm(prefix="new", owner=request.user)
        form = start_form(data)
        form.errors.clear()  # not submitted yet: no complaints about the session itself
    else:
        form = start_form(data)
        if data is not None and form.is_valid():
            assert form.rules is not None
            try:
                session = create_session(
                    owner=request.user,
                    ruleset=preset.id,
                    options=form.rules.overrides_data(),
                    players=form.players(),
                    first_dealer=form.first_dealer(),
                    title=form.cleaned_data["title"],
                    family=rules_family.ID,
                    saved_ruleset=saved,
                )
            except AccountFull as full:
                form.add_error(None, full.lines)
            else:
                return redirect("session", session.public_id)
    action = (
        reverse("session_start_saved", args=[saved.pk])
        if saved is not None
        else reverse("session_start", args=[rules_family.ID, preset.id])
    )
    ctx = {
        "form": form,
        "preset": preset,
        "family": rules_family.ID,
        "player_form": player_form,
        "saved": saved,
        # Saved rules say how they play (the preset's own line would say otherwise).
        "saved_title": saved.rules().title if saved is not None else "",
        "action": action,
    }
    return render(request, "scorekeeper/session_start.html", ctx)
