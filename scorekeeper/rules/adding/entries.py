"""What the table enters for a round of the adding game, and what can be wrong with it."""

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.rules.i18n import _


@dataclass(frozen=True)
class Event:
    """One event of a round, exactly as entered: who, what, at which total (`target`, for hit,
    cross and border) and, for `adjust`, by how many (`tokens`, + gives, − takes)."""

    player: str
    event: str
    target: int | None = None
    tokens: int | None = None


@dataclass(frozen=True)
class RoundEntry:
    """One round: its events in the order they happened."""

    events: tuple[Event, ...] = ()


# Problems with the rounds


@dataclass(frozen=True)
class RoundProblem:
    """Something wrong with one round: which (0-based), which event in it (0-based; None for the
    round as a whole), which field ("player", "event", "target", "tokens"; None for the whole
    event), and what. `player` is who the event names, for the message."""

    round: int
    event: int | None
    field: str | None
    message: str
    player: str | None = None

    @property
    def path(self) -> str:
        """Where in the scoresheet file, e.g. rounds[2].events[1].target."""
        path = f"rounds[{self.round}]"
        if self.event is not None:
            path += f".events[{self.event}]"
            if self.field is not None:
                path += f".{self.field}"
        return path

    def __str__(self) -> str:
        """The problem as a sentence: "Round 2, event 1 (Ann): …", in the active language."""
        fields = {
            "round": self.round + 1,
            "event": (self.event or 0) + 1,
            "player": self.player,
            "message": self.message,
        }
        if self.event is None:
            if self.player is None:
                return _("Round {round}: {message}").format(**fields)
            return _("Round {round} ({player}): {message}").format(**fields)
        if self.player is None:
            return _("Round {round}, event {event}: {message}").format(**fields)
        return _("Round {round}, event {event} ({player}): {message}").format(**fields)


class InvalidRounds(ValueError):
    """The rounds cannot be scored; `problems` lists everything found."""

    def __init__(self, problems: Sequence[RoundProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))
