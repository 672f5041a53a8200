from __future__ import annotations

import re
import unicodedata
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce, TruncDate
from django.http import QueryDict

from scorekeeper.models import PLAYER_NAME_MAX, GameSession, Player
from scorekeeper.rules import adding, bounds, trick
from scorekeeper.rules.common import InvalidRules
from scorekeeper.scoresheet import InvalidScoresheet, TrickSheet, loads_scoresheet
from scorekeeper.scoresheet_adding import AddingSheet


def tidy_name(value: str) -> str:
    """Trim a name, collapse runs of whitespace to single spaces, and store it composed (NFC),
    so that the same letters typed on two phones are the same text."""
    return unicodedata.normalize("NFC", re.sub(r"\s+", " ", value).strip())


def check_text(value: str, what: str, longest: int) -> None:
    """Refuse a name or title the rules would refuse (too long, control characters)."""
    wrong = bounds.text_problem(value, what, longest)
    if wrong is not None:
        raise forms.ValidationError(wrong)


class SignupForm(UserCreationForm):
    def clean_username(self) -> str:
        username = super().clean_username()
        if self.has_error("username"):
            # The name is taken. Creating an account hashes its password once; refusing one
            # does the same work, so that the time of the answer says no more than its words.
            User().set_password(self.data.get("password1") or "")
        return username


class PlayerForm(forms.ModelForm):
    """Add or rename a player on the owner's roster."""

    class Meta:
        model = Player
        fields = ["name"]
        error_messages = {
            "name": {
                "required": "Type the player's name.",
                "max_length": f"A name can be at most {PLAYER_NAME_MAX} characters.",
            }
        }

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.fields["name"].widget.attrs.update({"autocomplete": "off", "autocapitalize": "words"})
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_name(self) -> str:
        name = tidy_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError("Type the player's name.")
        check_text(name, "A name", PLAYER_NAME_MAX)
        clash = Player.objects.filter(owner=self.owner, name_key=bounds.name_key(name))
        if self.instance.pk:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(f"You already have a player called {clash[0].name}.")
        return name

    def save(self, commit: bool = True) -> Player:
        self.instance.owner = self.owner
        return super().save(commit=commit)


TOO_BIG = f"That file is too big for a scoresheet (over {bounds.MAX_FILE_BYTES // 1_000_000} MB)."


class ScoresheetUploadForm(forms.Form):
    file = forms.FileField(
        label="Scoresheet file (.json)",
        error_messages={"required": "Choose a scoresheet file to upload."},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = ".json,application/json"
        self.sheet: TrickSheet | AddingSheet | None = None

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > bounds.MAX_FILE_BYTES:
            raise forms.ValidationError(TOO_BIG)
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError(
                "That file is not text (UTF-8); is it a scoresheet?"
            ) from None
        try:
            self.sheet = loads_scoresheet(text)
        except InvalidScoresheet as error:
            raise forms.ValidationError(bounds.shown_problems(error.problems)) from None
        return upload


MATCH_LABELS = {
    "deals": "A fixed number of deals",
    "target": "Play to a target score",
    "rubber": "Rubber: first to win 3 games of 100",
    "game-bonus": "Games of 100 until someone holds 3 game bonuses",
    "long": "Games of 100 (ties play on): first to win N games",
}
MATCH_NUMBER_FIELD = {"deals": "deals", "target": "target", "long": "games"}
TRUMP_RULE_LABELS = {
    "turn-up": "Turned up at the table each deal",
    "by-successes": "By how many made their bid in the previous deal",
    "declared": "Named by whoever declares or reveals",
    "by-deviation": "By how far the bids were missed in the previous deal",
}
FIRST_TRUMP_LABELS = {"diamonds": "♦ Diamonds", "none": "No trump"}
PREMIUM_LABELS = {"declare": "Declare (30)", "reveal": "Reveal (60)"}


class SeatingForm(forms.Form):
    """The part of starting a session that both families share: the seats, the first
    dealer and a name. `allowed` are the numbers of players the ruleset takes."""

    title = forms.CharField(
        max_length=bounds.MAX_TITLE_LENGTH,
        required=False,
        label="Name (optional)",
        help_text="For example “Friday at Sam’s”.",
    )

    def __init__(
        self, *args: Any, owner: User, name: str, allowed: tuple[int, ...], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.ruleset_name = name
        self.allowed = allowed
        roster = Player.objects.for_user(owner).active()
        self.seat_count = max(allowed)
        for index in range(self.seat_count):
            self.fields[f"seat_{index}"] = forms.ModelChoiceField(
                queryset=roster,
                required=index < min(allowed),
                label=f"Seat {index + 1}",
                empty_label="— nobody —" if index >= min(allowed) else "— choose —",
                error_messages={
                    "required": f"Choose who sits in seat {index + 1}.",
                    "invalid_choice": "Choose a player from your roster.",
                },
            )
        self.fields["first_dealer"] = forms.ModelChoiceField(
            queryset=roster,
            required=False,
            label="First dealer",
            empty_label="Seat 1",
            help_text="The deal then passes to the left, seat by seat.",
        )
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_title(self) -> str:
        title: str = self.cleaned_data["title"].strip()
        check_text(title, "A name", bounds.MAX_TITLE_LENGTH)
        return title

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{index}"] for index in range(self.seat_count)]

    def option_fields(self) -> list[forms.BoundField]:
        skip = {"title", "first_dealer", *(f"seat_{i}" for i in range(self.seat_count))}
        return [self[name] for name in self.fields if name not in skip]

    def players(self) -> list[Player]:
        """The seated players in seat order, the first dealer first."""
        seated = [self.cleaned_data.get(f"seat_{i}") for i in range(self.seat_count)]
        players = [player for player in seated if player is not None]
        dealer = self.cleaned_data.get("first_dealer")
        if dealer in players:
            start = players.index(dealer)
            players = players[start:] + players[:start]
        return players

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        seated = [data.get(f"seat_{i}") for i in range(self.seat_count)]
        players = [player for player in seated if player is not None]
        seen: set[int] = set()
        for index, player in enumerate(seated):
            if player is not None and player.pk in seen:
                self.add_error(f"seat_{index}", f"{player.name} already has a seat.")
            elif player is not None:
                seen.add(player.pk)
        if len(players) not in self.allowed and not self.errors:
            low, high = min(self.allowed), max(self.allowed)
            counts = str(low) if low == high else f"{low} to {high}"
            self.add_error(None, f"{self.ruleset_name} needs {counts} players.")
        dealer = data.get("first_dealer")
        if dealer is not None and dealer not in players:
            self.add_error("first_dealer", f"{dealer.name} is not sitting at this table.")
        return data

    def add_rules_problems(self, error: InvalidRules, fields: dict[str, str]) -> None:
        for problem in error.problems:
            option = problem.path.split(".")[1] if problem.path.startswith("options.") else ""
            field = fields.get(option)
            self.add_error(field if field in self.fields else None, problem.message)


class NewSessionForm(SeatingForm):
    """Start a trick-game session: options of one preset, the seats, the first dealer."""

    def __init__(self, *args: Any, owner: User, preset: trick.Preset, **kwargs: Any) -> None:
        super().__init__(*args, owner=owner, name=preset.name, allowed=preset.players, **kwargs)
        self.preset = preset
        self.rules: trick.TrickRules | None = None
        defaults = trick.default_options(preset, min(preset.players))
        opened = preset.open_options
        match = trick.Match.from_data(defaults["match"])
        if "match" in opened:
            self.fields["match_type"] = forms.ChoiceField(
                label="How the session ends",
                choices=[(kind, MATCH_LABELS[kind]) for kind in preset.match_types],
                initial=match.type,
            )
            self.fields["match_number"] = forms.IntegerField(
                label="Number of deals, target score or games to win",
                help_text="Used by the fixed-deals, target and long endings.",
                min_value=1,
                max_value=max(trick.MATCH_LIMITS.values()),
                required=False,
                initial=match.deals or match.target or match.games,
            )
        if "trump" in opened:
            self.fields["trump"] = forms.ChoiceField(
                label="Trump for each deal",
                choices=list(TRUMP_RULE_LABELS.items()),
                initial=defaults["trump"],
            )
        if "first_trump" in opened:
            self.fields["first_trump"] = forms.ChoiceField(
                label="Trump for the first deal",
                choices=list(FIRST_TRUMP_LABELS.items()),
                initial=defaults["first_trump"],
                widget=forms.RadioSelect,
            )
        if "bonus" in opened:
            self.fields["bonus"] = forms.CharField(
                label="Success bonus when 1, 2, 3, … players make their bid",
                help_text="Whole numbers separated by commas. Leave empty for the usual row.",
                required=False,
                initial=", ".join(str(n) for n in defaults["bonus"]),  # type: ignore[attr-defined]
            )
        if "premiums" in opened:
            self.fields["premiums"] = forms.MultipleChoiceField(
                label="Premium bids allowed",
                choices=list(PREMIUM_LABELS.items()),
                required=False,
                initial=defaults["premiums"],
                widget=forms.CheckboxSelectMultiple,
            )
        for name, label in [
            ("trick_points", "1 point for every trick won"),
            ("zero_all_tricks", "A 0 bid is also made by winning every trick"),
            ("dummy_exact_declarer", "A dummy that makes its bid exactly scores 30 more"),
        ]:
            if name in opened:
                self.fields[name] = forms.BooleanField(
                    label=label, required=False, initial=defaults[name]
                )

    def options(self) -> dict[str, object]:
        data = self.cleaned_data
        options: dict[str, object] = {}
        if "match_type" in data:
            kind = data["match_type"]
            match: dict[str, object] = {"type": kind}
            if kind in MATCH_NUMBER_FIELD:
                match[MATCH_NUMBER_FIELD[kind]] = data.get("match_number")
            options["match"] = match
        for name in ("trump", "first_trump", "premiums"):
            if name in data:
                options[name] = data[name]
        for name in ("trick_points", "zero_all_tricks", "dummy_exact_declarer"):
            if name in data:
                options[name] = bool(data[name])
        if data.get("bonus"):
            options["bonus"] = data["bonus"]
        return options

    def clean_bonus(self) -> list[int] | None:
        text = self.cleaned_data["bonus"].strip()
        if not text:
            return None
        parts = [part for part in re.split(r"[,\s]+", text) if part]
        if not all(part.isdecimal() and len(part) <= 5 for part in parts):
            raise forms.ValidationError(
                "Type whole numbers separated by commas, such as 30, 20, 10, 0."
            )
        row = [int(part) for part in parts]
        if not row:
            return None
        if len(row) > bounds.MAX_PLAYERS or max(row) > bounds.MAX_BONUS:
            raise forms.ValidationError(
                f"Type at most {bounds.MAX_PLAYERS} bonuses, each from 0 to "
                f"{bounds.number(bounds.MAX_BONUS)}."
            )
        return row

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("match_type")
        if kind in MATCH_NUMBER_FIELD and data.get("match_number") is None:
            self.add_error("match_number", f"Say how many for “{MATCH_LABELS[kind]}”.")
        if self.errors:
            return data
        try:
            self.rules = trick.resolve_rules(
                self.preset.id, self.options(), [p.name for p in self.players()]
            )
        except InvalidRules as error:
            self.add_rules_problems(error, _OPTION_FIELDS)
        return data


_OPTION_FIELDS = {
    "match": "match_type",
    "trump": "trump",
    "first_trump": "first_trump",
    "bonus": "bonus",
    "premiums": "premiums",
    "trick_points": "trick_points",
    "zero_all_tricks": "zero_all_tricks",
    "dummy_exact_declarer": "dummy_exact_declarer",
}


MADE_CHOICES = [("", "From the bid"), ("made", "Made ✓"), ("failed", "Failed ✗")]
PREMIUM_CHOICES = {"declare": "Declare", "reveal": "Reveal"}
TRUMP_CHOICES = [
    ("clubs", "♣ Clubs"),
    ("hearts", "♥ Hearts"),
    ("spades", "♠ Spades"),
    ("diamonds", "♦ Diamonds"),
    ("none", "No trump"),
]
CARD_LETTERS = "DSHC"  # ♦0 ♠1 ♥2 ♣3, the order the buttons show


class DealForm(forms.Form):
    """One deal as the table reports it: per hand the tricks, the bid and the premium.

    Fields are named by hand index (`h0-tricks`, `h0-bid`, `h0-cards`, `h0-made`,
    `h0-premium`), so player names never need escaping. The rules package checks
    the whole deal; its problems land next to the fields they concern.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False)
    # The idempotency key: the same form sent twice is applied once.
    form_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=40)

    def __init__(
        self,
        *args: Any,
        rules: trick.TrickRules,
        previous: list[trick.DealEntry],
        trump_entered: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.previous = previous
        self.hand_names = list(rules.hands)
        most_bid = max(rules.bid_max, rules.tricks if rules.zero_all_tricks else 0)
        for index, name in enumerate(self.hand_names):
            label = "Dummy" if name == trick.DUMMY else name
            self.fields[f"h{index}-tricks"] = forms.IntegerField(
                label=f"Tricks won by {label}",
                min_value=0,
                max_value=rules.tricks,
                initial=0,
                error_messages={
                    "required": "How many tricks?",
                    "invalid": "Tricks are a whole number.",
                    "min_value": "Tricks cannot be negative.",
                    "max_value": f"A deal has only {rules.tricks} tricks.",
                },
            )
            self.fields[f"h{index}-bid"] = forms.IntegerField(
                label=f"Bid of {label} as a number",
                required=False,
                min_value=0,
                max_value=most_bid,
                error_messages={
                    "invalid": "A bid is a whole number.",
                    "min_value": "A bid cannot be negative.",
                    "max_value": f"A bid is at most {most_bid}.",
                },
            )
            self.fields[f"h{index}-cards"] = forms.RegexField(
                regex=r"^[DSHC]{0,3}$",
                required=False,
                widget=forms.HiddenInput,
                error_messages={"invalid": "Tap up to three bid-card suits."},
            )
            if name == trick.DUMMY:
                continue
            self.fields[f"h{index}-made"] = forms.ChoiceField(
                label=f"Did {label} make the bid?",
                choices=MADE_CHOICES,
                required=False,
                widget=forms.RadioSelect,
            )
            if rules.premiums:
                self.fields[f"h{index}-premium"] = forms.ChoiceField(
                    label=f"Premium bid by {label}",
                    choices=[("", "No premium")]
                    + [(kind, PREMIUM_CHOICES[kind]) for kind in rules.premiums],
                    required=False,
                )
        self.trump_entered = trump_entered
        if trump_entered:
            self.fields["trump"] = forms.ChoiceField(
                label="Trump", choices=[("", "— choose —"), *TRUMP_CHOICES], required=False
            )
        self.entry: trick.DealEntry | None = None
        self.hand_problems: dict[int, list[str]] = {}
        self.preview: trick.DealResult | None = None

    def hands(self) -> list[dict[str, Any]]:
        """What the template needs per hand: its name and its bound fields."""
        rows = []
        for index, name in enumerate(self.hand_names):
            fields = {
                part: self[f"h{index}-{part}"]
                for part in ("tricks", "bid", "cards", "made", "premium")
                if f"h{index}-{part}" in self.fields
            }
            cards = str(fields["cards"].value() or "")
            rows.append(
                {
                    "index": index,
                    "name": name,
                    "label": "Dummy" if name == trick.DUMMY else name,
                    "fields": fields,
                    "cards": [_CARD_SYMBOLS[c] for c in cards if c in CARD_LETTERS],
                    "cards_sum": sum(CARD_LETTERS.index(c) for c in cards if c in CARD_LETTERS),
                    "errors": self.hand_problems.get(index, []),
                }
            )
        return rows

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        if self.errors:
            return data
        hands = {}
        for index, name in enumerate(self.hand_names):
            cards = data.get(f"h{index}-cards") or ""
            made = data.get(f"h{index}-made") or ""
            hands[name] = trick.HandEntry(
                tricks=data[f"h{index}-tricks"],
                bid=data.get(f"h{index}-bid"),
                bid_cards=tuple(_CARD_SUITS[c] for c in cards) or None,
                made={"made": True, "failed": False}.get(made),
                premium=data.get(f"h{index}-premium") or None,
            )
        self.entry = trick.DealEntry(hands=hands, trump=data.get("trump") or None)
        return data

    def check(self, entries: list[trick.DealEntry]) -> bool:
        """Check the session's deals with this one in its place (`entries`); put each
        problem of this deal next to its field, and keep a preview of its result."""
        number = self.cleaned_data["number"]
        problems = trick.check_deals(self.rules, entries)
        for problem in problems:
            if problem.deal != number - 1:
                self.add_error(None, str(problem))
                continue
            if problem.player in self.hand_names:
                index = self.hand_names.index(problem.player)
                field = f"h{index}-{_FIELD_PARTS.get(problem.field or '', '')}"
                if field in self.fields:
                    self.add_error(field, problem.message)
                else:
                    self.hand_problems.setdefault(index, []).append(problem.message)
            elif problem.field == "trump" and "trump" in self.fields:
                self.add_error("trump", problem.message)
            else:
                self.add_error(None, problem.message)
        if not problems:
            self.preview = trick.score_session(self.rules, entries).deals[number - 1]
        return not problems

    def status(self) -> list[str]:
        """Everything still wrong, in plain words, each naming the hand it concerns."""
        lines = []
        for field, errors in self.errors.items():
            hand = re.match(r"h(\d+)-", field)
            if hand:
                label = self.hand_names[int(hand.group(1))]
                who = "Dummy" if label == trick.DUMMY else label
            else:
                who = "Trump" if field == "trump" else ""
            lines += [f"{who}: {error}" if who else str(error) for error in errors]
        for index, messages in sorted(self.hand_problems.items()):
            name = self.hand_names[index]
            who = "Dummy" if name == trick.DUMMY else name
            lines += [f"{who}: {message}" for message in messages]
        return lines


_CARD_SUITS = {"D": "diamonds", "S": "spades", "H": "hearts", "C": "clubs"}
_CARD_SYMBOLS = {"D": "♦", "S": "♠", "H": "♥", "C": "♣"}
_FIELD_PARTS = {
    "tricks": "tricks",
    "bid": "bid",
    "bid_cards": "cards",
    "made": "made",
    "premium": "premium",
}


def apply_taps(data: QueryDict) -> QueryDict:
    """Apply a stepper or bid-card tap made without JavaScript to the form data.

    The buttons submit `step=h0-tricks:+1` or `card=h0:H` / `card=h0:clear`; with
    JavaScript the page does this itself and never sends them.
    """
    data = data.copy()
    step = data.get("step", "")
    if ":" in step:
        field, delta = step.rsplit(":", 1)
        try:
            value = int(data.get(field) or 0) + int(delta)
        except ValueError:
            value = 0
        data[field] = str(max(0, value))
    card = data.get("card", "")
    if ":" in card:
        hand, letter = card.split(":", 1)
        field = f"{hand}-cards"
        current = data.get(field, "")
        if letter == "clear":
            data[field] = ""
        elif letter in CARD_LETTERS and len(current) < 3:
            data[field] = current + letter
    return data


OUT_LABELS = {
    "at-zero": "Out as soon as their tokens reach 0",
    "owing": "Stay in at 0; out when they must pay a token they do not have",
}
ON_69_LABELS = {
    "nothing": "Nothing special",
    "token": "Whoever makes exactly 69 gains a token",
    "reset": "Making exactly 69 sets the total back to 0",
}
DISPLAY_LABELS = {"tokens": "Tokens (coins, chips, lives)", "dollar-bill": "A dollar bill's folds"}
BUST_LABELS = {
    "ends-round": "A bust ends the round",
    "out-of-round": "A bust only puts the player out of the round; the last to play wins it",
}


def _usual_tokens(preset: adding.AddingPreset) -> str:
    usual = adding.default_options(preset, min(preset.players))["tokens"]
    text = f"Leave empty for the usual {usual}"
    if preset.tokens_over_four is not None:
        text += f" ({preset.tokens_over_four} with more than 4 players)"
    return text + "."


class AddingSessionForm(SeatingForm):
    """Start an adding-game session: a preset's open options, the seats, the first dealer."""

    def __init__(self, *args: Any, owner: User, preset: adding.AddingPreset, **kwargs: Any) -> None:
        super().__init__(*args, owner=owner, name=preset.name, allowed=preset.players, **kwargs)
        self.preset = preset
        self.rules: adding.AddingRules | None = None
        defaults = adding.default_options(preset, min(preset.players))
        opened = preset.open_options
        if "tokens" in opened:
            self.fields["tokens"] = forms.IntegerField(
                label="Tokens each player starts with",
                help_text=_usual_tokens(preset),
                min_value=1,
                max_value=bounds.MAX_TOKENS,
                required=False,
            )
        choices = [
            ("out", "When a player is out", OUT_LABELS),
            ("on_69", "Making exactly 69", ON_69_LABELS),
            ("display", "Show tokens as", DISPLAY_LABELS),
            ("bust", "A bust", BUST_LABELS),
        ]
        for name, label, labels in choices:
            if name in opened:
                self.fields[name] = forms.ChoiceField(
                    label=label,
                    choices=list(labels.items()),
                    initial=defaults[name],
                    required=False,  # left out: the preset's own choice
                    widget=forms.RadioSelect,
                )
        if "card_table" in opened:
            self.fields["card_table"] = forms.ChoiceField(
                label="Card values",
                choices=[(key, adding.CARD_TABLES[key].name) for key in preset.card_tables],
                initial=defaults["card_table"],
            )

    def options(self) -> dict[str, object]:
        options: dict[str, object] = {}
        for name in ("out", "on_69", "display", "bust", "card_table"):
            if self.cleaned_data.get(name):
                options[name] = self.cleaned_data[name]
        if self.cleaned_data.get("tokens"):
            options["tokens"] = self.cleaned_data["tokens"]
        return options

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            self.rules = adding.resolve_rules(
                self.preset.id, self.options(), [p.name for p in self.players()]
            )
        except InvalidRules as error:
            self.add_rules_problems(error, {name: name for name in adding.OPTION_NAMES})
        return data


class AdjustForm(forms.Form):
    """A correction agreed at the table: so many tokens (or points) up or down for a player."""

    player = forms.ChoiceField(label="Who")
    tokens = forms.IntegerField(
        label="By how many (+ gives, − takes)",
        min_value=-bounds.MAX_ADJUST,
        max_value=bounds.MAX_ADJUST,
        error_messages={"required": "Say by how many.", "invalid": "A whole number, such as -1."},
    )

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(str(i), name) for i, name in enumerate(players)]

    def clean_tokens(self) -> int:
        tokens: int = self.cleaned_data["tokens"]
        if tokens == 0:
            raise forms.ValidationError("An adjustment of 0 changes nothing; give + or − a number.")
        return tokens


class RoundEventForm(forms.Form):
    """Add an event to a past round while correcting it."""

    player = forms.ChoiceField(label="Who")
    event = forms.ChoiceField(label="What happened")
    tokens = forms.IntegerField(
        label="For an adjustment: by how many (+ gives, − takes)",
        required=False,
        min_value=-bounds.MAX_ADJUST,
        max_value=bounds.MAX_ADJUST,
    )

    def __init__(self, *args: Any, rules: adding.AddingRules, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        player = self.fields["player"]
        event = self.fields["event"]
        assert isinstance(player, forms.ChoiceField) and isinstance(event, forms.ChoiceField)
        player.choices = [(str(i), name) for i, name in enumerate(rules.players)]
        event.choices = [
            (f"{rule.event}:{rule.target or ''}", rule.label) for rule in adding.events_for(rules)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        if data.get("event", "").startswith("adjust:") and not data.get("tokens"):
            self.add_error("tokens", "Say by how many (not 0).")
        return data

    def entered_event(self) -> adding.Event:
        kind, target = self.cleaned_data["event"].split(":")
        return adding.Event(
            player=self.rules.players[int(self.cleaned_data["player"])],
            event=kind,
            target=int(target) if target else None,
            tokens=self.cleaned_data.get("tokens") if kind == "adjust" else None,
        )


class ScorerNameForm(forms.Form):
    """Who is scoring through a scorer link: their name goes into the session's history."""

    name = forms.CharField(
        label="Your name",
        max_length=bounds.MAX_NAME_LENGTH,
        help_text="It is shown in the session's history next to what you enter.",
        error_messages={"required": "Type your name, so the table knows who entered what."},
    )

    def clean_name(self) -> str:
        name = tidy_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError("Type your name, so the table knows who entered what.")
        check_text(name, "A name", bounds.MAX_NAME_LENGTH)
        return name


class SessionFilterForm(forms.Form):
    """Filters of the past sessions list; every field is optional."""

    q = forms.CharField(label="Search title or player", required=False, max_length=100)
    family = forms.ChoiceField(
        label="Game",
        required=False,
        choices=[("", "Both games"), ("trick", "Ninety-Nine"), ("adding", "99 and friends")],
    )
    ruleset = forms.ChoiceField(label="Rules", required=False)
    player = forms.ModelChoiceField(label="Player", required=False, queryset=Player.objects.none())
    status = forms.ChoiceField(
        label="Status",
        required=False,
        choices=[("", "Any"), ("playing", "In progress"), ("finished", "Finished")],
    )
    since = forms.DateField(
        label="From", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label="To", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        ruleset = self.fields["ruleset"]
        assert isinstance(player, forms.ModelChoiceField)
        assert isinstance(ruleset, forms.ChoiceField)
        player.queryset = Player.objects.for_user(owner)
        ruleset.choices = [
            ("", "Any rules"),
            *((f"trick:{p.id}", f"{p.name} (Ninety-Nine)") for p in trick.PRESETS.values()),
            *((f"adding:{p.id}", f"{p.name} (99 and friends)") for p in adding.PRESETS.values()),
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", "The end date is before the start date.")
        return data

    def apply(self, sessions: QuerySet[GameSession]) -> QuerySet[GameSession]:
        data = self.cleaned_data
        if data.get("q"):
            words = data["q"]
            sessions = sessions.filter(
                Q(title__icontains=words) | Q(seats__player__name__icontains=words)
            ).distinct()
        if data.get("family"):
            sessions = sessions.filter(family=data["family"])
        if data.get("ruleset"):
            family, ruleset = data["ruleset"].split(":", 1)
            sessions = sessions.filter(family=family, ruleset=ruleset)
        if data.get("player"):
            sessions = sessions.filter(seats__player=data["player"])
        if data.get("status"):
            sessions = sessions.filter(finished=data["status"] == "finished")
        played = Coalesce("played_on", TruncDate("created"))
        if data.get("since"):
            sessions = sessions.alias(day=played).filter(day__gte=data["since"])
        if data.get("until"):
            sessions = sessions.alias(day=played).filter(day__lte=data["until"])
        return sessions
