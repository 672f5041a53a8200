"""Club nights: the organiser's pages, the room's leaderboard, and each table's link.

The organiser (the night's owner) creates a night, seats each round, follows every table's
progress, takes late arrivals and leavers, closes a table early, and ends the night. The room
follows one leaderboard: on a big screen (the display) and on every phone (the night's watch
link), both at the night's version (`live.nights`): its region is rendered once a version for
every screen, and a link's screens hear of a new version by push, as a table's phones do.
Each table has one scorer link for the whole night (`t/<token>/`): it opens that table's
session of the round being played.
"""

from __future__ import annotations

import csv
import json
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper import live as watched
from scorekeeper.club import reads
from scorekeeper.forms.nights import (
    CloseTableForm,
    EndNightForm,
    LatePlayerForm,
    NightForm,
    NightNameForm,
)
from scorekeeper.http import AuthedRequest
from scorekeeper.live import http as live_http
from scorekeeper.live import nights as live
from scorekeeper.models import GameSession, SavedRuleset
from scorekeeper.night_models import Night, NightTable, Season
from scorekeeper.presenters import nights as presenter
from scorekeeper.presenters.common import spreadsheet_safe
from scorekeeper.rules import night as rules
from scorekeeper.rules.registry import Family
from scorekeeper.services import Rejected, Who
from scorekeeper.services.limits import AccountFull
from scorekeeper.services.nights import (
    MATCH,
    add_player,
    change_night_link,
    close_table,
    create_night,
    delete_night,
    finish_night,
    has_points,
    history,
    remove_player,
    rename_night,
    round_over,
    start_round,
)
from scorekeeper.views.access import (
    SCORER_NAME_KEY,
    link_missing,
    player_for_user,
    ruleset_for_user,
    whole,
)
from scorekeeper.views.links import LINK_ACTIONS, no_site_cause, phone_site, qr_svg
from scorekeeper.views.live import POLL_SECONDS as POLL_EVERY
from scorekeeper.views.live import POLL_TIMEOUT_SECONDS
from scorekeeper.views.players import post_data
from scorekeeper.views.sessions import families, preset_of

NIGHTS_PER_PAGE = 20
# The room's screens poll as a table's phones do; a link's screens hear of a change by push and
# poll only as a safety net (static/js/live.js).
POLL_SECONDS = POLL_EVERY
POLL_TIMEOUT_MS = POLL_TIMEOUT_SECONDS * 1000
SCRIPTS = ("js/live.js",)
# The big screen pages its long lists by itself (static/js/display.js), a page this long.
DISPLAY_SCRIPTS = (*SCRIPTS, "js/display.js")
PAGE_SECONDS = 10


def night_for_user(request: AuthedRequest, public_id: str) -> Night:
    """One of the user's nights; 404 for anybody else's."""
    night = Night.objects.for_user(request.user).filter(public_id=public_id).first()
    if night is None:
        raise Http404("No such night")
    return night


def _watched(request: HttpRequest, token: str) -> Night:
    night = Night.objects.filter(watch_token=token).first()
    if night is None:
        raise link_missing(request)
    return night


# The list, and a new night


@login_required
@require_GET
def nights(request: AuthedRequest) -> HttpResponse:
    mine = Night.objects.for_user(request.user)
    page = Paginator(mine, NIGHTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "nights/list.html", {"nights": page, "page": page})


@login_required
@require_GET
def night_new(request: AuthedRequest) -> HttpResponse:
    """Pick the rules every table plays: the user's saved rulesets, then every preset."""
    saved = [ruleset for ruleset in SavedRuleset.objects.for_user(request.user) if ruleset.preset]
    return render(request, "nights/new.html", {"families": families(), "saved": saved})


@login_required
@require_http_methods(["GET", "POST"])
def night_start(request: AuthedRequest, family: str, preset_id: str) -> HttpResponse:
    game, preset = preset_of(family, preset_id)
    return _create(request, game, preset, None)


@login_required
@require_http_methods(["GET", "POST"])
def night_start_saved(request: AuthedRequest, ruleset_id: int) -> HttpResponse:
    saved = ruleset_for_user(request, ruleset_id)
    return _create(request, saved.rules_family, saved.preset, saved)


def _create(
    request: AuthedRequest, game: Family, preset: Any, saved: SavedRuleset | None
) -> HttpResponse:
    options = dict(saved.options) if saved is not None else {}
    sizes = tuple(preset.players)
    points = has_points(game.ID, preset.id, options, sizes[0])
    form = NightForm(
        post_data(request),
        owner=request.user,
        sizes=sizes,
        counts_deals=MATCH in game.OPTION_NAMES,
        methods=rules.methods_for(points),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            night = create_night(
                owner=request.user,
                name=data["name"],
                played_on=data["played_on"],
                family=game.ID,
                ruleset=preset.id,
                options=options,
                least=data["least"],
                most=data["most"],
                deals=data.get("deals"),
                rounds=data["rounds"],
                method=data["method"],
                swiss_from=data["swiss_from"],
                prizes=data["prizes"],
                players=list(data["players"]),
                new_names=form.new_names,
                saved_ruleset=saved,
            )
        except Rejected as refused:
            form.add_error(None, refused.lines)
        else:
            messages.success(request, _("The night is ready: seat round 1 when everyone is in."))
            return redirect("night", night.public_id)
    fixed_size = sizes[0] if len(sizes) == 1 else None
    ctx = {"form": form, "preset": preset, "saved": saved, "family": game, "fixed_size": fixed_size}
    return render(request, "nights/form.html", ctx)


# The organiser's page


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def night(request: AuthedRequest, public_id: str) -> HttpResponse:
    """The night as its organiser runs it: every table of the round, the players, the
    leaderboard, and what to do next."""
    found = night_for_user(request, public_id)
    board = live.board(found)
    playing = {entry.player_id for entry in found.players.all() if entry.left is None}
    late_form = LatePlayerForm(owner=request.user, playing=playing)
    close_form = CloseTableForm()
    end_form = EndNightForm()
    if request.method == "POST":
        post = request.POST
        try:
            if "start" in post:
                found = start_round(night=found, standings=[line.player for line in board.lines])
                messages.success(
                    request, _("Round %(number)s is seated.") % {"number": found.round}
                )
                return redirect("night", public_id)
            if "finish" in post:
                finish_night(night=found)
                messages.success(request, _("The night is over: here are the final standings."))
                return redirect("night", public_id)
            if "end_early" in post:
                end_form = EndNightForm(post)
                if end_form.is_valid():
                    reason = end_form.cleaned_data["reason"]
                    finish_night(night=found, reason=reason, who=Who(request.user))
                    messages.success(request, _("The night is over: here are the final standings."))
                    return redirect("night", public_id)
            if "leave" in post:
                player = player_for_user(request, whole(post["leave"]))
                remove_player(night=found, player=player)
                messages.success(
                    request, _("%(name)s plays no more rounds.") % {"name": player.name}
                )
                return redirect("night", public_id)
            if "arrive" in post:
                late_form = LatePlayerForm(post, owner=request.user, playing=playing)
                if late_form.is_valid():
                    data = late_form.cleaned_data
                    entry = add_player(night=found, player=data["player"] or data["name"])
                    messages.success(
                        request,
                        _("%(name)s plays from round %(number)s.")
                        % {"name": entry.player.name, "number": entry.joined},
                    )
                    return redirect("night", public_id)
            if "close" in post:
                close_form = CloseTableForm(post)
                session = GameSession.objects.filter(
                    night=found, public_id=post.get("close", "")
                ).first()
                if session is None:
                    raise Http404("No such table")
                if close_form.is_valid():
                    close_table(
                        night=found,
                        session=session,
                        reason=close_form.cleaned_data["reason"],
                        who=Who(request.user),
                    )
                    messages.success(
                        request,
                        _("Table %(number)s is closed: it counts as it stands.")
                        % {"number": session.night_table},
                    )
                    return redirect("night", public_id)
        except (Rejected, AccountFull) as refused:
            for line in refused.lines:
                messages.error(request, line)
            return redirect("night", public_id)
    over = not found.finished and round_over(found)  # the next step may be taken
    over_at_last = over and found.round >= found.rounds
    ctx = {
        **_context(request, found, board),
        "late_form": late_form,
        "close_form": close_form,
        "end_form": end_form,
        "can_end_early": not found.finished and found.round and not over_at_last,
        "can_start": over and found.round < found.rounds,
        "can_finish": over_at_last,
        "players": found.players.select_related("player"),
        "most_met": rules.most_met(history(found, found.round + 1)),
        "live_url": reverse("night_display", args=[public_id]),
        "scripts": SCRIPTS,
    }
    # Each table its own form (its own ids, written out by the template); the one whose
    # closing was refused comes back open, saying why, at its reason.
    closing = request.POST.get("close", "") if close_form.is_bound else ""
    for item in cast(list[dict[str, Any]], ctx["tables"]):
        item["close_form"] = close_form if item["table"].session == closing else None
    ctx["close_reason"] = CloseTableForm.base_fields["reason"]
    return render(request, "nights/night.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def night_manage(request: AuthedRequest, public_id: str) -> HttpResponse:
    """The night's name, and its links: the room's link and each table's card, each turned
    on, replaced or turned off."""
    found = night_for_user(request, public_id)
    name_form = NightNameForm(initial={"name": found.name})
    if request.method == "POST":
        post = request.POST
        if "rename" in post:
            name_form = NightNameForm(post)
            if name_form.is_valid():
                rename_night(night=found, name=name_form.cleaned_data["name"])
                messages.success(
                    request,
                    _("The night is called %(name)s now.")
                    % {"name": name_form.cleaned_data["name"]},
                )
                return redirect("night_manage", public_id)
        elif post.get("watch") in LINK_ACTIONS:
            change_night_link(night=found, action=post["watch"])
            messages.success(request, _night_link_message(post["watch"]))
            return redirect("night_manage", public_id)
        elif post.get("card") in LINK_ACTIONS:
            number = whole(post.get("table", ""))
            table = NightTable.objects.filter(night=found, number=number).first()
            if table is None:
                raise Http404("No such table")
            change_night_link(night=found, action=post["card"], table=table)
            messages.success(request, _card_message(post["card"]) % {"number": number})
            return redirect("night_manage", public_id)
    site = phone_site(request)
    cards = [
        {"number": table.number, "on": table.scorer_token is not None}
        for table in NightTable.objects.filter(night=found)
    ]
    watch_url = (
        (site or "") + reverse("night_watch", args=[found.watch_token])
        if found.watch_token
        else None
    )
    ctx = {"night": found, "name_form": name_form, "cards": cards, "watch_url": watch_url}
    return render(request, "nights/manage.html", ctx)


def _night_link_message(action: str) -> str:
    if action == "off":
        return _("The night's link is off: it opens nothing now.")
    if action == "replace":
        return _("New link made for the night; the old one opens nothing now.")
    return _("The night's link is on.")


def _card_message(action: str) -> str:
    if action == "off":
        return _("Table %(number)s's card is off: it opens nothing now.")
    if action == "replace":
        return _(
            "New link made for table %(number)s: print its card again; the old card opens "
            "nothing now."
        )
    return _("Table %(number)s's card is on again, with a new link: print its card again.")


@login_required
@require_http_methods(["GET", "POST"])
def night_delete(request: AuthedRequest, public_id: str) -> HttpResponse:
    """Confirm, then delete the night for good with every table it seated."""
    found = night_for_user(request, public_id)
    if request.method == "POST" and "delete" in request.POST:
        delete_night(night=found)
        messages.success(request, _("Deleted the night %(name)s for good.") % {"name": found.name})
        return redirect("nights")
    tables = GameSession.objects.filter(night=found)
    in_seasons = Season.objects.filter(
        owner=found.owner,
        family=found.family,
        starts__lte=found.played_on,
        ends__gte=found.played_on,
    )
    ctx = {
        "night": found,
        "tables": tables.count(),
        "counted": tables.filter(finished=True, deleted__isnull=True).count(),
        "seasons": in_seasons if found.round else Season.objects.none(),
    }
    return render(request, "nights/delete.html", ctx)


def _context(request: HttpRequest, found: Night, board: live.Board) -> dict[str, object]:
    """What every page of the night shows: the leaderboard, its method, the tables."""
    method = presenter.method_of(found)
    return {
        "night": found,
        "board": board,
        "rows": presenter.rows(found, board),
        "method": method,
        "bye_rule": rules.BYE_RULE,
        "tables": [
            {"table": table, "progress": presenter.progress(found, table)}
            for table in board.round_tables(found.round)
        ],
        "byes_now": board.byes.get(found.round, ()),
        "round_length": presenter.round_length(found),
        "table_size": presenter.table_size(found),
        "etag": live_http.etag(board.version),
        "poll_seconds": POLL_SECONDS,
        "poll_timeout_ms": POLL_TIMEOUT_MS,
    }


# The leaderboard: the organiser's display, the night's watch link, and their live regions


def _board_page(
    request: HttpRequest,
    found: Night,
    template: str,
    live_url: str,
    scripts: tuple[str, ...],
    events_url: str = "",
) -> HttpResponse:
    """The leaderboard's page, or (htmx) its live region at the night's version now: 304 if
    the screen shows it already, else the region rendered once a version for every screen;
    a link's screens hear of each new version by push (`events_url`), and its page is kept
    once a version for every phone and screen."""
    at = live.version(found)
    if request.headers.get("HX-Request"):
        unchanged = live_http.not_modified(request, at)
        if unchanged is not None:
            return unchanged

    def rendered(template: str, shared: dict[str, object] | None = None) -> HttpResponse:
        board = live.board(found, at)
        ctx = {
            **_context(request, found, board),
            "live_url": live_url,
            "events_url": events_url,
            "scripts": scripts,
            "page_seconds": PAGE_SECONDS,
            **(shared or {}),
        }
        site = phone_site(request)
        if site and found.watch_token:
            # The big screen carries the night's link as a QR code for the room's phones.
            ctx["watch_qr"] = qr_svg(site + reverse("night_watch", args=[found.watch_token]))
        return render(request, template, ctx)

    if request.headers.get("HX-Request"):
        return watched.fragment(request, live_url, at, lambda: rendered("nights/board.html"))
    if not events_url:  # the organiser's own
        return live_http.live_headers(rendered(template), at)
    # A link's page is the same for every phone and screen holding it (the QR code says the
    # address the phones open, the same for all): rendered once a version.
    page = watched.page(request, live_url, at, lambda shared: rendered(template, shared))
    return live_http.live_headers(page, at)


@login_required
@require_GET
def night_display(request: AuthedRequest, public_id: str) -> HttpResponse:
    found = night_for_user(request, public_id)
    url = reverse("night_display", args=[public_id])
    return _board_page(request, found, "nights/display.html", url, DISPLAY_SCRIPTS)


@require_GET
def night_watch(request: HttpRequest, token: str) -> HttpResponse:
    found = _watched(request, token)
    url, events = reverse("night_watch", args=[token]), reverse("night_events", args=[token])
    return _board_page(request, found, "nights/watch.html", url, SCRIPTS, events)


@require_GET
def night_watch_display(request: HttpRequest, token: str) -> HttpResponse:
    found = _watched(request, token)
    url = reverse("night_watch_display", args=[token])
    events = reverse("night_events", args=[token])
    return _board_page(request, found, "nights/display.html", url, DISPLAY_SCRIPTS, events)


# Printed: table cards, the round sheet, the results


@login_required
@require_GET
@never_cache
def night_cards(request: AuthedRequest, public_id: str) -> HttpResponse:
    """A card for each table: its number, its QR code and link, and who sits there in round 1
    (the link opens the table's session of whichever round is being played)."""
    found = night_for_user(request, public_id)
    board = live.board(found)
    site = phone_site(request)
    first = {table.number: table.players for table in board.round_tables(1)}
    cards = []
    for table in NightTable.objects.filter(night=found):
        url = (site or "") + reverse("night_table", args=[table.scorer_token])
        cards.append(
            {
                "number": table.number,
                "url": url,
                "qr": qr_svg(url) if site else "",
                "players": first.get(table.number, ()),
            }
        )
    ctx = {"night": found, "cards": cards, "site": site, **no_site_cause()}
    return render(request, "nights/cards.html", ctx)


@login_required
@require_GET
def night_sheet(request: AuthedRequest, public_id: str) -> HttpResponse:
    """Who sits where in every round so far, and the results: to print."""
    found = night_for_user(request, public_id)
    board = live.board(found)
    ctx = {**_context(request, found, board), "rounds": presenter.seating_rows(found, board)}
    return render(request, "nights/sheet.html", ctx)


def _file_name(found: Night) -> str:
    return f"{slugify(found.name) or 'night'}-{found.played_on.isoformat()}"


@login_required
@require_GET
@never_cache
def night_csv(request: AuthedRequest, public_id: str) -> HttpResponse:
    found = night_for_user(request, public_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_file_name(found)}.csv"'
    rows = presenter.csv_rows(found, live.board(found))
    csv.writer(response).writerows(spreadsheet_safe(rows))
    return response


@login_required
@require_GET
@never_cache
def night_json(request: AuthedRequest, public_id: str) -> HttpResponse:
    found = night_for_user(request, public_id)
    data = presenter.data(found, live.board(found))
    data["seasons"] = [
        presenter.season_data(season.name, reads.season_rows(season))
        for season in Season.objects.filter(
            owner=found.owner,
            family=found.family,
            starts__lte=found.played_on,
            ends__gte=found.played_on,
        )
    ]
    text = json.dumps(data, ensure_ascii=False, indent=2)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_file_name(found)}.json"'
    return response


# A table's link for the whole night


@require_GET
@never_cache
def night_table(request: HttpRequest, token: str) -> HttpResponse:
    """A table's card: the table's session of the round being played, under the name this
    phone gave in an earlier round (it is asked once a night, not once a round)."""
    table = NightTable.objects.select_related("night").filter(scorer_token=token).first()
    if table is None:
        raise link_missing(request)
    found = table.night
    sessions = GameSession.objects.filter(night=found, night_table=table.number)
    now = sessions.filter(night_round=found.round, deleted__isnull=True).first()
    if found.finished or now is None or now.scorer_token is None:
        ctx = {
            "night": found,
            "table": table,
            "watch": reverse("night_watch", args=[found.watch_token])
            if found.watch_token
            else None,
        }
        return render(request, "nights/table_waits.html", ctx)
    names: dict[str, str] = request.session.get(SCORER_NAME_KEY, {})
    if now.scorer_token not in names:
        earlier = sessions.exclude(pk=now.pk).values_list("scorer_token", flat=True)
        typed = next((names[token] for token in earlier if token in names), "")
        if typed:
            request.session[SCORER_NAME_KEY] = {**names, now.scorer_token: typed}
    return redirect("scorer", now.scorer_token)
