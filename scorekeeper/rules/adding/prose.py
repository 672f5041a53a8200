"""What a rule sheet of the adding game says (RULES.md §2), in words: the rule prose.

Everything here comes from the rules themselves: the presets, their options and events, and
the card tables. The cheat sheets, score pads and the table print these lines.
"""

from collections.abc import Sequence

from scorekeeper.rules.adding.entries import Event
from scorekeeper.rules.adding.events import EventRule
from scorekeeper.rules.adding.options import DOLLAR_BILL_CORNERS, WILSON_TARGET
from scorekeeper.rules.adding.presets import AddingPreset, AddingRules, default_options


def describe_event(rules: AddingRules, rule: EventRule) -> str:
    """An event in plain words, for the cheat sheet: 'Hit 99: everyone else pays 2 tokens; the
    round ends.'"""
    if rule.event == "adjust":
        return f"Adjust: a correction agreed at the table, so many {rules.units[1]} up or down."
    amount = rules.amount(rule.cost)
    if rules.scoring == "drinks":
        effect = {"self": f"you take {amount}", "others": f"everyone else takes {amount}"}
    else:
        effect = {"self": f"you lose {amount}", "others": f"everyone else loses {amount}"}
    effect["gain"] = f"you gain {amount}"
    if rule.event == "bust" and not rule.ends_round:
        text = "you are out for the rest of the round"
    else:
        text = effect.get(rule.pays, "nothing to pay")
    ending = "; the round ends." if rule.ends_round else "."
    return f"{rule.label}: {text}{ending}"


def tell_event(rules: AddingRules, rule: EventRule, event: Event, how: str = "") -> str:
    """An event the count assistant proposes, in one plain sentence: 'Ben hit 33: everyone
    else pays 1 token.' `how` says what made it, in brackets after the deed ('the K would
    make 108')."""
    player, target = event.player, event.target
    deeds = {
        "hit": f"{player} hit {target}",
        "cross": f"{player} went past {target}",
        "border": f"{player} crossed {target}/{(target or 0) + 1}",
        "bust": f"{player} busts",
        "empty": f"{player} has no card to play",
        "trips": f"{player} laid down three of a kind",
        "win": f"{player} is the last to play",
    }
    deed = deeds.get(rule.event, f"{player}: {rule.label.lower()}")
    if how:
        deed += f" ({how})"
    amount = rules.amount(rule.cost)
    pays = "takes" if rules.scoring == "drinks" else "pays"
    if rule.event == "bust" and not rule.ends_round:
        effect = f"{player} sits out the rest of the round"
    else:
        effect = {
            "self": f"{player} {pays} {amount}",
            "others": f"everyone else {pays} {amount}",
            "gain": f"{player} gains {amount}",
        }.get(rule.pays, "")
    ending = "the round ends" if rule.ends_round else ""
    if effect and ending:
        return f"{deed}: {effect}; {ending}."
    return f"{deed}: {effect or ending}." if effect or ending else f"{deed}."


def show_tokens(rules: AddingRules, count: int) -> str:
    """A player's tokens in words: '3 tokens', or with a dollar bill the folds left, '3 folds
    left' (the table page speaks of folds left throughout; bill_shows says what the bill
    looks like)."""
    if rules.display != "dollar-bill" or rules.tokens is None:
        return rules.amount(count)
    return f"{rules.amount(count)} left"


def bill_shows(rules: AddingRules, count: int) -> str:
    """What a dollar bill looks like with `count` folds left: the folds made so far, corners
    first, then the halving fold ('2 corners folded')."""
    assert rules.tokens is not None
    folds = rules.tokens - count
    if folds < 0:
        return f"no folds, {rules.amount(-folds)} to spare"
    if folds == 0:
        return "no folds"
    corners = min(folds, DOLLAR_BILL_CORNERS)
    text = "1 corner folded" if corners == 1 else f"{corners} corners folded"
    return f"{corners} corners and the half folded" if folds > DOLLAR_BILL_CORNERS else text


def usual_tokens(preset: AddingPreset) -> str:
    """What a table leaving `tokens` alone gets: 'Leave empty for the usual 5 (3 with more than
    4 players).'"""
    usual = default_options(preset, min(preset.players))["tokens"]
    text = f"Leave empty for the usual {usual}"
    if preset.tokens_over_four is not None:
        text += f" ({preset.tokens_over_four} with more than 4 players)"
    return text + "."


def number_help(preset: AddingPreset, name: str) -> str:
    """The hint beside a number option left empty for the preset's own (the tokens)."""
    return usual_tokens(preset) if name == "tokens" else ""


def cards_held(preset: AddingPreset) -> str:
    counts = [str(count) for count in preset.cards_held]
    text = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"
    return f"{text} cards each" + (" (agree which before you start)" if len(counts) > 1 else "")


def token_lines(rules: AddingRules) -> list[str]:
    """What the players hold and when they are out (RULES.md §2.2)."""
    preset = rules.preset
    if rules.scoring == "wilson":
        return [
            f"Every round each player starts with {rules.amount(rules.tokens or 0)}; each border "
            "costs one.",
            "When the round ends, what is left (it may be below 0) is added to your running "
            "score. Nobody is eliminated.",
        ]
    if rules.scoring == "drinks":
        return ["No tokens and nobody is eliminated: the scorer counts the drinks."]
    if rules.scoring == "rounds":
        return ["No tokens and nobody is eliminated: the scorer counts the rounds won."]
    lines = [f"Each player starts with {rules.amount(rules.tokens or 0)}."]
    over_four = preset.tokens_over_four
    if over_four is not None and rules.tokens == preset.defaults["tokens"]:
        lines[0] = lines[0][:-1] + f" ({over_four} each when more than 4 play)."
    if rules.out == "at-zero":
        lines.append(f"You are out as soon as you have no {rules.units[1]} left.")
    else:
        lines.append(
            f"At 0 you stay in, on your honour; you are out when you must pay "
            f"a {rules.units[0]} you do not have."
        )
    if any(rule.pays == "others" for rule in rules.events):
        lines.append(
            "When everyone else pays, they pay in seat order, starting left of the player."
        )
    lines.append("Costs are paid the moment they happen, so you can go out in mid-round.")
    return lines


def fold_steps(rules: AddingRules) -> list[tuple[int, str]]:
    """A dollar bill's folds: (tokens left, what the bill shows), from the start down to 0."""
    if rules.display != "dollar-bill" or rules.tokens is None:
        return []
    return [(count, bill_shows(rules, count)) for count in range(rules.tokens, -1, -1)]


def round_lines(rules: AddingRules) -> list[str]:
    """Who deals, when a round ends, and how the game ends."""
    if rules.uses_tokens:
        lines = ["Seat 1 deals the first round; the deal passes to the next player still in."]
    else:
        lines = ["Seat 1 deals the first round; the deal passes to the left."]
    if rules.scoring == "wilson":
        lines.append(f"The round ends when the total passes {rules.limit} (the border at 99).")
        lines.append(
            f"When a round ends with anyone on {WILSON_TARGET} or more, the highest "
            "running score wins (ties share the win)."
        )
        return lines
    enders = [rule.label.lower() for rule in rules.events if rule.ends_round]
    if enders:
        lines.append(f"A round ends with {_or_names(enders)}; the next starts again from 0.")
    events = {(rule.event, rule.target) for rule in rules.events}
    if ("cross", 66) in events and ("bust", None) in events:
        lines.append("One card that goes past 66 and over 99 at once is a cross 66 and a bust.")
    if rules.scoring == "drinks":
        lines.append("Nobody goes out; play until you stop. The fewest drinks leads.")
    elif rules.scoring == "rounds":
        lines.append(
            "A bust puts you out of that round only. Nobody goes out of the game; play until "
            "you stop. The most rounds won leads."
        )
    else:
        lines.append("The last player left wins.")
    return lines


def _or_names(words: Sequence[str]) -> str:
    """'bust', 'bust or trips', 'hit 99, bust or empty hand'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def bust_line(rules: AddingRules) -> str:
    if any(rule.event == "bust" for rule in rules.events):
        return f"If you cannot play without taking the total over {rules.limit}, you bust."
    return f"Nobody busts: the round ends when the total passes {rules.limit}."


def on_69_line(rules: AddingRules) -> str | None:
    if rules.on_69 == "token":
        return f"Make the total exactly 69 and you gain 1 {rules.units[0]}."
    if rules.on_69 == "reset":
        return "Make the total exactly 69 and it goes back to 0."
    return None


def pad_lines(rules: AddingRules) -> list[str]:
    events = [describe_event(rules, rule) for rule in rules.events]
    return [
        f"Limit {rules.limit}. {cards_held(rules.preset).capitalize()}.",
        *token_lines(rules)[:2],
        " ".join(events),
        round_lines(rules)[-1],
    ]
