"""Move validation: each rule of 怎麼玩 (deal, place, discard, full rows, no card twice) is its own code."""

from __future__ import annotations

import pytest

from service.rules.cards import cards
from service.rules.ofc import Board, Row, validate_move


def b(top: str = "", middle: str = "", bottom: str = "") -> Board:
    return Board(tuple(cards(top)), tuple(cards(middle)), tuple(cards(bottom)))


def place(top: str = "", middle: str = "", bottom: str = "") -> dict[Row, tuple]:
    return {Row.TOP: tuple(cards(top)), Row.MIDDLE: tuple(cards(middle)), Row.BOTTOM: tuple(cards(bottom))}


def codes(result) -> list[str]:
    return [v.code for v in result.violations]


def test_round_1_places_all_five():
    result = validate_move(b(), 1, cards("Ah Th 7h Jc Jd"), place(middle="Jc Jd", bottom="Ah Th 7h"), [])
    assert result.legal and result.violations == ()
    assert result.board == b(middle="Jc Jd", bottom="Ah Th 7h")


def test_round_1_may_not_discard():
    result = validate_move(b(), 1, cards("Ah Th 7h Jc Jd"), place(bottom="Ah Th 7h Jc"), cards("Jd"))
    assert codes(result) == ["wrong_placement_size", "wrong_discard_size"]
    assert result.board == b()  # unchanged when illegal


def test_later_rounds_place_two_and_discard_one():
    before = b(middle="Jc Jd", bottom="Ah Th 7h")
    result = validate_move(before, 2, cards("Qh 9c 2h"), place(top="Qh 9c"), cards("2h"))
    assert result.legal
    assert result.board == b(top="Qh 9c", middle="Jc Jd", bottom="Ah Th 7h")


def test_placing_all_three_is_illegal():
    before = b(middle="Jc Jd", bottom="Ah Th 7h")
    result = validate_move(before, 2, cards("Qh 9c 2h"), place(top="Qh 9c 2h"), [])
    assert codes(result) == ["wrong_placement_size", "wrong_discard_size"]


def test_a_full_row_takes_no_more_cards():
    before = b(top="Qh 9c 2d", middle="Jc Jd", bottom="Ah Th")
    result = validate_move(before, 3, cards("Ks 8s 3c"), place(top="Ks", middle="8s"), cards("3c"))
    assert codes(result) == ["row_overflow"]
    assert [str(c) for c in result.violations[0].cards] == ["Ks"]


def test_only_dealt_cards_may_be_placed():
    before = b(middle="Jc Jd", bottom="Ah Th 7h")
    result = validate_move(before, 2, cards("Qh 9c 2h"), place(top="Qh Kd"), cards("2h"))
    assert codes(result) == ["card_not_dealt"]
    assert [str(c) for c in result.violations[0].cards] == ["Kd"]


def test_a_card_placed_and_discarded_is_used_twice():
    before = b(middle="Jc Jd", bottom="Ah Th 7h")
    result = validate_move(before, 2, cards("Qh 9c 2h"), place(top="Qh 9c"), cards("9c"))
    assert codes(result) == ["card_used_twice"]


def test_a_dealt_card_already_on_the_board():
    before = b(middle="Jc Jd", bottom="Ah Th 7h")
    result = validate_move(before, 2, cards("Qh Jc 2h"), place(top="Qh 2h"), cards("Jc"))
    assert codes(result) == ["card_already_on_board"]


def test_a_card_also_seen_elsewhere():
    before = b(middle="Jc Jd", bottom="Ah Th 7h")
    result = validate_move(before, 2, cards("Qh 9c 2h"), place(top="Qh 9c"), cards("2h"), seen=cards("9c Ks"))
    assert codes(result) == ["card_seen_elsewhere"]
    assert [str(c) for c in result.violations[0].cards] == ["9c"]


def test_duplicates_on_the_board_and_in_the_deal():
    before = b(middle="Jc Jc", bottom="Ah Th 7h")
    result = validate_move(before, 2, cards("Qh Qh 2h"), place(top="Qh"), cards("2h"))
    assert "duplicate_on_board" in codes(result) and "duplicate_in_deal" in codes(result)


def test_board_must_match_the_round():
    result = validate_move(b(top="Qh"), 1, cards("Ah Th 7h Jc Jd"), place(middle="Jc Jd", bottom="Ah Th 7h"), [])
    assert codes(result) == ["board_not_at_round"]


@pytest.mark.parametrize(("round_", "dealt"), [(1, "Ah Th 7h Jc"), (2, "Qh 9c")])
def test_wrong_deal_size(round_, dealt):
    before = b() if round_ == 1 else b(middle="Jc Jd", bottom="Ah Th 7h")
    result = validate_move(before, round_, cards(dealt), place(), [])
    assert "wrong_deal_size" in codes(result)


FANTASY_DEAL = "Ah Ad 2c Kc Kd Ks 3c 3d Qs Js Ts 9s 8s 4h 5h"


def test_fantasyland_sets_13_of_15_and_discards_2():
    placement = place(top="Ah Ad 2c", middle="Kc Kd Ks 3c 3d", bottom="Qs Js Ts 9s 8s")
    result = validate_move(b(), "fantasyland", cards(FANTASY_DEAL), placement, cards("4h 5h"))
    assert result.legal and result.board.complete


def test_fantasyland_must_set_all_13():
    placement = place(top="Ah Ad", middle="Kc Kd Ks 3c 3d", bottom="Qs Js Ts 9s 8s")
    result = validate_move(b(), "fantasyland", cards(FANTASY_DEAL), placement, cards("2c 4h 5h"))
    assert codes(result) == ["wrong_placement_size", "wrong_discard_size"]


def test_fantasyland_deal_is_14_to_17_cards():
    result = validate_move(b(), "fantasyland", cards("Ah Ad 2c Kc Kd Ks 3c 3d Qs Js Ts 9s 8s"), place(), [])
    assert "wrong_deal_size" in codes(result)


def test_every_problem_is_reported_at_once():
    before = b(top="Qh 9c 2d", middle="Jc Jd", bottom="Ah Th")
    result = validate_move(before, 3, cards("Ks 8s 3c"), place(top="Ks As"), [])
    assert codes(result) == ["card_not_dealt", "wrong_discard_size", "row_overflow"]
