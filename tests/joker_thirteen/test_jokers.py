"""鬼牌怎麼算: every row of the table 自動認定的例子 and every example of the section, one test each.

The rule book leaves most suits open; where it does, the tests pick mixed suits (a row that names no
flush must not become one by accident) and say so.
"""

from __future__ import annotations

from service.rules.cards import DECK, card, cards
from service.rules.thirteen import compare_duns, evaluate_dun


def check(dun: str, text: str, category: str, strength: tuple[int, ...], order: str, resolved: str):
    hand = evaluate_dun(dun, cards(text))
    assert hand.category == category
    assert hand.strength == strength
    assert [str(c) for c in hand.cards] == order.split()
    assert [str(c) for c in hand.resolved] == resolved.split()
    return hand


# --- 自動認定的例子 (12 rows) -------------------------------------------------------------------------


def test_row01_five_seven_joker_is_pair_of_sevens():
    # 5、7、鬼 -> 一對 7: 鬼牌配最大的那張成對
    check("head", "5h 7c JK", "pair", (2, 7, 5), "7c JK 5h", "7s")


def test_row02_ace_two_jokers_in_head_is_trips_aces():
    # A、鬼、鬼（頭墩）-> 三條 A: 兩張鬼牌都當 A
    check("head", "Ad JK JK", "trips", (4, 14), "Ad JK JK", "As Ah")


def test_row03_four_to_seven_and_joker_is_straight_to_eight():
    # 4、5、6、7、鬼 -> 順子 4-5-6-7-8 (mixed suits): 補成最大的順子
    check("middle", "4c 5d 6h 7s JK", "straight", (6, 8), "JK 7s 6h 5d 4c", "8s")


def test_row04_two_three_four_and_two_jokers_is_straight_to_six():
    # 2、3、4、鬼、鬼 -> 順子 2-3-4-5-6 (mixed suits), not A-2-3-4-5 nor 2-3-4-5 + anything lower
    check("middle", "2c 3d 4h JK JK", "straight", (6, 6), "JK JK 4h 3d 2c", "6s 5s")


def test_row05_aces_kings_and_joker_is_aces_full():
    # A、A、K、K、鬼 -> A 葫蘆（A-A-A-K-K）
    check("tail", "Ac Ad Kh Ks JK", "full_house", (9, 14, 13), "Ad Ac JK Ks Kh", "As")


def test_row06_suited_ace_king_five_two_and_joker_is_pair_flush_of_aces():
    # 同花色的 A、K、5、2＋鬼 -> 對子同花（A-A-K-5-2）: never just a flush; hearts, so not spades-only
    check("tail", "Ah Kh 5h 2h JK", "pair_flush", (8, 1, 14, 13, 5, 2), "Ah JK Kh 5h 2h", "Ah")


def test_row07_spade_ace_king_nine_and_two_jokers_is_two_pair_flush():
    # 黑桃 A、K、9＋鬼、鬼 -> 雙對的對子同花（A-A-K-K-9）, not three aces: 沒有三條同花
    hand = check("tail", "As Ks 9s JK JK", "pair_flush", (8, 2, 14, 13, 9), "As JK Ks JK 9s", "As Ks")
    assert str(hand.label) == "Pair flush, two pairs"


def test_row08_three_sixes_joker_and_any_card_is_quad_sixes_above_quad_fives():
    # 6、6、6、鬼＋任一張 -> 鐵支 6, 比鐵支 5 大; 任一張 = any real card that is not a 6
    quad_fives = evaluate_dun("middle", cards("5c 5d 5h 5s Ad"))
    for other in (c for c in DECK if c.rank != 6):
        hand = evaluate_dun("middle", [*cards("6c 6d 6h JK"), other])
        assert (hand.category, hand.strength) == ("quads", (10, 6, other.rank))
        assert hand.resolved == (card("6s"),)
        assert hand.strength > quad_fives.strength


def test_row09_three_jokers_king_eight_is_quad_kings_with_eight_above_four_kings_seven():
    # 鬼、鬼、鬼、K、8 -> 鐵支 K 帶 8, 比 K-K-K-K-7 大
    hand = check("tail", "JK JK JK Kd 8c", "quads", (10, 13, 8), "Kd JK JK JK 8c", "Ks Kh Kc")
    assert hand.strength > evaluate_dun("tail", cards("Kc Kd Kh Ks 7c")).strength


def test_row10_spade_ace_king_and_three_jokers_is_royal_straight_flush():
    # 黑桃 A、黑桃 K＋鬼、鬼、鬼 -> 同花順 10-J-Q-K-A, not quads
    check("tail", "As Ks JK JK JK", "straight_flush", (11, 14), "As Ks JK JK JK", "Qs Js Ts")


def test_row11_spade_ace_nine_and_three_jokers_is_quad_aces_with_nine():
    # 黑桃 A、黑桃 9＋鬼、鬼、鬼 -> 鐵支 A 帶 9: A 與 9 湊不進同一組順子
    check("tail", "As 9s JK JK JK", "quads", (10, 14, 9), "As JK JK JK 9s", "Ah Ad Ac")


def test_row12_spade_ace_sevens_five_and_joker_is_two_pair_flush_above_eights_sixes():
    # 黑桃 A、7、7、5＋鬼 -> 對子同花（雙對 A-A、7-7）, bigger than the 8-8、6-6、A two-pair pair flush
    hand = check("tail", "As 7s 7s 5s JK", "pair_flush", (8, 2, 14, 7, 5), "As JK 7s 7s 5s", "As")
    eights = evaluate_dun("tail", cards("8s 8s 6s 6s As"))
    assert eights.strength == (8, 2, 8, 6, 14)
    assert hand.strength > eights.strength


# --- the rest of 鬼牌怎麼算 ----------------------------------------------------------------------------


def test_joker_straight_ties_the_natural_straight():
    # 9-8-7-6-5 與「鬼＋8-7-6-5」（鬼當 9）平手
    winner, natural, joker = compare_duns("middle", cards("9c 8d 7h 6s 5c"), cards("JK 8d 7h 6s 5c"))
    assert winner == "tie" and joker.resolved == (card("9s"),)


def test_joker_as_ten_beats_nine_high_straight():
    # 「鬼＋9-8-7-6」（鬼當 10）則比 9-8-7-6-5 大
    winner, high, _ = compare_duns("middle", cards("JK 9c 8d 7h 6s"), cards("9c 8d 7h 6s 5c"))
    assert winner == "a" and high.strength == (6, 10) and high.resolved == (card("Ts"),)


def test_joker_hands_equal_natural_ones_within_a_category_except_five_of_a_kind():
    # 除了五枚以外，同一種牌型裡有沒有鬼牌都一樣大
    assert compare_duns("tail", cards("Kc Kd Kh JK 2c"), cards("Kc Kd Kh Ks 2d"))[0] == "tie"
    assert compare_duns("tail", cards("Qc Qd JK 4h 4s"), cards("Qc Qd Qh 4h 4s"))[0] == "tie"
    assert compare_duns("head", cards("Qc JK 4h"), cards("Qc Qd 4s"))[0] == "tie"
    assert compare_duns("tail", cards("Kc Kd Kh Ks JK"), cards("Kc Kd Kh Ks Ks"))[0] == "b"


def test_real_five_twos_beat_joker_five_aces():
    # 五張 2 的正五枚，比「三張 A＋兩張鬼牌」的鬼五枚大
    winner, twos, aces = compare_duns("tail", cards("2c 2d 2h 2s 2s"), cards("Ac Ad Ah JK JK"))
    assert winner == "a"
    assert (twos.category, aces.category) == ("real_five", "joker_five")
    assert aces.resolved == (card("As"), card("As"))  # c d h s s: both spade copies


def test_joker_fives_compare_by_rank_only():
    # 鬼五枚之間只比點數：「四張 A＋1 鬼」大於「三張 Q＋2 鬼」; the number of jokers never counts
    assert compare_duns("middle", cards("Ac Ad Ah As JK"), cards("Qc Qd Qh JK JK"))[0] == "a"
    assert compare_duns("middle", cards("Qc Qd Qh Qs JK"), cards("Qs Qs JK JK JK"))[0] == "tie"


def test_a_dun_with_a_joker_and_a_real_card_is_never_high_card():
    # 只要一墩裡有鬼牌又有任何一張真牌，鬼牌至少能配成一對
    assert evaluate_dun("head", cards("2c 7d JK")).category == "pair"
    assert evaluate_dun("tail", cards("2c 7d 9h Js JK")).category == "pair"
