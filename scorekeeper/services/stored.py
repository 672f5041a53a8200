"""How each game family's entries are written to their tables (read back by the models'
`entries_of`): a deal with its hands, a round with its events, and a whole session's at once
(an imported file). Called inside a write's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from scorekeeper.models import Deal, GameSession, Hand, Round, RoundEvent, Seat
from scorekeeper.rules import adding, trick


def store_deal(
    session: GameSession, rules: trick.TrickRules, number: int, entry: trick.DealEntry
) -> Deal:
    """Store deal `number` as entered."""
    deal = Deal.objects.create(
        session=session, number=number, trump=trick.entered_trump(rules, entry) or ""
    )
    store_hands(deal, entry, session.seats_by_name())
    return deal


def store_hands(deal: Deal, entry: trick.DealEntry, seats: dict[str, Seat]) -> None:
    Hand.objects.bulk_create(_hand(deal, name, hand, seats) for name, hand in entry.hands.items())


def store_deals(
    session: GameSession,
    rules: trick.TrickRules,
    entries: Sequence[trick.DealEntry],
    seats: dict[str, Seat],
) -> None:
    """Store every deal of a new session at once (an imported file)."""
    deals = Deal.objects.bulk_create(
        Deal(session=session, number=number, trump=trick.entered_trump(rules, entry) or "")
        for number, entry in enumerate(entries, start=1)
    )
    Hand.objects.bulk_create(
        _hand(deal, name, hand, seats)
        for deal, entry in zip(deals, entries, strict=True)
        for name, hand in entry.hands.items()
    )


def _hand(deal: Deal, name: str, hand: trick.HandEntry, seats: dict[str, Seat]) -> Hand:
    return Hand(
        deal=deal,
        seat=seats.get(name),
        is_dummy=name == trick.DUMMY,
        tricks=hand.tricks,
        bid=hand.bid,
        bid_cards=trick.letters_from_cards(hand.bid_cards or ()),
        made=hand.made,
        premium=hand.premium or "",
    )


def store_events(
    game_round: Round, entry: adding.RoundEntry, seats: dict[str, Seat], start: int = 0
) -> None:
    """Store the round's events from position `start` on."""
    RoundEvent.objects.bulk_create(_events(game_round, entry, seats, start))


def store_rounds(
    session: GameSession,
    rules: adding.AddingRules,
    entries: Sequence[adding.RoundEntry],
    seats: dict[str, Seat],
) -> None:
    """Store every round of a new session at once (an imported file)."""
    rounds = Round.objects.bulk_create(
        Round(session=session, number=number) for number in range(1, len(entries) + 1)
    )
    RoundEvent.objects.bulk_create(
        event
        for game_round, entry in zip(rounds, entries, strict=True)
        for event in _events(game_round, entry, seats)
    )


def _events(
    game_round: Round, entry: adding.RoundEntry, seats: dict[str, Seat], start: int = 0
) -> list[RoundEvent]:
    return [
        RoundEvent(
            round=game_round,
            position=position,
            seat=seats[event.player],
            event=event.event,
            target=event.target,
            tokens=event.tokens,
        )
        for position, event in enumerate(entry.events[start:], start=start)
    ]


class StoreAll(Protocol):
    """How a family stores a whole session's entries at once (an imported file)."""

    def __call__(
        self, session: GameSession, rules: Any, entries: Sequence[Any], seats: dict[str, Seat], /
    ) -> None: ...


# Each family's way to store a whole session's entries, by the family's id.
STORE_ALL: dict[str, StoreAll] = {trick.ID: store_deals, adding.ID: store_rounds}
