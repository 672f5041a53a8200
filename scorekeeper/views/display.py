"""The table display: the standings in big numbers for a tablet in the middle of the table.

Reached from a watch link (`/w/<token>/display/`, no account) or by the session's owner
(`/sessions/<id>/display/`). It is the watch page's live region with another fragment: it
polls with the ETag of the version it shows and gets 304 while nothing changed, like every
live region (views/live.py). What it shows is the family's presenter's `board()`, so the
page serves both families alike.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scorekeeper import live
from scorekeeper.http import AuthedRequest, HtmxHttpRequest
from scorekeeper.presenters.registry import presenter
from scorekeeper.views.access import Table, owner_table, owner_version, version_by, watch_table
from scorekeeper.views.live import live_context

PAGE = "display/"  # below the table's (or the watch link's) own URL
FRAGMENT = "scorekeeper/display_board.html"
SCRIPTS = ("js/live.js", "js/display.js")


def _context(table: Table) -> dict[str, object]:
    session = table.session
    shown = presenter(session.family)
    result = live.result(session)
    return {
        **live_context(table, page=PAGE, fragment=FRAGMENT),
        "board": shown.board(result),
        **shown.counter_context(session, result),
        "scripts": SCRIPTS,
    }


def display(
    request: HtmxHttpRequest, table: Table, shared: dict[str, object] | None = None
) -> HttpResponse:
    """The display's page; a watch link's is kept for every phone (`live.page`, `shared`)."""
    response = render(request, "scorekeeper/display.html", {**_context(table), **(shared or {})})
    response["X-Robots-Tag"] = "noindex"
    return response


def display_live(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    response = render(request, "scorekeeper/live.html", _context(table))
    return live.live_headers(response, table.session.version)


# The owner's


@login_required
@require_GET
def session_display(request: AuthedRequest, public_id: str) -> HttpResponse:
    return display(request, owner_table(request, public_id))


@login_required
@require_GET
def session_display_live(request: AuthedRequest, public_id: str) -> HttpResponse:
    version = owner_version(request, public_id)
    return live.not_modified(request, version) or display_live(
        request, owner_table(request, public_id)
    )


# A watch link's: read-only, no account


@require_GET
@never_cache
def watch_display(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The same page for every phone holding the link: rendered once a version."""
    version = version_by(request, watch_token=token)
    path = reverse("watch_display", args=[token])
    response = live.page(
        request, path, version, lambda shared: display(request, watch_table(request, token), shared)
    )
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
@never_cache
def watch_display_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    version = version_by(request, watch_token=token)
    return live.not_modified(request, version) or display_live(request, watch_table(request, token))
