"""Seasons and ratings: a season's ladder of club nights, and every player's rating.

A season groups the owner's club nights of one game between two days (and, if they want, the
ordinary sessions of those days) into one standings table, the best nights of each player
counting; its watch link shows it on any phone. The club ladder lists every player's rating
per game, over all their games or one season's. Every page reads what is stored for it
(`club`), kept in step as the games change.
"""

from __future__ import annotations

import csv

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

from scorekeeper import live
from scorekeeper.club import reads
from scorekeeper.club.seasons import nights_of
from scorekeeper.forms.seasons import SeasonForm
from scorekeeper.http import AuthedRequest
from scorekeeper.models import FAMILY_CHOICES
from scorekeeper.night_models import Season
from scorekeeper.presenters import nights as presenter
from scorekeeper.presenters.common import spreadsheet_safe
from scorekeeper.presenters.ratings import ladder_lines
from scorekeeper.rules import night as rules
from scorekeeper.services.limits import AccountFull
from scorekeeper.services.seasons import (
    change_season,
    change_season_link,
    create_season,
    delete_season,
)
from scorekeeper.views.access import link_missing
from scorekeeper.views.links import LINK_ACTIONS, phone_site
from scorekeeper.views.live import POLL_SECONDS, POLL_TIMEOUT_SECONDS
from scorekeeper.views.players import post_data

SEASONS_PER_PAGE = 20


def season_for_user(request: AuthedRequest, public_id: str) -> Season:
    found = Season.objects.for_user(request.user).filter(public_id=public_id).first()
    if found is None:
        raise Http404("No such season")
    return found


@login_required
@require_http_methods(["GET", "POST"])
def seasons(request: AuthedRequest) -> HttpResponse:
    """The owner's seasons, and a new one."""
    form = SeasonForm(post_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            season = create_season(owner=request.user, season=form.save(commit=False))
        except AccountFull as full:
            form.add_error(None, full.lines)
        else:
            messages.success(request, _("Season %(name)s made.") % {"name": season.name})
            return redirect("season", season.public_id)
    mine = Season.objects.for_user(request.user)
    page = Paginator(mine, SEASONS_PER_PAGE).get_page(request.GET.get("page"))
    ctx = {"seasons": page, "page": page, "form": form}
    return render(request, "seasons/list.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def season_manage(request: AuthedRequest, public_id: str) -> HttpResponse:
    """Change what the season counts (its name, game, days, nights), and its link."""
    found = season_for_user(request, public_id)
    form = SeasonForm(instance=found)
    if request.method == "POST":
        action = request.POST.get("watch")
        if action in LINK_ACTIONS:
            change_season_link(season=found, action=action)
            messages.success(request, _link_message(action))
            return redirect("season_manage", public_id)
        form = SeasonForm(request.POST, instance=found)
        if "save" in request.POST and form.is_valid():
            change_season(season=form.save(commit=False))
            messages.success(request, _("The season is saved."))
            return redirect("season", public_id)
    site = phone_site(request)
    watch_url = (
        (site or "") + reverse("season_watch", args=[found.watch_token])
        if found.watch_token
        else None
    )
    ctx = {"season": found, "form": form, "watch_url": watch_url}
    return render(request, "seasons/manage.html", ctx)


def _link_message(action: str) -> str:
    if action == "off":
        return _("The season's link is off: it opens nothing now.")
    if action == "replace":
        return _("New link made for the season; the old one opens nothing now.")
    return _("The season's link is on.")


@login_required
@require_http_methods(["GET", "POST"])
def season_delete(request: AuthedRequest, public_id: str) -> HttpResponse:
    """Confirm, then delete the season (its nights and games stay)."""
    found = season_for_user(request, public_id)
    if request.method == "POST" and "delete" in request.POST:
        delete_season(season=found)
        messages.success(request, _("Deleted the season %(name)s.") % {"name": found.name})
        return redirect("seasons")
    return render(request, "seasons/delete.html", {"season": found})


NIGHTS_SHOWN = 20  # the season's latest nights, listed on its page
SCRIPTS = ("js/live.js",)


def _context(season: Season) -> dict[str, object]:
    nights = nights_of(season)
    shown = list(nights.reverse()[:NIGHTS_SHOWN])[::-1]
    return {
        "season": season,
        "rows": presenter.season_rows(reads.season_rows(season)),
        "nights": shown,
        "earlier_nights": nights.count() - len(shown) if len(shown) == NIGHTS_SHOWN else 0,
        "behind": season.ratings_behind,
        "best_rule": rules.BEST_RULE,
    }


def _season_page(
    request: HttpRequest, found: Season, owner: bool, live_url: str, events_url: str = ""
) -> HttpResponse:
    """The season's page, or (htmx) its live region at the season's version now: 304 if the
    phone shows it already, else the region rendered once a version for every phone; a link's
    phones hear of each new version by push (`events_url`)."""
    at = found.version
    if request.headers.get("HX-Request"):
        unchanged = live.not_modified(request, at)
        if unchanged is not None:
            return unchanged

    def rendered(template: str, shared: dict[str, object] | None = None) -> HttpResponse:
        ctx = {
            **_context(found),
            "owner": owner,
            "live_url": live_url,
            "events_url": events_url,
            "etag": live.etag(at),
            "poll_seconds": POLL_SECONDS,
            "poll_timeout_ms": POLL_TIMEOUT_SECONDS * 1000,
            "scripts": SCRIPTS,
            **(shared or {}),
        }
        return render(request, template, ctx)

    if request.headers.get("HX-Request"):
        return live.fragment(request, live_url, at, lambda: rendered("seasons/standings.html"))
    if owner:
        return live.live_headers(rendered("seasons/season.html"), at)
    # A link's page is the same for every phone holding it: rendered once a version.
    page = live.page(request, live_url, at, lambda shared: rendered("seasons/season.html", shared))
    return live.live_headers(page, at)


@login_required
@require_GET
def season(request: AuthedRequest, public_id: str) -> HttpResponse:
    found = season_for_user(request, public_id)
    return _season_page(request, found, True, reverse("season_live", args=[public_id]))


@login_required
@require_GET
def season_live(request: AuthedRequest, public_id: str) -> HttpResponse:
    return season(request, public_id)


@require_GET
def season_watch(request: HttpRequest, token: str) -> HttpResponse:
    found = Season.objects.filter(watch_token=token).first()
    if found is None:
        raise link_missing(request)
    url, events = reverse("season_watch_live", args=[token]), reverse("season_events", args=[token])
    return _season_page(request, found, False, url, events)


@require_GET
def season_watch_live(request: HttpRequest, token: str) -> HttpResponse:
    return season_watch(request, token)


@login_required
@require_GET
@never_cache
def season_csv(request: AuthedRequest, public_id: str) -> HttpResponse:
    found = season_for_user(request, public_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = f"{slugify(found.name) or 'season'}-{found.starts.isoformat()}"
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    csv.writer(response).writerows(
        spreadsheet_safe(presenter.season_csv_rows(reads.season_rows(found)))
    )
    return response


@login_required
@require_GET
def ladder(request: AuthedRequest) -> HttpResponse:
    """Every player's rating in each game, over all their games or one season's days."""
    chosen = request.GET.get("season", "")
    season = Season.objects.for_user(request.user).filter(public_id=chosen).first()
    if chosen and season is None:
        raise Http404("No such season")
    # A season is of one game: the ladder over its games shows that game alone.
    shown = FAMILY_CHOICES if season is None else [(season.family, season.get_family_display())]
    families = [
        {"label": label, "rows": ladder_lines(reads.ladder(request.user.pk, family_id, season))}
        for family_id, label in shown
    ]
    ctx = {
        "families": families,
        "season": season,
        "seasons": Season.objects.for_user(request.user),
    }
    return render(request, "seasons/ladder.html", ctx)
