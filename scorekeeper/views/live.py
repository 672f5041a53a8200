"""The live region of every table-side page: it asks for itself again every few seconds.

A phone polls with the ETag of the version it shows; an unchanged session answers 304 with
no body after one small query, before any template is rendered or the session is loaded. A
changed one sends the family's live fragment (standings, grid, next deal), rendered from the
result kept for that version.
"""

from __future__ import annotations

import re
import secrets
import struct
import time
import zlib
from collections.abc import Callable
from functools import partial

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_string
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from scorekeeper import computed, context_processors
from scorekeeper.events import on_reader, opened, stream
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import new_link_token
from scorekeeper.presenters import presenter, template
from scorekeeper.views.access import Table, link_missing, version_by

POLL_SECONDS = 3
# A poll with no answer by then is given up (and the page says the table cannot be reached):
# a laptop whose lid closed drops packets instead of refusing them, and the browser would
# wait minutes for its connection.
POLL_TIMEOUT_SECONDS = 8
COUNTER_SHOWN = "counter_shown"  # in the browser's session: the sessions showing the counter


def etag(version: int, language: str | None = None) -> str:
    """The ETag of a version of the live region in a language (the active one by default):
    a French phone and an English one never take each other's copy. The site's own language
    is left out of it ("v12"; French "v12-fr")."""
    language = language or get_language()
    if language == settings.LANGUAGE_CODE:
        return f'"v{version}"'
    return f'"v{version}-{language}"'


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
        "poll_timeout_ms": POLL_TIMEOUT_SECONDS * 1000,
        "live_template": fragment or template(session.family, "live"),
        # A link's phones hear of each change at once (the owner's page polls).
        "events_url": "" if table.is_owner else table.url("events/"),
    }


def shared_live(request: HttpRequest, version: int, base: str) -> HttpResponse | None:
    """The live fragment of a read-only link for this version, as the first phone to ask for
    it had it rendered (kept in the cache for every phone after it: the fragment of a watch
    link holds no form, token or name of the phone asking), or None."""
    kept = cache.get(live_key(base, version))
    if kept is None:
        return None
    html, zipped = kept
    if not _GZIP.search(request.headers.get("Accept-Encoding", "")):
        return live_headers(HttpResponse(html), version)
    # Compressed once with the fragment (it holds no secret for BREACH to guess), not per phone.
    response = HttpResponse(zipped)
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    response = live_headers(response, version)
    response["ETag"] = f"W/{response['ETag']}"  # as GZipMiddleware marks what it compresses
    return response


_GZIP = re.compile(r"\bgzip\b")


def live_key(base: str, version: int) -> str:
    """The key of a link's fragment: its words are in the phone's language."""
    return f"live:{base}:{version}:{get_language()}"


def shared_board(
    request: HttpRequest, version: int, base: str, table: Callable[[], Table]
) -> tuple[str, SafeString]:
    """The session's name and the standings part of a read-only link's page (strip, title,
    live region): the same for every phone holding the link, so rendered once per version
    and kept for the phones after the first (which then load nothing but the version)."""
    key = f"board:{base}:{version}:{get_language()}"  # its words are in the phone's language

    def board() -> tuple[str, str]:
        opened = table()
        session = opened.session
        shown = presenter(session)
        ctx = {
            **live_context(opened),
            **shown.table_context(session.result()),
            **shown.counter_context(session),
        }
        rendered = (str(session), render_to_string("scorekeeper/watch_board.html", ctx, request))
        cache.set(key, rendered, SHARED_SECONDS)
        return rendered

    name, kept = once(key, lambda: cache.get(key), board)
    return name, mark_safe(kept)  # rendered by the template engine, escaped there


def once[T](key: str, kept: Callable[[], T | None], render: Callable[[], T]) -> T:
    """What is kept under `key` (`kept()`), else `render()`, which keeps it: done by one of the
    phones asking for it at once, where the cache is shared by every process.

    A push reaches a table's watchers in the same moment, and each asks for the new version's
    live fragment: with a cache shared between the app's processes each would find none and
    render the same fragment in its own. The first claims the render; the others, in other
    processes, wait for what it keeps (RENDER_WAIT_SECONDS at most, then render it themselves).
    In a process's own cache there is nothing to wait for: each process renders once.
    """
    found = kept()
    if found is not None:
        return found
    claim = f"rendering:{key}"
    claimed = not computed.shared() or cache.add(claim, True, RENDER_CLAIM_SECONDS)
    if not claimed:
        deadline = time.monotonic() + RENDER_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(RENDER_WAIT_STEP)
            found = kept()
            if found is not None:
                return found
    try:
        return render()
    finally:
        if claimed and computed.shared():
            cache.delete(claim)


# A phone waits this long for another process's render of the version it asks for (a render
# takes 5-40 ms), looking every RENDER_WAIT_STEP; a claim is forgotten after RENDER_CLAIM_SECONDS
# should the process that made it die while rendering.
RENDER_WAIT_SECONDS = 0.5
RENDER_WAIT_STEP = 0.01
RENDER_CLAIM_SECONDS = 5


def live(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """The live region: standings, grid and next-deal banner, as one fragment."""
    session = table.session
    shown = presenter(session)
    ctx = shown.table_context(session.result()) | shown.counter_context(session)
    # A scorer's phone showing the count assistant gets its panel too (out of band).
    ctx["counter_shown"] = session.public_id in request.session.get(COUNTER_SHOWN, [])
    if ctx["counter_shown"] and table.can_score:
        ctx["counter_form_key"] = new_link_token()
    since = request.GET.get("since", "")
    ctx |= {
        "since": since,
        "stale": table.can_score and shown.stale(session, since),
        "live_update": True,
    }
    response = render(request, "scorekeeper/live.html", {**live_context(table), **ctx})
    if not table.can_score:
        kept = (response.content.decode(), compress_string(response.content))
        cache.set(live_key(table.base, session.version), kept, SHARED_SECONDS)
    return live_headers(response, session.version)


# How long a rendered fragment is kept for the phones after the first: a few polls' time (it is
# keyed by version, so it is never out of date, only forgotten).
SHARED_SECONDS = 120


@require_GET
async def events(request: HttpRequest, column: str, token: str) -> HttpResponseBase:
    """The event stream of a watch or scorer link (scorekeeper/events.py): the session's
    version now and at each change. Under a WSGI server, which would give a worker to each open
    stream, it answers 204 (no stream here) and the phone keeps polling."""
    if not isinstance(request, ASGIRequest):
        await sync_to_async(version_by)(request, **{column: token})  # 404 for no such link
        return HttpResponse(status=204)
    # On the streams' reader thread and its kept connection, not on one of the request's own:
    # Django would close that only when the response ends, so each open stream held one (and
    # PostgreSQL refused the streams past its max_connections: 503s at 200 tables), and one
    # made and closed per stream cost PostgreSQL a process each (3,000 in a minute at 1,000
    # tables: bench_load --real-pace --push split).
    session, version = await on_reader(partial(_opened, request, column, token))
    response = StreamingHttpResponse(
        stream((column, token), version, session), content_type="text/event-stream"
    )
    patch_cache_control(response, no_cache=True, private=True)
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _opened(request: HttpRequest, column: str, token: str) -> tuple[int, int]:
    """The id and version of the session a link's stream follows; 404 if none."""
    found = opened(column, token)
    if found is None:
        raise link_missing(request)
    return found


def live_headers(response: HttpResponse, version: int, language: str | None = None) -> HttpResponse:
    response["ETag"] = etag(version, language)
    # Phones must ask again every time; the ETag makes asking cheap.
    patch_cache_control(response, no_cache=True, private=True)
    return response


def not_modified(request: HttpRequest, version: int) -> HttpResponse | None:
    """304 with no body when the phone already shows this version (checked before any
    template is rendered or the session is loaded)."""
    if shows(request, version):
        return live_headers(HttpResponseNotModified(), version)
    return None


def shows(request: HttpRequest, version: int, language: str | None = None) -> bool:
    """Whether the phone's If-None-Match names this version in this language."""
    # Weak comparison (RFC 9110): gzip turns the ETag into W/"v…" on the way out.
    asked = request.META.get("HTTP_IF_NONE_MATCH", "").split(",")
    return etag(version, language) in (tag.strip().removeprefix("W/") for tag in asked)


# A page kept for every phone holding a link: the parts that differ from phone to phone (the CSRF
# token of its forms, the CSP nonce of its script tag) are rendered as slots, then filled in.
# Each rendering marks its slots with words of its own, drawn at random: no stored text (a
# session's title, a player's name) can hold them, so only the slots are filled in.
_SLOT_NAMES = ("csrf_token", "csp_nonce")


def _slot_marks() -> dict[str, str]:
    return {name: f"slot{secrets.token_hex(16)}" for name in _SLOT_NAMES}


_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # no name or time; OS unknown
_LAST_BLOCK = b"\x03\x00"  # an empty final block of a deflate stream


def shared_page(
    request: HttpRequest, key: str, page: Callable[[dict[str, str]], HttpResponse]
) -> HttpResponse:
    """A read-only link's page, rendered once per (`key`, language, theme, connection) and kept
    for every phone after the first, with each phone's own CSRF token and CSP nonce put in.

    `page(slots)` renders the page with `slots` in the context (or the real values, given {}).
    A phone whose page is its own is answered by `page` as before: logged in (the header
    names the user), with a message to show, or with a query string (the theme form sends it
    back). The kept page is compressed once, part by part: each phone's token and nonce go
    between the parts as stored (uncompressed) deflate blocks, so no secret is ever compressed
    next to text a page's reader could choose (BREACH), and a phone costs no compression.
    """
    if request.GET or request.user.is_authenticated or len(messages.get_messages(request)):
        return page({})
    shown = context_processors.theme(request) | context_processors.connection(request)
    key = f"shared-page:{key}:{get_language()}:{shown['theme']}:{int(shown['plain_http'])}"
    kept = cache.get(key)
    if kept is None:
        marks = _slot_marks()
        rendered = page(marks)
        if rendered.status_code != 200:
            return rendered
        kept = _parts(rendered.content.decode(), marks)
        cache.set(key, kept, SHARED_SECONDS)
    texts, zipped, slots = kept
    values = {"csrf_token": get_token(request), "csp_nonce": str(get_nonce(request))}
    filled = [values[slot].encode() for slot in slots]
    if not _GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(b"".join(_interleave(texts, filled)))
    else:
        whole = b"".join(_interleave(texts, filled))
        stored = [_stored_block(value) for value in filled]
        trailer = struct.pack("<II", zlib.crc32(whole), len(whole) & 0xFFFFFFFF)
        body = [_GZIP_HEADER, *_interleave(zipped, stored), _LAST_BLOCK, trailer]
        response = HttpResponse(b"".join(body))
        response["Content-Encoding"] = "gzip"
        patch_vary_headers(response, ["Accept-Encoding"])
    return response


def _parts(html: str, marks: dict[str, str]) -> tuple[list[bytes], list[bytes], list[str]]:
    """The page's text between its slots (marked with `marks`), as it is and as raw deflate
    ending on a byte (each part compressed alone, so that the parts and the slots can be put
    together in any order), and the slots' names in order."""
    named = {mark: name for name, mark in marks.items()}
    pieces = re.split(f"({'|'.join(named)})", html)
    texts = [piece.encode() for piece in pieces[0::2]]
    zipped = []
    for text in texts:
        compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
        zipped.append(compressor.compress(text) + compressor.flush(zlib.Z_SYNC_FLUSH))
    return texts, zipped, [named[mark] for mark in pieces[1::2]]


def _interleave(parts: list[bytes], between: list[bytes]) -> list[bytes]:
    joined = [parts[0]]
    for value, part in zip(between, parts[1:], strict=True):
        joined += [value, part]
    return joined


def _stored_block(value: bytes) -> bytes:
    """`value` as a stored deflate block (not the last), starting on a byte boundary."""
    return b"\x00" + struct.pack("<HH", len(value), len(value) ^ 0xFFFF) + value
