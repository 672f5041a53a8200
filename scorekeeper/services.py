"""Service functions: load a session, call the rules, save; one transaction per write."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Prefetch, QuerySet

from scorekeeper.models import (
    LETTER_SUITS,
    SUIT_LETTERS,
    Change,
    ChangeAction,
    Deal,
    Family,
    GameSession,
    Hand,
    Player,
    Seat,
)
from scorekeeper.rules import trick
from scorekeeper.scoresheet import TrickSheet, deal_data


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
        Deal(session=session, number=number, trump=_stored_trump(sheet.rules, entry))
        for number, entry in enumerate(sheet.deals, start=1)
    )
    Hand.objects.bulk_create(
        _hand(deal, name, hand, seats)
        for deal, entry in zip(deals, sheet.deals, strict=True)
        for name, hand in entry.hands.items()
    )
    _settle(session, trick.score_session(sheet.rules, sheet.deals))
    return session


class Conflict(Exception):
    """The entry was made on a stale copy: another phone changed the session meanwhile."""


class Rejected(Exception):
    """The rules refuse the change; `problems` says why, deal by deal."""

    def __init__(self, problems: list[trick.DealProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))


@transaction.atomic
def create_session(
    *,
    owner: User,
    ruleset: str,
    options: dict[str, object],
    players: list[Player],
    title: str = "",
) -> GameSession:
    """A new trick-game session; `players` in seat order, the first deals first."""
    trick.resolve_rules(ruleset, options, [player.name for player in players])
    session = GameSession.objects.create(
        owner=owner, family=Family.TRICK, ruleset=ruleset, options=options, title=title
    )
    Seat.objects.bulk_create(
        Seat(session=session, position=position, player=player)
        for position, player in enumerate(players)
    )
    return session


def _locked(session: GameSession) -> GameSession:
    """The session reloaded with its entries, its row locked until the transaction ends.

    On PostgreSQL the row lock queues writers to one session; SQLite's IMMEDIATE
    transactions already queue every writer.
    """
    locked = GameSession.objects.select_for_update().filter(pk=session.pk)
    return with_entries(locked).get()


def _hand(deal: Deal, name: str, hand: trick.HandEntry, seats: dict[str, Seat]) -> Hand:
    return Hand(
        deal=deal,
        seat=seats.get(name),
        is_dummy=name == trick.DUMMY,
        tricks=hand.tricks,
        bid=hand.bid,
        bid_cards="".join(SUIT_LETTERS[suit] for suit in hand.bid_cards or ()),
        made=hand.made,
        premium=hand.premium or "",
    )


def _store_hands(deal: Deal, entry: trick.DealEntry, seats: dict[str, Seat]) -> None:
    Hand.objects.bulk_create(_hand(deal, name, hand, seats) for name, hand in entry.hands.items())


def _stored_trump(rules: trick.TrickRules, entry: trick.DealEntry) -> str:
    return entry.trump if entry.trump and trick.trump_from_table(rules, entry) else ""


def _score(rules: trick.TrickRules, entries: list[trick.DealEntry]) -> trick.SessionResult:
    problems = trick.check_deals(rules, entries)
    if problems:
        raise Rejected(problems)
    return trick.score_session(rules, entries)


def _settle(session: GameSession, result: trick.SessionResult) -> None:
    session.finished = result.finished
    session.save(update_fields=["finished", "updated"])


def _record(
    session: GameSession,
    action: str,
    *,
    number: int | None,
    by_user: User | None,
    by_name: str = "",
    before: object = None,
    after: object = None,
) -> None:
    Change.objects.create(
        session=session,
        action=action,
        number=number,
        by_user=by_user,
        by_name=by_name,
        before=before,
        after=after,
    )


@transaction.atomic
def add_deal(
    *,
    session: GameSession,
    number: int,
    entry: trick.DealEntry,
    by_user: User | None,
    by_name: str = "",
) -> trick.SessionResult:
    """Store deal `number`, which must be the next one; all or nothing."""
    game = _locked(session)
    entries = deal_entries(game)
    if number != len(entries) + 1:
        raise Conflict(f"Deal {number} was just entered on another phone.")
    rules = trick_rules(game)
    result = _score(rules, [*entries, entry])
    deal = Deal.objects.create(session=game, number=number, trump=_stored_trump(rules, entry))
    seats = {seat.player.name: seat for seat in game.seats.all()}
    _store_hands(deal, entry, seats)
    _record(
        game,
        ChangeAction.ADDED,
        number=number,
        by_user=by_user,
        by_name=by_name,
        after=deal_data(entry),
    )
    _settle(game, result)
    return result


@transaction.atomic
def edit_deal(
    *,
    session: GameSession,
    number: int,
    revision: int,
    entry: trick.DealEntry,
    by_user: User | None,
    by_name: str = "",
) -> tuple[trick.SessionResult, trick.SessionResult]:
    """Correct a past deal; everything after it is recomputed. Returns (before, after)."""
    game = _locked(session)
    deals = list(game.deals.all())
    if number > len(deals):
        raise Conflict(f"Deal {number} was just undone on another phone.")
    deal = deals[number - 1]
    if deal.revision != revision:
        raise Conflict(f"Deal {number} was just corrected on another phone.")
    rules = trick_rules(game)
    entries = deal_entries(game)
    before = trick.score_session(rules, entries)
    old = entries[number - 1]
    entries[number - 1] = entry
    after = _score(rules, entries)
    deal.trump = _stored_trump(rules, entry)
    deal.revision += 1
    deal.save(update_fields=["trump", "revision"])
    deal.hands.all().delete()
    _store_hands(deal, entry, {seat.player.name: seat for seat in game.seats.all()})
    _record(
        game,
        ChangeAction.EDITED,
        number=number,
        by_user=by_user,
        by_name=by_name,
        before=deal_data(old),
        after=deal_data(entry),
    )
    _settle(game, after)
    return before, after


@transaction.atomic
def delete_last_deal(
    *, session: GameSession, number: int, by_user: User | None, by_name: str = ""
) -> trick.SessionResult:
    """Undo the last deal (it must still be deal `number`); it stays in the history."""
    game = _locked(session)
    entries = deal_entries(game)
    if number != len(entries):
        raise Conflict(f"Deal {number} is no longer the last deal: the session changed meanwhile.")
    rules = trick_rules(game)
    result = _score(rules, entries[:-1])
    game.deals.filter(number=number).delete()
    _record(
        game,
        ChangeAction.DELETED,
        number=number,
        by_user=by_user,
        by_name=by_name,
        before=deal_data(entries[-1]),
    )
    _settle(game, result)
    return result


def extension(rules: trick.TrickRules) -> int | None:
    """How many deals "play more" adds to a finished fixed-length session, or None."""
    if rules.match.type != "deals":
        return None
    default = trick.default_options(rules.preset, len(rules.players))["match"]
    assert isinstance(default, dict)
    more = default.get("deals")
    return more if isinstance(more, int) else len(rules.players) * 3


@transaction.atomic
def extend_session(
    *, session: GameSession, deals: int, by_user: User | None, by_name: str = ""
) -> trick.SessionResult:
    """Play `deals` more deals in a finished session of a fixed number of deals."""
    game = _locked(session)
    rules = trick_rules(game)
    entries = deal_entries(game)
    result = trick.score_session(rules, entries)
    if not result.finished or extension(rules) != deals:
        raise Conflict("This session cannot be extended now.")
    old = dict(game.options)
    new = {**old, "match": {"type": "deals", "deals": len(entries) + deals}}
    rules = trick.resolve_rules(game.ruleset, new, player_names(game))
    result = _score(rules, entries)
    game.options = rules.overrides_data()
    game.save(update_fields=["options"])
    _record(
        game,
        ChangeAction.EXTENDED,
        number=None,
        by_user=by_user,
        by_name=by_name,
        before=old,
        after=game.options,
    )
    _settle(game, result)
    return result
