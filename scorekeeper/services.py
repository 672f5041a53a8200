"""Service functions: load a session, call the rules, save; one transaction per write."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Prefetch, QuerySet

from scorekeeper.models import (
    LETTER_SUITS,
    SUIT_LETTERS,
    Deal,
    Family,
    GameSession,
    Hand,
    Player,
    Seat,
)
from scorekeeper.rules import trick
from scorekeeper.scoresheet import TrickSheet


def with_entries(sessions: QuerySet[GameSession]) -> QuerySet[GameSession]:
    """Sessions with seats, deals and hands loaded in a fixed number of queries."""
    return sessions.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch("deals", queryset=Deal.objects.order_by("number")),
        Prefetch("deals__hands", queryset=Hand.objects.order_by()),
    )


def player_names(session: GameSession) -> list[str]:
    return [seat.player.name for seat in session.seats.all()]


def deal_entries(session: GameSession) -> list[trick.DealEntry]:
    """Each deal as entered at the table, in the rules package's terms."""
    names = {seat.pk: seat.player.name for seat in session.seats.all()}
    entries = []
    for deal in session.deals.all():
        hands = {}
        for hand in deal.hands.all():
            key = trick.DUMMY if hand.seat_id is None else names[hand.seat_id]
            hands[key] = trick.HandEntry(
                tricks=hand.tricks,
                bid=hand.bid,
                bid_cards=tuple(LETTER_SUITS[c] for c in hand.bid_cards) or None,
                made=hand.made,
                premium=hand.premium or None,
            )
        entries.append(trick.DealEntry(hands=hands, trump=deal.trump or None))
    return entries


def trick_rules(session: GameSession) -> trick.TrickRules:
    return trick.resolve_rules(session.ruleset, session.options, player_names(session))


def scoresheet_for(session: GameSession) -> TrickSheet:
    return TrickSheet.build(
        ruleset=session.ruleset,
        options=session.options,
        title=session.title or None,
        played_on=session.played_on,
        players=player_names(session),
        deals=deal_entries(session),
    )


def compute(session: GameSession) -> trick.SessionResult:
    return trick.score_session(trick_rules(session), deal_entries(session))


@transaction.atomic
def import_scoresheet(*, owner: User, sheet: TrickSheet) -> GameSession:
    """Store a parsed (so already valid) scoresheet as a new session of `owner`.

    Players are matched to the owner's roster by name, ignoring case; missing
    ones are added to the roster. A trump is stored only where the table supplies
    it: elsewhere the file's trump was checked to equal the computed one, and
    storing it would pin it if an earlier deal is corrected later.
    """
    roster = {p.name.casefold(): p for p in Player.objects.for_user(owner)}
    session = GameSession.objects.create(
        owner=owner,
        family=Family.TRICK,
        ruleset=sheet.ruleset,
        options=dict(sheet.options),
        title=sheet.title or "",
        played_on=sheet.played_on,
    )
    seats = {}
    for position, name in enumerate(sheet.players):
        player = roster.get(name.casefold())
        if player is None:
            player = Player.objects.create(owner=owner, name=name)
        seats[name] = Seat.objects.create(session=session, position=position, player=player)
    deals = Deal.objects.bulk_create(
        Deal(
            session=session,
            number=number,
            trump=entry.trump if entry.trump and trick.trump_from_table(sheet.rules, entry) else "",
        )
        for number, entry in enumerate(sheet.deals, start=1)
    )
    Hand.objects.bulk_create(
        Hand(
            deal=deal,
            seat=None if name == trick.DUMMY else seats[name],
            is_dummy=name == trick.DUMMY,
            tricks=hand.tricks,
            bid=hand.bid,
            bid_cards="".join(SUIT_LETTERS[suit] for suit in hand.bid_cards or ()),
            made=hand.made,
            premium=hand.premium or "",
        )
        for deal, entry in zip(deals, sheet.deals, strict=True)
        for name, hand in entry.hands.items()
    )
    return session
