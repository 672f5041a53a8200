"""Scratch sessions for the benchmarks: random valid deals, stored as a table would store them."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence

from django.contrib.auth.models import User

from scorekeeper.models import GameSession
from scorekeeper.rules import trick
from scorekeeper.scoresheet import TrickSheet
from scorekeeper.services import import_scoresheet


def random_deals(rules: trick.TrickRules, count: int, seed: int) -> list[trick.DealEntry]:
    """`count` valid deals: random tricks, bids made or missed, some kept hidden."""
    rng = random.Random(seed)
    players = rules.players
    deals: list[trick.DealEntry] = []
    for _ in range(count):
        cuts = sorted(rng.randint(0, rules.tricks) for _ in players[1:])
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, rules.tricks], strict=True)]
        premium_at = rng.randrange(len(players) * 4)  # a premium in about one deal of four
        hands = {}
        for index, (name, won) in enumerate(zip(players, tricks, strict=True)):
            roll = rng.random()
            premium = rng.choice(rules.premiums) if index == premium_at and rules.premiums else None
            if roll < 0.5 or premium:
                bid = won if roll < 0.5 else (won + 1) % (rules.tricks + 1)
                hands[name] = trick.HandEntry(tricks=won, bid=bid, premium=premium)
            else:
                hands[name] = trick.HandEntry(tricks=won, made=False)
        deals.append(trick.DealEntry(hands=hands))
    return deals


def scratch_session(
    preset: str,
    options: Mapping[str, object],
    players: Sequence[str],
    deals: int,
    *,
    title: str = "",
) -> GameSession:
    """A new owner's trick-game session of `deals` random deals (seeded by their number)."""
    owner = User.objects.create_user(f"bench-{time.monotonic_ns()}")
    rules = trick.resolve_rules(preset, options, players)
    sheet = TrickSheet.build(
        ruleset=preset,
        options=options,
        players=players,
        deals=random_deals(rules, deals, seed=deals),
        title=title or None,
    )
    return import_scoresheet(owner=owner, sheet=sheet)
