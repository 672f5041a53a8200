"""How an option is described to people: the data the start form and the rule sheets read.

Each family lists its options (RULES.md §3) as `Option`s in its own `options` module: the name
used in the scoresheet file, the question the start form asks, the word a rule sheet uses, and
each allowed value in plain words. Forms and sheets build their fields from these and nothing
else, so an option's wording has one home.
"""

from dataclasses import dataclass

# What kind of value an option takes (the forms pick a field by it).
CHOICE = "choice"  # one value of `choices`
FLAG = "flag"  # true or false
NUMBER = "number"  # a whole number from `least` to `most`
NUMBERS = "numbers"  # a list of whole numbers from `least` to `most` (the bonus row)
SUBSET = "subset"  # a list of some of `choices` (the premium bids)
MATCH = "match"  # how a session ends: a kind of `choices`, with a number for some kinds


@dataclass(frozen=True)
class Choice:
    """One value an option may take, in words."""

    value: str
    label: str  # as the start form offers it: "Turned up at the table each deal"
    short: str = ""  # as a rule sheet writes it, where shorter: "Turned up at the table"

    @property
    def brief(self) -> str:
        return self.short or self.label


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

    def choice(self, value: str) -> Choice | None:
        return next((choice for choice in self.choices if choice.value == value), None)
