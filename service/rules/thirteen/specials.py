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
split 3 + 5 and 5). A split needs no dun order. One hand may make several specials (three quads are six pairs
too: docs/rulings.md, T5): ``specials_of`` answers every one, highest first, whatever any table pays, and a
table scores the highest it lists (``scored_special``).

How it is read: the hand's shape is one int of two fields, per rank how many cards (3 bits a rank) and per
suit how many cards (4 bits a suit), laid out as a dun's sum lays them out (duns.py), so that a scored round
reads each player's shape from its duns' sums, and a hand asked about adds its cards' codes. Most hands make
no special, and a handful of operations says so (``_may_make_one``). Every special is then a few bit
operations on those fields, or one look-up in a set built once at import from the definition itself: the
rank counts three straights can make, the suit sizes three flushes can make and the rank masks a suit's share
of three straight flushes can be (which ranks each suit holds is read from the cards, for a hand of three
flushes alone). No split of the 13 cards is tried per call. tests/thirteen/specials_reference.py defines
each special plainly (every 3/5/5 split tried) and the tests hold this module to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from enum import StrEnum
from itertools import combinations, compress, product

from service.rules import messages
from service.rules.cards import DECK, JOKER, Card, NotationProblem, Suit, find_duplicates
from service.rules.cards import DOMAIN as CARDS_DOMAIN
from service.rules.errors import InputProblem, InvalidInputError, Path, problem
from service.rules.thirteen.arrangements import ArrangementViolation
from service.rules.thirteen.duns import _JOKER_COUNT_SHIFT, _SUIT_SHIFT, DOMAIN, SET_CARDS


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


# --- a hand as fields of one int ---------------------------------------------------------------------------
#
#   bits 0-38     how many cards of each rank (3 bits per rank, 2 to A)
#   bits 39-41    how many jokers: no special is read with one
#   bits 42-57    how many cards of each suit (4 bits per suit, c d h s)
#   bits 58-110   a bit per card (by ``Card.index``): 13 distinct cards set 13 of them
#
# Bits 0-57 are the hand's shape, laid out as the low fields of a dun's sum in duns.py (``_HAND_SHAPE``): a
# round's arrangements hand their shapes over from their duns' sums, and ``specials_of`` adds its cards'
# codes (``_CODES``) into a key of its own, whose card bits check the hand: n powers of two add up to n set
# bits only when they are distinct, so one popcount finds a card twice. Which ranks each suit holds (a
# 13-bit mask a suit, ``_masks``) is read from the cards only for a hand of three flushes.

_RANK_BITS = 3
_SIZE_BITS = 4
_MASK_BITS = 16
_RANK_COUNTS = (1 << _RANK_BITS * 13) - 1
_JOKERS = ((1 << _RANK_BITS) - 1) << _JOKER_COUNT_SHIFT
_SUIT_SIZES = (1 << 4 * _SIZE_BITS) - 1
_CARD_BITS_SHIFT = _SUIT_SHIFT + 4 * _SIZE_BITS
_MASK_FIELD = (1 << _MASK_BITS) - 1
_ONES = sum(1 << _RANK_BITS * i for i in range(13))  # bit 0 of every rank count
_DRAGON = _ONES  # one card of every rank


def _rank_field(ranks: Iterable[int]) -> int:
    """The rank counts of cards of these ranks (2 to 14), one card each."""
    return sum(1 << _RANK_BITS * (rank - 2) for rank in ranks)


def _rank_mask(ranks: Iterable[int]) -> int:
    """A suit's rank mask holding these ranks."""
    return sum(1 << rank - 2 for rank in ranks)


def _size_field(sizes: Mapping[Suit, int]) -> int:
    """The suit sizes field of so many cards of each suit."""
    return sum(n << _SIZE_BITS * suit.order for suit, n in sizes.items())


def _code(c: Card) -> int:
    if c is JOKER:
        return (1 << _JOKER_COUNT_SHIFT) + (1 << _CARD_BITS_SHIFT + c.index)
    assert c.suit is not None  # not the joker
    return _rank_field((c.rank,)) + (_size_field({c.suit: 1}) << _SUIT_SHIFT) + (1 << _CARD_BITS_SHIFT + c.index)


def _mask_code(c: Card) -> int:
    """The card in its suit's rank mask (16 bits a suit; the joker in none)."""
    return 0 if c.suit is None else _rank_mask((c.rank,)) << _MASK_BITS * c.suit.order


_CODES = [_code(c) for c in (*DECK, JOKER)]  # by Card.index
_MASK_CODES = [_mask_code(c) for c in (*DECK, JOKER)]


def _masks(parts: Iterable[Sequence[Card]]) -> int:
    """Per suit the ranks the hand's cards (in ``parts``) hold, 16 bits a suit."""
    masks = 0
    for part in parts:
        for c in part:
            masks += _MASK_CODES[c.index]
    return masks


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


def _three_flushes_suit_sizes() -> frozenset[int]:
    """Every way of giving each part a suit (parts may share one), as the suit sizes it makes."""
    found = set()
    for suits in product(Suit, repeat=len(_PARTS)):
        sizes: Counter[Suit] = Counter()
        for size, suit in zip(_PARTS, suits, strict=True):
            sizes[suit] += size
        found.add(_size_field(sizes))
    return frozenset(found)


_THREE_FLUSHES = _three_flushes_suit_sizes()
"""The suit sizes of three flushes: 13 of a suit, 10 and 3, 8 and 5, or 5, 5 and 3, in any suits."""


def _straight_flush_shares() -> frozenset[int]:
    """Every rank mask that is one suit's share of three straight flushes: the ranks of some of the parts
    (a 3-card straight, two 5-card straights), pairwise apart, since a suit holds each rank once."""
    shares = set()
    for k in range(1, len(_PARTS) + 1):
        for chosen in combinations(_PARTS, k):
            for parts in product(*(_STRAIGHTS[size] for size in chosen)):
                mask = _rank_mask(rank for ranks in parts for rank in ranks)
                if mask.bit_count() == sum(chosen):
                    shares.add(mask)
    return frozenset(shares)


_STRAIGHT_FLUSH_SHARES = _straight_flush_shares()
"""Each suit's rank mask in a hand of three straight flushes: with the suit sizes of three flushes, every
suit's cards are then its parts (a suit's size says which: 3, 5, 3 + 5, 5 + 5 or all three)."""

# --- every special, read from the key ----------------------------------------------------------------------

_FULL_COUNT = (1 << _RANK_BITS) - 1  # every bit of one rank's count
_NOT_ROYAL = _rank_field(range(2, 11)) * _FULL_COUNT  # the counts of 2 to 10
_NOT_BIG = _rank_field(range(2, 8)) * _FULL_COUNT  # of 2 to 7
_NOT_SMALL = _rank_field(range(9, 15)) * _FULL_COUNT  # of 9 to A
_FULL_SIZE = (1 << _SIZE_BITS) - 1
_RED = _size_field({Suit.HEARTS: _FULL_SIZE, Suit.DIAMONDS: _FULL_SIZE})  # the sizes of the red suits
_BLACK = _size_field({Suit.SPADES: _FULL_SIZE, Suit.CLUBS: _FULL_SIZE})
_ONE_SUIT = frozenset(_size_field({suit: 13}) for suit in Suit)


def _made(counts: int, sizes: int, parts: Iterable[Sequence[Card]]) -> tuple[bool, ...]:
    """Whether 13 distinct cards of these rank ``counts`` and suit ``sizes``, the cards of ``parts``, make
    each special, in the catalog's order (``SPECIALS``). The cards are read only for a hand of three flushes:
    which ranks each suit holds.

    Rank counts are read three bits at a time: ``counts & _ONES`` has bit 0 of each count that is odd (1 or
    3), ``counts >> 2 & _ONES`` of each that is 4 (100), and ``(counts >> 2 | counts >> 1 & counts) & _ONES``
    of each that is 3 (011) or 4. Thirteen cards hold at most four ranks of three or more."""
    dragon = counts == _DRAGON
    odd = counts & _ONES
    six_pairs = odd.bit_count() == 1  # every rank count even but one: a 4 is two pairs, a 3 a pair and a card
    three_flushes = sizes in _THREE_FLUSHES
    return (
        dragon and sizes in _ONE_SUIT,  # 至尊清龍: A to K, all one suit
        dragon,  # 一條龍: A to K, one of each rank
        not counts & _NOT_ROYAL,  # 十二皇族: every card a J, Q, K or A
        three_flushes and _straight_flushes(_masks(parts)),  # 三同花順: every part a straight flush
        (counts >> 2 & _ONES).bit_count() == 3,  # 三分天下: three four-of-a-kinds and one card
        not counts & _NOT_BIG,  # 全大: every card 8 or higher
        not counts & _NOT_SMALL,  # 全小: every card 8 or lower
        not sizes & _RED or not sizes & _BLACK,  # 湊一色: all red or all black
        # 四套三條: four three-of-a-kinds and one card, a four of a kind three of a kind and a card
        ((counts >> 2 | counts >> 1 & counts) & _ONES).bit_count() == 4,
        six_pairs and bool(counts & odd << 1),  # 五對三條: five pairs and trips: six pairs, the odd rank's count 3
        six_pairs,  # 六對半: six pairs and one card
        three_flushes,  # 三同花: 3 + 5 + 5 cards, each part of one suit
        counts in _THREE_STRAIGHTS,  # 三順子: a 3-card straight and two 5-card straights, by rank alone
    )


_FEW_RANKS = 7
"""The most ranks a hand holds in a special read from how many cards each rank holds, but for the dragon:
seven in six pairs (six pairs and a card), fewer in five pairs and trips, three quads and four trips. A
dragon is three straights too (A23, 4 to 8, 9 to K); twelve royals are all big."""


def _all_sizes() -> Iterable[int]:
    """Every suit sizes field of 13 cards."""
    for c, d, h in product(range(14), repeat=3):
        if c + d + h <= 13:
            yield _size_field(dict(zip(Suit, (c, d, h, 13 - c - d - h), strict=True)))


_SUITED = _THREE_FLUSHES | frozenset(sizes for sizes in _all_sizes() if not sizes & _RED or not sizes & _BLACK)
"""The suit sizes of a hand of one colour or of three flushes (three straight flushes and a supreme dragon
among them): every special read from the suits."""


def _may_make_one(counts: int, sizes: int) -> bool:
    """Whether 13 cards of these rank ``counts`` and suit ``sizes`` may make a special: a condition each
    special implies (``_FEW_RANKS``, all big, all small, three straights, ``_SUITED``), a handful of
    operations where ``_made`` reads all thirteen. Most hands make none, and fail it."""
    return (
        ((counts | counts >> 1 | counts >> 2) & _ONES).bit_count() <= _FEW_RANKS
        or not counts & _NOT_BIG
        or not counts & _NOT_SMALL
        or counts in _THREE_STRAIGHTS
        or sizes in _SUITED
    )


def _straight_flushes(masks: int) -> bool:
    """Whether, in a hand of three flushes, every suit's cards are its share of three straight flushes."""
    return all(share in _STRAIGHT_FLUSH_SHARES for s in range(4) if (share := masks >> _MASK_BITS * s & _MASK_FIELD))


# --- the hand -----------------------------------------------------------------------------------------------


def _key(hand: Sequence[Card], path: Path) -> int:
    """The sum of the cards' codes, when ``hand`` is 13 distinct cards of the 52; ``InvalidInputError`` (at
    ``path``) otherwise: a wrong count, a joker, a card twice."""
    if len(hand) == SET_CARDS:
        key = 0
        for c in hand:
            key += _CODES[c.index]
        if not key & _JOKERS and (key >> _CARD_BITS_SHIFT).bit_count() == SET_CARDS:
            return key
    raise InvalidInputError(_hand_problems(hand, path))


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
    return specials_of_shape(_key(hand, path), (hand,))


def specials_of_shape(shape: int, parts: Iterable[Sequence[Card]]) -> tuple[Special, ...]:
    """``specials_of`` for 13 distinct cards already read: their shape (bits 0-57 of a key are read: a legal
    arrangement's duns add up to it, ``arrangements._lawful_arrangement``) and the cards, in ``parts``. A
    hand holding a joker makes none."""
    counts = shape & _RANK_COUNTS
    sizes = shape >> _SUIT_SHIFT & _SUIT_SIZES
    if shape & _JOKERS or not _may_make_one(counts, sizes):
        return ()
    return tuple(compress(SPECIALS, _made(counts, sizes, parts)))


def scored_special(made: Sequence[Special], listed: Collection[Special]) -> Special | None:
    """The special a hand making ``made`` (highest first, as ``specials_of`` answers) is scored by at a table
    paying ``listed``: the highest listed one, None when the table lists none of them."""
    return next(filter(listed.__contains__, made), None)
