"""Driving an ASGI app in a test as a server hands it requests."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import connections


def apart[T](call: Callable[[], T]) -> T:
    """Run `call` in a thread of its own: a browser test on the same worker may keep an event
    loop running in this one, where neither asyncio.run nor an async view may run."""

    def closing() -> T:
        try:
            return call()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(closing).result()


def http_scope(method: str, path: str, *headers: tuple[str, str]) -> dict[str, Any]:
    """An HTTP request's scope for `path` on testserver, with `headers` after its Host."""
    fields = [(b"host", b"testserver")]
    fields += [(name.lower().encode(), value.encode()) for name, value in headers]
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "headers": fields,
    }
