import logging
import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.middleware import gzip
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.csp import ContentSecurityPolicyMiddleware
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from scorekeeper.http import DATABASE_UNAVAILABLE, database_unavailable
from scorekeeper.ratelimit import LinkGone, TooManyGuesses

logger = logging.getLogger(__name__)


class GZipMiddleware(gzip.GZipMiddleware):
    """Django's, except for an event stream (views.live.events), sent as it is.

    Its events are a line or two each, sent one at a time: gzip made none of them shorter, and
    each stream held a compressor of its own for as long as it was open (about 95 KB of the
    streams process's memory a stream, measured with 400 streams open in one process)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


class LinkMiddleware:
    """Answer a link that opens nothing with the app's own page (404), in development too, and
    an address that asked for too many of them with 429."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

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


# A link's poll: /w/<token>/live/, /s/<token>/live/, /w/<token>/display/live/.
_POLL = re.compile(r"/(w|s)/([^/]+)/(?:display/)?live/")
_POLL_COLUMN = {"w": "watch_token", "s": "scorer_token"}


class PollFastPathMiddleware:
    """Answer a link's unchanged poll (304) before the rest of the stack runs.

    Most requests of a live table are a phone asking "still version N?" every few seconds. The
    answer needs the version (one SQL statement) and the phone's language (the ETag names it,
    as the fragment is in that language); it needs no login session, user, CSRF check, messages
    or URL resolving, which cost an unchanged poll more than its query did (manage.py
    bench_instructions). So, placed after SecurityMiddleware (its HTTPS redirect and headers
    still apply) and before the session, this answers such a poll at once when the phone
    already shows the link's version, with the headers the full stack gives a 304 (frame and
    content security policies, Vary, Content-Language). Anything else goes the usual way,
    unchanged: a changed version, a link that opens nothing (counted and answered 404 by the
    views, as before), a revoked link, or a database that cannot be reached (503). The version
    read here stays with the request (`access.link_version`): the view does not read it again.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # The response side of the middleware that this skips and that adds headers to a 304.
        self.headers = [
            XFrameOptionsMiddleware(get_response).process_response,
            ContentSecurityPolicyMiddleware(get_response).process_response,
        ]

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.unchanged(request) or self.get_response(request)

    def unchanged(self, request: HttpRequest) -> HttpResponse | None:
        if request.method != "GET" or "HTTP_IF_NONE_MATCH" not in request.META:
            return None
        found = _POLL.fullmatch(request.path_info)
        if found is None:
            return None
        # Here to keep the modules that import middleware light (views import models).
        from scorekeeper.views.access import link_version
        from scorekeeper.views.live import live_headers, shows

        language = translation.get_language_from_request(request)
        try:
            version = link_version(request, _POLL_COLUMN[found[1]], found[2])
        except DATABASE_UNAVAILABLE:
            return None  # the usual way answers 503
        if version is None or not shows(request, version, language):
            return None
        # The headers the poll's views, then the middleware after this one, give a 304.
        response = live_headers(HttpResponseNotModified(), version, language)
        add_never_cache_headers(response)
        response["Content-Length"] = "0"
        patch_vary_headers(response, ("Accept-Language",))
        response["Content-Language"] = language
        for add_headers in self.headers:
            response = add_headers(request, response)
        return response
