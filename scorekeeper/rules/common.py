"""What both game families share: problems, player names, seating, ranking with ties."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeGuard

from scorekeeper.rules.bounds import MAX_NAME_LENGTH, name_key, text_problem
from scorekeeper.rules.i18n import _, gettext_noop


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input: where (a path into the scoresheet file) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        if not self.path:
            return self.message
        return _("{path}: {message}").format(path=self.path, message=self.message)


class InvalidRules(ValueError):
    """The ruleset, its options or the players cannot be used."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


def seat_names(count: int) -> list[str]:
    """Stand-in names for rules read before anyone sits down (a sheet, a pad, options checked
    for a saved ruleset): 'Seat 1', 'Seat 2' …, in the active language."""
    return [_("Seat {number}").format(number=number) for number in range(1, count + 1)]


def is_whole(value: object) -> TypeGuard[int]:
    """True for an int (bools are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_player_names(players: Sequence[object], reserved: Sequence[str] = ()) -> list[Problem]:
    """Names are non-blank strings without surrounding spaces or control characters, at most
    MAX_NAME_LENGTH long, and unique as people read them (bounds.name_key: ignoring case and
    compatibility forms).

    `reserved` names (such as "dummy") may not be used, read the same way.
    """
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    taken = {name_key(name) for name in reserved}
    for index, name in enumerate(players):
        path = f"players[{index}]"
        if not isinstance(name, str):
            problems.append(Problem(path, _("A player name must be text.")))
            continue
        wrong = text_problem(name, gettext_noop("A player name"), MAX_NAME_LENGTH)
        key = name_key(name) if wrong is None else ""
        if wrong is not None:
            problems.append(Problem(path, wrong))
        elif not name.strip():
            problems.append(Problem(path, _("A player name cannot be blank.")))
        elif name != name.strip():
            message = _('"{name}" has spaces at the start or end.').format(name=name)
            problems.append(Problem(path, message))
        elif key in taken:
            message = _('"{name}" is reserved in this game; pick another name.').format(name=name)
            problems.append(Problem(path, message))
        elif key in seen:
            message = _('"{name}" is already playing as "{other}".').format(
                name=name, other=seen[key]
            )
            problems.append(Problem(path, message))
        else:
            seen[key] = name
    return problems


def check_first_dealer(first_dealer: object, players: Sequence[object]) -> list[Problem]:
    """The first dealer is a seat at the table: its index in the seat order (0 is seat 1).

    The seats stay in the order the table sits; the deal starts from this seat and passes
    to the next seat after every deal or round (RULES.md, vocabulary, counted from it)."""
    if is_whole(first_dealer) and 0 <= first_dealer < max(len(players), 1):
        return []
    message = _("The first dealer is one of the {count} seats.").format(count=len(players))
    return [Problem("first_dealer", message)]


def dealer_moved_on(first_dealer: int, count: int) -> int:
    """The first dealer of a rematch: the same seats, the deal moved on to the next seat, so
    that the player after the last session's first dealer deals first."""
    return (first_dealer + 1) % count


def rank(scores: Mapping[str, int], order: Sequence[str]) -> list[tuple[str, int]]:
    """(player, rank) best first, for the players in `order`.

    Higher scores rank first; equal scores share a rank and the next rank is skipped
    (standard competition ranking: 1, 1, 3). Players with equal scores keep their seat order.
    """
    ordered = sorted(order, key=lambda player: -scores[player])
    ranked: list[tuple[str, int]] = []
    for position, player in enumerate(ordered, start=1):
        if ranked and scores[player] == scores[ranked[-1][0]]:
            ranked.append((player, ranked[-1][1]))
        else:
            ranked.append((player, position))
    return ranked


def leaders(scores: Mapping[str, int], order: Sequence[str]) -> tuple[str, ...]:
    """The players in `order` tied for the highest score, in seat order."""
    best = max(scores[player] for player in order)
    return tuple(player for player in order if scores[player] == best)


def join_names(names: Sequence[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cat'."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
