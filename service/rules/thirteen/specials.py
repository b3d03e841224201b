"""Ordinary 十三支's special hands (報到): whole-hand patterns of 13 cards of one 52-card deck, scored apart
from the duns by the tables that pay them (十三水 and the like; the house rules pay none).

The catalog is ``Special``, declared high to low: that order (``SPECIALS``) decides between two specials. A
special is a property of the 13 cards, whatever the duns:

=========================  ===========  ================================================================
code                       name         the 13 cards
=========================  ===========  ================================================================
``supreme_dragon``         至尊清龍     A to K, one of each rank, all one suit
``dragon``                 一條龍       A to K, one of each rank
``twelve_royals``          十二皇族     every card a J, Q, K or A
``three_straight_flushes`` 三同花順     a 3-card straight flush and two 5-card straight flushes
``three_quads``            三分天下     three four-of-a-kinds and one card
``all_big``                全大         every card 8 or higher
``all_small``              全小         every card 8 or lower
``one_colour``             湊一色       all red (hearts, diamonds) or all black (spades, clubs)
``four_trips``             四套三條     four three-of-a-kinds and one card (quads: trips and a card)
``five_pairs_trips``       五對三條     five pairs and a three-of-a-kind (quads: two pairs)
``six_pairs``              六對半       six pairs and one card (quads: two pairs; trips: a pair and a card)
``three_flushes``          三同花       3 + 5 + 5 cards, each part of one suit
``three_straights``        三順子       a 3-card straight and two 5-card straights
=========================  ===========  ================================================================

A 3-card straight is three consecutive ranks, A23 lowest and QKA highest, no wrap-around (KA2 is none);
5-card straights are the duns' (A2345 to 10JQKA). The parts of ``three_straights`` are straights by rank
alone (a straight-flush part counts), those of ``three_flushes`` flushes by suit alone (8 hearts and 5 spades
split 3 + 5 and 5). A split needs no dun order.

How it is read: each card has a code and the codes of the 13 cards are added into one int, ``Holding``'s
two fields: per rank how many cards (3 bits a rank) and per suit which ranks (a 13-bit mask a suit). Every
special is then a few bit operations on those fields, or one look-up in a set built once at import from the
definition itself: the rank counts three straights can make, the suit counts three flushes can make and the
suit masks a suit's share of three straight flushes can be. No split of the 13 cards is tried per call.
tests/thirteen/specials_reference.py defines each special plainly (every 3/5/5 split tried) and the tests
hold this module to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from enum import StrEnum
from itertools import combinations, product
from typing import NamedTuple

from service.rules import messages
from service.rules.cards import DECK, JOKER, Card, NotationProblem, Suit, find_duplicates
from service.rules.cards import DOMAIN as CARDS_DOMAIN
from service.rules.errors import InputProblem, InvalidInputError, Path, problem
from service.rules.thirteen.arrangements import ArrangementViolation
from service.rules.thirteen.duns import DOMAIN, SET_CARDS


class Special(StrEnum):
    """The special hands (報到), declared high to low: a table scores a hand by the first it lists."""

    SUPREME_DRAGON = "supreme_dragon"  # 至尊清龍
    DRAGON = "dragon"  # 一條龍
    TWELVE_ROYALS = "twelve_royals"  # 十二皇族
    THREE_STRAIGHT_FLUSHES = "three_straight_flushes"  # 三同花順
    THREE_QUADS = "three_quads"  # 三分天下
    ALL_BIG = "all_big"  # 全大
    ALL_SMALL = "all_small"  # 全小
    ONE_COLOUR = "one_colour"  # 湊一色
    FOUR_TRIPS = "four_trips"  # 四套三條
    FIVE_PAIRS_TRIPS = "five_pairs_trips"  # 五對三條
    SIX_PAIRS = "six_pairs"  # 六對半
    THREE_FLUSHES = "three_flushes"  # 三同花
    THREE_STRAIGHTS = "three_straights"  # 三順子


SPECIALS: tuple[Special, ...] = tuple(Special)
"""Every special, high to low: this order decides between two specials (the higher is the earlier)."""

SPECIAL_LABELS = {s: messages.label(DOMAIN, s.value) for s in Special}
"""Each special's name: its catalog key (``label.<code>``, rendered by the HTTP layer in the client's language)."""


# --- a hand as two fields of one int --------------------------------------------------------------------
#
#   bits 0-38     how many cards of each rank (3 bits per rank, 2 to A)
#   bits 40-103   per suit (c d h s, 16 bits each) a bit per rank held (bit 0 the 2, bit 12 the ace); the
#                 field's bits 13-15 stay clear, so a card added twice carries and shows (one bit per card)
#   bit 104 on    the jokers: no special is read with one
#
# Thirteen distinct cards set exactly thirteen bits of the suit fields: n powers of two add up to n set
# bits only when they are distinct, so one popcount checks the hand.

_RANK_BITS = 3
_SUIT_SHIFT = 40
_SUIT_BITS = 16
_JOKER_SHIFT = _SUIT_SHIFT + 4 * _SUIT_BITS
_RANK_COUNTS = (1 << _RANK_BITS * 13) - 1
_SUIT_FIELD = (1 << _SUIT_BITS) - 1
_SUIT_SHIFTS = tuple(_SUIT_SHIFT + _SUIT_BITS * s for s in range(4))  # c d h s
_EVERY_RANK = (1 << 13) - 1  # a suit field holding A to K
_ONES = sum(1 << _RANK_BITS * i for i in range(13))  # bit 0 of every rank count
_DRAGON = _ONES  # one card of every rank

_RED = (Suit.DIAMONDS.order, Suit.HEARTS.order)  # places in Holding.suits
_BLACK = (Suit.CLUBS.order, Suit.SPADES.order)


def _rank_field(ranks: Sequence[int]) -> int:
    """The rank counts of cards of these ranks (2 to 14), one card each."""
    return sum(1 << _RANK_BITS * (rank - 2) for rank in ranks)


def _rank_mask(ranks: Sequence[int]) -> int:
    """A suit field holding these ranks."""
    return sum(1 << rank - 2 for rank in ranks)


def _code(c: Card) -> int:
    if c is JOKER:
        return 1 << _JOKER_SHIFT
    assert c.suit is not None  # not the joker
    return _rank_field((c.rank,)) + (1 << _SUIT_SHIFT + _SUIT_BITS * c.suit.order + c.rank - 2)


_CODES = [_code(c) for c in (*DECK, JOKER)]  # by Card.index


class Holding(NamedTuple):
    """What the specials read of 13 cards: the rank counts (3 bits a rank) and each suit's rank mask."""

    counts: int
    suits: tuple[int, ...]  # c d h s, by Suit.order

    def suit_sizes(self) -> tuple[int, ...]:
        """How many cards each suit holds, the suits that hold any, largest first."""
        return tuple(sorted((n for mask in self.suits if (n := mask.bit_count())), reverse=True))


# --- what splits can make, built once from the definitions -----------------------------------------------

_ACE_LOW_TO_HIGH = (14, *range(2, 15))  # the ace is low (A23, A2345) or high (QKA, 10JQKA), never both


def _straights(size: int) -> tuple[tuple[int, ...], ...]:
    """The straights of ``size`` cards, as ranks: ``size`` consecutive ranks, no wrap-around past the ace."""
    return tuple(_ACE_LOW_TO_HIGH[i : i + size] for i in range(len(_ACE_LOW_TO_HIGH) - size + 1))


_PARTS = (3, 5, 5)  # the sizes of the parts a split-based special splits 13 cards into
_STRAIGHTS = {size: _straights(size) for size in set(_PARTS)}
"""The 3-card straights, A23 to QKA (KA2 is none), and the 5-card ones, A2345 to 10JQKA."""

_THREE_STRAIGHTS = frozenset(
    sum(_rank_field(ranks) for ranks in parts) for parts in product(*(_STRAIGHTS[size] for size in _PARTS))
)
"""Every rank count a 3-card straight and two 5-card straights add up to (by rank alone)."""


def _three_flushes_suit_sizes() -> frozenset[tuple[int, ...]]:
    """Every way of giving each part a suit (parts may share one), as the suits' sizes, largest first."""
    found = set()
    for suits in product(Suit, repeat=len(_PARTS)):
        sizes: Counter[Suit] = Counter()
        for size, suit in zip(_PARTS, suits, strict=True):
            sizes[suit] += size
        found.add(tuple(sorted(sizes.values(), reverse=True)))
    return frozenset(found)


_THREE_FLUSHES = _three_flushes_suit_sizes()
"""The suit sizes of three flushes: (13), (10, 3), (8, 5) or (5, 5, 3)."""


def _straight_flush_shares() -> frozenset[int]:
    """Every suit field that is one suit's share of three straight flushes: the ranks of some of the parts
    (a 3-card straight, two 5-card straights), pairwise apart, since a suit holds each rank once."""
    shares = set()
    for k in range(1, len(_PARTS) + 1):
        for chosen in combinations(_PARTS, k):
            for parts in product(*(_STRAIGHTS[size] for size in chosen)):
                mask = _rank_mask([rank for ranks in parts for rank in ranks])
                if mask.bit_count() == sum(chosen):
                    shares.add(mask)
    return frozenset(shares)


_STRAIGHT_FLUSH_SHARES = _straight_flush_shares()
"""Each suit's rank mask in a hand of three straight flushes: with the suit sizes of three flushes, every
suit's cards are then its parts (a suit's size says which: 3, 5, 3 + 5, 5 + 5 or all three)."""

# --- each special, read from the holding -----------------------------------------------------------------

_FULL_COUNT = (1 << _RANK_BITS) - 1  # every bit of one rank's count
_NOT_ROYAL = _rank_field(range(2, 11)) * _FULL_COUNT  # the counts of 2 to 10
_NOT_BIG = _rank_field(range(2, 8)) * _FULL_COUNT  # of 2 to 7
_NOT_SMALL = _rank_field(range(9, 15)) * _FULL_COUNT  # of 9 to A


def _fours(counts: int) -> int:
    """Bit 0 of each rank count that is 4 (100)."""
    return counts >> 2 & _ONES


def _threes_or_more(counts: int) -> int:
    """Bit 0 of each rank count that is 3 (011) or 4 (100)."""
    return (counts >> 2 | counts >> 1 & counts) & _ONES


def _odd(counts: int) -> int:
    """Bit 0 of each rank count that is 1 or 3."""
    return counts & _ONES


def supreme_dragon(h: Holding) -> bool:
    """至尊清龍: A to K, all one suit."""
    return _EVERY_RANK in h.suits


def dragon(h: Holding) -> bool:
    """一條龍: A to K, one of each rank."""
    return h.counts == _DRAGON


def twelve_royals(h: Holding) -> bool:
    """十二皇族: every card a J, Q, K or A."""
    return not h.counts & _NOT_ROYAL


def three_straight_flushes(h: Holding) -> bool:
    """三同花順: a 3-card straight flush and two 5-card straight flushes (three flushes whose every suit is
    its share of straights)."""
    return three_flushes(h) and all(mask in _STRAIGHT_FLUSH_SHARES for mask in h.suits if mask)


def three_quads(h: Holding) -> bool:
    """三分天下: three four-of-a-kinds and one card."""
    return _fours(h.counts).bit_count() == 3


def all_big(h: Holding) -> bool:
    """全大: every card 8 or higher."""
    return not h.counts & _NOT_BIG


def all_small(h: Holding) -> bool:
    """全小: every card 8 or lower."""
    return not h.counts & _NOT_SMALL


def one_colour(h: Holding) -> bool:
    """湊一色: all red (hearts, diamonds) or all black (spades, clubs)."""
    return not any(h.suits[s] for s in _RED) or not any(h.suits[s] for s in _BLACK)


def four_trips(h: Holding) -> bool:
    """四套三條: four three-of-a-kinds and one card, a four of a kind counting as trips and a card (13 cards
    hold at most four ranks of three or more)."""
    return _threes_or_more(h.counts).bit_count() == 4


def five_pairs_trips(h: Holding) -> bool:
    """五對三條: five pairs and a three-of-a-kind, a four of a kind counting as two pairs: every rank count
    even but one, and that one 3."""
    odd = _odd(h.counts)
    return odd.bit_count() == 1 and bool(h.counts & odd << 1)


def six_pairs(h: Holding) -> bool:
    """六對半: six pairs and one card, a four of a kind counting as two pairs and a three-of-a-kind as a pair
    and a card: every rank count even but one."""
    return _odd(h.counts).bit_count() == 1


def three_flushes(h: Holding) -> bool:
    """三同花: 3 + 5 + 5 cards, each part of one suit (parts may share a suit)."""
    return h.suit_sizes() in _THREE_FLUSHES


def three_straights(h: Holding) -> bool:
    """三順子: a 3-card straight and two 5-card straights, by rank alone."""
    return h.counts in _THREE_STRAIGHTS


MADE_BY: dict[Special, Callable[[Holding], bool]] = {
    Special.SUPREME_DRAGON: supreme_dragon,
    Special.DRAGON: dragon,
    Special.TWELVE_ROYALS: twelve_royals,
    Special.THREE_STRAIGHT_FLUSHES: three_straight_flushes,
    Special.THREE_QUADS: three_quads,
    Special.ALL_BIG: all_big,
    Special.ALL_SMALL: all_small,
    Special.ONE_COLOUR: one_colour,
    Special.FOUR_TRIPS: four_trips,
    Special.FIVE_PAIRS_TRIPS: five_pairs_trips,
    Special.SIX_PAIRS: six_pairs,
    Special.THREE_FLUSHES: three_flushes,
    Special.THREE_STRAIGHTS: three_straights,
}
"""Each special's test of a holding."""
assert set(MADE_BY) == set(Special)


# --- the hand -----------------------------------------------------------------------------------------------


def holding(hand: Sequence[Card], path: Path = ("cards",)) -> Holding:
    """What the specials read of ``hand``: 13 distinct cards of the 52. ``InvalidInputError`` (at ``path``)
    otherwise: a wrong count, a joker, a card twice."""
    key = 0
    for c in hand:
        key += _CODES[c.index]
    if len(hand) != SET_CARDS or key >> _JOKER_SHIFT or (key >> _SUIT_SHIFT).bit_count() != SET_CARDS:
        raise InvalidInputError(_hand_problems(hand, path))
    return Holding(key & _RANK_COUNTS, tuple(key >> shift & _SUIT_FIELD for shift in _SUIT_SHIFTS))


def _hand_problems(hand: Sequence[Card], path: Path) -> list[InputProblem]:
    problems = [
        problem(CARDS_DOMAIN, path + (i,), NotationProblem.JOKER_NOT_ALLOWED) for i, c in enumerate(hand) if c is JOKER
    ]
    problems += find_duplicates([(path + (i,), c) for i, c in enumerate(hand) if c is not JOKER])
    if len(hand) != SET_CARDS:
        problems.insert(
            0, problem(DOMAIN, path, ArrangementViolation.WRONG_HAND_SIZE, size=SET_CARDS, actual=len(hand))
        )
    return problems


def specials_of(hand: Sequence[Card], path: Path = ("cards",)) -> tuple[Special, ...]:
    """Every special the 13 cards make, highest first (``()``: none), whatever any table pays.

    ``InvalidInputError`` (at ``path``) unless ``hand`` is 13 distinct cards of the 52."""
    h = holding(hand, path)
    return tuple(s for s in SPECIALS if MADE_BY[s](h))


def scored_special(made: Sequence[Special], listed: Collection[Special]) -> Special | None:
    """The special a hand making ``made`` (highest first, as ``specials_of`` answers) is scored by at a table
    paying ``listed``: the highest listed one, None when the table lists none of them."""
    return next((s for s in made if s in listed), None)
