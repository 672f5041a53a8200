"""Past its capacity the async server sheds what can wait (`scorekeeper/shedding.py`): with every
turn taken, a live region's poll is answered 503 with Retry-After before any view runs, while a
save waits for its turn ahead of the pages and is stored. Here as plain ASGI calls, and through
the app `asgi.py` serves."""

from __future__ import annotations

import asyncio
import importlib
import re
from collections.abc import Callable, Coroutine
from html import unescape
from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.urls import URLPattern, get_resolver

from scorekeeper import shedding
from scorekeeper.models import Change, GameSession
from scorekeeper.shedding import BODY, FIRST, RETRY_AFTER, Shed, is_poll
from tests.asgi import apart
from tests.asgi import http_scope as scope
from tests.factories import worked_deal_form


class Answer:
    """What the app sent back for one request."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    @property
    def status(self) -> int:
        return int(self.messages[0]["status"])

    @property
    def headers(self) -> list[tuple[str, str]]:
        return [(k.decode(), v.decode()) for k, v in self.messages[0]["headers"]]

    def header(self, name: str) -> str:
        return next((v for k, v in self.headers if k.lower() == name), "")

    def cookies(self) -> dict[str, str]:
        found = (v.split(";", 1)[0] for k, v in self.headers if k.lower() == "set-cookie")
        return dict(cookie.split("=", 1) for cookie in found)

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.messages[1:])


async def request(
    app: Any, method: str, path: str, *headers: tuple[str, str], body: bytes = b""
) -> Answer:
    answer = Answer()
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the phone stays until answered
        return {"type": "http.disconnect"}

    await app(scope(method, path, *headers), receive, answer.send)
    return answer


class Held:
    """Requests held in flight: each one's body does not come until `release`, so the app
    under test has started them and not answered them."""

    def __init__(self) -> None:
        self.come = asyncio.Event()
        self.tasks: list[asyncio.Task[Answer]] = []

    def start(self, app: Any, count: int, path: str = "/healthz/") -> None:
        for _ in range(count):
            self.tasks.append(asyncio.create_task(self.one(app, path)))

    async def one(self, app: Any, path: str) -> Answer:
        answer = Answer()
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            await self.come.wait()
            if not sent:
                sent = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.Event().wait()
            return {"type": "http.disconnect"}

        await app(scope("GET", path), receive, answer.send)
        return answer

    async def release(self) -> list[Answer]:
        self.come.set()
        return list(await asyncio.gather(*self.tasks))


class Turns:
    """An app that notes each request as it runs (once its body has come, as Django's handler
    runs the view), and holds the answer to `/held/` and to event streams until `go`; `midway`
    holds, instead, the body of its answer once begun."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.go = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        message = await receive()
        if message["type"] == "http.disconnect":
            return  # the client left (or was answered already): no view runs
        self.ran.append(f"{scope['method']} {scope['path']}")
        if scope["path"] == "/held/" or scope["path"].endswith("/events/"):
            await self.go.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        if scope["path"] == "/midway/":
            await self.go.wait()
        await send({"type": "http.response.body", "body": b"ok"})


def _run[T](job: Callable[[], Coroutine[Any, Any, T]]) -> T:
    return apart(lambda: asyncio.run(asyncio.wait_for(job(), 60)))


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


POLL = ("GET", "/w/some-token/live/")


def test_with_a_request_waiting_too_long_a_poll_is_answered_503_and_a_save_goes_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shedding, "BEHIND", 0.05)
    app = Turns()
    shed = Shed(app, at_once=2)

    async def job() -> tuple[Answer, Answer, list[str], list[Answer]]:
        held = [asyncio.create_task(request(shed, "GET", "/held/")) for _ in range(2)]
        await _settle()
        pages = [asyncio.create_task(request(shed, "GET", "/w/some-token/")) for _ in range(2)]
        await asyncio.sleep(0.06)  # the pages have waited BEHIND
        poll = await request(shed, *POLL, ("If-None-Match", '"v3"'))
        save = asyncio.create_task(request(shed, "POST", "/s/some-token/", body=b"number=4"))
        await _settle()
        ran = list(app.ran)
        app.go.set()
        answers = await asyncio.gather(*held, *pages)
        return poll, await save, ran, list(answers)

    poll, save, ran_while_held, held = _run(job)
    assert ran_while_held == ["GET /held/", "GET /held/"]  # the save waited for a turn
    assert poll.status == 503
    assert poll.header("retry-after") == str(RETRY_AFTER)
    assert poll.header("cache-control") == "no-store"
    assert poll.header("content-type") == "text/plain; charset=utf-8"
    assert poll.body == BODY
    assert "GET /w/some-token/live/" not in app.ran  # no view ran for it
    assert save.status == 200
    assert app.ran[2] == "POST /s/some-token/"  # before the pages that waited longer
    assert [answer.status for answer in held] == [200, 200, 200, 200]
    assert shed.shed == 1
    assert (shed.running, shed.in_flight) == (0, 0)


def test_a_poll_waits_a_moments_burst_out() -> None:
    """Every turn taken, one request waiting: the poll waits too, and is served first."""
    app = Turns()
    shed = Shed(app, at_once=2)

    async def job() -> Answer:
        held = [asyncio.create_task(request(shed, "GET", "/held/")) for _ in range(2)]
        await _settle()
        page = asyncio.create_task(request(shed, "GET", "/w/some-token/"))
        await _settle()
        poll = asyncio.create_task(request(shed, *POLL))
        await _settle()
        app.go.set()
        await asyncio.gather(*held, page)
        return await poll

    assert _run(job).status == 200
    assert shed.shed == 0
    assert app.ran[2:] == ["GET /w/some-token/live/", "GET /w/some-token/"]


def test_event_streams_take_no_turn() -> None:
    app = Turns()
    shed = Shed(app, at_once=1)

    async def job() -> tuple[Answer, int]:
        streams = [
            asyncio.create_task(request(shed, "GET", "/w/some-token/events/")) for _ in range(3)
        ]
        await _settle()
        in_flight = shed.in_flight
        poll = await request(shed, *POLL)
        app.go.set()
        await asyncio.gather(*streams)
        return poll, in_flight

    poll, in_flight = _run(job)
    assert in_flight == 0
    assert poll.status == 200


def test_with_no_bound_nothing_waits_and_nothing_is_shed() -> None:
    app = Turns()
    shed = Shed(app, at_once=0)

    async def job() -> Answer:
        held = [asyncio.create_task(request(shed, "GET", "/held/")) for _ in range(50)]
        await _settle()
        poll = await request(shed, *POLL)
        app.go.set()
        await asyncio.gather(*held)
        return poll

    assert _run(job).status == 200
    assert (shed.shed, shed.running) == (0, 0)


def test_a_request_that_fails_gives_its_turn_back() -> None:
    async def failing(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        raise RuntimeError("broken")

    shed = Shed(failing, at_once=1)

    async def job() -> None:
        with pytest.raises(RuntimeError):
            await request(shed, "GET", "/")

    _run(job)
    assert (shed.running, shed.in_flight) == (0, 0)


def test_with_every_turn_taken_a_persons_action_runs_first_then_polls_then_pages() -> None:
    app = Turns()
    shed = Shed(app, at_once=1)

    async def job() -> list[Answer]:
        held = asyncio.create_task(request(shed, "GET", "/held/"))
        await _settle()
        htmx = (("HX-Request", "true"), ("HX-Trigger", "live"))
        waiting = [
            asyncio.create_task(request(shed, method, path, *headers))
            for method, path, headers in [
                (*POLL, ()),
                ("GET", "/w/some-token/", ()),  # a watcher's page
                ("POST", "/s/some-token/", ()),  # a save
                ("GET", "/s/some-token/", ()),  # the scorer's page
                ("GET", "/n/tok/display/", htmx),  # a club night's board, polled from its page
            ]
        ]
        await _settle()
        assert app.ran == ["GET /held/"] and shed.running == 1
        app.go.set()
        await held
        return list(await asyncio.gather(*waiting))

    answers = _run(job)
    assert app.ran == [
        "GET /held/",
        "POST /s/some-token/",
        "GET /s/some-token/",
        "GET /w/some-token/live/",
        "GET /n/tok/display/",
        "GET /w/some-token/",
    ]
    assert [answer.status for answer in answers] == [200, 200, 200, 200, 200]
    assert (shed.running, shed.in_flight, shed.shed) == (0, 0, 0)  # a moment's wait: no shed


def test_a_phone_slow_to_send_or_to_read_holds_no_turn() -> None:
    app = Turns()
    shed = Shed(app, at_once=1)

    async def job() -> Answer:
        held = Held()  # bodies that do not come
        held.start(shed, 3)
        midway = asyncio.create_task(request(shed, "GET", "/midway/"))  # answer begun, unread
        await _settle()
        save = await request(shed, "POST", "/s/some-token/")
        app.go.set()
        await held.release()
        await midway
        return save

    assert _run(job).status == 200
    assert app.ran[:2] == ["GET /midway/", "POST /s/some-token/"]
    assert (shed.running, shed.in_flight) == (0, 0)


def test_a_request_given_up_while_waiting_leaves_its_place() -> None:
    app = Turns()
    shed = Shed(app, at_once=1)

    async def job() -> list[str]:
        held = asyncio.create_task(request(shed, "GET", "/held/"))
        await _settle()
        gone = asyncio.create_task(request(shed, "POST", "/gone/"))
        later = asyncio.create_task(request(shed, "GET", "/later/"))
        await _settle()
        gone.cancel()  # the phone went away
        await _settle()
        app.go.set()
        await held
        await later
        with pytest.raises(asyncio.CancelledError):
            await gone
        return app.ran

    assert _run(job) == ["GET /held/", "GET /later/"]
    assert (shed.running, shed.in_flight) == (0, 0)
    assert not any(shed.waiting)


@pytest.mark.parametrize(
    ("method", "path", "headers", "polled"),
    [
        ("GET", "/w/tok/live/", (), True),
        ("HEAD", "/sessions/abc/display/live/", (), True),
        ("POST", "/w/tok/live/", (), False),
        ("GET", "/w/tok/", (), False),
        # A club night's board asks for itself on its own page (htmx, from #live).
        ("GET", "/n/tok/display/", (("HX-Request", "true"), ("HX-Trigger", "live")), True),
        ("GET", "/n/tok/display/", (("HX-Request", "true"), ("HX-Trigger", "other")), False),
        ("POST", "/n/tok/", (("HX-Request", "true"), ("HX-Trigger", "live")), False),
    ],
)
def test_which_requests_are_polls(
    method: str, path: str, headers: tuple[tuple[str, str], ...], polled: bool
) -> None:
    assert is_poll(scope(method, path, *headers)) is polled


def test_every_live_regions_route_ends_in_live_and_nothing_else_does() -> None:
    routes = {
        str(pattern.pattern): pattern.name
        for pattern in get_resolver().url_patterns
        if isinstance(pattern, URLPattern)
    }
    live = {route for route, name in routes.items() if (name or "").endswith("_live")}
    assert live and live == {route for route in routes if route.endswith("live/")}


# Through the app asgi.py serves: Django's handler, with every turn taken.

_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_HIDDEN = re.compile(r'<input type="hidden" name="(number|revision|form_key)" value="([^"]*)"')


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The application `asgi.py` gives the server (without its warm-up, which freezes this test
    process's objects out of the garbage collector), with one turn."""
    monkeypatch.setattr("scorekeeper.warm.warm", lambda: None)
    application = importlib.import_module("scorekeeper.asgi").application
    assert isinstance(application, Shed)
    assert application.at_once == settings.REQUESTS_AT_ONCE > 0
    monkeypatch.setattr(application, "at_once", 1)
    monkeypatch.setattr(shedding, "BEHIND", 0.01)
    # Each request's thread ends with it: its connection goes too, as it would not be reused.
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    return application


@pytest.mark.django_db(transaction=True)  # the handler's threads read what the test made
def test_the_served_app_sheds_a_watchers_poll_and_stores_the_scorers_save(
    served: Any, game: GameSession
) -> None:
    game.watch_token, game.scorer_token = "w-shed", "s-shed"
    game.save(update_fields=["watch_token", "scorer_token"])
    form = ("Content-Type", "application/x-www-form-urlencoded")

    async def job() -> tuple[Answer, Answer, Answer, Answer, bool]:
        named = await request(served, "GET", "/s/s-shed/name/")
        jar = named.cookies()
        token = _CSRF.search(named.body.decode())
        assert token, named.body[:500]
        cookie = ("Cookie", "; ".join(f"{k}={v}" for k, v in jar.items()))
        sent = await request(
            served, "POST", "/s/s-shed/name/", cookie, form,
            body=f"csrfmiddlewaretoken={token.group(1)}&name=Sam".encode(),
        )  # fmt: skip
        jar |= sent.cookies()
        cookie = ("Cookie", "; ".join(f"{k}={v}" for k, v in jar.items()))
        page = (await request(served, "GET", "/s/s-shed/", cookie)).body.decode()
        fields = {name: unescape(value) for name, value in _HIDDEN.findall(page)}
        fields["csrfmiddlewaretoken"] = _CSRF.findall(page)[-1]
        data = worked_deal_form() | fields

        served.running = 1  # the one turn taken, by a request of another phone
        saving = asyncio.create_task(request(
            served, "POST", "/s/s-shed/", cookie, form,
            body="&".join(f"{k}={v}" for k, v in data.items()).encode(),
        ))  # fmt: skip
        await asyncio.sleep(0.05)
        waited = not saving.done() and len(served.waiting[FIRST]) == 1
        poll = await request(served, "GET", "/w/w-shed/live/", ("If-None-Match", '"v1"'))
        board = await request(
            served, "GET", "/w/w-shed/", ("HX-Request", "true"), ("HX-Trigger", "live")
        )
        served._pass_on()  # that request answered: its turn goes to the save
        save = await saving
        jar |= save.cookies()  # its message, in Django's signed cookie
        cookie = ("Cookie", "; ".join(f"{k}={v}" for k, v in jar.items()))
        after = await request(served, "GET", "/s/s-shed/", cookie)
        return poll, board, save, after, waited

    poll, board, save, after, waited = _run(job)
    assert (poll.status, poll.header("retry-after")) == (503, str(RETRY_AFTER))
    assert poll.body == BODY
    assert (board.status, board.header("retry-after")) == (503, str(RETRY_AFTER))
    assert waited
    assert save.status == 302, save.body[:500]
    assert after.status == 200
    assert "Deal 1 saved" in after.body.decode()
    assert Change.objects.filter(session=game, action="added").count() == 1
    assert len(GameSession.objects.with_seats().get(pk=game.pk).entries()) == 1
    assert (served.running, served.in_flight) == (0, 0)
