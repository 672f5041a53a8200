from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scorekeeper.table import TooManyGuesses


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
