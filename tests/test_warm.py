"""A server process is made ready before its first request (scorekeeper/warm.py): its views
imported, its templates compiled, its catalogues read, and what it made frozen out of the
garbage collector's full collections."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import gc, json, sys
from django.db import connection
from django.template import engines
from django.utils import translation
from django.utils.translation import trans_real
import {module}
loader = engines["django"].engine.template_loaders[0]
print(json.dumps({{
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
            env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "scorekeeper.settings"},
        ).stdout
    )
    project = sorted(
        str(path.relative_to(ROOT / "templates")) for path in (ROOT / "templates").rglob("*.html")
    )
    assert set(project) <= set(found["templates"])  # every project template compiled
    assert {"trick/deal_form.html", "base.html"} <= set(project)
    assert found["views"]
    assert {"en", "fr"} <= set(found["languages"])
    assert found["active"] == "en"  # the default again: no request inherits a language
    assert not found["database"]  # made ready with no database (it may be down at start)
    assert found["frozen"] > 10_000  # the start's objects, out of the full collections
