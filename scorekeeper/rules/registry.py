"""The game families, by id: the one place that lists them (RULES.md: §1 and §2).

Each family is a package of this one with the same small surface (`Family`): its presets as
data, its options in words, reading the options for a table (`resolve_rules`), and one pass
that checks what the table entered and scores it (`evaluate`). Everything outside the rules
package finds a family here by the id a session stores, and never asks which one it holds.
"""

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from scorekeeper.rules import adding, trick
from scorekeeper.rules.options import Option

# What any family's rules, entries and results are: one of each family's own.
Rules = trick.Rules | adding.Rules
Entry = trick.Entry | adding.Entry
Result = trick.Result | adding.Result


class Evaluation(Protocol):
    """One pass of a family's rules over a session's entries."""

    @property
    def problems(self) -> Sequence[object]: ...  # what the rules refuse, each in its place

    @property
    def result(self) -> Result | None: ...  # the result when there is no problem


class Family(Protocol):
    """What every game family module offers."""

    @property
    def ID(self) -> str: ...  # "trick", as a session and a scoresheet file store it

    @property
    def NAME(self) -> str: ...  # "Ninety-Nine (trick game)"

    @property
    def SHORT_NAME(self) -> str: ...  # "Ninety-Nine"

    @property
    def TITLE(self) -> str: ...  # "Ninety-Nine, the trick game"

    @property
    def BLURB(self) -> str: ...  # one line about the game

    @property
    def BRIEF(self) -> str: ...  # the same, shorter, where the rule sheets are listed

    @property
    def UNIT(self) -> str: ...  # what the table enters one at a time: "deal"

    @property
    def SHEET_PLAYERS(self) -> int: ...  # the players a sheet shows before anyone sits down

    @property
    def PRESETS(self) -> Mapping[str, Any]: ...  # the rulesets by id

    @property
    def OPTIONS(self) -> Sequence[Option]: ...  # RULES.md §3, in words

    @property
    def OPTION_NAMES(self) -> Sequence[str]: ...  # as a scoresheet file lists them

    # The session's rules (the players in seat order, the seat that deals first), or
    # InvalidRules.
    def resolve_rules(
        self,
        preset_id: str,
        options: Mapping[str, object],
        players: Sequence[str],
        first_dealer: int = 0,
    ) -> Rules: ...

    def default_options(self, preset: Any, player_count: int) -> dict[str, object]: ...

    # Why an option cannot apply to a preset, or None (RULES.md §3: house rules on any preset).
    def inapplicable(self, preset: Any, name: str) -> str | None: ...

    def applicable_options(self, preset: Any) -> tuple[Option, ...]: ...

    @property
    def prose(self) -> Any: ...  # the rule prose: .number_help(preset, option name) and more

    # Its own rules and entries (a family never gets another's): one pass, or the result.
    def evaluate(self, rules: Any, entries: Sequence[Any], /) -> Evaluation: ...

    def score_session(self, rules: Any, entries: Sequence[Any], /) -> Result: ...

    # One table of a club night (rules.night), from its own result: each ranked player's rank
    # (1 best, ties shared), and the raw points to add up across tables, or None where the
    # game ranks by going out and has none.
    def table_places(self, result: Any, /) -> dict[str, int]: ...

    def table_points(self, result: Any, /) -> dict[str, int] | None: ...

    # What a player's record counts from one session (the hands or rounds of seat `name` in
    # `numbers`, all by default), each count by name; a record adds them up.
    def player_counts(
        self, result: Any, name: str, numbers: range | None = None, /
    ) -> dict[str, int]: ...


_TRICK: Family = trick
_ADDING: Family = adding
FAMILIES: dict[str, Family] = {family.ID: family for family in (_TRICK, _ADDING)}


class UnknownFamily(KeyError):
    """No game family has this id."""


def family(family_id: str) -> Family:
    """The family with this id; UnknownFamily if there is none."""
    try:
        return FAMILIES[family_id]
    except KeyError:
        raise UnknownFamily(family_id) from None
