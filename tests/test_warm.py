"""A server process is made ready before its first request (scorekeeper/warm.py): its views
imported, its templates compiled (the apps' and the form widgets' too), its catalogues read,
its context processors and cache client loaded, and what it made frozen out of the garbage
collector's full collections."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import gc, json, sys
from django.db import connection
from django.forms.renderers import get_default_renderer
from django.template import engines
from django.utils import translation
from django.utils.translation import trans_real
import {module}
loader = engines["django"].engine.template_loaders[0]
widgets = get_default_renderer().engine.engine.template_loaders[0]
print(json.dumps({{
    "widgets": sorted(widgets.get_template_cache),
    "processors": "template_context_processors" in vars(engines["django"].engine),
    "redis": "redis" in sys.modules,
    "frozen": gc.get_freeze_count(),
    "views": "scorekeeper.views.live" in sys.modules,
    "templates": sorted(loader.get_template_cache),  # (a name without a dash is its key)
    "languages": sorted(trans_real._translations),
    "active": translation.get_language(),
    "database": connection.connection is not None,
}}))
"""


@pytest.mark.parametrize("module", ["scorekeeper.wsgi", "scorekeeper.asgi"])
def test_a_server_process_is_ready_before_its_first_request(module):
    found = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROBE.format(module=module)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={
                "PATH": "/usr/bin:/bin",
                "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
                # A Redis cache whose server does not answer: its client is loaded all the same.
                "REDIS_URL": "redis://127.0.0.1:1/0",
            },
        ).stdout
    )
    project = sorted(
        str(path.relative_to(ROOT / "templates")) for path in (ROOT / "templates").rglob("*.html")
    )
    assert set(project) <= set(found["templates"])  # every project template compiled
    assert {"trick/deal_form.html", "base.html"} <= set(project)
    assert found["views"]
    assert "bootstrap5/field.html" in found["templates"]  # the apps' (crispy forms)
    assert "django/forms/widgets/input.html" in found["widgets"]  # the form widgets'
    assert found["processors"]
    assert found["redis"]  # Django's Redis cache imports it at its first use
    assert {"en", "fr"} <= set(found["languages"])
    assert found["active"] == "en"  # the default again: no request inherits a language
    assert not found["database"]  # made ready with no database (it may be down at start)
    assert found["frozen"] > 10_000  # the start's objects, out of the full collections
