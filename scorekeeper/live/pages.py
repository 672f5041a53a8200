"""What a read-only link shows, rendered once per version and kept for every phone after the
first: its live fragment (standings, grid, next deal), the standings board of its page, and
the page itself with each phone's own CSRF token and CSP nonce put in.

A watch link's fragment and board hold no form, token or name of the phone asking, so every
phone holding the link takes the same copy; the phones after the first load nothing but the
version. Where the cache is shared by the app's processes (Redis), a push reaches a table's
watchers in the same moment and each asks for the new version: the first claims the render,
the others wait a moment for what it keeps (`once`).
"""

from __future__ import annotations

import re
import secrets
import struct
import time
import zlib
from collections.abc import Callable

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_string

from scorekeeper import context_processors
from scorekeeper.live.http import live_headers
from scorekeeper.live.keys import key
from scorekeeper.live.results import shared

# How long a rendered fragment or board is kept for the phones after the first: a few polls'
# time (it is kept by version, so it is never out of date, only forgotten).
SHARED_SECONDS = 120
# A phone waits this long for another process's render of the version it asks for (well over
# a render's time), looking every RENDER_WAIT_STEP; a claim is forgotten after RENDER_CLAIM_SECONDS
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


def page(
    request: HttpRequest,
    base: str,
    version: int,
    render: Callable[[dict[str, str]], HttpResponse],
) -> HttpResponse:
    """The read-only link's page at `base` for `version`, rendered once per language, theme and
    connection and kept for every phone after the first, with each phone's own CSRF token and
    CSP nonce put in.

    `render(slots)` renders the page with `slots` in the context (the real values, given {}). A
    phone whose page is its own is answered by `render` itself: logged in (the header names
    the user), with a message to show, or with a query string (the theme form sends one back).
    The kept page is compressed once, part by part: each phone's token and nonce go between the
    parts as stored (uncompressed) deflate blocks, so no secret is ever compressed next to text
    a page's reader could choose (BREACH), and a phone costs no compression.
    """
    if request.GET or request.user.is_authenticated or len(messages.get_messages(request)):
        return render({})
    shown = context_processors.theme(request) | context_processors.connection(request)
    kept_key = key("page", f"{base}:{shown['theme']}:{int(shown['plain_http'])}", version)
    kept = cache.get(kept_key)
    if kept is None:
        marks = _slot_marks()
        rendered = render(marks)
        if rendered.status_code != 200:
            return rendered
        kept = _parts(rendered.content.decode(), marks)
        cache.set(kept_key, kept, SHARED_SECONDS)
    texts, zipped, slots = kept
    values = {"csrf_token": get_token(request), "csp_nonce": str(get_nonce(request))}
    filled = [values[slot].encode() for slot in slots]
    whole = b"".join(_interleave(texts, filled))
    if not _GZIP.search(request.headers.get("Accept-Encoding", "")):
        return HttpResponse(whole)
    stored = [_stored_block(value) for value in filled]
    trailer = struct.pack("<II", zlib.crc32(whole), len(whole) & 0xFFFFFFFF)
    response = HttpResponse(
        b"".join([_GZIP_HEADER, *_interleave(zipped, stored), _LAST_BLOCK, trailer])
    )
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


# The parts of the kept page that differ from phone to phone are rendered as slots, then filled
# in. Each rendering marks its slots with words of its own, drawn at random: no stored text (a
# session's title, a player's name) can hold them, so only the slots are filled in.
_SLOT_NAMES = ("csrf_token", "csp_nonce")
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # no name or time; OS unknown
_LAST_BLOCK = b"\x03\x00"  # an empty final block of a deflate stream


def _slot_marks() -> dict[str, str]:
    return {name: f"slot{secrets.token_hex(16)}" for name in _SLOT_NAMES}


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
