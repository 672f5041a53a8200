"""Saved rulesets ("Our Friday rules"): a preset with the table's house rules under a name.

Only their owner sees or uses them (every lookup starts from `for_user`: anyone else gets
404). Each has its page (its rules in words, start a session, its cheat sheet and score pad,
change, delete); its sheets are served under /rules/, so they work offline like the others.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.forms.rulesets import ruleset_form
from scorekeeper.http import AuthedRequest
from scorekeeper.models import SavedRuleset
from scorekeeper.services.limits import AccountFull
from scorekeeper.services.rulesets import delete_ruleset, save_ruleset
from scorekeeper.views.access import ruleset_for_user
from scorekeeper.views.players import post_data
from scorekeeper.views.rules import sheet_context
from scorekeeper.views.sessions import families, preset_of


@login_required
@require_GET
def rulesets(request: AuthedRequest) -> HttpResponse:
    ctx = {
        "rulesets": [(saved, saved.rules()) for saved in _known(request)],
        "families": families(),
    }
    return render(request, "rulesets/list.html", ctx)


def _known(request: AuthedRequest) -> list[SavedRuleset]:
    """The user's saved rulesets whose preset the rules still know."""
    return [saved for saved in SavedRuleset.objects.for_user(request.user) if saved.preset]


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_new(request: AuthedRequest, family: str, preset_id: str) -> HttpResponse:
    rules_family, preset = preset_of(family, preset_id)
    data = post_data(request)
    form = ruleset_form(data, owner=request.user, family=rules_family, preset=preset)
    if data is not None and form.is_valid():
        try:
            saved = save_ruleset(
                owner=request.user,
                name=form.cleaned_data["name"],
                family=rules_family.ID,
                ruleset=preset.id,
                options=form.rules.overrides_data(),
            )
        except AccountFull as full:
            form.add_error(None, full.lines)
        else:
            messages.success(
                request,
                _("Saved “%(name)s”. It is first in the list when you start a session.")
                % {"name": saved.name},
            )
            return redirect("ruleset", saved.pk)
    ctx = {"form": form, "preset": preset, "family": rules_family, "saved": None}
    return render(request, "rulesets/form.html", ctx)


@login_required
@require_GET
def ruleset(request: AuthedRequest, ruleset_id: int) -> HttpResponse:
    saved = ruleset_for_user(request, ruleset_id)
    rules = saved.rules()
    ctx = {
        "saved": saved,
        "preset": saved.preset,
        "rules": rules,
        "house_rules": rules.house_rules(),
        "sessions": saved.sessions.not_deleted().count(),
    }
    return render(request, "rulesets/detail.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_edit(request: AuthedRequest, ruleset_id: int) -> HttpResponse:
    """Rename it or change its options: sessions already started keep their own copy."""
    saved = ruleset_for_user(request, ruleset_id)
    data = post_data(request)
    form = ruleset_form(
        data,
        owner=request.user,
        family=saved.rules_family,
        preset=saved.preset,
        chosen=saved.options,
        ruleset=saved,
    )
    if data is not None and form.is_valid():
        save_ruleset(
            owner=request.user,
            name=form.cleaned_data["name"],
            family=saved.family,
            ruleset=saved.ruleset,
            options=form.rules.overrides_data(),
            saved=saved,
        )
        messages.success(
            request,
            _("Saved “%(name)s”. Sessions already started keep the rules they began with.")
            % {"name": saved.name},
        )
        return redirect("ruleset", saved.pk)
    ctx = {"form": form, "preset": saved.preset, "family": saved.rules_family, "saved": saved}
    return render(request, "rulesets/form.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_delete(request: AuthedRequest, ruleset_id: int) -> HttpResponse:
    saved = ruleset_for_user(request, ruleset_id)
    if request.method == "POST":
        name = saved.name
        delete_ruleset(saved)
        messages.success(
            request,
            _("Deleted “%(name)s”. Sessions started from it keep their rules.") % {"name": name},
        )
        return redirect("rulesets")
    ctx = {"saved": saved, "sessions": saved.sessions.not_deleted().count()}
    return render(request, "rulesets/delete.html", ctx)


def _sheet_page(request: AuthedRequest, ruleset_id: int, pad: bool) -> HttpResponse:
    saved = ruleset_for_user(request, ruleset_id)
    rules = saved.rules()
    ctx: dict[str, Any] = {**sheet_context(saved.rules_family, rules, pad=pad), "ruleset": saved}
    ctx["sheet_url"] = _url("ruleset_sheet", saved)
    ctx["pad_url"] = _url("ruleset_pad", saved)
    response = render(request, "cheatsheets/pad.html" if pad else "cheatsheets/sheet.html", ctx)
    patch_cache_control(response, private=True)  # the owner's own; stored for offline use
    return response


def _url(name: str, saved: SavedRuleset) -> str:
    return reverse(name, args=[saved.pk])


@login_required
@require_GET
def ruleset_sheet(request: AuthedRequest, ruleset_id: int) -> HttpResponse:
    return _sheet_page(request, ruleset_id, pad=False)


@login_required
@require_GET
def ruleset_pad(request: AuthedRequest, ruleset_id: int) -> HttpResponse:
    return _sheet_page(request, ruleset_id, pad=True)
