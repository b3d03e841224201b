"""A table's plays and their order (``Ladder``), both ways of the house rules' differences from the common game
(``taiwan`` and ``hong-kong``, README "Other Big Two rule sets"), and on random consistent tables:

* the tables of ``play_value`` give exactly the definitions' value (``_classify_in_full``) on every rule set;
* ``judge`` is a strict order: never both ways, and transitive, on every rule set.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules.big_two import (
    CYCLIC_RUNS,
    FIVE_CARD_PLAYS,
    HONG_KONG,
    MONSTER_KINDS,
    SHORT_PLAYS,
    TAIWAN,
    BigTwoRules,
    Combination,
    FlushOrder,
    StraightSuitCard,
    classify,
    compare,
    judge,
)
from service.rules.big_two.combinations import _classify_in_full, play_value
from service.rules.cards import DECK, JOKER, Suit, cards

C = Combination


def value(text: str, rules: BigTwoRules):
    found = classify(cards(text), rules)
    assert found.valid, (text, found.violations)
    return found


def codes(text: str, rules: BigTwoRules) -> list[tuple[str, object]]:
    return [(v.code, v.params.get("case")) for v in classify(cards(text), rules).violations]


def beats(table: str, play: str, rules: BigTwoRules) -> tuple[bool, str]:
    found = compare(cards(table), cards(play), rules)
    return found.beats, found.reason.value


# ---- each row of the table of parameters, both ways


def test_the_lowest_card_is_the_3_of_the_first_suit():
    assert str(TAIWAN.ladder.lowest_card) == "3c"
    assert str(HONG_KONG.ladder.lowest_card) == "3d"


def test_suit_order_clubs_low_in_taiwan_diamonds_low_in_hong_kong():
    assert beats("3d", "3c", TAIWAN) == (False, "lower")
    assert beats("3d", "3c", HONG_KONG) == (True, "higher_suit")
    assert value("3c", HONG_KONG).hand.strength == (1, 0, 1)


def test_a_flush_is_a_play_in_hong_kong_and_not_in_taiwan():
    assert codes("3h 7h 9h Jh Kh", TAIWAN) == [("flush_not_a_combination", "house")]
    flush = value("3h 7h 9h Jh Kh", HONG_KONG)
    assert (flush.combination, flush.hand.strength, [str(c) for c in flush.hand.cards]) == (
        C.FLUSH, (5, 10, 2), ["Kh", "Jh", "9h", "7h", "3h"]
    )  # fmt: skip


def test_a_triple_is_a_play_in_hong_kong_and_not_in_taiwan():
    assert codes("5c 5d 5h", TAIWAN) == [("triple_not_a_combination", "short")]
    assert value("5c 5d 5h", HONG_KONG).hand.strength == (3, 2)
    assert beats("5c 5d 5h", "6c 6d 6s", HONG_KONG) == (True, "higher_rank")
    assert codes("5c 5d 6h", HONG_KONG) == [("not_a_combination", "three")]


def test_quads_beat_a_single_in_taiwan_and_not_in_hong_kong():
    assert beats("2s", "9c 9d 9h 9s 3c", TAIWAN) == (True, "monster_beats_normal")
    assert beats("2s", "9c 9d 9h 9s 3c", HONG_KONG) == (False, "different_combination")
    assert value("9c 9d 9h 9s 3c", TAIWAN).monster and not value("9c 9d 9h 9s 3c", HONG_KONG).monster


def test_23456_the_highest_straight_in_taiwan_and_the_second_lowest_in_hong_kong():
    assert value("2c 3d 4h 5s 6c", TAIWAN).hand.strength[1] == 9  # of 0-9
    assert value("2c 3d 4h 5s 6c", HONG_KONG).hand.strength[1] == 1
    assert beats("Tc Jd Qh Ks Ac", "2c 3d 4h 5s 6c", TAIWAN) == (True, "higher_sequence")
    assert beats("Tc Jd Qh Ks Ac", "2c 3d 4h 5s 6c", HONG_KONG) == (False, "lower")
    assert beats("Ad 2d 3c 4c 5h", "2c 3d 4h 5s 6h", HONG_KONG) == (True, "higher_sequence")


def test_a2345_against_a2345_by_the_2s_in_taiwan_and_by_the_5s_in_hong_kong():
    table, play = "Ac 2d 3h 4s 5s", "Ad 2s 3c 4c 5d"
    assert beats(table, play, TAIWAN) == (True, "higher_suit")  # 2s over 2d
    assert beats(table, play, HONG_KONG) == (False, "lower")  # 5d under 5s
    assert [str(c) for c in value(play, HONG_KONG).hand.cards] == ["5d", "4c", "3c", "2s", "Ad"]
    assert [str(c) for c in value(play, TAIWAN).hand.cards] == ["2s", "Ad", "5d", "4c", "3c"]


def test_a_five_card_play_beats_a_lower_kind_in_hong_kong_and_not_in_taiwan():
    straight, full_house = "4c 5d 6h 7s 8c", "9c 9d 9h 3c 3d"
    assert beats(straight, full_house, TAIWAN) == (False, "different_combination")
    assert beats(straight, full_house, HONG_KONG) == (True, "higher_combination")
    assert beats(full_house, straight, HONG_KONG) == (False, "lower_combination")
    assert beats(straight, "2h 5h 7h 9h Jh", HONG_KONG) == (True, "higher_combination")  # a flush


def test_straight_flush_over_quads_as_a_monster_in_taiwan_and_by_the_five_card_order_in_hong_kong():
    quads, straight_flush = "9c 9d 9h 9s 3c", "4h 5h 6h 7h 8h"
    assert beats(quads, straight_flush, TAIWAN) == (True, "straight_flush_beats_quads")
    assert beats(quads, straight_flush, HONG_KONG) == (True, "higher_combination")
    assert beats(straight_flush, quads, TAIWAN) == (False, "quads_cannot_beat_straight_flush")
    assert beats(straight_flush, quads, HONG_KONG) == (False, "lower_combination")


def test_dragons_are_plays_in_taiwan_only():
    dragon = "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"
    assert value(dragon, TAIWAN).combination is C.DRAGON
    assert codes(dragon, HONG_KONG) == [("wrong_card_count", "table")]


def test_no_straight_runs_past_the_ace_in_either_rule_set():
    for rules in (TAIWAN, HONG_KONG):
        assert codes("Jc Qd Kh As 2c", rules) == [("straight_crosses_two", None)]


def test_flushes_by_their_highest_card_or_rank_by_rank():
    table, play = "Kh 9h 7h 5h 3h", "Kc Qc 4c 3c 2c"  # play: 2c is its highest card
    assert beats(table, play, HONG_KONG) == (True, "higher_rank")
    table, play = "Ks 9s 7s 5s 3s", "Kd Qd 4d 3d 6d"  # the same highest rank: its suit, or the next rank
    assert beats(table, play, HONG_KONG) == (False, "lower")
    by_ranks = HONG_KONG.with_parameters(flush_order=FlushOrder.RANK_BY_RANK)
    assert beats(table, play, by_ranks) == (True, "higher_rank")
    assert value(play, by_ranks).hand.strength == (5, 10, 9, 3, 1, 0, 0)


def test_a_straight_may_take_its_suit_from_the_top_of_its_sequence_at_the_house_table():
    top = TAIWAN.with_parameters(straight_suit_card=StraightSuitCard.TOP)
    assert value("Ac 2s 3h 4d 5c", top).hand.strength == (3, 0, 0)  # the 5c decides
    assert value("Ac 2s 3h 4d 5c", TAIWAN).hand.strength == (3, 0, 3)  # the 2s decides


def test_a_table_without_a_play_refuses_it_as_not_a_play_at_this_table():
    no_quads = TAIWAN.with_parameters(
        plays=(C.SINGLE, C.PAIR, C.STRAIGHT, C.FULL_HOUSE, C.STRAIGHT_FLUSH),
        five_card_order=(C.STRAIGHT, C.FULL_HOUSE, C.STRAIGHT_FLUSH),
        monsters=(C.STRAIGHT_FLUSH,),
    )
    assert codes("9c 9d 9h 9s 3c", no_quads) == [("not_a_combination", "table")]
    assert codes("3h 7h 9h Jh Kh", no_quads) == [("flush_not_a_combination", "table")]
    assert codes("3c 4d 5h 6s 8c", no_quads) == [("not_a_combination", "five")]


def test_wrapping_straights_at_a_table_that_allows_them():
    wrapping = TAIWAN.with_parameters(straights=CYCLIC_RUNS)
    found = value("Jc Qd Kh As 2c", wrapping)
    assert (found.combination, found.hand.strength[1]) == (C.STRAIGHT, 10)
    assert codes("3c 4d 5h 6s 8c", wrapping) == [("not_a_combination", "five_table")]


# ---- on random consistent tables


def random_rules(rng: random.Random) -> BigTwoRules:
    suits = list(Suit)
    rng.shuffle(suits)
    short = [c for c in SHORT_PLAYS if c is C.SINGLE or rng.random() < 0.7]
    five = [c for c in FIVE_CARD_PLAYS if rng.random() < 0.75]
    rng.shuffle(five)
    runs = rng.sample(CYCLIC_RUNS, rng.randint(1, 13))
    return TAIWAN.with_parameters(
        suit_order=tuple(suits),
        plays=tuple(short + five),
        five_card_order=tuple(five),
        monsters=tuple(c for c in five if c in MONSTER_KINDS and rng.random() < 0.5),
        five_beats_lower_kind=rng.random() < 0.5,
        straights=tuple(runs),
        straight_suit_card=rng.choice(list(StraightSuitCard)),
        flush_order=rng.choice(list(FlushOrder)),
        dragons=rng.random() < 0.5,
    )


RULE_SETS = [TAIWAN, HONG_KONG, *(random_rules(random.Random(seed)) for seed in range(8))]
BY_RANK = {rank: [c for c in DECK if c.rank == rank] for rank in range(2, 15)}


def same_as_in_full(played, rules: BigTwoRules) -> None:
    expected = _classify_in_full(played, rules)
    assert play_value(played, rules) == (expected.hand if len(played) in (1, 2, 3, 5) else None), (played, rules)
    assert classify(played, rules) == expected, played


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.digest)
def test_the_tables_give_the_definitions_value_on_every_rule_set(rules):
    rng = random.Random(rules.digest)
    for a in (*DECK, JOKER):
        same_as_in_full((a,), rules)
    for group in BY_RANK.values():
        for size in (2, 3):
            for played in permutations(group, size):
                same_as_in_full(played, rules)
    for ranks in CYCLIC_RUNS:
        for _ in range(40):
            played = [rng.choice(BY_RANK[r]) for r in ranks]
            rng.shuffle(played)
            same_as_in_full(tuple(played), rules)
        suit = rng.choice(list(Suit))
        same_as_in_full(tuple(c for c in DECK if c.suit is suit and c.rank in ranks), rules)
    for size in (2, 3, 4, 5, 5, 5, 6, 13):
        for _ in range(300):
            played = rng.sample(DECK, size)
            if rng.random() < 0.1:
                played[0] = rng.choice([JOKER, played[-1]])
            same_as_in_full(tuple(played), rules)
    for suit in Suit:
        of_suit = [c for c in DECK if c.suit is suit]
        for played in combinations(of_suit[::2], 5):
            same_as_in_full(played, rules)


def valid_plays(rng: random.Random, rules: BigTwoRules, size: int, count: int):
    found = []
    while len(found) < count:
        if size < 5:
            group = BY_RANK[rng.randint(2, 14)]
            played = rng.sample(group, size)
        else:
            played = rng.sample(DECK, 5)
        value = play_value(tuple(played), rules)
        if value is not None:
            found.append(value)
    return found


@given(st.randoms(use_true_random=False), st.sampled_from(range(len(RULE_SETS))), st.sampled_from([1, 2, 3, 5]))
def test_judge_is_a_strict_order_within_each_size_on_every_rule_set(rng, which, size):
    rules = RULE_SETS[which]
    if size == 3 and C.TRIPLE not in rules.plays or size == 2 and C.PAIR not in rules.plays:
        return
    if size == 5 and not rules.five_card_order:
        return
    plays = valid_plays(rng, rules, size, 6)
    beat = {(a, b): judge(a, b, rules)[0] for a in plays for b in plays}
    for a in plays:
        assert not beat[(a, a)]
        for b in plays:
            assert not (beat[(a, b)] and beat[(b, a)]), (a, b)
            for c in plays:
                if beat[(a, b)] and beat[(b, c)]:
                    assert beat[(a, c)], (a, b, c)
