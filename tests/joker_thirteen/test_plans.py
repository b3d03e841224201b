"""Five-card duns by plan (``joker_thirteen._five_planned``): the plan made from the first dun of a shape,
applied to every other dun of that shape, gives exactly what the ladder (``_five``) gives: category,
label, strength, the cards in order and what each joker stands for. The ladder itself is proven against
brute force (test_brute_force.py)."""

from __future__ import annotations

import random

import pytest

from service.rules import joker_thirteen as j13
from service.rules.cards import JOKER

REALS = [c for c in j13.GAME_DECK if c is not JOKER]


def ladder(hand):
    reals = sorted((c for c in hand if c is not JOKER), key=lambda c: c.index, reverse=True)
    return j13._five(reals, 5 - len(reals))


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
        key = None
        reals = sorted((c for c in hand if c is not JOKER), key=lambda c: c.index, reverse=True)
        key = (tuple(c.rank for c in reals), len({c.suit for c in reals}) == 1)
        reused += key in j13._PLANS
        assert j13.evaluate_dun(j13.Dun.MIDDLE, hand) == ladder(hand), [c.text for c in hand]
    assert reused > len(duns) // 4  # most duns met a plan another dun made


def test_the_same_plan_gives_each_dun_its_own_cards_and_stand_ins():
    # one shape (a pair of kings by a joker, 9 8 7 kickers, mixed suits), different suits each time
    hands = [["Kh", "9s", "8d", "7c"], ["Kc", "9h", "8h", "7d"], ["Ks", "9c", "8s", "7s"]]
    from service.rules.cards import parse_cards

    values = [j13.evaluate_dun("middle", [*parse_cards(h), JOKER]) for h in hands]
    assert [v.category for v in values] == ["pair"] * 3
    assert [[c.text for c in v.resolved] for v in values] == [["Ks"], ["Ks"], ["Kh"]]
    assert [[c.text for c in v.cards] for v in values] == [
        ["Kh", "JK", "9s", "8d", "7c"],
        ["Kc", "JK", "9h", "8h", "7d"],
        ["Ks", "JK", "9c", "8s", "7s"],
    ]
