"""Sharing a session: its watch and scorer links, and the pages they open.

The owner turns each link on, replaces it or turns it off on the Share page, which shows each
at an address the phones can open, with its QR code. A watch link opens the live standings,
read-only, without an account; a scorer link opens the table page and the corrections, under
the name the phone types. Pages that show link tokens are never stored by browsers or proxies
(`never_cache`), but the links' table pages, which the phone's service worker keeps a copy of
for offline (`table_page_headers`).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import live
from scorekeeper.forms.accounts import ScorerNameForm
from scorekeeper.http import AuthedRequest, HtmxHttpRequest
from scorekeeper.services import change_link
from scorekeeper.views.access import (
    SCORER_NAME_KEY,
    Table,
    owner_table,
    scorer_name,
    scorer_session,
    scorer_table,
    version_by,
    watch_table,
)
from scorekeeper.views.live import board, region
from scorekeeper.views.table import correction, grid, table_page, table_page_headers

# Sharing

LINK_ACTIONS = ("on", "replace", "off")  # what the owner does with a link


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def session_share(request: AuthedRequest, public_id: str) -> HttpResponse:
    """Turn the watch and scorer links on, replace them, or turn them off."""
    table = owner_table(request, public_id)
    session = table.session
    if request.method == "POST":
        for kind in ("watch", "scorer"):
            action = request.POST.get(kind)
            if action in LINK_ACTIONS:
                session = change_link(session=session, kind=kind, action=action)
                messages.success(request, _share_message(kind, action))
        return redirect("session_share", public_id)
    site = phone_site(request)
    links: dict[str, dict[str, str | None]] = {}
    for kind, token, name, title in [
        (
            "watch",
            session.watch_token,
            "watch",
            _("%(session)s: live standings") % {"session": session},
        ),
        (
            "scorer",
            session.scorer_token,
            "scorer",
            _("%(session)s: keep score with us") % {"session": session},
        ),
    ]:
        if token and site:
            url = site + reverse(name, args=[token])
            links[kind] = {"url": url, "qr": qr_svg(url), "title": title}
        elif token:
            links[kind] = {"url": None}
    ctx = {"session": session, "base": table.base, "site": site, **links, **no_site_cause()}
    return render(request, "scorekeeper/session_share.html", ctx)


def phone_site(request: HttpRequest) -> str | None:
    """The address a phone at the table opens this site at ("http://192.168.1.20:8000"):
    SITE_URL when set; else the address this page was opened at, unless that is this
    computer's own (localhost, 127.0.0.1, ::1), which no phone can open: None."""
    if settings.SITE_URL:
        return str(settings.SITE_URL)
    host = urlsplit(f"//{request.get_host()}").hostname or ""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost" or host.endswith(".localhost")
    return None if loopback else f"{request.scheme}://{request.get_host()}"


def no_site_cause() -> dict[str, list[str]]:
    """Where a page has no address to give the phones, scripts/run's word on why, when BIND is
    the cause (scorekeeper/bind_only.html): where it listens, and this computer's address."""
    return {"bind_only": settings.BIND_ONLY, "bind_leaves_out": settings.BIND_LEAVES_OUT}


def _share_message(kind: str, action: str) -> str:
    if kind == "watch":
        if action == "off":
            return _("The watch link is off: it opens nothing now.")
        if action == "replace":
            return _("New watch link made; the old one opens nothing now.")
        return _("The watch link is on.")
    if action == "off":
        return _("The scorer link is off: it opens nothing now.")
    if action == "replace":
        return _("New scorer link made; the old one opens nothing now.")
    return _("The scorer link is on.")


def qr_svg(url: str) -> str:
    import segno

    code = segno.make(url, error="m")
    svg: str = code.svg_inline(scale=5, dark="#000", light="#fff", omitsize=True)
    return svg


# The watch link: read-only live standings, no account


@require_GET
@table_page_headers
def watch(request: HtmxHttpRequest, token: str) -> HttpResponse:
    version = version_by(request, watch_token=token)
    base = reverse("watch", args=[token])

    def page(shared: dict[str, object]) -> HttpResponse:
        name, shown = live.board(base, version, lambda: board(request, watch_table(request, token)))
        ctx = {"name": name, "base": base, "board": shown, **shared}
        return render(request, "scorekeeper/watch.html", ctx)

    return live.page(request, base, version, page)


@require_GET
@never_cache
def watch_grid(request: HtmxHttpRequest, token: str, unit: str) -> HttpResponse:
    return grid(request, watch_table(request, token), unit)


@require_GET
@never_cache
def watch_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    version = version_by(request, watch_token=token)
    return live.not_modified(request, version) or live.fragment(
        request,
        reverse("watch", args=[token]),
        version,
        lambda: region(request, watch_table(request, token)),
    )


# The scorer link: enter and correct without an account, under a name


def _scorer_or_name(request: HtmxHttpRequest, token: str) -> Table | HttpResponse:
    table = scorer_table(request, token)
    if not scorer_name(request, token):
        return redirect("scorer_name", token)
    return table


@require_http_methods(["GET", "POST"])
@table_page_headers
def scorer(request: HtmxHttpRequest, token: str) -> HttpResponse:
    table = _scorer_or_name(request, token)
    return table if isinstance(table, HttpResponse) else table_page(request, table)


@require_http_methods(["GET", "POST"])
@never_cache
def scorer_correction(request: HtmxHttpRequest, token: str, number: int, unit: str) -> HttpResponse:
    table = _scorer_or_name(request, token)
    return table if isinstance(table, HttpResponse) else correction(request, table, number, unit)


@require_GET
@never_cache
def scorer_grid(request: HtmxHttpRequest, token: str, unit: str) -> HttpResponse:
    table = _scorer_or_name(request, token)
    return table if isinstance(table, HttpResponse) else grid(request, table, unit)


@require_GET
@never_cache
def scorer_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    version = version_by(request, scorer_token=token)
    return live.not_modified(request, version) or region(request, scorer_table(request, token))


@require_http_methods(["GET", "POST"])
@never_cache
def scorer_name_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    session = scorer_session(request, token)
    form = ScorerNameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        names = dict(request.session.get(SCORER_NAME_KEY, {}))
        names[token] = form.cleaned_data["name"]
        request.session[SCORER_NAME_KEY] = names
        return redirect("scorer", token)
    ctx = {"session": session, "form": form, "token": token}
    return render(request, "scorekeeper/scorer_name.html", ctx)


@require_POST
def scorer_forget(request: HttpRequest, token: str) -> HttpResponse:
    version_by(request, scorer_token=token)  # a link that opens nothing is a 404 here too
    names = dict(request.session.get(SCORER_NAME_KEY, {}))
    names.pop(token, None)
    request.session[SCORER_NAME_KEY] = names
    return redirect("scorer_name", token)
