"""The ASGI app's wrappers around Django's own handler (asgi.py): a phone's leaving told to
Django once its answer has begun (scorekeeper/disconnects.py), and static files sent by an async
iterator (scorekeeper/staticfiles.py)."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from typing import Any

import pytest
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished

from scorekeeper.disconnects import DisconnectAfterStart
from tests.asgi import apart, http_scope

ROOT = Path(__file__).resolve().parents[1]


def _scope(path: str, method: str = "GET", **headers: str) -> dict[str, Any]:
    return http_scope(
        method, path, *((name.replace("_", "-"), value) for name, value in headers.items())
    )


class Phone:
    """A client as the server passes it to the app: its request, then (when `leaves` is set)
    its leaving; what the app sent it, in order."""

    def __init__(self, *, body: list[bytes] | None = None, stalls: bool = False) -> None:
        self.body = list(body or [b""])
        self.stalls = stalls  # the body stops coming before its end
        self.leaves = asyncio.Event()
        self.sent: list[dict[str, Any]] = []
        self.told: list[str] = []  # the messages the app received, by type

    async def receive(self) -> dict[str, Any]:
        if self.body:
            chunk = self.body.pop(0)
            more = bool(self.body) or self.stalls
            message = {"type": "http.request", "body": chunk, "more_body": more}
        else:
            await self.leaves.wait()
            message = {"type": "http.disconnect"}
        self.told.append(message["type"])
        return message

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


def test_a_phone_leaving_before_its_answer_is_told_once_the_answer_has_begun() -> None:
    """Django cancels a request's work when the phone leaves; the work, on a thread, goes on
    regardless, and the cancellation races it (disconnects.py). Held back, the leaving reaches
    Django after its answer's first message, and the request ends as every other does."""

    async def scenario() -> tuple[list[str], list[Any], list[str]]:
        answer = asyncio.Event()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            await receive()  # the request's body
            listening = asyncio.ensure_future(receive())  # as Django listens for the leaving
            phone.leaves.set()
            await asyncio.sleep(0.05)
            order.append("left" if listening.done() else "not yet")
            await answer.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await asyncio.sleep(0.05)
            order.append("left" if listening.done() else "not yet")
            await send({"type": "http.response.body", "body": b"", "more_body": False})

        order: list[str] = []
        phone = Phone()
        served = asyncio.ensure_future(
            DisconnectAfterStart(app)(_scope("/"), phone.receive, phone.send)
        )
        await asyncio.sleep(0.1)
        answer.set()
        await asyncio.wait_for(served, 5)
        return order, [m["type"] for m in phone.sent], phone.told

    order, sent, told = apart(lambda: asyncio.run(scenario()))
    assert order == ["not yet", "left"]
    assert sent == ["http.response.start", "http.response.body"]
    assert told == ["http.request", "http.disconnect"]


def test_a_phone_leaving_while_its_body_comes_is_told_at_once() -> None:
    async def scenario() -> list[str]:
        heard: list[str] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            while (message := await receive())["type"] == "http.request":
                heard.append("body")
            heard.append(message["type"])

        phone = Phone(body=[b"part one"], stalls=True)
        served = asyncio.ensure_future(
            DisconnectAfterStart(app)(_scope("/", "POST"), phone.receive, phone.send)
        )
        await asyncio.sleep(0.05)
        phone.leaves.set()
        await asyncio.wait_for(served, 5)
        return heard

    assert apart(lambda: asyncio.run(scenario())) == ["body", "http.disconnect"]


@pytest.mark.django_db(transaction=True)
def test_django_ends_a_request_left_before_its_answer_cleanly() -> None:
    """Django's own handler behind the hold: the page is answered (into the void) and the
    request ends, its `request_finished` sent, with no error."""
    finished: list[object] = []

    def counted(**kwargs: object) -> None:
        finished.append(kwargs)

    async def scenario() -> list[Any]:
        phone = Phone()
        phone.leaves.set()  # gone as soon as its request is sent
        app = DisconnectAfterStart(ASGIHandler())
        await asyncio.wait_for(app(_scope("/accounts/login/"), phone.receive, phone.send), 30)
        return phone.sent

    request_finished.connect(counted)
    try:
        sent = apart(lambda: asyncio.run(scenario()))
    finally:
        request_finished.disconnect(counted)
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200
    assert len(finished) == 1


def test_a_static_file_is_sent_by_an_async_iterator_with_no_warning(settings: Any) -> None:
    """WhiteNoise's file response would be read whole on a thread, with a warning each time."""
    file = ROOT / "static" / "js" / "live.js"
    settings.WHITENOISE_USE_FINDERS = True  # the tests collect no static files

    handler = ASGIHandler()  # (WhiteNoise warns here that no files were collected)

    async def ask(method: str, **headers: str) -> list[dict[str, Any]]:
        phone = Phone()
        await handler(_scope("/static/js/live.js", method, **headers), phone.receive, phone.send)
        return phone.sent

    def run() -> tuple[list[dict[str, Any]], ...]:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning fails the request, and the test
            got = asyncio.run(ask("GET"))
            head = asyncio.run(ask("HEAD"))
            etag = dict(got[0]["headers"]).get(b"ETag", b"").decode()
            again = asyncio.run(ask("GET", if_none_match=etag))
        return got, head, again

    got, head, again = apart(run)
    assert got[0]["status"] == 200
    assert b"".join(m.get("body", b"") for m in got[1:]) == file.read_bytes()
    assert head[0]["status"] == 200
    assert b"".join(m.get("body", b"") for m in head[1:]) == b""
    assert again[0]["status"] == 304
