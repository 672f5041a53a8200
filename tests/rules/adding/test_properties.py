"""Invariants of the adding game over random sessions of every preset (hypothesis), checked
against a reference model written again from RULES.md §2 without the module's data."""

import json
from collections.abc import Sequence
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.adding import (
    CARD_TABLES,
    EVENT_KINDS,
    PRESETS,
    TARGETED,
    AddingResult,
    AddingRules,
    Event,
    InvalidRounds,
    RoundEntry,
    add_event,
    allowed_events,
    applicable_options,
    check_rounds,
    evaluate,
    inapplicable,
    record,
    resolve_rules,
    score_session,
)
from scorekeeper.scoresheet import (
    AddingSheet,
    InvalidScoresheet,
    dumps_scoresheet,
    loads_scoresheet,
    parse_scoresheet,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

OPTIONS = {
    "tokens": st.integers(1, 5),
    "out": st.sampled_from(["at-zero", "owing"]),
    "on_69": st.sampled_from(["nothing", "token", "reset"]),
    "display": st.sampled_from(["tokens", "dollar-bill"]),
    "bust": st.sampled_from(["ends-round", "out-of-round"]),
}


@st.composite
def rules_st(
    draw: st.DrawFn,
    names: tuple[str, ...] = NAMES,
    tokens: st.SearchStrategy[int] = OPTIONS["tokens"],
) -> AddingRules:
    """Any preset, with house rules drawn for any options that apply to it."""
    preset = draw(st.sampled_from(list(PRESETS.values())))
    count = draw(st.sampled_from([count for count in preset.players if count <= len(names)]))
    options: dict[str, object] = {}
    for option in applicable_options(preset):
        if draw(st.booleans()):
            name = option.name
            if name == "card_table":
                options[name] = draw(st.sampled_from(list(CARD_TABLES)))
            elif name == "on_69" and preset.scoring not in ("tokens", "wilson"):
                options[name] = draw(st.sampled_from(["nothing", "reset"]))  # no token to gain
            else:
                options[name] = draw(tokens if name == "tokens" else OPTIONS[name])
    if options.get("display") == "dollar-bill" and inapplicable(preset, "tokens") is None:
        options.setdefault("tokens", draw(tokens))  # a bill has 5 folds at most
    return resolve_rules(preset.id, options, names[:count])


CROSS_66 = next(rule for rule in PRESETS["thirty-three"].events if rule.label == "Cross 66")


@st.composite
def session_st(draw: st.DrawFn) -> tuple[AddingRules, tuple[RoundEntry, ...]]:
    """A valid session: every tap is one the module offers, recorded where it says."""
    rules = draw(rules_st())
    rounds: tuple[RoundEntry, ...] = ()
    for _ in range(draw(st.integers(0, 40))):
        offered = allowed_events(rules, rounds)
        choices = [(player, rule) for player, buttons in offered.items() for rule in buttons]
        if not choices:
            break
        # A player put out by a cross 66 may only bust (one card crossing 66 and 99): often do.
        only_bust = [
            (player, buttons[0]) for player, buttons in offered.items() if len(buttons) == 1
        ]
        if only_bust and draw(st.booleans()):
            choices = only_bust
        elif CROSS_66 in rules.events and draw(st.integers(0, 3)) == 0:
            # Steer towards that case: a player one payment from going out crosses 66.
            last = 0 if rules.out == "owing" else 1
            standings = score_session(rules, rounds).standings
            edge = [(s.player, CROSS_66) for s in standings if not s.out and s.tokens == last]
            choices = [choice for choice in edge if choice[1] in offered[choice[0]]] or choices
        player, rule = draw(st.sampled_from(choices))
        tokens = draw(st.sampled_from([-2, -1, 1, 2])) if rule.event == "adjust" else None
        rounds = add_event(rules, rounds, Event(player, rule.event, rule.target, tokens))
    return rules, rounds


# The reference model: RULES.md §2.3 written out again, (cost, who pays, ends the round).
BUST = {("bust", None): (1, "self", True)}
THIRTY_THREE = {
    ("hit", 33): (1, "others", False),
    ("hit", 66): (1, "others", False),
    ("hit", 99): (2, "others", True),
    ("cross", 33): (1, "self", False),
    ("cross", 66): (1, "self", False),
    ("bust", None): (2, "self", True),
    ("empty", None): (3, "self", True),
}
BORDERS = {
    ("border", 33): (1, "self", False),
    ("border", 66): (1, "self", False),
    ("border", 99): (1, "self", True),
}
COSTS = {
    "ninety-nine": BUST,
    "ninety-nine-standard": BUST,
    "dollar-bill": BUST,
    "on-honor": BUST,
    "thirty-three": THIRTY_THREE,
    "wilson": BORDERS,
    "one-hundred": BUST,
    "ninety-eight": BUST,
    "ninety-eight-arizona": {
        ("bust", None): (0, "sit out", False),
        ("win", None): (1, "gain", True),
    },
    "michigan": {**BUST, ("trips", None): (1, "others", True)},
    "sudden-death": BUST,
    "custom": {
        **BUST,
        **THIRTY_THREE,
        ("bust", None): (1, "self", True),
        **BORDERS,
        ("trips", None): (1, "others", True),
        ("win", None): (0, "none", True),
    },
}
START = {"ninety-nine": 5, "dollar-bill": 4, "michigan": 4, "thirty-three": 9, "sudden-death": 1}
OWING = ("on-honor", "thirty-three")
COUNTS = {"wilson": "wilson", "ninety-eight": "drinks", "ninety-eight-arizona": "rounds"}


def reference(preset: str, options: dict[str, object], players: Sequence[str], rounds):
    """What RULES.md §2 says a valid session comes to, worked out plainly."""
    costs = dict(COSTS[preset])
    if options.get("bust") == "out-of-round":
        costs[("bust", None)] = (0, "sit out", False)
        costs.setdefault(("win", None), (0, "none", True))
    if options.get("on_69") == "token":
        costs[("hit", 69)] = (1, "gain", False)
    counting = COUNTS.get(preset, "tokens")
    start = START.get(preset, 3)
    if preset == "ninety-nine" and len(players) > 4:
        start = 3
    start = options.get("tokens", start)
    owing = options.get("out", "owing" if preset in OWING else "at-zero") == "owing"
    tokens = dict.fromkeys(players, start)
    went_out: dict[str, tuple[int, int]] = {}
    score = dict.fromkeys(players, 0)
    seen, dealer, finished, winners = [], None, False, []
    for r, entry in enumerate(rounds):
        if dealer is None:
            dealer = players[0]
        else:
            seat = players.index(dealer)
            dealer = next(
                players[(seat + step) % len(players)]
                for step in range(1, len(players) + 1)
                if players[(seat + step) % len(players)] not in went_out
            )
        this = dict.fromkeys(players, start if counting == "wilson" else 0)
        ended = False
        cross_out = None
        for e, event in enumerate(entry.events):
            key = (event.event, event.target)
            if event.event == "bust" and event.player == cross_out:
                ended = ended or costs[key][2]
                cross_out = None
                continue
            cross_out = None
            if event.event == "adjust":
                amount, payers, gain = event.tokens, [event.player], True
            else:
                amount, pays, ends = costs[key]
                ended = ended or ends
                gain = pays == "gain"
                payers = [event.player] if pays in ("self", "gain") else []
                if pays == "others":
                    seat = players.index(event.player)
                    payers = [players[(seat + k) % len(players)] for k in range(1, len(players))]
            for payer in payers:
                if payer in went_out:
                    continue
                delta = amount if gain else -amount  # an adjustment gains its (signed) amount
                if counting != "tokens":
                    this[payer] += (
                        -delta if counting == "drinks" and event.event != "adjust" else delta
                    )
                elif delta >= 0:
                    tokens[payer] += delta
                elif owing:
                    if -delta > tokens[payer]:
                        tokens[payer] = 0
                        went_out[payer] = (r, e)
                    else:
                        tokens[payer] += delta
                else:
                    tokens[payer] = max(0, tokens[payer] + delta)
                    if tokens[payer] == 0:
                        went_out[payer] = (r, e)
            if key == ("cross", 66) and went_out.get(event.player) == (r, e):
                cross_out = event.player
            if counting == "tokens" and len(players) - len(went_out) == 1 and not finished:
                finished = True
                winners = [p for p in players if p not in went_out]
        complete = ended or finished
        if complete and counting != "tokens":
            for player in players:
                score[player] += this[player]
            if counting == "wilson" and max(score.values()) >= 15:
                finished = True
                best = max(score.values())
                winners = [p for p in players if score[p] == best]
        seen.append(
            {
                "dealer": dealer,
                "complete": complete,
                "tokens": dict(this) if counting == "wilson" else dict(tokens),
                "out": sorted(went_out),
                "score": dict(score),
            }
        )
    if counting == "tokens":
        keys = {
            p: (1, -went_out[p][0], -went_out[p][1]) if p in went_out else (0, -tokens[p], 0)
            for p in players
        }
    else:
        sign = 1 if counting == "drinks" else -1
        keys = {p: (sign * score[p],) for p in players}
    order = sorted(players, key=lambda p: keys[p])
    ranks = [(p, 1 + sum(keys[q] < keys[p] for q in players)) for p in order]
    return seen, finished, winners, ranks


def options_of(rules: AddingRules) -> dict[str, object]:
    return rules.overrides_data()


@SETTINGS
@given(session_st())
def test_the_module_agrees_with_the_reference_model(session):
    rules, rounds = session
    result = score_session(rules, rounds)
    seen, finished, winners, ranks = reference(
        rules.preset.id, options_of(rules), rules.players, rounds
    )
    assert [played.dealer for played in result.rounds] == [row["dealer"] for row in seen]
    assert [played.complete for played in result.rounds] == [row["complete"] for row in seen]
    if rules.scoring == "wilson":
        assert [played.points for played in result.rounds] == [row["tokens"] for row in seen]
    if rules.uses_tokens:
        assert [played.tokens for played in result.rounds] == [row["tokens"] for row in seen]
    else:
        assert [played.tokens for played in result.rounds] == [None] * len(seen)
    assert [sorted(played.eliminated) for played in result.rounds] == [row["out"] for row in seen]
    if rules.scoring == "wilson":
        assert [played.totals for played in result.rounds] == [row["score"] for row in seen]
    if rules.scoring in ("drinks", "rounds"):
        assert [played.tally for played in result.rounds] == [row["score"] for row in seen]
    assert result.finished is finished
    assert list(result.winners) == winners
    assert [(standing.player, standing.rank) for standing in result.standings] == ranks


@SETTINGS
@given(session_st())
def test_tokens_never_go_below_zero_for_players_still_in(session):
    rules, rounds = session
    result = score_session(rules, rounds)
    for played in result.rounds:
        if not rules.uses_tokens:
            assert played.eliminated == ()
            continue
        assert played.tokens is not None
        for player, tokens in played.tokens.items():
            if player in played.eliminated:
                assert tokens == 0
            else:
                assert tokens >= (1 if rules.out == "at-zero" else 0)


@SETTINGS
@given(session_st())
def test_a_finished_token_game_has_exactly_one_winner(session):
    rules, rounds = session
    result = score_session(rules, rounds)
    if rules.scoring in ("drinks", "rounds"):
        assert not result.finished and result.winners == ()
    if not result.finished:
        assert result.next is not None and result.winners == ()
        return
    assert result.next is None and not result.current_round_open
    if rules.uses_tokens:
        assert len(result.winners) == 1
        still_in = [standing.player for standing in result.standings if not standing.out]
        assert still_in == list(result.winners)
        assert [standing.rank for standing in result.standings].count(1) == 1
    assert all(standing.rank == 1 for standing in result.standings[: len(result.winners)])


@SETTINGS
@given(session_st())
def test_totals_and_tallies_are_sums_of_the_changes(session):
    rules, rounds = session
    result = score_session(rules, rounds)
    running = dict.fromkeys(rules.players, 0)
    tokens = dict.fromkeys(rules.players, rules.tokens or 0)
    for played in result.rounds:
        changes = dict.fromkeys(rules.players, 0)
        for event in played.events:
            for player, change in event.changes.items():
                changes[player] += change
        if rules.uses_tokens:
            tokens = {player: tokens[player] + changes[player] for player in rules.players}
            assert played.tokens == tokens
            continue
        if rules.scoring == "wilson":
            assert played.points == {p: (rules.tokens or 0) + changes[p] for p in rules.players}
            if played.complete:
                running = {p: running[p] + played.points[p] for p in rules.players}
            assert played.totals == running
        else:
            if played.complete:
                running = {p: running[p] + changes[p] for p in rules.players}
            assert played.tally == running
    totals = {standing.player: standing.total for standing in result.standings}
    if not rules.uses_tokens:
        assert totals == running


@SETTINGS
@given(session_st())
def test_standings_and_dealers_follow_the_rules(session):
    rules, rounds = session
    result = score_session(rules, rounds)
    ranks = [standing.rank for standing in result.standings]
    assert ranks == sorted(ranks) and (not ranks or ranks[0] == 1)
    assert sorted(standing.player for standing in result.standings) == sorted(rules.players)
    out_before: tuple[str, ...] = ()
    for played in result.rounds:
        assert played.dealer not in out_before
        out_before = played.eliminated
    assert [played.number for played in result.rounds] == list(range(1, len(rounds) + 1))
    assert not any(not played.complete for played in result.rounds[:-1])
    if result.next is not None:
        assert result.next.dealer not in out_before or result.current_round_open
        expected = len(rounds) if result.current_round_open else len(rounds) + 1
        assert result.next.number == expected


# Invalid rounds are always rejected, and nothing crashes


def _mutations(rules: AddingRules, rounds: tuple[RoundEntry, ...], result: AddingResult):
    """Ways to make the session invalid: (name, rounds)."""
    found = []
    events = [(r, e) for r, entry in enumerate(rounds) for e in range(len(entry.events))]

    def with_event(r: int, e: int, event: Event | None) -> tuple[RoundEntry, ...]:
        listed = list(rounds[r].events)
        if event is None:
            del listed[e]
        else:
            listed[e] = event
        return (*rounds[:r], RoundEntry(tuple(listed)), *rounds[r + 1 :])

    def inserted(r: int, e: int, event: Event) -> tuple[RoundEntry, ...]:
        listed = list(rounds[r].events)
        listed.insert(e, event)
        return (*rounds[:r], RoundEntry(tuple(listed)), *rounds[r + 1 :])

    kinds = {rule.event for rule in rules.events} | {"adjust"}
    for r, e in events:
        event = rounds[r].events[e]
        found.append(("unknown player", with_event(r, e, replace(event, player="Zed"))))
        missing = [kind for kind in EVENT_KINDS if kind not in kinds] or ["jump"]
        unplayed = replace(event, event=missing[0], target=None, tokens=None)
        found.append(("event not in the preset", with_event(r, e, unplayed)))
        if event.event in TARGETED:
            found.append(("no target", with_event(r, e, replace(event, target=None))))
            found.append(("wrong target", with_event(r, e, replace(event, target=50))))
        else:
            found.append(("a target", with_event(r, e, replace(event, target=33))))
        if event.event == "adjust":
            found.append(("adjust of 0", with_event(r, e, replace(event, tokens=0))))
        else:
            found.append(("a number", with_event(r, e, replace(event, tokens=1))))
    for r, played in enumerate(result.rounds):
        ending = [e for e, event in enumerate(rounds[r].events) if _ends(rules, event)]
        if ending:
            rule = rules.events[0]
            late = Event(rules.players[0], rule.event, rule.target)
            found.append(("after the round ended", inserted(r, ending[0] + 1, late)))
            if r < len(rounds) - 1:
                kept = tuple(event for event in rounds[r].events if not _ends(rules, event))
                left_open = (*rounds[:r], RoundEntry(kept), *rounds[r + 1 :])
                found.append(("a round left open", left_open))
        for e, event in enumerate(rounds[r].events):
            if event.event == "bust" and not _ends(rules, event):
                again = Event(event.player, "adjust", tokens=1)
                found.append(("sitting out", inserted(r, e + 1, again)))
        for player in played.eliminated:
            adjust = Event(player, "adjust", tokens=1)
            later = (*rounds, RoundEntry((adjust,)))
            found.append(("an eliminated player", later))
    if result.finished:
        found.append(("a round after the end", (*rounds, RoundEntry(()))))
    return found


def _ends(rules: AddingRules, event: Event) -> bool:
    return any(
        rule.ends_round and (rule.event, rule.target) == (event.event, event.target)
        for rule in rules.events
    )


@SETTINGS
@given(session_st(), st.data())
def test_invalid_rounds_are_always_rejected(session, data):
    rules, rounds = session
    result = score_session(rules, rounds)
    mutations = _mutations(rules, rounds, result)
    if not mutations:
        return
    name, bad = data.draw(st.sampled_from(mutations), label="mutation")
    problems = check_rounds(rules, bad)
    assert problems, name
    try:
        score_session(rules, bad)
    except InvalidRounds as error:
        assert error.problems == problems
    else:  # pragma: no cover - the assertion above already failed
        raise AssertionError(name)


ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-200, 200),
    st.sampled_from([33, 66, 69, 99]),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.sampled_from(list(NAMES) + list(EVENT_KINDS)),
    st.lists(st.integers(), max_size=2),
)


@SETTINGS
@given(
    rules_st(),
    st.lists(
        st.lists(st.builds(Event, ANYTHING, ANYTHING, ANYTHING, ANYTHING), max_size=5), max_size=4
    ),
)
def test_random_events_never_crash(rules, raw):
    rounds = [RoundEntry(tuple(events)) for events in raw]
    problems = check_rounds(rules, rounds)
    try:
        result = score_session(rules, rounds)
    except InvalidRounds as error:
        assert error.problems == problems and problems
    else:
        assert problems == [] and len(result.rounds) == len(rounds)
    assert list(allowed_events(rules, rounds)) == list(rules.players)
    if rounds:
        add_event(
            rules, rounds, rounds[-1].events[0] if rounds[-1].events else Event("Ann", "bust")
        )


@SETTINGS
@given(session_st(), st.data())
def test_recording_a_tap_in_one_pass_agrees_with_checking_it_all_again(session, data):
    # A tap goes on from where the table is (adding.record); it must come out exactly as
    # placing it (add_event) and checking every round again (evaluate) would.
    rules, rounds = session
    player = data.draw(st.sampled_from(rules.players))
    kind = data.draw(st.sampled_from(["adjust", *(rule.event for rule in rules.events)]))
    targets = [rule.target for rule in rules.events if rule.event == kind] or [None]
    target = data.draw(st.sampled_from(targets))
    tokens = data.draw(st.sampled_from([-1, 2])) if kind == "adjust" else None
    event = Event(player, kind, target, tokens)
    placed, found = record(rules, rounds, event)
    assert placed == add_event(rules, rounds, event)
    assert found == evaluate(rules, placed)


# The scoresheet


# Titles the bounds allow (RULES.md §3): no control characters, separators or bidi overrides.
titles = st.text(
    st.characters(
        exclude_categories=("Cc", "Cs", "Co", "Zl", "Zp"),
        exclude_characters="\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
    ),
    max_size=10,
)


@SETTINGS
@given(session_st(), titles, st.dates())
def test_export_import_export_is_identical(session, title, played_on):
    rules, rounds = session
    sheet = AddingSheet.build(
        ruleset=rules.preset.id,
        options=rules.overrides_data(),
        players=rules.players,
        rounds=rounds,
        title=title,
        played_on=played_on,
    )
    text = dumps_scoresheet(sheet)
    again = loads_scoresheet(text)
    assert again == sheet
    assert dumps_scoresheet(again) == text


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-100, 100), st.text(max_size=5)),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
PLACES = [
    "ruleset",
    "options",
    "players",
    "rounds",
    "title",
    "played_on",
    "round",
    "events",
    "event",
    "player",
    "kind",
    "target",
    "tokens",
]


@SETTINGS
@given(session_st(), st.sampled_from(PLACES), JSON)
def test_a_damaged_file_is_read_or_rejected_never_crashes(session, place, junk):
    rules, rounds = session
    data = json.loads(
        dumps_scoresheet(
            AddingSheet.build(
                ruleset=rules.preset.id,
                options=rules.overrides_data(),
                players=rules.players,
                rounds=rounds,
            )
        )
    )
    if place in ("ruleset", "options", "players", "rounds", "title", "played_on"):
        data[place] = junk
    elif not data["rounds"]:
        data["rounds"] = [junk]
    elif place == "round":
        data["rounds"][-1] = junk
    elif place == "events" or not data["rounds"][-1]["events"]:
        data["rounds"][-1]["events"] = junk
    else:
        event = data["rounds"][-1]["events"][-1]
        key = {"event": None, "kind": "event"}.get(place, place)
        if key is None:
            data["rounds"][-1]["events"][-1] = junk
        else:
            event[key] = junk
    try:
        sheet = parse_scoresheet(data)
    except InvalidScoresheet as error:
        assert error.problems
    else:
        assert isinstance(sheet, AddingSheet)
        dumps_scoresheet(sheet)


def test_the_card_tables_used_by_the_presets_exist():
    assert {preset.defaults["card_table"] for preset in PRESETS.values()} <= set(CARD_TABLES)
