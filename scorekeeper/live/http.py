"""Conditional GET by version: a phone polls with the ETag of the version it shows, and an
unchanged session answers 304 with no body after one small query, before any template is
rendered or the session is loaded (the view's `not_modified`). A phone whose event stream is
open does not poll (static/js/live.js), so the polls left are those of phones without one."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language


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
