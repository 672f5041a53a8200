"""Checking and scoring the rounds of an adding-game session (RULES.md §2.1-§2.4).

One pass over the rounds does both: `evaluate()` gives the problems and, when there are none,
the result; `score_session()` and `check_rounds()` are its two halves.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from scorekeeper.rules.adding.entries import Event, InvalidRounds, RoundEntry, RoundProblem
from scorekeeper.rules.adding.events import ADJUST, EVENT_KINDS, TARGETED, EventRule
from scorekeeper.rules.adding.options import WILSON_TARGET
from scorekeeper.rules.adding.presets import AddingRules, events_for
from scorekeeper.rules.adding.results import (
    AddingResult,
    EventResult,
    NextRound,
    RoundResult,
    Standing,
)
from scorekeeper.rules.bounds import MAX_ADJUST, MAX_DEALS, MAX_EVENTS, number
from scorekeeper.rules.common import is_whole, join_names, leaders, rank
from scorekeeper.rules.i18n import _, gettext_noop


@dataclass(frozen=True)
class Evaluation:
    """What one pass over the rounds found: every problem, and the result when there are none."""

    problems: list[RoundProblem]
    result: AddingResult | None


def evaluate(rules: AddingRules, rounds: Sequence[RoundEntry | None]) -> Evaluation:
    """Check every round and, when all are right, score the session: one pass for both."""
    problems, game = _run(rules, rounds)
    return Evaluation(problems, None if problems else game.result())


# Checking and scoring


def score_session(rules: AddingRules, rounds: Sequence[RoundEntry]) -> AddingResult:
    """Check every round and score the session; raise InvalidRounds listing every problem."""
    problems, game = _run(rules, rounds)
    if problems:
        raise InvalidRounds(problems)
    return game.result()


def check_rounds(rules: AddingRules, rounds: Sequence[RoundEntry | None]) -> list[RoundProblem]:
    """Every problem in the rounds (RULES.md §2.1, §2.4). None stands for a round that could
    not be read at all: it is not checked, and neither is anything later that depends on it."""
    return _run(rules, rounds)[0]


def add_event(
    rules: AddingRules, rounds: Sequence[RoundEntry], event: Event
) -> tuple[RoundEntry, ...]:
    """The rounds with `event` recorded where the table would put it: at the end of the last
    round while it is in progress, otherwise as the first event of a new round. (A correction
    to a round that has ended goes into the next one; edit the round to place it there.)"""
    _, game = _run(rules, rounds)
    if rounds and _goes_into_last(rules, rounds[-1], game, event):
        last = rounds[-1]
        return (*rounds[:-1], RoundEntry((*last.events, event)))
    return (*rounds, RoundEntry((event,)))


def record(
    rules: AddingRules, rounds: Sequence[RoundEntry], event: Event
) -> tuple[tuple[RoundEntry, ...], Evaluation]:
    """`event` recorded where the table would put it (as add_event), and what the rules make
    of the rounds with it (as evaluate): both from one pass over the rounds, which go on from
    where the table is with the one new event."""
    problems, game = _run(rules, rounds)
    into_last = bool(rounds) and _goes_into_last(rules, rounds[-1], game, event)
    if into_last:
        changed = (*rounds[:-1], RoundEntry((*rounds[-1].events, event)))
    else:
        changed = (*rounds, RoundEntry((event,)))
    index, position = len(changed) - 1, len(changed[-1].events) - 1
    past_bounds = len(changed) > MAX_DEALS or position >= MAX_EVENTS
    state = game.current if into_last else None
    if (
        problems
        or past_bounds
        or (into_last and state is None)
        or (not into_last and game.finished)
    ):
        return changed, evaluate(rules, changed)  # nothing to go on from: check it all again
    if state is None:
        state = game.start_round(index, changed[-1])
    else:
        game.rounds.pop()  # the last round is worked out again with the event
        state.entry = changed[-1]
    found = _check_event(rules, index, position, event) or state.check(position, event)
    if found:
        return changed, Evaluation(found, None)
    state.play(position, event)
    game.close_round(state)
    return changed, Evaluation([], game.result())


def allowed_events(
    rules: AddingRules, rounds: Sequence[RoundEntry]
) -> dict[str, tuple[EventRule, ...]]:
    """The buttons to offer each player now, in seat order (Adjust last where allowed): none
    once the game is over (or while the rounds have problems), for a player who is out of the
    game or sitting out the round in progress; only the bust right after the cross 66 that put
    the player out (RULES.md §2.1). One pass over the rounds for the whole table."""
    problems, game = _run(rules, rounds)
    return dict.fromkeys(rules.players, ()) if problems else game.allowed()


def table_state(rounds: Sequence[RoundEntry] | Sequence[RoundResult]) -> str:
    """Where the table is: "rounds.events-in-the-last round". A tap is made on a state, and
    refused if the table has moved on since (another phone tapped first)."""
    return f"{len(rounds)}.{len(rounds[-1].events) if rounds else 0}"


def can_act(rules: AddingRules, rounds: Sequence[RoundEntry], player: str) -> bool:
    """Whether `player` may record any event now (see allowed_events)."""
    return bool(allowed_events(rules, rounds).get(player))


def _goes_into_last(rules: AddingRules, entry: RoundEntry, game: "_Game", event: Event) -> bool:
    """Whether a new event belongs to the last round: it is in progress, or the event is the
    bust that completes the cross 66 which put its player out (even if that ended the game)."""
    last = game.current
    if last is not None and last.entry is entry:
        return last.open or last.completes_cross(event)
    # The state is unknown (earlier problems): go by the events alone.
    return not any(
        rule.ends_round and (rule.event, rule.target) == (old.event, old.target)
        for rule in rules.events
        for old in entry.events
    )


def _run(
    rules: AddingRules, rounds: Sequence[RoundEntry | None]
) -> tuple[list[RoundProblem], "_Game"]:
    game = _Game(rules)
    problems: list[RoundProblem] = []
    if len(rounds) > MAX_DEALS:
        # Check the rounds a session may hold, and only say how many more there are.
        message = _("A session has at most {most} rounds; this one has {count}.").format(
            most=number(MAX_DEALS), count=number(len(rounds))
        )
        problems.append(RoundProblem(MAX_DEALS, None, None, message))
        rounds = rounds[:MAX_DEALS]
    known = True  # whether every event so far was played, so the state is known
    for index, entry in enumerate(rounds):
        if entry is not None and len(entry.events) > MAX_EVENTS:
            count = len(entry.events)
            message = _("A round has at most {most} events; this one has {count}.").format(
                most=MAX_EVENTS, count=number(count)
            )
            problems.append(RoundProblem(index, None, None, message))
            entry = None
        if entry is None:
            known = False
            game.current = None
            continue
        if game.finished:
            message = _("The game ended in round {round}; no round can follow it.").format(
                round=game.ended_in
            )
            problems.append(RoundProblem(index, None, None, message))
        state = game.start_round(index, entry) if known and not game.finished else None
        for position, event in enumerate(entry.events):
            found = _check_event(rules, index, position, event)
            if not found and state is not None:
                found = state.check(position, event)
            problems += found
            if found:
                known = False
                state = None
                game.current = None
            elif state is not None:
                state.play(position, event)
        if state is not None:
            game.close_round(state)
            if state.open and index < len(rounds) - 1:
                if not entry.events:
                    message = _("This round has no events; only the last round may be in progress.")
                else:
                    message = _(
                        "This round has no event that ends it; only the last round may be in "
                        "progress."
                    )
                problems.append(RoundProblem(index, None, None, message))
    return problems, game


def _check_event(rules: AddingRules, index: int, position: int, event: Event) -> list[RoundProblem]:
    """What is wrong with an event whatever came before it."""
    problems: list[RoundProblem] = []
    player = event.player
    named = player if isinstance(player, str) else None

    def add(field: str, message: str) -> None:
        problems.append(RoundProblem(index, position, field, message, named))

    if named is None:
        add("player", _("The player must be a name."))
    elif player not in rules.players:
        add("player", _("{player} is not playing in this session.").format(player=player))
    kind, target = event.event, event.target
    if kind == "adjust":
        if target is not None:
            add("target", _("An adjustment has no target."))
        if not is_whole(event.tokens) or event.tokens == 0 or abs(event.tokens) > MAX_ADJUST:
            add("tokens", _(_ADJUSTMENTS[rules.units[1]]).format(most=MAX_ADJUST))
        return problems
    if not isinstance(kind, str) or kind not in EVENT_KINDS:
        message = _('There is no event "{event}"; events are {events}.')
        add("event", message.format(event=kind, events=join_names(EVENT_KINDS)))
        return problems
    targets = [rule.target for rule in rules.events if rule.event == kind]
    if not targets:
        played = {rule.event for rule in rules.events} | {"adjust"}
        kinds = [name for name in EVENT_KINDS if name in played]
        message = _("{preset} has no {event} event; it has {events}.")
        add(
            "event",
            message.format(preset=_(rules.preset.name), event=kind, events=join_names(kinds)),
        )
        return problems
    if event.tokens is not None:
        add("tokens", _("Only an adjustment carries a number."))
    if kind not in TARGETED:
        if target is not None:
            add("target", _(_UNTARGETED[kind]))
    elif target is None:
        add("target", _("Say which total: {totals}.").format(totals=_or(targets)))
    elif not is_whole(target) or target not in targets:
        message = _(_OFF_TARGET[kind]).format(
            preset=_(rules.preset.name), totals=_or(targets), target=target
        )
        add("target", message)
    return problems


_WIN = gettext_noop("Win")  # a `win` that ended the round, whatever its button says
_UNTARGETED = {
    "bust": gettext_noop("A bust has no target."),
    "empty": gettext_noop("An empty hand has no target."),
    "trips": gettext_noop("Trips has no target."),
    "win": gettext_noop("A win has no target."),
}
_OFF_TARGET = {
    "hit": gettext_noop("A hit in {preset} is at {totals}, not {target}."),
    "cross": gettext_noop("A cross in {preset} is at {totals}, not {target}."),
    "border": gettext_noop("A border in {preset} is at {totals}, not {target}."),
}
# An adjustment out of bounds, by what the numbers count.
_ADJUSTMENTS = {
    "tokens": gettext_noop(
        "An adjustment needs a whole number of tokens from -{most} to {most} other than 0, e.g. -1."
    ),
    "folds": gettext_noop(
        "An adjustment needs a whole number of folds from -{most} to {most} other than 0, e.g. -1."
    ),
    "game points": gettext_noop(
        "An adjustment needs a whole number of game points from -{most} to {most} other than "
        "0, e.g. -1."
    ),
    "drinks": gettext_noop(
        "An adjustment needs a whole number of drinks from -{most} to {most} other than 0, e.g. -1."
    ),
    "rounds won": gettext_noop(
        "An adjustment needs a whole number of rounds won from -{most} to {most} other than "
        "0, e.g. -1."
    ),
}


def _or(numbers: Sequence[int | None]) -> str:
    words = [str(number) for number in numbers]
    if len(words) == 1:
        return words[0]
    return _("{totals} or {last}").format(totals=", ".join(words[:-1]), last=words[-1])


def _rule_for(rules: AddingRules, event: Event) -> EventRule:
    if event.event == "adjust":
        return ADJUST
    return next(
        rule for rule in rules.events if rule.event == event.event and rule.target == event.target
    )


class _Game:
    """The running state while rounds are played one by one."""

    def __init__(self, rules: AddingRules) -> None:
        self.rules = rules
        self.tokens = dict.fromkeys(rules.players, rules.tokens or 0)
        self.out: dict[str, tuple[int, int]] = {}  # player → (round, event) of going out
        self.totals = dict.fromkeys(rules.players, 0)  # Wilson's scores, or the 98s' tally
        self.rounds: list[RoundResult] = []
        self.finished = False
        self.winners: tuple[str, ...] = ()
        self.ended_in: int | None = None  # number of the round that ended the game
        self.current: _Round | None = None  # the last round, if its state is known

    def still_in(self) -> list[str]:
        return [player for player in self.rules.players if player not in self.out]

    def start_round(self, index: int, entry: RoundEntry) -> "_Round":
        if not self.rounds:
            dealer = self.rules.players[self.rules.first_dealer]
        else:
            dealer = self.next_dealer(self.rounds[-1].dealer)
        self.current = _Round(self, index, entry, dealer)
        return self.current

    def next_dealer(self, previous: str) -> str:
        """The next player still in after `previous`, in seat order."""
        players = self.rules.players
        seat = players.index(previous)
        for step in range(1, len(players) + 1):
            player = players[(seat + step) % len(players)]
            if player not in self.out:
                return player
        return previous  # pragma: no cover - someone is always still in

    def close_round(self, state: "_Round") -> None:
        rules = self.rules
        events = state.results
        if not state.open and rules.scoring != "tokens":
            for player in rules.players:
                self.totals[player] += state.points[player]
            if rules.scoring == "wilson" and max(self.totals.values()) >= WILSON_TARGET:
                self.finish(state.index, leaders(self.totals, rules.players))
                events[-1] = replace(events[-1], wins=self.winners)
        gone = sorted(self.out, key=lambda player: self.out[player])
        self.rounds.append(
            RoundResult(
                number=state.index + 1,
                dealer=state.dealer,
                complete=not state.open,
                events=tuple(events),
                tokens=dict(self.tokens) if rules.uses_tokens else None,
                eliminated=tuple(gone),
                points=dict(state.points) if rules.scoring == "wilson" else None,
                totals=dict(self.totals) if rules.scoring == "wilson" else None,
                tally=dict(self.totals) if rules.scoring in ("drinks", "rounds") else None,
            )
        )

    def finish(self, index: int, winners: Sequence[str]) -> None:
        self.finished = True
        self.winners = tuple(winners)
        self.ended_in = index + 1

    def result(self) -> AddingResult:
        last = self.rounds[-1] if self.rounds else None
        current_open = last is not None and not last.complete
        coming: NextRound | None = None
        if not self.finished:
            if last is None:
                coming = NextRound(1, self.rules.players[self.rules.first_dealer])
            elif current_open:
                coming = NextRound(last.number, last.dealer)
            else:
                coming = NextRound(last.number + 1, self.next_dealer(last.dealer))
        return AddingResult(
            rules=self.rules,
            rounds=tuple(self.rounds),
            standings=self.standings(),
            next=coming,
            finished=self.finished,
            winners=self.winners,
            current_round_open=current_open,
            allowed=self.allowed(),
        )

    def allowed(self) -> dict[str, tuple[EventRule, ...]]:
        """The events each player may record now (the rounds so far have no problems)."""
        rules, last = self.rules, self.current

        def buttons(player: str) -> tuple[EventRule, ...]:
            if last is not None and last.after_cross_out == player:
                return tuple(rule for rule in rules.events if rule.event == "bust")
            if self.finished or player in self.out:
                return ()
            if last is not None and last.open and player in last.sitting_out:
                return ()
            return events_for(rules)

        return {player: buttons(player) for player in rules.players}

    def standings(self) -> tuple[Standing, ...]:
        rules = self.rules
        if rules.scoring != "tokens":
            sign = -1 if rules.scoring == "drinks" else 1  # fewest drinks lead
            scores = {player: sign * self.totals[player] for player in rules.players}
            return tuple(
                Standing(player, place, None, False, None, self.totals[player])
                for player, place in rank(scores, rules.players)
            )
        standings = [
            Standing(player, place, self.tokens[player], False, None, None)
            for player, place in rank(self.tokens, self.still_in())
        ]
        gone = [player for player in rules.players if player in self.out]
        previous: tuple[int, int] | None = None
        for player in sorted(gone, key=lambda player: self.out[player], reverse=True):
            place = standings[-1].rank if self.out[player] == previous else len(standings) + 1
            previous = self.out[player]
            standings.append(Standing(player, place, 0, True, previous[0] + 1, None))
        return tuple(standings)


@dataclass
class _Round:
    """One round being played."""

    game: _Game
    index: int
    entry: RoundEntry
    dealer: str
    results: list[EventResult] = field(default_factory=list)
    # The round-ending event, once there is one: who, and its label ("Ann", "Bust").
    ended_by: tuple[str, str] | None = None
    sitting_out: set[str] = field(default_factory=set)  # busted out of this round only
    after_cross_out: str | None = None  # whose cross 66 (the event just played) put them out
    points: dict[str, int] = field(default_factory=dict)  # Wilson, 98s: this round's changes

    def __post_init__(self) -> None:
        rules = self.game.rules
        start = rules.tokens if rules.scoring == "wilson" else 0
        self.points = dict.fromkeys(rules.players, start or 0)

    @property
    def open(self) -> bool:
        return self.ended_by is None and not self.game.finished

    def check(self, position: int, event: Event) -> list[RoundProblem]:
        """What is wrong with an event given the game so far (it passed _check_event)."""
        game, player = self.game, event.player

        def problem(field: str | None, message: str) -> RoundProblem:
            return RoundProblem(self.index, position, field, message, player)

        if self.completes_cross(event):
            return []
        if game.finished:
            message = _("The game is over ({players} won); nothing can follow.")
            return [problem(None, message.format(players=join_names(game.winners)))]
        found = []
        if player in game.out:
            since = game.out[player][0] + 1
            message = _("{player} is out of the game (since round {round}).")
            found.append(problem("player", message.format(player=player, round=since)))
        elif player in self.sitting_out:
            message = _("{player} busted and sits out the rest of this round.")
            found.append(problem("player", message.format(player=player)))
        if self.ended_by is not None and event.event != "adjust":
            ender, label = self.ended_by
            message = _("The round ended with {player}'s {event}; only an adjustment can follow.")
            found.append(problem("event", message.format(player=ender, event=_(label).lower())))
        return found

    def completes_cross(self, event: Event) -> bool:
        """A bust right after the same player's cross 66 that put them out (RULES.md §2.1)."""
        return event.event == "bust" and event.player == self.after_cross_out

    def play(self, position: int, event: Event) -> None:
        game, rules, player = self.game, self.game.rules, event.player
        rule = _rule_for(rules, event)
        changes: dict[str, int] = {}
        gone: list[str] = []
        if self.completes_cross(event):
            pass  # one card crossed 66 and 99; the cross has cost all it can
        elif rule.event == "adjust":
            self._change(player, event.tokens or 0, position, changes, gone)
        elif rule.pays == "self":
            self._change(player, self._penalty(rule.cost), position, changes, gone)
        elif rule.pays == "gain":
            self._change(player, -self._penalty(rule.cost), position, changes, gone)
        elif rule.pays == "others":
            seat = rules.players.index(player)
            for step in range(1, len(rules.players)):
                other = rules.players[(seat + step) % len(rules.players)]
                if other not in game.out:
                    self._change(other, self._penalty(rule.cost), position, changes, gone)
        if rule.event == "bust" and not rule.ends_round:
            self.sitting_out.add(player)
        self.after_cross_out = (
            player if (rule.event, rule.target) == ("cross", 66) and player in gone else None
        )
        ends = rule.ends_round and self.ended_by is None
        if ends:
            self.ended_by = (player, _WIN if rule.event == "win" else rule.label)
        wins: tuple[str, ...] = ()
        remaining = game.still_in()
        if rules.uses_tokens and len(remaining) == 1 and not game.finished:
            game.finish(self.index, remaining)
            wins = game.winners
            ends = True
        self.results.append(EventResult(event, changes, tuple(gone), ends, wins))

    def _penalty(self, cost: int) -> int:
        """The change a penalty of `cost` makes: fewer tokens or points, more drinks."""
        return cost if self.game.rules.scoring == "drinks" else -cost

    def _change(
        self, player: str, delta: int, position: int, changes: dict[str, int], gone: list[str]
    ) -> None:
        """Add `delta` to the player's count; with tokens, pay what they can and go out as the
        `out` option says."""
        game = self.game
        if not game.rules.uses_tokens:
            self.points[player] += delta
            changes[player] = delta
            return
        have = game.tokens[player]
        paid = min(-delta, have) if delta < 0 else delta
        left = have - paid if delta < 0 else have + delta
        game.tokens[player] = left
        changes[player] = -paid if delta < 0 else delta
        owing = game.rules.out == "owing"
        if delta < 0 and ((owing and -delta > have) or (not owing and left == 0)):
            game.out[player] = (self.index, position)
            gone.append(player)
