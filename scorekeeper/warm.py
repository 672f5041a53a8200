"""A server process made ready before it takes its first request.

Without this, each gunicorn worker and uvicorn process imports the views, compiles the
templates and reads the translation catalogues inside its first few requests: the phones that
join while the workers start wait for that. Done at start, it is off the table's clock.

That includes what Django leaves to a first use: the templates of the apps (crispy forms) and
of the form widgets, the context processors, and the Redis client library, which Django's Redis
cache imports at its first read. Left to the first use, each would land on a page a phone
waits for, and make each worker's first pages its slowest (BENCHMARKS.md's register,
`bench_load --real-pace`).

The objects made so far live as long as the process, so they are then frozen out of the
garbage collector's reach: its full collections, which pause every request the process is
serving, look only at what the requests leave behind.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.forms.renderers import EngineMixin, get_default_renderer
from django.template import engines
from django.template.backends.django import DjangoTemplates
from django.urls import get_resolver
from django.utils import translation


def warm() -> None:
    """Import every view, compile every template (the project's, the apps' and the form
    widgets'), read every language's catalogue, load the context processors and the cache's
    client library, then freeze what exists now (Python's gc.freeze). No database or cache
    server is needed: a worker starts while the database is down, and answers 503 until it
    is back."""
    get_resolver().reverse_dict  # noqa: B018 (imports every view module and names every URL)
    for engine in engines.all():
        _compile(engine.get_template, [*getattr(engine, "dirs", ()), *_app_templates()])
        if isinstance(engine, DjangoTemplates):
            engine.engine.template_context_processors  # noqa: B018 (imports them)
    renderer = get_default_renderer()
    if isinstance(renderer, EngineMixin):
        _compile(renderer.get_template, renderer.engine.dirs)
    for alias in settings.CACHES:
        if isinstance(caches[alias], RedisCache):
            import redis  # noqa: F401 (what Django's Redis cache imports at its first use)
    for code, _name in settings.LANGUAGES:
        translation.activate(code)  # reads the language's catalogue, kept by the process
    translation.deactivate()
    gc.collect()
    gc.freeze()


def _compile(get_template: Callable[[str], object], folders: Iterable[Path | str]) -> None:
    """Compile each template under `folders` as `get_template` finds it by name."""
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.html")):
            get_template(str(path.relative_to(folder)))


def _app_templates() -> list[Path]:
    """The apps' template folders, but the admin's: its pages are the operator's, seldom
    opened, and its templates compiled in every worker would hold memory that no phone's page
    uses."""
    folders = (
        Path(app.path) / "templates" for app in apps.get_app_configs() if app.label != "admin"
    )
    return [folder for folder in folders if folder.is_dir()]
