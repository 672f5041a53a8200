"""The printable rule sheets and blank score pads of every ruleset, and the offline support.

Everything a sheet says comes from the rules package, the same data the scoring uses: the
presets, their options in words, the rule prose and the card tables. The views only read the
query string (`forms.rules.RulesQuery`), call the rules, and hand the family's presenter's
shaping to the templates.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import URLPattern, get_resolver, reverse
from django.utils.cache import patch_cache_control
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_safe

from scorekeeper.context_processors import KEPT_COPY_HEADER
from scorekeeper.forms.rules import (
    PLAYERS_PARAM,
    RulesQuery,
    problem_text,
    resolve_keeping,
    rules_params,
)
from scorekeeper.http import AuthedRequest
from scorekeeper.owner import ANONYMOUS
from scorekeeper.presenters.documents import render_document
from scorekeeper.presenters.registry import presenter, template
from scorekeeper.rules.common import InvalidRules, seat_names
from scorekeeper.rules.registry import Family
from scorekeeper.views import deals, rounds
from scorekeeper.views.access import session_for_user
from scorekeeper.views.sessions import families, preset_of

# What the service worker stores when it is installed; sheets are stored as they are opened.
# The table pages' own files are among them: a table page may be stored by the very visit that
# installed the worker, whose files did not pass through it, and its copy must open offline.
PRECACHED_STATIC = tuple(
    dict.fromkeys(
        (
            "vendor/bootstrap-5.3.9/bootstrap.min.css",
            "css/app.css",
            "css/print.css",
            "css/print-table.css",
            "js/print.js",
            "js/theme.js",
            "js/csrf.js",
            "js/plain-http.js",
            "js/sw-register.js",
            "django_htmx/htmx-2.min.js",
            "icons/favicon.svg",
            "icons/icon-192.png",
            "icons/icon-512.png",
            *deals.SCRIPTS,
            *rounds.SCRIPTS,
            "js/offline-copy.js",
            "js/forget.js",
        )
    )
)

# The table pages, where scores are entered and watched: the service worker keeps the last copy
# of each that the phone opened, and shows it offline marked as a copy.
TABLE_PAGES = ("session", "scorer", "watch")


def _sheet_links(family: str, preset: Any, params: Mapping[str, str]) -> dict[str, str]:
    query = f"?{urlencode(params)}" if params else ""
    return {
        "sheet_url": reverse("rule_sheet", args=[family, preset.id]) + query,
        "pad_url": reverse("score_pad", args=[family, preset.id]) + query,
    }


def _sheet_context(rules_family: Family, rules: Any) -> dict[str, object]:
    return {
        "family": rules_family.ID,
        "rules_family": rules_family,
        "sheet_template": template(rules_family.ID, "sheet"),
        "house_rules": rules.house_rules(),
        **presenter(rules_family.ID).sheet_context(rules),
    }


def sheet_context(rules_family: Family, rules: Any, *, pad: bool = False) -> dict[str, object]:
    """What a rule sheet (or, with `pad`, a score pad) of these rules shows, but its links."""
    if pad:
        return {
            **presenter(rules_family.ID).pad_context(rules),
            "family": rules_family.ID,
            "rules": rules,
            "house_rules": rules.house_rules(),
            "preset": rules.preset,
        }
    return {**_sheet_context(rules_family, rules), "preset": rules.preset}


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "cheatsheets/index.html", {"families": families()})


# The documents the app is held to, shipped in the repository's docs/, and their pages.
DOCUMENTS = settings.BASE_DIR / "docs"
DOCUMENT_PAGES = {"RULES.md": "rules_document", "FORMAT.md": "format_document"}


@require_GET
def document(request: HttpRequest, name: str) -> HttpResponse:
    """docs/RULES.md or docs/FORMAT.md as a page (presenters.documents)."""
    text = (DOCUMENTS / name).read_text(encoding="utf-8")
    shown = render_document(text, _document_page)
    return render(request, "cheatsheets/document.html", {"document": shown, "name": name})


def _document_page(name: str) -> str | None:
    page = DOCUMENT_PAGES.get(name)
    return reverse(page) if page else None


@require_GET
def sheet(request: HttpRequest, family: str, preset_id: str) -> HttpResponse:
    rules_family, preset = preset_of(family, preset_id)
    query = RulesQuery(rules_family, preset, request.GET)
    ctx = {
        **_sheet_context(rules_family, query.rules),
        **_sheet_links(family, preset, query.params),
        "preset": preset,
        "problems": query.problems,
        "fields": query.fields(),
    }
    return render(request, "cheatsheets/sheet.html", ctx, status=400 if query.problems else 200)


@require_GET
def pad(request: HttpRequest, family: str, preset_id: str) -> HttpResponse:
    """A blank score pad; its own small form chooses the number of players (a column group
    each), among those the preset allows, keeping the other options of the query."""
    rules_family, preset = preset_of(family, preset_id)
    query = RulesQuery(rules_family, preset, request.GET)
    players = next((field for field in query.fields() if field.name == PLAYERS_PARAM), None)
    ctx = {
        **sheet_context(rules_family, query.rules, pad=True),
        **_sheet_links(family, preset, query.params),
        "problems": query.problems,
        "players_field": players,
        "players_url": reverse("score_pad", args=[family, preset.id]),
        "kept_params": {k: v for k, v in query.params.items() if k != PLAYERS_PARAM},
    }
    return render(request, "cheatsheets/pad.html", ctx, status=400 if query.problems else 200)


@login_required
@require_GET
def session_sheet(request: AuthedRequest, public_id: str) -> HttpResponse:
    session = session_for_user(request, public_id)
    names = session.player_names()
    rules_family, preset = preset_of(session.family, session.ruleset)
    problems: list[str] = []
    try:
        rules = session.rules()
    except InvalidRules:
        # Options stored before the rules changed: keep those the rules still accept.
        rules, refused = resolve_keeping(
            rules_family, preset.id, session.options, seat_names(len(names))
        )
        problems = [problem_text(rules_family, problem) for problem in refused]
    ctx = {
        **_sheet_context(rules_family, rules),
        **_sheet_links(session.family, preset, rules_params(rules_family, rules)),
        "preset": preset,
        "problems": problems,
        "session": session,
        "names": names,
    }
    response = render(request, "cheatsheets/sheet.html", ctx)
    patch_cache_control(response, private=True, no_store=True)
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page a phone shows offline; asked with HEAD, whose the phone is now (its owner
    mark, static/js/forget.js)."""
    return render(request, "cheatsheets/offline.html")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker script, at the site root so that its scope is the whole site."""
    assets = [*PRECACHED_STATIC]
    if settings.DEBUG:
        assets.append("django_htmx/django-htmx.js")  # {% htmx_script %} adds it in DEBUG
    ctx = {
        "version": _version(assets, [static(path) for path in assets]),
        "static_paths": assets,
        "page_urls": [reverse("offline"), reverse("rules")],
        "offline_url": reverse("offline"),
        "cached_prefixes": [reverse("rules"), reverse("offline"), reverse("manifest")],
        "offline_text": gettext("You are offline."),
        "owner_key": reverse("service_worker") + "?owner",
        "kept_copy_header": KEPT_COPY_HEADER,
        "anonymous_mark": ANONYMOUS,
        "table_pages": _table_pages(),
        "not_tables": _not_tables(),
    }
    response = render(request, "cheatsheets/sw.js", ctx, content_type="text/javascript")
    patch_cache_control(response, no_cache=True)
    return response


def _table_pages() -> list[tuple[str, str]]:
    """Each table page's address around the one path segment that names the table: its prefix
    and suffix ("/sessions/", "/")."""
    marker = "table-id"
    shapes = []
    for name in TABLE_PAGES:
        prefix, suffix = reverse(name, args=[marker]).split(marker)
        shapes.append((prefix, suffix))
    return shapes


def _not_tables() -> list[str]:
    """The fixed addresses of the table pages' shape that are other pages ("/sessions/new/")."""
    fixed = [
        reverse(pattern.name)
        for pattern in get_resolver().url_patterns
        if isinstance(pattern, URLPattern) and pattern.name and not pattern.pattern.converters
    ]
    return [
        path
        for path in fixed
        for prefix, suffix in _table_pages()
        if path.startswith(prefix)
        and path.endswith(suffix)
        and "/" not in path[len(prefix) : len(path) - len(suffix)]
        and len(path) > len(prefix) + len(suffix)
    ]


def _version(paths: Sequence[str], urls: Sequence[str]) -> str:
    """Changes whenever a stored static file may have: in production their URLs carry a hash
    of their content; in development the files' modification times stand in for it."""
    digest = hashlib.sha256("\n".join(urls).encode())
    for path in paths:
        found = finders.find(path)
        if isinstance(found, str):
            digest.update(str(os.stat(found).st_mtime_ns).encode())
    for folder in settings.STATICFILES_DIRS:
        for root, _, files in os.walk(str(folder)):
            for name in sorted(files):
                digest.update(str(os.stat(os.path.join(root, name)).st_mtime_ns).encode())
    return digest.hexdigest()[:12]
