"""The live region of every table-side page: it asks for itself again every few seconds, and a
watch or scorer link's page hears of each new version by push.

A phone polls with the ETag of the version it shows; an unchanged session answers 304 with
no body after one small query, before any template is rendered or the session is loaded. A
changed one sends the family's live fragment (standings, grid, next deal), rendered from the
result kept for that version; a watch link's is rendered once per version for every phone
holding the link (`live.fragment`).
"""

from __future__ import annotations

from functools import partial

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

from scorekeeper import live
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.live.streams import on_reader, opened, stream
from scorekeeper.models import new_link_token
from scorekeeper.night_models import NightTable
from scorekeeper.presenters.registry import presenter, template
from scorekeeper.views.access import Table, link_missing

POLL_SECONDS = 3
# A poll with no answer by then is given up (and the page says the table cannot be reached):
# a laptop whose lid closed drops packets instead of refusing them, and the browser would
# wait minutes for its connection.
POLL_TIMEOUT_SECONDS = 8
COUNTER_SHOWN = "counter_shown"  # in the browser's session: the sessions showing the counter


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
        "etag": live.etag(session.version),
        "poll_seconds": POLL_SECONDS,
        "poll_timeout_ms": POLL_TIMEOUT_SECONDS * 1000,
        "live_template": fragment or template(session.family, "live"),
        # A link's phones hear of each change at once (the owner's page polls).
        "events_url": "" if table.is_owner else table.url("events/"),
        "night_next": _night_next(table),
    }


def _night_next(table: Table) -> str:
    """A club night's table, on a phone that scores it: its card's link for the whole night,
    which opens the next round's table once it is seated; "" for any other session."""
    session = table.session
    if session.night_id is None or session.night_table is None or not table.can_score:
        return ""
    token = (
        NightTable.objects.filter(night_id=session.night_id, number=session.night_table)
        .values_list("scorer_token", flat=True)
        .first()
    )
    return reverse("night_table", args=[token]) if token else ""


def region(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """The live region: standings, grid and next-deal banner, as one fragment."""
    session = table.session
    shown = presenter(session.family)
    result = live.result(session)
    ctx = shown.table_context(result) | shown.counter_context(session, result)
    # A scorer's phone showing the count assistant gets its panel too (out of band).
    ctx["counter_shown"] = session.public_id in request.session.get(COUNTER_SHOWN, [])
    if ctx["counter_shown"] and table.can_score:
        ctx["counter_form_key"] = new_link_token()
    since = request.GET.get("since", "")
    ctx |= {
        "since": since,
        "stale": table.can_score and shown.stale(session, result, since),
        "live_update": True,
    }
    response = render(request, "scorekeeper/live.html", {**live_context(table), **ctx})
    return live.live_headers(response, session.version)


def board(request: HttpRequest, table: Table) -> tuple[str, str]:
    """The session's name and the standings part of a read-only link's page (strip, title,
    live region), the same for every phone holding the link."""
    session = table.session
    shown = presenter(session.family)
    result = live.result(session)
    ctx = {
        **live_context(table),
        **shown.table_context(result),
        **shown.counter_context(session, result),
    }
    return str(session), render_to_string("scorekeeper/watch_board.html", ctx, request)


@require_GET
async def events(request: HttpRequest, kind: str, column: str, token: str) -> HttpResponseBase:
    """The event stream of a link (scorekeeper/live/streams.py): the version of what it opens
    (a session, a night, a season) now and at each change. Under a WSGI server, which would
    give a worker to each open stream, it answers 204 (no stream here) and the phone keeps
    polling."""
    if not isinstance(request, ASGIRequest):
        await sync_to_async(_opened)(request, kind, column, token)  # 404 for no such link
        return HttpResponse(status=204)
    # On the streams' reader thread and its kept connection, not on one of the request's own:
    # Django would close that only when the response ends, so each open stream would hold one
    # (and PostgreSQL refuses connections past its max_connections), and one made and closed
    # per stream costs PostgreSQL a process each.
    thing, version = await on_reader(partial(_opened, request, kind, column, token))
    response = StreamingHttpResponse(
        stream((kind, column, token), version, thing), content_type="text/event-stream"
    )
    patch_cache_control(response, no_cache=True, private=True)
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _opened(request: HttpRequest, kind: str, column: str, token: str) -> tuple[int, int]:
    """The id and version of what a link's stream follows; 404 if none."""
    found = opened(kind, column, token)
    if found is None:
        raise link_missing(request)
    return found
