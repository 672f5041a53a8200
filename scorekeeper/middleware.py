import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader

from scorekeeper.ratelimit import LinkGone, TooManyGuesses

logger = logging.getLogger(__name__)


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


DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After, from a template that needs no database."""
    sent = request.method == "POST"
    page = loader.render_to_string("503.html", {"sent": sent})
    return HttpResponse(page, status=503, headers={"Retry-After": "5"})


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
