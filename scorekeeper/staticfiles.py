"""The static files as production serves them: WhiteNoise's compressed files with hashed names,
each file's URL looked up once per process, and sent through an async iterator under ASGI.

A page names several static files (its styles, scripts and icons), and the manifest storage
works out each name's URL anew on every `{% static %}`. The manifest does not change while the
process runs (collectstatic writes it before the server starts), so neither do the URLs: each
is worked out once (BENCHMARKS.md's register: static URL memo).

WhiteNoise answers with a file response, which Django's ASGI handler can only send by reading
the whole file on a thread, warning each time that "StreamingHttpResponse must consume
synchronous iterators": under the async server (`asgi.py`) the file is read a block at a time
by an async iterator instead (`StaticFilesMiddleware`). A WSGI server keeps WhiteNoise's own
answer, which it may hand to the system whole.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, BinaryIO

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage

BLOCK = 2**16  # bytes read at a time: Django's ASGI handler sends a file's body in these


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name: str | None, force: bool = False) -> str:
        if name is None or force:
            return super().url(name, force)
        found = self._urls.get(name)
        if found is None:
            found = self._urls[name] = super().url(name)
        return found


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise's, with each file sent by an async iterator to an ASGI request."""

    @staticmethod
    def serve(static_file: Any, request: HttpRequest) -> HttpResponseBase:
        response = WhiteNoiseMiddleware.serve(static_file, request)
        if isinstance(request, ASGIRequest):
            # The file stays among the response's closers: it is closed with the response.
            response.streaming_content = blocks(response.file_to_stream)
        return response


async def blocks(file: BinaryIO | None) -> AsyncIterator[bytes]:
    """The file's bytes, a BLOCK at a time, read off the event loop's thread; none for no file
    (a HEAD request, a 304)."""
    if file is None:
        return
    loop = asyncio.get_running_loop()
    while block := await loop.run_in_executor(None, file.read, BLOCK):
        yield block
