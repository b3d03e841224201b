"""The special hands (報到) of ordinary 十三支 (the spec's "Thirteen as other tables score it"): the catalog and
its order, each special with a near miss beside it, every special a hand makes listed highest first, their
names in three languages, and the plain definitions of tests/thirteen/specials_reference.py (every 3/5/5
split tried) agreeing with the service's reading on random, constructed and near-miss hands."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules import messages
from service.rules.cards import DECK, JOKER, NotationProblem, cards
from service.rules.errors import InvalidInputError
from service.rules.messages import EN, ZH_CN, ZH_TW
from service.rules.thirteen import (
    SHISANSHUI,
    SPECIAL_LABELS,
    SPECIALS,
    Arrangement,
    ArrangementViolation,
    Special,
    score_round,
    scored_special,
    specials_of,
)
from service.rules.thirteen.suggest import naive_arrangement
from tests.thirteen.specials_reference import (
    DEFINITIONS,
    SPLIT_SPECIALS,
    making,
    near,
    reference_specials,
    straight_3,
)

S = Special


def specials(text: str) -> tuple[Special, ...]:
    return specials_of(cards(text))


def test_the_catalog_is_the_specs_table_high_to_low():
    assert [s.value for s in SPECIALS] == [
        "supreme_dragon", "dragon", "twelve_royals", "three_straight_flushes", "three_quads", "all_big",
        "all_small", "one_colour", "four_trips", "five_pairs_trips", "six_pairs", "three_flushes", "three_straights",
    ]  # fmt: skip  # the spec's table, six codes a line


NAMES = {
    S.SUPREME_DRAGON: ("Supreme dragon", "至尊清龍", "至尊清龙"),
    S.DRAGON: ("Dragon", "一條龍", "一条龙"),
    S.TWELVE_ROYALS: ("Twelve royals", "十二皇族", "十二皇族"),
    S.THREE_STRAIGHT_FLUSHES: ("Three straight flushes", "三同花順", "三同花顺"),
    S.THREE_QUADS: ("Three quads", "三分天下", "三分天下"),
    S.ALL_BIG: ("All big", "全大", "全大"),
    S.ALL_SMALL: ("All small", "全小", "全小"),
    S.ONE_COLOUR: ("One colour", "湊一色", "凑一色"),
    S.FOUR_TRIPS: ("Four trips", "四套三條", "四套三条"),
    S.FIVE_PAIRS_TRIPS: ("Five pairs and trips", "五對三條", "五对三条"),
    S.SIX_PAIRS: ("Six pairs", "六對半", "六对半"),
    S.THREE_FLUSHES: ("Three flushes", "三同花", "三同花"),
    S.THREE_STRAIGHTS: ("Three straights", "三順子", "三顺子"),
}


@pytest.mark.parametrize("special", SPECIALS)
def test_each_special_is_named_in_english_the_specs_chinese_and_the_mainland_words(special):
    label = SPECIAL_LABELS[special]
    assert label == messages.Message("joker-thirteen", f"label.{special.value}")
    assert tuple(label.render(language) for language in (EN, ZH_TW, ZH_CN)) == NAMES[special]


# ---- each special, a near miss beside it --------------------------------------------------------------------


def test_supreme_dragon_is_a_to_k_of_one_suit():
    hand = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    assert specials(hand) == (
        S.SUPREME_DRAGON, S.DRAGON, S.THREE_STRAIGHT_FLUSHES, S.ONE_COLOUR, S.THREE_FLUSHES, S.THREE_STRAIGHTS
    )  # fmt: skip


def test_a_to_k_with_one_card_of_another_suit_is_a_dragon_not_a_supreme_one():
    assert specials("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Ks") == (S.DRAGON, S.THREE_STRAIGHTS)


def test_dragon_is_one_card_of_every_rank():
    assert specials("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc") == (S.DRAGON, S.THREE_STRAIGHTS)


def test_twelve_ranks_and_a_pair_is_no_dragon():
    assert specials("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Ad") == ()


def test_twelve_royals_every_card_a_j_q_k_or_a():
    # a four of a kind and three trips: four trips too, and every card is 8 or higher
    assert specials("Ac Ad Ah Kc Kd Ks Qc Qh Qs Jc Jd Jh Js") == (S.TWELVE_ROYALS, S.ALL_BIG, S.FOUR_TRIPS)


def test_a_ten_among_the_royals_is_no_twelve_royals():
    assert specials("Ac Ad Ah Kc Kd Ks Qc Qh Qs Jc Jd Jh Ts") == (S.ALL_BIG, S.FOUR_TRIPS)


def test_three_straight_flushes_in_three_suits():
    assert specials("2h 3h 4h 5s 6s 7s 8s 9s 5c 6c 7c 8c 9c") == (
        S.THREE_STRAIGHT_FLUSHES, S.THREE_FLUSHES, S.THREE_STRAIGHTS
    )  # fmt: skip


def test_three_straight_flushes_two_of_them_in_one_suit():
    """Eight hearts split 3 + 5 (234, 6 to 10), both straight flushes, and five spades (5 to 9)."""
    assert specials("2h 3h 4h 6h 7h 8h 9h Th 5s 6s 7s 8s 9s") == (
        S.THREE_STRAIGHT_FLUSHES, S.THREE_FLUSHES, S.THREE_STRAIGHTS
    )  # fmt: skip


def test_three_flushes_and_three_straights_by_other_splits_are_not_three_straight_flushes():
    """Eight hearts and five spades split into flushes, A23 / 4 to 8 / 9 to K into straights, but no split
    is both: the hearts A to 7 and 9 hold no 3 + 5 straight flushes, the spades 8 10 J Q K no straight."""
    assert specials("Ah 2h 3h 4h 5h 6h 7h 9h 8s Ts Js Qs Ks") == (S.DRAGON, S.THREE_FLUSHES, S.THREE_STRAIGHTS)


def test_three_quads_three_four_of_a_kinds_and_one_card():
    # three quads are six pairs too, the ace the odd card
    assert specials("2c 2d 2h 2s 7c 7d 7h 7s Kc Kd Kh Ks Ad") == (S.THREE_QUADS, S.SIX_PAIRS)


def test_two_quads_trips_and_a_pair_are_not_three_quads():
    assert specials("2c 2d 2h 2s 7c 7d 7h 7s Kc Kd Kh Ad As") == (S.FIVE_PAIRS_TRIPS, S.SIX_PAIRS)


def test_all_big_every_card_8_or_higher():
    assert specials("8c 8d 9h 9s Tc Jd Jh Qs Kc Kd Ah As Ac") == (S.ALL_BIG,)


def test_a_seven_is_not_all_big():
    assert specials("8c 8d 9h 9s 7c Jd Jh Qs Kc Kd Ah As Ac") == ()


def test_all_small_every_card_8_or_lower():
    assert specials("2c 2d 3h 4s 5c 5d 6h 6s 7c 8d 8h 8s 4d") == (S.ALL_SMALL,)


def test_a_nine_is_not_all_small():
    assert specials("2c 2d 3h 4s 5c 5d 6h 6s 7c 8d 8h 8s 9d") == ()


def test_one_colour_all_red_or_all_black():
    assert specials("2h 4h 6h 8h Th Qh Ah 3d 5d 7d 9d Jd 2d") == (S.ONE_COLOUR,)
    assert specials("2s 4s 6s 8s Ts Qs As 3c 5c 7c 9c Jc 2c") == (S.ONE_COLOUR,)


def test_one_black_card_among_red_ones_is_not_one_colour():
    assert specials("2h 4h 6h 8h Th Qh Ah 3d 5d 7d 9d Jd 2s") == ()


def test_four_trips_four_three_of_a_kinds_and_one_card():
    assert specials("3c 3d 3h 6c 6d 6s 9c 9h 9s Qc Qd Qh As") == (S.FOUR_TRIPS,)


def test_four_trips_a_four_of_a_kind_counts_as_trips_and_a_card():
    assert specials("3c 3d 3h 3s 6c 6d 6s 9c 9h 9s Qc Qd Qh") == (S.FOUR_TRIPS,)


def test_three_trips_and_two_pairs_are_not_four_trips():
    assert specials("3c 3d 3h 6c 6d 6s 9c 9h 9s Qc Qd Ah As") == ()


def test_five_pairs_trips_five_pairs_and_a_three_of_a_kind():
    # five pairs and trips are six pairs too (the trips a pair and the odd card)
    assert specials("2c 2d 4h 4s 6c 6d 8h 8s Tc Td Qc Qd Qh") == (S.FIVE_PAIRS_TRIPS, S.SIX_PAIRS)


def test_five_pairs_trips_a_four_of_a_kind_counts_as_two_pairs():
    assert specials("2c 2d 2h 2s 6c 6d 8h 8s Tc Td Qc Qd Qh") == (S.FIVE_PAIRS_TRIPS, S.SIX_PAIRS)


def test_two_three_of_a_kinds_and_pairs_are_not_five_pairs_trips():
    assert specials("2c 2d 2h 4s 4c 4d 6c 6d 8h 8s Tc Td Qc") == ()


def test_six_pairs_and_one_card():
    assert specials("2c 2d 4h 4s 6c 6d 8h 8s Tc Td Qc Qd Ah") == (S.SIX_PAIRS,)


def test_six_pairs_a_four_of_a_kind_counts_as_two_pairs():
    assert specials("2c 2d 2h 2s 6c 6d 8h 8s Tc Td Qc Qd Ah") == (S.SIX_PAIRS,)


def test_six_pairs_a_three_of_a_kind_counts_as_a_pair_and_the_card():
    """The odd card is the third of a three-of-a-kind: six pairs (and five pairs and trips)."""
    assert specials("2c 2d 2h 4s 4c 6c 6d 8h 8s Tc Td Qc Qd") == (S.FIVE_PAIRS_TRIPS, S.SIX_PAIRS)


def test_five_pairs_and_three_single_cards_are_not_six_pairs():
    assert specials("2c 2d 4h 4s 6c 6d 8h 8s Tc Td Qc Kd Ah") == ()


def test_three_flushes_3_5_5_in_three_suits():
    assert specials("2c 5c 9c 3d 6d 8d Jd Kd 4h 7h Th Qh 2h") == (S.THREE_FLUSHES,)


def test_three_flushes_from_two_suits_8_and_5():
    """Eight hearts split 3 + 5, and five spades."""
    assert specials("2h 3h 5h 7h 8h 9h Jh Kh 4s 6s Ts Qs 2s") == (S.THREE_FLUSHES,)


def test_three_flushes_from_two_suits_10_and_3():
    assert specials("2h 3h 5h 6h 7h 9h Th Jh Qh Kh 4s 8s 2s") == (S.THREE_FLUSHES,)


def test_suits_of_5_4_and_4_or_9_and_4_are_not_three_flushes():
    assert specials("2c 5c 9c Jc 3d 6d 8d Kd 4h 7h Th Qh 2h") == ()
    assert specials("2h 3h 5h 6h 7h 9h Th Jh Qh 4s 8s Ks 2s") == ()


def test_three_straights_a23_at_the_head():
    """A23, 4 to 8, 5 to 9: the ace is low in the 3-card straight."""
    assert specials("Ac 2d 3h 4s 5c 6d 7h 8s 5d 6h 7s 8c 9d") == (S.THREE_STRAIGHTS,)


def test_three_straights_qka_at_the_head():
    """QKA, 4 to 8, 9 to K: the ace is high in the 3-card straight."""
    assert specials("Qc Kd Ah 4s 5c 6d 7h 8s 9d Tc Jh Qs Kh") == (S.THREE_STRAIGHTS,)


def test_three_straights_a_straight_flush_part_counts():
    """234 of clubs and 4 to 8 of hearts are straight flushes; by rank alone they are straights."""
    assert specials("2c 3c 4c 4h 5h 6h 7h 8h 5d 6d 7s 8s 9s") == (S.THREE_STRAIGHTS,)


def test_ka2_is_not_a_3_card_straight():
    assert not straight_3(cards("Kc Ad 2h")) and straight_3(cards("Ac 2d 3h")) and straight_3(cards("Qc Kd Ah"))
    assert specials("Kc Ad 2h 4s 5c 6d 7h 8s 5d 6h 7s 8c 9d") == ()


def test_a_hand_making_several_specials_lists_them_all_highest_first():
    made = specials("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh")
    assert len(made) == 6 and list(made) == sorted(made, key=SPECIALS.index)


def test_a_table_scores_a_hand_by_the_highest_special_it_lists():
    made = specials("2c 2d 2h 2s 7c 7d 7h 7s Kc Kd Kh Ks Ad")  # three quads and six pairs
    assert scored_special(made, {S.SIX_PAIRS, S.DRAGON}) is S.SIX_PAIRS
    assert scored_special(made, set(SPECIALS)) is S.THREE_QUADS
    assert scored_special(made, {S.DRAGON}) is None
    assert scored_special((), set(SPECIALS)) is None


# ---- what is not 13 cards of one deck ----------------------------------------------------------------------


def test_a_hand_of_12_cards_is_refused_naming_its_size():
    with pytest.raises(InvalidInputError) as error:
        specials_of(list(DECK[:12]))
    (found,) = error.value.problems
    assert (found.path, found.code) == (("cards",), ArrangementViolation.WRONG_HAND_SIZE)
    assert found.params == {"size": 13, "actual": 12}


def test_a_joker_and_a_card_twice_are_refused_naming_each():
    hand = [*DECK[:11], JOKER, DECK[3]]
    with pytest.raises(InvalidInputError) as error:
        specials_of(hand, ("hand",))
    assert [(p.path, p.code) for p in error.value.problems] == [
        (("hand", 11), NotationProblem.JOKER_NOT_ALLOWED),
        (("hand", 12), NotationProblem.DUPLICATE_CARD),
    ]


def test_a_card_twice_in_13_cards_is_refused():
    hand = [*DECK[:12], DECK[0]]
    with pytest.raises(InvalidInputError) as error:
        specials_of(hand)
    assert [(p.path, p.code, p.params["card"]) for p in error.value.problems] == [
        (("cards", 12), NotationProblem.DUPLICATE_CARD, "2c")
    ]


# ---- against the plain definitions --------------------------------------------------------------------------

made_hands = st.builds(making, st.sampled_from(SPECIALS), st.randoms(use_true_random=False))
hands = st.one_of(
    st.permutations(DECK).map(lambda deck: deck[:13]),
    made_hands,
    st.builds(near, made_hands, st.randoms(use_true_random=False)),
)


@settings(max_examples=200)
@given(hands, st.randoms(use_true_random=False))
def test_the_specials_do_not_depend_on_the_order_of_the_cards(hand, rng):
    shuffled = list(hand)
    rng.shuffle(shuffled)
    assert specials_of(shuffled) == specials_of(hand)


@settings(max_examples=150)
@given(hands)
def test_the_split_specials_are_a_brute_force_over_every_3_5_5_split(hand):
    made = specials_of(hand)
    assert [s for s in SPLIT_SPECIALS if s in made] == [s for s in SPLIT_SPECIALS if DEFINITIONS[s](hand)]


@pytest.mark.slow
def test_every_special_equals_its_plain_definition_on_seeded_random_constructed_and_near_hands():
    """2,000 random hands, and per special 50 hands making it and 50 with one card swapped: every special of
    the catalog, every 3/5/5 split tried by the reference."""
    rng = random.Random(20261206)
    checked = [rng.sample(DECK, 13) for _ in range(2000)]
    for special in SPECIALS:
        for _ in range(50):
            hand = making(special, rng)
            assert special in reference_specials(hand), special  # the maker makes it
            checked += [hand, near(hand, rng)]
    found = set()
    for hand in checked:
        made = specials_of(hand)
        assert made == reference_specials(hand), [c.text for c in hand]
        found.update(made)
    assert found == set(SPECIALS)


def test_a_round_reads_each_hands_specials_from_its_duns_as_the_hand_is_read():
    """A scored round reads each player's specials from its duns' sums (the hand's shape, no card read
    again): at 十三水, which pays every special automatically, each player set by the naive arranger (legal,
    so its duns are compared or it is scored by a special) is scored by the highest special the reference
    finds. Seeded: 100 random hands, and per special 10 hands making it and 10 near misses, each dealt
    with three random others."""
    rng = random.Random(20261207)
    firsts = [rng.sample(DECK, 13) for _ in range(100)]
    for special in SPECIALS:
        for _ in range(10):
            hand = making(special, rng)
            firsts += [hand, near(hand, rng)]
    found = set()
    for first in firsts:
        rest = rng.sample([c for c in DECK if c not in first], 39)
        hands = [first, rest[:13], rest[13:26], rest[26:]]
        players = [Arrangement(*naive_arrangement(hand)) for hand in hands]
        served = [p.special for p in score_round(players, SHISANSHUI).players]
        assert served == [scored_special(reference_specials(hand), SHISANSHUI.specials) for hand in hands]
        found.update(served)
    assert found == {*SPECIALS, None}
