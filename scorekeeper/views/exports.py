"""A session downloaded: as its scoresheet file (FORMAT.md), or as CSV for a spreadsheet.

Both are named alike, after the session's title (or rules) and day, in ASCII letters, digits
and hyphens (`presenters.downloads.file_name`), so the two files of one evening sort side by
side. Both come from the result kept for the session's version; neither is stored by browsers or
proxies (`never_cache`). A session whose stored rules are no longer accepted (a value stored
before the bounds existed) still downloads its scoresheet file, as stored: what was entered,
without the computed fields, which need the rules.
"""

from __future__ import annotations

import csv

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scorekeeper import live
from scorekeeper.http import AuthedRequest
from scorekeeper.models import UnreadableRules
from scorekeeper.presenters.common import spreadsheet_safe
from scorekeeper.presenters.downloads import file_name, scoresheet, stored_file
from scorekeeper.presenters.registry import presenter
from scorekeeper.views.access import session_for_user


@login_required
@require_GET
@never_cache
def session_scoresheet(request: AuthedRequest, public_id: str) -> HttpResponse:
    session = session_for_user(request, public_id)
    try:
        text = scoresheet(session, live.result(session))
    except UnreadableRules:
        text = stored_file(session)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_name(session)}.json"'
    return response


@login_required
@require_GET
@never_cache
def session_csv(request: AuthedRequest, public_id: str) -> HttpResponse:
    session = session_for_user(request, public_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_name(session)}.csv"'
    rows = presenter(session.family).csv_rows(live.result(session))
    csv.writer(response).writerows(spreadsheet_safe(rows))
    return response
