"""Taiwanese Big Two: what some cards are as a play (tests/big_two/test_combinations.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from service.rules.big_two.common import (
    _CROSSING_TWO,
    _MONSTERS,
    _RUNG,
    _SEQUENCE_OF,
    COMBINATION_LABELS,
    DOMAIN,
    HAND_SIZE,
    Combination,
    InvalidPlay,
    _desc,
    big_two_rank,
    sort_cards,
)
from service.rules.cards import Card, card_texts, repeated
from service.rules.errors import Violation, violation
from service.rules.hand_value import HandValue


@dataclass(frozen=True, slots=True)
class Classification:
    """What some cards are as a play: a combination with its value, or the reasons they are none."""

    valid: bool
    combination: Combination | None
    monster: bool  # four of a kind or straight flush; the dragons are not "monsters" in the rule book
    hand: HandValue | None
    violations: tuple[Violation, ...] = ()


def _value(combination: Combination, strength: tuple[int, ...], ordered: tuple[Card, ...]) -> Classification:
    hand = HandValue(combination.value, COMBINATION_LABELS[combination], (_RUNG[combination], *strength), ordered)
    return Classification(True, combination, combination in _MONSTERS, hand)


def _invalid(code: InvalidPlay, involved: Iterable[Card], **params: Any) -> Classification:
    return Classification(False, None, False, None, (violation(DOMAIN, code, sort_cards(involved), **params),))


def classify(cards: Iterable[Card]) -> Classification:
    """Classify a play; the order of ``cards`` never matters."""
    played = tuple(cards)
    jokers = [c for c in played if c.is_joker]
    if jokers:
        return Classification(
            False, None, False, None, (violation(DOMAIN, InvalidPlay.JOKER_NOT_ALLOWED, case="big_two"),)
        )
    if len(set(played)) != len(played):
        doubled = sort_cards(repeated(played))
        return _invalid(InvalidPlay.DUPLICATE_CARD, doubled, case="play", these=" ".join(card_texts(doubled)))
    counts = Counter(c.rank for c in played)
    size = len(played)
    if size == 1:
        return _value(Combination.SINGLE, (big_two_rank(played[0]), played[0].suit.order), played)  # type: ignore[union-attr]  # no jokers here: classify refused them
    if size == 2:
        return _classify_two(played, counts)
    if size == 5:
        return _classify_five(played, counts)
    if size == HAND_SIZE:
        return _classify_thirteen(played, counts)
    return _classify_other(played, counts)


def _classify_two(played: tuple[Card, ...], counts: Counter[int]) -> Classification:
    if len(counts) != 1:
        return _invalid(InvalidPlay.NOT_A_COMBINATION, played, case="two")
    ordered = _desc(played)  # the spade-most card decides between two pairs of one rank
    return _value(Combination.PAIR, (big_two_rank(ordered[0]), ordered[0].suit.order), ordered)  # type: ignore[union-attr]  # no jokers here: classify refused them


def _classify_five(played: tuple[Card, ...], counts: Counter[int]) -> Classification:
    shape = sorted(counts.values(), reverse=True)
    if shape == [4, 1]:
        four = max(counts, key=counts.__getitem__)
        ordered = _desc(c for c in played if c.rank == four) + tuple(c for c in played if c.rank != four)
        return _value(Combination.FOUR_OF_A_KIND, (big_two_rank(ordered[0]),), ordered)
    if shape == [3, 2]:
        three = max(counts, key=counts.__getitem__)
        ordered = _desc(c for c in played if c.rank == three) + _desc(c for c in played if c.rank != three)
        return _value(Combination.FULL_HOUSE, (big_two_rank(ordered[0]),), ordered)
    if shape == [3, 1, 1]:
        return _invalid(InvalidPlay.TRIPLE_NOT_A_COMBINATION, played, case="five")
    if shape == [2, 2, 1]:
        return _invalid(InvalidPlay.TWO_PAIR_NOT_A_COMBINATION, played)
    if shape != [1, 1, 1, 1, 1]:
        return _invalid(InvalidPlay.NOT_A_COMBINATION, played, case="pair_and_singles")
    return _classify_run(played, frozenset(counts))


def _classify_run(played: tuple[Card, ...], ranks: frozenset[int]) -> Classification:
    """Five different ranks: a straight (flush), a sequence across the 2, a flush, or nothing."""
    one_suit = len({c.suit for c in played}) == 1
    sequence = _SEQUENCE_OF.get(ranks)
    if sequence is not None:
        ordered = _desc(played)  # highest-ranked card first: 2 > A > K, so A2345 and 23456 lead with the 2
        if one_suit:
            return _value(Combination.STRAIGHT_FLUSH, (sequence, ordered[0].suit.order), ordered)  # type: ignore[union-attr]  # no jokers here: classify refused them
        return _value(Combination.STRAIGHT, (sequence, ordered[0].suit.order), ordered)  # type: ignore[union-attr]  # no jokers here: classify refused them
    if ranks in _CROSSING_TWO:
        return _invalid(InvalidPlay.STRAIGHT_CROSSES_TWO, played)
    if one_suit:
        return _invalid(InvalidPlay.FLUSH_NOT_A_COMBINATION, played)
    return _invalid(InvalidPlay.NOT_A_COMBINATION, played, case="five")


def _classify_thirteen(played: tuple[Card, ...], counts: Counter[int]) -> Classification:
    if len(counts) != HAND_SIZE:
        return _invalid(InvalidPlay.NOT_A_COMBINATION, played, case="thirteen")
    ordered = _desc(played)
    if len({c.suit for c in played}) == 1:
        return _value(Combination.GREEN_DRAGON, (), ordered)
    return _value(Combination.DRAGON, (), ordered)


def _classify_other(played: tuple[Card, ...], counts: Counter[int]) -> Classification:
    """Sizes no combination has (0, 3, 4, 6-12, 14+), naming the near misses the rule book names."""
    shape = sorted(counts.values(), reverse=True)
    if shape == [4]:
        return _invalid(InvalidPlay.FOUR_WITHOUT_KICKER, played)
    if shape == [2, 2]:
        return _invalid(InvalidPlay.TWO_PAIR_NOT_A_COMBINATION, played)
    if len(played) in (3, 4) and shape[0] == 3:
        return _invalid(InvalidPlay.TRIPLE_NOT_A_COMBINATION, played, case="short")
    return _invalid(InvalidPlay.WRONG_CARD_COUNT, played, case="play", count=len(played))
