"""The direct joker evaluation against the brute-force reference (tests/joker_thirteen/reference.py).

Exhaustive, every dun the 68-card deck can hold: every head (0-3 jokers), every 5-card dun with exactly
one joker (287,378), two jokers (22,763) and three jokers (1,339), each joker tried as each of the 52
cards (``brute_force_grouped``). The literal ``brute_force`` checks the grouped one on every head and on
seeded samples of 5-card duns with one, two and three jokers, drawn three ways so that rare shapes come
up often: uniformly, from one suit (flushes, straight flushes, pair flushes) and from one straight
window (straights). Duns without jokers: a seeded sample, every real five and every straight flush.

Besides category and strength, each answer's ``resolved`` must be a lawful substitution (no third
identical card) whose natural hand has that same strength.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement

import pytest

from service.rules.cards import DECK, JOKER, Card, Suit
from service.rules.thirteen.duns import DECK_COPIES, _evaluate

from .reference import brute_force, brute_force_grouped

REALS: tuple[Card, ...] = tuple(c for c in DECK for _ in range(DECK_COPIES[c]))  # the 65 real cards


def lawful(reals: Sequence[Card]) -> bool:
    return all(n <= DECK_COPIES[c] for c, n in Counter(reals).items())


def assert_matches(hand: list[Card]) -> None:
    value = _evaluate(len(hand), hand)
    assert (value.category, value.strength) == brute_force_grouped(hand), [str(c) for c in hand]
    assert Counter(value.cards) == Counter(hand)
    if value.category in ("three_jokers", "joker_five"):
        return  # no natural hand is 鬼三條 or 鬼五枚: the jokers are what makes them
    stand_ins = iter(value.resolved)
    natural = [next(stand_ins) if c is JOKER else c for c in value.cards]
    assert max(Counter(natural).values()) <= 2
    assert _evaluate(len(natural), natural).strength == value.strength


def multisets(size: int, first: int = 0) -> Iterator[tuple[Card, ...]]:
    """Every lawful multiset of ``size`` real cards whose lowest card (by index) is ``DECK[first]``."""
    for rest in combinations_with_replacement(DECK[first:], size - 1):
        combo = (DECK[first], *rest)
        if lawful(combo):
            yield combo


@pytest.mark.slow
@pytest.mark.parametrize("jokers", [0, 1, 2, 3])
def test_every_head_matches_brute_force(jokers):
    count = 0
    for reals in combinations_with_replacement(DECK, 3 - jokers):
        if lawful(reals):
            hand = [*reals, *[JOKER] * jokers]
            assert_matches(hand)
            assert brute_force(hand) == brute_force_grouped(hand)
            count += 1
    assert count == {0: 22763, 1: 1339, 2: 52, 3: 1}[jokers]


@pytest.mark.slow
@pytest.mark.parametrize("first", range(52), ids=lambda i: str(DECK[i]))
def test_every_five_card_dun_with_one_joker_matches_brute_force(first):
    for reals in multisets(4, first):
        assert_matches([*reals, JOKER])


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, 52, 4), ids=lambda i: str(DECK[i])[0])
def test_every_five_card_dun_with_two_jokers_matches_brute_force(first):
    for i in range(first, first + 4):  # the four cards of one rank as the lowest card
        for reals in multisets(3, i):
            assert_matches([*reals, JOKER, JOKER])


@pytest.mark.slow
def test_every_five_card_dun_with_three_jokers_matches_brute_force():
    for reals in combinations_with_replacement(DECK, 2):
        if lawful(reals):
            assert_matches([*reals, JOKER, JOKER, JOKER])


def test_counts_of_five_card_duns_by_jokers():
    counts = [sum(1 for c in combinations_with_replacement(DECK, 5 - j) if lawful(c)) for j in (1, 2, 3)]
    assert counts == [287378, 22763, 1339]


def sample(rng: random.Random, size: int) -> list[Card]:
    """``size`` real cards: uniform, one suit, or one straight window (a third each)."""
    kind = rng.randrange(3)
    if kind == 0:
        pool = list(REALS)
    elif kind == 1:
        suit = rng.choice(list(Suit))
        pool = [c for c in REALS if c.suit is suit]
    else:
        high = rng.randrange(5, 15)
        ranks = {14 if r == 1 else r for r in range(high - 4, high + 1)}
        pool = [c for c in REALS if c.rank in ranks]
    return rng.sample(pool, size)


@pytest.mark.slow
@pytest.mark.parametrize(("jokers", "count"), [(1, 3000), (2, 400), (3, 40)])
def test_literal_brute_force_agrees_on_a_seeded_sample(jokers, count):
    rng = random.Random(1_000 * jokers)
    for _ in range(count):
        hand = [*sample(rng, 5 - jokers), *[JOKER] * jokers]
        value = _evaluate(5, hand)
        assert brute_force(hand) == brute_force_grouped(hand) == (value.category, value.strength), hand


def test_sampled_five_card_duns_without_jokers_match_the_reference():
    rng = random.Random(5)
    for _ in range(20_000):
        assert_matches(sample(rng, 5))


def test_every_real_five_and_straight_flush_matches_the_reference():
    for rank in range(2, 15):
        assert_matches([c for c in REALS if c.rank == rank])
    for suit in Suit:
        for high in range(5, 15):
            ranks = {14 if r == 1 else r for r in range(high - 4, high + 1)}
            assert_matches([c for c in DECK if c.suit is suit and c.rank in ranks])


def test_every_spade_dun_without_jokers_matches_the_reference():
    # the only suit with identical pairs when no joker is in play: every pair flush and flush of it
    spades = [c for c in DECK if c.suit is Suit.SPADES]
    count = 0
    for reals in combinations_with_replacement(spades, 5):
        if lawful(reals):
            assert_matches(list(reals))
            count += 1
    assert count == 5_005  # 1,287 without a pair + 2,860 with one + 858 with two
