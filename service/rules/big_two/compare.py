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
        return _across_combinations(table_kind, play_kind, rules)
    mine, theirs = play.strength, table.strength  # one combination: one rung first, then one layout
    if mine == theirs:
        return False, CompareReason.EQUAL  # 「比桌面更大」: equal is not bigger
    if mine < theirs:
        return False, CompareReason.LOWER
    return True, _higher_because(play_kind, mine, theirs)


def _across_combinations(
    table_kind: Combination, play_kind: Combination, rules: BigTwoRules
) -> tuple[bool, CompareReason]:
    monsters = rules.ladder.monster_place
    table_monster, play_monster = table_kind in monsters, play_kind in monsters
    if play_monster and not table_monster:
        return True, CompareReason.MONSTER_BEATS_NORMAL  # 「不受張數限制」
    if table_monster and not play_monster:
        return False, CompareReason.NORMAL_CANNOT_BEAT_MONSTER
    if play_monster:  # two different monsters: 「同花順 ＞ 鐵支」, or the table's own order of the two
        higher = monsters[play_kind] > monsters[table_kind]
        if play_kind is Combination.STRAIGHT_FLUSH:
            return higher, CompareReason.STRAIGHT_FLUSH_BEATS_QUADS if higher else CompareReason.LOWER_COMBINATION
        return higher, CompareReason.HIGHER_COMBINATION if higher else CompareReason.QUADS_CANNOT_BEAT_STRAIGHT_FLUSH
    five = rules.ladder.five_card_place
    if rules.five_beats_lower_kind and table_kind in five and play_kind in five:  # a higher five-card kind beats
        if five[play_kind] > five[table_kind]:
            return True, CompareReason.HIGHER_COMBINATION
        return False, CompareReason.LOWER_COMBINATION
    return False, CompareReason.DIFFERENT_COMBINATION  # 「一般牌型只能被同一種牌型壓過」


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
