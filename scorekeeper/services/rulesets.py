"""Saved rulesets: saving (new or changed) and deleting. Sessions started from one keep their
own copy of its options, so neither write reaches a session."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from scorekeeper.models import SavedRuleset
from scorekeeper.rules.common import seat_names
from scorekeeper.rules.registry import family as rules_family
from scorekeeper.services.limits import RULESETS, make_room


@transaction.atomic
def save_ruleset(
    *,
    owner: User,
    name: str,
    family: str,
    ruleset: str,
    options: dict[str, object],
    saved: SavedRuleset | None = None,
) -> SavedRuleset:
    """Store a preset with its option overrides under `name` (raises InvalidRules if the rules
    refuse them, IntegrityError if the owner has rules of that name already, AccountFull if
    a new one is past the rulesets an account keeps)."""
    if saved is None:
        make_room(owner, RULESETS)
    preset = rules_family(family).PRESETS[ruleset]
    players = seat_names(min(preset.players))
    rules_family(family).resolve_rules(ruleset, options, players)
    if saved is None:
        saved = SavedRuleset(owner=owner)
    saved.name, saved.family, saved.ruleset, saved.options = name, family, ruleset, options
    saved.save()
    return saved


def delete_ruleset(saved: SavedRuleset) -> None:
    """Delete it; the sessions started from it keep their options (and forget where from)."""
    saved.delete()
