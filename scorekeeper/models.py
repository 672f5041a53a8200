from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Length, Lower, Trim
from django.db.models.lookups import LessThanOrEqual

from scorekeeper.rules import adding, trick
from scorekeeper.rules.bounds import MAX_NAME_LENGTH as PLAYER_NAME_MAX
from scorekeeper.rules.bounds import MAX_PLAYERS, MAX_TITLE_LENGTH, name_key


class PlayerQuerySet(models.QuerySet["Player"]):
    def for_user(self, user: object) -> PlayerQuerySet:
        return self.filter(owner=user)

    def active(self) -> PlayerQuerySet:
        return self.filter(archived=False)


class Player(models.Model):
    """Someone the owner plays with. Names are unique per owner as people read them: ignoring
    case and compatibility forms (`name_key`, kept by save() and held by the database)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="players")
    name = models.CharField(max_length=PLAYER_NAME_MAX)
    # bounds.name_key(name): SQLite's lower() folds ASCII letters only, so the database could
    # not tell "Éva" from "éva" by the name itself.
    name_key = models.CharField(max_length=4 * PLAYER_NAME_MAX, editable=False)
    archived = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "name_key"], name="player_name_key_unique_per_owner"
            ),
            models.CheckConstraint(
                condition=models.Q(name=Trim("name")) & ~models.Q(name=""),
                name="player_name_trimmed_not_blank",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("name"), PLAYER_NAME_MAX),
                name="player_name_length",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


SUIT_LETTERS = {"diamonds": "D", "spades": "S", "hearts": "H", "clubs": "C"}
LETTER_SUITS = {letter: suit for suit, letter in SUIT_LETTERS.items()}
# Every way to lay three bid-cards, as three suit letters in the order entered.
BID_CARD_CODES = [a + b + c for a in "DSHC" for b in "DSHC" for c in "DSHC"]


def new_link_token() -> str:
    """A token for a shared link: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_public_id() -> str:
    """A short identifier for URLs and the scoresheet commands (60 random bits)."""
    return secrets.token_hex(6)


class Family(models.TextChoices):
    TRICK = "trick", "Ninety-Nine (trick game)"
    ADDING = "adding", "99 and friends (adding game)"


class Trump(models.TextChoices):
    CLUBS = "clubs", "♣ Clubs"
    HEARTS = "hearts", "♥ Hearts"
    SPADES = "spades", "♠ Spades"
    DIAMONDS = "diamonds", "♦ Diamonds"
    NONE = "none", "No trump"


class Premium(models.TextChoices):
    DECLARE = "declare", "Declare"
    REVEAL = "reveal", "Reveal"


class GameSessionQuerySet(models.QuerySet["GameSession"]):
    def for_user(self, user: object) -> GameSessionQuerySet:
        return self.filter(owner=user)


class GameSession(models.Model):
    """One sitting at the table: who sat where, under which rules, and every deal entered."""

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="game_sessions"
    )
    family = models.CharField(max_length=10, choices=Family.choices)
    ruleset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    title = models.CharField(max_length=MAX_TITLE_LENGTH, blank=True)
    played_on = models.DateField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # Kept in step with the entries by every service that writes them, so that
    # lists can sort without recomputing every session; never typed in.
    finished = models.BooleanField(default=False)
    # Goes up with every change to the entries: the ETag that live pages poll with.
    version = models.PositiveIntegerField(default=1)
    # Unguessable tokens (at least 128 bits) of the links the owner shares; None: turned off.
    watch_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    scorer_token = models.CharField(max_length=64, unique=True, null=True, blank=True)

    objects = GameSessionQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(family__in=Family.values), name="session_family_valid"
            ),
            models.CheckConstraint(
                condition=~models.Q(ruleset=""), name="session_ruleset_not_blank"
            ),
        ]

    def __str__(self) -> str:
        if self.title:
            return self.title
        presets = trick.PRESETS if self.family == Family.TRICK else adding.PRESETS
        preset = presets.get(self.ruleset)
        name = preset.name if preset else self.ruleset
        return f"{name}, {self.created:%-d %b %Y}" if self.created else name


class Seat(models.Model):
    """A player's place at the table; position 0 deals the first deal."""

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


class Deal(models.Model):
    """One deal of the trick game, as entered: the trump when the table supplied it."""

    session = models.ForeignKey(GameSession, models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    trump = models.CharField(max_length=10, choices=Trump.choices, blank=True)
    # Counts edits, so that an edit made on a stale copy can be refused.
    revision = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="deal_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(
                condition=models.Q(trump__in=[*Trump.values, ""]), name="deal_trump_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number}"


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
    premium = models.CharField(max_length=10, choices=Premium.choices, blank=True)

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
                condition=models.Q(bid_cards__in=[*BID_CARD_CODES, ""]),
                name="hand_bid_cards_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(premium__in=[*Premium.values, ""]), name="hand_premium_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{'dummy' if self.is_dummy else self.seat} in deal {self.deal_id}"


class ChangeAction(models.TextChoices):
    ADDED = "added", "Entered"
    EDITED = "edited", "Corrected"
    DELETED = "deleted", "Undone"
    EXTENDED = "extended", "Extended"


class Change(models.Model):
    """One change to a session, with the old and new values: nothing entered is ever lost.

    `before` and `after` hold a deal as the scoresheet file writes it (FORMAT.md §2)
    or, for an extension, the options.
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


class EventKind(models.TextChoices):
    BUST = "bust", "Bust"
    HIT = "hit", "Hit"
    CROSS = "cross", "Cross"
    BORDER = "border", "Border"
    EMPTY = "empty", "Empty hand"
    TRIPS = "trips", "Trips"
    WIN = "win", "Last to play"
    ADJUST = "adjust", "Adjust"


TARGETED_EVENTS = [EventKind.HIT, EventKind.CROSS, EventKind.BORDER]


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


class RoundEvent(models.Model):
    """One event of a round, as entered: who, what, the target or the adjustment."""

    round = models.ForeignKey(Round, models.CASCADE, related_name="events")
    position = models.PositiveSmallIntegerField()
    seat = models.ForeignKey(Seat, models.CASCADE, related_name="events")
    event = models.CharField(max_length=10, choices=EventKind.choices)
    target = models.PositiveSmallIntegerField(null=True, blank=True)
    tokens = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="event_position_unique"),
            models.CheckConstraint(
                condition=models.Q(event__in=EventKind.values), name="event_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(target__isnull=True)
                | models.Q(target__in=[33, 66, 69, 99], event__in=TARGETED_EVENTS),
                name="event_target_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(event=EventKind.ADJUST, tokens__isnull=False)
                & ~models.Q(tokens=0)
                | ~models.Q(event=EventKind.ADJUST) & models.Q(tokens__isnull=True),
                name="event_adjust_has_tokens",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_event_display()} by {self.seat}"


class RateLimit(models.Model):
    """Attempts counted per key (e.g. "login:198.51.100.7") in fixed time windows.

    Kept in the database so that every app server, on SQLite or PostgreSQL, shares it.
    """

    key = models.CharField(max_length=200)
    window_start = models.DateTimeField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["key", "window_start"], name="ratelimit_key_window")
        ]

    def __str__(self) -> str:
        return f"{self.key} since {self.window_start:%H:%M}: {self.count}"
