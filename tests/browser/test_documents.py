"""The rule book and the file format on a phone: readable pages, nothing scrolling sideways
but the tables, each in its own box."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CheckA11y, NewPage


@pytest.mark.parametrize(("width", "height"), [(360, 740), (375, 667)])
@pytest.mark.parametrize("name", ["RULES.md", "FORMAT.md"])
def test_the_documents_read_on_a_phone(
    new_page: NewPage, check_a11y: CheckA11y, name: str, width: int, height: int
) -> None:
    page = new_page(viewport={"width": width, "height": height})
    page.goto("/rules/")
    page.get_by_role("link", name=name, exact=True).click()
    expect(page.locator(".document h1")).to_be_visible()
    # The page is as wide as the phone, its text in a readable size.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    size = page.locator(".document p").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 14
    for box in page.locator(".doc-table").all():
        assert box.evaluate("e => e.getBoundingClientRect().right") <= width
    if name == "RULES.md":
        # The presets table is wider than a phone: it scrolls in its box.
        presets = page.get_by_role(
            "region", name="Table: 1.6 Presets (id: what differs from §1.1–1.5)"
        )
        assert presets.evaluate("e => e.scrollWidth > e.clientWidth")
        presets.evaluate("e => e.scrollLeft = e.scrollWidth")
        assert page.evaluate("window.scrollX") == 0
    else:
        page.get_by_role("link", name="RULES.md").first.click()
        expect(page.locator(".document h1")).to_have_text("Rules the scorekeeper must know")
        page.go_back()
    if width == 360:  # check_a11y measures the layout at its own phone width
        page.set_default_timeout(30_000)  # the rule book's full-page screenshots are long
        check_a11y(page, name)
