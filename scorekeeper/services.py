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
    Round,
    RoundEvent,
    Seat,
)
from scorekeeper.rules import adding, trick
from scorekeeper.rules.bounds import name_key
from scorekeeper.scoresheet import TrickSheet, deal_data
from scorekeeper.scoresheet_adding import AddingSheet, event_data, round_data


def with_entries(sessions: QuerySet[GameSession]) -> QuerySet[GameSession]:
    """Sessions with seats, deals and hands loaded in a fixed number of queries."""
    return sessions.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch("deals", queryset=Deal.objects.order_by("number")),
        Prefetch("deals__hands", queryset=Hand.objects.order_by()),
        Prefetch("rounds", queryset=Round.objects.order_by("number")),
        Prefetch("rounds__events", queryset=RoundEvent.objects.order_by("position")),
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


def scoresheet_for(session: GameSession) -> TrickSheet | AddingSheet:
    if session.family == Family.ADDING:
        return AddingSheet.build(
            ruleset=session.ruleset,
            options=session.options,
            title=session.title or None,
            played_on=session.played_on,
            players=player_names(session),
            rounds=round_entries(session),
        )
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
def import_scoresheet(*, owner: User, sheet: TrickSheet | AddingSheet) -> GameSession:
    """Store a parsed (so already valid) scoresheet as a new session of `owner`.

    Players are matched to the owner's roster by name, ignoring case; missing
    ones are added to the roster. A trump is stored only where the table supplies
    it: elsewhere the file's trump was checked to equal the computed one, and
    storing it would pin it if an earlier deal is corrected later.
    """
    roster = {p.name_key: p for p in Player.objects.for_user(owner)}
    session = GameSession.objects.create(
        owner=owner,
        family=Family.TRICK if isinstance(sheet, TrickSheet) else Family.ADDING,
        ruleset=sheet.ruleset,
        options=dict(sheet.options),
        title=sheet.title or "",
        played_on=sheet.played_on,
    )
    seats = {}
    for position, name in enumerate(sheet.players):
        player = roster.get(name_key(name))
        if player is None:
            player = Player.objects.create(owner=owner, name=name)
        seats[name] = Seat.objects.create(session=session, position=position, player=player)
    if isinstance(sheet, TrickSheet):
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
    else:
        rounds = Round.objects.bulk_create(
            Round(session=session, number=number) for number in range(1, len(sheet.rounds) + 1)
        )
        RoundEvent.objects.bulk_create(
            event
            for game_round, entry in zip(rounds, sheet.rounds, strict=True)
            for event in _round_events(game_round, entry, seats)
        )
        _settle(session, adding.score_session(sheet.rules, sheet.rounds))
    return session


class Conflict(Exception):
    """The entry was made on a stale copy: another phone changed the session meanwhile."""


class Rejected(Exception):
    """The rules refuse the change; `problems` says why, deal by deal or round by round."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


@transaction.atomic
def create_session(
    *,
    owner: User,
    ruleset: str,
    options: dict[str, object],
    players: list[Player],
    title: str = "",
    family: str = Family.TRICK,
) -> GameSession:
    """A new session; `players` in seat order, the first deals first."""
    family_rules = trick if family == Family.TRICK else adding
    family_rules.resolve_rules(ruleset, options, [player.name for player in players])
    session = GameSession.objects.create(
        owner=owner, family=family, ruleset=ruleset, options=options, title=title
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
        raise Rejected([str(problem) for problem in problems])
    return trick.score_session(rules, entries)


def _settle(session: GameSession, result: trick.SessionResult | adding.AddingResult) -> None:
    """Keep the session's summary in step with its entries, and tell live pages it changed.
    (The row is locked by the transaction, so the version goes up by exactly one.)"""
    session.finished = result.finished
    session.version += 1
    session.save(update_fields=["finished", "version", "updated"])


class AlreadyDone(Exception):
    """The same form was already applied (a double tap, or a form sent again)."""


class KeyReused(Exception):
    """A form already applied was sent again with other content: the new content is not
    saved, and the person must hear so (and get it back to save anew)."""

    def __init__(self, change: Change) -> None:
        self.change = change
        super().__init__(f"That form was already used for change {change.pk}.")


def _once(session: GameSession, form_key: str, content: object = None) -> None:
    """Refuse a form whose idempotency key was applied already: AlreadyDone when it is the
    same change again, KeyReused when `content` differs from what that key stored."""
    if not form_key:
        return
    change = session.changes.filter(form_key=form_key).first()
    if change is None:
        return
    if content is not None and content != change.after:
        raise KeyReused(change)
    raise AlreadyDone("That was already saved.")


def replayed(session: GameSession, form_key: str) -> Change | None:
    """The change an idempotency key already made, if any."""
    return session.changes.filter(form_key=form_key).first() if form_key else None


def _record(
    session: GameSession,
    action: str,
    *,
    number: int | None,
    by_user: User | None,
    by_name: str = "",
    before: object = None,
    after: object = None,
    form_key: str = "",
) -> None:
    Change.objects.create(
        session=session,
        action=action,
        number=number,
        by_user=by_user,
        by_name=by_name,
        before=before,
        after=after,
        form_key=form_key,
    )


@transaction.atomic
def add_deal(
    *,
    session: GameSession,
    number: int,
    entry: trick.DealEntry,
    by_user: User | None,
    by_name: str = "",
    form_key: str = "",
) -> trick.SessionResult:
    """Store deal `number`, which must be the next one; all or nothing."""
    game = _locked(session)
    _once(game, form_key, deal_data(entry))
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
        form_key=form_key,
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
    form_key: str = "",
) -> tuple[trick.SessionResult, trick.SessionResult]:
    """Correct a past deal; everything after it is recomputed. Returns (before, after)."""
    game = _locked(session)
    _once(game, form_key)
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
        form_key=form_key,
    )
    _settle(game, after)
    return before, after


@transaction.atomic
def delete_last_deal(
    *,
    session: GameSession,
    number: int,
    by_user: User | None,
    by_name: str = "",
    form_key: str = "",
) -> trick.SessionResult:
    """Undo the last deal (it must still be deal `number`); it stays in the history."""
    game = _locked(session)
    _once(game, form_key)
    entries = deal_entries(game)
    if number < 1 or number != len(entries):
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
        form_key=form_key,
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
    *,
    session: GameSession,
    deals: int,
    by_user: User | None,
    by_name: str = "",
    form_key: str = "",
) -> trick.SessionResult:
    """Play `deals` more deals in a finished session of a fixed number of deals."""
    game = _locked(session)
    _once(game, form_key)
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
        form_key=form_key,
    )
    _settle(game, result)
    return result


# The adding game (99 and friends)


def round_entries(session: GameSession) -> list[adding.RoundEntry]:
    """Each round as entered at the table, in the rules package's terms."""
    names = {seat.pk: seat.player.name for seat in session.seats.all()}
    return [
        adding.RoundEntry(
            tuple(
                adding.Event(
                    player=names[event.seat_id],
                    event=event.event,
                    target=event.target,
                    tokens=event.tokens,
                )
                for event in game_round.events.all()
            )
        )
        for game_round in session.rounds.all()
    ]


def adding_rules(session: GameSession) -> adding.AddingRules:
    return adding.resolve_rules(session.ruleset, session.options, player_names(session))


def compute_adding(session: GameSession) -> adding.AddingResult:
    return adding.score_session(adding_rules(session), round_entries(session))


def table_state(rounds: list[adding.RoundEntry]) -> str:
    """Where the table is: "rounds.events-in-the-last". A tap made on an older state is refused."""
    return f"{len(rounds)}.{len(rounds[-1].events) if rounds else 0}"


def _check_rounds(
    rules: adding.AddingRules, rounds: list[adding.RoundEntry]
) -> adding.AddingResult:
    problems = adding.check_rounds(rules, rounds)
    if problems:
        raise Rejected([str(problem) for problem in problems])
    return adding.score_session(rules, rounds)


def _round_events(
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


def create_adding_session(
    *,
    owner: User,
    ruleset: str,
    options: dict[str, object],
    players: list[Player],
    title: str = "",
) -> GameSession:
    """A new adding-game session; `players` in seat order, the first deals first."""
    return create_session(
        owner=owner,
        ruleset=ruleset,
        options=options,
        players=players,
        title=title,
        family=Family.ADDING,
    )


@transaction.atomic
def record_event(
    *,
    session: GameSession,
    state: str,
    event: adding.Event,
    by_user: User | None,
    by_name: str = "",
    form_key: str = "",
) -> adding.AddingResult:
    """Record one tap where the table would put it; `state` is the table_state it was made on."""
    game = _locked(session)
    _once(game, form_key, event_data(event))
    rounds = round_entries(game)
    if state != table_state(rounds):
        raise Conflict("The table changed on another phone just now; here it is as it is now.")
    rules = adding_rules(game)
    changed = list(adding.add_event(rules, rounds, event))
    result = _check_rounds(rules, changed)
    seats = {seat.player.name: seat for seat in game.seats.all()}
    number = len(changed)
    if number > len(rounds):
        game_round = Round.objects.create(session=game, number=number)
    else:
        game_round = game.rounds.get(number=number)
    last = changed[-1]
    RoundEvent.objects.bulk_create(_round_events(game_round, last, seats, len(last.events) - 1))
    _record(
        game,
        ChangeAction.ADDED,
        number=number,
        by_user=by_user,
        by_name=by_name,
        after=event_data(event),
        form_key=form_key,
    )
    _settle(game, result)
    return result


@transaction.atomic
def undo_event(
    *,
    session: GameSession,
    state: str,
    by_user: User | None,
    by_name: str = "",
    form_key: str = "",
) -> adding.AddingResult:
    """Take back the last event of the session (it stays in the history)."""
    game = _locked(session)
    _once(game, form_key)
    rounds = round_entries(game)
    if state != table_state(rounds) or not rounds:
        raise Conflict("The table changed on another phone just now; here it is as it is now.")
    rules = adding_rules(game)
    last = rounds[-1]
    changed = (
        [*rounds[:-1], adding.RoundEntry(last.events[:-1])] if len(last.events) > 1 else rounds[:-1]
    )
    result = _check_rounds(rules, changed)
    game_round = game.rounds.get(number=len(rounds))
    if len(last.events) > 1:
        game_round.events.filter(position=len(last.events) - 1).delete()
    else:
        game_round.delete()
    _record(
        game,
        ChangeAction.DELETED,
        number=len(rounds),
        by_user=by_user,
        by_name=by_name,
        before=event_data(last.events[-1]),
        form_key=form_key,
    )
    _settle(game, result)
    return result


@transaction.atomic
def edit_round(
    *,
    session: GameSession,
    number: int,
    revision: int,
    events: tuple[adding.Event, ...],
    by_user: User | None,
    by_name: str = "",
    form_key: str = "",
) -> tuple[adding.AddingResult, adding.AddingResult]:
    """Replace a round's events; everything after it is worked out again. (before, after)."""
    game = _locked(session)
    _once(game, form_key)
    stored = list(game.rounds.all())
    if not 1 <= number <= len(stored):
        raise Conflict(f"Round {number} was just undone on another phone.")
    game_round = stored[number - 1]
    if game_round.revision != revision:
        raise Conflict(f"Round {number} was just corrected on another phone.")
    if not events:
        raise Rejected([f"Round {number}: a round needs at least one event; undo it instead."])
    rules = adding_rules(game)
    rounds = round_entries(game)
    before = adding.score_session(rules, rounds)
    old = rounds[number - 1]
    rounds[number - 1] = adding.RoundEntry(events)
    after = _check_rounds(rules, rounds)
    game_round.revision += 1
    game_round.save(update_fields=["revision"])
    game_round.events.all().delete()
    seats = {seat.player.name: seat for seat in game.seats.all()}
    RoundEvent.objects.bulk_create(_round_events(game_round, rounds[number - 1], seats))
    _record(
        game,
        ChangeAction.EDITED,
        number=number,
        by_user=by_user,
        by_name=by_name,
        before=round_data(old),
        after=round_data(rounds[number - 1]),
        form_key=form_key,
    )
    _settle(game, after)
    return before, after
