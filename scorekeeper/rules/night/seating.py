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
    """The whole night in advance, when nobody comes or goes.

    Where an exact design fits the players and the size (9 or 15 players, or 3T with T odd, at
    tables of three), its rounds come first, players taken in the order given (in the rainbow,
    the first third take seat A); any rounds beyond it, and every round where none fits, are
    seated one by one by `seat_round`, each given the rounds before.
    """
    players = _unique(players)
    design = _design_for(len(players), size) or ()
    night: list[Seating] = []
    for groups in design[:rounds]:
        named = [tuple(players[index] for index in group) for group in groups]
        night.append(Seating(_seat_order(named, night)))
    while len(night) < rounds:
        night.append(seat_round(players, size, night, seed=seed))
    return tuple(night)


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


# The search: a pair that has met m times costs nothing at m = 0 and K^(m-1) after, where K is
# more than the pairs one round seats, so one pair meeting for the (m+1)-th time outweighs any
# number meeting for the m-th: less cost means first a lower most-met, then fewer pairs at it.
_PASSES = 40  # full passes over the players at most
_LOOKS = 100_000  # swaps weighed at most: the bound on the work, whatever the history
_SIDEWAYS = 0.3  # the chance to take an equal-cost swap, to leave a plateau


def _spread(
    playing: Sequence[str], sizes: Sequence[int], history: Sequence[Seating], rng: random.Random
) -> list[tuple[str, ...]]:
    """Tables of these sizes for the players, with few repeated meetings.

    A greedy start (each seat goes to the player who adds the least cost to the table), then
    swaps of two players at different tables: each pass looks, for every player who meets
    someone again at their table, for the swap that lowers the cost most; an equal-cost swap
    is taken now and then, to leave a plateau. It stops when nothing is left to try or the
    swaps weighed reach a fixed bound, and keeps the best seating seen.
    """
    count = len(playing)
    index = {player: number for number, player in enumerate(playing)}
    met = [[0] * count for _ in range(count)]
    for seating in history:
        for seated in seating.tables:
            present = [index[player] for player in seated if player in index]
            for a, b in combinations(present, 2):
                met[a][b] += 1
                met[b][a] += 1
    k = sum(n * (n - 1) // 2 for n in sizes) + 1
    top = max((max(row) for row in met), default=0)
    weight = [0] + [k ** (m - 1) for m in range(1, top + 2)]
    cost = [[weight[m] for m in row] for row in met]

    order = list(range(count))
    rng.shuffle(order)
    remaining = order
    members: list[list[int]] = []
    for n in sizes:
        table = [remaining.pop(0)]
        while len(table) < n:
            best = min(remaining, key=lambda p: sum(cost[p][q] for q in table))
            remaining.remove(best)
            table.append(best)
        members.append(table)
    table_of = [0] * count
    for number, table in enumerate(members):
        for p in table:
            table_of[p] = number

    def at(p: int, table: list[int], without: int) -> int:
        row = cost[p]
        return sum(row[q] for q in table if q != p and q != without)

    total = sum(at(p, table, -1) for table in members for p in table) // 2
    best_total, best_members = total, [list(table) for table in members]
    looks = 0
    for _ in range(_PASSES):
        if best_total == 0 or looks > _LOOKS:
            break
        swapped = False
        order = list(range(count))
        rng.shuffle(order)
        for p in order:
            tp = members[table_of[p]]
            here = at(p, tp, -1)
            if here == 0 or looks > _LOOKS:
                continue
            looks += count
            best_delta, best_q, equal = 0, -1, []
            for q in range(count):
                if table_of[q] == table_of[p]:
                    continue
                tq = members[table_of[q]]
                delta = at(p, tq, q) + at(q, tp, p) - here - at(q, tq, -1)
                if delta < best_delta:
                    best_delta, best_q = delta, q
                elif delta == 0:
                    equal.append(q)
            if best_q < 0 and equal and rng.random() < _SIDEWAYS:
                best_q = rng.choice(equal)
            if best_q < 0:
                continue
            tq = members[table_of[best_q]]
            tp[tp.index(p)], tq[tq.index(best_q)] = best_q, p
            table_of[p], table_of[best_q] = table_of[best_q], table_of[p]
            total += best_delta
            swapped = True
            if total < best_total:
                best_total, best_members = total, [list(table) for table in members]
        if not swapped:
            break  # no swap lowers the cost and none keeps it: nothing left to try
    return [tuple(playing[p] for p in table) for table in best_members]


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
