"""What the rules work out from an adding-game session's rounds."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from scorekeeper.rules.adding.entries import Event
from scorekeeper.rules.adding.events import EventRule
from scorekeeper.rules.adding.presets import AddingRules


@dataclass(frozen=True)
class EventResult:
    """What one event did, to every player it touched."""

    event: Event
    changes: dict[str, int]  # player → change in the unit (tokens −1, drinks +1 …), as paid
    eliminated: tuple[str, ...]  # who went out of the game on this event
    ends_round: bool  # this event ended the round (or the game)
    wins: tuple[str, ...]  # who won the game with this event


@dataclass(frozen=True)
class RoundResult:
    """One round, scored."""

    number: int  # 1-based
    dealer: str
    complete: bool  # False: the round is in progress (only the last one may be)
    events: tuple[EventResult, ...]
    # Tokens left after the round, every player (0 once out); None where the preset has no
    # tokens (Wilson, the 98s).
    tokens: dict[str, int] | None
    eliminated: tuple[str, ...]  # everyone out of the game after it, in the order they went out
    points: dict[str, int] | None  # Wilson: the round's game points (else None)
    totals: dict[str, int] | None  # Wilson: running scores after it (an open round: before it)
    tally: dict[str, int] | None  # 98s: drinks or rounds won after it (counted once it ends)


@dataclass(frozen=True)
class NextRound:
    """Where the next event goes: the round in progress, or the round to deal next."""

    number: int
    dealer: str


@dataclass(frozen=True)
class Standing:
    """One player's place in the session (RULES.md §2.2)."""

    player: str
    rank: int  # 1, 1, 3: equal tokens (or totals), or going out on the same event, share a rank
    tokens: int | None  # where the preset uses tokens
    out: bool
    out_in_round: int | None  # the round (1-based) in which the player went out
    total: int | None  # Wilson's running score, drinks, or rounds won (else None)


@dataclass(frozen=True)
class AddingResult:
    """Everything the rules work out from a session's rounds."""

    rules: AddingRules
    rounds: tuple[RoundResult, ...]
    standings: tuple[Standing, ...]  # best first
    next: NextRound | None  # None once finished
    finished: bool
    winners: tuple[str, ...]  # empty until finished (the 98 presets never finish by themselves)
    current_round_open: bool  # the last round is in progress
    # The events each player may record now, in seat order (see scoring.allowed_events).
    allowed: Mapping[str, tuple[EventRule, ...]] = field(default_factory=dict)


def table_places(result: AddingResult) -> dict[str, int]:
    """Each player's rank at this table (a club night's placement): the standings' ranks, which
    follow the order of going out with the tokens left as the tie-break (RULES.md §2.2)."""
    return {standing.player: standing.rank for standing in result.standings}


def table_points(result: AddingResult) -> None:
    """None: the adding game ranks players by the order they go out (RULES.md §2.2), so a club
    night ranks its tables by places alone."""
    return None


def player_counts(result: AddingResult, name: str, numbers: range | None = None) -> dict[str, int]:
    """What a player's record counts from this session: the rounds `numbers` of seat `name`
    (all of them by default; a player who left a seat played only some) up to the one they
    went out in: rounds played, tokens lost (where the preset has tokens), times knocked out."""
    counts = {"rounds": 0, "tokens_lost": 0, "eliminated": 0}
    out = False
    for played in result.rounds:
        if numbers is not None and played.number not in numbers:
            continue
        counts["rounds"] += 1
        for effect in played.events:
            change = effect.changes.get(name, 0)
            if change < 0 and result.rules.uses_tokens:
                counts["tokens_lost"] -= change
            if name in effect.eliminated:
                counts["eliminated"] += 1
                out = True
        if out:
            break
    return {count: value for count, value in counts.items() if value}
