import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware import gzip
from django.shortcuts import render

from scorekeeper.http import DATABASE_UNAVAILABLE, database_unavailable, link_headers
from scorekeeper.owner import ENDS_HEADER, MARK_HEADER, owner_mark, seconds_left
from scorekeeper.ratelimit import LinkGone, TooManyGuesses

logger = logging.getLogger(__name__)


class GZipMiddleware(gzip.GZipMiddleware):
    """Django's, except for an event stream (views.live.events), sent as it is.

    Its events are a line or two each, sent one at a time: gzip makes none of them shorter,
    and each stream would hold a compressor of its own for as long as it is open, memory that
    the streams process pays for every phone (BENCHMARKS.md, What an open stream holds)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


class OwnerMarkMiddleware:
    """Mark every page with whose it is (scorekeeper.owner): the service worker keeps a copy
    under that mark, and deletes the copies of other accounts when a page of another mark
    comes (templates/cheatsheets/sw.js). A part of a page (htmx) is not a page, and an error
    of the server's says nothing of who is logged in."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            "HTTP_HX_REQUEST" not in request.META
            and response.status_code < 500
            and response.get("Content-Type", "").startswith("text/html")
        ):
            response[MARK_HEADER] = owner_mark(request)
            left = seconds_left(request)
            if left is not None:
                response[ENDS_HEADER] = str(left)
        return response


class LinkMiddleware:
    """Give every answer to a link (a URL with a token) the headers links promise
    (`http.link_headers`), and answer a link that opens nothing with the app's own page
    (404), in development too, and an address that asked for too many of them with 429."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = request.resolver_match
        if match is not None and "token" in match.kwargs:
            page = response.status_code == 200 and getattr(match.func, "kept_offline", False)
            link_headers(response, kept_offline=page)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, TooManyGuesses):
            return render(request, "429.html", status=429)
        if isinstance(exception, LinkGone):
            return render(request, "link_gone.html", status=404)
        return None


class UnreadableRulesMiddleware:
    """Answer a page of a stored session whose rules are no longer accepted (a value stored
    before the bounds existed) with a page saying what is wrong and what can still be done
    (409), not 500. The view raising it had already checked who may see the session."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # Here to keep the modules that import middleware light (views import models).
        from scorekeeper.models import UnreadableRules
        from scorekeeper.views.unreadable import unreadable_session

        if not isinstance(exception, UnreadableRules):
            return None
        return unreadable_session(request, exception)


class DatabaseUnavailableMiddleware:
    """Answer 503 ("try again") when the database is out of reach, not 500.

    A restarting PostgreSQL or a SQLite file locked past its timeout raises
    OperationalError or InterfaceError. The request's transaction rolled back, so
    nothing was half saved, and sending the same form again is safe: its idempotency
    key stores it once. (The same error after the view, saving the login session, is
    answered by scorekeeper.views.site.server_error.)
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_UNAVAILABLE):
            return None
        logger.warning("Database unavailable: %s %s: %s", request.method, request.path, exception)
        return database_unavailable(request)
