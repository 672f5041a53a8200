"""A club night's writes: created, seated round by round, players coming and going, a table
closed early, the leaderboard worked out from its tables (and after a correction)."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User

from scorekeeper import live
from scorekeeper.live import nights as live_nights
from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night, NightBye
from scorekeeper.rules import night as rules
from scorekeeper.services import Rejected, Who, edit_deal
from scorekeeper.services.nights import (
    add_player,
    close_table,
    finish_night,
    history,
    remove_player,
    start_round,
)
from tests.factories import club_night, made_deal, new_players, play

NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def night_of(owner: User, players: list[Player], **details: object) -> Night:
    return club_night(owner, players, **details)


def play_round(night: Night, user: User) -> None:
    for session in GameSession.objects.filter(night=night, night_round=night.round):
        play(session, user, (3, 3, 3))


@pytest.fixture
def nine(alice: User) -> list[Player]:
    return new_players(alice, NINE)


def test_nine_players_meet_every_other_player_exactly_once_in_four_rounds(
    alice: User, nine: list[Player]
) -> None:
    night = night_of(alice, nine)
    met: dict[frozenset[str], int] = {}
    for _ in range(4):
        night = start_round(night=night)
        tables = GameSession.objects.filter(night=night, night_round=night.round).with_seats()
        assert tables.count() == 3
        for session in tables:
            assert session.options["match"] == {"type": "deals", "deals": 1}
            for pair in itertools.combinations(session.player_names(), 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
        play_round(night, alice)
    assert len(met) == 36 and set(met.values()) == {1}
    finish_night(night=night)
    assert Night.objects.get(pk=night.pk).finished


def test_a_round_waits_for_every_table(alice: User, nine: list[Player]) -> None:
    night = start_round(night=night_of(alice, nine))
    with pytest.raises(Rejected, match="Round 1 is still being played"):
        start_round(night=night)
    with pytest.raises(Rejected):
        finish_night(night=night)


def test_ten_players_sit_out_in_turn_and_a_late_arrival_plays_the_next_round(
    alice: User, nine: list[Player]
) -> None:
    ten = [*nine, *new_players(alice, ["Jo"])]
    night = night_of(alice, ten, rounds=6)
    for _ in range(3):
        night = start_round(night=night)
        play_round(night, alice)
    sat_out = list(NightBye.objects.filter(night=night).values_list("player__name", flat=True))
    assert len(sat_out) == 3 and len(set(sat_out)) == 3
    late = new_players(alice, ["Kit", "Lou"])
    for player in late:
        add_player(night=night, player=player)
    remove_player(night=night, player=ten[0])
    night = start_round(night=night)
    seated = {
        name
        for session in GameSession.objects.filter(night=night, night_round=4).with_seats()
        for name in session.player_names()
    }
    assert {"Kit", "Lou"} <= seated and "Ann" not in seated
    board = live_nights.board(night)
    assert "Ann" in [line.player for line in board.lines]  # her rounds still count


def test_the_history_reads_each_round_as_seated(alice: User, nine: list[Player]) -> None:
    night = night_of(alice, [*nine, *new_players(alice, ["Jo"])], rounds=3)
    for _ in range(2):
        night = start_round(night=night)
        play_round(night, alice)
    expected = []
    for number in (1, 2):
        sessions = GameSession.objects.filter(night=night, night_round=number).with_seats()
        byes = NightBye.objects.filter(night=night, round=number)
        expected.append(
            rules.Seating(
                tables=tuple(tuple(s.player_names()) for s in sessions.order_by("night_table")),
                byes=tuple(bye.player.name for bye in byes),
            )
        )
    assert history(night, 3) == expected
    assert [len(seating.byes) for seating in expected] == [1, 1]
    assert history(night, 2) == expected[:1] and history(night, 1) == []


def test_a_night_refuses_a_method_its_game_has_no_points_for(
    alice: User, nine: list[Player]
) -> None:
    with pytest.raises(Rejected, match="no points"):
        night_of(
            alice,
            nine,
            family="adding",
            ruleset="thirty-three",
            deals=None,
            method="total",
            least=3,
            most=6,
        )


def test_the_leaderboard_follows_a_correction_at_one_table(alice: User, nine: list[Player]) -> None:
    night = start_round(night=night_of(alice, nine, method="total"))
    play_round(night, alice)
    before = live_nights.board(night)
    session = GameSession.objects.with_seats().get(night=night, night_table=1)
    names = tuple(session.player_names())
    edit_deal(
        session=session,
        number=1,
        revision=session.deals.get().revision,
        entry=made_deal((9, 0, 0), names),
        who=Who(alice),
    )
    after = live_nights.board(night)
    assert after.version != before.version
    scores = {line.player: line.score for line in after.lines}
    assert scores[names[0]] > {line.player: line.score for line in before.lines}[names[0]]
    assert live.result(GameSession.objects.get(pk=session.pk)).standings[0].player == names[0]


def test_a_table_closed_early_counts_as_it_stands_and_says_why(
    alice: User, nine: list[Player]
) -> None:
    night = start_round(night=night_of(alice, nine, deals=3))
    sessions = list(GameSession.objects.filter(night=night, night_round=1))
    for session in sessions[1:]:
        play(session, alice, (3, 3, 3), (3, 3, 3), (3, 3, 3))
    play(sessions[0], alice, (3, 3, 3))
    close_table(night=night, session=sessions[0], reason="Cat had to leave", who=Who(alice))
    assert sessions[0].changes.order_by("-pk")[0].after["reason"] == "Cat had to leave"
    start_round(night=night)  # the round is over: every table finished or closed


def test_a_round_just_seated_moves_nobody_on_the_leaderboard(
    alice: User, nine: list[Player]
) -> None:
    night = start_round(night=night_of(alice, nine))
    board = live_nights.board(night)
    assert {(line.score, line.rounds) for line in board.lines} == {(0, 0)}
    assert [table.played for table in board.round_tables(1)] == [0, 0, 0]
