"""合法與犯規 and the arrangement check: every problem is its own violation, nothing raises."""

from __future__ import annotations

from collections import Counter

from service.rules.cards import JOKER, by_rank_desc, card, cards
from service.rules.thirteen import Dun, validate_arrangement

TAIL = "8c 8d 8h 8s 8s"  # a real five of a kind: big enough to keep every example about head vs middle


def check(head: str, middle: str, tail: str = TAIL, hand: str | None = None):
    return validate_arrangement(cards(head), cards(middle), cards(tail), None if hand is None else cards(hand))


def codes(result) -> list[str]:
    return [v.code for v in result.violations]


# --- the three examples of 合法與犯規 -------------------------------------------------------------------


def test_example_head_aaa_below_middle_ace_two_jokers_two_singles_is_legal():
    # A-A-A | A、鬼、鬼＋兩張單張 -> 合法: 同為三條 A，中墩多出來的單張讓中墩較大
    result = check("Ac Ad Ah", "As JK JK 7d 3c")
    assert result.legal and result.violations == ()
    assert result.duns[Dun.HEAD].strength == (4, 14)
    assert result.duns[Dun.MIDDLE].strength == (4, 14, 7, 3)


def test_example_head_nine_nine_king_over_middle_nine_nine_five_four_three_is_xianggong():
    # 9-9-K | 9-9-5-4-3 -> 相公: 頭墩的 K 大於中墩的 5
    result = check("9c 9d Kh", "9h 9s 5c 4d 3h")
    assert not result.legal
    assert codes(result) == ["head_not_below_middle"]
    assert result.duns[Dun.HEAD].strength == (2, 9, 13) > result.duns[Dun.MIDDLE].strength == (2, 9, 5, 4, 3)


def test_example_head_k94_below_middle_k9432_is_legal():
    # K-9-4 | K-9-4-3-2 -> 合法: 前三張相同，中墩多出來的單張讓中墩較大
    result = check("Kc 9d 4h", "Ks 9s 4c 3d 2h")
    assert result.legal
    assert result.duns[Dun.HEAD].strength == (1, 13, 9, 4) < result.duns[Dun.MIDDLE].strength


# --- order ---------------------------------------------------------------------------------------------


def test_middle_equal_to_tail_is_legal():
    # 中墩與尾墩可以一樣大（同牌型、同點數）
    result = check("2c 3d 5h", "9c Td Jh Qs Kc", "9d Th Js Qh Kd")
    assert result.legal and result.duns[Dun.MIDDLE].strength == result.duns[Dun.TAIL].strength


def test_middle_above_tail_is_xianggong():
    result = check("2c 3d 5h", "9c 9d 9h 2s 2d", "Ac Ad Kh Ks 4c")
    assert codes(result) == ["middle_above_tail"]


def test_both_order_problems_are_reported():
    result = check("Ac Ad Kh", "Kc Kd 2h 3s 4c", "Qc Qd 2c 3d 5h")
    assert codes(result) == ["head_not_below_middle", "middle_above_tail"]


def test_three_jokers_head_needs_a_straight_or_better_in_the_middle():
    assert check("JK JK JK", "Ac Ad Ah 2c 3d", "Kc Kd Kh Ks 2d").legal is False
    assert check("JK JK JK", "Tc Jd Qh Ks Ac", "Kc Kd Kh Ks 2d").legal is True


# --- one violation per problem ---------------------------------------------------------------------------


def test_wrong_dun_sizes_are_each_their_own_violation_and_nothing_is_evaluated():
    result = check("2c 3d", "9c Td Jh Qs", "9d Th Js Qh Kd Ad")
    assert codes(result) == ["wrong_head_size", "wrong_middle_size", "wrong_tail_size"]
    assert not result.legal and result.duns is None and result.discarded is None


def test_wrong_hand_size():
    result = check("2c 3d 5h", "9c Td Jh Qs Kc", "9d Th Js Qh Kd", "2c 3d 5h 9c Td Jh Qs Kc 9d Th Js Qh Kd")
    assert codes(result) == ["wrong_hand_size"]
    assert result.duns is not None and result.discarded == ()


HAND = "2c 3d 5h 9c Td Jh Qs Kc 9d Th Js Qh Kd As As JK 4c"


def test_legal_arrangement_from_a_17_card_hand_discards_the_other_four():
    result = check("2c 3d 5h", "9c Td Jh Qs Kc", "9d Th Js Qh Kd", HAND)
    assert result.legal
    assert result.discarded == (card("As"), card("As"), card("4c"), JOKER)


def test_card_not_in_hand():
    result = check("2c 3d 5d", "9c Td Jh Qs Kc", "9d Th Js Qh Kd", HAND)
    assert codes(result) == ["card_not_in_hand"]
    assert result.violations[0].cards == (card("5d"),)
    assert result.discarded == tuple(by_rank_desc(cards("5h As As JK 4c")))


def test_card_placed_more_often_than_the_hand_holds_it():
    hand = "2c 3d 5h 9c Td Jh Qs Kc 9d Th Js Qh Kd As Ad JK 4c"  # one As only
    result = check("As As 2c", "9c Td Jh Qs Kc", "9d Th Js Qh Kd", hand)
    assert codes(result) == ["card_used_twice"]


def test_too_many_copies_placed_a_spade_twice_is_fine_three_times_is_not():
    assert check("As As 2c", "9c Td Jh Qs Kc", "9d Th Js Qh Kd").legal
    result = check("As As 2c", "As Td Jh Qs Kc")
    assert codes(result) == ["too_many_copies"] and result.violations[0].cards == (card("As"),)
    assert result.duns is not None  # each dun on its own is possible


def test_too_many_copies_of_a_heart_within_one_dun_cannot_be_evaluated():
    result = check("Ah Ah 2c", "9c Td Jh Qs Kc", "9d Th Js Qh Kd")
    assert codes(result) == ["too_many_copies"] and result.duns is None


def test_at_most_three_jokers_across_the_arrangement():
    result = check("JK JK 2c", "JK JK Jh Qs Kc")
    assert codes(result) == ["too_many_copies"] and result.violations[0].cards == (JOKER,)


def test_too_many_copies_in_the_hand():
    hand = "2c 3d 5h 9c Td Jh Qs Kc 9d Th Js Qh Kd Ah Ah JK 4c"
    result = check("2c 3d 5h", "9c Td Jh Qs Kc", "9d Th Js Qh Kd", hand)
    assert codes(result) == ["too_many_copies"]


def test_every_problem_at_once_never_raises():
    result = check("Ah Ah Ah", "JK JK JK JK", "2c", "2c")
    assert not result.legal
    assert Counter(codes(result)) == Counter(
        {
            "wrong_middle_size": 1,
            "wrong_tail_size": 1,
            "wrong_hand_size": 1,
            "too_many_copies": 2,
            "card_not_in_hand": 2,
        }
    )
