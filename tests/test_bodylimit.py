"""A request's body is bounded in front of Django on the async server (`scorekeeper/bodylimit.py`):
over the bound, the answer is 413 and the rest of the body is never read, so no request can
fill the disk through Django's temporary file. Here as plain ASGI calls, and through the app
`asgi.py` serves; tests/serving/test_big_bodies.py sends the bodies to `scripts/run` itself."""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

import pytest
from django.conf import settings

from scorekeeper.bodylimit import BodyLimit, refusal
from scorekeeper.rules import bounds
from tests.asgi import apart, http_scope

CHUNK = 64 * 1024
LIMIT = 1_000_000


class Phone:
    """One request as the server hands it to the app: its body comes in CHUNK pieces, `sent`
    bytes in all (with `declared` as its Content-Length, or chunked without one); what the app
    read of it and what it answered are kept."""

    def __init__(
        self, sent: int, *, declared: int | None = None, path: str = "/healthz/", **headers: str
    ) -> None:
        fields = [(name.replace("_", "-"), value) for name, value in headers.items()]
        if declared is not None:
            fields.append(("content-length", str(declared)))
        else:
            fields.append(("transfer-encoding", "chunked"))
        self.scope: dict[str, Any] = http_scope("POST", path, *fields)
        self.left = sent
        self.read = 0  # bytes of the body the app took
        self.asked = 0  # times the app asked for a message
        self.messages: list[dict[str, Any]] = []
        self.gone = asyncio.Event()  # the phone hangs up once answered

    async def receive(self) -> dict[str, Any]:
        self.asked += 1
        if self.left <= 0:
            await self.gone.wait()
            return {"type": "http.disconnect"}
        piece = min(CHUNK, self.left)
        self.left -= piece
        self.read += piece
        return {"type": "http.request", "body": b"x" * piece, "more_body": self.left > 0}

    async def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            self.gone.set()

    @property
    def status(self) -> int:
        starts = [m for m in self.messages if m["type"] == "http.response.start"]
        assert len(starts) == 1, self.messages
        return int(starts[0]["status"])

    @property
    def headers(self) -> dict[str, str]:
        start = next(m for m in self.messages if m["type"] == "http.response.start")
        return {k.decode(): v.decode() for k, v in start["headers"]}

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.messages[1:])


class Echo:
    """An app that reads the whole body, as Django's handler does, then answers how much it
    read; what it heard last is kept."""

    def __init__(self) -> None:
        self.called = False
        self.heard: list[str] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.called = True
        total = 0
        while True:
            message = await receive()
            self.heard.append(message["type"])
            if message["type"] == "http.disconnect":
                return
            total += len(message.get("body", b""))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(total).encode()})


def _call(app: Any, phone: Phone) -> Phone:
    apart(lambda: asyncio.run(asyncio.wait_for(app(phone.scope, phone.receive, phone.send), 60)))
    return phone


def test_a_declared_length_over_the_bound_is_refused_before_the_body_is_read() -> None:
    echo = Echo()
    phone = _call(BodyLimit(echo, LIMIT), Phone(LIMIT + 1, declared=LIMIT + 1))
    assert phone.status == 413
    assert phone.asked == 0
    assert not echo.called
    assert phone.body == refusal(LIMIT)
    assert b"at most 1,000,000 bytes" in phone.body
    assert phone.headers["content-type"] == "text/plain; charset=utf-8"
    assert phone.headers["connection"] == "close"


def test_a_streamed_body_is_refused_once_it_passes_the_bound_and_read_no_further() -> None:
    echo = Echo()
    phone = _call(BodyLimit(echo, LIMIT), Phone(50 * LIMIT))
    assert phone.status == 413
    assert phone.body == refusal(LIMIT)
    assert LIMIT < phone.read <= LIMIT + CHUNK  # the piece that passed it, no more
    assert echo.heard[-1] == "http.disconnect"  # the app stops reading, and answers nothing
    assert phone.read + phone.left == 50 * LIMIT


@pytest.mark.parametrize("declared", [True, False])
def test_a_body_up_to_the_bound_reaches_the_app_whole(declared: bool) -> None:
    echo = Echo()
    phone = Phone(LIMIT, declared=LIMIT if declared else None)
    _call(BodyLimit(echo, LIMIT), phone)
    assert phone.status == 200
    assert phone.body == str(LIMIT).encode()
    assert phone.read == LIMIT
    assert "http.disconnect" not in echo.heard


def test_an_answer_already_begun_is_not_replaced() -> None:
    """An app that answers while it reads gets no 413 sent over its answer: it hears that the
    client left, and the server closes the connection."""

    async def streaming(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        while (await receive())["type"] == "http.request":
            await send({"type": "http.response.body", "body": b".", "more_body": True})
        await send({"type": "http.response.body", "body": b"end"})

    phone = _call(BodyLimit(streaming, LIMIT), Phone(50 * LIMIT))
    assert phone.status == 200
    assert phone.read <= LIMIT + CHUNK
    assert refusal(LIMIT) not in phone.body


def test_other_kinds_of_connection_pass_as_they_are() -> None:
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    limited = BodyLimit(app, LIMIT)
    for kind in ["lifespan", "websocket"]:
        phone = Phone(0)
        phone.scope["type"] = kind
        _call(limited, phone)
    assert seen == ["lifespan", "websocket"]


def test_the_bound_is_the_scoresheet_files_with_room_for_the_form_around_it() -> None:
    assert bounds.MAX_FILE_BYTES < settings.MAX_REQUEST_BODY <= 2 * bounds.MAX_FILE_BYTES


# Through the app asgi.py serves: Django's handler behind the bound.


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The application `asgi.py` gives the server (without its warm-up, which freezes this test
    process's objects out of the garbage collector)."""
    monkeypatch.setattr("scorekeeper.warm.warm", lambda: None)
    return importlib.import_module("scorekeeper.asgi").application


@pytest.mark.parametrize("path", ["/accounts/login/", "/healthz/", "/sessions/import/"])
def test_the_served_app_refuses_a_huge_declared_body_without_reading_it(
    served: Any, path: str
) -> None:
    huge = 64 * 1024 * 1024
    phone = _call(served, Phone(huge, declared=huge, path=path))
    assert phone.status == 413
    assert phone.asked == 0
    assert phone.body == refusal(settings.MAX_REQUEST_BODY)


def test_the_served_app_reads_a_streamed_body_no_further_than_the_bound(served: Any) -> None:
    sent = 64 * 1024 * 1024
    phone = _call(served, Phone(sent, path="/accounts/login/"))
    assert phone.status == 413
    assert phone.read <= settings.MAX_REQUEST_BODY + CHUNK
    assert phone.body == refusal(settings.MAX_REQUEST_BODY)
