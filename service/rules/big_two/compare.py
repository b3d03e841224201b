"""Big Two: whether one play beats another at a table (tests/big_two/test_compare.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from service.rules.big_two.combinations import classify, play_value
from service.rules.big_two.common import (
    _COMBINATION_OF,
    _DRAGONS,
    _SEQUENCED,
    DOMAIN,
    Combination,
    CompareReason,
)
from service.rules.big_two.rules import TAIWAN, BigTwoRules
from service.rules.cards import Card, card_texts
from service.rules.errors import Violation, violation
from service.rules.hand_value import HandValue


@dataclass(slots=True)
class Comparison:
    """Whether ``play`` may be put on ``table``, and the one reason why (or why not)."""

    beats: bool
    reason: CompareReason
    table: HandValue | None = None
    play: HandValue | None = None
    violations: tuple[Violation, ...] = ()  # why the table or the play is no combination


def compare(table: Iterable[Card], play: Iterable[Card], rules: BigTwoRules = TAIWAN) -> Comparison:
    """Does ``play`` beat ``table`` at a table of ``rules``? Both must be valid plays without a card in common."""
    table_cards, play_cards = tuple(table), tuple(play)
    # the values of two singles, pairs, triples or five-card plays straight from play_value's tables
    # (classify's own answer for them: no Classification built); anything else is classified in full
    on_table, played = play_value(table_cards, rules), play_value(play_cards, rules)
    if on_table is None or played is None:
        table_class, play_class = classify(table_cards, rules), classify(play_cards, rules)
        if not table_class.valid:
            return Comparison(False, CompareReason.INVALID_TABLE, None, play_class.hand, table_class.violations)
        if not play_class.valid:
            return Comparison(False, CompareReason.INVALID_PLAY, table_class.hand, None, play_class.violations)
        on_table, played = table_class.hand, play_class.hand
        assert on_table is not None and played is not None
    if not set(table_cards).isdisjoint(play_cards):
        shared = rules.ladder.sort(set(table_cards) & set(play_cards))
        both = violation(
            DOMAIN, CompareReason.DUPLICATE_CARD, shared, case="table_and_play", these=" ".join(card_texts(shared))
        )
        return Comparison(False, CompareReason.DUPLICATE_CARD, on_table, played, (both,))
    beats, reason = judge(on_table, played, rules)
    return Comparison(beats, reason, on_table, played)


def judge(table: HandValue, play: HandValue, rules: BigTwoRules = TAIWAN) -> tuple[bool, CompareReason]:
    """Who beats whom, on two valid plays' values at a table of ``rules``."""
    table_kind, play_kind = _COMBINATION_OF[table.category], _COMBINATION_OF[play.category]
    if table_kind in _DRAGONS:
        return False, CompareReason.NOTHING_BEATS_DRAGON  # 「任何牌都壓不過它」
    if play_kind in _DRAGONS:
        return True, CompareReason.DRAGON_BEATS_ALL  # 「不受當時桌面牌型的限制」
    if table_kind != play_kind:
        return rules.ladder.across(table_kind, play_kind)
    mine, theirs = play.strength, table.strength  # one combination: one rung first, then one layout
    if mine == theirs:
        return False, CompareReason.EQUAL  # 「比桌面更大」: equal is not bigger
    if mine < theirs:
        return False, CompareReason.LOWER
    return True, _higher_because(play_kind, mine, theirs)


def _higher_because(kind: Combination, mine: tuple[int, ...], theirs: tuple[int, ...]) -> CompareReason:
    """What the first place where two strengths of one combination differ holds: a sequence, a rank, or the
    suit, which is the last place of the combinations that have one."""
    place = 1  # (the rung is the same)
    while mine[place] == theirs[place]:
        place += 1
    if place == len(mine) - 1 and kind in _SUITED:
        return CompareReason.HIGHER_SUIT
    return CompareReason.HIGHER_SEQUENCE if place == 1 and kind in _SEQUENCED else CompareReason.HIGHER_RANK


_SUITED = frozenset({Combination.SINGLE, Combination.PAIR, Combination.STRAIGHT, Combination.FLUSH,
                     Combination.STRAIGHT_FLUSH})  # fmt: skip  # the strengths that end with a suit
