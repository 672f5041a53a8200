"""The start form offers the seats each ruleset takes, and its listing says as many: the
seats, the required seats and the words of every listing come from one home, the preset's
players (RULES.md §3's bounds, scorekeeper/rules/bounds.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.forms.sessions import StartForm
from scorekeeper.models import Player
from scorekeeper.rules import bounds
from scorekeeper.rules.registry import FAMILIES

PRESETS = [
    (family.ID, preset) for family in FAMILIES.values() for preset in family.PRESETS.values()
]


@pytest.fixture
def roster_names() -> list[str]:
    """As many players as a session seats at most."""
    return [f"P{n}" for n in range(bounds.MAX_PLAYERS)]


def test_every_preset_takes_players_within_the_bounds() -> None:
    for _, preset in PRESETS:
        counts = preset.players
        assert list(counts) == sorted(set(counts)), preset.id
        assert counts[0] >= bounds.MIN_PLAYERS, preset.id
        assert counts[-1] <= bounds.MAX_PLAYERS, preset.id


@pytest.mark.parametrize(("family", "preset"), PRESETS, ids=[p.id for _, p in PRESETS])
def test_the_start_form_offers_the_seats_the_preset_takes(
    alice_client: Client, alice: User, roster: list[Player], family: str, preset: Any
) -> None:
    page = alice_client.get(f"/sessions/new/{family}/{preset.id}/").text
    seats = re.findall(r'<select name="seat_(\d+)"[^>]*>', page)
    assert len(seats) == max(preset.players)
    required = re.findall(r'<select name="seat_\d+"[^>]*\brequired\b', page)
    assert len(required) == min(preset.players)
    # The most players the preset takes can sit down.
    form = StartForm(owner=alice, family=FAMILIES[family], preset=preset)
    data: dict[str, Any] = {
        name: form[name].initial for name in form.option_names if form[name].initial is not None
    }
    data |= {f"seat_{n}": roster[n].pk for n in range(max(preset.players))} | {"start": ""}
    response = alice_client.post(f"/sessions/new/{family}/{preset.id}/", data)
    assert response.status_code == 302, response.context["form"].errors


@pytest.mark.parametrize("listing", ["/sessions/new/", "/rules/"])
def test_the_listings_say_the_players_the_start_form_seats(
    alice_client: Client, listing: str
) -> None:
    page = alice_client.get(listing).text
    for family, preset in PRESETS:
        start = page.index(f'href="{listing}{family}/{preset.id}/"')
        said = re.search(r'<span class="preset-players">([^<]*)</span>', page[start:])
        assert said
        assert said.group(1).startswith(f"{bounds.player_range(preset.players)} player")


@pytest.mark.parametrize(
    ("counts", "said"),
    [((3,), "3"), ((2, 3, 4, 5), "2 to 5"), (tuple(range(2, 11)), "2 to 10"), ((3, 5), "3 or 5")],
)
def test_the_player_range_in_words(counts: tuple[int, ...], said: str) -> None:
    assert bounds.player_range(counts) == said
