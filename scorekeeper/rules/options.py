"""How an option is described to people: the data the start form and the rule sheets read.

Each family lists its options (RULES.md §3) as `Option`s in its own `options` module: the name
used in the scoresheet file, the question the start form asks, the word a rule sheet uses, and
each allowed value in plain words. Forms and sheets build their fields from these and nothing
else, so an option's wording has one home.

The words are English message ids, marked with `gettext_noop()` where each family lists them:
a form or a sheet shows them translated (`gettext(option.label)`), and the methods here that
put them into words (`value_words`, `house_rule`, `subsets`) translate them as they do.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.rules.i18n import _, gettext_noop

# What kind of value an option takes (the forms pick a field by it).
CHOICE = "choice"  # one value of `choices`
FLAG = "flag"  # true or false
NUMBER = "number"  # a whole number from `least` to `most`
NUMBERS = "numbers"  # a list of whole numbers from `least` to `most` (the bonus row)
SUBSET = "subset"  # a list of some of `choices` (the premium bids)
MATCH = "match"  # how a session ends: a kind of `choices`, with a number for some kinds


NO_SUBSET = "none"  # a SUBSET with nothing chosen, as a form or a query string writes it


@dataclass(frozen=True)
class Choice:
    """One value an option may take, in words."""

    value: str
    label: str  # as the start form offers it: "Turned up at the table each deal"
    short: str = ""  # as a rule sheet writes it, where shorter: "Turned up at the table"

    @property
    def brief(self) -> str:
        """The rule sheet's word for it, as the message id (translate it where shown)."""
        return self.short or self.label

    @property
    def shown(self) -> str:
        """`brief` in the active language."""
        return _(self.brief)


@dataclass(frozen=True)
class Option:
    """One option of RULES.md §3, described for people."""

    name: str  # the name in the scoresheet file: "first_trump"
    label: str  # the start form's question: "Trump for the first deal"
    short: str  # a rule sheet's name for it: "First trump"
    kind: str  # CHOICE, FLAG, NUMBER, NUMBERS, SUBSET or MATCH
    choices: tuple[Choice, ...] = ()
    help: str = ""  # the start form's hint
    sheet_help: str = ""  # a rule sheet's hint where the value is typed
    least: int | None = None  # NUMBER, NUMBERS: the bounds (RULES.md §3, Bounds)
    most: int | None = None
    # A changed value as a house rule reads it: "{value}" is the value in words as a rule sheet
    # writes it, "{lower}" the same with a small first letter ("trump {lower}": "trump named by
    # the declarer"); a FLAG's is (when true, when false); `words` reads a MATCH's value.
    phrase: str = gettext_noop("{short}: {value}")
    flag_phrases: tuple[str, str] = ("", "")
    words: Callable[[object], str] | None = None

    def choice(self, value: str) -> Choice | None:
        return next((choice for choice in self.choices if choice.value == value), None)

    def subset_text(self, values: Sequence[str]) -> str:
        """A SUBSET's value as a form or a query string writes it: "declare,reveal", "none"."""
        return ",".join(c.value for c in self.choices if c.value in values) or NO_SUBSET

    def subsets(self) -> tuple[tuple[str, str], ...]:
        """Every value a SUBSET may take, for a select: all of them, each alone, none."""
        everything = (self.subset_text([c.value for c in self.choices]), _and(self.choices))
        alone = tuple((c.value, _("{choice} only").format(choice=c.shown)) for c in self.choices)
        return (everything, *alone, (NO_SUBSET, _("None")))

    def value_words(self, value: object) -> str:
        """A value in words, as a rule sheet writes it: "Named by the declarer", "30, 20, 10"."""
        if self.words is not None:
            return self.words(value)
        if self.kind == FLAG:
            return _("Yes") if value else _("No")
        if self.kind == CHOICE:
            choice = self.choice(str(value))
            return choice.shown if choice else str(value)
        if self.kind == SUBSET:
            assert isinstance(value, list | tuple)
            picked = [choice.shown for choice in self.choices if choice.value in value]
            return ", ".join(picked) or _("None")
        if self.kind == NUMBERS:
            assert isinstance(value, list | tuple)
            return ", ".join(str(number) for number in value)
        return str(value)

    def house_rule(self, value: object) -> str:
        """A changed value as a house rule: "trump named by the declarer", "18 deals"."""
        if self.kind == FLAG:
            phrase = self.flag_phrases[0 if value else 1]
            return _(phrase) if phrase else ""
        words = self.value_words(value)
        lower = words[:1].lower() + words[1:]
        short = _(self.short) if self.short else ""
        text = _(self.phrase).format(short=short, value=words, lower=lower)
        return text[:1].lower() + text[1:]


def _and(choices: Sequence[Choice]) -> str:
    """ "Declare and reveal": the choices' words, all but the first with a small letter."""
    words = [choices[0].shown, *(c.shown[:1].lower() + c.shown[1:] for c in choices[1:])]
    if len(words) == 1:
        return words[0]
    return _("{names} and {last}").format(names=", ".join(words[:-1]), last=words[-1])


def house_rules(options: Sequence[Option], changed: Mapping[str, object]) -> tuple[str, ...]:
    """The options changed from a preset's own values as house rules, in the options' order."""
    return tuple(
        option.house_rule(changed[option.name]) for option in options if option.name in changed
    )


def rules_title(preset_name: str, rules: Sequence[str]) -> str:
    """ "Classic Ninety-Nine, house rules: trump named by the declarer; 18 deals", or the
    preset's name alone where nothing was changed.

    `preset_name` is the preset's name as its message id (or already translated).
    """
    name = _(preset_name)
    if not rules:
        return name
    # Translators: what separates house rules in a list: "trump named by the declarer; 18 deals".
    separator = _("; ")
    return _("{name}, house rules: {rules}").format(name=name, rules=separator.join(rules))
