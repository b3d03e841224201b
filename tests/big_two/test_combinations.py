"""牌型: the six combinations, the dragons, and everything that is not a play (with its reason)."""

from itertools import combinations

import pytest

from service.rules.big_two import STRAIGHTS, Combination, classify
from service.rules.cards import DECK, card, cards


def codes(text: str) -> list[str]:
    return [v.code for v in classify(cards(text)).violations]


def texts(hand) -> list[str]:
    return [str(c) for c in hand]


# ---- the six combinations, with their exact values


@pytest.mark.parametrize(
    "play, combination, strength, ordered",
    [
        ("3c", "single", (1, 0, 0), "3c"),
        ("2s", "single", (1, 12, 3), "2s"),
        ("Ah", "single", (1, 11, 2), "Ah"),
        ("Kd Ks", "pair", (2, 10, 3), "Ks Kd"),
        ("4c 3c 5d 7s 6h", "straight", (3, 1, 3), "7s 6h 5d 4c 3c"),
        ("8h 8c 8d Jc Js", "full_house", (4, 5), "8h 8d 8c Js Jc"),
        ("5c 5d 5h 5s Kc", "four_of_a_kind", (5, 2), "5s 5h 5d 5c Kc"),
        ("9d Td Jd Qd Kd", "straight_flush", (6, 7, 1), "Kd Qd Jd Td 9d"),
    ],
)
def test_six_combinations_only_single_pair_straight_full_house_quads_straight_flush(
    play, combination, strength, ordered
):
    result = classify(cards(play))
    assert (result.valid, result.combination, result.violations) == (True, combination, ())
    assert result.hand is not None
    assert (result.hand.category, result.hand.strength, texts(result.hand.cards)) == (
        combination,
        strength,
        ordered.split(),
    )


def test_monsters_are_exactly_four_of_a_kind_and_straight_flush():
    monster = {str(classify(cards(t)).combination): classify(cards(t)).monster for t in (
        "3c", "3c 3d", "3c 4d 5h 6s 7c", "3c 3d 3h 4c 4d", "3c 3d 3h 3s 4c", "3c 4c 5c 6c 7c",
        "Ac 2d 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc",
    )}  # fmt: skip
    assert monster == {
        "single": False, "pair": False, "straight": False, "full_house": False,
        "four_of_a_kind": True, "straight_flush": True, "dragon": False, "green_dragon": False,
    }  # fmt: skip


def test_labels_are_human_text():
    assert str(classify(cards("Kd Ks")).hand.label) == "Pair"
    assert str(classify(cards("5c 5d 5h 5s Kc")).hand.label) == "Four of a kind"


# ---- the dragons (一條龍 / 一條青龍)


def test_dragon_is_a_to_k_one_of_each_rank_any_suits():
    result = classify(cards("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"))
    assert (result.valid, result.combination, result.monster) == (True, Combination.DRAGON, False)
    assert result.hand.strength == (7,)
    assert texts(result.hand.cards) == "2d Ac Kc Qs Jh Td 9c 8s 7h 6d 5c 4s 3h".split()


def test_green_dragon_is_a_to_k_of_one_suit():
    result = classify([c for c in DECK if c.suit == "h"])
    assert (result.valid, result.combination) == (True, Combination.GREEN_DRAGON)
    assert result.hand.strength == (8,)


def test_thirteen_cards_without_every_rank_are_not_a_play():
    assert codes("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Qc") == ["not_a_combination"]


# ---- 順子排序: exactly ten straights


RULE_BOOK_STRAIGHTS = ["A 2 3 4 5", "3 4 5 6 7", "4 5 6 7 8", "5 6 7 8 9", "6 7 8 9 T",
                       "7 8 9 T J", "8 9 T J Q", "9 T J Q K", "T J Q K A", "2 3 4 5 6"]  # fmt: skip


def mixed_suits(ranks: str) -> list:
    return [card(r + s) for r, s in zip(ranks.split(), "cdhsc")]


def test_straight_table_lists_the_ten_straights_from_a2345_lowest_to_23456_highest():
    strengths = [classify(mixed_suits(ranks)).hand.strength for ranks in RULE_BOOK_STRAIGHTS]
    assert [s[:2] for s in strengths] == [(3, i) for i in range(10)]
    assert strengths == sorted(strengths)


def test_no_other_five_ranks_make_a_straight():
    straights = set()
    for ranks in combinations("23456789TJQKA", 5):
        if classify(mixed_suits(" ".join(ranks))).valid:
            straights.add(frozenset(ranks))
    assert straights == {frozenset(ranks.split()) for ranks in RULE_BOOK_STRAIGHTS}
    assert STRAIGHTS[0] == (14, 2, 3, 4, 5) and STRAIGHTS[-1] == (2, 3, 4, 5, 6)


@pytest.mark.parametrize("play", ["Jc Qd Kh As 2c", "Qc Kd Ah 2s 3c", "Kc Ad 2h 3s 4c"])
def test_sequences_across_the_two_are_not_straights(play):
    assert codes(play) == ["straight_crosses_two"]


@pytest.mark.parametrize("play", ["Jh Qh Kh Ah 2h", "Qs Ks As 2s 3s", "Kd Ad 2d 3d 4d"])
def test_one_suit_sequences_across_the_two_are_not_straight_flushes(play):
    assert codes(play) == ["straight_crosses_two"]


@pytest.mark.parametrize("play", ["Ac 2c 3c 4c 5c", "2s 3s 4s 5s 6s", "Th Jh Qh Kh Ah"])
def test_straight_flushes_follow_the_same_ten_sequences(play):
    assert classify(cards(play)).combination == Combination.STRAIGHT_FLUSH


# ---- not combinations: 「三條、兩對、同花、三張、四張都不是合法牌型」


def test_flush_is_not_a_combination():
    assert codes("2h 4h 5h 6h 8h") == ["flush_not_a_combination"]


@pytest.mark.parametrize("play", ["9c 9d 9h", "9c 9d 9h 4s", "9c 9d 9h 4s Kc"])
def test_triple_is_not_a_combination(play):
    assert codes(play) == ["triple_not_a_combination"]


@pytest.mark.parametrize("play", ["9c 9d 4h 4s", "9c 9d 4h 4s Kc"])
def test_two_pair_is_not_a_combination(play):
    assert codes(play) == ["two_pair_not_a_combination"]


def test_four_of_a_kind_without_a_fifth_card_is_not_a_combination():
    assert codes("9c 9d 9h 9s") == ["four_without_kicker"]


@pytest.mark.parametrize(
    "play",
    ["", "3c 5d 7h", "3c 5d 7h 9s", "3c 4d 5h 6s 7c 8d", "3c 3d 3h 3s 4c 4d", " ".join(str(c) for c in DECK[:14])],
)
def test_a_play_has_one_two_five_or_thirteen_cards(play):
    assert codes(play) == ["wrong_card_count"]


@pytest.mark.parametrize("play", ["3c 4c", "9c 9d 4h 5s Kc", "3c 5d 7h 9s Jc"])
def test_other_shapes_are_not_a_combination(play):
    assert codes(play) == ["not_a_combination"]


def test_a_card_twice_is_a_violation_not_a_play():
    result = classify(cards("Kd Kd"))
    assert (result.valid, result.combination, result.hand) == (False, None, None)
    assert [(v.code, texts(v.cards)) for v in result.violations] == [("duplicate_card", ["Kd"])]


def test_the_joker_is_not_a_big_two_card():
    assert codes("JK") == ["joker_not_allowed"]


def test_a_violation_names_its_cards_in_big_two_order():
    (violation,) = classify(cards("2h 8h 4h 6h 5h")).violations
    assert texts(violation.cards) == ["4h", "5h", "6h", "8h", "2h"]
