"""The words the scripts show come from the page, so a French phone reads them in French:
the keypad's "whose box" line (deal-entry.js) and the live region's notes (live.js)."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Player
from scorekeeper.services import create_session
from tests.browser.conftest import OpenTable
from tests.french import needs_french

pytestmark = needs_french


def test_it_says_the_keypads_box_in_french(open_table: OpenTable, alice: User) -> None:
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=players, title="Vendredi"
    )
    page = open_table(game, locale="fr-FR")
    expect(page.locator("#keypad-target")).to_have_text("Ann\u00a0: annonce")
    page.locator("#keypad .key-digit[data-key='1']").click()  # a bid of 1: on to its tricks
    expect(page.locator("#keypad-target")).to_have_text("Ann\u00a0: plis")
    words = page.locator("#live-words")
    expect(words).to_have_attribute(
        "data-gone", "Ce lien ne marche plus. Demandez le nouveau à la table."
    )
