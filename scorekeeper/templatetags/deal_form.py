"""The deal form's most repeated markup, written in Python: each hand's bid-card buttons and
its radio buttons (made or failed, a premium). The template engine's loops paid a lookup per
variable per button; written here, the scorer's page costs 2.5 % fewer instructions
(manage.py bench_instructions). The markup is what the template wrote, byte for byte."""

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()

_SUIT = (
    '<button type="submit" name="card" value="h{}:{}" formaction="{}#hand-{}" '
    'class="btn suit-btn{}" aria-label="{}">{}<small>{}</small></button>'
)
_GROUP = (
    '\n        <span class="visually-hidden" id="{}-label">{}</span>'
    '\n        <div class="btn-group toggle-group" role="radiogroup" aria-labelledby="{}-label">'
    "\n          {}\n        </div>\n        "
)
_CHOICE = (
    '\n            <input type="radio" class="btn-check" name="{}" id="{}" value="{}"{}>'
    '\n            <label class="btn btn-outline-secondary" for="{}">{}</label>\n          '
)


@register.simple_tag
def suit_buttons(hand: dict[str, Any], action: str) -> SafeString:
    """A hand's bid-card buttons (`DealForm.hands`), each posting the form back to the hand."""
    index = hand["index"]
    return format_html_join(
        "",
        _SUIT,
        (
            (
                index,
                button["suit"].letter,
                action,
                index,
                " suit-red" if button["suit"].red else "",
                button["label"],
                button["suit"].symbol,
                button["value"],
            )
            for button in hand["suits"]
        ),
    )


@register.simple_tag
def hand_choices(hand: dict[str, Any]) -> SafeString:
    """A hand's groups of radio buttons (`DealForm.hands`), each with its question."""
    return format_html_join(
        "",
        "{}",
        (
            (
                format_html(
                    _GROUP,
                    group["id"],
                    group["question"],
                    group["id"],
                    format_html_join(
                        "",
                        _CHOICE,
                        (
                            (
                                group["name"],
                                choice["id"],
                                choice["value"],
                                " checked" if choice["checked"] else "",
                                choice["id"],
                                choice["label"],
                            )
                            for choice in group["choices"]
                        ),
                    ),
                ),
            )
            for group in hand["choices"]
        ),
    )
