"""{% new_form_key as key %}: a fresh idempotency key for a form that a shared template
renders (a tap sent twice is applied once: services.changes)."""

from django import template

from scorekeeper.models import new_link_token

register = template.Library()


@register.simple_tag
def new_form_key() -> str:
    return new_link_token()
