"""The Thirteen games (Joker Thirteen 鬼牌十三支加一色, ordinary 十三支): the decks, the three duns, the hand
categories and a dun's hand value, jokers included (``duns/evaluate``, ``duns/compare``).

The deck is Joker Thirteen's 68 cards (``JOKER_DECK``: the 52, a second identical spade suit and 3 jokers) or
ordinary 十三支's 52 (``ORDINARY_DECK``): one engine serves both, a deck only saying how many copies of each
card there are, so the 52 distinct cards simply never reach the rungs that need a joker or a second copy
(three jokers, pair flush, five of a kind). A dun (墩) is
the head (頭墩, 3 cards), the middle (中墩, 5) or the tail (尾墩, 5).

Jokers are evaluated directly, never by trying substitutions: the dun's real cards are grouped by rank and
suit, and each rung of the ladder is tested from the top with the question "can ``j`` jokers complete this
shape around these real cards?" (a count per rank, one suit for all, a straight window). The first rung
that answers yes is the strongest hand, and its tie-break is built in the same pass. The test suite proves
this against a brute-force reference (every joker tried as each of the 52 cards).

Strength layout (``HandValue.strength``), rung first, ascending = stronger:
    high_card 1 (1, c1, c2, c3[, c4, c5])       pair 2 (2, pair, k1[, k2, k3])
    two_pair 3 (3, high pair, low pair, kicker)  trips 4 (4, trips[, k1, k2])
    three_jokers 5 (5,)  head only               straight 6 (6, high card; A-2-3-4-5 is 5)
    flush 7 (7, c1 .. c5)                        pair_flush 8 (8, 2, high pair, low pair, kicker)
                                                            or (8, 1, pair, k1, k2, k3)
    full_house 9 (9, trips, pair)                quads 10 (10, quads, kicker)
    straight_flush 11 (11, high card)            joker_five 12 (12, rank)    real_five 13 (13, rank)
A head uses the same rungs and layout with fewer kickers, so "head < middle, kickers included, a kicker
the head lacks counting as smallest" is plain tuple comparison (a prefix is smaller).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from operator import attrgetter, itemgetter

from service.rules import messages
from service.rules.cards import DECK, JOKER, Card, Suit, find_duplicates
from service.rules.errors import InputProblem, InvalidInputError, Path, problem
from service.rules.hand_value import HandValue, winner

DOMAIN = "joker-thirteen"  # the catalog domain of this game's texts (thirteen/messages.json)


class Dun(StrEnum):
    HEAD = "head"
    MIDDLE = "middle"
    TAIL = "tail"

    @property
    def size(self) -> int:
        return 3 if self is Dun.HEAD else 5


HEAD, MIDDLE, TAIL = Dun.HEAD, Dun.MIDDLE, Dun.TAIL  # plain names: Enum class attributes are slow to read
DUNS = (HEAD, MIDDLE, TAIL)


class Category(StrEnum):
    REAL_FIVE = "real_five"
    JOKER_FIVE = "joker_five"
    STRAIGHT_FLUSH = "straight_flush"
    QUADS = "quads"
    FULL_HOUSE = "full_house"
    PAIR_FLUSH = "pair_flush"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_JOKERS = "three_jokers"
    TRIPS = "trips"
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    HIGH_CARD = "high_card"


RUNG = {
    Category.HIGH_CARD: 1, Category.PAIR: 2, Category.TWO_PAIR: 3, Category.TRIPS: 4,
    Category.THREE_JOKERS: 5, Category.STRAIGHT: 6, Category.FLUSH: 7, Category.PAIR_FLUSH: 8,
    Category.FULL_HOUSE: 9, Category.QUADS: 10, Category.STRAIGHT_FLUSH: 11, Category.JOKER_FIVE: 12,
    Category.REAL_FIVE: 13,
}  # fmt: skip  # four categories a line, up the ladder

_CATEGORY_BY_ORDER_RUNG = [None, None, *sorted(RUNG, key=RUNG.__getitem__)]
"""Each category at its rung plus one (the first place of ``_order``: a place plus one), 2 to 14."""
assert all(_CATEGORY_BY_ORDER_RUNG[rung + 1] is c for c, rung in RUNG.items())

LABELS = {c: messages.label(DOMAIN, c.value) for c in Category}
"""Each category's label: its catalog key (the HTTP layer renders it in the client's language)."""
TWO_PAIR_FLUSH_LABEL = messages.label(DOMAIN, "pair_flush/two_pairs")


# --- tables built once ------------------------------------------------------------------------------

_CARD: dict[tuple[int, Suit], Card] = {(c.rank, c.suit): c for c in DECK}


def _straight_windows() -> dict[int, tuple[int, ...]]:
    """Each straight's ranks, high to low, by its high card (5 is A-2-3-4-5; no wrap past the ace)."""
    windows = {high: tuple(range(high, high - 5, -1)) for high in range(6, 15)}
    windows[5] = (5, 4, 3, 2, 14)
    return windows


_WINDOWS = _straight_windows()


def _straight_high_by_mask() -> dict[int, int]:
    """Every set of distinct ranks (bit ``1 << rank``) that fits in some straight -> the highest such straight."""
    best: dict[int, int] = {}
    for high, ranks in _WINDOWS.items():
        for size in range(1, 6):
            for subset in combinations(ranks, size):
                mask = sum(1 << r for r in subset)
                best[mask] = max(best.get(mask, 0), high)
    return best


_STRAIGHT_HIGH = _straight_high_by_mask()

# A joker standing for a rank takes, in this order, a card absent from the dun (spade, heart, diamond,
# club) and only then a spade's second copy: five of a kind needs all five (c d h s s), and no card is
# ever held a third time ("同一張牌在一墩裡最多算兩張").
_COPY_SLOTS = ((Suit.SPADES, 1), (Suit.HEARTS, 1), (Suit.DIAMONDS, 1), (Suit.CLUBS, 1), (Suit.SPADES, 2))


# --- evaluating one dun -----------------------------------------------------------------------------

Group = tuple[list[Card], list[Card]]
"""Part of a hand in order of significance: its real cards and the cards its jokers stand for."""


def _stand_ins(rank: int, need: int, held: Counter[Card]) -> list[Card]:
    """``need`` cards of ``rank`` for jokers (see ``_COPY_SLOTS``); ``held`` counts the dun and is updated."""
    recording = getattr(_planning, "recording", None)
    if recording is not None:
        recording.append((_HELD, rank, need))
    chosen: list[Card] = []
    for suit, copy in _COPY_SLOTS:
        if len(chosen) == need:
            break
        c = _CARD[rank, suit]
        if held[c] < copy:
            held[c] += 1
            chosen.append(c)
    return chosen


def _hand(
    category: Category, tiebreak: Sequence[int], groups: Sequence[Group], label: messages.Message | None = None
) -> HandValue:
    """The HandValue: strength is the category's rung then ``tiebreak``; jokers sit where they count."""
    cards: list[Card] = []
    resolved: list[Card] = []
    for reals, stand_ins in groups:
        cards += reals
        cards += [JOKER] * len(stand_ins)
        resolved += stand_ins
    return HandValue(category, label or LABELS[category], (RUNG[category], *tiebreak), tuple(cards), tuple(resolved))


def _by_rank(reals: Sequence[Card]) -> dict[int, list[Card]]:
    """Real cards grouped by rank; ``reals`` is sorted high to low, so are the groups (dicts keep order)."""
    groups: dict[int, list[Card]] = {}
    for c in reals:
        groups.setdefault(c.rank, []).append(c)
    return groups


def _held(reals: list[Card], jokers: int) -> Counter[Card]:
    """The dun's cards by count, for choosing stand-ins; without jokers nothing is chosen (a cheap empty)."""
    return Counter(reals) if jokers else Counter()


def _best_rank(by_rank: dict[int, list[Card]], jokers: int, size: int) -> int | None:
    """The highest rank that real cards plus every joker can make ``size`` of (jokers go to the top set)."""
    return next((r for r, group in by_rank.items() if len(group) + jokers >= size), None)


def _set(rank: int, size: int, by_rank: dict[int, list[Card]], held: Counter[Card]) -> Group:
    """``size`` cards of ``rank``: the real ones, jokers for the rest."""
    reals = by_rank[rank]
    return reals, _stand_ins(rank, size - len(reals), held)


def _singles(by_rank: dict[int, list[Card]], *used: int) -> list[Group]:
    """The real cards left over as kickers, high to low (a joker is never left over: see the module tests)."""
    return [([c], []) for r, group in by_rank.items() if r not in used for c in group]


def _ranks(singles: list[Group]) -> list[int]:
    return [reals[0].rank for reals, _ in singles]


def _ladder(size: int, hand: Sequence[Card]) -> HandValue:
    """The strongest hand ``hand`` makes, read from the ladder (already checked: right size, no card
    beyond the deck's copies). ``_evaluate`` answers the same from its tables; this reads each shape once."""
    reals = sorted(hand, key=_INDEX, reverse=True)
    jokers = reals.count(JOKER)
    if jokers:
        del reals[:jokers]  # the joker's index (52) is the highest: they come first
    if size == 3:
        return _head(reals, jokers)
    return _five(reals, jokers)


_INDEX = attrgetter("index")

# --- duns by table ------------------------------------------------------------------------------------
# The ladder reads a dun from its ranks, its jokers, whether its real cards share one suit and (only for
# what a joker stands for) which cards of a rank it holds. So a dun is valued like an OFC row: each card
# has a code, the codes of the dun's cards are added (one int per dun), and that sum is looked up.
#
#   bits 0-38    how many cards of each rank (3 bits per rank, 2 to 14)
#   bits 39-41   how many jokers
#   bits 42-57   per suit (c d h s, 4 bits each) the real cards of that suit plus the jokers, from 3: a
#                field reaches 8 (its bit 3) exactly when all five cards are that suit or jokers (a flush)
#   bits 58-428  per card (7 bits each, by Card.index, the joker last) how many times the dun holds it,
#                from 63 minus the copies the deck holds: a field reaches 64 (its bit 6) exactly when the
#                dun holds the card more often than the deck does
#
# Bits 0-41 and the flush bit are the dun's shape: a few thousand of them. The first dun of each shape is
# read by the ladder and its answer kept as a plan (category, label, strength, which of the dun's cards
# sorted low to high goes where, and how each joker's stand-in follows from the cards held of its rank).
# Every later dun of that shape is one addition per card, a dict look-up, a sort of five cards and a tuple.
# The brute-force tests (test_brute_force.py: every dun with a joker, every head) and test_plans.py
# (every shape against the ladder) prove the tables.

_HELD, _SUITED = 0, 1  # a stand-in chosen among the cards the dun does not hold, or the flush's own card
_planning = threading.local()  # .recording: the stand-ins chosen while this thread makes a plan

_JOKER_COUNT_SHIFT = 39
_SHAPE_MASK = (1 << 42) - 1
_SUIT_SHIFT = 42
_FLUSH_BITS = sum(8 << (_SUIT_SHIFT + 4 * s) for s in range(4))
_CARD_SHIFT = 58
_CARD_BITS = 7
_CARD_LIMIT = 1 << (_CARD_BITS - 1)  # a card field's bit 6: held beyond the deck's copies
_RANK_CARDS_MASK = (1 << 4 * _CARD_BITS) - 1  # the four card fields of one rank (c d h s)
_ALL_CARDS: tuple[Card, ...] = (*DECK, JOKER)  # by Card.index


_TOO_MANY = sum(_CARD_LIMIT << (_CARD_SHIFT + _CARD_BITS * c.index) for c in _ALL_CARDS)
_SUIT_START = sum(3 << (_SUIT_SHIFT + 4 * s) for s in range(4))  # every suit field's start, in each dun's sum
_HAND_SHAPE = (1 << _CARD_SHIFT) - 1
"""The low fields of the three duns' sums added less their suit starts: the 13 cards' shape, how many of each
rank, jokers and cards of each suit (a suit's field at most 13: no carry into the card fields), the key
``specials.py`` reads a special hand from."""


@dataclass(frozen=True, slots=True)
class ThirteenDeck:
    """A Thirteen game's deck and deal: how many of each card it holds (a card it lacks: 0) and how many
    cards each player is dealt (13 set, the rest discarded). Every check of "a card held more often than the
    deck holds it" reads it, as the start of a dun's sum (``start``): a field starts at 63 minus the card's
    copies, so one copy too many reaches 64, the field's "too many" bit."""

    copies: Mapping[Card, int]
    hand_size: int
    opponent: str  # the simulated opponent dealt from this deck: suggest.py's data/<opponent>
    cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)  # the deck, each copy once
    start: int = field(init=False, repr=False, compare=False)
    cards_start: int = field(init=False, repr=False, compare=False)  # ``start``'s card fields alone

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(c for c, n in self.copies.items() for _ in range(n)))
        start = _SUIT_START + sum(
            (_CARD_LIMIT - 1 - self.copies.get(c, 0)) << (_CARD_SHIFT + _CARD_BITS * c.index) for c in _ALL_CARDS
        )
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "cards_start", start >> _CARD_SHIFT)

    @property
    def discards(self) -> int:
        return self.hand_size - SET_CARDS

    @property
    def distinct(self) -> bool:
        """Whether the deck holds every card once (a card twice is then simply a duplicate)."""
        return all(n == 1 for n in self.copies.values())


SET_CARDS = 13  # what a player sets in the three duns: 3 + 5 + 5

JOKER_DECK = ThirteenDeck(
    {c: 2 if c.suit is Suit.SPADES else 1 for c in DECK} | {JOKER: 3},
    hand_size=17,
    opponent="joker_thirteen_opponent.json",
)
"""Joker Thirteen's 68 cards: the 52, a second identical spade suit (加一色) and 3 jokers; 17 dealt, 4 discarded."""
ORDINARY_DECK = ThirteenDeck(dict.fromkeys(DECK, 1), hand_size=SET_CARDS, opponent="thirteen_opponent.json")
"""Ordinary 十三支's one 52-card deck, every card distinct; 13 dealt, all set."""

DECK_COPIES: Mapping[Card, int] = JOKER_DECK.copies
"""How many of each card the 68-card deck holds; usable as ``find_duplicates(copies=DECK_COPIES)``."""
GAME_DECK: tuple[Card, ...] = JOKER_DECK.cards
"""The 68 cards, each copy once."""


def _code(c: Card) -> int:
    card = 1 << (_CARD_SHIFT + _CARD_BITS * c.index)
    if c.suit is None:  # the joker counts in every suit: it never keeps the real cards from a flush
        return (1 << _JOKER_COUNT_SHIFT) + sum(1 << (_SUIT_SHIFT + 4 * s) for s in range(4)) + card
    return (1 << 3 * (c.rank - 2)) + (1 << (_SUIT_SHIFT + 4 * c.suit.order)) + card


_CODES: list[int] = [_code(c) for c in _ALL_CARDS]  # by Card.index: a list index is cheaper than a dict


Plan = tuple[
    str,  # category
    messages.Message,  # label
    tuple[int, ...],  # strength
    Callable[[Sequence[Card]], tuple[Card, ...]],  # the answer's cards out of the dun's sorted low to high
    tuple[Card, ...],  # what the jokers stand for, when that is the same for every dun of the shape
    tuple[tuple[int, int, Mapping[int, tuple[Card, ...]]], ...],  # else per joker group: (shift, mask, table)
    int,  # the strength as one small int (``_order``)
]
_HEADS: dict[int, Plan] = {}
_FIVES: dict[int, Plan] = {}  # shape, or shape | 1 << 42 when the real cards share a suit


@cache
def _stand_in_table(rank: int, need: int) -> dict[int, tuple[Card, ...]]:
    """What ``need`` jokers of ``rank`` stand for (``_stand_ins``), by the card fields of that rank in the
    dun's sum: every lawful holding of the rank that leaves room for them."""
    table: dict[int, tuple[Card, ...]] = {}
    cards = [_CARD[rank, s] for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)]
    for counts in product(*(range(DECK_COPIES[c] + 1) for c in cards)):
        held = Counter({c: n for c, n in zip(cards, counts, strict=True) if n})
        if sum(counts) + need > 5:
            continue
        fields = sum(
            (_CARD_LIMIT - 1 - DECK_COPIES[c] + n) << (_CARD_BITS * i)
            for i, (c, n) in enumerate(zip(cards, counts, strict=True))
        )
        chosen: list[Card] = []
        for suit, copy in _COPY_SLOTS:
            c = _CARD[rank, suit]
            if len(chosen) < need and held[c] < copy:
                held[c] += 1
                chosen.append(c)
        table[fields] = tuple(chosen)
    return table


_SUITED_MASKS = {8 << (_SUIT_SHIFT + 4 * s.order): s for s in Suit}  # the flush bit -> its suit


@cache
def _suited_table(rank: int, need: int) -> dict[int, tuple[Card, ...]]:
    """What ``need`` jokers copying ``rank`` in the flush's suit stand for, by the dun's flush bit."""
    return {bit: (_CARD[rank, suit],) * need for bit, suit in _SUITED_MASKS.items()}


_ORDER_PLACES = 6  # the longest strength: a five-card high card, flush or one-pair pair flush
_RUNG_SHIFT = 4 * (_ORDER_PLACES - 1)  # an order's first place: the rung plus one


def _order(strength: tuple[int, ...]) -> int:
    """``strength`` as one int that compares as the tuple does: a nibble per place, from the top, holding
    the place plus one (every place is 1 to 14), and 0 past its end, so a prefix is smaller, as a head's
    strength against a longer one. Fits one machine digit (24 bits): two compare as one integer where two
    tuples compare place by place (the round's settlement compares 36 pairs of them)."""
    assert len(strength) <= _ORDER_PLACES and all(0 <= place < 15 for place in strength), strength
    order = 0
    for place in range(_ORDER_PLACES):
        order = order << 4 | (strength[place] + 1 if place < len(strength) else 0)
    return order


def _evaluate(size: int, hand: Sequence[Card]) -> HandValue:
    """The strongest hand ``hand`` makes, from the tables; a hand the deck cannot deal (an identical pair
    off spades: the natural hand of a pair flush, in the tests and the suggester) from the ladder."""
    value = _value_if_lawful(size, hand)
    return _ladder(size, hand) if value is None else value


def _value_if_lawful(size: int, hand: Sequence[Card], deck: ThirteenDeck = JOKER_DECK) -> HandValue | None:
    """The dun's hand value from the tables, None when ``hand`` is not ``size`` cards or holds a card
    more often than ``deck`` does (``_dun_problems`` then says which)."""
    lawful = _lawful_dun(size, hand, deck)
    return None if lawful is None else lawful[0]


def _lawful_dun(size: int, hand: Sequence[Card], deck: ThirteenDeck = JOKER_DECK) -> tuple[HandValue, int, int] | None:
    """The dun's hand value from its shape's plan, its strength's ``_order`` and its sum (``deck.start``
    plus the code of each of its cards); None when ``hand`` is not ``size`` cards or holds a card more often
    than ``deck`` does."""
    if len(hand) != size:
        return None
    key = deck.start
    for c in hand:
        key += _CODES[c.index]
    if key & _TOO_MANY:
        return None
    if size == 5:
        plan = _FIVES.get(key & _SHAPE_MASK | (1 << 42 if key & _FLUSH_BITS else 0))
    else:
        plan = _HEADS.get(key & _SHAPE_MASK)
    if plan is None:
        value = _plan(size, hand, key)
        return value, _order(value.strength), key
    category, label, strength, pick, resolved, stand_ins, order = plan
    for shift, mask, table in stand_ins:
        resolved += table[key >> shift & mask]
    cards = pick(sorted(hand, key=_INDEX))  # low to high: cheaper than reversed, and equal cards are one object
    return HandValue(category, label, strength, cards, resolved), order, key


def _plan(size: int, hand: Sequence[Card], key: int) -> HandValue:
    """Read the dun with the ladder, recording its stand-ins, and keep the plan of its shape."""
    recording: list[tuple[int, int, int]] = []
    _planning.recording = recording
    try:
        value = _ladder(size, hand)
    finally:
        _planning.recording = None
    ordered: list[Card | None] = sorted(hand, key=_INDEX)
    positions = []
    for c in value.cards:  # an identical card (a joker, a spade's copy) takes the highest free position,
        i = max(i for i, u in enumerate(ordered) if u is c)  # as a distinct card of its rank would
        ordered[i] = None
        positions.append(i)
    stand_ins = tuple(
        (_CARD_SHIFT + _CARD_BITS * 4 * (rank - 2), _RANK_CARDS_MASK, _stand_in_table(rank, need))
        if kind == _HELD
        else (0, _FLUSH_BITS, _suited_table(rank, need))
        for kind, rank, need in recording
        if need  # a set the dun's real cards fill alone stands for nothing: no look-up per dun for it
    )
    plan: Plan = (
        value.category,
        value.label,
        value.strength,
        itemgetter(*positions),
        () if stand_ins else value.resolved or (),
        stand_ins,
        _order(value.strength),
    )
    category, label, strength, pick, resolved, _, _ = plan
    for shift, mask, found in stand_ins:
        resolved += found[key >> shift & mask]
    if (category, label, strength, pick(sorted(hand, key=_INDEX)), resolved) == value:
        # never otherwise (test_plans.py): a plan that did not give back the ladder's answer is not kept
        table = _HEADS if size == 3 else _FIVES
        table[key & _SHAPE_MASK | (1 << 42 if size == 5 and key & _FLUSH_BITS else 0)] = plan
    return value


_MIXED = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.SPADES)  # a rank's copies, in turn
SHAPES = 16_303
"""How many shapes lawful duns have: 560 heads and 15,743 five-card duns (tests/joker_thirteen/test_plans.py)."""


def plan_every_shape() -> int:
    """Make the plan of every shape there is now, as the first dun of each shape would: for a
    process that forks workers (gunicorn's ``preload_app``), so that they share the plans
    instead of each making its own on first sight. Returns how many plans there are."""
    for size in (3, 5):
        for jokers in range(4):
            for ranks in combinations_with_replacement(range(14, 1, -1), size - jokers):
                counts = Counter(ranks)
                hand = [JOKER] * jokers
                for i, (rank, n) in enumerate(counts.items()):  # single cards in turned suits: mixed suits
                    suits = _MIXED[i % 4 :] + _MIXED[: i % 4] if n == 1 else _MIXED
                    hand += [_CARD[rank, suit] for suit in suits[:n]]
                _evaluate(size, hand)
                most = max(counts.values(), default=0)
                if size == 5 and most <= 2:  # the same ranks in one suit (a pair only in spades: two copies)
                    suit = Suit.SPADES if most == 2 else Suit.HEARTS
                    _evaluate(size, [*[JOKER] * jokers, *(_CARD[rank, suit] for rank in ranks)])
    return len(_HEADS) + len(_FIVES)


def _head(reals: list[Card], jokers: int) -> HandValue:
    """頭墩 only knows high card, pair, trips and three jokers (no straight or flush in 3 cards)."""
    if jokers == 3:  # 鬼三條: the jokers stand for themselves (ruling in docs/rulings.md)
        return _hand(Category.THREE_JOKERS, (), [([], [JOKER] * 3)])
    by_rank = _by_rank(reals)
    held = _held(reals, jokers)
    trips = _best_rank(by_rank, jokers, 3)
    if trips is not None:
        return _hand(Category.TRIPS, (trips,), [_set(trips, 3, by_rank, held)])
    pair = _best_rank(by_rank, jokers, 2)
    if pair is not None:
        kickers = _singles(by_rank, pair)
        return _hand(Category.PAIR, (pair, *_ranks(kickers)), [_set(pair, 2, by_rank, held), *kickers])
    return _hand(Category.HIGH_CARD, [c.rank for c in reals], _singles(by_rank))


def _five(reals: list[Card], jokers: int) -> HandValue:
    """The ladder from the top: the first shape the jokers can complete is the strongest hand."""
    by_rank = _by_rank(reals)
    held = _held(reals, jokers)
    suits = {c.suit for c in reals}
    suit = next(iter(suits)) if len(suits) == 1 else None  # every real card of one suit: a flush is possible
    distinct = len(by_rank) == len(reals)
    straight_high = _STRAIGHT_HIGH.get(sum(1 << r for r in by_rank), 0) if distinct else 0

    if len(by_rank) == 1:  # 五枚: jokers fill the other copies (c d h s s is five cards)
        rank = reals[0].rank
        category = Category.REAL_FIVE if jokers == 0 else Category.JOKER_FIVE
        return _hand(category, (rank,), [_set(rank, 5, by_rank, held)])
    if suit is not None and straight_high:
        return _straight(Category.STRAIGHT_FLUSH, straight_high, by_rank, held, suit)
    quads = _best_rank(by_rank, jokers, 4)
    if quads is not None:  # quads + jokers is exactly 4: a fifth would have been five of a kind
        kicker = _singles(by_rank, quads)
        return _hand(Category.QUADS, (quads, *_ranks(kicker)), [_set(quads, 4, by_rank, held), *kicker])
    if len(by_rank) == 2:  # two ranks that cannot make quads: 3 + 2 (a joker only with two real pairs)
        return _full_house(by_rank, jokers, held)
    if suit is not None and (jokers or not distinct):
        return _pair_flush(by_rank, jokers, suit)
    if suit is not None:
        return _hand(Category.FLUSH, [c.rank for c in reals], _singles(by_rank))
    if straight_high:
        return _straight(Category.STRAIGHT, straight_high, by_rank, held, None)
    return _five_low(by_rank, jokers, held)


def _straight(
    category: Category, high: int, by_rank: dict[int, list[Card]], held: Counter[Card], suit: Suit | None
) -> HandValue:
    """A (straight) flush's ranks high to low; a joker takes each missing rank (in the flush's suit)."""
    groups: list[Group] = []
    for rank in _WINDOWS[high]:
        if rank in by_rank:
            groups.append((by_rank[rank], []))
        elif suit is not None:
            groups.append(([], [_CARD[rank, suit]]))
            recording = getattr(_planning, "recording", None)
            if recording is not None:
                recording.append((_SUITED, rank, 1))
        else:
            groups.append(([], _stand_ins(rank, 1, held)))
    return _hand(category, (high,), groups)


def _full_house(by_rank: dict[int, list[Card]], jokers: int, held: Counter[Card]) -> HandValue:
    """Two ranks and no quads: the higher rank is the trips, unless the lower already holds 3 real cards."""
    high, low = by_rank
    trips, pair = (high, low) if len(by_rank[low]) <= 2 and len(by_rank[high]) + jokers >= 3 else (low, high)
    return _hand(Category.FULL_HOUSE, (trips, pair), [_set(trips, 3, by_rank, held), _set(pair, 2, by_rank, held)])


def _pair_flush(by_rank: dict[int, list[Card]], jokers: int, suit: Suit) -> HandValue:
    """對子同花: in one suit, two cards of a rank are identical copies, and a joker may be that copy.

    Reached with 3 or 4 ranks only (1 rank is five of a kind, 2 ranks quads or a full house). Three ranks
    make two pairs: the lowest single is the kicker, jokers pair the rest. Four ranks make one pair: the
    real pair, or a joker copying the highest card.
    """
    ranks = list(by_rank)
    if len(ranks) == 3:
        kicker = min(r for r in ranks if len(by_rank[r]) == 1)
        high, low = (r for r in ranks if r != kicker)
        groups = [_copied(by_rank[high], suit), _copied(by_rank[low], suit), (by_rank[kicker], [])]
        return _hand(Category.PAIR_FLUSH, (2, high, low, kicker), groups, TWO_PAIR_FLUSH_LABEL)
    pair = _best_rank(by_rank, jokers, 2)
    assert pair is not None  # four ranks in five cards: a real pair, or one joker for the highest
    kickers = _singles(by_rank, pair)
    return _hand(Category.PAIR_FLUSH, (1, pair, *_ranks(kickers)), [_copied(by_rank[pair], suit), *kickers])


def _copied(reals: list[Card], suit: Suit) -> Group:
    """An identical pair: the real copies, a joker as the second copy when only one is real."""
    recording = getattr(_planning, "recording", None)
    if recording is not None and len(reals) < 2:
        recording.append((_SUITED, reals[0].rank, 2 - len(reals)))
    return reals, [_CARD[reals[0].rank, suit]] * (2 - len(reals))


def _five_low(by_rank: dict[int, list[Card]], jokers: int, held: Counter[Card]) -> HandValue:
    """Below the straight, three or more ranks of mixed suits: trips, two pair, pair or high card."""
    trips = _best_rank(by_rank, jokers, 3)
    if trips is not None:
        kickers = _singles(by_rank, trips)
        return _hand(Category.TRIPS, (trips, *_ranks(kickers)), [_set(trips, 3, by_rank, held), *kickers])
    pairs = [r for r, group in by_rank.items() if len(group) == 2]
    if len(pairs) == 2:  # only without jokers: a joker beside a real pair makes trips
        kicker = _singles(by_rank, *pairs)
        groups = [(by_rank[pairs[0]], []), (by_rank[pairs[1]], []), *kicker]
        return _hand(Category.TWO_PAIR, (*pairs, *_ranks(kicker)), groups)
    pair = _best_rank(by_rank, jokers, 2)
    if pair is not None:
        kickers = _singles(by_rank, pair)
        return _hand(Category.PAIR, (pair, *_ranks(kickers)), [_set(pair, 2, by_rank, held), *kickers])
    return _hand(Category.HIGH_CARD, list(by_rank), _singles(by_rank))


def _dun_problems(dun: Dun, hand: Sequence[Card], path: Path, deck: ThirteenDeck) -> list[InputProblem]:
    if len(hand) != dun.size:
        return [problem(DOMAIN, path, f"wrong_{dun.value}_size", dun=dun.value, size=dun.size, actual=len(hand))]
    return find_duplicates([(path + (i,), x) for i, x in enumerate(hand)], copies=deck.copies, default_copies=0)


def evaluate_dun(
    dun: Dun | str, hand: Sequence[Card], path: Path = ("cards",), deck: ThirteenDeck = JOKER_DECK
) -> HandValue:
    """The strongest hand the dun makes, jokers read automatically (鬼牌一律自動算成當下能成立的最大牌型).

    ``InvalidInputError`` (at ``path``) for a wrong size or a card held more often than ``deck`` holds it.
    """
    size = _DUN_SIZE.get(dun)
    value = _value_if_lawful(size, hand, deck) if size else None
    if value is None:
        raise InvalidInputError(_dun_problems(Dun(dun), hand, path, deck))
    return value


_DUN_SIZE: dict[str, int] = {d.value: d.size for d in Dun}
"""A dun (or its name) -> its size; a str enum hashes as its value."""


def compare_duns(
    dun: Dun | str, a: Sequence[Card], b: Sequence[Card], deck: ThirteenDeck = JOKER_DECK
) -> tuple[str, HandValue, HandValue]:
    """Which of two duns wins (``"a"``, ``"b"`` or ``"tie"``); they are alternatives, so they may share cards."""
    value_a = evaluate_dun(dun, a, ("a",), deck)
    value_b = evaluate_dun(dun, b, ("b",), deck)
    return winner(value_a, value_b), value_a, value_b
