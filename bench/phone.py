"""A phone at the table, as the load benchmark and the fault tests play it: plain HTTP.

It keeps cookies (session and CSRF), reads the deal form the page shows and posts
it back the way a browser without JavaScript does. One request per connection, as
gunicorn's sync workers serve them. It accepts gzip, as phones do, and counts the bytes
that came over the wire. Standard library only.

AsyncPhone is the same phone for the load benchmark: thousands of them in one asyncio
process (aiohttp), so that the client is not what limits the run.
"""

from __future__ import annotations

import gzip
import http.client
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import unescape
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import aiohttp

from scorekeeper.rules import trick

_INPUT = re.compile(r"<input\b[^>]*>")
_ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')
_STANDING = re.compile(
    r'<tr><td>\d+</td><th scope="row">([^<]+?)(?: <span[^>]*>[^<]*</span>)?</th>'
    r'(?:<td class="text-end">-?\d+</td>)?<td class="text-end fw-bold">(-?\d+)</td></tr>'
)


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes  # decompressed
    seconds: float
    wire_bytes: int  # the body as it came (compressed), plus the status line and headers re-counted

    @property
    def text(self) -> str:
        return self.body.decode()


class ServerGone(Exception):
    """The connection broke before a whole response came back (a dead worker, say)."""


def _outgoing(
    base_url: str,
    path: str,
    cookies: dict[str, str],
    body: dict[str, str] | None,
    headers: dict[str, str],
) -> tuple[dict[str, str], bytes | None]:
    """The headers and body a phone sends: gzip accepted as every phone's browser asks, its
    cookies, and a form as a browser posts it (with the same origin Django's CSRF check wants)."""
    sent = {
        "Accept-Encoding": "gzip",
        **{k.replace("_", "-"): v for k, v in headers.items()},
    }
    if cookies:
        sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    payload = None
    if body is not None:
        payload = urlencode(body).encode()
        sent["Content-Type"] = "application/x-www-form-urlencoded"
        sent["Referer"] = base_url + path
        sent["Origin"] = base_url
    return sent, payload


def _keep_cookies(cookies: dict[str, str], set_cookies: Iterable[str]) -> None:
    """Keep the cookies a response sets, as a browser does."""
    for value in set_cookies:
        for name, morsel in SimpleCookie(value).items():
            cookies[name] = morsel.value


@dataclass
class Phone:
    base_url: str
    timeout: float = 30.0
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self, method: str, path: str, body: dict[str, str] | None = None, **headers: str
    ) -> Response:
        parts = urlsplit(self.base_url)
        connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port, timeout=self.timeout
        )
        sent, payload = _outgoing(self.base_url, path, self.cookies, body, headers)
        sent = {"Host": parts.netloc, **sent}
        started = time.perf_counter()
        try:
            connection.request(method, path, body=payload, headers=sent)
            answer = connection.getresponse()
            data = answer.read()
        except (OSError, http.client.HTTPException) as error:
            raise ServerGone(f"{method} {path}: {error!r}") from error
        finally:
            connection.close()
        seconds = time.perf_counter() - started
        _keep_cookies(self.cookies, answer.headers.get_all("Set-Cookie") or [])
        head = sum(len(k) + len(v) + 4 for k, v in answer.headers.items()) + 17
        zipped = answer.headers["Content-Encoding"] == "gzip"
        content = gzip.decompress(data) if zipped else data
        return Response(
            answer.status, dict(answer.headers.items()), content, seconds, head + len(data)
        )

    def get(self, path: str, **headers: str) -> Response:
        return self.request("GET", path, None, **headers)

    def post(self, path: str, data: dict[str, str], **headers: str) -> Response:
        return self.request("POST", path, data, **headers)


def form_fields(html: str, form_id: str = "deal-form") -> dict[str, str]:
    """The hidden and text inputs of one form on a page, by name."""
    start = html.find(f'id="{form_id}"')
    if start < 0:
        return {}
    end = html.find("</form>", start)
    values = {}
    for tag in _INPUT.findall(html[start:end]):
        attrs = dict(_ATTR.findall(tag))
        if "name" in attrs:
            values[attrs["name"]] = unescape(attrs.get("value", ""))
    return values


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    return match.group(1) if match else ""


def standings(html: str) -> dict[str, int]:
    """The totals in a page's standings table, by player."""
    return {unescape(name): int(total) for name, total in _STANDING.findall(html)}


def deal_post(
    entry: trick.DealEntry, players: tuple[str, ...], form: dict[str, str]
) -> dict[str, str]:
    """The deal form as a scorer fills it in for `entry`, keeping the page's hidden fields."""
    data = {
        name: value
        for name, value in form.items()
        if name in ("csrfmiddlewaretoken", "number", "revision", "form_key")
    }
    for index, name in enumerate(players):
        hand = entry.hands[name]
        data[f"h{index}-tricks"] = str(hand.tricks)
        if hand.bid is not None:
            data[f"h{index}-bid"] = str(hand.bid)
        if hand.made is not None:
            data[f"h{index}-made"] = "made" if hand.made else "failed"
        if hand.premium:
            data[f"h{index}-premium"] = hand.premium
    if entry.trump:
        data["trump"] = entry.trump
    data["save"] = ""
    return data


def phone_client(timeout: float | None = 30.0, *, stream: bool = False) -> aiohttp.ClientSession:
    """A phone's own HTTP client (one connection at a time, as a phone's page makes its requests
    one after another), in the one asyncio process of a load run.

    Each phone has its own: one client shared by thousands of phones spent more CPU time in
    its connection pool than the server spent answering. aiohttp rather than httpx: its
    parser is compiled, and a request cost the client about a quarter of httpx's CPU time
    (0.5 against 2.1 ms, measured against a bare asyncio server), which on two cores is
    CPU the app servers get back. Cookies are AsyncPhone's own (the jar keeps none), and
    bodies come as sent, so the bytes over the wire are counted before they are unzipped;
    an event stream's client (`stream`) unzips as the events come, as a browser does.
    """
    return aiohttp.ClientSession(
        cookie_jar=aiohttp.DummyCookieJar(),
        connector=aiohttp.TCPConnector(limit=1),
        timeout=aiohttp.ClientTimeout(total=timeout),
        auto_decompress=stream,
    )


# What a broken or refused connection, or an answer that never came, raises.
CLIENT_ERRORS = (aiohttp.ClientError, TimeoutError)


@dataclass
class AsyncPhone:
    """A phone as Phone is, for thousands of phones in one asyncio process."""

    client: aiohttp.ClientSession
    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)

    async def request(
        self, method: str, path: str, body: dict[str, str] | None = None, **headers: str
    ) -> Response:
        sent, payload = _outgoing(self.base_url, path, self.cookies, body, headers)
        started = time.perf_counter()
        try:
            async with self.client.request(
                method, self.base_url + path, data=payload, headers=sent, allow_redirects=False
            ) as answer:
                data = await answer.read()
                status, raw = answer.status, answer.headers
        except CLIENT_ERRORS as error:
            raise ServerGone(f"{method} {path}: {error!r}") from error
        seconds = time.perf_counter() - started
        _keep_cookies(self.cookies, raw.getall("Set-Cookie", ()))
        received = {name.lower(): value for name, value in raw.items()}
        head = sum(len(k) + len(v) + 4 for k, v in received.items()) + 17
        zipped = received.get("content-encoding") == "gzip"
        content = gzip.decompress(data) if zipped else data
        return Response(status, received, content, seconds, head + len(data))

    async def get(self, path: str, **headers: str) -> Response:
        return await self.request("GET", path, None, **headers)

    async def post(self, path: str, data: dict[str, str], **headers: str) -> Response:
        return await self.request("POST", path, data, **headers)
