"""The rule sheets' options form: real controls built from the rules'
own option specs, every other option kept when one is refused, and messages in words that name
the field, beside it."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.rules.trick.options import OPTIONS_BY_NAME
from scorekeeper.services import create_session


def _control(page: str, name: str) -> str:
    """The <select> or <input> of a field of the options form."""
    match = re.search(rf'<(select|input)\b[^>]*\bname="{name}"[^>]*>', page)
    assert match, f"no field {name}"
    return match.group(0)


def _selected(page: str, name: str) -> str:
    start = page.index(_control(page, name))
    found = re.search(
        r'<option value="([^"]*)" selected>', page[start : page.index("</select>", start)]
    )
    assert found
    return found.group(1)


def test_match_is_a_select_of_the_presets_types_and_a_number(client: Client, db: None) -> None:
    page = client.get("/rules/trick/custom/").text
    assert _control(page, "match").startswith("<select")
    offered = re.findall(
        r'<option value="([^"]+)"', page[page.index('name="match"') :].split("</select>")[0]
    )
    assert offered == list(trick.PRESETS["custom"].match_types)
    labels = {choice.value: choice.label for choice in OPTIONS_BY_NAME["match"].choices}
    assert f">{labels['target']}</option>" in page  # the option's own words
    number = _control(page, "match_number")
    assert 'type="number"' in number and 'min="1"' in number and 'max="10000"' in number
    assert trick.MATCH_NUMBER_LABEL in page
    assert "deals:N" not in page  # no mini-language to type


def test_the_two_match_fields_give_the_match(client: Client, db: None) -> None:
    response = client.get("/rules/trick/custom/?match=target&match_number=250")
    assert response.status_code == 200
    assert "Play until someone has 250 or more; the highest total wins." in response.text
    assert _selected(response.text, "match") == "target"
    assert 'value="250"' in _control(response.text, "match_number")
    # A number left in the field is ignored by a match type that takes none.
    response = client.get("/rules/trick/custom/?match=rubber&match_number=250")
    assert response.status_code == 200
    assert escape(trick.Match("rubber").describe()) in response.text


def test_an_invalid_match_keeps_every_other_option(client: Client, db: None) -> None:
    url = "/rules/trick/custom/?first_trump=none&trick_points=false&match=deals&match_number=0"
    response = client.get(url)
    assert response.status_code == 400
    page = response.text
    # The other options are applied to the sheet and still chosen in the form ...
    assert "First deal: No trump." in page
    assert "<strong>No trick points</strong>" in page
    assert _selected(page, "first_trump") == "none"
    assert _selected(page, "trick_points") == "false"
    # ... and the pad link carries them.
    assert "/rules/trick/custom/pad/?first_trump=none&amp;trick_points=false" in page
    # The refused one is said in words naming the field, at the top and beside it, and what
    # was typed is shown again.
    said = "The number of deals must be a whole number from 1 to 999."
    assert f"<li>Match: {said}</li>" in page
    number = _control(page, "match_number")
    assert 'value="0"' in number and 'aria-invalid="true"' in number
    assert 'aria-describedby="option-match_number-error' in number
    assert f'id="option-match_number-error">{said}</div>' in page
    assert _selected(page, "match") == "deals"


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("match=forever", "Match: The match type must be one of"),
        ("match=deals:0", "Match: The number of deals must be a whole number"),
        ("first_trump=clubs", "First trump: Choose one of: diamonds, none."),
        ("bonus=30,x", "Success bonus: Must be a list of at most 10 whole numbers"),
        ("players=7", 'Players: Custom is for 2 to 5 players, not "7".'),
    ],
)
def test_messages_name_the_field_in_words(client: Client, db: None, query: str, said: str) -> None:
    page = client.get(f"/rules/trick/custom/?{query}&premiums=declare").text
    assert escape(said) in page
    assert not re.search(r"\((options\.)?[a-z_]+(\.[a-z_]+)*\)", page)  # no "(match.type)"
    assert "Reveal</th>" not in page  # premiums=declare was kept


def test_an_adding_option_refused_keeps_the_others(client: Client, db: None) -> None:
    response = client.get("/rules/adding/custom/?tokens=0&on_69=reset")
    assert response.status_code == 400
    assert "Make the total exactly 69 and it goes back to 0." in response.text
    tokens = _control(response.text, "tokens")
    assert 'type="number"' in tokens and 'value="0"' in tokens and "is-invalid" in tokens
    assert "Tokens each: Must be a whole number from 1 to 99." in response.text


def test_an_unknown_option_is_named_and_the_rest_kept(client: Client, db: None) -> None:
    page = client.get("/rules/trick/long/?colour=red&match=long&match_number=2").text
    assert 'There is no option "colour".' in page.replace("&quot;", '"')
    assert "the first to win 2 games wins." in page


def test_the_sessions_sheet_keeps_the_stored_options_the_rules_still_accept(
    alice_client: Client, alice: User
) -> None:
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    options = {"first_trump": "clubs", "match": {"type": "deals", "deals": 18}}
    GameSession.objects.filter(pk=game.pk).update(options=options)
    page = alice_client.get(f"/sessions/{game.public_id}/rules/").text
    assert "First trump: Choose one of: diamonds, none." in page
    assert "18 deals; the highest total wins." in page
