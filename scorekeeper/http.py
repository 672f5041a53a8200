"""Request types for views (what django-htmx and login_required add to HttpRequest), and the
answer to a database out of reach, which the middleware and the 500 handler both give."""

from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
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
