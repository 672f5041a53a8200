"""Words the rules package keeps in English as ids (preset names and descriptions, a family's
title): `{{ preset.name|translated }}` shows them in the page's language, from the same
catalogue entry that the rules' `gettext_noop` marks. And `{% if name|vowel_sound_first %}`,
which picks a sentence's wording for a name that French elides « de » before."""

from django import template
from django.utils.translation import gettext

from scorekeeper.rules.i18n import vowel_sound_first as _vowel_sound_first

register = template.Library()


@register.filter
def translated(value: object) -> str:
    """`value` in the active language ("" stays "": gettext("") is the catalogue's header)."""
    text = str(value)
    return gettext(text) if text else text


@register.filter
def vowel_sound_first(name: object) -> bool:
    """Whether `name` begins with a vowel sound (rules.i18n.vowel_sound_first)."""
    return _vowel_sound_first(str(name))
