"""What a read-only link shows, rendered once per version and kept for every phone after the
first: its live fragment (standings, grid, next deal) and the standings board of its page.

A watch link's fragment and board hold no form, token or name of the phone asking, so every
phone holding the link takes the same copy; the phones after the first load nothing but the
version. Where the cache is shared by the app's processes (Redis), a push reaches a table's
watchers in the same moment and each asks for the new version: the first claims the render,
the others wait a moment for what it keeps (`once`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_string

from scorekeeper.live.http import live_headers
from scorekeeper.live.keys import key
from scorekeeper.live.results import shared

# How long a rendered fragment or board is kept for the phones after the first: a few polls'
# time (it is kept by version, so it is never out of date, only forgotten).
SHARED_SECONDS = 120
# A phone waits this long for another process's render of the version it asks for (a render
# takes 5-40 ms), looking every RENDER_WAIT_STEP; a claim is forgotten after RENDER_CLAIM_SECONDS
# should the process that made it die while rendering.
RENDER_WAIT_SECONDS = 0.5
RENDER_WAIT_STEP = 0.01
RENDER_CLAIM_SECONDS = 5

_GZIP = re.compile(r"\bgzip\b")


def fragment(
    request: HttpRequest, base: str, version: int, render: Callable[[], HttpResponse]
) -> HttpResponse:
    """The live fragment of the read-only link at `base` for `version`: the copy kept for every
    phone, else `render()`'s, kept (and compressed once: it holds no secret for BREACH to
    guess, so no phone's answer is compressed again)."""
    kept_key = key("fragment", base, version)

    def rendered() -> tuple[str, bytes]:
        response = render()
        kept = (response.content.decode(), compress_string(response.content))
        cache.set(kept_key, kept, SHARED_SECONDS)
        return kept

    html, zipped = once(kept_key, rendered)
    if not _GZIP.search(request.headers.get("Accept-Encoding", "")):
        return live_headers(HttpResponse(html), version)
    response = HttpResponse(zipped)
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    response = live_headers(response, version)
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
