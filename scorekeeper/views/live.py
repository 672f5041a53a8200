"""The live region of every table-side page: it asks for itself again every few seconds.

A phone polls with the ETag of the version it shows; an unchanged session answers 304 with
no body after one small query, before any template is rendered or the session is loaded. A
changed one sends the family's live fragment (standings, grid, next deal), rendered from the
result kept for that version.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils.cache import patch_cache_control

from scorekeeper.http import HtmxHttpRequest
from scorekeeper.presenters import presenter, template
from scorekeeper.views.access import Table

POLL_SECONDS = 3


def etag(version: int) -> str:
    return f'"v{version}"'


def live_context(table: Table, *, page: str = "", fragment: str = "") -> dict[str, object]:
    """What every live region needs: where to poll, the version it shows, its fragment.

    A page with a live region of its own (the table display) names the page it hangs below
    the table's (`page`: "display/", polled at "display/live/") and its `fragment`; the
    others take the family's live region, polled at "live/".
    """
    session = table.session
    return {
        "table": table,
        "session": session,
        "base": table.base,
        "live_url": table.url(f"{page}live/"),
        "etag": etag(session.version),
        "poll_seconds": POLL_SECONDS,
        "live_template": fragment or template(session.family, "live"),
    }


def live(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """The live region: standings, grid and next-deal banner, as one fragment."""
    session = table.session
    ctx = presenter(session).table_context(session.result())
    since = request.GET.get("since", "")
    ctx |= {
        "since": since,
        "stale": table.can_score and since not in ("", str(session.version)),
        "live_update": True,
    }
    response = render(request, "scorekeeper/live.html", {**live_context(table), **ctx})
    return live_headers(response, session.version)


def live_headers(response: HttpResponse, version: int) -> HttpResponse:
    response["ETag"] = etag(version)
    # Phones must ask again every time; the ETag makes asking cheap.
    patch_cache_control(response, no_cache=True, private=True)
    return response


def not_modified(request: HttpRequest, version: int) -> HttpResponse | None:
    """304 with no body when the phone already shows this version (checked before any
    template is rendered or the session is loaded)."""
    # Weak comparison (RFC 9110): gzip turns the ETag into W/"v…" on the way out.
    asked = request.headers.get("If-None-Match", "").split(",")
    if etag(version) in (tag.strip().removeprefix("W/") for tag in asked):
        return live_headers(HttpResponseNotModified(), version)
    return None
