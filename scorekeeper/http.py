"""Request types for views: what django-htmx and login_required add to HttpRequest."""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthedRequest(HtmxHttpRequest):
    """A request that passed @login_required."""

    user: User
