"""The rule sheet's options form on a phone: a select of match types and a number, without
JavaScript; a refused value is said beside its field, the other options stay as chosen, and the
page passes axe in light and dark."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import CheckA11y, NewPage


def test_the_match_is_chosen_and_a_refused_number_keeps_the_rest(
    new_page: NewPage, check_a11y: CheckA11y
) -> None:
    page = new_page(java_script_enabled=False)
    page.goto("/rules/trick/custom/")
    page.get_by_label("First trump").select_option("none")
    page.get_by_label("Match", exact=True).select_option(label="Play to a target score")
    page.get_by_label("Number of deals, target score or games to win").fill("250")
    page.get_by_role("button", name="Show these rules").click()
    expect(page.get_by_text("Play until someone has 250 or more")).to_be_visible()
    expect(page.get_by_text("First deal: No trump.", exact=True)).to_be_visible()

    number = page.get_by_label("Number of deals, target score or games to win")
    number.fill("0")
    page.get_by_role("button", name="Show these rules").click()
    said = "The target must be a whole number from 1 to 10,000."
    expect(page.locator(".sheet-problems li")).to_have_text([f"Match: {said}"])
    expect(number).to_have_value("0")  # what was typed is shown again, with what is wrong
    expect(number).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#option-match_number-error")).to_have_text(said)
    expect(page.get_by_label("First trump")).to_have_value("none")  # kept
    expect(page.get_by_text("First deal: No trump.", exact=True)).to_be_visible()
    check_a11y(page, "refused")
    # The refusal answers 400 (the sheet shown is not the one asked for): expected here.
    problems: list[str] = page.problems  # type: ignore[attr-defined]
    assert problems and all("400" in problem for problem in problems)
    problems.clear()
