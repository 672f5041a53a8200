"""The adding game's rows at the table: every row has one place per event, in the same order,
whether its player may tap it now or not, so that no button moves when someone goes out."""

from scorekeeper.presenters import adding as presenter
from scorekeeper.rules import adding

NAMES = ["Ann", "Ben", "Cat"]
# RULES.md §2.3: the thirty-three events, in the order a row shows them.
LABELS = ["Hit 33", "Hit 66", "Hit 99", "Cross 33", "Cross 66", "Bust", "Empty hand"]


def _rows(rounds: list[adding.RoundEntry], tokens: int = 2) -> list[presenter.SeatRow]:
    rules = adding.resolve_rules("thirty-three", {"tokens": tokens}, NAMES)
    seats = presenter.table_context(adding.score_session(rules, rounds))["seats"]
    assert isinstance(seats, list)
    return seats


def test_every_row_has_a_place_for_every_event() -> None:
    for row in _rows([]):
        assert [cell.label for cell in row.cells] == LABELS
        assert all(cell.open for cell in row.cells)
        assert row.buttons == row.cells


def test_a_player_out_keeps_the_places_of_the_buttons_they_lost() -> None:
    # Cat's empty hand costs 3; she holds 2: she is out.
    rows = _rows([adding.RoundEntry((adding.Event("Cat", "empty"),))])
    cat = rows[2]
    assert cat.standing.out
    assert [cell.label for cell in cat.cells] == LABELS
    assert not cat.buttons
    assert [cell.value for cell in rows[0].buttons][:2] == ["0:hit:33", "0:hit:66"]


def test_the_bust_after_a_cross_66_that_put_the_player_out_keeps_its_place() -> None:
    # One token: the cross 33 takes it, the cross 66 owes one more and puts Cat out; the
    # bust that the same card made is still hers to record (RULES.md §2.1).
    rounds = [
        adding.RoundEntry((adding.Event("Cat", "cross", 33), adding.Event("Cat", "cross", 66)))
    ]
    cat = _rows(rounds, tokens=1)[2]
    assert cat.standing.out
    assert [cell.label for cell in cat.cells] == LABELS
    assert [cell.label for cell in cat.buttons] == ["Bust"]
    assert [cell.open for cell in cat.cells].index(True) == LABELS.index("Bust")


def test_a_finished_game_keeps_every_place_empty() -> None:
    rounds = [
        adding.RoundEntry((adding.Event("Cat", "empty"),)),
        adding.RoundEntry((adding.Event("Ben", "empty"),)),
    ]
    for row in _rows(rounds):
        assert [cell.label for cell in row.cells] == LABELS
        assert not row.buttons


def test_a_game_ended_by_a_cross_66_offers_no_bust_after_it() -> None:
    # Two players of one token: Ben's cross 66 (after his cross 33) puts him out and ends the
    # game; the bust his card made would be his to record, but nobody taps once it is over.
    rules = adding.resolve_rules("thirty-three", {"tokens": 1}, ["Ann", "Ben"])
    rounds = [
        adding.RoundEntry((adding.Event("Ben", "cross", 33), adding.Event("Ben", "cross", 66)))
    ]
    result = adding.score_session(rules, rounds)
    assert result.finished
    seats = presenter.table_context(result)["seats"]
    assert isinstance(seats, list)
    assert all(not row.buttons and len(row.cells) == len(LABELS) for row in seats)
