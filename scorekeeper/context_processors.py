import ipaddress

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.http.request import split_domain_port
from django.utils.functional import SimpleLazyObject

from scorekeeper.owner import ANONYMOUS, owner_mark

THEMES = ("auto", "light", "dark")
THEME_COOKIE = "theme"


def current_theme(request: HttpRequest) -> str:
    theme = request.COOKIES.get(THEME_COOKIE, "auto")
    return theme if theme in THEMES else "auto"


def theme(request: HttpRequest) -> dict[str, str]:
    """`theme`: the phone's colour choice, as the page is rendered (static/js/theme.js applies
    the cookie's again on the phone, where a page kept for every phone says "auto")."""
    return {"theme": current_theme(request)}


def secure_context(request: HttpRequest) -> bool:
    """Whether the browser treats this page as a secure context (HTTPS, or this computer
    itself), where service workers and the screen wake lock are allowed."""
    if request.is_secure():
        return True
    try:
        host, _port = split_domain_port(request.get_host())
    except DisallowedHost:
        return True  # an error page of its own; nothing to say about features
    host = host.strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def connection(request: HttpRequest) -> dict[str, bool]:
    """`plain_http`: the page came over plain HTTP from another computer (a phone on the
    table's Wi-Fi), so the browser has turned off offline sheets, install and wake lock."""
    return {"plain_http": not secure_context(request)}


def owner(request: HttpRequest) -> dict[str, object]:
    """`owner_mark`: whose the page is (scorekeeper.owner), worked out if the page shows it;
    `anonymous_mark`: the mark of nobody logged in."""
    return {
        "owner_mark": SimpleLazyObject(lambda: owner_mark(request)),
        "anonymous_mark": ANONYMOUS,
    }


# Sent by the service worker when it fetches a page in the background to keep as its copy
# (templates/cheatsheets/sw.js), not for the phone to show.
KEPT_COPY_HEADER = "X-Kept-Copy"


def kept_copy(request: HttpRequest) -> dict[str, object]:
    """No messages on a page fetched to be kept as a copy. A message is said once, on the next
    page the phone shows; the worker's fetch of the page in the background (as it starts, or
    keeping a copy again) can land between a save and the page that says "Deal 2 saved", and
    would take the message from it. Left unread, it stays for that page."""
    if request.headers.get(KEPT_COPY_HEADER):
        return {"messages": ()}
    return {}
