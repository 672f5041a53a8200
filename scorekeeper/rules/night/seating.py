"""Who sits where in each round of a club night, and who sits out (docs/NIGHTS.md).

A night seats its players at tables of the size it chose, round after round, so that players
meet as many different opponents as they can and nobody meets the same player again and again.

Exact designs, used where they fit (every pair of players meets exactly once, per round a
partition of the players into tables of three):
- 9 players, 4 rounds: the affine plane of order 3, AG(2,3). Its points are the pairs (x, y)
  of integers mod 3 and its 12 lines fall into 4 parallel classes (the lines of one slope),
  each class a round of 3 tables.
- 15 players, 7 rounds: a Kirkman triple system KTS(15), the answer to Kirkman's schoolgirl
  problem (T. P. Kirkman, Query VI, The Lady's and Gentleman's Diary, 1850: "fifteen young
  ladies ... walk out three abreast for seven days"). It is built the 1-rotational way: the
  points are Z_7 × {0, 1} and one fixed point ∞; a starter round of 5 triples is turned round
  Z_7 (add 1 mod 7 to every point but ∞) to give the other 6 rounds.
- 3T players at T tables, T odd, T rounds: the rainbow movement of bridge and whist drives.
  Seat A stays at its table, seat B moves one table up and seat C one table down each round;
  B and C then close in on each other by 2 tables a round, which reaches every table once
  only because T is odd. Every two players of different seats meet exactly once; players of
  the same seat never meet.

Otherwise each round is seated by a local search (`seat_round`) that minimises repeats, first
the most times any pair will have met, then how many pairs meet that often, and so on down.
"""

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

# A table size: an exact size (the trick game's presets: 3, 4 or 5) or the organiser's range
# (least, most) (the adding game: within 3 to 6).
Size = int | tuple[int, int]
# Rounds of tables of player numbers (0-based): an exact design before names are put in.
Design = tuple[tuple[tuple[int, ...], ...], ...]


@dataclass(frozen=True)
class Seating:
    """One round: each table's players in seat order (the first seat deals first in the trick
    game), and who sits out."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


def table_sizes(count: int, size: Size) -> tuple[int, ...]:
    """The tables a round of `count` players sits at, largest first.

    Everyone is seated where the size allows it: the fewest tables that hold everyone within
    the largest size, the players split as evenly as possible between them (10 players at 3-6:
    5 and 5). Where no split fits (2 players at 3 or more, 7 at exactly 3), the fewest players
    sit out: the most players that can be split that way are seated.
    """
    least, most = _bounds(size)
    for seated in range(count, 0, -1):
        tables = -(-seated // most)
        if tables * least <= seated:
            base, extra = divmod(seated, tables)
            return tuple(base + 1 if index < extra else base for index in range(tables))
    return ()


def meetings(history: Iterable[Seating]) -> dict[frozenset[str], int]:
    """How many times each pair of players has sat at the same table (pairs that never met are
    left out)."""
    met: Counter[frozenset[str]] = Counter()
    for seating in history:
        for table in seating.tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return dict(met)


def most_met(history: Iterable[Seating]) -> int:
    """The most times any two players have sat at the same table (0 before the first round)."""
    return max(meetings(history).values(), default=0)


# Exact designs


def affine_plane() -> Design:
    """AG(2,3) on 9 players: player 3x + y is the point (x, y); round 0 holds the vertical lines
    x = c, round m + 1 the lines y = m·x + c (mod 3)."""
    vertical = tuple(tuple(3 * c + y for y in range(3)) for c in range(3))
    sloped = tuple(
        tuple(tuple(3 * x + (slope * x + c) % 3 for x in range(3)) for c in range(3))
        for slope in range(3)
    )
    return (vertical, *sloped)


# The starter round of KTS(15): ∞ is player 14, i_0 is player i and i_1 player 7 + i. Its pairs
# within level 0 ({1, 2, 4}) and within level 1 ({1, 5}, {4, 6}, {2, 3}) have the differences
# ±1, ±2, ±3 once each, and its 7 pairs across the levels every difference mod 7 once, so the 7
# turns of it cover every pair once.
_KIRKMAN_STARTER = ((14, 0, 7), (1, 2, 4), (3, 8, 12), (5, 11, 13), (6, 9, 10))


def kirkman() -> Design:
    """KTS(15): Kirkman's 15 schoolgirls over 7 days, the starter round turned round Z_7."""

    def turned(player: int, by: int) -> int:
        return player if player == 14 else 7 * (player // 7) + (player + by) % 7

    return tuple(
        tuple(tuple(turned(player, by) for player in table) for table in _KIRKMAN_STARTER)
        for by in range(7)
    )


def rainbow(tables: int) -> Design:
    """The rainbow movement for an odd number of tables T (3T players, T rounds).

    Players 0 … T-1 take seat A, T … 2T-1 seat B and 2T … 3T-1 seat C, each starting at the
    table of its number mod T. In round r, table k holds A k, the B who started at k - r and
    the C who started at k + r (mod T): A stays, B moves one table up, C one table down.
    """
    if tables < 1 or tables % 2 == 0:
        raise ValueError(f"The rainbow movement needs an odd number of tables, not {tables}.")
    return tuple(
        tuple((k, tables + (k - r) % tables, 2 * tables + (k + r) % tables) for k in range(tables))
        for r in range(tables)
    )


@lru_cache(maxsize=4)  # a night asks for its design each round
def _design_for(count: int, size: Size) -> Design | None:
    """The exact design for `count` players at this size, where one fits: the pair-once designs
    before the rainbow movement, since in those even players of one seat meet."""
    if count == 0 or table_sizes(count, size) != (3,) * (count // 3) or count % 3:
        return None
    if count == 9:
        return affine_plane()
    if count == 15:
        return kirkman()
    if (count // 3) % 2 == 1:
        return rainbow(count // 3)
    return None


# Rounds one by one


def plan(players: Sequence[str], size: Size, rounds: int, *, seed: int = 0) -> tuple[Seating, ...]:
    """The whole night in advance, when nobody comes or goes: `next_round` after `next_round`.

    Where an exact design fits the players and the size (9 or 15 players, or 3T with T odd, at
    tables of three), its rounds come first, players taken in the order given (in the rainbow,
    the first third take seat A); any rounds beyond it, and every round where none fits, are
    seated one by one by `seat_round`, each given the rounds before.
    """
    players = _unique(players)
    night: list[Seating] = []
    while len(night) < rounds:
        night.append(next_round(players, size, night, seed=seed))
    return tuple(night)


def next_round(
    players: Sequence[str], size: Size, history: Sequence[Seating], *, seed: int = 0
) -> Seating:
    """The round after `history`, as `plan` seats it: the exact design's next round where one
    fits these players (taken in the order given) and the rounds so far are its first ones,
    whatever the order at each table; else `seat_round`. So a night seated round by round,
    while the same players play, is the night planned in advance, and each round costs one
    round's work."""
    players = _unique(players)
    design = (_design_for(len(players), size) or ())[: len(history) + 1]

    def named(groups: tuple[tuple[int, ...], ...]) -> list[tuple[str, ...]]:
        return [tuple(players[index] for index in group) for group in groups]

    if len(design) > len(history) and all(
        _alike(named(groups), seating) for groups, seating in zip(design, history, strict=False)
    ):
        return Seating(_seat_order(named(design[-1]), history))
    return seat_round(players, size, history, seed=seed)


def _alike(tables: Sequence[tuple[str, ...]], seating: Seating) -> bool:
    """The same tables, whatever their order and the order at each, and nobody sitting out."""
    return not seating.byes and {frozenset(table) for table in tables} == {
        frozenset(table) for table in seating.tables
    }


def seat_round(
    players: Sequence[str],
    size: Size,
    history: Sequence[Seating],
    *,
    by_standings: Sequence[str] | None = None,
    seed: int = 0,
) -> Seating:
    """One round for the players present, given the rounds before (who came or went since does
    not matter: a pair's past meetings count while both are here).

    Who sits out, when the players do not fill the tables (`table_sizes`): those with the
    fewest sit-outs so far, so nobody sits out twice before everyone present has sat out once.
    Among equals, whoever sat out longest ago goes first, then whoever has played the most
    rounds: a late arrival, who has sat out no round but also played fewer, is not first in
    line. Remaining ties are drawn by the seed.

    Who sits with whom: the search below, or with `by_standings` (players best first; anyone
    not on it after them, in the order given) the Swiss way: the best players together, table
    by table, whoever they have met before.

    The same players, size, history and seed give the same seating.
    """
    players = _unique(players)
    rng = random.Random(f"{seed}:{len(history)}")
    sizes = table_sizes(len(players), size)
    byes = set(_sit_out(players, len(players) - sum(sizes), history, rng))
    playing = [player for player in players if player not in byes]
    if by_standings is None:
        groups = _spread(playing, sizes, history, rng)
    else:
        rank = {player: place for place, player in enumerate(by_standings)}
        ordered = sorted(playing, key=lambda player: rank.get(player, len(rank)))
        starts = [sum(sizes[:index]) for index in range(len(sizes))]
        groups = [tuple(ordered[start : start + n]) for start, n in zip(starts, sizes, strict=True)]
    byes_in_order = tuple(player for player in players if player in byes)
    return Seating(_seat_order(groups, history), byes_in_order)


def _bounds(size: Size) -> tuple[int, int]:
    least, most = (size, size) if isinstance(size, int) else size
    if not 1 <= least <= most:
        raise ValueError(f"A table size is a number, or a least and a most: not {size!r}.")
    return least, most


def _unique(players: Sequence[str]) -> list[str]:
    if len(set(players)) != len(players):
        raise ValueError("Each player takes one seat: the names must be unique.")
    return list(players)


def _sit_out(
    players: Sequence[str], count: int, history: Sequence[Seating], rng: random.Random
) -> list[str]:
    """The `count` players next in line to sit out (see `seat_round`)."""
    byes: Counter[str] = Counter()
    last_bye: dict[str, int] = {}
    played: Counter[str] = Counter()
    for number, seating in enumerate(history):
        byes.update(seating.byes)
        last_bye.update(dict.fromkeys(seating.byes, number))
        played.update(player for table in seating.tables for player in table)
    drawn = list(players)
    rng.shuffle(drawn)
    drawn.sort(key=lambda player: (byes[player], last_bye.get(player, -1), -played[player]))
    return drawn[:count]


# The search

# For each player (numbered by their place among those playing), a number for each other player
# they have met: meetings (`_met`), or what sitting together costs (`_pair_costs`).
_Costs = list[dict[int, int]]

# The search's work has a bound, whatever the room and its history:
_STARTS = 3  # greedy starts, each improved
_PASSES = 40  # passes over the players who meet someone again, at most, in each start
_LOOKS = 100_000  # swaps weighed in each start, at most
_SIDEWAYS = 0.6  # the chance to take an equal-cost swap, to leave a plateau
_PATIENCE = 3  # passes in a row that do not lower the cost: the start has done what it can


def _spread(
    playing: Sequence[str], sizes: Sequence[int], history: Sequence[Seating], rng: random.Random
) -> list[tuple[str, ...]]:
    """Tables of these sizes for the players, with few repeated meetings: a few greedy starts,
    each improved by swaps (`_start`), and the cheapest kept (the first among equals)."""
    costs = _pair_costs(_met(playing, history), sizes)
    starts = (_start(len(playing), sizes, costs, rng) for _ in range(_STARTS))
    best = min(starts, key=_Room.cost)
    return [tuple(playing[p] for p in table) for table in best.tables]


def _start(count: int, sizes: Sequence[int], costs: _Costs, rng: random.Random) -> "_Room":
    """The players (by number) in the seed's order, seated by `_greedy`, then swapped between
    tables while a swap helps (`_improve`)."""
    order = list(range(count))
    rng.shuffle(order)
    room = _Room(_greedy(order, sizes, costs), costs)
    _improve(room, rng)
    return room


def _met(playing: Sequence[str], history: Sequence[Seating]) -> _Costs:
    """For each player, how many times they have sat with each other player here (by number;
    those never met left out). A pair's meetings count while both are here."""
    number = {player: index for index, player in enumerate(playing)}
    met: _Costs = [{} for _ in playing]
    for seating in history:
        for table in seating.tables:
            present = [number[player] for player in table if player in number]
            for a, b in combinations(present, 2):
                met[a][b] = met[b][a] = met[a].get(b, 0) + 1
    return met


def _pair_costs(met: _Costs, sizes: Sequence[int]) -> _Costs:
    """The objective, what seating two players together costs: nothing if they have never met,
    K^(m-1) if they have met m times, where K is more than the pairs one round seats. So one
    pair meeting for the (m+1)-th time outweighs any number meeting for the m-th: a lower total
    means first a lower most-met, then fewer pairs meeting that often, and so on down."""
    k = sum(n * (n - 1) // 2 for n in sizes) + 1
    top = max((max(row.values(), default=0) for row in met), default=0)
    weight = [0, *(k ** (m - 1) for m in range(1, top + 1))]
    return [{q: weight[m] for q, m in row.items()} for row in met]


def _greedy(order: Sequence[int], sizes: Sequence[int], costs: _Costs) -> list[list[int]]:
    """Tables filled one after the other: each started by the next player in `order`, each seat
    after that given to the player who adds the least cost to the table (among equals, the
    first in `order`)."""
    remaining = list(order)
    adds = [0] * len(order)  # what each player would add to the table being filled
    tables = []
    for size in sizes:
        table: list[int] = []
        while len(table) < size:
            player = _cheapest(remaining, adds) if table else remaining[0]
            remaining.remove(player)
            table.append(player)
            for other, cost in costs[player].items():
                adds[other] += cost
        for player in table:
            for other, cost in costs[player].items():
                adds[other] -= cost
        tables.append(table)
    return tables


def _cheapest(players: list[int], adds: list[int]) -> int:
    """The first player who adds nothing, else the first who adds least."""
    free = next((player for player in players if not adds[player]), None)
    return min(players, key=adds.__getitem__) if free is None else free


class _Room:
    """A round being seated: who sits at each table, and what each player's pairs would cost
    at each table (`load`), kept up to date swap by swap. So weighing a swap takes a few
    look-ups, and making one touches only the pairs of the two players swapped."""

    def __init__(self, tables: list[list[int]], costs: _Costs) -> None:
        self.tables = tables
        self.costs = costs
        self.table_of = [0] * len(costs)
        for number, table in enumerate(tables):
            for player in table:
                self.table_of[player] = number
        # load[p][t]: the cost of p's pairs with the players at table t (p's own left out)
        self.load = [[0] * len(tables) for _ in costs]
        for player, row in enumerate(costs):
            for other, cost in row.items():
                self.load[player][self.table_of[other]] += cost

    def cost(self) -> int:
        """What the round's pairs cost."""
        return sum(self.cost_of(player) for player in range(len(self.table_of))) // 2

    def cost_of(self, player: int) -> int:
        """What the player's pairs at their own table cost."""
        return self.load[player][self.table_of[player]]

    def changes(self, player: int) -> list[int]:
        """For each other player q, what swapping `player` (p, at table a) with q (at table b)
        changes the round's cost by: p's pairs at b and q's at a come, p's at a and q's at b
        go, and a pair of p and q, counted in both that come, sits together in neither."""
        a = self.table_of[player]
        mine, load = self.load[player], self.load
        changes = [mine[b] - mine[a] + load[q][a] - load[q][b] for q, b in enumerate(self.table_of)]
        for other, cost in self.costs[player].items():
            changes[other] -= 2 * cost
        return changes

    def swap(self, p: int, q: int) -> None:
        """p goes to q's seat and q to p's."""
        a, b = self.table_of[p], self.table_of[q]
        for moved, left, joined in ((p, a, b), (q, b, a)):
            for other, cost in self.costs[moved].items():
                self.load[other][left] -= cost
                self.load[other][joined] += cost
        at_a, at_b = self.tables[a], self.tables[b]
        at_a[at_a.index(p)], at_b[at_b.index(q)] = q, p
        self.table_of[p], self.table_of[q] = b, a


def _improve(room: _Room, rng: random.Random) -> None:
    """Swap players between tables while swaps help: passes (`_pass`) until nobody meets anyone
    again, or `_PATIENCE` passes in a row have not lowered the cost, or the work reaches its
    bound. A swap never raises the cost, so the last seating is the best seen."""
    looks = stale = 0
    for _ in range(_PASSES):
        repeating = _repeating(room, rng)
        if not repeating or stale == _PATIENCE or looks >= _LOOKS:
            return
        lowered, looks = _pass(room, repeating, looks, rng)
        stale = 0 if lowered else stale + 1


def _pass(room: _Room, repeating: list[int], looks: int, rng: random.Random) -> tuple[bool, int]:
    """Each of these players who still meets someone again makes their best swap (`_best_swap`),
    while the swaps weighed stay within the bound: whether the cost went down, and the swaps
    weighed so far."""
    lowered = False
    for player in repeating:
        if looks >= _LOOKS:
            break
        if room.cost_of(player):
            looks += len(room.table_of)
            swap = _best_swap(room, player, rng)
            if swap is not None:
                other, change = swap
                room.swap(player, other)
                lowered = lowered or change < 0
    return lowered, looks


def _repeating(room: _Room, rng: random.Random) -> list[int]:
    """The players who meet someone again at their table, costliest first, equals in the
    seed's order."""
    order = list(range(len(room.table_of)))
    rng.shuffle(order)
    return sorted((p for p in order if room.cost_of(p)), key=room.cost_of, reverse=True)


def _best_swap(room: _Room, player: int, rng: random.Random) -> tuple[int, int] | None:
    """Whom the player swaps with, and what it changes the cost by: the swap that lowers the
    cost most (the first such), else, now and then, one of those that keep it; None if
    neither."""
    changes = room.changes(player)
    here = room.table_of[player]
    others = [q for q, table in enumerate(room.table_of) if table != here]
    best = min(others, key=changes.__getitem__, default=None)
    if best is None:
        return None  # one table: nobody to swap with
    if changes[best] < 0:
        return best, changes[best]
    if changes[best] == 0 and rng.random() < _SIDEWAYS:
        return rng.choice([q for q in others if changes[q] == 0]), 0
    return None


def _seat_order(
    groups: Sequence[tuple[str, ...]], history: Sequence[Seating]
) -> tuple[tuple[str, ...], ...]:
    """Each table turned round (its cyclic order kept) so that its first seat, who deals first
    in the trick game, goes to the player who has sat first least often that night; among
    equals, whoever sat first longest ago (never counts as longest), then the table's order."""
    firsts: Counter[str] = Counter()
    last_first: dict[str, int] = {}
    for number, seating in enumerate(history):
        for table in seating.tables:
            firsts[table[0]] += 1
            last_first[table[0]] = number
    turned = []
    for group in groups:
        start = min(
            range(len(group)),
            key=lambda seat: (firsts[group[seat]], last_first.get(group[seat], -1), seat),
        )
        turned.append(group[start:] + group[:start])
    return tuple(turned)
