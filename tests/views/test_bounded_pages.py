"""Pages that cannot be made to fail: sessions at the largest bounds (RULES.md §3) render every
page, and what a page draws is bounded by what it shows, not by the stored numbers.

The 2-second bound below is a guard against a page that hangs (a stalled worker), not a speed
target: the speed figures are printed by `manage.py bench_session_page`.
"""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bench.sessions import random_deals
from scorekeeper.models import GameSession
from scorekeeper.presenters.charts import CHART_POINTS
from scorekeeper.presenters.common import COINS_DRAWN, GRID_PAGE_ROWS, RECENT_ROWS
from scorekeeper.rules import adding, bounds, trick
from scorekeeper.scoresheet import AddingSheet, TrickSheet
from scorekeeper.services import import_scoresheet

NAMES = [f"{letter}{'x' * (bounds.MAX_NAME_LENGTH - 1)}" for letter in "ABCDE"]
# The longest a trick session can last: to the largest target, with nothing but trick points.
LARGEST_TRICK = {
    "match": {"type": "target", "target": bounds.MAX_TARGET},
    "bonus": [0] * 5,
    "premiums": [],
}


def _timed_get(client: Client, url: str) -> str:
    started = time.process_time()
    response = client.get(url)
    spent = time.process_time() - started
    assert response.status_code == 200, (url, response.status_code)
    assert spent < 2, (url, spent)
    return response.content.decode()


@pytest.fixture
def largest_trick(alice: User) -> GameSession:
    """Five players with the longest names, 2,000 deals: the most a trick session holds."""
    rules = trick.resolve_rules("custom", LARGEST_TRICK, NAMES)
    sheet = TrickSheet.build(
        ruleset="custom",
        options=LARGEST_TRICK,
        players=NAMES,
        deals=random_deals(rules, bounds.MAX_DEALS, seed=7),
        title="T" * bounds.MAX_TITLE_LENGTH,
    )
    game = import_scoresheet(owner=alice, sheet=sheet)
    game.watch_token, game.scorer_token = "watch-largest", "score-largest"
    game.save()
    return game


def test_every_page_of_the_largest_trick_session_renders(
    alice_client: Client, largest_trick: GameSession
) -> None:
    base = f"/sessions/{largest_trick.public_id}/"
    table = _timed_get(alice_client, base)
    assert table.count('aria-label="Correct deal ') == RECENT_ROWS
    assert f"The latest {RECENT_ROWS} of 2000 deals." in table
    assert f'href="{base}deals/"' in table
    # The chart draws a bounded number of points however long the session.
    lines = re.findall(r'<polyline points="([^"]*)"', table)
    assert len(lines) == 5
    assert max(len(points.split()) for points in lines) <= CHART_POINTS + 2
    for suffix in ["live/", "history/", "rules/", "scoresheet.json", "session.csv"]:
        _timed_get(alice_client, base + suffix)
    last = _timed_get(alice_client, base + "deals/")
    assert last.count('aria-label="Correct deal ') == GRID_PAGE_ROWS
    assert "deals 1901 to 2000 of 2000" in last
    first = _timed_get(alice_client, base + "deals/?page=1")
    assert "deals 1 to 100 of 2000" in first
    assert "Later deals" in first
    assert _timed_get(alice_client, base + "deals/?page=nonsense").count("Correct deal ") == 100
    watch = _timed_get(Client(), "/w/watch-largest/")
    assert watch.count("<tr>") < 2 * RECENT_ROWS + 10
    _timed_get(Client(), "/w/watch-largest/deals/?page=3")
    player = largest_trick.seats.first()
    assert player is not None
    _timed_get(alice_client, f"/players/{player.player_id}/")
    # The grid pages belong to their family.
    assert alice_client.get(base + "rounds/").status_code == 404
    assert Client().get("/w/watch-largest/rounds/").status_code == 404


def test_a_long_adding_session_with_the_largest_values_renders(
    alice_client: Client, alice: User
) -> None:
    names = [f"P{n}" for n in range(bounds.MAX_PLAYERS)]
    options = {"tokens": bounds.MAX_TOKENS}
    rules = adding.resolve_rules("custom", options, names)
    gain = adding.Event(names[0], "adjust", tokens=bounds.MAX_ADJUST)
    win = adding.Event(names[1], "win")  # ends a round and costs nothing
    rounds = [adding.RoundEntry((gain, win))] * bounds.MAX_DEALS
    sheet = AddingSheet.build(ruleset="custom", options=options, players=names, rounds=rounds)
    game = import_scoresheet(owner=alice, sheet=sheet)
    assert adding.score_session(rules, rounds).standings[0].tokens == 99 + 2000 * 99
    base = f"/sessions/{game.public_id}/"
    page = _timed_get(alice_client, base)
    assert 'class="coin' not in page  # 99 tokens or more each: told in words, not drawn
    assert "198099 tokens" in page
    assert page.count('aria-label="Correct round ') == RECENT_ROWS
    assert "rounds 1901 to 2000 of 2000" in _timed_get(alice_client, base + "rounds/")
    assert alice_client.get(base + "deals/").status_code == 404


def test_a_few_tokens_are_drawn_as_coins(alice_client: Client, alice: User) -> None:
    names = ["Ann", "Ben", "Cat"]
    sheet = AddingSheet.build(ruleset="thirty-three", options={}, players=names)
    game = import_scoresheet(owner=alice, sheet=sheet)
    page = alice_client.get(f"/sessions/{game.public_id}/").text
    assert page.count('class="coin"') == 9 * 3 <= COINS_DRAWN * 3
