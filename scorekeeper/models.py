"""The stored data: players, sessions with their seats and entries, the history of changes.

What is stored is what the table entered (deals with their hands, rounds with their events);
every score is computed from it by the rules (`GameSession.result()`). A session finds its
game family's rules through the registry (`GameSession.rules_family`), and its entries through
`ENTRY_MODELS`: the one place here that maps a family to its tables.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F
from django.db.models.functions import Length, Lower, Trim
from django.db.models.lookups import LessThanOrEqual
from django.utils.functional import lazy
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from scorekeeper import computed
from scorekeeper.formats import date_text
from scorekeeper.prepared import Prepared
from scorekeeper.rules import adding, trick
from scorekeeper.rules.bounds import MAX_DEALS, MAX_PLAYERS, MAX_TITLE_LENGTH, name_key
from scorekeeper.rules.bounds import MAX_NAME_LENGTH as PLAYER_NAME_MAX
from scorekeeper.rules.common import InvalidRules, Problem, dealer_moved_on, seat_names
from scorekeeper.rules.registry import FAMILIES, Family, family
from scorekeeper.scoresheet import build_sheet, dumps_scoresheet, stored_scoresheet


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
    case and compatibility forms) is kept by save() and held unique by the database."""

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
FAMILY_CHOICES = [(fam.ID, gettext_lazy(fam.NAME)) for fam in FAMILIES.values()]
TRUMP_CHOICES = [(trump, _trump_label(trump)) for trump in trick.TRUMPS]
PREMIUM_CHOICES = [
    (kind, gettext_lazy(trick.PREMIUM_LABELS[kind])) for kind in trick.PREMIUM_POINTS
]
EVENT_CHOICES = [(kind, gettext_lazy(adding.EVENT_LABELS[kind])) for kind in adding.EVENT_KINDS]
EVENT_TARGETS = sorted({rule.target for rule in adding.ALL_EVENTS if rule.target is not None})


RULESET_NAME_MAX = PLAYER_NAME_MAX


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
        return self.prefetch_related(
            models.Prefetch("seats", queryset=Seat.objects.select_related("player"))
        )

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
    # Goes up with every change to the entries: the ETag that live pages poll with.
    version = models.PositiveIntegerField(default=1)
    # The count assistant of the adding game (services/count.py): the round's running total,
    # its cards and the events they propose, shared by every phone at the table; None: not
    # started. A change to it raises the version too, so live pages show it.
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
    # That saved ruleset's name when the session started ("Our Friday rules"), kept with the
    # options it copied: the session's name when it has no title, and said beside its rules.
    ruleset_name = models.CharField(max_length=RULESET_NAME_MAX, blank=True)
    # The seat that deals first (0 is seat 1): the seats stay in the order the table sits,
    # and the deal starts here.
    first_dealer = models.PositiveSmallIntegerField(default=0)

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
        if self.title:
            return self.title
        name = self.ruleset_name or self.preset_name
        if not self.created:
            return name
        return f"{name}, {date_text(self.created)}"

    # Reading the session: each is worked out once per request (cached on the instance), and
    # the result once per version (kept by `computed`).

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

    def dealing_order(self) -> list[str]:
        """The players in seat order from the first dealer: the seat order of the scoresheet
        file, where the first deals first (FORMAT.md)."""
        names = self.player_names()
        first = self.first_dealer % len(names) if names else 0
        return [*names[first:], *names[:first]]

    def seats_by_name(self) -> dict[str, Seat]:
        return {seat.player.name: seat for seat in self.seats.all()}

    def player_names(self) -> list[str]:
        """The players in seat order (from the seats loaded with `with_seats()` if they were)."""
        return [seat.player.name for seat in self.seats.all()]

    def rules(self) -> Any:
        """The session's rules: its preset and options, for its players (UnreadableRules if the
        rules no longer accept what it stores)."""
        if self._rules is None:
            try:
                self._rules = self.rules_family.resolve_rules(
                    self.ruleset, self.options, self.player_names(), self.first_dealer
                )
            except InvalidRules as error:
                raise UnreadableRules(self, error.problems) from error
        return self._rules

    def entries(self) -> list[Any]:
        """Each deal or round as entered at the table, in the rules package's terms."""
        if self._entries is None:
            self._entries = ENTRY_MODELS[self.family].entries_of(self)
        return self._entries

    def try_entry(self, number: int, entry: Any) -> Any:
        """One pass of the rules over the entries with `entry` as deal or round `number` (the
        next one, or a correction): .problems, and .result when there are none."""
        entries = self.entries()
        return self.evaluate([*entries[: number - 1], entry, *entries[number:]])

    def evaluate(self, entries: Sequence[Any]) -> Any:
        """One pass of the rules over `entries` with this session's rules: .problems, .result."""
        return self.rules_family.evaluate(self.rules(), entries)

    def result(self) -> Any:
        """Everything the rules work out from the entries: standings, next deal, winners …"""
        if self._result is None:
            found = computed.get(self.public_id, self.version)
            if found is None:
                found = self.rules_family.score_session(self.rules(), self.entries())
                computed.keep(self.public_id, self.version, found, len(self.entries()))
            self._result = found
        return self._result

    def file_name(self) -> str:
        """A name for the session's downloads: its title (or ruleset) and its day,
        'friday-at-sams-2026-11-20'."""
        day = self.played_on or self.created.date()
        preset = self.preset
        # The same in every language: the title, the saved rules' name, or the preset's id name.
        name = self.title or self.ruleset_name or (preset.name if preset else self.ruleset)
        return f"{slugify(name) or 'session'}-{day}"

    @property
    def preset_name(self) -> str:
        """The preset's name as people read it, in the page's language (the rules mark it for
        translation), or the stored id if the rules no longer know it."""
        preset = self.preset
        return gettext(preset.name) if preset else self.ruleset

    def scoresheet(self) -> str:
        """The session as its scoresheet file (FORMAT.md): what was entered, then the result
        (UnreadableRules if its stored rules are no longer accepted: see stored_scoresheet)."""
        self.rules()
        sheet = build_sheet(self.family, **self._sheet_fields())
        return dumps_scoresheet(sheet, self.result())

    def stored_scoresheet(self) -> str:
        """The session's scoresheet file as stored, without reading its rules: what was entered,
        without the computed fields (FORMAT.md §4), which need the rules. For a session whose
        stored rules are no longer accepted (UnreadableRules), so that nothing entered is lost."""
        return stored_scoresheet(self.family, **self._sheet_fields())

    def _sheet_fields(self) -> dict[str, Any]:
        """What a scoresheet file of the session is written from: its rules as stored, its
        players, what was entered, its title and day."""
        return {
            "ruleset": self.ruleset,
            "options": self.options,
            # The file has no first dealer: its seat order starts with them.
            "players": self.dealing_order(),
            "entries": self.entries(),
            "title": self.title or None,
            "played_on": self.played_on,
        }

    def last_undo(self) -> Change | None:
        """The latest change to the session if it was an undo: what it took out can be put back
        (redone), or offered again to correct and save."""
        if self.__dict__.get("last_action", ChangeAction.DELETED) != ChangeAction.DELETED:
            return None  # read with its latest change's action (_with_last_action): not an undo
        change = self.changes.first()
        return change if change is not None and change.action == ChangeAction.DELETED else None

    def change_options(self, options: dict[str, object]) -> None:
        """Store new option overrides (a write, inside its transaction)."""
        self.options = options
        self._rules = None
        self.save(update_fields=["options"])

    def knows(self, result: Any, entries: list[Any]) -> None:
        """Take the result a write service computed for this version (no scoring again)."""
        self._rules = None  # the write may have changed the options: read them again
        self._result, self._entries = result, entries
        computed.keep(self.public_id, self.version, result, len(entries))

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        """Read the row again, and forget what was worked out from the old one (as Django
        forgets cached relations): the entries, rules and result go with the version read, and
        the latest change's action read with the row (`last_undo()` asks the history again)."""
        super().refresh_from_db(*args, **kwargs)
        self._rules = self._entries = self._result = None
        self.__dict__.pop("last_action", None)

    def keep_seats(self, seats: list[Seat]) -> None:
        """Hold these seats (in order, their players loaded) as `with_seats()` holds the seats
        it read: `seats.all()` gives them without a query."""
        held = self.seats.all()
        held._result_cache = seats  # as prefetch_related leaves it
        held._prefetch_done = True  # type: ignore[attr-defined]
        self._prefetched_objects_cache = {
            **getattr(self, "_prefetched_objects_cache", {}),
            "seats": held,
        }

    def worked_out_as(self, earlier: GameSession) -> None:
        """Take what `earlier`, this session read before at the same version, already read
        and worked out: its entries, rules and result. Every write raises the version (the
        entries, the options and the players' names with it) and `earlier`'s entries were
        read after its row, so the same version means the same entries."""
        assert earlier.pk == self.pk and earlier.version == self.version
        self._entries, self._rules, self._result = earlier._entries, earlier._rules, earlier._result

    _rules: Any = None
    _entries: list[Any] | None = None
    _result: Any = None


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

    def holders(self) -> list[tuple[int, range]]:
        """Who held the seat for which deals or rounds: (player id, numbers), each player who
        left it first, then its player now (to the end of the session)."""
        held, start = [], 1
        for former in self.former.all():
            held.append((former.player_id, range(start, former.until + 1)))
            start = former.until + 1
        held.append((self.player_id, range(start, MAX_DEALS + 1)))
        return held


# The session reads behind every request of a link's phone and every write's lock, their SQL
# compiled once (scorekeeper/prepared.py): a link's session, an owner's, a locked one, and the
# seats with their players, as `with_seats()` reads them. A session read for a phone that may
# score it comes with its latest change's action (`last_undo()` needs no query of its own
# unless that change was an undo).
_BY_LINK = {
    "watch_token": Prepared(
        lambda token: GameSession.objects.not_deleted().filter(watch_token=token).order_by()
    ),
    "scorer_token": Prepared(
        lambda token: _with_last_action(
            GameSession.objects.not_deleted().filter(scorer_token=token).order_by()
        )
    ),
}
_OWNED = Prepared(
    lambda owner, public_id: _with_last_action(
        GameSession.objects.filter(owner_id=owner, public_id=public_id).not_deleted().order_by()
    )
)
_LOCKED = Prepared(lambda pk: GameSession.objects.select_for_update().filter(pk=pk).order_by())
# The seats and their players in one query (a round trip each cost a PostgreSQL server's
# answer, waited for on a busy machine): each player with their seat's id and position.
_SEATED = Prepared(
    lambda session: (
        Player.objects.filter(seats__session_id=session)
        .annotate(seat_pk=F("seats__id"), seat_position=F("seats__position"))
        .order_by("seats__position")
    )
)


# The change a form's idempotency key made, if any (one at most: change_form_key_unique), which
# every write asks before it stores anything.
_BY_FORM_KEY = Prepared(
    lambda session, key: Change.objects.filter(session_id=session, form_key=key).order_by()
)


def change_by_form_key(session: GameSession, form_key: str) -> Change | None:
    """The change of `session` that the form with this idempotency key made, if any."""
    return _BY_FORM_KEY.first(session.pk, form_key)


def _with_last_action(sessions: GameSessionQuerySet) -> GameSessionQuerySet:
    """The sessions with `last_action`: the action of each one's latest change (None before
    any), in the order of `last_undo()`'s history."""
    latest = Change.objects.filter(session=models.OuterRef("pk")).order_by("-created", "-id")
    return sessions.annotate(last_action=models.Subquery(latest.values("action")[:1]))


def session_by_link(column: str, token: str, *, seats: bool = True) -> GameSession | None:
    """The session a watch or scorer link opens (`column`: its token's column), with its seats
    unless `seats` is False (a page that shows its name alone); None if it opens none (no such
    token, or the session is deleted)."""
    found = _BY_LINK[column].first(token)
    return _seated(found) if seats else found


def owned_session(owner_id: int, public_id: str) -> GameSession | None:
    """One of this user's sessions (not deleted), with its seats; None for anyone else's."""
    return _seated(_OWNED.first(owner_id, public_id))


def locked_session(earlier: GameSession) -> GameSession:
    """The session read again with its seats, its row locked until the transaction ends
    (PostgreSQL; SQLite's IMMEDIATE transactions already queue every writer). Unchanged since
    `earlier` was read (the same version: seats and players' names raise it too), it keeps the
    entries and rules read then, and copies of the seats and players read then, not read
    again. Its seats and players are its own (a write may rename a player, and be refused)."""
    locked = _LOCKED.first(earlier.pk)
    if locked is None:
        raise GameSession.DoesNotExist(f"No session {earlier.pk}")
    if locked.version != earlier.version:
        _seated(locked)
        return locked
    locked.worked_out_as(earlier)
    held = getattr(earlier, "_prefetched_objects_cache", {}).get("seats")
    if held is None or not all(Seat.player.is_cached(seat) for seat in held):
        _seated(locked)  # read without its seats and their players: read them now
        return locked
    seats = []
    for seat in held:
        copied, player = copy.copy(seat), copy.copy(seat.player)
        copied.player, copied.session = player, locked
        seats.append(copied)
    locked.keep_seats(seats)
    return locked


def _seated(session: GameSession | None) -> GameSession | None:
    if session is not None:
        seats = []
        for player in _SEATED.rows(session.pk):
            seat_pk, position = player.seat_pk, player.seat_position  # type: ignore[attr-defined]
            values = (seat_pk, session.pk, position, player.pk)
            seat = Seat.from_db(session._state.db, _SEAT_FIELDS, values)
            seat.player, seat.session = player, session
            seats.append(seat)
        session.keep_seats(seats)
    return session


_SEAT_FIELDS = ["id", "session_id", "position", "player_id"]


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

    @staticmethod
    def store(
        session: GameSession, rules: trick.TrickRules, number: int, entry: trick.DealEntry
    ) -> Deal:
        """Store deal `number` as entered."""
        trump = trick.entered_trump(rules, entry) or ""
        deal = Deal.objects.create(session=session, number=number, trump=trump)
        deal.store_hands(entry, session.seats_by_name())
        return deal

    @staticmethod
    def store_all(
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
            Hand.entered(deal, name, hand, seats)
            for deal, entry in zip(deals, entries, strict=True)
            for name, hand in entry.hands.items()
        )

    def store_hands(self, entry: trick.DealEntry, seats: dict[str, Seat]) -> None:
        Hand.objects.bulk_create(
            Hand.entered(self, name, hand, seats) for name, hand in entry.hands.items()
        )


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

    @classmethod
    def entered(cls, deal: Deal, name: str, hand: trick.HandEntry, seats: dict[str, Seat]) -> Hand:
        """A hand as the table entered it, for `bulk_create`."""
        return cls(
            deal=deal,
            seat=seats.get(name),
            is_dummy=name == trick.DUMMY,
            tricks=hand.tricks,
            bid=hand.bid,
            bid_cards=trick.letters_from_cards(hand.bid_cards or ()),
            made=hand.made,
            premium=hand.premium or "",
        )


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

    @staticmethod
    def store_all(
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
            for event in game_round.events_of(entry, seats)
        )

    def store_events(
        self, entry: adding.RoundEntry, seats: dict[str, Seat], start: int = 0
    ) -> None:
        """Store the round's events from position `start` on."""
        RoundEvent.objects.bulk_create(self.events_of(entry, seats, start))

    def events_of(
        self, entry: adding.RoundEntry, seats: dict[str, Seat], start: int = 0
    ) -> list[RoundEvent]:
        return [
            RoundEvent(
                round=self,
                position=position,
                seat=seats[event.player],
                event=event.event,
                target=event.target,
                tokens=event.tokens,
            )
            for position, event in enumerate(entry.events[start:], start=start)
        ]


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


# Where each game family's entries are stored: the model that reads them (`entries_of`).
ENTRY_MODELS: dict[str, type[Deal] | type[Round]] = {trick.ID: Deal, adding.ID: Round}
