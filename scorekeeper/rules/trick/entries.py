"""What the table enters for a deal of the trick game, and what can be wrong with it."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.rules.i18n import _, gettext_noop


@dataclass(frozen=True)
class HandEntry:
    """One hand of a deal, exactly as entered at the table.

    `tricks` is required; then a `bid`, or the three `bid_cards` (suits), or `made` alone
    (True: the bid was the tricks won; False: failed, bid kept hidden). `made` may accompany a
    bid but must agree with it. `premium` is "declare" or "reveal".
    """

    tricks: int
    bid: int | None = None
    bid_cards: tuple[str, ...] | None = None
    made: bool | None = None
    premium: str | None = None


@dataclass(frozen=True)
class DealEntry:
    """One deal: a hand per player (and the dummy's, keyed DUMMY), and the trump if entered."""

    hands: Mapping[str, HandEntry]
    trump: str | None = None


# Problems with the deals


@dataclass(frozen=True)
class DealProblem:
    """Something wrong with one deal: which (0-based), whose hand, which field, and what.

    `field` is a hand's field ("tricks", "bid", "bid_cards", "made", "premium"), "trump",
    "hands" for the hands taken together, or None for the hand (with a player) or the deal.
    """

    deal: int
    player: str | None
    field: str | None
    message: str

    @property
    def path(self) -> str:
        """Where in the scoresheet file, e.g. deals[3].hands.Ben.bid."""
        deal = f"deals[{self.deal}]"
        if self.field in ("trump", "hands"):
            return f"{deal}.{self.field}"
        if self.player is None:
            return deal
        hand = f"{deal}.hands.{self.player}"
        return f"{hand}.{self.field}" if self.field else hand

    def __str__(self) -> str:
        number = self.deal + 1
        if self.player is None:
            return _("Deal {number}: {message}").format(number=number, message=self.message)
        # The dummy's hand is keyed "dummy" (presets.DUMMY): a word people read too.
        who = _(_DUMMY_WORD) if self.player == _DUMMY_WORD else self.player
        return _("Deal {number}, {player}: {message}").format(
            number=number, player=who, message=self.message
        )


_DUMMY_WORD = gettext_noop("dummy")  # presets.DUMMY, the key, as a word (tests check they agree)


class InvalidDeals(ValueError):
    """The deals cannot be scored; `problems` lists everything found."""

    def __init__(self, problems: Sequence[DealProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))
