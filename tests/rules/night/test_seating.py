"""Seating a club night: the exact designs, the movement, sit-outs in turn, few repeats."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.night import (
    Design,
    Seating,
    affine_plane,
    kirkman,
    meetings,
    most_met,
    next_round,
    plan,
    rainbow,
    seat_round,
    table_sizes,
)

NAMES = [f"P{number:02}" for number in range(30)]


def pair_counts(design: Design) -> Counter[frozenset[int]]:
    return Counter(
        frozenset(pair) for groups in design for table in groups for pair in combinations(table, 2)
    )


def assert_each_round_seats_everyone_once(design: Design, count: int) -> None:
    for groups in design:
        assert sorted(player for table in groups for player in table) == list(range(count))
        assert all(len(table) == 3 for table in groups)


# The exact designs


def test_the_affine_plane_seats_every_pair_of_nine_together_once() -> None:
    design = affine_plane()
    assert len(design) == 4
    assert_each_round_seats_everyone_once(design, 9)
    assert pair_counts(design) == Counter({frozenset(p): 1 for p in combinations(range(9), 2)})


def test_kirkmans_fifteen_schoolgirls_walk_with_every_other_girl_once() -> None:
    design = kirkman()
    assert len(design) == 7
    assert_each_round_seats_everyone_once(design, 15)
    assert pair_counts(design) == Counter({frozenset(p): 1 for p in combinations(range(15), 2)})


@pytest.mark.parametrize("tables", [3, 5, 7, 9])
def test_the_rainbow_movement_meets_every_other_seat_once(tables: int) -> None:
    design = rainbow(tables)
    assert len(design) == tables
    assert_each_round_seats_everyone_once(design, 3 * tables)
    for number, groups in enumerate(design):
        for table, (a, b, c) in enumerate(groups):
            assert a == table  # seat A stays
            assert b == tables + (table - number) % tables  # seat B moves one table up
            assert c == 2 * tables + (table + number) % tables  # seat C one table down
    counts = pair_counts(design)
    for x, y in combinations(range(3 * tables), 2):
        same_seat = x // tables == y // tables
        assert counts[frozenset((x, y))] == (0 if same_seat else 1)


def test_the_rainbow_movement_needs_an_odd_number_of_tables() -> None:
    with pytest.raises(ValueError, match="odd"):
        rainbow(4)


# A night planned in advance


@pytest.mark.parametrize(("count", "rounds"), [(9, 4), (15, 7), (9, 3), (15, 5)])
def test_a_plan_uses_the_pair_once_design_where_it_fits(count: int, rounds: int) -> None:
    night = plan(NAMES[:count], 3, rounds)
    assert len(night) == rounds and most_met(night) == 1
    assert len(meetings(night)) == 3 * count // 3 * rounds


@pytest.mark.parametrize("tables", [7, 9])
def test_a_plan_uses_the_rainbow_where_no_pair_once_design_fits(tables: int) -> None:
    players = NAMES[: 3 * tables]
    night = plan(players, 3, tables)
    met = meetings(night)
    assert most_met(night) == 1 and len(met) == 3 * tables * tables
    assert frozenset(players[:2]) not in met  # two of seat A


def test_a_plan_goes_on_past_its_design_with_the_search() -> None:
    night = plan(NAMES[:9], 3, 6)
    assert night[:4] == plan(NAMES[:9], 3, 4)
    # After the design every pair has met once; the two rounds more bring 18 pairs, none twice.
    assert most_met(night) == 2
    assert all(len(seating.tables) == 3 for seating in night)


@pytest.mark.parametrize(
    ("count", "size", "rounds"), [(9, 3, 6), (21, 3, 3), (12, 4, 3), (10, 3, 4)]
)
def test_a_night_seated_round_by_round_is_the_night_planned(count, size, rounds) -> None:
    night: list[Seating] = []
    for _ in range(rounds):
        night.append(next_round(NAMES[:count], size, night, seed=3))
    assert tuple(night) == plan(NAMES[:count], size, rounds, seed=3)


def test_the_next_round_follows_the_design_only_while_the_rounds_so_far_are_its_own() -> None:
    players = NAMES[:9]
    other = Seating(
        tuple(tuple(players[i] for i in table) for table in [(0, 1, 3), (2, 4, 6), (5, 7, 8)])
    )
    assert next_round(players, 3, [other], seed=1) == seat_round(players, 3, [other], seed=1)
    first = plan(players, 3, 1)[0]
    shuffled = Seating(tuple(table[::-1] for table in reversed(first.tables)))
    designed = plan(players, 3, 2)[1]
    tables = next_round(players, 3, [shuffled]).tables
    assert {frozenset(table) for table in tables} == {frozenset(t) for t in designed.tables}


@pytest.mark.parametrize(
    ("count", "size", "rounds", "most"),
    [
        (16, 4, 2, 1),
        (12, 3, 3, 1),  # 4 tables, an even number: no rainbow
        (12, 4, 2, 2),  # a table of 4 from three tables of 4 holds two who met: unavoidable
        (10, (3, 6), 1, 1),
        (21, 3, 4, 1),
        (30, 5, 3, 1),
    ],
)
def test_a_plan_without_a_design_keeps_repeats_down(count, size, rounds, most) -> None:
    night = plan(NAMES[:count], size, rounds)
    assert len(night) == rounds and most_met(night) == most


# Nights seated by the swap search of commit 048b851, before the search was rewritten: for
# each night (players, size, rounds), `plan([f"P{n:03}" for n in range(players)], size, rounds,
# seed=seed)` for seeds 0 to 3 gave these (most-met, pairs that met that often). The search
# must do no worse over the four: the most times any pair met in any of them, then how many
# pairs met that often in all.
BEFORE_THE_REWRITE = {
    (30, 4, 8): [(2, 13), (2, 9), (2, 11), (2, 13)],
    (13, (3, 6), 8): [(3, 29), (3, 26), (3, 26), (3, 25)],
    (24, 3, 10): [(2, 3), (2, 7), (2, 3), (2, 6)],
    (40, 5, 10): [(2, 93), (2, 89), (2, 87), (2, 94)],
    (60, 10, 8): [(3, 21), (3, 20), (3, 20), (3, 18)],
    (22, (4, 5), 10): [(3, 3), (3, 2), (3, 3), (3, 4)],
    (45, 3, 20): [(2, 3), (2, 3), (2, 3), (2, 1)],  # the rainbow's 15 rounds, then the search
}


def worst_and_count(nights: list[tuple[int, int]]) -> tuple[int, int]:
    top = max(most for most, _ in nights)
    return top, sum(count for most, count in nights if most == top)


@pytest.mark.parametrize(("count", "size", "rounds"), list(BEFORE_THE_REWRITE))
def test_the_search_seats_nights_no_worse_than_before_its_rewrite(count, size, rounds) -> None:
    players = [f"P{number:03}" for number in range(count)]
    nights = []
    for seed in range(4):
        met = meetings(plan(players, size, rounds, seed=seed))
        most = max(met.values())
        nights.append((most, sum(1 for times in met.values() if times == most)))
    assert worst_and_count(nights) <= worst_and_count(BEFORE_THE_REWRITE[count, size, rounds])


def test_the_same_seed_gives_the_same_night_and_another_seed_may_not() -> None:
    assert plan(NAMES[:12], 4, 3, seed=1) == plan(NAMES[:12], 4, 3, seed=1)
    assert len({plan(NAMES[:12], 4, 3, seed=seed) for seed in range(5)}) > 1


# Table sizes


@pytest.mark.parametrize(
    ("count", "size", "sizes"),
    [
        (9, 3, (3, 3, 3)),
        (10, 3, (3, 3, 3)),  # one sits out
        (11, 4, (4, 4)),
        (10, (3, 6), (5, 5)),  # the fewest tables, as even as can be
        (11, (3, 6), (6, 5)),
        (13, (3, 6), (5, 4, 4)),
        (6, (3, 6), (6,)),
        (7, (4, 5), (5,)),  # 2 tables need 8: the fewest sit out
        (2, (3, 6), ()),
        (0, 3, ()),
    ],
)
def test_table_sizes(count, size, sizes) -> None:
    assert table_sizes(count, size) == sizes


@pytest.mark.parametrize("size", [0, (4, 3), (0, 2)])
def test_a_table_size_is_a_number_or_a_range(size) -> None:
    with pytest.raises(ValueError, match="size"):
        table_sizes(6, size)


def test_names_are_unique() -> None:
    with pytest.raises(ValueError, match="unique"):
        seat_round(["Ann", "Ann", "Ben"], 3, ())


# Sit-outs in turn


def bye_counts(night: tuple[Seating, ...] | list[Seating]) -> Counter[str]:
    return Counter(player for seating in night for player in seating.byes)


def test_ten_players_at_tables_of_three_sit_out_once_each_in_ten_rounds() -> None:
    night = plan(NAMES[:10], 3, 10)
    assert bye_counts(night) == Counter(dict.fromkeys(NAMES[:10], 1))


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=14),
    size=st.sampled_from([3, 4, 5, (3, 6), (4, 5)]),
    rounds=st.integers(min_value=1, max_value=8),
    seed=st.integers(min_value=0, max_value=3),
)
def test_nobody_sits_out_twice_before_everyone_has_sat_out_once(count, size, rounds, seed):
    players = NAMES[:count]
    night = plan(players, size, rounds, seed=seed)
    byes = bye_counts(night)
    assert max(byes[p] for p in players) - min(byes[p] for p in players) <= 1
    for seating in night:
        seated = [player for table in seating.tables for player in table]
        assert sorted(seated + list(seating.byes)) == sorted(players)
        assert tuple(len(table) for table in seating.tables) == table_sizes(count, size)


def test_a_late_arrival_is_not_first_in_line_to_sit_out() -> None:
    night = list(plan(NAMES[:7], 3, 3))  # one sits out each round: four have not yet
    waiting = [p for p in NAMES[:7] if bye_counts(night)[p] == 0]
    assert len(waiting) == 4
    for seed in range(5):
        seating = seat_round([*NAMES[:7], "Late"], 3, night, seed=seed)
        assert len(seating.byes) == 2 and set(seating.byes) <= set(waiting)


def test_whoever_sat_out_longest_ago_sits_out_first_among_equals() -> None:
    night = list(plan(NAMES[:4], 3, 4))  # everyone has sat out once
    first = night[0].byes[0]
    assert seat_round(NAMES[:4], 3, night).byes == (first,)


def test_players_gone_and_come_are_seated_with_the_meetings_of_those_here() -> None:
    night = list(plan(NAMES[:9], 3, 2))
    players = [*NAMES[1:9], "New"]
    seating = seat_round(players, 3, night)
    assert sorted(p for table in seating.tables for p in table) == sorted(players)
    assert most_met([*night, seating]) == 1


def test_two_players_at_tables_of_three_or_more_both_sit_out() -> None:
    assert seat_round(["Ann", "Ben"], (3, 6), ()) == Seating((), ("Ann", "Ben"))


# The Swiss way


def test_by_standings_seats_the_best_together_table_by_table() -> None:
    players = NAMES[:7]
    standings = list(reversed(players))
    history = [Seating((), (players[0],))]  # P00 has sat out: another's turn
    seating = seat_round(players, 3, history, by_standings=standings)
    assert len(seating.byes) == 1 and seating.byes != (players[0],)
    ranked = [player for player in standings if player not in seating.byes]
    assert [set(table) for table in seating.tables] == [set(ranked[:3]), set(ranked[3:])]


def test_by_standings_puts_players_not_ranked_yet_last() -> None:
    seating = seat_round(["Ann", "Ben", "Cat", "Dan", "Eve", "New"], 3, (), by_standings=[
        "Eve", "Dan", "Cat", "Ben", "Ann"])  # fmt: skip
    assert [set(table) for table in seating.tables] == [
        {"Eve", "Dan", "Cat"},
        {"Ben", "Ann", "New"},
    ]


# The seat order


def test_the_first_seat_goes_round_the_table() -> None:
    players = ["Ann", "Ben", "Cat"]
    night: list[Seating] = []
    for _ in range(6):
        night.append(seat_round(players, 3, night))
    firsts = [seating.tables[0][0] for seating in night]
    assert Counter(firsts) == Counter({"Ann": 2, "Ben": 2, "Cat": 2})
    assert all(a != b for a, b in zip(firsts, firsts[1:], strict=False))


def test_the_first_seat_is_shared_out_over_a_planned_night() -> None:
    firsts = Counter(table[0] for seating in plan(NAMES[:9], 3, 4) for table in seating.tables)
    assert max(firsts.values()) <= 2


# Meetings


def test_meetings_count_each_pair_at_one_table() -> None:
    night = [
        Seating((("Ann", "Ben", "Cat"),), ("Dan",)),
        Seating((("Ann", "Ben", "Dan"),), ("Cat",)),
    ]
    assert meetings(night) == {
        frozenset(("Ann", "Ben")): 2,
        frozenset(("Ann", "Cat")): 1,
        frozenset(("Ben", "Cat")): 1,
        frozenset(("Ann", "Dan")): 1,
        frozenset(("Ben", "Dan")): 1,
    }
    assert most_met(night) == 2 and most_met([]) == 0


def test_a_large_night_seats_a_round_without_a_repeat() -> None:
    players = [f"Player {number}" for number in range(300)]
    night: list[Seating] = []
    for number in range(10):
        night.append(seat_round(players, 3, night, seed=number))
    assert most_met(night) == 1
