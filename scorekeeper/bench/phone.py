"""A phone at the table, as the load benchmark and the fault tests play it: plain HTTP.

It keeps cookies (session and CSRF), reads the deal form the page shows and posts
it back the way a browser without JavaScript does. One request per connection, as
gunicorn's sync workers serve them. It accepts gzip, as phones do, and counts the bytes
that came over the wire. Standard library only.

AsyncPhone is the same phone for the load benchmark: thousands of them in one asyncio
process (httpx), so that the client is not what limits the run.
"""

from __future__ import annotations

import gzip
import http.client
import re
import ssl
import time
from dataclasses import dataclass, field
from html import unescape
from http.cookiejar import CookieJar, DefaultCookiePolicy
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import httpx

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
        sent = {
            "Host": parts.netloc,
            "Accept-Encoding": "gzip",  # as every phone's browser asks
            **{k.replace("_", "-"): v for k, v in headers.items()},
        }
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        payload = None
        if body is not None:
            payload = urlencode(body).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Referer"] = self.base_url + path  # Django's CSRF check wants a same origin
            sent["Origin"] = self.base_url
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
        for value in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
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


def phone_client(tls: ssl.SSLContext, timeout: float | None = 30.0) -> httpx.AsyncClient:
    """A phone's own HTTP client (one connection at a time, as a phone's page makes its requests
    one after another), in the one asyncio process of a load run.

    Each phone has its own: one client shared by thousands of phones spent more CPU time in
    its connection pool than the server spent answering (about 6 ms a request, with a thousand
    requests waiting). `tls` is made once for all of them (loading the certificates is what a
    new client costs). Its cookie jar refuses every cookie: AsyncPhone keeps them itself.
    """
    return httpx.AsyncClient(
        cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])),
        verify=tls,
        limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
        timeout=timeout,
        follow_redirects=False,
    )


@dataclass
class AsyncPhone:
    """A phone as Phone is, for thousands of phones in one asyncio process."""

    client: httpx.AsyncClient
    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)

    async def request(
        self, method: str, path: str, body: dict[str, str] | None = None, **headers: str
    ) -> Response:
        sent = {
            "Accept-Encoding": "gzip",
            **{k.replace("_", "-"): v for k, v in headers.items()},
        }
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        payload = None
        if body is not None:
            payload = urlencode(body).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Referer"] = self.base_url + path
            sent["Origin"] = self.base_url
        started = time.perf_counter()
        try:
            answer = await self.client.request(
                method, self.base_url + path, content=payload, headers=sent
            )
        except httpx.TransportError as error:
            raise ServerGone(f"{method} {path}: {error!r}") from error
        seconds = time.perf_counter() - started
        for value in answer.headers.get_list("set-cookie"):
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
        return Response(
            answer.status_code,
            dict(answer.headers.items()),
            answer.content,
            seconds,
            answer.num_bytes_downloaded,
        )

    async def get(self, path: str, **headers: str) -> Response:
        return await self.request("GET", path, None, **headers)

    async def post(self, path: str, data: dict[str, str], **headers: str) -> Response:
        return await self.request("POST", path, data, **headers)
