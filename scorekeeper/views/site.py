"""The pages that belong to no screen group: home, the colour and language switches, health, the
manifest, and the answer to an error outside a view."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    HttpResponseServerError,
)
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import languages
from scorekeeper.context_processors import THEME_COOKIE, THEMES
from scorekeeper.http import DATABASE_UNAVAILABLE, database_unavailable
from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night

CONTINUE_SESSIONS = 3  # the sessions (and club nights) in progress the home page offers to continue


def same_site_post[V: Callable[..., HttpResponse]](view: V) -> V:
    """A form that posts without a CSRF token: the colour and language switches, in the footer
    of every page, pages kept for every phone that holds a link among them (those hold no
    token: scorekeeper/live/pages.py). A post another site's page makes is refused (403) by
    what the browser says of where it comes from: Sec-Fetch-Site, else Origin (which Django's
    CSRF check compares with the site too). Either switch only sets a preference of
    the phone (and the account's language), and leads back to a page of this site."""

    @wraps(view)
    def checked(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.method == "POST" and not _from_this_site(request):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return cast(V, csrf_exempt(checked))


def _from_this_site(request: HttpRequest) -> bool:
    fetched_from = request.headers.get("Sec-Fetch-Site")
    if fetched_from is not None:
        return fetched_from in ("same-origin", "none")  # "none": typed or a bookmark
    origin = request.headers.get("Origin")
    if origin is None:  # a browser too old to say, or no browser: nothing a site can make
        return True
    trusted = {f"{request.scheme}://{request.get_host()}", *settings.CSRF_TRUSTED_ORIGINS}
    return origin in trusted


def safe_next(request: HttpRequest, fallback: str) -> str:
    """The page to go back to, if it is on this site; else `fallback`."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        # A server nobody has an account on yet (scripts/run's first start): the host's turn.
        first_start = not get_user_model().objects.exists()
        return render(request, "scorekeeper/welcome.html", {"first_start": first_start})
    players = Player.objects.for_user(request.user).active()
    playing = (
        GameSession.objects.for_user(request.user)
        .in_progress()
        .with_counts()
        .prefetch_related("seats__player")
        .order_by("-updated")[:CONTINUE_SESSIONS]
    )
    nights = Night.objects.for_user(request.user).filter(finished=False)[:CONTINUE_SESSIONS]
    ctx = {"player_count": players.count(), "playing": playing, "nights": nights}
    return render(request, "scorekeeper/home.html", ctx)


@require_POST
@same_site_post
def theme(request: HttpRequest) -> HttpResponse:
    chosen = request.POST.get("theme", "auto")
    if chosen not in THEMES:
        chosen = "auto"
    response: HttpResponse = HttpResponseRedirect(safe_next(request, reverse("home")))
    # Secure when the session cookie is (SECURE_COOKIES), as every cookie the app sets: over
    # HTTPS it never travels in the clear; over a table's plain HTTP it still comes back. Read
    # on the phone (static/js/theme.js), so not HttpOnly: it says nothing but a colour.
    response.set_cookie(
        THEME_COOKIE,
        chosen,
        max_age=365 * 24 * 3600,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
        httponly=False,
    )
    return response


@require_http_methods(["GET", "POST"])
@same_site_post
def language(request: HttpRequest) -> HttpResponse:
    """The footer's language switch: remembered on this phone (the language cookie) and, when
    logged in, on the account. GET shows the same choice on a page of its own.

    A code not offered in settings.LANGUAGES changes nothing; `next` leads back to the page
    the switch was on, never to another site.
    """
    back = safe_next(request, reverse("home"))
    if request.method == "GET":
        return render(request, "scorekeeper/language.html", {"next": back})
    response: HttpResponse = HttpResponseRedirect(back)
    chosen = languages.known(request.POST.get("language"))
    if chosen is not None:
        languages.remember(response, chosen)
        languages.store(request.user, chosen)
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
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and tools ask /favicon.ico whatever a page names: the app's icon, as a PNG
    (every browser shows one there; Safari shows no SVG). Sent on rather than copied, so it is
    the one static file, with its hashed name; kept for a day, so a new icon shows the next day.
    """
    return HttpResponseRedirect(static("icons/icon-192.png"))


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "manifest.webmanifest",
        content_type="application/manifest+json",
    )
