"""Invariants that hold in every OFC rule set, by hypothesis, parametrised over the registry's rule sets
(zero-sum for every player count a rule set seats, antisymmetry, player and card order never changing an
answer, one shared ranking), and each rule set's royalty tables on every category boundary."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules.cards import DECK, cards
from service.rules.games import GAMES
from service.rules.ofc import (
    BOTTOM,
    MIDDLE,
    ROWS,
    TOP,
    Board,
    Fantasyland,
    Seat,
    compare_rows,
    evaluate_row,
    score_hand,
    settle,
)
from service.rules.ofc.rules import OfcRules

RULE_SETS = [r.rules for game in GAMES for r in game.rule_sets if isinstance(r.rules, OfcRules)]
SEATINGS = [(rules, n) for rules in RULE_SETS for n in range(rules.players[0], rules.players[1] + 1)]


def ids(value: object) -> str:
    return value.id if isinstance(value, OfcRules) else str(value)


def deal_boards(deck: list, count: int) -> list[Board]:
    return [
        Board(tuple(deck[i : i + 3]), tuple(deck[i + 3 : i + 8]), tuple(deck[i + 8 : i + 13]))
        for i in range(0, 13 * count, 13)
    ]


def states(rules: OfcRules, count: int) -> st.SearchStrategy[list[Fantasyland]]:
    options = [Fantasyland(), *(Fantasyland(True, n) for n in rules.fantasyland_sizes)]
    return st.lists(st.sampled_from(options), min_size=count, max_size=count)


@pytest.mark.parametrize(("rules", "players"), SEATINGS, ids=[f"{r.id}-{n}p" for r, n in SEATINGS])
@given(data=st.data())
def test_scores_sum_to_zero_for_every_seating(rules, players, data):
    deck = data.draw(st.permutations(DECK))
    fantasyland = data.draw(states(rules, players))
    score = score_hand([Seat(b, f) for b, f in zip(deal_boards(deck, players), fantasyland)], rules)
    assert sum(p.total for p in score.players) == 0
    assert len(score.matchups) == players * (players - 1) // 2
    for p in score.players:
        won = sum(m.points_a for m in score.matchups if m.a == p.seat) - sum(
            m.points_a for m in score.matchups if m.b == p.seat
        )
        assert won == p.total


@pytest.mark.parametrize("rules", RULE_SETS, ids=ids)
@given(deck=st.permutations(DECK))
def test_settling_is_antisymmetric(rules, deck):
    a, b = deal_boards(deck, 2)
    score = (
        score_hand([Seat(a), Seat(b)], rules)
        if rules.players[0] <= 2
        else score_hand([Seat(a), Seat(b), Seat(deal_boards(deck, 3)[2])], rules)
    )
    value_a, value_b = score.players[0].value, score.players[1].value
    forward, backward = settle(0, 1, value_a, value_b, rules), settle(0, 1, value_b, value_a, rules)
    assert forward.points_a == -backward.points_a and forward.lines == -backward.lines
    assert {"a": "b", "b": "a", "tie": "tie"}[forward.rows[MIDDLE]] == backward.rows[MIDDLE]


@pytest.mark.parametrize(("rules", "players"), SEATINGS, ids=[f"{r.id}-{n}p" for r, n in SEATINGS])
@given(data=st.data())
def test_order_of_players_never_changes_a_players_result(rules, players, data):
    boards = deal_boards(data.draw(st.permutations(DECK)), players)
    order = data.draw(st.permutations(range(players)))
    base = score_hand([Seat(b) for b in boards], rules)
    permuted = score_hand([Seat(boards[i]) for i in order], rules)
    for new_seat, old_seat in enumerate(order):
        assert permuted.players[new_seat].total == base.players[old_seat].total
        assert permuted.players[new_seat].value == base.players[old_seat].value


@pytest.mark.parametrize("rules", RULE_SETS, ids=ids)
@given(deck=st.permutations(DECK), rng=st.randoms(use_true_random=False))
def test_order_of_cards_in_rows_never_changes_an_answer(rules, deck, rng):
    boards = deal_boards(deck, 3)
    shuffled = []
    for b in boards:
        rows = [list(b.row(r)) for r in ROWS]
        for row in rows:
            rng.shuffle(row)
        shuffled.append(Board(*(tuple(r) for r in rows)))
    assert score_hand([Seat(b) for b in boards], rules) == score_hand([Seat(b) for b in shuffled], rules)


five = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@given(five, five)
def test_every_rule_set_shares_one_ranking(a, b):
    """The rule sets differ in royalties, deals and Fantasyland, never in which hand wins a row."""
    results = {compare_rows(row, a, b, rules)[0] for rules in RULE_SETS for row in (MIDDLE, BOTTOM)}
    assert len(results) == 1
    assert {evaluate_row(MIDDLE, a, rules=rules).hand for rules in RULE_SETS} == {evaluate_row(MIDDLE, a).hand}


# --- royalty tables on every category boundary ----------------------------------------------------------

# The weakest and the strongest hand of each five-card category, from the texts' definitions.
BOUNDARIES = {
    "high_card": ("7s 5h 4d 3c 2s", "As Kh Qd Jc 9s"),
    "pair": ("2s 2h 5d 4c 3s", "As Ah Kd Qc Js"),
    "two_pair": ("3s 3h 2d 2c 4s", "As Ah Kd Kc Qs"),
    "trips": ("2s 2h 2d 4c 3s", "As Ah Ad Kc Qs"),
    "straight": ("As 2h 3d 4c 5s", "Ts Jh Qd Kc As"),
    "flush": ("7s 5s 4s 3s 2s", "As Ks Qs Js 9s"),
    "full_house": ("2s 2h 2d 3c 3s", "As Ah Ad Kc Ks"),
    "quads": ("2s 2h 2d 2c 3s", "As Ah Ad Ac Ks"),
    "straight_flush": ("As 2s 3s 4s 5s", "9h Th Jh Qh Kh"),
    "royal_flush": ("Ts Js Qs Ks As", "Th Jh Qh Kh Ah"),
}
# Each rule set's table, written from its text: the house book's 獎分表 (standard and progressive use it,
# rulings 7 and 9) and the forum's 「尾道牌型加分 ... 中道 ... x2」 for classic.
HOUSE_FIVE = {
    MIDDLE: {
        "trips": 2,
        "straight": 4,
        "flush": 8,
        "full_house": 12,
        "quads": 20,
        "straight_flush": 30,
        "royal_flush": 50,
    },
    BOTTOM: {"straight": 2, "flush": 4, "full_house": 6, "quads": 10, "straight_flush": 15, "royal_flush": 25},
}
CLASSIC_FIVE = {
    MIDDLE: {"straight": 4, "flush": 8, "full_house": 12, "quads": 16, "straight_flush": 20, "royal_flush": 40},
    BOTTOM: {"straight": 2, "flush": 4, "full_house": 6, "quads": 8, "straight_flush": 10, "royal_flush": 20},
}
EXPECTED_FIVE = {
    "ultimate-fantasyland": HOUSE_FIVE,
    "standard": HOUSE_FIVE,
    "progressive": HOUSE_FIVE,
    "classic": CLASSIC_FIVE,
}
# Top: 55 earns nothing, 66 = 1 ... AA = 9 (「对子的数字减5」), 222 = 10 ... AAA = 22 (「三条的数字加8」), in every rule set.
TOP_BOUNDARIES = [
    ("Ks Qh Jd", 0),
    ("5s 5h Ad", 0),
    ("6s 6h 2d", 1),
    ("Qs Qh Ad", 7),
    ("As Ah Kd", 9),
    ("2s 2h 2d", 10),
    ("Qs Qh Qd", 20),
    ("As Ah Ad", 22),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=ids)
@pytest.mark.parametrize("row", [MIDDLE, BOTTOM])
@pytest.mark.parametrize("category", list(BOUNDARIES))
def test_five_card_royalty_on_both_ends_of_every_category(rules, row, category):
    expected = EXPECTED_FIVE[rules.id][row].get(category, 0)
    for hand in BOUNDARIES[category]:
        value = evaluate_row(row, tuple(cards(hand)), rules=rules)
        assert (value.hand.category, value.royalty) == (category, expected), hand


@pytest.mark.parametrize("rules", RULE_SETS, ids=ids)
@pytest.mark.parametrize(("hand", "expected"), TOP_BOUNDARIES)
def test_top_royalty_on_every_boundary(rules, hand, expected):
    assert evaluate_row(TOP, tuple(cards(hand)), rules=rules).royalty == expected
