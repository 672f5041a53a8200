"""The page of a stored session whose rules are no longer accepted (models.UnreadableRules).

A session stored before the bounds (RULES.md §3, Bounds) existed can hold a value past them,
such as a match of 5,000 deals. Its pages that need the rules cannot be drawn; instead of a
500 they answer 409 with this page: which option holds which value, and what the rules accept
now. Nothing stored is changed or cut down to size. The owner is offered what still works
without the rules: the scoresheet file as stored, and deleting the session (kept under the
deleted sessions, as every deletion is).
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from scorekeeper.forms.rules import stored_problems
from scorekeeper.models import UnreadableRules

logger = logging.getLogger(__name__)


def unreadable_session(request: HttpRequest, error: UnreadableRules) -> HttpResponse:
    session = error.session
    logger.warning("Session %s: stored rules refused: %s", session.public_id, error)
    user = getattr(request, "user", None)
    owner = (
        user is not None
        and user.is_authenticated
        and user.pk == session.owner_id
        and session.deleted is None
    )
    ctx = {
        "session": session,
        "problems": stored_problems(session.rules_family, session.options, error.problems),
        "owner": owner,
    }
    response = render(request, "scorekeeper/session_unreadable.html", ctx, status=409)
    add_never_cache_headers(response)
    if getattr(request, "htmx", False):
        # A fragment asked for by an open page: load the whole page again, which is this one.
        response["HX-Refresh"] = "true"
    return response
