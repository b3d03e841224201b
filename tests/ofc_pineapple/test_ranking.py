"""Exhaustive checks of the poker ranking behind OFC rows.

Five cards: over all 2,598,960 hands, our order (ties included) equals phevaluator's, a test-only oracle.
Three cards: over all 22,100 tops, our order equals an independent definition written here from the rule
book's table (trips > pair > high card, then ranks in order), and a hash of the sorted order is pinned.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import combinations

import pytest
from phevaluator import evaluate_cards

from service.rules import poker
from service.rules.cards import DECK, cards

pytestmark = pytest.mark.xdist_group("exhaustive-ranking")


@pytest.mark.slow
def test_every_five_card_hand_orders_exactly_as_phevaluator():
    # phevaluator's card ids are rank-major with suits c d h s: the same as Card.index.
    assert [c.index for c in DECK] == list(range(52))
    codes = [poker.CODE_BY_CARD[c] for c in DECK]
    rank5 = poker.rank5_codes
    classes: dict[tuple[int, ...], int] = {}
    hands = 0
    for ids in combinations(range(52), 5):
        strength = rank5(codes[ids[0]] + codes[ids[1]] + codes[ids[2]] + codes[ids[3]] + codes[ids[4]]).strength
        oracle = evaluate_cards(*ids)  # 1 = best ... 7462 = worst
        if classes.setdefault(strength, oracle) != oracle:
            pytest.fail(f"{[str(DECK[i]) for i in ids]}: strength {strength} tied with a hand phevaluator ranks apart")
        hands += 1
    assert hands == 2_598_960
    # A bijection between our strengths and phevaluator's 7,462 classes, in the same order.
    assert len(classes) == 7462 == len(set(classes.values()))
    by_strength = [classes[s] for s in sorted(classes)]
    assert by_strength == sorted(by_strength, reverse=True)


def independent_top_key(ranks: list[int]) -> tuple:
    """The rule book's 3-card order, written without the lookup tables: category, then ranks by count."""
    counts = Counter(ranks)
    category = {3: 2, 2: 1, 1: 0}[max(counts.values())]
    return (category, sorted(ranks, key=lambda r: (counts[r], r), reverse=True))


def test_every_three_card_top_orders_as_the_rule_book_table():
    tops = list(combinations(DECK, 3))
    assert len(tops) == 22_100
    ours = sorted(tops, key=lambda t: (poker.rank_cards(t).strength, [c.index for c in t]))
    reference = sorted(tops, key=lambda t: (independent_top_key([c.rank for c in t]), [c.index for c in t]))
    assert [poker.rank_cards(t).strength for t in ours] == [poker.rank_cards(t).strength for t in reference]
    assert ours == reference
    # Ties happen exactly between tops with the same ranks.
    classes = {poker.rank_cards(t).strength for t in tops}
    assert len(classes) == len({tuple(sorted(c.rank for c in t)) for t in tops}) == 455


def test_three_card_top_knows_no_straight_or_flush():
    assert poker.hand_value(cards("Qh Kh Ah")).category == "high_card"
    assert poker.hand_value(cards("2c 3c 4c")).strength == (1, 4, 3, 2)


def test_sorted_order_of_all_tops_is_pinned_by_hash():
    # Like pokerkit's lookup test: any change to the 3-card order changes this digest.
    tops = sorted(combinations(DECK, 3), key=lambda t: (poker.rank_cards(t).strength, [c.index for c in t]))
    digest = hashlib.sha256(" ".join("".join(str(c) for c in t) for t in tops).encode()).hexdigest()
    assert digest == TOPS_DIGEST


def test_order_of_all_five_card_classes_is_pinned_by_hash():
    # The 7,462 classes of five-card hands, each named by its strength, in order.
    strengths = sorted({r.strength for r in (*poker.PLAIN5.values(), *poker.FLUSH5.values())})
    assert len(strengths) == 7462
    digest = hashlib.sha256(repr(strengths).encode()).hexdigest()
    assert digest == FIVES_DIGEST


TOPS_DIGEST = "ad3b5e2d75ca1456351e3206c1a0d309acd5bddf8757e589f5d3b1e94e390a92"


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("As Ks Qs Js Ts", "Kh Qh Jh Th 9h"),  # royal flush over king-high straight flush
        ("5d 4d 3d 2d Ad", "Ac Ad Ah As Kc"),  # steel wheel over quads
        ("6c 5d 4h 3s 2c", "5c 4d 3h 2s Ac"),  # the wheel is the lowest straight
        ("5c 4d 3h 2s Ac", "Ac Ad Ah Kc Qd"),  # any straight over trips
        ("Ac Kc Qc Jc 9c", "Ac Kd Qh Js Tc"),  # flush over straight
        ("2c 2d 2h 3s 3c", "Ac Kc Qc Jc 9c"),  # full house over flush
        ("Kh Ks Qh Qs 2c", "Kc Kd 2h 2s Ac"),  # two pair: the second pair decides before the kicker
        ("9c 9d Ah 5s 4c", "9h 9s Kh Qs Jc"),  # pair: kickers in order
    ],
)
def test_five_card_order_examples(better, worse):
    assert poker.hand_value(cards(better)).strength > poker.hand_value(cards(worse)).strength


def test_royal_flush_has_its_own_label_on_the_straight_flush_rung():
    royal = poker.hand_value(cards("Ts Js Qs Ks As"))
    assert (royal.category, str(royal.label), royal.strength) == ("royal_flush", "Royal flush", (9, 14))
    assert [str(c) for c in royal.cards] == ["As", "Ks", "Qs", "Js", "Ts"]
    wheel = poker.hand_value(cards("Ad 2d 3d 4d 5d"))
    assert (wheel.category, wheel.strength) == ("straight_flush", (9, 5))
    assert [str(c) for c in wheel.cards] == ["5d", "4d", "3d", "2d", "Ad"]


def test_no_wrap_around_straight():
    assert poker.hand_value(cards("Qc Kd Ah 2s 3c")).category == "high_card"


FIVES_DIGEST = "d81a18cc6bd6c9198fa817c12ad962b500fe9f36f346e90828b9ad2d1fa4b5cc"


# --- the cards of a HandValue: order of significance, and repeats refused ------------------------------


def significance_order(hand) -> list:
    """Written from the definition, without the tables: bigger groups first, then higher ranks (the
    wheel's ace counting as 1), spades before hearts, diamonds, clubs within a rank."""
    counts = Counter(c.rank for c in hand)
    wheel = len(hand) == 5 and sorted(counts) == [2, 3, 4, 5, 14]
    return sorted(hand, key=lambda c: (counts[c.rank], 1 if wheel and c.rank == 14 else c.rank, c.index), reverse=True)


def test_every_top_lists_its_cards_in_order_of_significance():
    for top in combinations(DECK, 3):
        assert list(poker.hand_value(top).cards) == significance_order(top), top


@pytest.mark.slow
def test_five_card_hands_list_their_cards_in_order_of_significance():
    # Every 11th of the 2,598,960 hands (236,270 of them, every category), in two input orders each.
    for n, hand in enumerate(combinations(DECK, 5)):
        if n % 11 == 0:
            expected = significance_order(hand)
            assert list(poker.hand_value(hand).cards) == expected, hand
            assert list(poker.hand_value(hand[::-1]).cards) == expected, hand


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("Kd 9c 5h 9s 3c", "9s 9c Kd 5h 3c"),  # pair first, then kickers high to low
        ("2h Ks 2d Kc 2s", "2s 2h 2d Ks Kc"),  # full house: trips before the pair
        ("Ah 2c 3d 4s 5h", "5h 4s 3d 2c Ah"),  # the wheel: the ace plays low, last
        ("7c 7s 7d 7h Ad", "7s 7h 7d 7c Ad"),  # quads, suits s h d c
        ("Qh Qd 3s", "Qh Qd 3s"),
    ],
)
def test_order_of_significance_examples(hand, expected):
    assert " ".join(str(c) for c in poker.hand_value(cards(hand)).cards) == expected


def test_a_repeated_card_is_no_hand():
    for hand in ("As As Kd Qc 2h", "2c 3c 2c", "Ah Kh Qh Jh Ah", "7d 7d 7d 7d 7d"):
        assert poker.value_if_distinct(cards(hand)) is None, hand
        with pytest.raises(ValueError, match="repeats"):
            poker.hand_value(cards(hand))


def test_any_card_twice_is_refused_in_tops_and_fives():
    for card in DECK:
        others = [c for c in DECK if c is not card][::17]  # three other cards of different ranks
        assert poker.value_if_distinct([card, others[0], card]) is None, card
        assert poker.value_if_distinct([card, others[0], others[1], card, others[2]]) is None, card


def test_only_three_or_five_cards_are_a_poker_hand_here():
    for size in (0, 1, 2, 4, 6):
        with pytest.raises(ValueError, match="3 or 5 cards"):
            poker.value_if_distinct(DECK[:size])
