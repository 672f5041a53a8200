"""A server process made ready before it takes its first request.

Without this, each gunicorn worker and uvicorn process imports the views, compiles the
templates and reads the translation catalogues inside its first few requests: the phones that
join while the workers start wait for that. Done at start, it is off the table's clock.

The objects made so far live as long as the process, so they are then frozen out of the
garbage collector's reach: its full collections, which pause every request the process is
serving, look only at what the requests leave behind.
"""

from __future__ import annotations

import gc
from pathlib import Path

from django.conf import settings
from django.template import engines
from django.urls import get_resolver
from django.utils import translation


def warm() -> None:
    """Import every view, compile every project template, read every language's catalogue,
    then freeze what exists now (Python's gc.freeze). No database is needed: a worker starts
    while the database is down, and answers 503 until it is back."""
    get_resolver().reverse_dict  # noqa: B018 (imports every view module and names every URL)
    for engine in engines.all():
        for folder in getattr(engine, "dirs", ()):
            for path in sorted(Path(folder).rglob("*.html")):
                engine.get_template(str(path.relative_to(folder)))
    for code, _name in settings.LANGUAGES:
        translation.activate(code)  # reads the language's catalogue, kept by the process
    translation.deactivate()
    gc.collect()
    gc.freeze()
