"""The events of the adding game (RULES.md §2.1, §2.3): what each costs and whether it ends the
round."""

from dataclasses import dataclass

from scorekeeper.rules.i18n import gettext_noop

EVENT_KINDS = ("bust", "hit", "cross", "border", "empty", "trips", "win", "adjust")
TARGETED = ("hit", "cross", "border")  # events that carry a target
PAYS = ("self", "others", "gain", "none")


@dataclass(frozen=True)
class EventRule:
    """One button: an event a preset allows, what it costs and whether it ends the round.

    `pays`: "self" (the player pays `cost`), "others" (every other player still in pays `cost`,
    in seat order from the player's left), "gain" (the player gains `cost`), "none". Costs are
    in the preset's unit: tokens (or folds), Wilson's game points, drinks, or rounds won.
    """

    event: str  # one of EVENT_KINDS
    target: int | None  # 33, 66, 99 (69 with on_69 "token") for hit, cross, border; else None
    cost: int
    pays: str  # one of PAYS
    ends_round: bool
    label: str  # short button label, in English: translate it where it is shown (same id)


# Each event kind in words (also the label of its button, with its target). English ids,
# translated where they are shown.
EVENT_LABELS = {
    "bust": gettext_noop("Bust"),
    "hit": gettext_noop("Hit"),
    "cross": gettext_noop("Cross"),
    "border": gettext_noop("Border"),
    "empty": gettext_noop("Empty hand"),
    "trips": gettext_noop("Trips"),
    "win": gettext_noop("Last to play"),
    "adjust": gettext_noop("Adjust"),
}
# The labels of the buttons with a target, each a whole id ("Hit 33"), so that a language can
# put the number where it belongs.
TARGET_LABELS = {
    ("hit", 33): gettext_noop("Hit 33"),
    ("hit", 66): gettext_noop("Hit 66"),
    ("hit", 69): gettext_noop("Hit 69"),
    ("hit", 99): gettext_noop("Hit 99"),
    ("cross", 33): gettext_noop("Cross 33"),
    ("cross", 66): gettext_noop("Cross 66"),
    ("border", 33): gettext_noop("Border 33"),
    ("border", 66): gettext_noop("Border 66"),
    ("border", 99): gettext_noop("Border 99"),
}


def _event(
    event: str, cost: int, pays: str, ends_round: bool, target: int | None = None
) -> EventRule:
    label = EVENT_LABELS[event] if target is None else TARGET_LABELS[event, target]
    return EventRule(event, target, cost, pays, ends_round, label)


BUST = _event("bust", 1, "self", True)
BUST_OUT_OF_ROUND = _event("bust", 0, "none", False)  # out for the rest of the round only
LAST_TO_PLAY = _event("win", 0, "none", True)
ROUND_WON = _event("win", 1, "gain", True)  # arizona: +1 round won
HIT_69 = _event("hit", 1, "gain", False, 69)  # on_69 "token"
TRIPS = _event("trips", 1, "others", True)
# Adjust is allowed in every preset; its amount is entered (Event.tokens), so cost is 0 here.
ADJUST = _event("adjust", 0, "none", False)

THIRTY_THREE_EVENTS = (
    _event("hit", 1, "others", False, 33),
    _event("hit", 1, "others", False, 66),
    _event("hit", 2, "others", True, 99),
    _event("cross", 1, "self", False, 33),
    _event("cross", 1, "self", False, 66),
    _event("bust", 2, "self", True),
    _event("empty", 3, "self", True),
)
BORDERS = (
    _event("border", 1, "self", False, 33),
    _event("border", 1, "self", False, 66),
    _event("border", 1, "self", True, 99),
)
CUSTOM_EVENTS = (
    BUST,
    *THIRTY_THREE_EVENTS[:5],
    *BORDERS,
    THIRTY_THREE_EVENTS[6],
    TRIPS,
    LAST_TO_PLAY,
)
# Every event any preset or option can offer.
ALL_EVENTS = (*CUSTOM_EVENTS, BUST_OUT_OF_ROUND, ROUND_WON, HIT_69, ADJUST)
