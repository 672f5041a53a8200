"""`{% rating_scale %}`: what a rating means to a player, in one or two sentences for every page
that shows ratings (a season, the club ladder, a player's page), with the figures that
`scorekeeper.ratings.SCALE` works out."""

from django import template
from django.utils.translation import gettext as _

from scorekeeper.ratings import SCALE, SCALE_GAMES

register = template.Library()


@register.simple_tag
def rating_scale() -> str:
    return _(
        "A new player's rating is 0; it grows as they finish above others, most against strong "
        "players, and as their games add up. After %(games)s games at tables of three, a player "
        "who wins a third of them is near %(third)s, one who wins half near %(half)s, and one "
        "who wins three in four near %(three_in_four)s."
    ) % {"games": SCALE_GAMES, **SCALE}
