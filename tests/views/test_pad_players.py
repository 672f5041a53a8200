"""A score pad chooses its number of players on its own page: a small GET form (it works with
JavaScript off) within the preset's player range; the pad then has a column group each."""

import re

from django.test import Client

from scorekeeper.rules import adding


def _names(page: str) -> int:
    return page.count('class="pad-name"')


def test_the_pad_offers_the_preset_s_player_counts(client: Client, db: None) -> None:
    page = client.get("/rules/adding/thirty-three/pad/").text
    form = re.search(
        r'<form method="get" action="/rules/adding/thirty-three/pad/"[^>]*>.*?</form>', page, re.S
    )
    assert form, "a form on the pad page"
    counts = re.findall(r'<option value="(\d+)"', form.group(0))
    assert counts == [str(n) for n in adding.PRESETS["thirty-three"].players]
    assert re.search(r'<option value="4" selected>', form.group(0))
    assert _names(page) == 4


def test_the_pad_has_a_column_group_for_each_player_chosen(client: Client, db: None) -> None:
    page = client.get("/rules/adding/thirty-three/pad/?players=6").text
    assert _names(page) == 6
    assert re.search(r'<option value="6" selected>', page)
    # The other options chosen stay with the form (and the links).
    page = client.get("/rules/adding/thirty-three/pad/?players=3&tokens=5").text
    assert _names(page) == 3
    assert '<input type="hidden" name="tokens" value="5">' in page
    assert page.count('<td class="pad-first">5</td>') == 3


def test_a_player_count_out_of_range_is_said_and_the_pad_keeps_its_own(
    client: Client, db: None
) -> None:
    response = client.get("/rules/adding/thirty-three/pad/?players=12")
    assert response.status_code == 400
    assert "Thirty-Three is for 2 to 10 players, not" in response.text
    assert _names(response.text) == 4
