"""What a read-only link shows, rendered once per version and kept for every phone after the
first: its live fragment (standings, grid, next deal), the standings board of its page, and
the page itself.

A link's fragment, board and page hold no form token, nonce, colour choice, login or name of
the phone asking, so every phone holding the link takes the same bytes: one copy per page,
version and language, compressed once. What differs from phone to phone is worked out on the
phone (static/js/theme.js, static/js/plain-http.js, static/js/csrf.js; `SHARED`). The phones
after the first load nothing but the version. Where the cache is shared by the app's
processes (Redis), a push reaches a table's watchers in the same moment and each asks for the
new version: the first claims the render, the others wait a moment for what it keeps
(`once`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_string

from scorekeeper.live.http import live_headers
from scorekeeper.live.keys import key
from scorekeeper.live.results import shared

# How long a rendered fragment, board or page is kept for the phones after the first: a few
# polls' time (it is kept by version, so it is never out of date, only forgotten).
SHARED_SECONDS = 120
# A phone waits this long for another process's render of the version it asks for (well over
# a render's time), looking every RENDER_WAIT_STEP; a claim is forgotten after RENDER_CLAIM_SECONDS
# should the process that made it die while rendering.
RENDER_WAIT_SECONDS = 0.5
RENDER_WAIT_STEP = 0.01
RENDER_CLAIM_SECONDS = 5

# What a page kept for every phone is rendered with, in place of what the context processors
# say of the phone asking (templates/base.html): the colour choice "auto" (the phone's own
# choice is applied by static/js/theme.js from its cookie), and plain HTTP left for the phone's
# browser to tell (static/js/plain-http.js). `shared_page` leaves out the header's and footer's
# account part, and gives the page the owner mark of nobody logged in (the page is nobody's; the
# answer's X-Owner-Mark header still says whose the phone is, and static/js/forget.js asks the
# server before it deletes anything).
SHARED: dict[str, object] = {"shared_page": True, "theme": "auto", "plain_http": False}

_GZIP = re.compile(r"\bgzip\b")

Kept = tuple[str, bytes]  # a fragment's or page's text, and the same gzipped


def _kept(kept_key: str, render: Callable[[], HttpResponse]) -> Kept | HttpResponse:
    """What is kept under `kept_key`, else `render()`'s, kept: its text, and the same
    compressed once. It holds no secret for BREACH to guess, so no phone's answer is
    compressed again. An answer other than 200 is not kept, and given as it is."""

    def rendered() -> Kept | HttpResponse:
        response = render()
        if response.status_code != 200:
            return response
        kept = (response.content.decode(), compress_string(response.content))
        cache.set(kept_key, kept, SHARED_SECONDS)
        return kept

    return once(kept_key, rendered)


def _answer(request: HttpRequest, kept: Kept | HttpResponse) -> HttpResponse:
    """The kept text, gzipped for a phone that asks for gzip."""
    if isinstance(kept, HttpResponse):
        return kept
    html, zipped = kept
    if not _GZIP.search(request.headers.get("Accept-Encoding", "")):
        return HttpResponse(html)
    response = HttpResponse(zipped)
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def fragment(
    request: HttpRequest, base: str, version: int, render: Callable[[], HttpResponse]
) -> HttpResponse:
    """The live fragment of the read-only link at `base` for `version`: the copy kept for every
    phone, else `render()`'s, kept."""
    kept = _kept(key("fragment", base, version), render)
    response = live_headers(_answer(request, kept), version)
    if response.get("Content-Encoding") == "gzip":
        response["ETag"] = f"W/{response['ETag']}"  # as GZipMiddleware marks what it compresses
    return response


def board(base: str, version: int, render: Callable[[], tuple[str, str]]) -> tuple[str, SafeString]:
    """The session's name and the standings part of the read-only link's page at `base` (strip,
    title, live region) for `version`: the copy kept for every phone, else `render()`'s."""
    kept_key = key("board", base, version)

    def rendered() -> tuple[str, str]:
        kept = render()
        cache.set(kept_key, kept, SHARED_SECONDS)
        return kept

    name, html = once(kept_key, rendered)
    return name, mark_safe(html)  # rendered by the template engine, escaped there


def page(
    request: HttpRequest,
    path: str,
    version: int,
    render: Callable[[dict[str, object]], HttpResponse],
) -> HttpResponse:
    """The read-only link's page at `path` for `version`: one copy for every phone in the
    active language, kept and compressed once.

    `render(context)` renders the page with `context` (`SHARED`) added to its own, so that it
    says nothing of the phone asking. A phone with a message to show, or with a query string
    (which is not part of what is kept), is answered by `render` itself, the same page with
    its message, or for its query.
    """
    if request.GET or len(messages.get_messages(request)):
        return render(SHARED)
    return _answer(request, _kept(key("page", path, version), lambda: render(SHARED)))


def once[T](kept_key: str, render: Callable[[], T]) -> T:
    """What is kept under `kept_key`, else `render()`, which keeps it: done by one of the
    phones asking for it at once, where the cache is shared by every process (in a process's
    own cache there is nothing to wait for: each process renders once)."""
    found: T | None = cache.get(kept_key)
    if found is not None:
        return found
    claim = f"rendering:{kept_key}"
    claimed = not shared() or cache.add(claim, True, RENDER_CLAIM_SECONDS)
    if not claimed:
        deadline = time.monotonic() + RENDER_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(RENDER_WAIT_STEP)
            found = cache.get(kept_key)
            if found is not None:
                return found
    try:
        return render()
    finally:
        if claimed and shared():
            cache.delete(claim)
