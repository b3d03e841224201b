"""Every worked example, table and ruling (特殊規則與裁決) of the Pineapple OFC rule book, by name."""

from __future__ import annotations

import pytest

from service.rules import poker
from service.rules.cards import cards
from service.rules.ofc import (
    Board,
    Fantasyland,
    FoulReason,
    Row,
    Seat,
    evaluate_board,
    evaluate_row,
    foul_reasons,
    score_hand,
)  # fmt: skip
from tests.ofc_pineapple.records import BING, JIA, YI


def board(text: str) -> Board:
    """``"top / middle / bottom"`` with space-separated cards."""
    top, middle, bottom = (tuple(cards(part)) for part in text.split("/"))
    return Board(top, middle, bottom)


def of(rows: dict[str, list[str]]) -> Board:
    return Board(*(tuple(cards(" ".join(rows[r]))) for r in ("top", "middle", "bottom")))


def totals(*seats: Seat) -> list[int]:
    return [p.total for p in score_hand(list(seats)).players]


# --- 合法與犯規: the top-vs-middle table --------------------------------------------------------------


def test_top_KKA_over_middle_KKQJ9_fouls():
    value = evaluate_board(board("Kh Kd Ac / Ks Kc Qd Jc 9c / 2h 2s 3h 3s 4c"))
    assert value.fouled and value.foul_reasons == (FoulReason.TOP_ABOVE_MIDDLE,)


def test_top_KK9_under_middle_KKAQJ_is_legal():
    value = evaluate_board(board("Kh Kd 9c / Ks Kc Ad Qc Jc / 2h 2s 2d 3s 3c"))
    assert not value.fouled and value.foul_reasons == ()


def test_top_999_under_middle_999AK_is_legal_as_an_illustration():
    # 單副牌不會同時出現六張 9: the rule is shown on the comparison itself.
    top = poker.hand_value(cards("9s 9h 9d"))
    middle = poker.hand_value(cards("9c 9s 9h Ac Kd"))  # stands for 9-9-9-A-K
    bottom = poker.hand_value(cards("2c 2d 2h 2s 3c"))
    assert top.strength < middle.strength
    assert foul_reasons(top, middle, bottom) == ()


def test_top_AAA_over_middle_999AK_fouls():
    value = evaluate_board(board("Ah Ad Ac / 9c 9s 9h As Kd / 2c 2d 2h 2s 3c"))
    assert value.foul_reasons == (FoulReason.TOP_ABOVE_MIDDLE,)


def test_middle_above_bottom_fouls():
    value = evaluate_board(board("2c 3d 4h / Ac Ad Kh Ks 9c / Qc Qd 8h 7s 6c"))
    assert value.foul_reasons == (FoulReason.MIDDLE_ABOVE_BOTTOM,)


def test_ruling_exactly_equal_rows_are_not_a_foul():
    # 三道牌力完全相等不算爆牌（規則是「大於或等於」）: middle and bottom of the same ranks tie.
    value = evaluate_board(board("2c 3d 4h / Ac Kd Qh Js 9c / Ad Kh Qs Jc 9d"))
    assert value.rows[Row.MIDDLE].hand.strength == value.rows[Row.BOTTOM].hand.strength
    assert not value.fouled


A = board("2c 3d 6c / 7c 7d 8h 9s Jc / Ah Th 7h 5h 4h")  # flush bottom: royalties 4
B = board("Qd 3h 4c / Ks Kc Qh Qs 9d / 6s 6d 6h 8c 8d")  # full house bottom: royalties 6
C = board("2h 3s 4d / Jd Jh Ts 9c 5s / Ac Ad Kd Kh 3c")  # no royalty
FOUL_1 = board("As Ac 3s / Jd Jh Ts 9c 5s / Kd Kh 8s 3c 2h")  # top A-A above a J-J middle
FOUL_2 = board("Ks Kc 4d / Js Tc 9h 6s 2s / Qc Qd 9d 4s 5d")  # top K-K above a J-high middle


# --- 獎分表 ---------------------------------------------------------------------------------------------

TOP_PAIRS = {"6": 1, "7": 2, "8": 3, "9": 4, "T": 5, "J": 6, "Q": 7, "K": 8, "A": 9}
TOP_TRIPS = {
    "2": 10,
    "3": 11,
    "4": 12,
    "5": 13,
    "6": 14,
    "7": 15,
    "8": 16,
    "9": 17,
    "T": 18,
    "J": 19,
    "Q": 20,
    "K": 21,
    "A": 22,
}


@pytest.mark.parametrize(("rank", "points"), TOP_PAIRS.items())
def test_royalty_table_top_pairs(rank, points):
    kicker = "2c" if rank != "2" else "3c"
    assert evaluate_row(Row.TOP, cards(f"{rank}h {rank}d {kicker}")).royalty == points


@pytest.mark.parametrize("rank", ["2", "3", "4", "5"])
def test_royalty_table_top_pairs_2_to_5_and_high_card_pay_nothing(rank):
    assert evaluate_row(Row.TOP, cards(f"{rank}h {rank}d Ac")).royalty == 0
    assert evaluate_row(Row.TOP, cards("Ah Kd Qc")).royalty == 0


@pytest.mark.parametrize(("rank", "points"), TOP_TRIPS.items())
def test_royalty_table_top_trips(rank, points):
    assert evaluate_row(Row.TOP, cards(f"{rank}h {rank}d {rank}c")).royalty == points


FIVE_CARD_HANDS = {
    "high_card": "Ac Kd 9h 7s 3c", "pair": "Ac Ad 9h 7s 3c", "two_pair": "Ac Ad 9h 9s 3c",
    "trips": "Ac Ad Ah 7s 3c", "straight": "9c Td Jh Qs Kc", "flush": "2h 5h 9h Jh Kh",
    "full_house": "4c 4d 4h 9s 9c", "quads": "7c 7d 7h 7s 2c", "straight_flush": "5s 6s 7s 8s 9s",
    "royal_flush": "Td Jd Qd Kd Ad",
}  # fmt: skip
MIDDLE = {
    "high_card": 0,
    "pair": 0,
    "two_pair": 0,
    "trips": 2,
    "straight": 4,
    "flush": 8,
    "full_house": 12,
    "quads": 20,
    "straight_flush": 30,
    "royal_flush": 50,
}
BOTTOM = {
    "high_card": 0,
    "pair": 0,
    "two_pair": 0,
    "trips": 0,
    "straight": 2,
    "flush": 4,
    "full_house": 6,
    "quads": 10,
    "straight_flush": 15,
    "royal_flush": 25,
}


@pytest.mark.parametrize("category", FIVE_CARD_HANDS)
def test_royalty_table_middle_and_bottom(category):
    middle = evaluate_row(Row.MIDDLE, cards(FIVE_CARD_HANDS[category]))
    bottom = evaluate_row(Row.BOTTOM, cards(FIVE_CARD_HANDS[category]))
    assert middle.hand.category == bottom.hand.category == category
    assert (middle.royalty, bottom.royalty) == (MIDDLE[category], BOTTOM[category])


def test_the_wheel_is_a_straight_paying_its_royalty():
    value = evaluate_row(Row.BOTTOM, cards("Ac 2d 3h 4s 5c"))
    assert (value.hand.category, value.hand.strength, value.royalty) == ("straight", (5, 5), 2)


def test_royalties_are_earned_whether_the_row_wins_or_not():
    # A's bottom flush (4) loses to B's bottom full house, and still counts 4 in the royalty difference.
    score = score_hand([Seat(A), Seat(B), Seat(C)])
    ab = score.matchups[0]
    assert ab.rows == {Row.TOP: "b", Row.MIDDLE: "b", Row.BOTTOM: "b"}
    assert ab.royalty_diff == 4 - 6
    assert ab.points_a == -3 - 3 - 2


# --- 計分範例 -------------------------------------------------------------------------------------------


def test_worked_example_jia_yi_bing_scores_plus7_plus17_minus24():
    score = score_hand([Seat(of(JIA)), Seat(of(YI)), Seat(of(BING))])
    assert [p.total for p in score.players] == [7, 17, -24]
    jia_yi, jia_bing, yi_bing = score.matchups
    assert (jia_yi.lines, jia_yi.scoop, jia_yi.royalty_diff, jia_yi.points_a) == (1, None, -4, -3)
    assert jia_yi.rows == {Row.TOP: "b", Row.MIDDLE: "a", Row.BOTTOM: "a"}
    assert (jia_bing.lines, jia_bing.scoop, jia_bing.royalty_diff, jia_bing.points_a) == (3, "a", 4, 10)
    assert (yi_bing.lines, yi_bing.scoop, yi_bing.royalty_diff, yi_bing.points_a) == (3, "a", 8, 14)
    assert [p.value.royalties for p in score.players] == [4, 8, 0]
    assert score.players[2].value.fouled


def test_worked_example_yi_enters_fantasyland_with_15_cards():
    score = score_hand([Seat(of(JIA)), Seat(of(YI)), Seat(of(BING))])
    yi = score.players[1].value.fantasyland_next
    assert (yi.qualifies, yi.cards, yi.reason) == (True, 15, "enter_top_pair_KK")
    assert not score.players[0].value.fantasyland_next.qualifies


# --- 計分: 1-6, scoop, fouls ---------------------------------------------------------------------------


def test_scoop_adds_3_when_all_three_rows_win():
    m = score_hand([Seat(B), Seat(A), Seat(C)]).matchups[0]
    assert (m.lines, m.scoop, m.points_a) == (3, "a", 3 + 3 + (6 - 4))


def test_no_scoop_when_a_row_ties():
    b = Seat(board("6s 3h 2d / 6d 5d 8c 9c Js / Kh Kd Qc Qd 9d"))  # top 6-3-2 ties A's 6-3-2
    c = Seat(board("4c 6h 8d / Td Jh Ts 9h 5s / Ac Ad Kc Ks 3c"))
    m = score_hand([Seat(A), b, c]).matchups[0]
    assert m.rows == {Row.TOP: "tie", Row.MIDDLE: "a", Row.BOTTOM: "a"}
    assert (m.lines, m.scoop, m.points_a) == (2, None, 2 + 4)


def test_one_fouler_loses_6_to_each_non_fouler_and_pays_their_royalties():
    score = score_hand([Seat(A), Seat(B), Seat(FOUL_1)])
    assert score.players[2].value.fouled and score.players[2].value.royalties == 0
    a_foul, b_foul = score.matchups[1], score.matchups[2]
    assert (a_foul.points_a, b_foul.points_a) == (6 + 4, 6 + 6)
    assert score.players[2].total == -(6 + 4) - (6 + 6)


def test_ruling_two_foulers_score_0_between_them_and_each_pays_the_third():
    # 兩人都爆牌時，兩人之間 0 分，獎分都不算；但他們各自仍要賠給沒爆牌的第三人（6 點＋對方的獎分）。
    score = score_hand([Seat(A), Seat(FOUL_1), Seat(FOUL_2)])
    foulers = score.matchups[2]
    assert (foulers.lines, foulers.royalty_diff, foulers.points_a) == (0, 0, 0)
    assert [p.total for p in score.players] == [2 * (6 + 4), -(6 + 4), -(6 + 4)]


def test_all_three_foul_everyone_scores_0():
    third = board("Ah Ad 5c / Qs Jc 9s 7h 3h / 8c 8d 7d 6h 2d")
    score = score_hand([Seat(FOUL_1), Seat(FOUL_2), Seat(third)])
    assert all(p.value.fouled for p in score.players)
    assert [p.total for p in score.players] == [0, 0, 0]


def test_a_fouler_can_neither_enter_nor_stay_in_fantasyland():
    entering = evaluate_board(FOUL_1)  # top A-A would enter with 16
    assert not entering.fantasyland_next.qualifies
    staying = evaluate_board(board("Ac Ad Ah / Jd Jh Ts 9c 5s / Kd Kh 8h 3c 2h"), Fantasyland(True, 14))
    assert staying.fouled and staying.fantasyland_next == type(staying.fantasyland_next)(False, None, "fouled")


# --- 范特西 ---------------------------------------------------------------------------------------------

BOTTOM_OK = "/ 3c 3d 4h 4s 9c / Tc Td Th 2s 2c"


@pytest.mark.parametrize(
    ("top", "cards_next", "reason"),
    [
        ("Qh Qd 2d", 14, "enter_top_pair_QQ"),
        ("Kh Kd 2d", 15, "enter_top_pair_KK"),
        ("Ah Ad 2d", 16, "enter_top_pair_AA"),
        ("2h 2d 2s", 17, "enter_top_trips"),
    ],
)
def test_fantasyland_table_entry_counts(top, cards_next, reason):
    middle_bottom = "/ 3c 3d 3h 4s 4c / Tc Td Th Ts 9c" if top.startswith("2") else "/ As Ac 4h 4s 9h / Tc Td Th 2s 2c"
    value = evaluate_board(board(top + " " + middle_bottom))
    assert not value.fouled
    assert (value.fantasyland_next.qualifies, value.fantasyland_next.cards, value.fantasyland_next.reason) == (
        True,
        cards_next,
        reason,
    )


def test_top_jacks_do_not_enter_fantasyland():
    value = evaluate_board(board("Jh Jd 2d / As Ac 4h 4s 9h / Tc Td Th 2s 2c"))
    assert not value.fouled and not value.fantasyland_next.qualifies


def test_ruling_no_entry_ticket():
    # 范特西不收門票: qualifying costs nothing; the qualifier's score is its ordinary 1-6 score.
    qualifier = board("Qh Qd 2d / As Ac 4h 4s 9h / Tc Td Th 2s 2c")
    same_ranks = board("Qs Qc 2h / Ah Ad 4c 4d 9s / Jc Jd Jh 3s 3c")  # J full house bottom beats T full
    score = score_hand([Seat(qualifier), Seat(same_ranks), Seat(board("3h 5c 6d / 7c 7d 8h 9d Js / Ks Kd 8c 6h 5s"))])
    assert score.players[0].value.fantasyland_next.qualifies
    assert score.matchups[0].points_a == -1 + 0  # top tie, middle tie, bottom lost; royalties 7+6 each side


@pytest.mark.parametrize("entered_with", [14, 15, 16, 17])
def test_staying_with_top_trips_keeps_the_same_count(entered_with):
    value = evaluate_board(board("5h 5d 5s / 6c 6d 6h 4s 4c / Tc Td Th Ts 9c"), Fantasyland(True, entered_with))
    assert (value.fantasyland_next.qualifies, value.fantasyland_next.cards) == (True, entered_with)
    assert value.fantasyland_next.reason == "stay_top_trips"


@pytest.mark.parametrize("bottom", ["7c 7d 7h 7s 2c", "5s 6s 7s 8s 9s", "Td Jd Qd Kd Ad"])
def test_staying_with_bottom_quads_or_better_keeps_the_same_count(bottom):
    value = evaluate_board(board(f"2h 3d 4s / As Ac 4h 4c 9h / {bottom}"), Fantasyland(True, 16))
    assert not value.fouled
    assert (value.fantasyland_next.qualifies, value.fantasyland_next.cards, value.fantasyland_next.reason) == (
        True,
        16,
        "stay_bottom_quads_or_better",
    )


def test_ruling_no_upgrade_mid_fantasyland_overturned_2026_09_22():
    # 在 14 張的范特西那一手裡擺出頭道三條，下一手續留的張數不變（14 張還是 14 張，不會變成 17 張）。
    value = evaluate_board(board("Ah Ad As / 3c 3d 3h 4s 4c / Tc Td Th Ts 9c"), Fantasyland(True, 14))
    assert (value.fantasyland_next.qualifies, value.fantasyland_next.cards) == (True, 14)


def test_ultimate_never_downgrades_to_14_unlike_progressive():
    value = evaluate_board(board("2h 3d 4s / As Ac 4h 4c 9h / 7c 7d 7h 7s 2c"), Fantasyland(True, 17))
    assert value.fantasyland_next.cards == 17


def test_ruling_middle_full_house_does_not_keep_fantasyland_despite_12_royalties():
    # 續留條件不看獎分高低，只看牌型與位置。中道葫蘆有 12 點獎分，仍然不能續留。
    value = evaluate_board(board("2h 3d 4s / 9c 9d 9h 4h 4c / Ac Ad Ah Kc Ks"), Fantasyland(True, 15))
    assert value.rows[Row.MIDDLE].royalty == 12 and not value.fouled
    assert not value.fantasyland_next.qualifies


def test_queens_to_aces_on_top_while_in_fantasyland_do_not_keep_it():
    # 在范特西那一手裡頭道擺出一對 Q、K、A 不能續留。
    for pair in "QKA":
        value = evaluate_board(board(f"{pair}h {pair}d 2s / 3c 3d 3h 4s 4c / Jc Jd Jh 5s 5c"), Fantasyland(True, 14))
        assert not value.fouled and not value.fantasyland_next.qualifies


def test_the_button_does_not_move_when_anyone_plays_fantasyland():
    seats = [Seat(of(JIA)), Seat(of(YI), Fantasyland(True, 15)), Seat(of(BING))]
    assert score_hand(seats).button_moves is False
    assert score_hand([Seat(of(JIA)), Seat(of(YI)), Seat(of(BING))]).button_moves is True


def test_fantasyland_hand_scores_exactly_like_a_normal_hand():
    # 范特西那一手一樣要遵守「尾道 ≧ 中道 ≧ 頭道」，爆牌照罰；計分與獎分也完全相同。
    normal = score_hand([Seat(of(JIA)), Seat(of(YI)), Seat(of(BING))])
    fantasy = score_hand(
        [
            Seat(of(JIA), Fantasyland(True, 14)),
            Seat(of(YI), Fantasyland(True, 16)),
            Seat(of(BING), Fantasyland(True, 17)),
        ]
    )
    assert [p.total for p in fantasy.players] == [p.total for p in normal.players] == [7, 17, -24]
