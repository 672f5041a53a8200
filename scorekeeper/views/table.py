"""The table-side screens of a session, for its owner; the scorer and watch links reuse them.

The table page and the correction page differ by game family (a deal form, or tap buttons):
`SCREENS` is the registry that finds a session's screen module (`Screens`: `page()` and
`correct()`). The rest (the live region, the grid of every deal or round, the history) is one
screen for both families, shaped by the family's presenter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper import live
from scorekeeper.http import AuthedRequest, HtmxHttpRequest
from scorekeeper.presenters.common import grid_page
from scorekeeper.presenters.history import history
from scorekeeper.presenters.registry import presenter, template
from scorekeeper.rules import adding, trick
from scorekeeper.views import deals, rounds
from scorekeeper.views.access import Table, owner_table, owner_version
from scorekeeper.views.live import region


class Screens(Protocol):
    """A family's table-side screens (`views/deals.py`, `views/rounds.py`)."""

    def page(self, request: HtmxHttpRequest, table: Table, /) -> HttpResponse:
        """The table page."""
        ...

    def correct(self, request: HtmxHttpRequest, table: Table, number: int, /) -> HttpResponse:
        """The page that corrects deal or round `number`."""
        ...


# Each family's table-side screens, by the family's id.
SCREENS: dict[str, Screens] = {trick.ID: deals, adding.ID: rounds}


def table_page_headers[V: Callable[..., HttpResponseBase]](view: V) -> V:
    """A table page (the owner's, the scorer and watch links'): no cache but the phone's keeps
    it (private), and none shows it without asking the server again (no-cache). It is not
    no-store: the service worker keeps the last copy, to show offline as a copy
    (`kept_offline`, which a link's headers leave as it is: `http.link_headers`)."""
    view.kept_offline = True  # type: ignore[attr-defined]
    kept: V = cache_control(private=True, no_cache=True, must_revalidate=True, max_age=0)(view)
    return kept


def table_page(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """The table page of this phone: the family's screen."""
    return SCREENS[table.session.family].page(request, table)


def correction(request: HtmxHttpRequest, table: Table, number: int, unit: str) -> HttpResponse:
    """The page that corrects deal or round `number` (404 for the other family's unit)."""
    if table.session.unit != unit:
        raise Http404("No such deal or round")
    return SCREENS[table.session.family].correct(request, table, number)


def grid(request: HttpRequest, table: Table, unit: str) -> HttpResponse:
    """Every deal or round of the session, a page at a time."""
    session = table.session
    if session.unit != unit:
        raise Http404("No such grid")
    shown = presenter(session.family)
    result = live.result(session)
    page = grid_page(shown.played(result), request.GET.get("page"))
    ctx = {
        "table": table,
        "session": session,
        "base": table.base,
        "unit": unit,
        "result": result,
        "grid_template": template(session.family, "grid"),
        "page": page,
        "row_count": page.paginator.count,
        **shown.grid_context(list(page.object_list), result),
    }
    return render(request, "scorekeeper/grid_page.html", ctx)


# The owner's views


@login_required
@require_http_methods(["GET", "POST"])
@table_page_headers
def session(request: AuthedRequest, public_id: str) -> HttpResponse:
    return table_page(request, owner_table(request, public_id))


@login_required
@require_http_methods(["GET", "POST"])
def session_correction(
    request: AuthedRequest, public_id: str, number: int, unit: str
) -> HttpResponse:
    return correction(request, owner_table(request, public_id), number, unit)


@login_required
@require_GET
def session_live(request: AuthedRequest, public_id: str) -> HttpResponse:
    version = owner_version(request, public_id)
    return live.not_modified(request, version) or region(request, owner_table(request, public_id))


@login_required
@require_GET
def session_grid(request: AuthedRequest, public_id: str, unit: str) -> HttpResponse:
    return grid(request, owner_table(request, public_id), unit)


@login_required
@require_GET
def session_history(request: AuthedRequest, public_id: str) -> HttpResponse:
    table = owner_table(request, public_id)
    ctx = {"session": table.session, "base": table.base, "changes": history(table.session)}
    return render(request, "scorekeeper/session_history.html", ctx)
