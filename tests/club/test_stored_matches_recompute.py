"""What is stored above the tables always equals a full recompute from the history.

A club's history of several hundred games is made through the services, with everything that
moves a result: games finished and left unfinished, corrections of old games, undone deals,
abandoned, resumed, deleted and restored sessions, a seat taken over, club nights (one ended
early, one corrected after its end, one deleted) and two seasons. After it, every stored
record, head to head, rating, night's leaderboard and season's standings is compared with the
same worked out from scratch (tests/recompute.py).
"""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from scorekeeper.club import ratings as club_ratings
from scorekeeper.club.rebuild import rebuild
from scorekeeper.club.seasons import rate_season
from scorekeeper.club_models import NightLine, PlayerRating, RatingsBehind, SeasonLine
from scorekeeper.live import wake
from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night, Season
from scorekeeper.presenters.records import player_record
from scorekeeper.rules import adding, trick
from scorekeeper.services import (
    Who,
    abandon_session,
    add_deal,
    create_adding_session,
    create_session,
    delete_last_deal,
    delete_session,
    edit_deal,
    record_event,
    rename_player,
    replace_player,
    restore_session,
    resume_session,
)
from scorekeeper.services.nights import delete_night, finish_night, start_round
from scorekeeper.services.seasons import create_season
from tests import recompute
from tests.factories import club_night, new_players

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
FIRST_DAY = datetime.date(2026, 9, 1)


def random_deal(names: list[str], rng: random.Random) -> trick.DealEntry:
    """Jokerless Ninety-Nine's nine tricks shared at random, each bid made or missed."""
    cuts = sorted(rng.randint(0, 9) for _ in names[1:])
    won = [b - a for a, b in zip([0, *cuts], [*cuts, 9], strict=True)]
    return trick.DealEntry(
        hands={
            name: trick.HandEntry(tricks=tricks, made=rng.random() < 0.6)
            for name, tricks in zip(names, won, strict=True)
        }
    )


def deal_on(session: GameSession, owner: User, rng: random.Random) -> None:
    fresh = GameSession.objects.with_seats().get(pk=session.pk)
    number = len(fresh.entries()) + 1
    add_deal(
        session=fresh,
        number=number,
        entry=random_deal(fresh.player_names(), rng),
        who=Who(owner),
    )


def bust_on(session: GameSession, owner: User, rng: random.Random) -> None:
    """One bust by a player still in."""
    fresh = GameSession.objects.with_seats().get(pk=session.pk)
    result = adding.score_session(fresh.rules(), fresh.entries())  # type: ignore[arg-type]
    still_in = [standing.player for standing in result.standings if not standing.out]
    event = adding.Event(player=rng.choice(still_in), event="bust")
    record_event(
        session=fresh, state=adding.table_state(result.rounds), event=event, who=Who(owner)
    )


class History:
    """A club's history, made at random but the same every time (its seed)."""

    def __init__(self, owner: User, players: list[Player], seed: int) -> None:
        self.owner, self.players, self.rng = owner, players, random.Random(seed)
        self.sessions: list[GameSession] = []
        self.today = FIRST_DAY

    def day(self) -> datetime.date:
        """A game's day: a few games a day as the days go by, and now and then one entered
        late, on a day gone by (the ratings then rate again every game after it)."""
        if self.rng.random() < 0.3:
            self.today += datetime.timedelta(days=1)
        if self.rng.random() < 0.05:
            return self.today - datetime.timedelta(days=self.rng.randint(1, 30))
        return self.today

    def new_game(self) -> GameSession:
        rng = self.rng
        if rng.random() < 0.7:
            seated = rng.sample(self.players, 3)
            deals = rng.randint(1, 3)
            session = create_session(
                owner=self.owner,
                ruleset="parlett-jokerless",
                options={"match": {"type": "deals", "deals": deals}},
                players=seated,
            )
            GameSession.objects.filter(pk=session.pk).update(played_on=self.day())
            for _ in range(deals if rng.random() < 0.85 else rng.randrange(deals)):
                deal_on(session, self.owner, rng)
        else:
            seated = rng.sample(self.players, rng.choice([3, 4]))
            session = create_adding_session(
                owner=self.owner, ruleset="sudden-death", options={}, players=seated
            )
            GameSession.objects.filter(pk=session.pk).update(played_on=self.day())
            while not GameSession.objects.get(pk=session.pk).finished and rng.random() < 0.95:
                bust_on(session, self.owner, rng)
        self.sessions.append(session)
        return session

    def change_something(self) -> None:
        rng, owner = self.rng, self.owner
        session = GameSession.objects.with_seats().get(pk=rng.choice(self.sessions).pk)
        entries = session.entries()
        kind = rng.random()
        if session.deleted:
            restore_session(session=session, who=Who(owner))
        elif kind < 0.35 and session.family == "trick" and entries:
            number = rng.randint(1, len(entries))  # a correction, however old the game
            deal = session.deals.get(number=number)
            edit_deal(
                session=session,
                number=number,
                revision=deal.revision,
                entry=random_deal(session.player_names(), rng),
                who=Who(owner),
            )
        elif kind < 0.45 and session.family == "trick" and entries:
            delete_last_deal(session=session, number=len(entries), who=Who(owner))
        elif kind < 0.55 and session.family == "trick" and not session.finished:
            deal_on(session, owner, rng)
        elif kind < 0.65:
            delete_session(session=session, who=Who(owner))
        elif kind < 0.75 and not session.finished and not session.abandoned:
            abandon_session(session=session, who=Who(owner), reason="late")
        elif kind < 0.8 and session.abandoned:
            resume_session(session=session, who=Who(owner))
        elif kind < 0.88 and not session.finished and entries:
            outside = [p for p in self.players if p.name not in session.player_names()]
            replace_player(
                session=session,
                position=rng.randrange(len(session.player_names())),
                newcomer=rng.choice(outside),
                played=len(entries),
                statement="",
                who=Who(owner),
            )


def play_night(
    owner: User, players: list[Player], day: int, rounds: int, rng: random.Random, planned: int = 0
) -> Night:
    """A night of `planned` rounds (`rounds` if 0), `rounds` of them played."""
    night = club_night(
        owner,
        players,
        name=f"Night {day}",
        played_on=FIRST_DAY + datetime.timedelta(days=day),
        deals=2,
        rounds=planned or rounds,
    )
    for _ in range(rounds):
        night = start_round(night=night)
        tables = list(GameSession.objects.filter(night=night, night_round=night.round))
        rng.shuffle(tables)  # the tables finish in any order
        for table in tables:
            for _deal in range(2):
                deal_on(table, owner, rng)
    return night


def stored_ratings(owner: User) -> dict[tuple[str, int], tuple[float, float, int]]:
    return {
        (rating.family, rating.player_id): (rating.mu, rating.sigma, rating.games)
        for rating in PlayerRating.objects.filter(owner=owner)
    }


def recomputed_ratings(owner: User) -> dict[tuple[str, int], tuple[float, float, int]]:
    return {
        (family, player): (rating.mu, rating.sigma, rating.games)  # type: ignore[misc]
        for family, rated in recompute.ratings(owner.pk).items()
        for player, rating in rated.items()
    }


def run_tasks() -> None:
    """Run the tasks the changes queued, as the worker runs them."""
    for behind in RatingsBehind.objects.all():
        club_ratings.bring_up_to_date.call(behind.owner_id, behind.family)
    for season in Season.objects.filter(ratings_behind=True):
        rate_season.call(season.pk)


def assert_in_step(owner: User) -> None:
    run_tasks()
    assert not RatingsBehind.objects.exists()
    stored, worked_out = stored_ratings(owner), recomputed_ratings(owner)
    assert stored.keys() == worked_out.keys()
    for key, (mu, sigma, games) in worked_out.items():
        assert stored[key] == (pytest.approx(mu), pytest.approx(sigma), games), key
    for player in Player.objects.filter(owner=owner):
        record = player_record(player)
        (sessions, finished, won), counts, rivals = recompute.record(player)
        assert (record.sessions, record.finished, record.won) == (sessions, finished, won)
        stored_counts = {
            "deals": record.deals, "points": record.points, "made": record.made,
            "premiums_tried": record.premiums_tried, "premiums_made": record.premiums_made,
            "rounds": record.rounds, "tokens_lost": record.tokens_lost,
            "eliminated": record.eliminated,
            **{f"bid:{bid}": n for bid, n in record.bids.items()},
        }  # fmt: skip
        assert {name: n for name, n in stored_counts.items() if n} == counts, player.name
        assert {
            rival.opponent: (rival.sessions, rival.ahead, rival.behind, rival.level)
            for rival in record.rivals()
        } == rivals, player.name
    for night in Night.objects.filter(owner=owner):
        lines = [
            (line.player.name, line.value, line.rank, line.rounds, line.byes, line.firsts)
            for line in NightLine.objects.filter(night=night).select_related("player")
        ]
        assert lines == recompute.night_lines(night), night.name
    for season in Season.objects.filter(owner=owner):
        lines = [
            (line.player.name, line.value, line.rank, line.counted, line.nights, line.games)
            for line in SeasonLine.objects.filter(season=season).select_related("player")
        ]
        worked_out_lines = recompute.season_lines(season)
        assert lines == [line[:6] for line in worked_out_lines], season.name
        rated = [
            line.rating for line in SeasonLine.objects.filter(season=season).order_by("position")
        ]
        assert rated == [pytest.approx(line[6]) for line in worked_out_lines], season.name


def test_a_club_s_history_stored_as_it_changes_equals_its_recompute(alice: User) -> None:
    players = new_players(alice, NAMES)
    rng = random.Random(7)
    history = History(alice, players, seed=11)
    autumn, whole = FIRST_DAY + datetime.timedelta(days=45), FIRST_DAY + datetime.timedelta(120)
    for season in (
        Season(name="Autumn", family="trick", starts=FIRST_DAY, ends=autumn, best_of=2),
        Season(name="All", family="trick", starts=FIRST_DAY, ends=whole, with_sessions=True),
        Season(name="Busts", family="adding", starts=FIRST_DAY, ends=whole, with_sessions=True),
    ):
        create_season(owner=alice, season=season)
    for _ in range(100):
        history.new_game()
    night = play_night(alice, players[:9], day=10, rounds=2, rng=rng)
    finish_night(night=night)
    early = play_night(alice, players[:9], day=20, rounds=1, rng=rng, planned=3)
    early = start_round(night=early)
    deal_on(GameSession.objects.filter(night=early, night_round=2).first(), alice, rng)
    finish_night(night=early, reason="The hall closed", who=Who(alice))
    for _ in range(100):
        history.new_game()
    for _ in range(120):
        history.change_something()
    assert_in_step(alice)
    # A correction at a night's table after its end, a renamed player, a deleted night.
    table = GameSession.objects.with_seats().filter(night=night, finished=True).first()
    assert table is not None
    edit_deal(
        session=table,
        number=1,
        revision=table.deals.get(number=1).revision,
        entry=random_deal(table.player_names(), rng),
        who=Who(alice),
    )
    rename_player(players[0], "Annabel")
    gone = play_night(alice, players[:9], day=30, rounds=1, rng=rng)
    delete_night(night=gone)
    for _ in range(60):
        history.change_something()
    assert GameSession.objects.filter(owner=alice).count() > 210
    assert_in_step(alice)


def test_a_long_replay_runs_as_a_task_and_the_pages_say_so(
    alice: User, alice_client: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = new_players(alice, NAMES[:4])
    history = History(alice, players, seed=3)
    for _ in range(12):
        session = history.new_game()
        while not GameSession.objects.get(pk=session.pk).finished:
            if session.family == "trick":
                deal_on(session, alice, history.rng)
            else:
                bust_on(session, alice, history.rng)
    oldest = min(
        GameSession.objects.filter(owner=alice, family="trick").with_seats(),
        key=lambda session: (session.played_on, session.created),
    )
    settings_in_request = club_ratings.IN_REQUEST
    club_ratings.IN_REQUEST = 2
    try:
        with django_capture_on_commit_callbacks() as callbacks:
            edit_deal(
                session=oldest,
                number=1,
                revision=oldest.deals.get(number=1).revision,
                entry=random_deal(oldest.player_names(), history.rng),
                who=Who(alice),
            )
        assert RatingsBehind.objects.filter(owner=alice, family="trick").exists()
        page = alice_client.get(f"/players/{players[0].pk}/").text
        assert "The ratings are being brought up to date" in page
        # The task, as the worker runs it.
        club_ratings.bring_up_to_date.call(alice.pk, "trick")
        # One callback, the task's, besides the stream watchers' wake (on SQLite, where some
        # process's watcher listens).
        assert (
            len([call for call in callbacks if getattr(call, "func", None) is not wake.send]) == 1
        )
    finally:
        club_ratings.IN_REQUEST = settings_in_request
    assert_in_step(alice)
    assert "being brought up to date" not in alice_client.get(f"/players/{players[0].pk}/").text
    rebuild(alice.pk)  # worked out again from the history: the same rows
    assert_in_step(alice)


def test_a_table_finishing_after_a_later_one_rates_its_own_game_alone(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round's tables share no player: the table that finishes last, though seated before
    the others (its game earlier in the order of games), rates its own game again and leaves
    theirs as they are, and every rating still equals the recompute."""
    players = new_players(alice, NAMES[:9])
    rng = random.Random(5)
    night = start_round(night=club_night(alice, players, name="Friday", deals=2, rounds=1))
    first, *others = GameSession.objects.filter(night=night).order_by("created", "pk")
    for table in others:
        for _deal in range(2):
            deal_on(table, alice, rng)
    rated: list[int] = []
    replay = club_ratings.replay

    def counted(*args: Any, **kwargs: Any) -> int:
        rated.append(replay(*args, **kwargs))
        return rated[-1]

    monkeypatch.setattr(club_ratings, "replay", counted)
    for _deal in range(2):
        deal_on(first, alice, rng)
    assert rated == [1]  # its game alone, though two games come after it
    assert_in_step(alice)
