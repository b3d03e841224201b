"""The loser's factors read from tables built once per rule set (issue 15, ``scoring._loser_factors``) are
exactly what the rules computed before, card by card (``loser_factors_as_before``, the previous code): on
every count of cards and every set of 2s, on thousands of random losers' hands, under the house rules and
under random rule sets (tiers of any bounds, any multipliers). The same factor is one shared object."""

from __future__ import annotations

import random
from dataclasses import replace

from service.rules.big_two import TAIWAN, CardsLeftTier
from service.rules.big_two.common import FactorCode, sort_cards
from service.rules.big_two.scoring import _factor, loser_multiplier_factors, monsters_left
from service.rules.cards import DECK


def loser_factors_as_before(cards, rules):
    tier = next(tier for tier in rules.cards_left_tiers if len(cards) >= tier.least)
    factors = [_factor(FactorCode.CARDS_LEFT_TIER, tier.multiplier, case=tier.case)]
    twos = sort_cards(c for c in cards if c.rank == 2)
    if twos:
        factors.append(_factor(FactorCode.TWOS_HELD, rules.two_held ** len(twos), twos, count=len(twos)))
    kinds, monster_cards = monsters_left(cards)
    if kinds:
        factors.append(
            _factor(FactorCode.MONSTER_HELD, rules.monster_held, monster_cards, kinds=[k.value for k in kinds])
        )
    return tuple(factors)


def random_rules(rng: random.Random):
    bounds = sorted(rng.sample(range(1, 14), rng.randint(0, 4)), reverse=True)
    tiers = tuple(CardsLeftTier(least, rng.randint(1, 9), f"{least}+") for least in bounds)
    return replace(
        TAIWAN,
        id=f"random-{rng.random()}",
        cards_left_tiers=(*tiers, CardsLeftTier(0, rng.randint(1, 3), "0+")),
        two_held=rng.randint(1, 5),
        monster_held=rng.randint(1, 5),
    )


def same(cards, rules):
    found = loser_multiplier_factors(cards, rules)
    expected = loser_factors_as_before(cards, rules)
    assert found == expected, cards
    assert [f.params for f in found] == [f.params for f in expected], cards  # params are not in a Factor's hash


def test_every_count_and_every_set_of_twos_as_before():
    twos = [c for c in DECK if c.rank == 2]
    others = [c for c in DECK if c.rank != 2]
    rng = random.Random("twos")
    for rules in (TAIWAN, *(random_rules(rng) for _ in range(20))):
        for mask in range(16):
            held = [c for i, c in enumerate(twos) if mask >> i & 1]
            for count in range(max(1, len(held)), 14):
                cards = held + rng.sample(others, count - len(held))
                rng.shuffle(cards)
                same(tuple(cards), rules)


def test_random_losers_as_before_under_random_rule_sets():
    rng = random.Random("losers")
    rule_sets = [TAIWAN, *(random_rules(rng) for _ in range(30))]
    for _ in range(5000):
        cards = tuple(rng.sample(DECK, rng.randint(1, 13)))
        same(cards, rng.choice(rule_sets))


def test_a_rule_set_whose_tiers_leave_a_count_out_fails_as_before():
    rules = replace(TAIWAN, id="gap", cards_left_tiers=(CardsLeftTier(5, 2, "5+"),))
    for count in (1, 4):
        try:
            loser_factors_as_before(DECK[:count], rules)
        except StopIteration:
            pass
        else:
            raise AssertionError("the previous code finds no tier")
        try:
            loser_multiplier_factors(DECK[:count], rules)
        except StopIteration:
            continue
        raise AssertionError("no tier: StopIteration, as before")
    same(DECK[:6], rules)


def test_one_object_per_factor():
    first, second = loser_multiplier_factors(DECK[:3]), loser_multiplier_factors(DECK[4:7])  # 2c 2d 2h, 3c 3d 3h
    assert first[0] is second[0] and first[1] is not None and len(second) == 1
    assert first[1] is loser_multiplier_factors(DECK[:3] + DECK[8:9])[1]  # the same three 2s held
