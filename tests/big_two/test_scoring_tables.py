"""The loser's factors read from tables built once per rule set (``scoring._loser_factors``) are
exactly what the rules computed before, card by card (``loser_factors_as_before``, the previous code): on
every count of cards and every set of 2s, on thousands of random losers' hands, under the house rules and
under random rule sets (tiers of any bounds, any multipliers). The same factor is one shared object."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.rules.big_two import TAIWAN, CardsLeftTier, classify, scoring
from service.rules.big_two.common import THREE_OF_CLUBS, Combination, FactorCode, sort_cards
from service.rules.big_two.scoring import _factor, loser_multiplier_factors, monsters_left, winner_multiplier_factors
from service.rules.cards import DECK, JOKER
from service.rules.errors import InvalidInputError


def listed(factors):
    """The factors a table lists: none of x1 but the cards-left tier (a multiplier the table sets to 1 is no
    factor of its game, docs/rulings.md B22); the code before rule sets listed them all."""
    return tuple(f for f in factors if f.value != 1 or f.factor is FactorCode.CARDS_LEFT_TIER)


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
    return listed(factors)


def random_rules(rng: random.Random):
    """A table with random loser multipliers and none for the winner (a loser's factors do not depend on them,
    and a table's multipliers together must keep every payment exact)."""
    bounds = sorted(rng.sample(range(1, 14), rng.randint(0, 4)), reverse=True)
    tiers = tuple(CardsLeftTier(least, rng.randint(1, 9), f"{least}+") for least in bounds)
    return replace(
        TAIWAN,
        id=f"random-{rng.random()}",
        cards_left_tiers=(*tiers, CardsLeftTier(0, rng.randint(1, 3), "0+")),
        two_held=rng.randint(1, 5),
        monster_held=rng.randint(1, 5),
        grand_slam=1,
        three_of_clubs_finish=1,
        two_finish=1,
        monster_finish=1,
        green_dragon_finish=1,
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


def test_a_rule_set_whose_tiers_leave_a_count_out_is_refused_naming_them():
    with pytest.raises(InvalidInputError) as refused:
        replace(TAIWAN, id="gap", cards_left_tiers=(CardsLeftTier(5, 2, "5+"),))
    assert [(p.path, p.code, p.params["case"]) for p in refused.value.problems] == [
        (("rules", "loser_multipliers", "cards_left"), "inconsistent_rules", "tiers")
    ]


def test_one_object_per_factor():
    first, second = loser_multiplier_factors(DECK[:3]), loser_multiplier_factors(DECK[4:7])  # 2c 2d 2h, 3c 3d 3h
    assert first[0] is second[0] and first[1] is not None and len(second) == 1
    assert first[1] is loser_multiplier_factors(DECK[:3] + DECK[8:9])[1]  # the same three 2s held


# --- the winner's factors (``scoring._winner_factors``) and the monsters' mask by a sum -------------------


def winner_factors_as_before(finish, grand_slam, rules):
    """``winner_multiplier_factors`` before its tables: every factor built for the game."""
    factors = []
    if grand_slam:
        factors.append(_factor(FactorCode.GRAND_SLAM, rules.grand_slam))
    if THREE_OF_CLUBS in finish.cards:
        factors.append(_factor(FactorCode.THREE_OF_CLUBS_FINISH, rules.three_of_clubs_finish, (THREE_OF_CLUBS,)))
    twos = sort_cards(c for c in finish.cards if c.rank == 2)
    if twos:
        factors.append(_factor(FactorCode.TWOS_FINISH, rules.two_finish ** len(twos), twos, count=len(twos)))
    kind = Combination(finish.category)
    if kind is Combination.GREEN_DRAGON:
        factors.append(_factor(FactorCode.GREEN_DRAGON_FINISH, rules.green_dragon_finish, finish.cards))
    elif kind in (Combination.FOUR_OF_A_KIND, Combination.STRAIGHT_FLUSH, Combination.DRAGON):
        factors.append(_factor(FactorCode.MONSTER_FINISH, rules.monster_finish, finish.cards, kind=kind.value))
    return listed(factors)


def finishing_plays(rng: random.Random) -> list:
    """Every single and pair, and random plays of five and thirteen cards that are combinations."""
    plays = [(c,) for c in DECK] + [(a, b) for a in DECK for b in DECK if a.rank == b.rank and a is not b]
    while len(plays) < 6000:
        size = rng.choice([5, 5, 5, 13])
        cards = tuple(rng.sample(DECK, size))
        if size == 5 and rng.randrange(2):  # a straight or four of a kind now and then
            low = rng.randrange(2, 11)
            cards = tuple(rng.choice([c for c in DECK if c.rank == r]) for r in range(low, low + 5))
        if size == 13 and rng.randrange(2):  # a dragon, or a green dragon (one suit)
            suit = rng.choice(DECK).suit if rng.randrange(2) else None
            cards = tuple(rng.choice([c for c in DECK if c.rank == r and suit in (None, c.suit)]) for r in range(2, 15))
        if classify(cards).valid:
            plays.append(cards)
    return plays


def test_the_winners_factors_as_before():
    rng = random.Random("winner")
    plays = [classify(cards).hand for cards in finishing_plays(rng)]
    assert {hand.category for hand in plays} == {c.value for c in TAIWAN.ladder.allowed}  # the house rules' plays
    no_loser_multiplier = replace(TAIWAN, cards_left_tiers=(CardsLeftTier(0, 1, "0+"),), two_held=1, monster_held=1)
    # random winner multipliers, without the loser's: together they must keep every payment exact
    randoms = [replace(no_loser_multiplier, grand_slam=rng.randint(1, 9), three_of_clubs_finish=rng.randint(1, 9),
                       two_finish=rng.randint(1, 5), monster_finish=rng.randint(1, 4)) for _ in range(5)]  # fmt: skip
    for rules in (TAIWAN, *randoms):
        for hand in plays:
            for grand_slam in (False, True):
                found = winner_multiplier_factors(hand, grand_slam, rules)
                expected = winner_factors_as_before(hand, grand_slam, rules)
                assert found == expected, hand
                assert [f.params for f in found] == [f.params for f in expected], hand


def monsters_card_by_card(cards):
    """``monsters_left`` before its mask was a sum: the same reading from bits built card by card."""
    return scoring._monsters_card_by_card(tuple(cards))


def test_monsters_left_by_a_sum_of_bits_as_card_by_card():
    """The mask as a sum of the cards' bits (a card given twice carries into fewer bits than cards) finds
    what the card-by-card reading finds, on random hands with cards twice and jokers."""
    rng = random.Random("monsters")
    for _ in range(20000):
        cards = rng.sample(DECK, rng.randint(0, 13))
        if rng.randrange(4) == 0 and cards:
            cards.append(rng.choice(cards))  # a card twice
        if rng.randrange(8) == 0:
            cards.append(JOKER)
        if rng.randrange(3) == 0 and len(cards) >= 5:  # four of a kind or a straight flush now and then
            rank, suit = rng.randrange(2, 11), rng.choice(DECK).suit
            pick = (
                [c for c in DECK if c.rank == rank]
                if rng.randrange(2)
                else [c for c in DECK if c.suit is suit and rank <= c.rank < rank + 5]
            )
            cards = pick + cards[len(pick) :]
        rng.shuffle(cards)
        assert monsters_left(cards) == monsters_card_by_card(cards), cards
