"""Request types for views (what django-htmx and login_required add to HttpRequest); the
answer to a database out of reach, which the middleware and the 500 handler both give; and
the headers of every page a link opens."""

from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.template import loader
from django.utils.cache import patch_cache_control
from django_htmx.middleware import HtmxDetails

DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After, from a template that needs no database."""
    sent = request.method == "POST"
    page = loader.render_to_string("503.html", {"sent": sent})
    return HttpResponse(page, status=503, headers={"Retry-After": "5"})


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthedRequest(HtmxHttpRequest):
    """A request that passed @login_required."""

    user: User


# What every page a link opens sends (a session's watch and scorer links, a night's link, a
# table's card, a season's link: every URL with a token), as SECURITY.md promises it: no other
# site is told the link in a Referer, no search engine lists it, and no cache shared between
# people keeps it or answers it without asking the server. The referrer policy is
# same-origin, not no-referrer: under no-referrer the browser posts a page's forms (a scorer's
# deal, the footer's language switch) with `Origin: null`, which the CSRF check refuses.
# The table pages that a phone keeps for offline (`views.table.table_page_headers`) may be
# stored by that phone; no other page.
LINK_HEADERS = {"Referrer-Policy": "same-origin", "X-Robots-Tag": "noindex"}


def link_headers(response: HttpResponseBase, *, kept_offline: bool = False) -> HttpResponseBase:
    """Give a link's answer the headers every link's answer carries; `kept_offline`: it is a
    table page, which the phone may store."""
    if not kept_offline:
        patch_cache_control(response, no_store=True)
    patch_cache_control(response, private=True, no_cache=True, must_revalidate=True, max_age=0)
    for name, value in LINK_HEADERS.items():
        response[name] = value
    return response
