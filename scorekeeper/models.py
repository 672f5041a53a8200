"""The stored data: players, sessions with their seats and entries, the history of changes.

What is stored is what the table entered (deals with their hands, rounds with their events);
every score is computed from it by the rules, once per version of the session
(`scorekeeper.live.result`). A session finds its game family's rules through the registry
(`GameSession.rules_family`), and its entries through `ENTRY_MODELS`: the one place here that
maps a family to its tables.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Length, Lower, Trim
from django.db.models.lookups import LessThanOrEqual
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.formats import date_text
from scorekeeper.rules import adding, trick
from scorekeeper.rules.bounds import MAX_DEALS, MAX_PLAYERS, MAX_TITLE_LENGTH, name_key
from scorekeeper.rules.bounds import MAX_NAME_LENGTH as PLAYER_NAME_MAX
from scorekeeper.rules.common import InvalidRules, Problem, dealer_moved_on, seat_names
from scorekeeper.rules.registry import FAMILIES, Entry, Evaluation, Family, Rules, family


class PlayerQuerySet(models.QuerySet["Player"]):
    def for_user(self, user: object) -> PlayerQuerySet:
        return self.filter(owner=user)

    def active(self) -> PlayerQuerySet:
        return self.filter(archived=False)


def name_constraints(prefix: str) -> list[models.BaseConstraint]:
    """The database's hold on the name: unique per owner by its key, trimmed, not blank."""
    return [
        models.UniqueConstraint(
            fields=["owner", "name_key"], name=f"{prefix}_name_key_unique_per_owner"
        ),
        models.CheckConstraint(
            condition=models.Q(name=Trim("name")) & ~models.Q(name=""),
            name=f"{prefix}_name_trimmed_not_blank",
        ),
    ]


class NamedByKey(models.Model):
    """A name unique for its owner as people read it: `name_key` (bounds.name_key, ignoring
    case and compatibility forms) is kept by save() and held unique by the database (SQLite's
    lower() folds ASCII letters only: it could not tell "Éva" from "éva" by the name itself)."""

    name: models.CharField[str, str]
    name_key: models.CharField[str, str]

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class Player(NamedByKey):
    """Someone the owner plays with, named uniquely for the owner as people read names."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="players")
    name = models.CharField(max_length=PLAYER_NAME_MAX)
    name_key = models.CharField(max_length=4 * PLAYER_NAME_MAX, editable=False)
    archived = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            *name_constraints("player"),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("name"), PLAYER_NAME_MAX),
                name="player_name_length",
            ),
        ]

    def __str__(self) -> str:
        return self.name


def new_link_token() -> str:
    """A token for a shared link: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_public_id() -> str:
    """A short identifier for URLs and the scoresheet commands (60 random bits)."""
    return secrets.token_hex(6)


# The stored values and their names, from the rules (their one home), in the page's language
# when shown (`get_family_display()` …): the rules mark their words for translation.
_trump_label = lazy(lambda trump: gettext(trick.trump_label(trump)), str)
FAMILY_CHOICES: list[tuple[str, Any]] = [(f.ID, gettext_lazy(f.NAME)) for f in FAMILIES.values()]
TRUMP_CHOICES = [(trump, _trump_label(trump)) for trump in trick.TRUMPS]
PREMIUM_CHOICES = [
    (kind, gettext_lazy(trick.PREMIUM_LABELS[kind])) for kind in trick.PREMIUM_POINTS
]
EVENT_CHOICES = [(kind, gettext_lazy(adding.EVENT_LABELS[kind])) for kind in adding.EVENT_KINDS]
EVENT_TARGETS = sorted({rule.target for rule in adding.ALL_EVENTS if rule.target is not None})

RULESET_NAME_MAX: int = PLAYER_NAME_MAX


class SavedRulesetQuerySet(models.QuerySet["SavedRuleset"]):
    def for_user(self, user: object) -> SavedRulesetQuerySet:
        """The rulesets this user saved: the one lookup every ruleset page starts from."""
        return self.filter(owner=user)


class SavedRuleset(NamedByKey):
    """A table's own rules ("Our Friday rules"): a preset and the options it changes, under a
    name of the owner's, unique for them as people read it (ignoring case, like players).
    A session started from it keeps its own copy of the options (`GameSession.options`), so
    changing or deleting the ruleset never changes a session."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="saved_rulesets"
    )
    name = models.CharField(max_length=RULESET_NAME_MAX)
    name_key = models.CharField(max_length=4 * RULESET_NAME_MAX, editable=False)
    family = models.CharField(max_length=10, choices=FAMILY_CHOICES)
    ruleset = models.CharField(max_length=40)  # the preset's id
    options = models.JSONField(default=dict, blank=True)  # the overrides, as a session keeps them
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = SavedRulesetQuerySet.as_manager()

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            *name_constraints("saved_ruleset"),
            models.CheckConstraint(
                condition=models.Q(family__in=list(FAMILIES)), name="saved_ruleset_family_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules_family(self) -> Family:
        return family(self.family)

    @property
    def preset(self) -> Any:
        """The preset it starts from, or None if the rules no longer know it."""
        return self.rules_family.PRESETS.get(self.ruleset)

    def rules(self) -> Any:
        """Its rules for the fewest players the preset seats (the sheets' and the title's)."""
        players = seat_names(min(self.preset.players))
        return self.rules_family.resolve_rules(self.ruleset, self.options, players)


class GameSessionQuerySet(models.QuerySet["GameSession"]):
    def for_user(self, user: object) -> GameSessionQuerySet:
        """The sessions of this user: the one lookup every owner's page starts from. A deleted
        session is not among them (see `deleted_for_user`)."""
        return self.filter(owner=user).not_deleted()

    def deleted_for_user(self, user: object) -> GameSessionQuerySet:
        """The sessions this user deleted, kept until restored or deleted for good."""
        return self.filter(owner=user, deleted__isnull=False)

    def not_deleted(self) -> GameSessionQuerySet:
        """Every session but the deleted ones: what links and records may reach."""
        return self.filter(deleted__isnull=True)

    def in_progress(self) -> GameSessionQuerySet:
        """Sessions still being played: neither finished nor abandoned."""
        return self.filter(finished=False, abandoned__isnull=True)

    def with_stage(self) -> GameSessionQuerySet:
        """With `stage`, for sorting lists: 0 in progress, 1 finished, 2 abandoned."""
        return self.annotate(
            stage=models.Case(
                models.When(finished=True, then=models.Value(1)),
                models.When(abandoned__isnull=False, then=models.Value(2)),
                default=models.Value(0),
            )
        )

    def with_seats(self) -> GameSessionQuerySet:
        """With the seats and their players, so that names cost no more queries."""
        return self.prefetch_related(seats_with_players())

    def with_last_action(self) -> GameSessionQuerySet:
        """With `last_action`: the action of each one's latest change (None before any), for
        the pages of a phone that may score (`GameSession.last_undo`)."""
        latest = Change.objects.filter(session=models.OuterRef("pk")).order_by("-created", "-id")
        return self.annotate(last_action=models.Subquery(latest.values("action")[:1]))

    def with_counts(self) -> GameSessionQuerySet:
        """With `entry_count`: the deals or rounds each holds."""
        return self.annotate(
            entry_count=models.Count("deals", distinct=True) + models.Count("rounds", distinct=True)
        )


class GameSession(models.Model):
    """One sitting at the table: who sat where, under which rules, and every deal entered."""

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="game_sessions"
    )
    family = models.CharField(max_length=10, choices=FAMILY_CHOICES)
    ruleset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    title = models.CharField(max_length=MAX_TITLE_LENGTH, blank=True)
    played_on = models.DateField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # Kept in step with the entries by every service that writes them, so that
    # lists can sort without recomputing every session; never typed in.
    finished = models.BooleanField(default=False)
    # Goes up by one with every change a page shows (scorekeeper/live/versions.py).
    version = models.PositiveIntegerField(default=1)
    # The adding game's card counter (services/count.py), shared by every phone at the table:
    # the round's total, its cards and the events they propose; None: not started.
    counter = models.JSONField(null=True, blank=True, default=None)
    # Unguessable tokens (at least 128 bits) of the links the owner shares; None: turned off.
    watch_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    scorer_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # When the owner stopped the session where it stood (it can be resumed), and when they
    # deleted it (kept, out of every list and link, until restored or deleted for good).
    abandoned = models.DateTimeField(null=True, blank=True)
    deleted = models.DateTimeField(null=True, blank=True)
    # The session this one is a rematch of (same seats moved on by one, same rules).
    rematch_of = models.ForeignKey(
        "self", models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    # The saved ruleset it was started from (for the sessions filter); its options are copied
    # into `options` when the session starts, so later changes to the ruleset never reach it.
    saved_ruleset = models.ForeignKey(
        SavedRuleset, models.SET_NULL, null=True, blank=True, related_name="sessions"
    )
    # That saved ruleset's name when the session started ("Our Friday rules"): the session's
    # name when it has no title, and said beside its rules.
    ruleset_name = models.CharField(max_length=RULESET_NAME_MAX, blank=True)
    # The seat that deals first (0 is seat 1); the seats stay in the order the table sits.
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # A table of a club night (night_models.py): the night, its round and the table's number.
    night = models.ForeignKey(
        "scorekeeper.Night", models.CASCADE, null=True, blank=True, related_name="sessions"
    )
    night_round = models.PositiveSmallIntegerField(null=True, blank=True)
    night_table = models.PositiveSmallIntegerField(null=True, blank=True)

    objects = GameSessionQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(family__in=list(FAMILIES)), name="session_family_valid"
            ),
            models.CheckConstraint(
                condition=~models.Q(ruleset=""), name="session_ruleset_not_blank"
            ),
            models.CheckConstraint(
                condition=models.Q(first_dealer__lt=MAX_PLAYERS), name="session_first_dealer_range"
            ),
        ]

    def __str__(self) -> str:
        if self.night_round is not None:  # a club night's table: its night's name is the title
            where = {"round": self.night_round, "table": self.night_table}
            return f"{self.title}, " + gettext("round %(round)s, table %(table)s") % where
        if self.title:
            return self.title
        name = self.ruleset_name or self.preset_name
        if not self.created:
            return name
        return f"{name}, {date_text(self.created)}"

    @property
    def rules_family(self) -> Family:
        """The rules package of this session's game family."""
        return family(self.family)

    @property
    def preset(self) -> Any:
        """The session's preset, or None if the rules no longer know it."""
        return self.rules_family.PRESETS.get(self.ruleset)

    @property
    def unit(self) -> str:
        """What the table enters, one at a time: "deal" or "round"."""
        return self.rules_family.UNIT

    @property
    def status(self) -> str:
        """In words, for lists: "finished", "abandoned" or "in progress"."""
        if self.finished:
            return "finished"
        return "abandoned" if self.abandoned else "in progress"

    def rematch_dealer(self) -> str:
        """Who deals first in a rematch: the same seats, the deal moved on by one."""
        names = self.player_names()
        return names[dealer_moved_on(self.first_dealer, len(names))]

    def seats_by_name(self) -> dict[str, Seat]:
        return {seat.player.name: seat for seat in self.seats.all()}

    def player_names(self) -> list[str]:
        """The players in seat order (from the seats loaded with `with_seats()` if they were)."""
        return [seat.player.name for seat in self.seats.all()]

    def rules(self) -> Rules:
        """The session's rules: its preset and options, for its players (UnreadableRules if the
        rules no longer accept what it stores)."""
        try:
            return self.rules_family.resolve_rules(
                self.ruleset, self.options, self.player_names(), self.first_dealer
            )
        except InvalidRules as error:
            raise UnreadableRules(self, error.problems) from error

    def entries(self) -> list[Entry]:
        """Each deal or round as entered at the table, in the rules package's terms."""
        return list(ENTRY_MODELS[self.family].entries_of(self))

    def evaluate(self, entries: Sequence[Entry]) -> Evaluation:
        """One pass of the rules over `entries` with this session's rules: .problems, .result."""
        return self.rules_family.evaluate(self.rules(), entries)

    @property
    def preset_name(self) -> str:
        """The preset's name as people read it, in the page's language (the rules mark it for
        translation), or the stored id if the rules no longer know it."""
        preset = self.preset
        return gettext(preset.name) if preset else self.ruleset

    def last_undo(self) -> Change | None:
        """The latest change to the session if it was an undo: what it took out can be put back
        (redone), or offered again to correct and save. A session read `with_last_action()`
        asks the history only when that change was an undo."""
        if self.__dict__.get("last_action", ChangeAction.DELETED) != ChangeAction.DELETED:
            return None
        change = self.changes.first()
        return change if change is not None and change.action == ChangeAction.DELETED else None

    def change_options(self, options: dict[str, object]) -> None:
        """Store new option overrides (a write, inside its transaction)."""
        self.options = options
        self.save(update_fields=["options"])


class UnreadableRules(InvalidRules):
    """A stored session whose rules the rules package no longer accepts: a value stored before
    the bounds (RULES.md §3, Bounds) existed, such as a match of 5,000 deals. Its pages that
    need the rules answer with what is wrong (scorekeeper.middleware.UnreadableRulesMiddleware);
    nothing stored is changed."""

    def __init__(self, session: GameSession, problems: Sequence[Problem]) -> None:
        super().__init__(problems)
        self.session = session


class Seat(models.Model):
    """A player's place at the table, in the order the table sits (position 0 is seat 1)."""

    session = models.ForeignKey(GameSession, models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["session", "player"], name="seat_player_unique"),
            models.CheckConstraint(
                condition=models.Q(position__lt=MAX_PLAYERS), name="seat_position_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.position + 1}"

    def holders(self, left: Sequence[tuple[int, int]] | None = None) -> list[tuple[int, range]]:
        """Who held the seat for which deals or rounds: (player id, numbers), each player who
        left it first, then its player now (to the end of the session). `left`: who left it
        and after which deal or round, in order, where the caller read them already."""
        if left is None:
            left = [(former.player_id, former.until) for former in self.former.all()]
        held, start = [], 1
        for player, until in left:
            held.append((player, range(start, until + 1)))
            start = until + 1
        held.append((self.player_id, range(start, MAX_DEALS + 1)))
        return held


def seats_with_players() -> models.Prefetch:
    """A session's seats, each with its player: what every page of a session reads."""
    return models.Prefetch("seats", queryset=Seat.objects.select_related("player"))


class FormerSeat(models.Model):
    """A player who left a seat: they played its deals or rounds up to `until`, and the player
    who took the seat went on with its score (services.manage.replace_player)."""

    seat = models.ForeignKey(Seat, models.CASCADE, related_name="former")
    player = models.ForeignKey(Player, models.PROTECT, related_name="former_seats")
    until = models.PositiveIntegerField()  # the last deal or round they played
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["until", "id"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "until"], name="former_seat_until_unique"),
            models.CheckConstraint(
                condition=models.Q(until__gte=1), name="former_seat_played_something"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.seat.position + 1} until {self.until}"


class Deal(models.Model):
    """One deal of the trick game, as entered: the trump when the table supplied it."""

    session = models.ForeignKey(GameSession, models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    trump = models.CharField(max_length=10, choices=TRUMP_CHOICES, blank=True)
    # Counts edits, so that an edit made on a stale copy can be refused.
    revision = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="deal_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(
                condition=models.Q(trump__in=[*trick.TRUMPS, ""]), name="deal_trump_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number}"

    @staticmethod
    def entries_of(session: GameSession) -> list[trick.DealEntry]:
        """Each deal of `session` as entered, read in one query of its hands."""
        names = {seat.pk: seat.player.name for seat in session.seats.all()}
        rows = (
            Hand.objects.filter(deal__session=session)
            .order_by("deal__number", "is_dummy", "seat__position")
            .values_list(
                "deal__number", "deal__trump", "seat_id", "tricks", "bid", "bid_cards", "made",
                "premium",
            )
        )  # fmt: skip
        deals: dict[int, tuple[str, dict[str, trick.HandEntry]]] = {}
        for number, trump, seat, tricks, bid, cards, made, premium in rows:
            hands = deals.setdefault(number, (trump, {}))[1]
            hands[trick.DUMMY if seat is None else names[seat]] = trick.HandEntry(
                tricks=tricks,
                bid=bid,
                bid_cards=trick.cards_from_letters(cards) or None,
                made=made,
                premium=premium or None,
            )
        return [
            trick.DealEntry(hands=hands, trump=trump or None)
            for _, (trump, hands) in sorted(deals.items())
        ]


class Hand(models.Model):
    """One hand's entry in a deal, exactly as entered at the table.

    The bid is a number, or the three bid-card suits, or absent (a player who
    failed may keep it hidden); `made` is the succeeded/failed mark when given.
    The dummy of the two-player game is a hand without a seat.
    """

    deal = models.ForeignKey(Deal, models.CASCADE, related_name="hands")
    seat = models.ForeignKey(Seat, models.CASCADE, null=True, blank=True, related_name="hands")
    is_dummy = models.BooleanField(default=False)
    tricks = models.PositiveSmallIntegerField()
    bid = models.PositiveSmallIntegerField(null=True, blank=True)
    bid_cards = models.CharField(max_length=3, blank=True)
    made = models.BooleanField(null=True, blank=True)
    premium = models.CharField(max_length=10, choices=PREMIUM_CHOICES, blank=True)

    class Meta:
        ordering = ["is_dummy", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "seat"], name="hand_one_per_seat"),
            models.UniqueConstraint(
                fields=["deal"], condition=models.Q(is_dummy=True), name="hand_one_dummy"
            ),
            models.CheckConstraint(
                condition=models.Q(seat__isnull=True, is_dummy=True)
                | models.Q(seat__isnull=False, is_dummy=False),
                name="hand_seat_or_dummy",
            ),
            models.CheckConstraint(condition=models.Q(tricks__lte=13), name="hand_tricks_range"),
            models.CheckConstraint(condition=models.Q(bid__lte=13), name="hand_bid_range"),
            models.CheckConstraint(
                condition=models.Q(bid_cards__in=[*trick.BID_CARD_CODES, ""]),
                name="hand_bid_cards_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(premium__in=[*trick.PREMIUM_POINTS, ""]),
                name="hand_premium_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{'dummy' if self.is_dummy else self.seat} in deal {self.deal_id}"


class ChangeAction(models.TextChoices):
    ADDED = "added", gettext_lazy("Entered")
    EDITED = "edited", gettext_lazy("Corrected")
    DELETED = "deleted", gettext_lazy("Undone")
    EXTENDED = "extended", gettext_lazy("Extended")
    # Changes to the session as a whole (services.manage)
    TITLED = "titled", gettext_lazy("Renamed the session")
    NAMED = "named", gettext_lazy("Corrected a player's name")
    SEATED = "seated", gettext_lazy("Changed the seats")
    REPLACED = "replaced", gettext_lazy("Replaced a player")
    ABANDONED = "abandoned", gettext_lazy("Abandoned the session")
    RESUMED = "resumed", gettext_lazy("Resumed the session")
    REMOVED = "removed", gettext_lazy("Deleted the session")
    RESTORED = "restored", gettext_lazy("Restored the session")
    REMATCH = "rematch", gettext_lazy("Started a rematch")


# The changes to a session as a whole, rather than to one of its deals or rounds.
SESSION_ACTIONS = frozenset(
    {
        ChangeAction.TITLED, ChangeAction.NAMED, ChangeAction.SEATED, ChangeAction.REPLACED,
        ChangeAction.ABANDONED, ChangeAction.RESUMED, ChangeAction.REMOVED,
        ChangeAction.RESTORED, ChangeAction.REMATCH,
    }
)  # fmt: skip


class Change(models.Model):
    """One change to a session, with the old and new values: nothing entered is ever lost.

    `before` and `after` hold a deal as the scoresheet file writes it (FORMAT.md §2), for
    an extension the options, and for a change to the session as a whole (SESSION_ACTIONS)
    what it changed: {"title": …}, {"seats": [names]}, {"seat": 3, "player": "Cat", …}.
    """

    session = models.ForeignKey(GameSession, models.CASCADE, related_name="changes")
    action = models.CharField(max_length=10, choices=ChangeAction.choices)
    number = models.PositiveIntegerField(null=True, blank=True)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    by_name = models.CharField(max_length=60, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # The idempotency key of the form that made the change: a resent form is not applied twice.
    form_key = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "form_key"],
                condition=~models.Q(form_key=""),
                name="change_form_key_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(action__in=ChangeAction.values), name="change_action_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} deal {self.number}"


class Round(models.Model):
    """One round of the adding game; its events, in order, are what the table reported."""

    session = models.ForeignKey(GameSession, models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    # Counts corrections, so that a correction made on a stale copy can be refused.
    revision = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"

    @staticmethod
    def entries_of(session: GameSession) -> list[adding.RoundEntry]:
        """Each round of `session` as entered: its events in order (a round may have none)."""
        names = {seat.pk: seat.player.name for seat in session.seats.all()}
        numbers = Round.objects.filter(session=session).values_list("number", flat=True)
        events: dict[int, list[adding.Event]] = {number: [] for number in sorted(numbers)}
        rows = (
            RoundEvent.objects.filter(round__session=session)
            .order_by("round__number", "position")
            .values_list("round__number", "seat_id", "event", "target", "tokens")
        )
        for number, seat, kind, target, tokens in rows:
            events[number].append(adding.Event(names[seat], kind, target=target, tokens=tokens))
        return [adding.RoundEntry(tuple(round_events)) for round_events in events.values()]


class RoundEvent(models.Model):
    """One event of a round, as entered: who, what, the target or the adjustment."""

    round = models.ForeignKey(Round, models.CASCADE, related_name="events")
    position = models.PositiveSmallIntegerField()
    seat = models.ForeignKey(Seat, models.CASCADE, related_name="events")
    event = models.CharField(max_length=10, choices=EVENT_CHOICES)
    target = models.PositiveSmallIntegerField(null=True, blank=True)
    tokens = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="event_position_unique"),
            models.CheckConstraint(
                condition=models.Q(event__in=adding.EVENT_KINDS), name="event_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(target__isnull=True)
                | models.Q(target__in=EVENT_TARGETS, event__in=adding.TARGETED),
                name="event_target_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(event="adjust", tokens__isnull=False) & ~models.Q(tokens=0)
                | ~models.Q(event="adjust") & models.Q(tokens__isnull=True),
                name="event_adjust_has_tokens",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_event_display()} by {self.seat}"


class AccountLanguage(models.Model):
    """The language a user chose in the footer while logged in: set again at each log-in, on
    any phone (views.site.language and views.accounts.LoginView). One row per user who chose."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="account_language"
    )
    language = models.CharField(max_length=16)  # a code of settings.LANGUAGES
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user} reads {self.language}"


# The rate limit's table lives with its counting (scorekeeper/ratelimit.py).
from scorekeeper.ratelimit import RateLimit  # noqa: E402, F401

# Where each game family's entries are stored: the model that reads them (`entries_of`).
ENTRY_MODELS: dict[str, type[Deal] | type[Round]] = {trick.ID: Deal, adding.ID: Round}
