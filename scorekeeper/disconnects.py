"""A phone that leaves is told to Django once its answer has begun (`asgi.py`, in front of
Django's own ASGI handler).

Django listens for the client leaving while it works out the answer, and cancels that work when
it does. Most of the middleware is synchronous, so that work is then waiting on a thread
(asgiref's `sync_to_async`, with `async_to_sync` inside it for the rest of the stack): the
cancellation returns at once, before the thread is done, and asgiref copies the thread's
context back as it stands, naming the thread's executor for synchronous calls while that
executor is about to quit. The request's own end (`request_finished`, on that executor) then
fails with "CurrentThreadExecutor already quit or is broken", printed as a traceback on the
host's terminal for each phone that closes a page or a stream as it opens.

The thread finishes its work whatever the cancellation does, so cancelling it early saves
nothing: the leaving is held back until the answer's first message, after which Django's work
is only sending it (asynchronous, and stopped cleanly). A client that leaves while its body is
still being read is told at once, before any of the stack runs. The server drops what is sent
to a client that has left."""

from __future__ import annotations

import asyncio

from scorekeeper.bodylimit import App, Message, Receive, Scope, Send


class DisconnectAfterStart:
    """An ASGI app around `app` that passes `http.disconnect` on only once the response has
    started, or while the request's body is still being read."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = asyncio.Event()
        body_read = False

        async def held_receive() -> Message:
            nonlocal body_read
            message = await receive()
            if message["type"] == "http.request" and not message.get("more_body", False):
                body_read = True
            elif message["type"] == "http.disconnect" and body_read:
                await started.wait()
            return message

        async def watched_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                started.set()
            await send(message)

        await self.app(scope, held_receive, watched_send)
