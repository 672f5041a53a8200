"""Issue 19: the language comes from the browser, can be changed in the footer (a plain form,
remembered on that phone), and a logged-in user's choice is kept on the account and comes back
at log-in, on any phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import AccountLanguage

COOKIE = settings.LANGUAGE_COOKIE_NAME


def page_language(response: Any) -> str:
    return str(response["Content-Language"])


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("fr", "fr"),
        ("fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        ("fr-CA", "fr"),
        ("en-GB,en;q=0.9", "en"),
        ("de-DE,de;q=0.9", "en"),  # not offered: English
        ("", "en"),
    ],
)
def test_the_browser_chooses_the_language(
    client: Client, db: None, header: str, expected: str
) -> None:
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 200
    assert page_language(response) == expected
    assert f'<html lang="{expected}"' in response.content.decode()


def test_the_footer_offers_each_language_in_its_own_name(client: Client, db: None) -> None:
    page = client.get("/rules/").content.decode()
    assert '<form method="post" action="/language/" class="language-switch">' in page
    assert '<option value="en" lang="en" selected>English</option>' in page
    assert '<option value="fr" lang="fr">Français</option>' in page
    assert '<input type="hidden" name="next" value="/rules/">' in page
    assert '<button type="submit"' in page.split('action="/language/"')[1].split("</form>")[0]


def test_a_plain_post_switches_and_the_phone_remembers(client: Client, db: None) -> None:
    response = client.post("/language/", {"language": "fr", "next": "/rules/?x=1"})
    assert response.status_code == 302
    assert response["Location"] == "/rules/?x=1"
    cookie = response.cookies[COOKIE]
    assert cookie.value == "fr"
    assert int(cookie["max-age"]) == 365 * 24 * 3600
    assert cookie["samesite"] == "Lax"
    assert cookie["httponly"] is True
    # The browser still asks for English: the phone's choice wins.
    again = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en")
    assert page_language(again) == "fr"
    assert '<option value="fr" lang="fr" selected>Français</option>' in again.content.decode()
    assert not AccountLanguage.objects.exists()  # nobody logged in: nothing stored


def test_the_cookie_is_secure_where_the_session_cookie_is(
    client: Client, db: None, settings: Any
) -> None:
    settings.LANGUAGE_COOKIE_SECURE = True
    response = client.post("/language/", {"language": "fr"}, secure=True)
    assert response.cookies[COOKIE]["secure"] is True


def test_the_production_settings_keep_the_cookies_alike() -> None:
    assert settings.LANGUAGE_COOKIE_SECURE == settings.SESSION_COOKIE_SECURE
    assert settings.LANGUAGE_COOKIE_SAMESITE == settings.SESSION_COOKIE_SAMESITE == "Lax"
    assert settings.LANGUAGE_COOKIE_HTTPONLY is True


@pytest.mark.parametrize("code", ["de", "FR", "fr-xx", "", "../../etc", "x" * 500])
def test_an_unknown_language_changes_nothing(client: Client, db: None, code: str) -> None:
    response = client.post("/language/", {"language": code, "next": "/rules/"})
    assert response.status_code == 302
    assert response["Location"] == "/rules/"
    assert COOKIE not in response.cookies
    assert page_language(client.get("/rules/")) == "en"


def test_a_language_with_no_choice_at_all_changes_nothing(client: Client, db: None) -> None:
    response = client.post("/language/")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert COOKIE not in response.cookies


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:x"]
)
def test_next_never_leads_to_another_site(client: Client, db: None, target: str) -> None:
    response = client.post("/language/", {"language": "fr", "next": target})
    assert response["Location"] == "/"
    assert response.cookies[COOKIE].value == "fr"


def test_the_switch_needs_a_post_from_this_site(db: None) -> None:
    """It posts with no CSRF token (it is on pages kept for every phone, which hold none):
    what it needs instead is a post from this site, not another's."""
    client = Client(enforce_csrf_checks=True)
    cross_site = {"origin": "https://evil.example", "sec-fetch-site": "cross-site"}
    assert client.post("/language/", {"language": "fr"}, headers=cross_site).status_code == 403


def test_the_language_page_works_without_the_footer(client: Client, db: None) -> None:
    response = client.get("/language/", {"next": "/players/"})
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="language-page-choice"' in page
    assert '<input type="hidden" name="next" value="/players/">' in page
    foreign = client.get("/language/", {"next": "https://evil.example/"}).content.decode()
    form = foreign.split('id="main"')[1].split("</form>")[0]
    assert '<input type="hidden" name="next" value="/">' in form
    assert client.put("/language/").status_code == 405


def test_a_logged_in_choice_is_kept_on_the_account(alice_client: Client, alice: User) -> None:
    alice_client.post("/language/", {"language": "fr", "next": "/players/"})
    assert AccountLanguage.objects.get(user=alice).language == "fr"
    alice_client.post("/language/", {"language": "en"})
    assert AccountLanguage.objects.get(user=alice).language == "en"
    assert AccountLanguage.objects.count() == 1


def test_logging_in_on_another_phone_brings_it_back(alice_client: Client, alice: User) -> None:
    alice_client.post("/language/", {"language": "fr"})
    other_phone = Client()  # no cookie, a browser asking for English
    response = other_phone.post(
        "/accounts/login/",
        {"username": "alice", "password": "correct horse battery"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "fr"
    assert response.cookies[COOKIE]["samesite"] == "Lax"
    assert page_language(other_phone.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "fr"


def test_another_user_is_never_affected(
    alice_client: Client, alice: User, bob: User, bob_client: Client
) -> None:
    alice_client.post("/language/", {"language": "fr"})
    assert not AccountLanguage.objects.filter(user=bob).exists()
    assert page_language(bob_client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "en"
    phone = Client()
    response = phone.post(
        "/accounts/login/", {"username": "bob", "password": "another staple battery"}
    )
    assert response.status_code == 302
    assert COOKIE not in response.cookies  # bob chose nothing: his phone keeps its own
    assert page_language(phone.get("/")) == "en"


def test_a_failed_log_in_sets_no_language(client: Client, alice: User) -> None:
    AccountLanguage.objects.create(user=alice, language="fr")
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert COOKIE not in response.cookies


def test_a_language_no_longer_offered_is_not_brought_back(client: Client, alice: User) -> None:
    AccountLanguage.objects.create(user=alice, language="de")
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct horse battery"}
    )
    assert response.status_code == 302
    assert COOKIE not in response.cookies


def test_the_account_page_shows_the_stored_language(alice_client: Client, alice: User) -> None:
    page = alice_client.get("/accounts/password/").content.decode()
    assert 'id="account-language"' in page
    assert "A language you choose here is kept on your account" in page
    alice_client.post("/language/", {"language": "fr"})
    AccountLanguage.objects.filter(user=alice).update(language="fr")
    page = alice_client.get("/accounts/password/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<span lang="fr">Français</span>' in page
    assert 'id="account-language-choice"' in page


def test_a_language_chosen_before_signing_up_is_kept(client: Client, db: None) -> None:
    client.post("/language/", {"language": "fr"})
    response = client.post(
        "/accounts/signup/",
        {
            "username": "carol",
            "password1": "a long pass phrase 42",
            "password2": "a long pass phrase 42",
        },
    )
    assert response.status_code == 302
    assert AccountLanguage.objects.get(user__username="carol").language == "fr"
