"""What a rule sheet of the adding game says (RULES.md §2), in words: the rule prose.

Everything here comes from the rules themselves: the presets, their options and events, and
the card tables. The cheat sheets, score pads and the table print these lines.
"""

from collections.abc import Sequence

from scorekeeper.rules.adding.cards import CARD_TABLES
from scorekeeper.rules.adding.entries import Event
from scorekeeper.rules.adding.events import EventRule
from scorekeeper.rules.adding.options import DOLLAR_BILL_CORNERS, WILSON_TARGET
from scorekeeper.rules.adding.presets import AddingPreset, AddingRules, default_options
from scorekeeper.rules.i18n import _, gettext_noop, ngettext


def describe_event(rules: AddingRules, rule: EventRule) -> str:
    """An event in plain words, for the cheat sheet: 'Hit 99: everyone else pays 2 tokens; the
    round ends.'"""
    if rule.event == "adjust":
        return _(_ADJUSTS[rules.units[1]])
    amount = rules.amount(rule.cost)
    if rules.scoring == "drinks":
        effect = {"self": _("you take {amount}"), "others": _("everyone else takes {amount}")}
    else:
        effect = {"self": _("you lose {amount}"), "others": _("everyone else loses {amount}")}
    effect["gain"] = _("you gain {amount}")
    if rule.event == "bust" and not rule.ends_round:
        text = _("you are out for the rest of the round")
    else:
        text = effect.get(rule.pays, _("nothing to pay")).format(amount=amount)
    if rule.ends_round:
        return _("{event}: {effect}; the round ends.").format(event=_(rule.label), effect=text)
    return _("{event}: {effect}.").format(event=_(rule.label), effect=text)


# The adjust event in words, by what the numbers count.
_ADJUSTS = {
    "tokens": gettext_noop("Adjust: a correction agreed at the table, so many tokens up or down."),
    "folds": gettext_noop("Adjust: a correction agreed at the table, so many folds up or down."),
    "game points": gettext_noop(
        "Adjust: a correction agreed at the table, so many game points up or down."
    ),
    "drinks": gettext_noop("Adjust: a correction agreed at the table, so many drinks up or down."),
    "rounds won": gettext_noop(
        "Adjust: a correction agreed at the table, so many rounds won up or down."
    ),
}


def tell_event(rules: AddingRules, rule: EventRule, event: Event, how: str = "") -> str:
    """An event the count assistant proposes, in one plain sentence: 'Ben hit 33: everyone
    else pays 1 token.' `how` says what made it, in brackets after the deed ('the K would
    make 108')."""
    player, target = event.player, event.target
    fields = {"player": player, "target": target, "next": (target or 0) + 1}
    deed = _(_DEEDS[rule.event]) if rule.event in _DEEDS else _("{player}: {event}")
    deed = deed.format(**fields, event=_(rule.label).lower())
    if how:
        deed = _("{deed} ({how})").format(deed=deed, how=how)
    amount = rules.amount(rule.cost)
    if rule.event == "bust" and not rule.ends_round:
        effect = _("{player} sits out the rest of the round")
    elif rules.scoring == "drinks":
        effect = {
            "self": _("{player} takes {amount}"),
            "others": _("everyone else takes {amount}"),
            "gain": _("{player} gains {amount}"),
        }.get(rule.pays, "")
    else:
        effect = {
            "self": _("{player} pays {amount}"),
            "others": _("everyone else pays {amount}"),
            "gain": _("{player} gains {amount}"),
        }.get(rule.pays, "")
    effect = effect.format(player=player, amount=amount)
    if effect and rule.ends_round:
        return _("{deed}: {effect}; the round ends.").format(deed=deed, effect=effect)
    if effect:
        return _("{deed}: {effect}.").format(deed=deed, effect=effect)
    if rule.ends_round:
        return _("{deed}: the round ends.").format(deed=deed)
    return _("{deed}.").format(deed=deed)


# What a player did, for tell_event.
_DEEDS = {
    "hit": gettext_noop("{player} hit {target}"),
    "cross": gettext_noop("{player} went past {target}"),
    "border": gettext_noop("{player} crossed {target}/{next}"),
    "bust": gettext_noop("{player} busts"),
    "empty": gettext_noop("{player} has no card to play"),
    "trips": gettext_noop("{player} laid down three of a kind"),
    "win": gettext_noop("{player} is the last to play"),
}


def show_tokens(rules: AddingRules, count: int) -> str:
    """A player's tokens in words: '3 tokens', or with a dollar bill the folds left, '3 folds
    left' (the table page speaks of folds left throughout; bill_shows says what the bill
    looks like)."""
    if rules.display != "dollar-bill" or rules.tokens is None:
        return rules.amount(count)
    return ngettext("{count} fold left", "{count} folds left", abs(count)).format(count=count)


def bill_shows(rules: AddingRules, count: int) -> str:
    """What a dollar bill looks like with `count` folds left: the folds made so far, corners
    first, then the halving fold ('2 corners folded')."""
    assert rules.tokens is not None
    folds = rules.tokens - count
    if folds < 0:
        spare = ngettext(
            "no folds, {count} fold to spare", "no folds, {count} folds to spare", -folds
        )
        return spare.format(count=-folds)
    if folds == 0:
        return _("no folds")
    corners = min(folds, DOLLAR_BILL_CORNERS)
    if folds > DOLLAR_BILL_CORNERS:
        return _("{corners} corners and the half folded").format(corners=corners)
    return ngettext("1 corner folded", "{corners} corners folded", corners).format(corners=corners)


def usual_tokens(preset: AddingPreset) -> str:
    """What a table leaving `tokens` alone gets: 'Leave empty for the usual 5 (3 with more than
    4 players).'"""
    usual = default_options(preset, min(preset.players))["tokens"]
    if preset.tokens_over_four is not None:
        text = _("Leave empty for the usual {usual} ({over_four} with more than 4 players).")
        return text.format(usual=usual, over_four=preset.tokens_over_four)
    return _("Leave empty for the usual {usual}.").format(usual=usual)


def number_help(preset: AddingPreset, name: str) -> str:
    """The hint beside a number option left empty for the preset's own (the tokens)."""
    return usual_tokens(preset) if name == "tokens" else ""


def deck_line(rules: AddingRules) -> str:
    """Which cards to play with: the card table's pack."""
    if CARD_TABLES[rules.card_table].jokers:
        return _("Cards: a 52-card pack and its two Jokers.")
    return _("Cards: a standard 52-card pack.")


def cards_held(preset: AddingPreset) -> str:
    counts = [str(count) for count in preset.cards_held]
    if len(counts) == 1:
        return ngettext("{count} card each", "{count} cards each", preset.cards_held[0]).format(
            count=counts[0]
        )
    text = _("{counts} or {last} cards each (agree which before you start)")
    return text.format(counts=", ".join(counts[:-1]), last=counts[-1])


def token_lines(rules: AddingRules) -> list[str]:
    """What the players hold and when they are out (RULES.md §2.2)."""
    preset = rules.preset
    amount = rules.amount(rules.tokens or 0)
    if rules.scoring == "wilson":
        return [
            _("Every round each player starts with {amount}; each border costs one.").format(
                amount=amount
            ),
            _(
                "When the round ends, what is left (it may be below 0) is added to your running "
                "score. Nobody is eliminated."
            ),
        ]
    if rules.scoring == "drinks":
        return [_("No tokens and nobody is eliminated: the scorer counts the drinks.")]
    if rules.scoring == "rounds":
        return [_("No tokens and nobody is eliminated: the scorer counts the rounds won.")]
    over_four = preset.tokens_over_four
    if over_four is not None and rules.tokens == preset.defaults["tokens"]:
        start = _("Each player starts with {amount} ({over_four} each when more than 4 play).")
    else:
        start = _("Each player starts with {amount}.")
    lines = [start.format(amount=amount, over_four=over_four)]
    folds = rules.display == "dollar-bill"
    if rules.out == "at-zero":
        if folds:
            lines.append(_("You are out as soon as you have no folds left."))
        else:
            lines.append(_("You are out as soon as you have no tokens left."))
    elif folds:
        lines.append(
            _(
                "At 0 you stay in, on your honour; you are out when you must pay a fold you do "
                "not have."
            )
        )
    else:
        lines.append(
            _(
                "At 0 you stay in, on your honour; you are out when you must pay a token you do "
                "not have."
            )
        )
    if any(rule.pays == "others" for rule in rules.events):
        lines.append(
            _("When everyone else pays, they pay in seat order, starting left of the player.")
        )
    lines.append(_("Costs are paid the moment they happen, so you can go out in mid-round."))
    return lines


def fold_steps(rules: AddingRules) -> list[tuple[int, str]]:
    """A dollar bill's folds: (tokens left, what the bill shows), from the start down to 0."""
    if rules.display != "dollar-bill" or rules.tokens is None:
        return []
    return [(count, bill_shows(rules, count)) for count in range(rules.tokens, -1, -1)]


def round_lines(rules: AddingRules) -> list[str]:
    """Who deals, when a round ends, and how the game ends."""
    dealer = rules.players[rules.first_dealer]
    if rules.uses_tokens and rules.first_dealer:
        text = _("{dealer} deals the first round; the deal passes to the next player still in.")
        lines = [text.format(dealer=dealer)]
    elif rules.uses_tokens:
        lines = [_("Seat 1 deals the first round; the deal passes to the next player still in.")]
    elif rules.first_dealer:
        text = _("{dealer} deals the first round; the deal passes to the left.")
        lines = [text.format(dealer=dealer)]
    else:
        lines = [_("Seat 1 deals the first round; the deal passes to the left.")]
    if rules.scoring == "wilson":
        lines.append(
            _("The round ends when the total passes {limit} (the border at 99).").format(
                limit=rules.limit
            )
        )
        lines.append(
            _(
                "When a round ends with anyone on {target} or more, the highest running score "
                "wins (ties share the win)."
            ).format(target=WILSON_TARGET)
        )
        return lines
    enders = [_(rule.label).lower() for rule in rules.events if rule.ends_round]
    if enders:
        lines.append(
            _("A round ends with {events}; the next starts again from 0.").format(
                events=_or_names(enders)
            )
        )
    events = {(rule.event, rule.target) for rule in rules.events}
    if ("cross", 66) in events and ("bust", None) in events:
        lines.append(_("One card that goes past 66 and over 99 at once is a cross 66 and a bust."))
    if rules.scoring == "drinks":
        lines.append(_("Nobody goes out; play until you stop. The fewest drinks leads."))
    elif rules.scoring == "rounds":
        lines.append(
            _(
                "A bust puts you out of that round only. Nobody goes out of the game; play until "
                "you stop. The most rounds won leads."
            )
        )
    else:
        lines.append(_("The last player left wins."))
    return lines


def _or_names(words: Sequence[str]) -> str:
    """'bust', 'bust or trips', 'hit 99, bust or empty hand'."""
    if len(words) == 1:
        return words[0]
    return _("{events} or {last}").format(events=", ".join(words[:-1]), last=words[-1])


def bust_line(rules: AddingRules) -> str:
    if any(rule.event == "bust" for rule in rules.events):
        text = _("If you cannot play without taking the total over {limit}, you bust.")
    else:
        text = _("Nobody busts: the round ends when the total passes {limit}.")
    return text.format(limit=rules.limit)


def on_69_line(rules: AddingRules) -> str | None:
    if rules.on_69 == "token":
        if rules.display == "dollar-bill" and rules.uses_tokens:
            return _("Make the total exactly 69 and you gain 1 fold.")
        if rules.scoring == "wilson":
            return _("Make the total exactly 69 and you gain 1 game point.")
        return _("Make the total exactly 69 and you gain 1 token.")
    if rules.on_69 == "reset":
        return _("Make the total exactly 69 and it goes back to 0.")
    return None


def pad_lines(rules: AddingRules) -> list[str]:
    events = [describe_event(rules, rule) for rule in rules.events]
    return [
        _("Limit {limit}. {cards}.").format(
            limit=rules.limit, cards=_capitalized(cards_held(rules.preset))
        ),
        *token_lines(rules)[:2],
        " ".join(events),
        round_lines(rules)[-1],
    ]


def _capitalized(text: str) -> str:
    """The text with a capital first letter (str.capitalize() lowers the rest)."""
    return text[:1].upper() + text[1:]
