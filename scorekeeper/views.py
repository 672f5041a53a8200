from __future__ import annotations

import sys
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    HttpResponseServerError,
    QueryDict,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.template import loader
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.context_processors import THEME_COOKIE, THEMES
from scorekeeper.forms import (
    TOO_BIG,
    AddingSessionForm,
    NewSessionForm,
    PlayerForm,
    ScoresheetUploadForm,
    SessionFilterForm,
    SignupForm,
)
from scorekeeper.http import AuthedRequest
from scorekeeper.middleware import DATABASE_UNAVAILABLE, database_unavailable
from scorekeeper.models import Family, GameSession, Player
from scorekeeper.ratelimit import login_allowed, password_change_allowed, signup_allowed
from scorekeeper.records import player_record
from scorekeeper.rules import adding, bounds, trick
from scorekeeper.services import (
    create_adding_session,
    create_session,
    import_scoresheet,
    with_entries,
)

SESSIONS_PER_PAGE = 20


class LoginView(auth_views.LoginView):
    """Django's login, with a database-backed limit on attempts."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if login_allowed(request):
            return super().post(request, *args, **kwargs)
        # Refused without looking at the password: the form is made anew, never validated
        # (validating it would authenticate), with the name as typed. The answer and its
        # time are the same whatever the password was.
        name = request.POST.get("username", "")[:150]
        form = self.get_form_class()(request, initial={"username": name})
        context = self.get_context_data(form=form, too_many_attempts=True)
        return self.render_to_response(context, status=429)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, limited like log-in: it checks the old password."""

    request: AuthedRequest

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if password_change_allowed(request):
            return super().post(request, *args, **kwargs)
        form = self.get_form_class()(user=self.request.user)
        context = self.get_context_data(form=form, too_many_attempts=True)
        return self.render_to_response(context, status=429)


def _get_player_for_user(request: AuthedRequest, player_id: int) -> Player:
    return get_object_or_404(Player, pk=player_id, owner=request.user)


def _post_data(request: HttpRequest) -> QueryDict | None:
    """Form data for a POST (even an empty one, so it is validated), None otherwise."""
    return request.POST if request.method == "POST" else None


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "scorekeeper/welcome.html")
    players = Player.objects.for_user(request.user).active()
    return render(request, "scorekeeper/home.html", {"player_count": players.count()})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST" and not signup_allowed(request):
        ctx = {"form": SignupForm(), "too_many_attempts": True}
        return render(request, "registration/signup.html", ctx, status=429)
    form = SignupForm(_post_data(request))
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome, {user.get_username()}! Add the people you play with.")
        return redirect("players")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def players(request: AuthedRequest) -> HttpResponse:
    roster = Player.objects.for_user(request.user)
    form = PlayerForm(_post_data(request), owner=request.user)
    if request.method == "POST":
        if form.is_valid():
            try:
                with transaction.atomic():
                    player = form.save()
            except IntegrityError:
                # Two phones added the same name at the same moment.
                form.add_error("name", "You already have a player with that name.")
            else:
                messages.success(request, f"Added {player.name}.")
                if request.htmx:
                    form = PlayerForm(owner=request.user)
                else:
                    return redirect("players")
        if request.htmx:
            # The form is swapped in anew: keep the thumb (and the screen reader) on the name.
            form.fields["name"].widget.attrs["autofocus"] = True
            ctx = {
                "form": form,
                "active": roster.active(),
                "archived": roster.filter(archived=True),
            }
            return render(request, "scorekeeper/players.html#roster", ctx)
    ctx = {"form": form, "active": roster.active(), "archived": roster.filter(archived=True)}
    return render(request, "scorekeeper/players.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def player(request: AuthedRequest, player_id: int) -> HttpResponse:
    player = _get_player_for_user(request, player_id)
    form = PlayerForm(instance=player, owner=request.user)
    if request.method == "POST":
        if "archive" in request.POST or "restore" in request.POST:
            player.archived = "archive" in request.POST
            player.save(update_fields=["archived"])
            if player.archived:
                messages.success(request, f"Archived {player.name}. Their past games are kept.")
            else:
                messages.success(request, f"{player.name} is back on your roster.")
            return redirect("players")
        old_name = player.name
        form = PlayerForm(request.POST, instance=player, owner=request.user)
        if form.is_valid():
            try:
                with transaction.atomic():
                    form.save()
            except IntegrityError:
                form.add_error("name", "You already have a player with that name.")
            else:
                if old_name != player.name:
                    messages.success(request, f"Renamed {old_name} to {player.name}.")
                return redirect("players")
        # Keep the name shown in the heading as stored, not as mistyped.
        player.name = old_name
    ctx = {"player": player, "form": form, "record": player_record(player)}
    return render(request, "scorekeeper/player.html", ctx)


@require_POST
def theme(request: HttpRequest) -> HttpResponse:
    chosen = request.POST.get("theme", "auto")
    if chosen not in THEMES:
        chosen = "auto"
    response: HttpResponse = HttpResponseRedirect(_safe_next(request, reverse("home")))
    response.set_cookie(
        THEME_COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax", httponly=True
    )
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: "try again" (503) when the database was out of reach, else the 500 page.

    Reached for errors outside a view (a view's own are answered by the middleware),
    such as saving the login session while the database restarts.
    """
    if isinstance(sys.exc_info()[1], DATABASE_UNAVAILABLE):
        return database_unavailable(request)
    return HttpResponseServerError(loader.render_to_string("500.html"))


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and process monitors: the app answers, without touching the database.

    Also the bare Django view that `bench_figures` measures the app's pages against.
    """
    return HttpResponse("ok\n", content_type="text/plain")


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "manifest.webmanifest",
        content_type="application/manifest+json",
    )


def _get_session_for_user(request: AuthedRequest, public_id: str) -> GameSession:
    sessions = with_entries(GameSession.objects.for_user(request.user))
    return get_object_or_404(sessions, public_id=public_id)


@login_required
@require_GET
def sessions(request: AuthedRequest) -> HttpResponse:
    mine: QuerySet[GameSession] = GameSession.objects.for_user(request.user)
    form = SessionFilterForm(request.GET or None, owner=request.user)
    if form.is_valid():
        mine = form.apply(mine)
    mine = (
        mine.prefetch_related("seats__player")
        .annotate(
            deal_count=Count("deals", distinct=True), round_count=Count("rounds", distinct=True)
        )
        .order_by("finished", "-updated")
    )
    page = Paginator(mine, SESSIONS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    ctx = {"sessions": page, "page": page, "form": form, "query": query.urlencode()}
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
    """Import a scoresheet file; a body over the bound is refused before it is read."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    if request.method == "POST" and length.isdigit() and int(length) > bounds.MAX_FILE_BYTES * 2:
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
    form = ScoresheetUploadForm(_post_data(request), request.FILES or None)
    if getattr(request, "too_big", False):
        form = _too_big_form()
    if request.method == "POST" and form.is_valid():
        assert form.sheet is not None
        session = import_scoresheet(owner=request.user, sheet=form.sheet)
        messages.success(request, f"Imported {session}.")
        return redirect("session", session.public_id)
    return render(request, "scorekeeper/session_import.html", {"form": form})


@login_required
@require_GET
def session_new(request: AuthedRequest) -> HttpResponse:
    ctx = {"presets": trick.PRESETS.values(), "adding_presets": adding.PRESETS.values()}
    return render(request, "scorekeeper/session_new.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def session_start(request: AuthedRequest, family: str, preset_id: str) -> HttpResponse:
    preset: trick.Preset | adding.AddingPreset | None = None
    if family == Family.TRICK:
        preset = trick.PRESETS.get(preset_id)
    elif family == Family.ADDING:
        preset = adding.PRESETS.get(preset_id)
    if preset is None:
        raise Http404("No such ruleset")
    data = _post_data(request)

    def start_form(data: QueryDict | None) -> NewSessionForm | AddingSessionForm:
        if isinstance(preset, trick.Preset):
            return NewSessionForm(data, owner=request.user, preset=preset)
        assert isinstance(preset, adding.AddingPreset)
        return AddingSessionForm(data, owner=request.user, preset=preset)

    player_form = PlayerForm(prefix="new", owner=request.user)
    if data is not None and "add_player" in data:
        # Add someone to the roster on the spot; keep everything else as typed.
        player_form = PlayerForm(data, prefix="new", owner=request.user)
        if player_form.is_valid():
            player = player_form.save()
            messages.success(request, f"Added {player.name} to your roster; seat them below.")
            player_form = PlayerForm(prefix="new", owner=request.user)
        form = start_form(data)
        form.errors.clear()  # not submitted yet: no complaints about the session itself
    else:
        form = start_form(data)
        if data is not None and form.is_valid():
            assert form.rules is not None
            create = create_session if family == Family.TRICK else create_adding_session
            session = create(
                owner=request.user,
                ruleset=preset.id,
                options=form.rules.overrides_data(),
                players=form.players(),
                title=form.cleaned_data["title"],
            )
            return redirect("session", session.public_id)
    ctx = {"form": form, "preset": preset, "family": family, "player_form": player_form}
    return render(request, "scorekeeper/session_start.html", ctx)
