"""The count assistant of the adding game (RULES.md §2.1, §2.3, §2.5): the running total of the
round in progress, whose turn it is, and the events a card makes, proposed, never imposed.

Pure and immutable: a `Count` is a value (JSON-shaped through `to_data()` / `from_data()`),
and every function returns a new one. The intended use, one tap at a time:

    count = new_count(rules, result)            # total 0, left of the dealer starts
    played = play_card(rules, count, "10", -10)  # Played(count, proposals, refused)
    count = played.count                         # keep it with the session
    count = undo_card(count)                     # take back the last card

    # The table confirms one of played.proposals: record proposal.event exactly as the event
    # button records it (same service, history and idempotency), then:
    count = follow_count(rules, count, result)   # None once the game is over
    proposals = open_proposals(result, remaining_proposals)

The data, as a page shows it:
- `Count`: `round` (1-based, as `result.next.number`), `dealer`, `seats` (seat order), `out`
  (out of the game), `sitting_out` (busted out of this round only), `plays` (the cards of the
  round so far); and, worked out from those, `total`, `direction` (`CLOCKWISE` 1, to the
  dealer's left, or `COUNTER_CLOCKWISE` -1), `turn` (who plays next; None only when nobody is
  left in the round), `owes` (how many cards `turn` must play in a row: 2 after a Joker) and
  `in_round`.
- `Play`: `card` (the card's id in the session's table: "K", "Q♥", "Black A"; also its label),
  `choice` (the value added, the total set, or the player chosen; None), `player`, `total` (the
  total called after it), `reset` (it made 69 and the total went back to 0), and the turn after
  it (`direction`, `next`, `owes`).
- `Proposal`: `round`, `event` (an `Event`, exactly as the event buttons record it) and
  `sentence` ("Ben hit 33: everyone else pays 1 token."). `Played.proposals` lists them in the
  order they happened; `Played.refused` says why a card was not counted (None: it was).
- The grid: `CARD_TABLES[rules.card_table].cards` (one `Card` per button, in rank order); a
  card whose `effect.asks` is not None needs one more input, from `card_choices()`: (value,
  label) pairs; `cards.QUESTIONS` words the question.

`play_card` raises `InvalidPlay` (a ValueError with a `field`: "card", "choice", "player") for
a card the table does not have, a missing or wrong choice, or a card past the round's
MAX_CARDS (bounds.py); the message names what is wrong. At the bound a card over the limit is
still heard (it is not counted, so the count does not grow) and proposes the end of the round.

Where RULES.md is silent or a table cannot be counted card by card, this module decides:
- "Two players" means two players still in the round. With two, a reverse leaves the direction
  as it is (the other player plays next, as pagat's "with 2 players: pass" and the
  encyclopaedia's "not with 2 players" say, for every table alike) and a skip brings the turn
  back to the player (Thirty-Three's "2 players: play again"). A "pass" moves the turn on as
  any card does; it only names the card's 0.
- A card that would take the total below 0 leaves it at 0.
- A card that would take the total over the limit is not counted: the count stays as it was,
  and the event that ends the round is proposed instead (the bust; in Wilson, which has no
  bust, the border at 99), after what the card passed on its way (Thirty-Three's 2 on 53: a
  cross 66, then the bust; RULES.md §2.3). One Hundred's black A may name a total over the
  limit (a Custom session's 99): that too is a bust.
- Hits count only going up, from below the target to exactly it. A cross is leaving a target
  upwards: from at or below it to past it, so going from exactly 33 to 38 is a cross, as going
  from exactly 99 up is a bust. A border is crossing between T and T+1 either way. One card
  makes each event it passes, in the order the total passes them (33 before 66 going up, 66
  before 33 going down), so Thirty-Three's 2 on 33 is a cross 33, then a hit 66.
- `on_69`: making 69 is a card that changes the total to exactly 69, from above or below.
  With `reset`, the card's own events are proposed and then the total is 0; the return to 0
  crosses no border (no one played it).
- With the `bust` option `out-of-round` (Arizona), when a bust leaves one player in the round,
  their `win` (the last to play) is proposed after the bust. `empty`, `trips` and `adjust`
  are not made by a card: the table records them by hand. Custom allows every event, so a
  card there may propose a cross and a border at the same total; the table confirms the ones
  it plays.
- Arizona's Joker sets 98 and ends the player's turn; the next player plays two cards in a
  row (`owes` 2). A Joker among those two ends that turn and passes the double play on; a
  reverse among them turns play round as usual when the turn passes. (Pagat's finer points of
  the original game, such as a second Joker cancelling the first, are left to the table.) A
  player who cannot play twice and busts out passes the double play on too.
- Taiwan's 5: the one more input is who plays next, any other player in the round (it may be
  left out when there is only one). Iceland's queens count 0 and the turn moves on as usual;
  the chained-queens rule (drawing, and playing two or more cards after queens in a row) is
  left to the table, like Arizona's cards of one rank played together: tap each card, naming
  who played it with `player=` when it is not the player whose turn the count shows. The
  `alternate` table's Joker has no value in the source, so it has no button.
- A count starts at 0 whenever it starts, even in a round already under way; recorded events
  change it only through `follow_count`: players out of the game or sitting out are skipped
  (the turn moves on, in the direction of play, from a player who went out), and a round that
  has ended gives the next round's count (at 0, the next dealer's left starts).
- A proposal stays open while the table can still record it (`open_proposals`): in the same
  round, for a player the rules still let act. So after a cross 66 that put the player out of
  the game, the bust that follows stays open (RULES.md §2.1) while anything else of theirs
  goes. Taking a card back does not take back what was recorded for it: the table corrects
  the score by hand, as it records any event.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from scorekeeper.rules.adding.cards import (
    ASK_PLAYER,
    ASK_TOTAL,
    ASK_VALUE,
    CARD_TABLES,
    CHOOSE,
    REVERSE,
    SKIP,
    TWICE,
    Card,
    card_words,
    number_words,
)
from scorekeeper.rules.adding.entries import Event
from scorekeeper.rules.adding.events import EventRule
from scorekeeper.rules.adding.presets import AddingRules
from scorekeeper.rules.adding.prose import tell_event
from scorekeeper.rules.adding.results import AddingResult
from scorekeeper.rules.bounds import MAX_CARDS, number
from scorekeeper.rules.common import is_whole, join_names
from scorekeeper.rules.i18n import _

CLOCKWISE = 1  # to the left: seat order, the way the deal passes
COUNTER_CLOCKWISE = -1
HOUSE_69 = 69  # the total of the on_69 house rule


class InvalidPlay(ValueError):
    """A card the count cannot take: `field` ("card", "choice", "player") and what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class Play:
    """One card played in the round, with the choice made and the turn after it."""

    card: str  # the card's id in the session's table ("K", "Q♥", "Black A")
    choice: int | str | None  # the value added, the total set, the player chosen; or None
    player: str  # who played it
    total: int  # the total after it, as called (0 after a 69 that resets)
    direction: int  # CLOCKWISE or COUNTER_CLOCKWISE after it
    next: str  # who plays next (the count skips them if they go out meanwhile)
    owes: int = 1  # how many cards `next` plays in a row (2 after a Joker)
    reset: bool = False  # it made 69 and the total went back to 0 (on_69 "reset")

    def to_data(self) -> dict[str, object]:
        return {
            "card": self.card,
            "choice": self.choice,
            "player": self.player,
            "total": self.total,
            "direction": self.direction,
            "next": self.next,
            "owes": self.owes,
            "reset": self.reset,
        }


@dataclass(frozen=True)
class Count:
    """The round in progress, as the count assistant sees it (see the module docstring)."""

    round: int  # 1-based, as result.next.number
    dealer: str
    seats: tuple[str, ...]  # every player, in seat order
    out: tuple[str, ...] = ()  # out of the game (from the recorded events)
    sitting_out: tuple[str, ...] = ()  # busted out of this round only (bust "out-of-round")
    plays: tuple[Play, ...] = ()

    @property
    def total(self) -> int:
        return self.plays[-1].total if self.plays else 0

    @property
    def direction(self) -> int:
        return self.plays[-1].direction if self.plays else CLOCKWISE

    @property
    def clockwise(self) -> bool:
        return self.direction == CLOCKWISE

    @property
    def in_round(self) -> tuple[str, ...]:
        """The players who still play in this round, in seat order."""
        gone = {*self.out, *self.sitting_out}
        return tuple(player for player in self.seats if player not in gone)

    @property
    def turn(self) -> str | None:
        """Who plays next: left of the dealer to start with; None if nobody is left."""
        if not self.plays:
            return self._step(self.dealer, CLOCKWISE, 1)
        return self._step(self.plays[-1].next, self.direction, 0)

    @property
    def owes(self) -> int:
        """How many cards in a row the player on turn plays (2 after a Joker; else 1)."""
        return self.plays[-1].owes if self.plays else 1

    def _step(self, player: str, direction: int, steps: int) -> str | None:
        """The player `steps` places from `player` in `direction`, counting only the players
        still in the round; with 0 steps, `player` if still in, else the next one who is."""
        seats, playing = self.seats, set(self.in_round)
        if not playing:
            return None
        seat = seats.index(player)
        around = [seats[(seat + direction * place) % len(seats)] for place in range(len(seats))]
        ring = [each for each in around if each in playing]
        if player not in playing:
            steps = max(steps - 1, 0)
        return ring[steps % len(ring)]

    def to_data(self) -> dict[str, object]:
        """The count as JSON-shaped data (see from_data)."""
        return {
            "round": self.round,
            "dealer": self.dealer,
            "seats": list(self.seats),
            "out": list(self.out),
            "sitting_out": list(self.sitting_out),
            "plays": [play.to_data() for play in self.plays],
        }

    @classmethod
    def from_data(cls, data: object) -> "Count":
        """A count from to_data()'s shape; ValueError names what does not fit."""
        fields = _fields(data, "count", _COUNT_FIELDS)
        seats = _names(fields["seats"], "seats")
        if not seats or len(set(seats)) != len(seats):
            raise ValueError("count.seats: a list of different player names is needed.")

        def seated(name: object, where: str) -> str:
            if not isinstance(name, str) or name not in seats:
                raise ValueError(f"{where}: {name!r} has no seat.")
            return name

        plays = fields["plays"]
        if not isinstance(plays, list):
            raise ValueError("count.plays: a list is needed.")
        if len(plays) > MAX_CARDS:
            raise ValueError(f"count.plays: a list of at most {MAX_CARDS} cards is needed.")
        return cls(
            round=_number(fields["round"], "count.round", 1),
            dealer=seated(fields["dealer"], "count.dealer"),
            seats=seats,
            out=tuple(seated(name, "count.out") for name in _names(fields["out"], "out")),
            sitting_out=tuple(
                seated(name, "count.sitting_out")
                for name in _names(fields["sitting_out"], "sitting_out")
            ),
            plays=tuple(
                _play_from(item, f"count.plays[{index}]", seated)
                for index, item in enumerate(plays)
            ),
        )


@dataclass(frozen=True)
class Proposal:
    """An event a card makes, for the table to confirm: `event` exactly as the event button
    records it, in round `round` (1-based), told in `sentence`."""

    round: int
    event: Event
    sentence: str

    def to_data(self) -> dict[str, object]:
        return {
            "round": self.round,
            "player": self.event.player,
            "event": self.event.event,
            "target": self.event.target,
            "sentence": self.sentence,
        }

    @classmethod
    def from_data(cls, data: object) -> "Proposal":
        fields = _fields(data, "proposal", ("round", "player", "event", "target", "sentence"))
        player, kind, sentence = fields["player"], fields["event"], fields["sentence"]
        target = fields["target"]
        if not (isinstance(player, str) and isinstance(kind, str) and isinstance(sentence, str)):
            raise ValueError("proposal: player, event and sentence must be text.")
        if target is not None and not is_whole(target):
            raise ValueError("proposal.target: a whole number or null is needed.")
        round_ = _number(fields["round"], "proposal.round", 1)
        return cls(round_, Event(player, kind, target if is_whole(target) else None), sentence)


@dataclass(frozen=True)
class Played:
    """What one card did: the new count (the same count when the card was refused), the
    events it proposes, in order, and why it was not counted (None: it was)."""

    count: Count
    proposals: tuple[Proposal, ...]
    refused: str | None = None

    @property
    def counted(self) -> bool:
        return self.refused is None


# Starting and following the round


def new_count(rules: AddingRules, result: AddingResult) -> Count | None:
    """The count of the round the table plays next (or is playing: `result.next`), from 0:
    the player left of its dealer starts, and players out of the game or sitting out the round
    are skipped. None once the game is over."""
    if result.next is None:
        return None
    number = result.next.number
    return Count(
        number,
        result.next.dealer,
        rules.players,
        _out_of_game(rules, result),
        _sitting_out(rules, result, number),
    )


def follow_count(rules: AddingRules, count: Count, result: AddingResult) -> Count | None:
    """The count after the table recorded events (by a proposal or by hand): the same round
    with the players out of the game or the round brought up to date, or, when its round has
    ended, the next round's count at 0 with the next dealer. None once the game is over."""
    if result.next is None:
        return None
    if result.next.number != count.round:
        return new_count(rules, result)
    return replace(
        count,
        out=_out_of_game(rules, result),
        sitting_out=_sitting_out(rules, result, count.round),
    )


def open_proposals(result: AddingResult, proposals: Sequence[Proposal]) -> tuple[Proposal, ...]:
    """The proposals the table can still record, now that `result` is what it recorded: those
    of the round it records into, for a player the rules let record that event now. The
    others went with the round, the game, or the player."""
    # Once the game is over, only the bust that completes a cross 66 (§2.1) may still be open.
    number = result.next.number if result.next is not None else result.rounds[-1].number
    return tuple(
        proposal
        for proposal in proposals
        if proposal.round == number and _allows(result.allowed, proposal.event)
    )


def _allows(allowed: Mapping[str, tuple[EventRule, ...]], event: Event) -> bool:
    return any(
        (rule.event, rule.target) == (event.event, event.target)
        for rule in allowed.get(event.player, ())
    )


def _out_of_game(rules: AddingRules, result: AddingResult) -> tuple[str, ...]:
    gone = {standing.player for standing in result.standings if standing.out}
    return tuple(player for player in rules.players if player in gone)


def _sitting_out(rules: AddingRules, result: AddingResult, number: int) -> tuple[str, ...]:
    """Who busted out of round `number` only (a bust that does not end the round)."""
    if not any(rule.event == "bust" and not rule.ends_round for rule in rules.events):
        return ()
    busted = {
        done.event.player
        for round_ in result.rounds
        if round_.number == number
        for done in round_.events
        if done.event.event == "bust"
    }
    return tuple(player for player in rules.players if player in busted)


# Playing a card


@dataclass(frozen=True)
class Pile:
    """The count as the table sees it now: the round's count (None once the game is over),
    the events proposed that the table can still record, and why the last card was not
    counted (None: it was)."""

    count: Count | None
    proposals: tuple[Proposal, ...] = ()
    refused: str | None = None

    def to_data(self) -> dict[str, object]:
        return {
            "count": self.count.to_data() if self.count is not None else None,
            "proposals": [proposal.to_data() for proposal in self.proposals],
            "refused": self.refused,
        }


def read_pile(stored: object, rules: AddingRules, result: AddingResult) -> Pile:
    """The count a session keeps (`stored`, as `Pile.to_data` wrote it), brought up to date
    with what the table recorded since; a count that no longer fits the session (a seat
    replaced, a stored value unreadable) starts again at 0."""
    kept = stored if isinstance(stored, dict) else {}
    try:
        count = Count.from_data(kept["count"]) if kept.get("count") else None
        proposals = tuple(Proposal.from_data(item) for item in kept.get("proposals", []))
        refused = kept.get("refused")
    except (ValueError, TypeError):
        count, proposals, refused = None, (), None
    if count is None or count.seats != tuple(rules.players):
        return Pile(new_count(rules, result))
    followed = follow_count(rules, count, result)
    still = open_proposals(result, proposals)
    if followed is not None and followed.round != count.round:
        return Pile(followed, still)
    return Pile(followed, still, refused if isinstance(refused, str) else None)


def card_choices(
    rules: AddingRules, count: Count, card: str, *, player: str | None = None
) -> tuple[tuple[int | str, str], ...]:
    """The one more input a card needs, as (value, label) pairs: (1, "1"), (11, "11"); (10,
    "+10"), (-10, "−10"); the totals 0 to 100; the players who may play next. Empty when the
    card needs none. `player`: who plays the card (default: whose turn it is)."""
    found = _card(rules, card)
    effect = found.effect
    if effect.asks == ASK_VALUE:
        signed = any(value < 0 for value in effect.values)
        return tuple((value, number_words(value, signed)) for value in effect.values)
    if effect.asks == ASK_TOTAL:
        low, high = effect.values
        return tuple((total, str(total)) for total in range(low, high + 1))
    if effect.asks == ASK_PLAYER:
        actor = player if player is not None else count.turn
        return tuple((other, other) for other in count.in_round if other != actor)
    return ()


def play_card(
    rules: AddingRules,
    count: Count,
    card: str,
    choice: int | str | None = None,
    *,
    player: str | None = None,
) -> Played:
    """Count one card: `card` is its id in the session's card table, `choice` the one more
    input it needs (see card_choices), `player` who played it when it is not the player whose
    turn the count shows (cards played together, Iceland's queens, a card out of turn).

    Returns the new count and the events the card makes under the session's rules, to be
    proposed. A card that would take the total over the limit is not counted (`refused`) and
    proposes the bust (or Wilson's border at 99) instead. A card counted past the round's
    MAX_CARDS is refused (InvalidPlay): no page or stored count grows without end."""
    found = _card(rules, card)
    actor = _actor(count, player)
    picked = _choice(rules, count, found, choice, actor)
    effect = found.effect
    before = count.total
    made = effect.apply(before, picked if isinstance(picked, int) else None)
    if made > rules.limit:
        return _over_the_limit(rules, count, found, actor, before, made)
    if len(count.plays) >= MAX_CARDS:
        message = _(
            "The counter takes at most {limit} cards in a round: count the rest of it at the table."
        )
        raise InvalidPlay("card", message.format(limit=number(MAX_CARDS)))
    after = max(made, 0)
    events = _passed(rules, actor, before, after)
    made_69 = after == HOUSE_69 != before
    if made_69:  # on_69 "token": the hit 69 is the session's event
        events += [
            (rule, Event(actor, rule.event, rule.target)) for rule in _rules(rules, "hit", HOUSE_69)
        ]
    reset = made_69 and rules.on_69 == "reset"
    direction, following, owes = _turn_after(count, actor, found, picked)
    done = Play(
        card=card,
        choice=picked,
        player=actor,
        total=0 if reset else after,
        direction=direction,
        next=following,
        owes=owes,
        reset=reset,
    )
    proposals = tuple(
        Proposal(count.round, event, tell_event(rules, rule, event)) for rule, event in events
    )
    return Played(replace(count, plays=(*count.plays, done)), proposals)


def undo_card(count: Count) -> Count:
    """The count without its last card (what was recorded for it stays recorded)."""
    if not count.plays:
        raise InvalidPlay("card", _("No card has been played in this round yet."))
    return replace(count, plays=count.plays[:-1])


def _card(rules: AddingRules, card: str) -> Card:
    table = CARD_TABLES[rules.card_table]
    found = table.card(card) if isinstance(card, str) else None
    if found is None:
        cards = ", ".join(card_words(each.id) for each in table.cards)
        message = _('The {table} table has no card "{card}"; it has {cards}.')
        raise InvalidPlay("card", message.format(table=_(table.name), card=card, cards=cards))
    return found


def _actor(count: Count, player: str | None) -> str:
    if player is None:
        turn = count.turn
        if turn is None:
            raise InvalidPlay("player", _("Nobody is left in this round to play a card."))
        return turn
    if player in count.in_round:
        return player
    if player in count.out:
        raise InvalidPlay("player", _("{player} is out of the game.").format(player=player))
    if player in count.sitting_out:
        message = _("{player} busted and sits out the rest of this round.")
        raise InvalidPlay("player", message.format(player=player))
    raise InvalidPlay("player", _("{player} is not playing in this session.").format(player=player))


def _choice(
    rules: AddingRules, count: Count, card: Card, choice: int | str | None, actor: str
) -> int | str | None:
    """The choice, checked against what the card offers."""
    offered = card_choices(rules, count, card.id, player=actor)
    values = [value for value, _label in offered]
    asks = card.effect.asks
    if asks is None or not values:
        if choice is not None:
            message = _("The {card} takes no choice here.").format(card=card_words(card.id))
            raise InvalidPlay("choice", message)
        return None
    if choice is None and len(values) == 1:
        return values[0]
    wanted = str if asks == ASK_PLAYER else int
    if isinstance(choice, wanted) and not isinstance(choice, bool) and choice in values:
        return choice
    if asks == ASK_VALUE:
        labels = [label for _value, label in offered]
        message = _("Count the {card} as {first} or {second}.").format(
            card=card_words(card.id), first=", ".join(labels[:-1]), second=labels[-1]
        )
    elif asks == ASK_TOTAL:
        message = _("Set the total to a whole number from {low} to {high}.").format(
            low=values[0], high=values[-1]
        )
    else:
        names = join_names([str(value) for value in values])
        message = _("Say who plays next: {players}.").format(players=names)
    raise InvalidPlay("choice", message)


def _turn_after(
    count: Count, actor: str, card: Card, choice: int | str | None
) -> tuple[int, str, int]:
    """(direction, who plays next, how many cards in a row) after `actor` played `card`."""
    turn = card.effect.turn
    direction = count.direction
    if turn == REVERSE and len(count.in_round) > 2:
        direction = -direction
    if turn == TWICE:
        return direction, _next(count, actor, direction, 1), 2
    if actor == count.turn and count.owes > 1:
        return direction, actor, count.owes - 1
    if turn == SKIP:
        return direction, _next(count, actor, direction, 2), 1
    if turn == CHOOSE and isinstance(choice, str):
        return direction, choice, 1
    return direction, _next(count, actor, direction, 1), 1


def _next(count: Count, actor: str, direction: int, steps: int) -> str:
    return count._step(actor, direction, steps) or actor


# The events a card makes


def _rules(rules: AddingRules, kind: str, target: int | None = None) -> list[EventRule]:
    return [
        rule
        for rule in rules.events
        if rule.event == kind and (target is None or rule.target == target)
    ]


def _passed(
    rules: AddingRules, actor: str, before: int, after: int, below: int | None = None
) -> list[tuple[EventRule, Event]]:
    """The hits, crosses and borders of a move from `before` to `after`, in the order the
    total passes them (targets under `below` only, when given)."""
    found: list[tuple[int, int, EventRule]] = []
    for order, rule in enumerate(rules.events):
        target = rule.target
        if target is None or target == HOUSE_69 or (below is not None and target >= below):
            continue
        happens = {
            "hit": before < target == after,
            "cross": before <= target < after,
            "border": min(before, after) <= target < max(before, after),
        }
        if happens[rule.event]:
            # A hit is at the target; a cross or border just past it.
            place = 2 * target + (rule.event != "hit")
            found.append((place if after >= before else -place, order, rule))
    return [(rule, Event(actor, rule.event, rule.target)) for _, _, rule in sorted(found)]


def _over_the_limit(
    rules: AddingRules, count: Count, card: Card, actor: str, before: int, made: int
) -> Played:
    """A card that would take the total over the limit: not counted; what it passed on the
    way, then the bust (or the border at the limit where there is no bust), proposed."""
    events = _passed(rules, actor, before, made, below=rules.limit)
    how = _("the {card} would make {total}").format(card=card_words(card.id), total=made)
    ending = _rules(rules, "bust") or _rules(rules, "border", rules.limit)
    for rule in ending[:1]:
        events.append((rule, Event(actor, rule.event, rule.target)))
    proposals = [
        Proposal(
            count.round,
            event,
            tell_event(rules, rule, event, how if rule in ending else ""),
        )
        for rule, event in events
    ]
    left = [player for player in count.in_round if player != actor]
    if ending and ending[0].event == "bust" and not ending[0].ends_round and len(left) == 1:
        for rule in _rules(rules, "win")[:1]:
            event = Event(left[0], rule.event)
            proposals.append(Proposal(count.round, event, tell_event(rules, rule, event)))
    refused = _("The {card} would make {total}, over {limit}: it is not counted.").format(
        card=card_words(card.id), total=made, limit=rules.limit
    )
    return Played(count, tuple(proposals), refused)


# Reading a stored count

_COUNT_FIELDS = ("round", "dealer", "seats", "out", "sitting_out", "plays")
_PLAY_FIELDS = ("card", "choice", "player", "total", "direction", "next", "owes", "reset")


def _fields(data: object, where: str, names: Sequence[str]) -> dict[str, object]:
    if not isinstance(data, dict) or set(data) != set(names):
        raise ValueError(f"{where}: an object with exactly {', '.join(names)} is needed.")
    return data


def _names(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise ValueError(f"count.{where}: a list of names is needed.")
    return tuple(value)


def _number(value: object, where: str, least: int) -> int:
    if not is_whole(value) or value < least:
        raise ValueError(f"{where}: a whole number from {least} up is needed.")
    return value


def _play_from(data: object, where: str, seated: Callable[[object, str], str]) -> Play:
    fields = _fields(data, where, _PLAY_FIELDS)
    card, choice, reset = fields["card"], fields["choice"], fields["reset"]
    if not isinstance(card, str):
        raise ValueError(f"{where}.card: text is needed.")
    if choice is not None and not isinstance(choice, str) and not is_whole(choice):
        raise ValueError(f"{where}.choice: a whole number, a name or null is needed.")
    direction = fields["direction"]
    if direction not in (CLOCKWISE, COUNTER_CLOCKWISE) or not is_whole(direction):
        raise ValueError(f"{where}.direction: 1 or -1 is needed.")
    if not isinstance(reset, bool):
        raise ValueError(f"{where}.reset: true or false is needed.")
    return Play(
        card=card,
        choice=choice,
        player=seated(fields["player"], f"{where}.player"),
        total=_number(fields["total"], f"{where}.total", 0),
        direction=direction,
        next=seated(fields["next"], f"{where}.next"),
        owes=_number(fields["owes"], f"{where}.owes", 1),
        reset=reset,
    )
