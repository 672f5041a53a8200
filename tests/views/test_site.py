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
    assert not response.cookies["theme"]["httponly"]  # read on the phone (static/js/theme.js)
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


def test_htmx_takes_the_csrf_token_from_its_cookie(alice_client: Client, settings: Any) -> None:
    """No page holds a token for htmx: static/js/csrf.js reads Django's cookie, which a script
    can read, under the name the script reads."""
    page = alice_client.get("/").text
    assert "X-CSRFToken" not in page and "hx-headers" not in page
    assert "/static/django_htmx/htmx-2.min.js" in page
    assert '<script src="/static/js/csrf.js" defer></script>' in page
    assert settings.CSRF_COOKIE_HTTPONLY is False and settings.CSRF_USE_SESSIONS is False
    assert settings.CSRF_COOKIE_NAME == "csrftoken"
    script = finders.find("js/csrf.js")
    assert script and "csrftoken=" in Path(script).read_text()


def test_it_serves_a_friendly_404(client: Client, db: None) -> None:
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Nothing here" in response.text


@pytest.mark.parametrize("url", ["/theme/", "/language/"])
@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 302),  # no browser says where from: nothing another site's page makes
        ({"sec-fetch-site": "same-origin"}, 302),
        ({"origin": "http://testserver"}, 302),
        ({"sec-fetch-site": "cross-site", "origin": "http://testserver"}, 403),
        ({"sec-fetch-site": "same-site"}, 403),
        ({"origin": "https://evil.example"}, 403),
        ({"origin": "null"}, 403),
    ],
)
def test_the_colour_and_language_switches_take_posts_from_this_site_only(
    db: None, url: str, headers: dict[str, str], status: int
) -> None:
    """They post with no CSRF token (pages kept for every phone hold none): a post another
    site's page makes is refused by where the browser says it comes from."""
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        url, {"theme": "dark", "language": "fr", "next": "/rules/"}, headers=headers
    )
    assert response.status_code == status
    assert (status == 302) is bool(response.cookies)


def test_pages_carry_a_content_security_policy_of_scripts_by_url(alice_client: Client) -> None:
    """Every script comes from this site by its URL, none with a nonce: a page kept for every
    phone holding a link is the same bytes for all (scorekeeper/live/pages.py)."""
    import re

    response = alice_client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self';" in policy
    assert "nonce" not in policy and "nonce" not in response.text
    assert "style-src 'self';" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy
    assert re.search(r'<script src="[^"]*htmx[^"]*\.js"', response.text)  # htmx's script tag
    assert not re.search(r"<script(?![^>]*\bsrc=)", response.text)  # no inline script
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
