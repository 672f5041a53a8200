"""The form of one deal of the trick game, as the table reports it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.http import QueryDict
from django.utils.functional import lazy
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from scorekeeper.rules import trick
from scorekeeper.rules.common import join_names
from scorekeeper.rules.i18n import vowel_sound_first


def _trump_label(trump: str | None) -> str:
    """A trump as people read it, in the page's language (the rules' words, translated)."""
    return _(trick.trump_label(trump))


trump_label_lazy = lazy(_trump_label, str)

MADE_CHOICES = [
    ("", gettext_lazy("From the bid")),
    ("made", gettext_lazy("Made ✓")),
    ("failed", gettext_lazy("Failed ✗")),
]
TRUMP_CHOICES = [(trump, trump_label_lazy(trump)) for trump in trick.TRUMPS]
CARD_LETTERS = "".join(suit.letter for suit in trick.BID_SUITS)  # ♦0 ♠1 ♥2 ♣3, as the buttons
CARD_VALUES = {suit.letter: suit.bid_value for suit in trick.BID_SUITS}


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
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.hand_names = list(rules.hands)
        self.most_bid = most_bid = max(rules.bid_max, rules.tricks if rules.zero_all_tricks else 0)
        for index, name in enumerate(self.hand_names):
            label = _hand_label(name)
            vowel = vowel_sound_first(label)
            self.fields[f"h{index}-tricks"] = forms.IntegerField(
                label=_("Tricks won by %(player)s") % {"player": label},
                min_value=0,
                max_value=rules.tricks,
                error_messages={
                    "required": _("How many tricks?"),
                    "invalid": _("Tricks are a whole number."),
                    "min_value": _("Tricks cannot be negative."),
                    "max_value": ngettext(
                        "A deal has only %(tricks)s trick.",
                        "A deal has only %(tricks)s tricks.",
                        rules.tricks,
                    )
                    % {"tricks": rules.tricks},
                },
            )
            self.fields[f"h{index}-bid"] = forms.IntegerField(
                label=(
                    pgettext("the name begins with a vowel sound", "Bid of %(player)s as a number")
                    if vowel
                    else _("Bid of %(player)s as a number")
                )
                % {"player": label},
                required=False,
                min_value=0,
                max_value=most_bid,
                error_messages={
                    "invalid": _("A bid is a whole number."),
                    "min_value": _("A bid cannot be negative."),
                    "max_value": _("A bid is at most %(most)s.") % {"most": most_bid},
                },
            )
            self.fields[f"h{index}-cards"] = forms.RegexField(
                regex=r"^[DSHC]{0,3}$",
                required=False,
                widget=forms.HiddenInput,
                error_messages={"invalid": _("Tap up to three bid-card suits.")},
            )
            if name == trick.DUMMY:
                continue
            self.fields[f"h{index}-made"] = forms.ChoiceField(
                label=_("Did %(player)s make the bid?") % {"player": label},
                choices=MADE_CHOICES,
                required=False,
                widget=forms.RadioSelect,
            )
            if rules.premiums:
                self.fields[f"h{index}-premium"] = forms.ChoiceField(
                    label=(
                        pgettext("the name begins with a vowel sound", "Premium bid by %(player)s")
                        if vowel
                        else _("Premium bid by %(player)s")
                    )
                    % {"player": label},
                    choices=[("", _("No premium"))]
                    + [(kind, _(trick.PREMIUM_LABELS[kind])) for kind in rules.premiums],
                    required=False,
                )
        # The table gives the trump (turned up, or named by the premium bidder).
        self.trump_entered = rules.trump in ("turn-up", "declared")
        if self.trump_entered:
            self.fields["trump"] = forms.ChoiceField(
                label=_("Trump"), choices=TRUMP_CHOICES, required=False, widget=forms.RadioSelect
            )
        self.entry: trick.DealEntry | None = None
        # Set when another phone entered or undid a deal while this one was being typed: what
        # to say, Save's words, and each deal saved meanwhile by its number.
        self.moved_on = ""
        self.save_label = ""
        self.saved_meanwhile: dict[int, trick.DealEntry] = {}
        self.typed_number = 0  # the deal number the phone typed this form for
        self.hand_problems: dict[int, list[str]] = {}
        self.preview: trick.DealResult | None = None

    bid_suits = trick.BID_SUITS  # the bid-card buttons, lowest first
    trumps = [
        (
            trump,
            trick.symbol(trump) or gettext_lazy("NT"),
            trump_label_lazy(trump),
            trick.red(trump),
        )
        for trump in trick.TRUMPS
    ]  # the trump buttons: value, what the button shows, what it is called, whether it is red

    @property
    def saved_elsewhere(self) -> int | None:
        """The deal saved on another phone meanwhile whose hands are exactly this form's (its
        number), or None: those hands are never offered again as the next deal."""
        if self.entry is None:
            return None
        return next((n for n, entry in self.saved_meanwhile.items() if entry == self.entry), None)

    def hidden(self, name: str) -> str:
        """A hidden field's value as its input writes it ("" for none)."""
        value = self[name].value()
        return "" if value is None else str(value)

    @property
    def number_sent(self) -> str:
        """The deal number the form sends: the deal this phone typed the form for while its
        hands are a deal saved elsewhere (so that Save knows them again), else the next one."""
        return str(self.typed_number) if self.saved_elsewhere else self.hidden("number")

    @property
    def revision_sent(self) -> str:
        return self.hidden("revision")

    @property
    def form_key_sent(self) -> str:
        return self.hidden("form_key")

    def preview_hands(self) -> list[dict[str, Any]]:
        """The previewed deal's hands with their labels (the dummy as people read it)."""
        if self.preview is None:
            return []
        return [{"label": _hand_label(h.player), "result": h} for h in self.preview.hands]

    def hands(self) -> list[dict[str, Any]]:
        """What the template needs per hand: its name and its bound fields."""
        rows = []
        for index, name in enumerate(self.hand_names):
            fields = {
                part: self[f"h{index}-{part}"]
                for part in ("tricks", "bid", "cards", "made", "premium")
                if f"h{index}-{part}" in self.fields
            }
            cards = "".join(c for c in str(fields["cards"].value() or "") if c in CARD_LETTERS)
            label = _hand_label(name)
            vowel = vowel_sound_first(label)
            more = fields.get("premium")
            choices = [
                group
                for group in (
                    _choices(
                        fields.get("made"),
                        _words(
                            pgettext(
                                "the name begins with a vowel sound", "Did %(hand)s make the bid?"
                            )
                            if vowel
                            else _("Did %(hand)s make the bid?"),
                            hand=label,
                        ),
                        mark_safe(_("By bid")),
                    ),
                    _choices(
                        fields.get("premium"),
                        _words(
                            pgettext(
                                "the name begins with a vowel sound", "Premium bid by %(hand)s"
                            )
                            if vowel
                            else _("Premium bid by %(hand)s"),
                            hand=label,
                        ),
                        mark_safe(_("No premium")),
                    ),
                )
                if group
            ]
            rows.append(
                {
                    "index": str(index),  # as the page writes it (an int is localized there)
                    "name": name,
                    "label": label,
                    "fields": fields,
                    # Each box as the page writes it, read off its field once: the template
                    # engine's lookups through a bound field cost more than the rest of a hand.
                    "bid": Slot.of(
                        fields["bid"],
                        _words(
                            pgettext("the name begins with a vowel sound", "Bid of %(hand)s")
                            if vowel
                            else _("Bid of %(hand)s"),
                            hand=label,
                        ),
                    ),
                    "tricks": Slot.of(
                        fields["tricks"], _words(_("Tricks won by %(hand)s"), hand=label)
                    ),
                    "cards_box": Slot.of(fields["cards"]),
                    # ⋯ stays folded: what is chosen in it is said on the hand's row, unless
                    # the rules refused it (then its buttons are open beside the message).
                    "more_open": any(
                        part in fields and fields[part].errors for part in ("made", "premium")
                    ),
                    "chosen": " · ".join(
                        str(choice["label"])
                        for group in choices
                        for choice in group["choices"]
                        if choice["checked"] and choice["value"]
                    ),
                    "more_label": _words(
                        _("Made or failed, premium: %(hand)s")
                        if more
                        else _("Made or failed: %(hand)s"),
                        hand=label,
                    ),
                    "cards": [trick.cards_text(c) for c in cards],
                    "cards_sum": cards_value(cards),
                    "errors": self.hand_problems.get(index, []),
                    "anchor": f"#hand-{index}",  # a bid-card button brings the page back here
                    # Worded here once per hand: the page's most repeated words, which cost
                    # the template engine more than the rest of the form together.
                    "suits": [
                        {
                            "card": f"h{index}:{suit.letter}",  # what the button sends
                            "css": "btn suit-btn suit-red" if suit.red else "btn suit-btn",
                            "symbol": suit.symbol,
                            "value": str(suit.bid_value),
                            "label": _words(
                                _("%(card)s, %(value)s, for %(hand)s"),
                                card=_(suit.card),
                                value=suit.bid_value,
                                hand=label,
                            ),
                        }
                        for suit in self.bid_suits
                    ],
                    "cards_group": _words(
                        pgettext("the name begins with a vowel sound", "Bid cards of %(hand)s")
                        if vowel
                        else _("Bid cards of %(hand)s"),
                        hand=label,
                    ),
                    "cards_clear": _words(
                        pgettext("the name begins with a vowel sound", "Clear %(hand)s's bid cards")
                        if vowel
                        else _("Clear %(hand)s's bid cards"),
                        hand=label,
                    ),
                    "choices": choices,
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
            bid = data.get(f"h{index}-bid")
            if len(cards) == 3 and bid == cards_value(cards):
                bid = None  # the number the cards make, shown beside them: the cards are the bid
            hands[name] = trick.HandEntry(
                tricks=data[f"h{index}-tricks"],
                bid=bid,
                bid_cards=trick.cards_from_letters(cards) or None,
                made={"made": True, "failed": False}.get(made),
                premium=data.get(f"h{index}-premium") or None,
            )
        self.entry = trick.DealEntry(hands=hands, trump=data.get("trump") or None)
        return data

    def place(self, problems: Sequence[object]) -> None:
        """Put the rules' problems with this deal next to the fields they concern (a problem
        of another deal, or of the deal as a whole, above the form)."""
        number = self.cleaned_data["number"]
        for problem in problems:
            if not isinstance(problem, trick.DealProblem) or problem.deal != number - 1:
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

    def show(self, evaluation: trick.Evaluation) -> bool:
        """Show what one pass of the rules made of the session with this deal in its place:
        its problems next to their fields, or a preview of the deal's points."""
        self.place(evaluation.problems)
        if evaluation.result is not None:
            self.preview = evaluation.result.deals[self.cleaned_data["number"] - 1]
        return not evaluation.problems

    def status(self) -> list[str]:
        """Everything still wrong, in plain words, each naming the hands it concerns. Hands
        with the same problem share its line ("Ann and Ben: How many tricks?"), so that the
        box above the keypad stays short enough to show whole."""
        concerns: dict[str, list[str]] = {}  # each problem, in order, and whom it concerns
        for field, errors in self.errors.items():
            hand = re.match(r"h(\d+)-", field)
            if hand:
                who = _hand_label(self.hand_names[int(hand.group(1))])
            else:
                who = _("Trump") if field == "trump" else ""
            for error in errors:
                concerns.setdefault(str(error), []).append(who)
        for index, messages in sorted(self.hand_problems.items()):
            who = _hand_label(self.hand_names[index])
            for message in messages:
                concerns.setdefault(message, []).append(who)
        lines = []
        for problem, whom in concerns.items():
            named = list(dict.fromkeys(who for who in whom if who))
            if len(named) < len(whom):  # a problem of the whole deal
                lines.append(problem)
            if named:
                lines.append(_status_line(join_names(named), problem))
        return lines


@dataclass(frozen=True)
class Slot:
    """One box of a hand as the page writes it: its id, name and value ("" for none), whether
    its field was refused, and the words that label it."""

    id: str
    name: str
    value: str
    invalid: bool
    label: SafeString | str = ""

    @classmethod
    def of(cls, field: forms.BoundField, label: SafeString | str = "") -> Slot:
        value = field.value()
        return cls(
            field.auto_id,
            field.html_name,
            "" if value is None else value,
            bool(field.errors),
            label,
        )


def _words(message: str, **fields: str | int) -> SafeString:
    """A sentence already in the page's language with its fields escaped, as
    `{% blocktranslate %}` gives it (the catalogue's own words are trusted, the names in them
    are not). The caller translates it (`_("…")`), so that makemessages finds the words."""
    escaped = {key: conditional_escape(str(value)) for key, value in fields.items()}
    return mark_safe(message % escaped)


def _choices(
    field: forms.BoundField | None, question: SafeString, unset: SafeString
) -> dict[str, Any] | None:
    """A hand's radio buttons (made or failed, a premium) as the template draws them: the
    question, and each choice's id, value, words and whether it is the one chosen."""
    if field is None:
        return None
    chosen = field.value()
    chosen = "" if chosen is None else chosen
    choices = cast(forms.ChoiceField, field.field).choices
    return {
        "id": field.auto_id,
        "name": field.html_name,
        "question": question,
        "choices": [
            {
                "id": f"{field.auto_id}_{number}",
                "value": value,
                "label": label if value else unset,
                "checked": chosen == value,
            }
            for number, (value, label) in enumerate(cast(list[tuple[str, str]], choices))
        ],
    }


def _hand_label(name: str) -> str:
    """A hand as people read it in the page's language: the player's name, or the dummy."""
    label = trick.hand_label(name)
    return _(label) if name == trick.DUMMY else label


def _status_line(who: str, problem: object) -> str:
    """'Ann: Tricks cannot be negative.', the punctuation as the language writes it."""
    return _("%(who)s: %(problem)s") % {"who": who, "problem": problem}


_FIELD_PARTS = {
    "tricks": "tricks",
    "bid": "bid",
    "bid_cards": "cards",
    "made": "made",
    "premium": "premium",
}


def cards_value(letters: str) -> int:
    """What bid-cards stored as letters ('HHD') stand for: 4."""
    return sum(CARD_VALUES.get(letter, 0) for letter in letters)


def apply_taps(data: QueryDict) -> QueryDict:
    """Apply a bid-card tap made without JavaScript to the form data: `card=h0:H` adds a card
    (and the bid becomes what the cards make), `card=h0:clear` takes them all back. With
    JavaScript the keypad does this in the page and never sends them.

    `step=h0-tricks:+1` is still understood, from a page loaded before the keypad came.
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
        cards = data.get(field, "")
        if letter == "clear":
            cards = ""
        elif letter in CARD_LETTERS and len(cards) < 3:
            cards += letter
        data[field] = cards
        data[f"{hand}-bid"] = str(cards_value(cards)) if cards else ""
    return data


def entry_initial(rules: trick.TrickRules, entry: trick.DealEntry) -> dict[str, object]:
    """A stored deal as the entry form's initial values."""
    initial: dict[str, object] = {"trump": entry.trump or ""}
    for index, name in enumerate(rules.hands):
        hand = entry.hands[name]
        initial[f"h{index}-tricks"] = hand.tricks
        # Bid-cards show with the number they make beside them.
        initial[f"h{index}-bid"] = (
            trick.bid_from_cards(hand.bid_cards) if hand.bid_cards else hand.bid
        )
        initial[f"h{index}-cards"] = trick.letters_from_cards(hand.bid_cards or ())
        initial[f"h{index}-made"] = {True: "made", False: "failed", None: ""}[hand.made]
        initial[f"h{index}-premium"] = hand.premium or ""
    return initial
