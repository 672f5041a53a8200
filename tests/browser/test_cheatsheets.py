"""Rule sheets on paper and offline.

Every rule sheet and score pad is printed to PDF by Chromium on A4 and on US Letter, as a
browser's Print does by default (the paper size chosen, not one the page asks for), and must
come out on exactly one page. The rules pages pass axe in light and in dark. A sheet opened
once is stored by the service worker and opens again offline; a page never opened shows the
offline page instead.
"""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.rules import adding, trick
from scorekeeper.services import save_ruleset
from tests.browser.conftest import CheckA11y, LogIn, NewPage

SHEETS = [
    f"/rules/{family}/{preset_id}/{kind}"
    for family, presets in (("trick", trick.PRESETS), ("adding", adding.PRESETS))
    for preset_id in presets
    for kind in ("", "pad/")
]
PAPER = ("A4", "Letter")
OFFLINE_TEXT = (
    "You are offline. The rule sheets you opened before still work; score entry needs the "
    "connection to the server."
)


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF: its /Type /Page objects (the page tree's /Pages does not count)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


# Fixtures


@pytest.fixture
def page(new_page: NewPage) -> Page:
    """A phone that prefers reduced motion, so that axe measures the colours after a colour
    mode switch rather than half-way through Bootstrap's transitions (see test_table.py)."""
    return new_page(reduced_motion="reduce")


# The tests


def test_every_sheet_and_pad_prints_on_one_page(page: Page) -> None:
    # The count sees more than one page where there are: the long list of rulesets.
    page.goto("/rules/")
    assert pdf_pages(page.pdf(format="A4", prefer_css_page_size=False)) > 1
    for url in SHEETS:
        page.goto(url)
        for paper in PAPER:
            pdf = page.pdf(format=paper, prefer_css_page_size=False)
            assert pdf.startswith(b"%PDF")
            assert pdf_pages(pdf) == 1, f"{url} prints on {pdf_pages(pdf)} {paper} pages"


def test_the_rules_pages_pass_axe(page: Page, check_a11y: CheckA11y) -> None:
    page.goto("/rules/")
    check_a11y(page, "rules")
    page.get_by_role("link", name=re.compile("^Jokerless Ninety-Nine")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Jokerless Ninety-Nine")
    check_a11y(page, "trick-sheet")
    page.goto("/rules/adding/thirty-three/")
    check_a11y(page, "adding-sheet")
    page.goto("/rules/trick/four/pad/")
    check_a11y(page, "pad")


def test_the_options_form_works_without_javascript(new_page: NewPage) -> None:
    page = new_page(java_script_enabled=False)
    page.goto("/rules/trick/parlett-jokerless/")
    expect(page.get_by_text("First deal: ♦ Diamonds.")).to_be_visible()
    page.get_by_label("First trump").select_option("none")
    page.get_by_role("button", name="Show these rules").click()
    expect(page.get_by_text("First deal: No trump.", exact=True)).to_be_visible()
    assert "first_trump=none" in page.url


def test_a_sheet_opened_once_still_opens_offline(new_page: NewPage) -> None:
    page = new_page(service_workers="allow")
    page.goto("/rules/trick/long/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Long Ninety-Nine")
    _wait_until_stored(page, page.url)

    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Long Ninety-Nine")
    expect(page.get_by_text("30 + 60 = 90")).to_be_visible()
    # Its stylesheets came from the cache too: the sheet is laid out, not bare HTML.
    assert page.evaluate("getComputedStyle(document.querySelector('.app-header')).display") != (
        "inline"
    )

    page.goto("/rules/adding/wilson/")  # never opened
    expect(page.get_by_text(OFFLINE_TEXT)).to_be_visible()
    page.goto("/sessions/")  # score entry needs the server
    expect(page.get_by_text(OFFLINE_TEXT)).to_be_visible()

    page.context.set_offline(False)
    page.goto("/rules/adding/wilson/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Wilson")


def _wait_until_stored(page: Page, url: str, seconds: float = 10, *, anyone: bool = False) -> None:
    """Wait for the service worker to run and to have stored `url` (with `anyone`: as it shows
    with nobody logged in)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = page.evaluate(
            "url => caches.match(url, { ignoreVary: true }).then(found => found && found.text())",
            url,
        )
        if text and not (anyone and "Log out" in text):
            return
        page.wait_for_timeout(100)
    pytest.fail(f"The service worker did not store {url} within {seconds} s")


@pytest.mark.parametrize(
    ("url", "label"),
    [
        ("/rules/trick/parlett-jokerless/", "Print this sheet"),
        ("/rules/adding/ninety-nine/pad/", "Print this pad"),
    ],
)
def test_the_print_button_opens_the_print_dialog(page: Page, url: str, label: str) -> None:
    page.add_init_script("window.print = () => { window.printed = (window.printed || 0) + 1; }")
    page.goto(url)
    page.get_by_role("button", name=label).click()
    assert page.evaluate("window.printed") == 1


def test_without_javascript_there_is_no_dead_print_button(new_page: NewPage) -> None:
    page = new_page(java_script_enabled=False)
    page.goto("/rules/trick/parlett-jokerless/")
    expect(page.get_by_role("button", name="Print this sheet")).to_be_hidden()
    expect(page.get_by_text("Your browser's own Print works too.")).to_be_visible()


def test_a_saved_rulesets_pages_are_not_kept_after_log_out(
    new_page: NewPage, log_in: LogIn, alice: User
) -> None:
    """A saved ruleset's sheet and pad are its owner's: kept for her alone, and gone when she
    logs out. The public sheets she opened stay, as anyone sees them."""
    saved = save_ruleset(
        owner=alice, name="Alice's house rules", family="trick", ruleset="five", options={}
    )
    page = new_page(service_workers="allow")
    log_in(page, alice)
    own = [f"/rules/saved/{saved.pk}/", f"/rules/saved/{saved.pk}/pad/"]
    for url in [*own, "/rules/trick/long/"]:
        page.goto(url)
        expect(page.get_by_text("Log out alice")).to_be_visible()
        _wait_until_stored(page, page.url)
    page.get_by_role("button", name="Log out alice").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Log in")
    for url in own:
        assert not page.evaluate(
            "url => caches.match(url, { ignoreVary: true }).then(Boolean)", url
        ), url
    # The public sheet comes again as the phone now sees it: nobody's.
    _wait_until_stored(
        page, page.url.replace("/accounts/login/", "/rules/trick/long/"), anyone=True
    )

    page.context.set_offline(True)
    for url in own:
        page.goto(url)
        expect(page.get_by_text(OFFLINE_TEXT)).to_be_visible()
        expect(page.get_by_text("Alice's house rules")).to_have_count(0)
    page.goto("/rules/trick/long/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Long Ninety-Nine")
    expect(page.get_by_text("alice")).to_have_count(0)
