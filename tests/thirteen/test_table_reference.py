"""The plain reference of a table's scoring (tests/thirteen/table_reference.py) held to tables worked by
hand: ruling 14's example, the 1-6 and 2-4 scorings, a home run under 十三水 (x2, then x2), fouls under
``loses_all``, special against special in both modes, declarations; then its properties (every table's
totals sum to zero, the order of players changes no player's result) and, at the house table, the
service's round score on every legal deal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.cards import DECK, cards
from service.rules.thirteen import DUNS, ORDINARY, Arrangement, Special, score_round
from service.rules.thirteen.suggest import naive_arrangement
from tests.thirteen.specials_reference import making, reference_specials
from tests.thirteen.table_reference import (
    ONE_SIX,
    ORDINARY_TABLE,
    PARTS,
    SHISANSHUI,
    TWO_FOUR,
    Refused,
    score_table,
)


def player(text: str, declare: str | None = None) -> dict[str, Any]:
    """A player from "head | middle | tail"."""
    head, middle, tail = (cards(part) for part in text.split("|"))
    found: dict[str, Any] = {"head": head, "middle": middle, "tail": tail}
    if declare is not None:
        found["declare"] = declare
    return found


def parts(**given: int) -> dict[str, int]:
    return dict.fromkeys(PARTS, 0) | given


def pair(result, a: int, b: int):
    return next(p for p in result.pairs if (p.a, p.b) == (a, b))


def totals(result) -> list[int]:
    return [p.total for p in result.players]


# Ruling 14's table: A sweeps B with a middle full house (1 + 1), a higher tail full house (1: no tail bonus)
# and a head of no bonus (1); C holds two straight flushes and a pair of aces and sweeps everyone.
A = "Qh Qd 4c | 9c 9d 9h 4d 4h | Kc Kd Kh 5c 5d"  # pair Q / full house 9 / full house K
B = "Jh Jd 3c | 8c 8d 8h 2c 2d | Tc Td Th 6c 6h"  # pair J / full house 8 / full house 10
C = "Ah Ad 2h | 3s 4s 5s 6s 7s | 9s Ts Js Qs Ks"  # pair A / straight flush 7 / straight flush K
D = "2s Jc Qc | As Ac 8s 6d 5h | 7h 7d 7c 3h 3d"  # Q high / pair A / full house 7
RULING_14 = [player(p) for p in (A, B, C, D)]

# Mixed results, no bonus category: P1 wins two duns of P0 and ties the head; P2 sweeps P0 and P3 and wins
# two of P1; P0 and P3 win one each and tie the middle; P1 wins two of P3.
MIXED = [
    player("Kc 9c 4h | 6c 6d Js 5h 2c | Qc Qh Qs 7c 3s"),  # K 9 4 / pair 6 (J 5 2) / trips Q
    player("Ks 9h 4s | 7h 7s Ad 8c 2d | 8d Td Jd Qd Kd"),  # K 9 4 / pair 7 / flush
    player("5c 5s 2s | Tc Th 3d 3h 9d | 7d 8s 9s Ts Jc"),  # pair 5 / two pair / straight 7-J
    player("Ah 8h 3c | 6h 6s Jh 5d 2h | As Ac 4c 4d Kh"),  # A 8 3 / pair 6 (J 5 2) / two pair A 4
]

# P0 and P1 tie every dun (pair A / straight 7 / straight K in other suits) and win every dun of P2 and P3,
# who tie the head; P3 wins the middle and tail of P2.
TIES = [
    player("Ac Ad 2c | 3c 4d 5h 6s 7c | 9c Td Jh Qs Kc"),
    player("Ah As 2d | 3d 4h 5s 6c 7d | 9d Th Js Qc Kd"),
    player("2h 3h 5d | 8c 8d 4c 6d 7h | 8h 8s Qd Qh Ts"),  # 5 3 2 / pair 8 / two pair Q 8
    player("2s 3s 5c | 9h 9s 4s 6h 7s | Kh Ks Jc Jd Tc"),  # 5 3 2 / pair 9 / two pair K J
]


# A dragon (its duns out of order: scored by its special, never fouled), six pairs, and two ordinary hands
# (C wins the head and the tail of D, D the middle).
DRAGON = "Ac Kc Qs | 2d 3h 4s 5c 7h | 6d 8s 9c Td Jh"
SIX_PAIRS = "2c 2h As | 5d 5h 7c 7d 9d | 9h Jc Js Kd Ks"  # pair 2 / two pair 7 5 / two pair K J
DRAGON_TABLE = [
    player(DRAGON),
    player(SIX_PAIRS),
    player("3c 4d 9s | 6c 6h 8c Jd 2s | Tc Th Ts Qc Qd"),  # 9 high / pair 6 / full house 10
    player("5s 6s 7s | 3d 3s 4c 4h Qh | Ad Ah 8d 8h Kh"),  # 7 high / two pair 4 3 / two pair A 8
]

# Fouls: P0 with trips, quads and a straight flush (bonuses 2 + 7 + 4 at 十三水); P1 and P2 fouled (a head
# above the middle); P3 a royal straight flush in the tail, so P0 sweeps neither P3 nor the table.
FOULS = [
    player("2c 2d 2h | 5c 5d 5h 5s 3c | 6d 7d 8d 9d Td"),
    player("Ac Ad 4d | 2s 3h 6c 8s Jc | Kc Kd Qc Qd 9s"),  # pair A over J high
    player("As Ks Qs | 3s 4h 6h 7h Tc | 4s 6s 7s Ts Jd"),  # A high over 10 high
    player("3d 4c 7c | 8c 8h 9c 9h Js | Th Jh Qh Kh Ah"),
]


def test_the_worked_tables_hold_13_distinct_cards_each_and_no_other_special():
    for table, specials in ((RULING_14, [()] * 4), (MIXED, [()] * 4), (FOULS, [()] * 4), (TIES, [()] * 4),
                            (DRAGON_TABLE, [(Special.DRAGON, Special.THREE_STRAIGHTS), (Special.SIX_PAIRS,), (), ()])):  # fmt: skip
        hands = [[*p["head"], *p["middle"], *p["tail"]] for p in table]
        assert len({c for hand in hands for c in hand}) == 52
        assert [reference_specials(hand) for hand in hands] == specials


# ---- ruling 14 and the home run -----------------------------------------------------------------------------


def test_ruling_14_a_sweeps_b_with_a_middle_full_house_plus_8():
    """Ruling 14: "A wins all three duns against B with a middle full house (1 + 1), a higher tail full house (1: no
    tail bonus) and a head of no bonus (1): the pair's 4, swept, x2 = A +8, B -8"."""
    found = pair(score_table(RULING_14, SHISANSHUI), 0, 1)
    assert (found.points_a, found.parts_a) == (8, parts(duns=3, bonuses=1, sweep=4))


def test_a_home_run_under_shisanshui_doubles_then_doubles():
    """C sweeps A, B and D, each with 3 duns and its straight flushes' 9 + 4: (3 + 13) x 2 = 32 a pair,
    then the home run x2 = 64 from each."""
    result = score_table(RULING_14, SHISANSHUI)
    for other in (0, 1):
        found = pair(result, other, 2)
        assert (found.points_a, found.parts_a) == (-64, parts(duns=-3, bonuses=-13, sweep=-16, home_run=-32))
    assert pair(result, 2, 3).points_a == 64
    assert [p.home_run for p in result.players] == [False, False, True, False]
    assert [p.swept for p in result.players] == [[1, 3], [3], [0, 1, 3], []]
    # A sweeps B and D (8 each), B sweeps D (8)
    assert [pair(result, a, b).points_a for a, b in ((0, 1), (0, 3), (1, 3))] == [8, 8, 8]
    assert totals(result) == [-48, -64, 192, -80]


def test_ruling_14_a_dragon_takes_36_from_each_and_six_pairs_4_from_each_player_without_a_special():
    """Ruling 14: "A hand of thirteen cards A to K (a dragon), whatever its duns, scores +36 from each other player who
    scores no special, and nothing else; if another player holds six_pairs, the dragon takes 36 from that
    player too and the six pairs take 4 from each player without a special"; C wins 2 duns of D's 3 (+1)."""
    result = score_table(DRAGON_TABLE, SHISANSHUI)
    assert [p.special for p in result.players] == [Special.DRAGON, Special.SIX_PAIRS, None, None]
    assert [p.fouled for p in result.players] == [False, False, False, False]  # the dragon's duns are out of order
    assert [(p.a, p.b, p.points_a) for p in result.pairs] == [
        (0, 1, 36), (0, 2, 36), (0, 3, 36), (1, 2, 4), (1, 3, 4), (2, 3, 1)
    ]  # fmt: skip
    assert pair(result, 0, 1).parts_a == parts(specials=36)
    assert totals(result) == [108, -28, -39, -41]


# ---- the 1-6 and 2-4 scorings, worked by hand ----------------------------------------------------------------


def test_the_1_6_scoring_worked_by_hand():
    """1 a dun won, 3 more for a sweep (all three won): P1 wins two of P0 and ties one (2, no sweep), P2
    sweeps P0 and P3 (3 + 3), P2 wins two of P1 (2 - 1), P1 two of P3 (2 - 1), P0 and P3 one each (0)."""
    result = score_table(MIXED, ONE_SIX)
    assert [(p.a, p.b, p.points_a) for p in result.pairs] == [
        (0, 1, -2), (0, 2, -6), (0, 3, 0), (1, 2, -1), (1, 3, 1), (2, 3, 6)
    ]  # fmt: skip
    assert pair(result, 0, 2).parts_a == parts(duns=-3, sweep=-3)
    assert totals(result) == [-8, 2, 13, -7]


def test_the_2_4_scoring_worked_by_hand():
    """1 a dun won, 1 more for winning more duns (two wins and a tie is a majority), no sweep points: 3 for
    P1 over P0, 4 for each of P2's sweeps, 2 for a 2-1, 0 for one dun each."""
    result = score_table(MIXED, TWO_FOUR)
    assert [(p.a, p.b, p.points_a) for p in result.pairs] == [
        (0, 1, -3), (0, 2, -4), (0, 3, 0), (1, 2, -2), (1, 3, 2), (2, 3, 4)
    ]  # fmt: skip
    assert pair(result, 0, 1).parts_a == parts(duns=-2, majority=-1)
    assert pair(result, 1, 2).parts_a == parts(duns=-1, majority=-1)
    assert totals(result) == [-7, 3, 10, -6]


def test_the_house_table_worked_by_hand_and_as_the_service_scores_it():
    """打槍 only (no bonus category here): P1 shoots P0 (a tie is no loss), P2 shoots P0 and P3."""
    result = score_table(MIXED, ORDINARY_TABLE)
    assert [(p.a, p.b, p.points_a) for p in result.pairs] == [
        (0, 1, -1), (0, 2, -1), (0, 3, 0), (1, 2, 0), (1, 3, 0), (2, 3, 1)
    ]  # fmt: skip
    assert totals(result) == [-2, 1, 2, -1]
    served = score_round([Arrangement(p["head"], p["middle"], p["tail"]) for p in MIXED], ORDINARY)
    assert [p.total for p in served.players] == totals(result)


def test_tying_every_dun_is_a_sweep_both_ways_where_no_dun_lost_sweeps_and_both_home_run():
    """The house table: P0 and P1 shoot each other (1 - 1) and both shoot all three others: two home runs,
    each (1 + 3) from every other player, P0 and P1 square between them (README ruling 4)."""
    result = score_table(TIES, ORDINARY_TABLE)
    assert [p.home_run for p in result.players] == [True, True, False, False]
    assert [p.swept for p in result.players] == [[1, 2, 3], [0, 2, 3], [], [2]]
    assert pair(result, 0, 1).parts_a == parts()
    assert pair(result, 0, 2).parts_a == parts(sweep=1, home_run=3)
    assert totals(result) == [8, 8, -9, -7]
    served = score_round([Arrangement(p["head"], p["middle"], p["tail"]) for p in TIES], ORDINARY)
    assert [p.total for p in served.players] == totals(result)


def test_tying_every_dun_is_no_sweep_where_all_duns_won_sweeps():
    """十三水: the ties pay nothing and sweep nothing, so no home run; each sweep of P2 and P3 is 3 x 2."""
    result = score_table(TIES, SHISANSHUI)
    assert [p.home_run for p in result.players] == [False] * 4
    assert [(p.a, p.b, p.points_a) for p in result.pairs] == [
        (0, 1, 0), (0, 2, 6), (0, 3, 6), (1, 2, 6), (1, 3, 6), (2, 3, -2)
    ]  # fmt: skip
    assert totals(result) == [12, 12, -14, -10]


# ---- fouls ------------------------------------------------------------------------------------------------------


def test_a_fouled_hand_loses_every_dun_swept_with_the_winners_bonuses_and_two_fouled_pay_each_other_nothing():
    """At 十三水 P0 takes (3 + 2 + 7 + 4) x 2 = 32 from each fouled player, P3 (3 + 4) x 2 = 14; P1 and P2
    pay each other nothing; P0 and P3 compare: P0 wins the head and middle (2 + 9), P3 the tail (1 + 4)."""
    result = score_table(FOULS, SHISANSHUI)
    assert [p.fouled for p in result.players] == [False, True, True, False]
    assert [(p.a, p.b, p.points_a) for p in result.pairs] == [
        (0, 1, 32), (0, 2, 32), (0, 3, 6), (1, 2, 0), (1, 3, -14), (2, 3, -14)
    ]  # fmt: skip
    assert pair(result, 0, 1).parts_a == parts(duns=3, bonuses=13, sweep=16)
    assert pair(result, 0, 3).parts_a == parts(duns=1, bonuses=5)
    assert pair(result, 1, 2).parts_a == parts()
    assert [p.swept for p in result.players] == [[1, 2], [], [], [1, 2]]
    assert not any(p.home_run for p in result.players)
    assert totals(result) == [70, -46, -46, 22]


def test_a_foul_is_refused_where_the_table_refuses_it():
    with pytest.raises(Refused) as refused:
        score_table(FOULS, ORDINARY_TABLE)
    assert refused.value.seat == 1


def test_a_special_hand_against_a_fouled_one_takes_its_points():
    """D's cards set out of order: the dragon and the six pairs take their points from it as from anyone;
    C, its duns compared with nobody else's, sweeps it with no bonus: (3 + 0) x 2."""
    fouled = player("Ad Ah 8d | 3d 3s 5s 6s 7s | 4c 4h Qh 8h Kh")  # pair A over pair 3
    result = score_table([*DRAGON_TABLE[:3], fouled], SHISANSHUI)
    assert [p.fouled for p in result.players] == [False, False, False, True]
    assert [pair(result, a, 3).points_a for a in (0, 1, 2)] == [36, 4, 6]
    assert totals(result) == [108, -28, -34, -46]


# ---- special against special ---------------------------------------------------------------------------------


def three_specials() -> list[dict[str, Any]]:
    """A dragon, two six pairs and an ordinary hand (the rest of the deck, arranged by the naive arranger)."""
    players = [player(DRAGON), player(SIX_PAIRS), player("3c 3d 4c | 4d 6c 6h 8c 8d | Tc Th Qc Qd 2s")]
    held = {c for p in players for dun in DUNS for c in p[dun.value]}
    head, middle, tail = naive_arrangement([c for c in DECK if c not in held])
    return [*players, {"head": list(head), "middle": list(middle), "tail": list(tail)}]


def test_special_against_special_the_higher_takes_its_points_the_same_special_nothing():
    result = score_table(three_specials(), SHISANSHUI)
    assert [p.special for p in result.players] == [Special.DRAGON, Special.SIX_PAIRS, Special.SIX_PAIRS, None]
    assert [(p.a, p.b, p.points_a) for p in result.pairs] == [
        (0, 1, 36), (0, 2, 36), (0, 3, 36), (1, 2, 0), (1, 3, 4), (2, 3, 4)
    ]  # fmt: skip
    assert totals(result) == [108, -32, -32, -44]


def test_special_against_special_by_difference():
    result = score_table(three_specials(), SHISANSHUI | {"special_vs_special": "difference"})
    assert [(p.a, p.b, p.points_a) for p in result.pairs] == [
        (0, 1, 32), (0, 2, 32), (0, 3, 36), (1, 2, 0), (1, 3, 4), (2, 3, 4)
    ]  # fmt: skip
    assert totals(result) == [100, -28, -28, -44]


def test_by_difference_a_lower_special_the_table_pays_more_takes_the_difference():
    table = SHISANSHUI | {"special_vs_special": "difference", "specials": {"dragon": 10, "six_pairs": 20}}
    result = score_table(three_specials(), table)
    assert [pair(result, 0, b).points_a for b in (1, 2, 3)] == [-10, -10, 10]


def test_a_special_is_never_part_of_a_sweep_or_a_home_run():
    """Against the dragon nobody compares duns: nobody sweeps it, and nobody home-runs that table."""
    result = score_table(DRAGON_TABLE, SHISANSHUI)
    assert all(0 not in p.swept and 1 not in p.swept for p in result.players)
    assert result.players[2].swept == [] and not any(p.home_run for p in result.players)


# ---- declarations ---------------------------------------------------------------------------------------------


def test_by_player_declared_specials_are_scored_by_them():
    """1-6: the dragon 13 and six pairs 3 from each player without a special; C wins two of D's duns (+1)."""
    table = [player(DRAGON, "dragon"), player(SIX_PAIRS, "six_pairs"), *DRAGON_TABLE[2:]]
    result = score_table(table, ONE_SIX)
    assert [(p.a, p.b, p.points_a) for p in result.pairs] == [
        (0, 1, 13), (0, 2, 13), (0, 3, 13), (1, 2, 3), (1, 3, 3), (2, 3, 1)
    ]  # fmt: skip
    assert totals(result) == [39, -7, -15, -17]


def test_by_player_a_special_not_declared_plays_its_duns():
    """Six pairs not declared: pair 2 / two pair 7 5 / two pair K J win the head and middle of C and of D."""
    table = [player(DRAGON, "dragon"), player(SIX_PAIRS), *DRAGON_TABLE[2:]]
    result = score_table(table, ONE_SIX)
    assert [p.special for p in result.players] == [Special.DRAGON, None, None, None]
    assert [pair(result, 1, b).points_a for b in (2, 3)] == [1, 1]
    assert totals(result) == [39, -11, -13, -15]


@pytest.mark.parametrize(
    ("seat", "declare", "table"),
    [
        (2, "six_pairs", ONE_SIX),  # the cards make none
        (0, "three_straights", ONE_SIX | {"specials": {"dragon": 13}}),  # made, but not listed
        (1, "six_pairs", SHISANSHUI),  # automatic: no declarations
    ],
)
def test_a_declaration_the_table_cannot_take_is_refused_naming_the_player(seat, declare, table):
    players = [dict(p) for p in DRAGON_TABLE]
    players[seat]["declare"] = declare
    with pytest.raises(Refused) as refused:
        score_table(players, table)
    assert refused.value.seat == seat


def test_automatic_scores_the_highest_special_the_table_lists():
    """The dragon also makes three straights: a table listing three straights and six pairs, not the dragon,
    scores it as three straights, below six pairs in the catalog's order, whatever the points."""
    result = score_table(DRAGON_TABLE, SHISANSHUI | {"specials": {"three_straights": 3, "six_pairs": 4}})
    assert [p.special for p in result.players] == [Special.THREE_STRAIGHTS, Special.SIX_PAIRS, None, None]
    assert pair(result, 0, 1).parts_a == parts(specials=-4)


# ---- properties -----------------------------------------------------------------------------------------------

CATEGORIES = ("high_card", "pair", "two_pair", "trips", "straight", "flush", "full_house", "quads", "straight_flush")


def random_table(rng: random.Random) -> dict[str, Any]:
    """Any table ruling 13 allows (points kept small: the properties do not depend on their size)."""
    specials = {s.value: rng.randint(0, 50) for s in rng.sample(list(Special), rng.randint(0, len(Special)))}
    return {
        "dun_points": rng.randint(0, 3),
        "bonuses": {
            dun.value: {c: rng.randint(0, 10) for c in rng.sample(CATEGORIES, rng.randint(0, 3))} for dun in DUNS
        },
        "majority_points": rng.randint(0, 2),
        "sweep": rng.choice(("no_dun_lost", "all_duns_won")),
        "sweep_points": rng.randint(0, 3),
        "sweep_multiplier": rng.randint(1, 4),
        "sweep_multiplies_bonuses": rng.random() < 0.5,
        "home_run_points": rng.randint(0, 3),
        "home_run_multiplier": rng.randint(1, 4),
        "foul": rng.choice(("refused", "loses_all")),
        "specials": specials,
        "special_vs_special": rng.choice(("higher_takes_its_points", "difference")) if specials else None,
        "declare": rng.choice(("automatic", "by_player")) if specials else None,
    }


def random_deal(rng: random.Random, table: dict[str, Any]) -> list[dict[str, Any]]:
    """Four hands of the 52 (half the time the first makes a special), each set by the naive arranger or,
    where fouls are scored, often at random (相公 is common at random); declared, where players declare,
    as a special it makes and the table lists, most of the time."""
    deck = list(DECK)
    rng.shuffle(deck)
    first = making(rng.choice(list(Special)), rng) if rng.random() < 0.5 else deck[:13]
    rest = [c for c in deck if c not in first]
    players = []
    for hand in (first, rest[:13], rest[13:26], rest[26:]):
        if table["foul"] == "loses_all" and rng.random() < 0.5:
            hand = rng.sample(hand, 13)
            head, middle, tail = hand[:3], hand[3:8], hand[8:]
        else:
            head, middle, tail = naive_arrangement(hand)
        found: dict[str, Any] = {"head": list(head), "middle": list(middle), "tail": list(tail)}
        if table["declare"] == "by_player" and rng.random() < 0.7:
            made = [s.value for s in reference_specials(hand) if s.value in table["specials"]]
            if made:
                found["declare"] = rng.choice(made)
        players.append(found)
    return players


@settings(max_examples=60)
@given(st.randoms(use_true_random=False))
def test_every_tables_totals_sum_to_zero_and_every_pairs_parts_to_its_points(rng):
    table = random_table(rng)
    result = score_table(random_deal(rng, table), table)
    assert sum(totals(result)) == 0
    assert all(sum(p.parts_a.values()) == p.points_a for p in result.pairs)


@settings(max_examples=40)
@given(st.randoms(use_true_random=False))
def test_the_order_of_players_never_changes_a_players_result(rng):
    table = random_table(rng)
    players = random_deal(rng, table)
    order = rng.sample(range(4), 4)  # seat s of the new order is the player of seat order[s]
    before = score_table(players, table).players
    after = score_table([players[k] for k in order], table).players
    for seat, k in enumerate(order):
        mine, theirs = after[seat], before[k]
        assert (mine.total, mine.special, mine.fouled, mine.home_run) == (
            theirs.total,
            theirs.special,
            theirs.fouled,
            theirs.home_run,
        )
        assert sorted(order[j] for j in mine.swept) == theirs.swept


@settings(max_examples=60)
@given(st.randoms(use_true_random=False))
def test_at_the_house_table_the_reference_is_the_services_round_score(rng):
    """``ordinary`` as the spec's parameters: every pair and player as ``score_round`` scores them."""
    deck = list(DECK)
    rng.shuffle(deck)
    arrangements = [naive_arrangement(deck[13 * seat : 13 * (seat + 1)]) for seat in range(4)]
    result = score_table(
        [dict(zip(("head", "middle", "tail"), map(list, a), strict=True)) for a in arrangements], ORDINARY_TABLE
    )
    served = score_round([Arrangement(*map(list, a)) for a in arrangements], ORDINARY)
    assert totals(result) == [p.total for p in served.players]
    assert [(m.a, m.b, m.points_a) for m in served.matchups] == [
        (p.a, p.b, p.points_a - p.parts_a["home_run"]) for p in result.pairs
    ]
    home_runs = [0] * 4
    for p in result.pairs:
        home_runs[p.a] += p.parts_a["home_run"]
        home_runs[p.b] -= p.parts_a["home_run"]
    assert home_runs == [p.home_run for p in served.players]
