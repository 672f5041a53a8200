import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.test import Client

from scorekeeper.models import Player
from tests.factories import club_night


@pytest.mark.parametrize("theme", ["light", "dark", "auto"])
def test_it_remembers_the_theme(client: Client, db: None, theme: str) -> None:
    response = client.post("/theme/", {"theme": theme, "next": "/players/"})
    assert response.status_code == 302
    assert response["Location"] == "/players/"
    assert response.cookies["theme"].value == theme
    page = client.get("/").text
    expected = "dark" if theme == "dark" else "light"
    assert f'data-bs-theme="{expected}" data-theme-choice="{theme}"' in page


def test_it_ignores_an_unknown_theme_and_a_foreign_next(client: Client, db: None) -> None:
    response = client.post("/theme/", {"theme": "purple", "next": "https://evil.example/"})
    assert response["Location"] == "/"
    assert response.cookies["theme"].value == "auto"


def test_it_serves_the_manifest(client: Client, db: None) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["short_name"] == "99 Score"
    assert {icon["sizes"] for icon in data["icons"]} == {"any", "192x192", "512x512"}


def test_the_health_check_answers_without_the_database(client: Client) -> None:
    response = client.get("/healthz/")  # no `db` fixture: a query would fail the test
    assert response.status_code == 200
    assert response.text == "ok\n"
    assert "Set-Cookie" not in response.headers


def test_it_puts_the_csrf_token_in_hx_headers(alice_client: Client) -> None:
    page = alice_client.get("/").text
    assert '<body hx-headers=\'{"X-CSRFToken": "' in page
    assert "/static/django_htmx/htmx-2.min.js" in page


def test_it_serves_a_friendly_404(client: Client, db: None) -> None:
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Nothing here" in response.text


def test_pages_carry_a_content_security_policy_with_a_nonce(alice_client: Client) -> None:
    import re

    response = alice_client.get("/")
    policy = response["Content-Security-Policy"]
    nonce = re.search(r"script-src 'self' 'nonce-([^']+)'", policy)
    assert nonce, policy
    assert "style-src 'self';" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy
    assert f'nonce="{nonce.group(1)}"' in response.text  # htmx's script tag
    assert "<style" not in response.text
    assert " style=" not in response.text


@pytest.mark.parametrize("secure", [True, False])
def test_every_cookie_it_sets_is_secure_when_the_session_cookie_is(
    client: Client, db: None, settings: Any, secure: bool
) -> None:
    # SECURE_COOKIES sets the session cookie's flag and every other cookie follows it: over
    # HTTPS none is sent in the clear, over a table's plain HTTP every one still comes back.
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = secure
    settings.LANGUAGE_COOKIE_SECURE = secure
    phrase = "a long pass phrase"
    responses = [
        client.get("/accounts/signup/"),  # the CSRF cookie
        client.post("/theme/", {"theme": "dark"}),
        client.post("/language/", {"language": "fr"}),
        client.post(  # the session, the language kept on the account, a message
            "/accounts/signup/",
            {"username": "dora", "password1": phrase, "password2": phrase},
        ),
        client.post("/accounts/logout/"),
        client.post("/accounts/login/", {"username": "dora", "password": phrase}),
    ]
    flags = {
        name: bool(morsel["secure"])
        for response in responses
        for name, morsel in response.cookies.items()
    }
    assert {"csrftoken", "theme", "django_language", "sessionid", "messages"} <= set(flags)
    assert flags == dict.fromkeys(flags, secure)


def test_favicon_ico_leads_to_the_apps_icon(client: Client) -> None:
    """Browsers and tools ask /favicon.ico whatever the page says; it is the app's own icon (a
    PNG, which every browser shows there, unlike an SVG), found without the database (no `db`
    fixture: a query would fail the test)."""
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/icons/icon-192.png"
    assert "max-age=86400" in response["Cache-Control"]
    assert "Set-Cookie" not in response.headers
    found = finders.find("icons/icon-192.png")
    assert isinstance(found, str)
    assert Path(found).read_bytes().startswith(b"\x89PNG\r\n")


def _between(page: str, start: str, end: str) -> str:
    return page[page.index(start) : page.index(end, page.index(start))]


def test_the_menu_and_the_home_page_lead_to_club_nights_and_seasons(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    page = alice_client.get("/").text
    menu = _between(page, '<nav class="container app-nav"', "</nav>")
    home = _between(page, '<main id="main"', "</main>")
    for part in (menu, home):
        assert 'href="/nights/"' in part and 'href="/seasons/"' in part
    # The account's page moves to the footer, beside Log out, to keep the menu one line.
    assert 'href="/accounts/password/"' not in menu
    footer = _between(page, '<footer class="container app-footer"', "</footer>")
    assert 'href="/accounts/password/"' in footer
    # The menu says where the organiser is.
    nights = alice_client.get("/nights/").text
    assert 'href="/nights/" aria-current="page"' in nights
    assert 'href="/seasons/" aria-current="page"' in alice_client.get("/ladder/").text
    # A night not yet over is offered to continue, with where it stands.
    night = club_night(alice, roster, name="Thursday club")
    page = alice_client.get("/").text
    assert f'href="/nights/{night.public_id}/"' in _between(page, '<main id="main"', "</main>")
    assert "Thursday club" in page and "not started" in page


def test_a_visitor_s_menu_offers_no_nights_or_seasons(client: Client, db: None) -> None:
    menu = _between(client.get("/").text, '<nav class="container app-nav"', "</nav>")
    assert 'href="/nights/"' not in menu and 'href="/seasons/"' not in menu
