"""Conditional GET by version: a phone polls with the ETag of the version it shows, and an
unchanged session answers 304 with no body after one small query, before any template is
rendered or the session is loaded. A link's poll (a view marked `polled`) is answered so even
before the rest of the middleware (`UnchangedPollMiddleware`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.csp import ContentSecurityPolicyMiddleware
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from scorekeeper.http import DATABASE_UNAVAILABLE, link_headers
from scorekeeper.reads import version_or_none

V = TypeVar("V", bound=Callable[..., HttpResponseBase])


def etag(version: int, language: str | None = None) -> str:
    """The ETag of a version of the live region in a language (the active one by default):
    a French phone and an English one never take each other's copy. The site's own language
    is left out of it ("v12"; French "v12-fr")."""
    language = language or get_language()
    if language == settings.LANGUAGE_CODE:
        return f'"v{version}"'
    return f'"v{version}-{language}"'


def shows(request: HttpRequest, version: int) -> bool:
    """Whether the phone's If-None-Match names this version in the active language."""
    # Weak comparison (RFC 9110): gzip turns the ETag into W/"v…" on the way out.
    asked = request.META.get("HTTP_IF_NONE_MATCH", "").split(",")
    return etag(version) in (tag.strip().removeprefix("W/") for tag in asked)


def not_modified(request: HttpRequest, version: int) -> HttpResponse | None:
    """304 with no body when the phone already shows this version; None otherwise."""
    if shows(request, version):
        return live_headers(HttpResponseNotModified(), version)
    return None


def live_headers(response: HttpResponse, version: int) -> HttpResponse:
    """The headers of every answer of a live region: its version's ETag, and ask again every
    time (the ETag makes asking cheap)."""
    response["ETag"] = etag(version)
    patch_cache_control(response, no_cache=True, private=True)
    return response


def polled(column: str) -> Callable[[V], V]:
    """Mark a view as a link's live region, polled with its version's ETag: the session is
    the one whose `column` holds the route's `token`. `UnchangedPollMiddleware` answers such
    a poll 304 when nothing changed."""

    def mark(view: V) -> V:
        view.polled_by = column  # type: ignore[attr-defined]
        return view

    return mark


def link_version(request: HttpRequest, column: str, token: str) -> int | None:
    """The version of the session the link opens, read once a request: the middleware's
    reading when it made one for this link, else the database's."""
    read = getattr(request, "link_version", None)
    if read is not None and read[:2] == (column, token):
        return cast(int | None, read[2])
    return version_or_none(column, token)


class UnchangedPollMiddleware:
    """An unchanged poll of a link's live region answered 304 before the rest of the stack.

    Phones that watch a table ask every 30 s even while pushed to, and nearly every answer is
    "unchanged": the most frequent request at the table. The rest of the stack (sessions,
    language, CSRF, messages, the view's dispatch) does nothing for that answer, which needs
    one query (BENCHMARKS.md's register: a link's unchanged poll).

    The route is Django's own (`resolve`) and the view says which link it reads (`polled`), so
    only a poll that the view itself would answer 304 is answered here. It gets the headers
    the stack gives that answer: its ETag, the view's cache headers (`never_cache`) and a
    link's (`http.link_headers`); the
    language's (`Vary: Accept-Language`, `Content-Language`, as LocaleMiddleware sets them);
    its length; and those of the middleware below this one that only add headers to every
    answer (frame options, the content security policy). A test compares them with the
    stack's. Anything else (no such route, no such link, another version, the database out
    of reach) goes down the stack as usual, with the version read kept for the view
    (`link_version`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        # In the order the stack runs their answers: the one listed last first.
        self.headers = (
            ContentSecurityPolicyMiddleware(get_response),
            XFrameOptionsMiddleware(get_response),
        )

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method == "GET" and "HTTP_IF_NONE_MATCH" in request.META:
            unchanged = self.unchanged(request)
            if unchanged is not None:
                return unchanged
        return self.get_response(request)

    def unchanged(self, request: HttpRequest) -> HttpResponse | None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        column = getattr(match.func, "polled_by", None)
        if column is None:
            return None
        token = match.kwargs["token"]
        try:
            version = version_or_none(column, token)
        except DATABASE_UNAVAILABLE:
            return None
        request.link_version = (column, token, version)  # type: ignore[attr-defined]
        if version is None:
            return None
        language = translation.get_language_from_request(request)
        with translation.override(language):
            if not shows(request, version):
                return None
            response = live_headers(HttpResponseNotModified(), version)
        add_never_cache_headers(response)
        link_headers(response)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", language)
        response.headers["Content-Length"] = "0"  # as CommonMiddleware sets it
        for middleware in self.headers:
            response = middleware.process_response(request, response)
        return response
