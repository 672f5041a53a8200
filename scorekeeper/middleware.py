import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scorekeeper.table import TooManyGuesses

logger = logging.getLogger(__name__)


class TooManyGuessesMiddleware:
    """Answer 429 to an address that asked for too many links that do not exist."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, TooManyGuesses):
            return render(request, "429.html", status=429)
        return None


class DatabaseUnavailableMiddleware:
    """Answer 503 ("try again") when the database is out of reach, not 500.

    A restarting PostgreSQL or a SQLite file locked past its timeout raises
    OperationalError or InterfaceError. The request's transaction rolled back, so
    nothing was half saved, and sending the same form again is safe: its idempotency
    key stores it once. The page says so, with no database behind it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.warning("Database unavailable: %s %s: %s", request.method, request.path, exception)
        sent = request.method == "POST"
        response = render(request, "503.html", {"sent": sent}, status=503)
        response["Retry-After"] = "5"
        return response
