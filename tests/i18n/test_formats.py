"""Numbers and dates follow the language; English reads as it always did."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from scorekeeper.models import GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_session

ROOT = Path(__file__).resolve().parents[2]
WHEN = dt.datetime(2026, 11, 2, 14, 5, tzinfo=dt.UTC)
NAMED = {"DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATE_FORMAT", "SHORT_DATETIME_FORMAT",
         "MONTH_DAY_FORMAT", "YEAR_MONTH_FORMAT", "TIME_FORMAT"}  # fmt: skip


def render(source: str, language: str, **context: object) -> str:
    with translation.override(language):
        return Template(source).render(Context(context))


@pytest.mark.parametrize(
    ("language", "date", "datetime"),
    [("en", "2 Nov 2026", "2 Nov 2026, 14:05"), ("fr", "2 nov. 2026", "2 nov. 2026, 14:05")],
)
def test_dates_follow_the_language(language: str, date: str, datetime: str) -> None:
    assert render('{{ when|date:"DATE_FORMAT" }}', language, when=WHEN) == date
    assert render('{{ when|date:"DATETIME_FORMAT" }}', language, when=WHEN) == datetime


def test_numbers_follow_the_language() -> None:
    source = "{{ rate|floatformat:1 }} {{ share|floatformat:2 }}"
    assert render(source, "en", rate=12.25, share=0.5) == "12.3 0.50"
    assert render(source, "fr", rate=12.25, share=0.5) == "12,3 0,50"


def test_no_template_spells_a_date_format() -> None:
    fixed = []
    for path in (ROOT / "templates").rglob("*.html"):
        for name in re.findall(r'\|date:"([^"]*)"', path.read_text()):
            if name not in NAMED:
                fixed.append(f"{path.relative_to(ROOT)}: {name}")
    # To mend: sed -i 's/|date:"j M Y, H:i"/|date:"DATETIME_FORMAT"/g;
    #   s/|date:"j M Y"/|date:"DATE_FORMAT"/g' templates/scorekeeper/*.html
    assert fixed == [], "name the format (DATE_FORMAT, DATETIME_FORMAT): " + ", ".join(fixed)


def test_a_session_without_a_title_is_named_with_its_date(
    alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    GameSession.objects.filter(pk=game.pk).update(created=WHEN)
    game.refresh_from_db()
    assert str(game).endswith(", 2 Nov 2026")
    with translation.override("fr"):
        assert str(game).endswith(", 2 nov. 2026")


def test_a_date_field_keeps_the_iso_date_in_french() -> None:
    from django import forms

    field = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    with translation.override("fr"):
        assert 'value="2026-11-02"' in field.widget.render("since", WHEN.date())
        assert field.clean("2026-11-02") == WHEN.date()
        assert field.clean("02/11/2026") == WHEN.date()


def test_chart_coordinates_stay_numbers_for_the_browser(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    """French writes 176,0; an SVG coordinate written so is an error in the browser."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    hands = {p.name: trick.HandEntry(tricks=3, made=True) for p in roster}
    for number in (1, 2):
        add_deal(session=game, number=number, entry=trick.DealEntry(hands=hands), who=Who(alice))
    pages = {
        language: alice_client.get(
            f"/sessions/{game.public_id}/", HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        for language in ("en", "fr")
    }
    svg = pages["fr"].split('<svg viewBox="0 0', 1)[1].split("</svg>", 1)[0]
    assert re.findall(r'(?:x1?|x2|y1?|y2)="[^"]*"', svg) != []
    assert re.findall(r'(?:x1?|x2|y1?|y2)="[^"]*,[^"]*"', svg) == []
    english_svg = pages["en"].split('<svg viewBox="0 0', 1)[1].split("</svg>", 1)[0]
    coordinates = re.compile(r'(?:x1?|x2|y1?|y2|points)="[^"]*"')
    assert coordinates.findall(svg) == coordinates.findall(english_svg)
