"""The deck, the 13-rung ladder (牌型階梯) and the strength layout, without jokers first."""

from __future__ import annotations

from collections import Counter

import pytest

from service.rules.cards import DECK, JOKER, Suit, cards
from service.rules.errors import InvalidInputError
from service.rules.thirteen import DECK_COPIES, GAME_DECK, RUNG, Category, Dun, compare_duns, evaluate_dun


def value(dun: str, text: str):
    return evaluate_dun(dun, cards(text))


def test_deck_is_68_cards_with_doubled_spades_and_three_jokers():
    assert len(GAME_DECK) == 68 == sum(DECK_COPIES.values())
    counts = Counter(GAME_DECK)
    assert counts[JOKER] == 3
    assert all(counts[c] == (2 if c.suit is Suit.SPADES else 1) for c in DECK)


def test_dun_sizes():
    assert (Dun.HEAD.size, Dun.MIDDLE.size, Dun.TAIL.size) == (3, 5, 5)


LADDER = [  # 牌型階梯, high to low, one natural-or-joker example each
    ("real_five", "7c 7d 7h 7s 7s"),
    ("joker_five", "Ac Ad Ah As JK"),
    ("straight_flush", "Ts Js Qs Ks As"),
    ("quads", "Ac Ad Ah As Ks"),
    ("full_house", "Ac Ad Ah Ks Kh"),
    ("pair_flush", "As As Ks Ks Qs"),
    ("pair_flush", "As As Ks Qs Js"),
    ("flush", "As Ks Qs Js 9s"),
    ("straight", "Ts Jh Qs Ks As"),
    ("trips", "Ac Ad Ah Ks Qs"),
    ("two_pair", "Ac Ad Kh Ks Qs"),
    ("pair", "Ac Ad Kh Qs Js"),
    ("high_card", "Ac Kd Qh Js 9s"),
]


def test_ladder_order_high_to_low():
    values = [value("tail", text) for _, text in LADDER]
    assert [v.category for v in values] == [c for c, _ in LADDER]
    strengths = [v.strength for v in values]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)


def test_rungs_ascend_with_three_jokers_between_straight_and_trips():
    order = sorted(Category, key=RUNG.__getitem__)
    assert [c.value for c in order] == [
        "high_card", "pair", "two_pair", "trips", "three_jokers", "straight", "flush", "pair_flush",
        "full_house", "quads", "straight_flush", "joker_five", "real_five",
    ]  # fmt: skip


def test_a_real_five_needs_both_spade_copies():
    assert value("middle", "9c 9d 9h 9s 9s").strength == (13, 9)


def test_straights_ace_high_and_wheel_lowest_no_wrap():
    assert value("tail", "Th Js Qd Kc As").strength == (6, 14)
    assert value("tail", "Ah 2s 3d 4c 5s").strength == (6, 5)
    assert value("tail", "2h 3s 4d 5c 6s").strength == (6, 6)
    wrap = value("tail", "Jh Qs Kd Ac 2s")
    assert wrap.category == "high_card" and wrap.strength == (1, 14, 13, 12, 11, 2)
    assert [str(c) for c in value("tail", "Ah 2s 3d 4c 5s").cards] == ["5s", "4c", "3d", "2s", "Ah"]


def test_straight_flush_wheel_is_the_smallest_straight_flush():
    assert value("tail", "Ah 2h 3h 4h 5h").strength == (11, 5)
    assert value("tail", "Ah 2h 3h 4h 5h").strength < value("tail", "2h 3h 4h 5h 6h").strength


def test_suits_never_rank():
    assert compare_duns("middle", cards("Ac Kc Qc Jc 9c"), cards("Ah Kh Qh Jh 9h"))[0] == "tie"
    assert compare_duns("head", cards("As Ks 2d"), cards("Ac Kc 2h"))[0] == "tie"


def test_two_spade_copies_are_equal():
    assert compare_duns("head", cards("As As 2d"), cards("As Ah 2c"))[0] == "tie"


@pytest.mark.parametrize(
    ("text", "category", "strength"),
    [
        ("Ac Ad Ah", "trips", (4, 14)),
        ("As As 2d", "pair", (2, 14, 2)),
        ("Kd 9c 4h", "high_card", (1, 13, 9, 4)),
        ("2c 3c 4c", "high_card", (1, 4, 3, 2)),  # 頭墩不會有順子或同花
        ("Qs Qs Qh", "trips", (4, 12)),
    ],
)
def test_head_only_knows_high_card_pair_trips(text, category, strength):
    hand = value("head", text)
    assert (hand.category, hand.strength) == (category, strength)


@pytest.mark.parametrize(
    ("text", "strength"),
    [
        ("Ac Ad Ah As Kd", (10, 14, 13)),
        ("Ac Ad Ah Kd Ks", (9, 14, 13)),
        ("Kc Kd Kh Ad As", (9, 13, 14)),
        ("As As Ks Ks 2s", (8, 2, 14, 13, 2)),
        ("2s 2s 3s 4s 5s", (8, 1, 2, 5, 4, 3)),
        ("As Qs 9s 5s 2s", (7, 14, 12, 9, 5, 2)),
        ("7c 7d 7h As Kd", (4, 7, 14, 13)),
        ("7c 7d 5h 5s Kd", (3, 7, 5, 13)),
        ("7c 7d 5h 4s Kd", (2, 7, 13, 5, 4)),
    ],
)
def test_strength_layout_of_five_card_duns(text, strength):
    assert value("middle", text).strength == strength


def test_identical_spades_make_a_pair_flush_not_a_flush():
    # 不含鬼牌時，兩張同點數同花色的牌只可能來自兩組黑桃
    assert value("tail", "Ks Ks 9s 5s 2s").category == "pair_flush"
    assert value("tail", "Ks Kh 9s 5s 2s").category == "pair"


def test_pair_flush_two_pairs_beat_one_pair_any_ranks():
    two = value("tail", "3s 3s 2s 2s 4s")
    one = value("tail", "As As Ks Qs Js")
    assert two.strength > one.strength and str(two.label) == "Pair flush, two pairs" and str(one.label) == "Pair flush"


def test_cards_in_order_of_significance_whatever_the_input_order():
    hand = value("tail", "5h Kd 5s Kc 9s")
    assert [str(c) for c in hand.cards] == ["Kd", "Kc", "5s", "5h", "9s"]
    assert hand.resolved == ()
    assert value("tail", "9s Kc 5s Kd 5h") == hand


def test_wrong_dun_size_is_impossible_input():
    with pytest.raises(InvalidInputError) as error:
        evaluate_dun("middle", cards("As Kd"))
    assert [(p.path, p.code) for p in error.value.problems] == [(("cards",), "wrong_middle_size")]


def test_card_beyond_the_deck_copies_is_impossible_input():
    with pytest.raises(InvalidInputError) as error:
        evaluate_dun("tail", cards("Ah Ah 2c 3c 4c"))
    assert [(p.path, p.code) for p in error.value.problems] == [(("cards", 1), "duplicate_card")]
    with pytest.raises(InvalidInputError):
        evaluate_dun("tail", cards("JK JK JK JK 2c"))
    with pytest.raises(InvalidInputError) as error:
        compare_duns("head", cards("As As As"), cards("2c 3c 4c"))
    assert [p.path for p in error.value.problems] == [("a", 2)]
