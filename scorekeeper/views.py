from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.context_processors import THEME_COOKIE, THEMES
from scorekeeper.display import (
    adding_context,
    deal_saved_message,
    describe_changes,
    describe_round_changes,
    entry_initial,
    event_label,
    last_tap_message,
    session_context,
    trump_label,
)
from scorekeeper.forms import (
    AddingSessionForm,
    AdjustForm,
    DealForm,
    NewSessionForm,
    PlayerForm,
    RoundEventForm,
    ScoresheetUploadForm,
    SignupForm,
    apply_taps,
)
from scorekeeper.http import AuthedRequest
from scorekeeper.models import Family, GameSession, Player
from scorekeeper.rules import adding, trick
from scorekeeper.scoresheet import dumps_scoresheet
from scorekeeper.services import (
    Conflict,
    Rejected,
    add_deal,
    adding_rules,
    compute,
    create_adding_session,
    create_session,
    deal_entries,
    delete_last_deal,
    edit_deal,
    edit_round,
    extend_session,
    extension,
    import_scoresheet,
    player_names,
    record_event,
    round_entries,
    scoresheet_for,
    table_state,
    trick_rules,
    undo_event,
    with_entries,
)


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
    return render(request, "scorekeeper/player.html", {"player": player, "form": form})


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
    mine = (
        GameSession.objects.for_user(request.user)
        .prefetch_related("seats__player")
        .annotate(deal_count=Count("deals"))
        .order_by("finished", "-updated")
    )
    return render(request, "scorekeeper/sessions.html", {"sessions": mine})


@login_required
@require_http_methods(["GET", "POST"])
def session_import(request: AuthedRequest) -> HttpResponse:
    form = ScoresheetUploadForm(_post_data(request), request.FILES or None)
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


def _deal_form(
    game: GameSession,
    data: QueryDict | None,
    *,
    number: int,
    initial: dict[str, object] | None = None,
) -> DealForm:
    rules = trick_rules(game)
    return DealForm(
        data,
        rules=rules,
        previous=deal_entries(game)[: number - 1],
        trump_entered=rules.trump in ("turn-up", "declared"),
        initial={"number": number, **(initial or {})},
    )


def _render_table(
    request: AuthedRequest, game: GameSession, form: DealForm | None, attempted: bool = False
) -> HttpResponse:
    result = compute(game)
    if form is None and not result.finished:
        form = _deal_form(game, None, number=len(result.deals) + 1)
    ctx = {
        "game": game,
        "form": form,
        "attempted": attempted,
        "action": request.path,
        "extension": extension(result.rules) if result.finished else None,
        **session_context(result),
    }
    if result.next:
        ctx |= {
            "dealer": result.next.dealer,
            "leader": result.next.leader,
            "save_label": f"Save deal {result.next.number}",
        }
    if request.htmx and request.htmx.target == "entry-status":
        return render(request, "scorekeeper/deal_form.html#entry-status", ctx)
    return render(request, "scorekeeper/session.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def session(request: AuthedRequest, public_id: str) -> HttpResponse:
    game = _get_session_for_user(request, public_id)
    if game.family == Family.ADDING:
        return _adding_table(request, game)
    if request.method == "GET":
        return _render_table(request, game, None)
    try:
        if "undo" in request.POST:
            number = _int(request.POST["undo"])
            delete_last_deal(session=game, number=number, by_user=request.user)
            messages.success(request, f"Deal {number} undone. It is kept in the history.")
            return redirect("session", game.public_id)
        if "extend" in request.POST:
            more = _int(request.POST["extend"])
            extend_session(session=game, deals=more, by_user=request.user)
            messages.success(request, f"{more} more deals to play.")
            return redirect("session", game.public_id)
    except (Conflict, Rejected) as error:
        messages.error(request, str(error))
        return redirect("session", game.public_id)

    entries = deal_entries(game)
    if game.finished:
        messages.error(request, f"The session ended after deal {len(entries)}.")
        return redirect("session", game.public_id)
    form = _deal_form(game, apply_taps(request.POST), number=len(entries) + 1)
    if not form.is_valid():
        return _render_table(request, game, form, attempted="save" in request.POST)
    number = form.cleaned_data["number"]
    if number != len(entries) + 1:
        messages.error(request, _stale_deal_message(number, len(entries)))
        return redirect("session", game.public_id)
    assert form.entry is not None
    ok = form.check([*entries, form.entry])
    if "save" not in request.POST or not ok:
        return _render_table(request, game, form, attempted="save" in request.POST)
    try:
        result = add_deal(session=game, number=number, entry=form.entry, by_user=request.user)
    except (Conflict, IntegrityError):
        messages.error(request, _stale_deal_message(number, number))
        return redirect("session", game.public_id)
    except Rejected as error:
        messages.error(request, str(error))
        return redirect("session", game.public_id)
    messages.success(request, deal_saved_message(result.deals[-1]))
    return redirect("session", game.public_id)


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise Http404("Not a deal number") from None


def _stale_deal_message(number: int, entered: int) -> str:
    if entered >= number:
        return f"Deal {number} was just entered on another phone. Here is the table as it is now."
    return "The session changed on another phone. Here is the table as it is now."


@login_required
@require_http_methods(["GET", "POST"])
def deal_edit(request: AuthedRequest, public_id: str, number: int) -> HttpResponse:
    game = _get_session_for_user(request, public_id)
    deals = list(game.deals.all())
    if not 1 <= number <= len(deals):
        raise Http404("No such deal")
    deal = deals[number - 1]
    entries = deal_entries(game)
    if request.method == "GET":
        initial = {
            "revision": deal.revision,
            **entry_initial(trick_rules(game), entries[number - 1]),
        }
        form = _deal_form(game, None, number=number, initial=initial)
        return _render_edit(request, game, form, number)
    form = _deal_form(game, apply_taps(request.POST), number=number)
    if not form.is_valid():
        return _render_edit(request, game, form, number, attempted="save" in request.POST)
    assert form.entry is not None
    changed = [*entries[: number - 1], form.entry, *entries[number:]]
    ok = form.check(changed)
    if "save" not in request.POST or not ok:
        return _render_edit(request, game, form, number, attempted="save" in request.POST)
    try:
        before, after = edit_deal(
            session=game,
            number=number,
            revision=form.cleaned_data["revision"] or 0,
            entry=form.entry,
            by_user=request.user,
        )
    except Conflict as error:
        messages.error(request, f"{error} Here it is as it is now; make your correction again.")
        return redirect("deal_edit", game.public_id, number)
    except Rejected as error:
        messages.error(request, str(error))
        return redirect("deal_edit", game.public_id, number)
    for line in describe_changes(before, after, number):
        messages.success(request, line)
    return redirect("session", game.public_id)


def _render_edit(
    request: AuthedRequest, game: GameSession, form: DealForm, number: int, attempted: bool = False
) -> HttpResponse:
    deal = compute(game).deals[number - 1]
    ctx = {
        "game": game,
        "form": form,
        "number": number,
        "attempted": attempted,
        "deal": deal,
        "trump_label": trump_label(deal.trump),
        "dealer": deal.dealer,
        "leader": deal.leader,
        "action": request.path,
        "save_label": f"Save the correction of deal {number}",
    }
    if request.htmx and request.htmx.target == "entry-status":
        return render(request, "scorekeeper/deal_form.html#entry-status", ctx)
    return render(request, "scorekeeper/deal_edit.html", ctx)


@login_required
@require_GET
def session_history(request: AuthedRequest, public_id: str) -> HttpResponse:
    game = _get_session_for_user(request, public_id)
    changes = game.changes.select_related("by_user")
    return render(request, "scorekeeper/session_history.html", {"game": game, "changes": changes})


@login_required
@require_GET
def session_scoresheet(request: AuthedRequest, public_id: str) -> HttpResponse:
    game = _get_session_for_user(request, public_id)
    response = HttpResponse(
        dumps_scoresheet(scoresheet_for(game)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="scoresheet-{game.public_id}.json"'
    return response


def _adding_table(request: AuthedRequest, game: GameSession) -> HttpResponse:
    """The adding-game table: every tap is stored at once, with its effect shown."""
    if request.method == "GET":
        return _render_adding(request, game)
    state = request.POST.get("state", "")
    adjust_form = None
    try:
        if "undo_tap" in request.POST:
            undo_event(session=game, state=state, by_user=request.user)
            messages.success(request, "Last tap undone. It is kept in the history.")
        elif "tap" in request.POST:
            event = _tapped_event(game, request.POST["tap"])
            result = record_event(session=game, state=state, event=event, by_user=request.user)
            messages.success(request, last_tap_message(result))
        else:
            adjust_form = AdjustForm(request.POST, players=player_names(game))
            if not adjust_form.is_valid():
                return _render_adding(request, game, adjust_form)
            event = adding.Event(
                player=player_names(game)[int(adjust_form.cleaned_data["player"])],
                event="adjust",
                tokens=adjust_form.cleaned_data["tokens"],
            )
            result = record_event(session=game, state=state, event=event, by_user=request.user)
            messages.success(request, last_tap_message(result))
    except (Conflict, Rejected) as error:
        messages.error(request, str(error))
    if request.htmx:
        # Show the table as it is now in place: tokens, buttons and the message, no reload.
        return _render_adding(request, _get_session_for_user(request, game.public_id))
    return redirect("session", game.public_id)


def _render_adding(
    request: AuthedRequest, game: GameSession, adjust_form: AdjustForm | None = None
) -> HttpResponse:
    rounds = round_entries(game)
    result = adding.score_session(adding_rules(game), rounds)
    ctx = {
        "game": game,
        "state": table_state(rounds),
        "adjust_form": adjust_form or AdjustForm(players=player_names(game)),
        **adding_context(result, rounds),
    }
    template = "scorekeeper/session_adding.html"
    if request.htmx and request.htmx.target == "table":
        template += "#table"
    return render(request, template, ctx)


def _tapped_event(game: GameSession, value: str) -> adding.Event:
    """Read an event button's value, "seat:event:target", e.g. "1:hit:33"."""
    try:
        index, kind, target = value.split(":")
        player = player_names(game)[int(index)]
    except (ValueError, IndexError):
        raise Rejected(["That button is not one of this table's."]) from None
    return adding.Event(player=player, event=kind, target=int(target) if target else None)


@login_required
@require_http_methods(["GET", "POST"])
def round_edit(request: AuthedRequest, public_id: str, number: int) -> HttpResponse:
    game = _get_session_for_user(request, public_id)
    stored = list(game.rounds.all())
    if game.family != Family.ADDING or not 1 <= number <= len(stored):
        raise Http404("No such round")
    rules = adding_rules(game)
    events = round_entries(game)[number - 1].events
    form = RoundEventForm(rules=rules)
    if request.method == "POST":
        revision = _int(request.POST.get("revision", ""))
        changed: tuple[adding.Event, ...] | None = None
        if "remove" in request.POST:
            position = _int(request.POST["remove"])
            changed = tuple(e for i, e in enumerate(events) if i != position)
        else:
            form = RoundEventForm(request.POST, rules=rules)
            if form.is_valid():
                changed = (*events, form.entered_event())
        if changed is not None:
            try:
                before, after = edit_round(
                    session=game,
                    number=number,
                    revision=revision,
                    events=changed,
                    by_user=request.user,
                )
            except (Conflict, Rejected) as error:
                messages.error(request, str(error))
            else:
                for line in describe_round_changes(before, after, number):
                    messages.success(request, line)
            return redirect("round_edit", game.public_id, number)
    result = adding.score_session(rules, round_entries(game))
    ctx = {
        "game": game,
        "number": number,
        "revision": stored[number - 1].revision,
        "played": result.rounds[number - 1],
        "labels": [event_label(rules, effect.event) for effect in result.rounds[number - 1].events],
        "form": form,
    }
    return render(request, "scorekeeper/round_edit.html", ctx)
