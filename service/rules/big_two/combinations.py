"""Taiwanese Big Two: what some cards are as a play (tests/big_two/test_combinations.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from service.rules.big_two.common import (
    _CROSSING_TWO,
    _KEY,
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
from service.rules.cards import DECK, Card, card_texts, repeated
from service.rules.errors import Violation, violation
from service.rules.hand_value import HandValue


@dataclass(slots=True)
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
    hand = play_value(played)
    if hand is not None:
        combination, monster = _KINDS[hand.category]
        return Classification(True, combination, monster, hand)
    return _classify_in_full(played)


def _classify_in_full(played: tuple[Card, ...]) -> Classification:
    """``classify`` by the rule book's definitions, naming why cards are no play: the reference that
    ``play_value``'s tables are proven equal to (tests/big_two/test_combinations.py)."""
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


# --------------------------------------------------------------------------------------------------
# The fast path: a valid play's value from tables built once, rather than through Counter and sets on
# every play of a replay. ``classify`` names why cards are no play; this only says which valid play they
# are, and leaves everything else (a joker, a card twice, no combination) to it.


def play_value(played: tuple[Card, ...]) -> HandValue | None:
    """``classify(played).hand`` for a single, a pair or a five-card play; None for anything else (no
    play, or a 13-card play), where ``classify`` answers in full. Equal to ``classify`` on every input
    (tests/big_two/test_combinations.py)."""
    size = len(played)
    if size == 1:
        return _SINGLES.get(played[0])
    if size == 2:
        return _PAIRS.get(played)
    if size == 5:
        return _five_value(played)
    return None


def _hand(combination: Combination, strength: tuple[int, ...], ordered: tuple[Card, ...]) -> HandValue:
    code, label, rung = _PARTS[combination]  # one look-up (an enum's .value is a Python-level property)
    return HandValue(code, label, (rung, *strength), ordered)


_PARTS = {c: (c.value, COMBINATION_LABELS[c], _RUNG[c]) for c in Combination}


_BY_KEY = sorted(DECK, key=_KEY.__getitem__)  # 3c ... 2s: a card by its Big Two key
_SINGLES = {c: _classify_in_full((c,)).hand for c in DECK}
# both orders of every pair of one rank (78 pairs): the play's cards as given are the key
_PAIRS: dict[tuple[Card, ...], HandValue | None] = {
    (a, b): _classify_in_full((a, b)).hand for a in DECK for b in DECK if a.rank == b.rank and a is not b
}
# Big Two ranks (0 = 3 ... 12 = 2), highest first, of the ten straights: their sequence number
_SEQUENCE_BY_RANKS = {
    tuple(sorted(((r - 3) % 13 for r in ranks), reverse=True)): sequence for ranks, sequence in _SEQUENCE_OF.items()
}


def _five_value(played: tuple[Card, ...]) -> HandValue | None:
    v, w, x, y, z = played  # five keys by a tuple display: a comprehension cost more than the sort
    key = _KEY
    try:
        k0, k1, k2, k3, k4 = sorted((key[v], key[w], key[x], key[y], key[z]), reverse=True)
    except KeyError:  # a joker
        return None
    if not k0 > k1 > k2 > k3 > k4:  # a card twice
        return None
    r0, r1, r2, r3, r4 = k0 >> 2, k1 >> 2, k2 >> 2, k3 >> 2, k4 >> 2  # the key is rank * 4 + suit
    c = _BY_KEY
    if r0 == r3:  # r4 differs: two cards of one key are impossible
        return _hand(Combination.FOUR_OF_A_KIND, (r0,), (c[k0], c[k1], c[k2], c[k3], c[k4]))
    if r1 == r4:
        return _hand(Combination.FOUR_OF_A_KIND, (r1,), (c[k1], c[k2], c[k3], c[k4], c[k0]))
    if r0 == r2 and r3 == r4:
        return _hand(Combination.FULL_HOUSE, (r0,), (c[k0], c[k1], c[k2], c[k3], c[k4]))
    if r0 == r1 and r2 == r4:
        return _hand(Combination.FULL_HOUSE, (r2,), (c[k2], c[k3], c[k4], c[k0], c[k1]))
    sequence = _SEQUENCE_BY_RANKS.get((r0, r1, r2, r3, r4))
    if sequence is None:
        return None
    suit = k0 & 3
    kind = Combination.STRAIGHT_FLUSH if (k1 & 3) == (k2 & 3) == (k3 & 3) == (k4 & 3) == suit else Combination.STRAIGHT
    return _hand(kind, (sequence, suit), (c[k0], c[k1], c[k2], c[k3], c[k4]))


_KINDS = {c.value: (c, c in _MONSTERS) for c in Combination}  # a value's category: its combination, monster or not
