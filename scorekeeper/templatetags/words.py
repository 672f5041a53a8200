"""Words the rules package keeps in English as ids (preset names and descriptions, a family's
title): `{{ preset.name|translated }}` shows them in the page's language, from the same
catalogue entry that the rules' `gettext_noop` marks."""

from django import template
from django.utils.translation import gettext

register = template.Library()


@register.filter
def translated(value: object) -> str:
    """`value` in the active language ("" stays "": gettext("") is the catalogue's header)."""
    text = str(value)
    return gettext(text) if text else text
