"""Standard poker ranking of 3- and 5-card hands (A high, suits never rank), by lookup tables built once.

Used by Pineapple OFC's rows. A hand is keyed by the sum of its cards' codes, so one addition per card
gives everything the look-up needs:
  * ``1 << 3*(rank-2)``: three bits per rank count. This part finds the hand in a table of every
    possible rank multiset.
  * ``1 << (39 + 4*suit)``: four bits per suit count. The sum starts at 3 in each suit's field
    (``_KEY_START``), so a field reaches 8, its top bit, exactly when five cards share the suit: one
    AND tells a flush, which switches to the flush table.
  * ``1 << (55 + index)``: one bit per card. A repeated card carries into another bit, so the sum's card
    bits count fewer than the cards exactly when a card repeats; and the bits read 13 at a time give the
    cards in order of index from four small tables, with no sort.

Strength layout (``HandValue.strength``), rung first:
high_card 1, pair 2, two_pair 3, trips 4, straight 5, flush 6, full_house 7, quads 8, straight_flush 9
(royal flush is the ace-high straight flush, rung 9, with its own category code and label).
Then the ranks that break ties, most significant first: e.g. pair (2, pair, kicker, kicker, kicker),
full house (7, trips, pair), straight (5, high card) with the wheel's high card 5. A 3-card hand uses the
same rungs and layout with fewer kickers, so a top row compares with a middle row as a plain tuple
comparison, a missing kicker counting as smallest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations, combinations_with_replacement
from operator import itemgetter
from typing import Any

from service.rules import messages
from service.rules.cards import DECK, Card, SuitedCard
from service.rules.hand_value import HandValue

__all__ = [
    "Category",
    "HandValue",
    "Ranking",
    "hand_value",
    "rank_board",
    "rank_cards",
    "ranking_if_distinct",
    "value_if_distinct",
]


class Category(StrEnum):
    HIGH_CARD = "high_card"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    TRIPS = "trips"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    QUADS = "quads"
    STRAIGHT_FLUSH = "straight_flush"
    ROYAL_FLUSH = "royal_flush"


RUNG = {
    Category.HIGH_CARD: 1, Category.PAIR: 2, Category.TWO_PAIR: 3, Category.TRIPS: 4,
    Category.STRAIGHT: 5, Category.FLUSH: 6, Category.FULL_HOUSE: 7, Category.QUADS: 8,
    Category.STRAIGHT_FLUSH: 9, Category.ROYAL_FLUSH: 9,
}  # fmt: skip  # four categories a line, up the ladder

LABELS = {c: messages.label("ofc-pineapple", c.value) for c in Category}
"""Each category's label: its catalog key (the HTTP layer renders it in the client's language). Pineapple OFC is
the only game ranked here, so its catalog domain holds them."""

_SUIT_SHIFT = 39
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
_CARD_SHIFT = 55
_KEY_START = sum(3 << (_SUIT_SHIFT + 4 * s) for s in range(4))
_FLUSH_BITS = sum(8 << (_SUIT_SHIFT + 4 * s) for s in range(4))


def _code(c: SuitedCard) -> int:
    rank_count = 1 << 3 * (c.rank - 2)
    suit_count = 1 << (_SUIT_SHIFT + 4 * c.suit.order)
    return rank_count + suit_count + (1 << (_CARD_SHIFT + c.index))


def _held_table(low: int) -> list[tuple[Card, ...]]:
    """Cards ``low`` to ``low + 12`` by which of 13 bits are set, highest index first (5 cards at most)."""
    table: list[tuple[Card, ...]] = [()] * 8192
    for bits in range(8192):
        if bits.bit_count() <= 5:
            table[bits] = tuple(DECK[low + i] for i in range(12, -1, -1) if bits >> i & 1)
    return table


# A hand's card bits, 13 at a time, to its cards high to low by index: four look-ups instead of a sort.
_HELD_0, _HELD_1, _HELD_2, _HELD_3 = (_held_table(low) for low in (0, 13, 26, 39))
CODE_BY_CARD: dict[Card, int] = {c: _code(c) for c in DECK}
_CODES: list[int] = [CODE_BY_CARD[c] for c in DECK]  # by Card.index: a list index is cheaper than a dict look-up


@dataclass(frozen=True, slots=True)
class Ranking:
    """One entry of the tables: a hand's category, strength and its ranks in order of significance."""

    category: Category
    strength: tuple[int, ...]
    order: tuple[int, ...]  # ranks, most significant first, with repeats (wheel: 5 4 3 2 14)
    code: str = field(init=False)  # the category's code as a plain str, for answers
    label: messages.Message = field(init=False)
    # Picks the cards in order of significance out of the hand high to low by index (rank, then suit
    # s h d c): the ranks of that hand are this ranking's ranks in descending order whatever the suits,
    # so one fixed permutation per ranking does it (a pair of 9s in K-9-9-5-3: positions 1 2 0 3 4).
    pick: itemgetter[Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", self.category.value)
        object.__setattr__(self, "label", LABELS[self.category])
        descending = sorted(self.order, reverse=True)
        positions = [descending.index(r) + self.order[:place].count(r) for place, r in enumerate(self.order)]
        object.__setattr__(self, "pick", itemgetter(*positions))


def _straight_high(ranks: Sequence[int]) -> int | None:
    """The high card of a 5-rank straight, 5 for the wheel A-2-3-4-5, None when not a straight."""
    distinct = sorted(set(ranks), reverse=True)
    if len(distinct) != 5:
        return None
    if distinct[0] - distinct[4] == 4:
        return distinct[0]
    if distinct == [14, 5, 4, 3, 2]:
        return 5
    return None


def _rank(ranks: Sequence[int], flush: bool) -> Ranking:
    """Rank one multiset of ranks (3 or 5 of them), by the definitions of the rule book's table."""
    counts = Counter(ranks)
    # Ranks grouped by how many times they appear, then by rank: the order every category compares in.
    order = tuple(sorted(ranks, key=lambda r: (counts[r], r), reverse=True))
    groups = sorted(counts.values(), reverse=True)
    high = _straight_high(ranks) if len(ranks) == 5 else None
    if high is not None:
        order = tuple(range(high, high - 5, -1)) if high > 5 else (5, 4, 3, 2, 14)
        if flush:
            category = Category.ROYAL_FLUSH if high == 14 else Category.STRAIGHT_FLUSH
        else:
            category = Category.STRAIGHT
        return Ranking(category, (RUNG[category], high), order)
    if flush:
        category = Category.FLUSH
    else:
        category = {
            (1,): Category.HIGH_CARD,
            (2,): Category.PAIR,
            (3,): Category.TRIPS,
            (4,): Category.QUADS,
        }.get((groups[0],), Category.HIGH_CARD)
        if groups[:2] == [2, 2]:
            category = Category.TWO_PAIR
        elif groups[:2] == [3, 2]:
            category = Category.FULL_HOUSE
    # Ties break on each distinct rank in significance order (pair rank, then kickers).
    distinct = tuple(dict.fromkeys(order))
    return Ranking(category, (RUNG[category], *distinct), order)


def _key(ranks: Sequence[int]) -> int:
    return sum(1 << 3 * (r - 2) for r in ranks)


def _tables() -> tuple[dict[int, Ranking], dict[int, Ranking], dict[int, Ranking]]:
    plain5: dict[int, Ranking] = {}
    flush5: dict[int, Ranking] = {}
    top3: dict[int, Ranking] = {}
    for ranks in combinations_with_replacement(range(14, 1, -1), 5):
        if max(Counter(ranks).values()) <= 4:
            plain5[_key(ranks)] = _rank(ranks, flush=False)
    for ranks in combinations(range(14, 1, -1), 5):
        flush5[_key(ranks)] = _rank(ranks, flush=True)
    for ranks3 in combinations_with_replacement(range(14, 1, -1), 3):
        top3[_key(ranks3)] = _rank(ranks3, flush=False)  # a 3-card hand knows no straight or flush
    return plain5, flush5, top3


PLAIN5, FLUSH5, TOP3 = _tables()


def rank5_codes(codes: int) -> Ranking:
    """The ranking of five distinct cards whose codes sum to ``codes``."""
    key = _KEY_START + codes
    return FLUSH5[key & _RANK_MASK] if key & _FLUSH_BITS else PLAIN5[key & _RANK_MASK]


def rank3_codes(codes: int) -> Ranking:
    """The ranking of three distinct cards whose codes sum to ``codes``."""
    return TOP3[codes & _RANK_MASK]


def rank_cards(hand: Sequence[Card]) -> Ranking:
    """The ranking of 3 or 5 distinct cards (sizes and repeats are the caller's to check)."""
    key = 0
    for c in hand:
        key += CODE_BY_CARD[c]
    return rank5_codes(key) if len(hand) == 5 else rank3_codes(key)


def value_if_distinct(hand: Sequence[Card]) -> HandValue | None:
    """The full ``HandValue`` of 3 or 5 cards, None when a card repeats (``ValueError`` for another size).

    Its cards are in order of significance, within a rank spades first, then hearts, diamonds, clubs: one
    order whatever the input order. Every row evaluated runs this, so it is one pass of additions and
    look-ups, with no sort.
    """
    codes, size = _CODES, len(hand)
    if size == 5:  # unrolled: no loop overhead for the two sizes there are
        a, b, c, d, e = hand
        key = _KEY_START + codes[a.index] + codes[b.index] + codes[c.index] + codes[d.index] + codes[e.index]
    elif size == 3:
        a, b, c = hand
        key = _KEY_START + codes[a.index] + codes[b.index] + codes[c.index]
    else:
        raise ValueError(f"a poker hand here has 3 or 5 cards, not {size}")
    held = key >> _CARD_SHIFT  # one bit per card: fewer bits than cards when a card repeats
    if held.bit_count() != size:
        return None
    if size == 3:
        ranking = TOP3[key & _RANK_MASK]
    elif key & _FLUSH_BITS:
        ranking = FLUSH5[key & _RANK_MASK]
    else:
        ranking = PLAIN5[key & _RANK_MASK]
    high_to_low = _HELD_3[held >> 39] + _HELD_2[held >> 26 & 8191] + _HELD_1[held >> 13 & 8191] + _HELD_0[held & 8191]
    return HandValue(ranking.code, ranking.label, ranking.strength, ranking.pick(high_to_low))


def ranking_if_distinct(hand: Sequence[Card]) -> Ranking | None:
    """The table's ``Ranking`` of 3 or 5 cards (category and strength, not the cards in order), None when a
    card repeats (``ValueError`` for another size): ``value_if_distinct`` without picking the cards, about a
    quarter of its cost, for a showdown that answers each row's category and never its cards."""
    codes, size = _CODES, len(hand)
    if size == 5:
        a, b, c, d, e = hand
        key = _KEY_START + codes[a.index] + codes[b.index] + codes[c.index] + codes[d.index] + codes[e.index]
        if (key >> _CARD_SHIFT).bit_count() != 5:
            return None
        return FLUSH5[key & _RANK_MASK] if key & _FLUSH_BITS else PLAIN5[key & _RANK_MASK]
    if size == 3:
        a, b, c = hand
        key = codes[a.index] + codes[b.index] + codes[c.index]
        return TOP3[key & _RANK_MASK] if (key >> _CARD_SHIFT).bit_count() == 3 else None
    raise ValueError(f"a poker hand here has 3 or 5 cards, not {size}")


def rank_board(
    top: Sequence[Card], middle: Sequence[Card], bottom: Sequence[Card]
) -> tuple[Ranking, Ranking, Ranking, int] | None:
    """The table's ``Ranking`` of a 3-card and two 5-card rows (``ValueError`` for other sizes) and the board's
    cards as bits (``1 << index`` each, summed); None when a card repeats on the board. The bits of several
    boards added up have one bit per card exactly when no card is on two of them (a repeat carries into
    another bit), so one count checks a whole table. ``ranking_if_distinct`` of each row in one call, for a
    showdown by categories (a call per row, and the table's set of cards, cost more than the ranking)."""
    codes = _CODES
    a, b, c = top
    top_key = codes[a.index] + codes[b.index] + codes[c.index]
    a, b, c, d, e = middle
    middle_key = _KEY_START + codes[a.index] + codes[b.index] + codes[c.index] + codes[d.index] + codes[e.index]
    a, b, c, d, e = bottom
    bottom_key = _KEY_START + codes[a.index] + codes[b.index] + codes[c.index] + codes[d.index] + codes[e.index]
    # No field carries into the card bits: a rank counts at most 5 of 7, a suit 3 + 5 of 15, so each key's
    # card bits are its cards' own; 13 bits for 13 cards when none repeats (the look-ups need that).
    held = (top_key >> _CARD_SHIFT) + (middle_key >> _CARD_SHIFT) + (bottom_key >> _CARD_SHIFT)
    if held.bit_count() != 13:
        return None
    return (
        TOP3[top_key & _RANK_MASK],
        FLUSH5[middle_key & _RANK_MASK] if middle_key & _FLUSH_BITS else PLAIN5[middle_key & _RANK_MASK],
        FLUSH5[bottom_key & _RANK_MASK] if bottom_key & _FLUSH_BITS else PLAIN5[bottom_key & _RANK_MASK],
        held,
    )


def hand_value(hand: Sequence[Card]) -> HandValue:
    """The full ``HandValue`` of 3 or 5 distinct cards (``ValueError`` if a card repeats)."""
    value = value_if_distinct(hand)
    if value is None:
        raise ValueError(f"a card repeats in {[c.text for c in hand]}")
    return value
