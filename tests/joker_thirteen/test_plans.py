"""Duns by table (``thirteen.duns._value_if_lawful``): the plan made from the first dun of a shape (its
ranks, its jokers, whether its real cards share a suit), applied to every other dun of that shape, gives
exactly what the ladder (``_ladder``) gives: category, label, strength, the cards in order and what each
joker stands for. Every shape there is, each dealt several ways. The ladder itself is proven against
brute force (test_brute_force.py, which also runs every dun with a joker and every head through the
tables)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement, product

import pytest

from service.rules.cards import JOKER, Card, Suit, parse_cards
from service.rules.thirteen import duns as j13

REALS = [c for c in j13.GAME_DECK if c is not JOKER]
SUITS = list(Suit)


def ladder(hand):
    return j13._ladder(len(hand), hand)


def shape_key(hand):
    key = j13.JOKER_DECK.start + sum(j13._CODES[c.index] for c in hand)
    flush = len(hand) == 5 and bool(key & j13._FLUSH_BITS)
    return key & j13._SHAPE_MASK | (1 << 42 if flush else 0)


def table(hand):
    return j13._HEADS if len(hand) == 3 else j13._FIVES


def assert_planned(hand):
    """The dun's answer from its shape's plan (made now if new) is the ladder's."""
    j13._evaluate(len(hand), hand)  # makes the plan on a new shape
    assert shape_key(hand) in table(hand), [c.text for c in hand]
    value = j13._evaluate(len(hand), hand)
    assert value == ladder(hand), [c.text for c in hand]
    assert j13.evaluate_dun("head" if len(hand) == 3 else "middle", hand) == value


def random_duns(rng, jokers, count):
    found = []
    while len(found) < count:
        hand = rng.sample(REALS, 5 - jokers) + [JOKER] * jokers
        if all(hand.count(c) <= j13.DECK_COPIES[c] for c in hand):
            rng.shuffle(hand)
            found.append(hand)
    return found


def suited_duns(rng, jokers, count):
    """One suit only (flushes, straight flushes, pair flushes with the spade copies): the suited plans."""
    found = []
    while len(found) < count:
        suit = rng.choice(["s", "h", "d", "c"])
        pool = [c for c in REALS if c.suit.value == suit]
        hand = rng.sample(pool, 5 - jokers) + [JOKER] * jokers
        rng.shuffle(hand)
        found.append(hand)
    return found


@pytest.mark.parametrize("jokers", [0, 1, 2, 3])
def test_a_plan_applied_to_other_duns_of_its_shape_is_the_ladder(jokers):
    rng = random.Random(1500 + jokers)
    duns = random_duns(rng, jokers, 6000) + suited_duns(rng, jokers, 3000)
    reused = 0
    for hand in duns:
        reused += shape_key(hand) in j13._FIVES
        assert j13.evaluate_dun(j13.Dun.MIDDLE, hand) == ladder(hand), [c.text for c in hand]
    assert reused > len(duns) // 4  # most duns met a plan another dun made


def deals(ranks, rng, mixed):
    """Duns holding exactly these real ranks: ``mixed`` random deals (the first of mixed suits), then one in
    each suit that can hold them all (a spade twice at most: the deck's second spade suit)."""
    counts = Counter(ranks)
    found = []
    while len(found) < mixed:
        cards = []
        for rank, n in counts.items():
            cards += rng.sample([c for c in REALS if c.rank == rank], n)  # c d h s s: never beyond the deck
        if found or len(cards) < 2 or len({c.suit for c in cards}) > 1:  # the first one of mixed suits
            found.append(cards)
    for suit in SUITS:
        if all(n <= j13.DECK_COPIES[Card(rank, suit)] for rank, n in counts.items()):
            found.append([Card(rank, suit) for rank in ranks])
    return found


@pytest.mark.parametrize("jokers", [0, 1, 2, 3])
@pytest.mark.parametrize("size", [3, 5])
def test_every_shape_has_a_plan_and_it_is_the_ladder_for_every_deal(size, jokers):
    rng = random.Random(size * 10 + jokers)
    shapes = set()
    for ranks in combinations_with_replacement(range(14, 1, -1), size - jokers):
        if max(Counter(ranks).values(), default=0) > 5:
            continue  # c d h s s: five of a rank at most
        for reals in deals(ranks, rng, mixed=3):
            hand = [*reals, *[JOKER] * jokers]
            rng.shuffle(hand)
            assert_planned(hand)
            shapes.add(shape_key(hand))
    plain = {5: [6188, 1820, 455, 91], 3: [455, 91, 13, 1]}[size][jokers]
    assert len([s for s in shapes if not s >> 42]) == plain  # every rank multiset, as a mixed-suit deal


def test_plan_every_shape_makes_every_plan_a_dun_can_need():
    assert j13.plan_every_shape() == j13.SHAPES
    assert (len(j13._HEADS), len(j13._FIVES)) == (560, 15_743)
    rng = random.Random(16_303)
    for jokers in range(4):
        for hand in random_duns(rng, jokers, 2000) + suited_duns(rng, jokers, 1000):
            assert_planned(hand)
            assert_planned(hand[:3])
    assert len(j13._HEADS) + len(j13._FIVES) == j13.SHAPES  # no dun needed a plan it had not made


def test_every_stand_in_table_is_the_ladders_choice():
    """``_stand_in_table`` against ``_stand_ins`` itself, for every rank, every count of jokers and every
    lawful holding of that rank (c d h s s)."""
    for rank in range(2, 15):
        cards = [Card(rank, s) for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)]
        for need in range(1, 6):
            found = j13._stand_in_table(rank, need)
            checked = 0
            for counts in product(range(2), range(2), range(2), range(3)):
                if sum(counts) + need > 5:
                    continue
                held = Counter({c: n for c, n in zip(cards, counts, strict=True) if n})
                dun = [c for c, n in held.items() for _ in range(n)] + [JOKER] * need
                key = j13.JOKER_DECK.start + sum(j13._CODES[c.index] for c in dun)
                fields = key >> (j13._CARD_SHIFT + j13._CARD_BITS * 4 * (rank - 2)) & j13._RANK_CARDS_MASK
                assert found[fields] == tuple(j13._stand_ins(rank, need, Counter(held))), (rank, need, counts)
                checked += 1
            assert checked == len(found)


def test_too_many_copies_is_seen_in_the_sum():
    """The sum's card fields: a dun holding a card more often than the deck does has no value (the caller
    reports it), every lawful one has."""
    rng = random.Random(15)
    for size in (3, 5):
        for _ in range(3000):
            hand = [rng.choice([*REALS[:20], JOKER]) for _ in range(size)]
            lawful = all(n <= j13.DECK_COPIES[c] for c, n in Counter(hand).items())
            assert (j13._value_if_lawful(size, hand) is not None) == lawful, [c.text for c in hand]
    assert j13._value_if_lawful(5, parse_cards(["As", "As", "As", "Kd", "2c"])) is None
    assert j13._value_if_lawful(5, parse_cards(["As", "As", "Ah", "Ad", "Ac"])) is not None
    assert j13._value_if_lawful(5, [JOKER] * 4 + parse_cards(["2c"])) is None
    assert j13._value_if_lawful(3, [JOKER] * 3) is not None
    assert j13._value_if_lawful(5, parse_cards(["As", "Ks", "Qs"])) is None  # the wrong size


def test_the_same_plan_gives_each_dun_its_own_cards_and_stand_ins():
    # one shape (a pair of kings by a joker, 9 8 7 kickers, mixed suits), different suits each time
    hands = [["Kh", "9s", "8d", "7c"], ["Kc", "9h", "8h", "7d"], ["Ks", "9c", "8s", "7s"]]

    values = [j13.evaluate_dun("middle", [*parse_cards(h), JOKER]) for h in hands]
    assert [v.category for v in values] == ["pair"] * 3
    assert [[c.text for c in v.resolved] for v in values] == [["Ks"], ["Ks"], ["Kh"]]
    assert [[c.text for c in v.cards] for v in values] == [
        ["Kh", "JK", "9s", "8d", "7c"],
        ["Kc", "JK", "9h", "8h", "7d"],
        ["Ks", "JK", "9c", "8s", "7s"],
    ]
