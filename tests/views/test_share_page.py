"""The share page's Share and Copy buttons: progressive (hidden until static/js/share.js shows
them), one pair per link, beside the link itself."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player
from scorekeeper.services import create_session
from scorekeeper.services.nights import start_round
from scorekeeper.views.links import qr_svg
from tests.factories import club_night


def test_each_link_has_share_and_copy_buttons_shown_by_script(
    alice_client: Client, alice: User
) -> None:
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=players, title="Friday"
    )
    url = f"/sessions/{game.public_id}/share/"
    page = alice_client.get(url).text
    assert "data-share-for" not in page  # no link yet, nothing to share
    alice_client.post(url, {"watch": "on", "scorer": "on"})
    game.refresh_from_db()
    page = alice_client.get(url).text
    assert '<script src="/static/js/share.js" defer></script>' in page
    assert f'id="watch-url">http://testserver/w/{game.watch_token}/</a>' in page
    assert f'id="scorer-url">http://testserver/s/{game.scorer_token}/</a>' in page
    for link, title in [("watch-url", "live standings"), ("scorer-url", "keep score with us")]:
        box = f'data-share-for="{link}" data-share-title="Friday: {title}" hidden>'
        assert f'<div class="share-actions" {box}' in page
    assert page.count('<button type="button" class="btn btn-success" data-share hidden>') == 2
    assert page.count("data-copy>Copy link</button>") == 2


# The address in the links: one that phones can open.

LAN_URL = "http://192.168.1.20:8000"


def _shared(client: Client, game: GameSession, host: str) -> str:
    client.post(
        f"/sessions/{game.public_id}/share/", {"watch": "on", "scorer": "on"}, HTTP_HOST=host
    )
    game.refresh_from_db()
    return client.get(f"/sessions/{game.public_id}/share/", HTTP_HOST=host).text


@pytest.fixture
def friday(alice: User, roster: list[Player]) -> GameSession:
    return create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=roster, title="Friday"
    )


@pytest.mark.parametrize(
    "host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "192.168.1.20:8000"]
)
def test_the_links_and_qr_codes_carry_the_address_phones_open(
    alice_client: Client, friday: GameSession, settings: Any, host: str
) -> None:
    """Opened on the laptop itself (localhost), the page still gives the local network's
    address (SITE_URL, which scripts/run sets): a QR code of 127.0.0.1 opens nothing on a phone."""
    settings.SITE_URL = LAN_URL
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "192.168.1.20"]
    page = _shared(alice_client, friday, host)
    for kind, token in [("w", friday.watch_token), ("s", friday.scorer_token)]:
        url = f"{LAN_URL}/{kind}/{token}/"
        assert f'">{url}</a>' in page
        assert qr_svg(url) in page  # the code drawn from that address, and from no other
    assert "127.0.0.1" not in page and "localhost" not in page
    assert 'id="no-phone-address"' not in page


def test_the_link_to_the_page_address_when_no_site_url_is_set(
    alice_client: Client, friday: GameSession, settings: Any
) -> None:
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["scores.example.org"]
    page = _shared(alice_client, friday, "scores.example.org")
    url = f"http://scores.example.org/w/{friday.watch_token}/"
    assert f'id="watch-url">{url}</a>' in page
    assert qr_svg(url) in page


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "127.0.0.2", "[::1]:8000"])
def test_with_no_address_for_phones_the_page_says_so_and_shows_no_code(
    alice_client: Client, friday: GameSession, settings: Any, host: str
) -> None:
    """scripts/run found no network (or --dev): the only address known is the laptop's own."""
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "127.0.0.2", "[::1]"]
    page = _shared(alice_client, friday, host)
    assert 'id="no-phone-address"' in page
    assert "A phone cannot open this computer's own address" in page
    assert "Join this computer to the table's Wi-Fi, start the scorekeeper again" in page
    assert "<svg" not in page  # no QR code
    assert friday.watch_token not in page and friday.scorer_token not in page
    assert "data-share-for" not in page  # nothing to share or copy
    # The links are on, and can still be replaced or turned off.
    assert 'name="watch" value="off"' in page and 'name="scorer" value="off"' in page


def test_the_note_is_in_french_too(
    alice_client: Client, friday: GameSession, settings: Any
) -> None:
    settings.SITE_URL = ""
    alice_client.cookies["django_language"] = "fr"
    page = _shared(alice_client, friday, "localhost:8000")
    assert "Aucun lien que les téléphones puissent ouvrir" in page
    assert "l’adresse propre à cet ordinateur (localhost:8000)" in page
    assert page.count("Ce lien est actif\u00a0; son adresse et son code QR") == 2


def test_under_bind_on_loopback_the_page_gives_bind_as_the_cause_and_the_cure(
    alice_client: Client, alice: User, friday: GameSession, settings: Any
) -> None:
    """scripts/run with BIND=127.0.0.1 on a laptop on the Wi-Fi: the network is there, BIND
    leaves it out (tableserver tells the app). The page says so, as the terminal does, not
    that this computer should join the Wi-Fi."""
    settings.SITE_URL = ""
    settings.BIND_ONLY = ["127.0.0.1:8000"]
    settings.BIND_LEAVES_OUT = ["192.168.1.20"]
    page = _shared(alice_client, friday, "localhost:8000")
    assert 'id="no-phone-address"' in page
    assert (
        "scripts/run listens on 127.0.0.1:8000 only, as BIND asks, so no phone can open it. "
        "Start it again without BIND to let the phones in (this computer is 192.168.1.20 on "
        "the local network), then open this page at the address it prints."
    ) in page
    assert "Join this computer to the table" not in page
    assert "<svg" not in page and friday.watch_token not in page
    # The table cards of a club night say the same where they cannot give their QR codes.
    night = start_round(night=club_night(alice, list(Player.objects.filter(owner=alice))))
    cards = alice_client.get(f"/nights/{night.public_id}/cards/", HTTP_HOST="localhost:8000")
    assert "scripts/run listens on 127.0.0.1:8000 only, as BIND asks" in cards.text
    assert "open it at the address the phones use" not in cards.text
    alice_client.cookies["django_language"] = "fr"
    french = alice_client.get(f"/sessions/{friday.public_id}/share/", HTTP_HOST="localhost:8000")
    assert (
        "scripts/run n’écoute que sur 127.0.0.1:8000, comme BIND le demande, donc aucun "
        "téléphone ne peut l’ouvrir. Relancez-le sans BIND"
    ) in french.text
