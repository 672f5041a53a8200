"""The bound on a request's body, held in front of Django on the async server (`asgi.py`).

Django's ASGI handler reads a request's whole body, spooling it to a temporary file, before any
middleware or view can look at it, and gunicorn's asyncio workers set no bound of their own: a
phone could fill the laptop's disk with one request. `BodyLimit` wraps the app as a plain ASGI
app: a body that declares a length over the bound is answered 413 before a byte of it is read,
and a body sent without a length (chunked) is counted as the app reads it and answered 413 once
the count passes the bound; the app is then told the client left, and reads no more. The server
closes a connection whose body was not read to its end.

Behind nginx, `client_max_body_size` holds the same line (docs/DEPLOYMENT.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

DISCONNECT: Message = {"type": "http.disconnect"}


class BodyLimit:
    """An ASGI app around `app` that reads at most `limit` bytes of any request's body."""

    def __init__(self, app: App, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if declared_length(scope) > self.limit:
            await too_large(send, self.limit)
            return
        counted = 0
        refused = False
        started = False

        async def counting_receive() -> Message:
            nonlocal counted, refused
            if refused:
                return DISCONNECT
            message = await receive()
            if message["type"] == "http.request":
                counted += len(message.get("body", b""))
                if counted > self.limit:
                    refused = True
                    if not started:
                        await too_large(send, self.limit)
                    return DISCONNECT
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 is the answer
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counting_receive, watched_send)


def declared_length(scope: Scope) -> int:
    """The largest Content-Length the request declares (0 without one; the server refuses one
    that is not a number before the app is called)."""
    lengths = [
        int(value)
        for name, value in scope.get("headers", ())
        if name.lower() == b"content-length" and value.strip().isdigit()
    ]
    return max(lengths, default=0)


def refusal(limit: int) -> bytes:
    """What a phone reads when its request is too large: what happened, and the bound."""
    return (
        f"Too large: this server reads at most {limit:,} bytes of a request, and this one is "
        "larger. Nothing was saved.\n"
    ).encode()


async def too_large(send: Send, limit: int) -> None:
    body = refusal(limit)
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),  # the rest of the body is never read
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})
