"""The OFC HTTP operations: exact answers, and the precise 422s the spec cannot express."""

from __future__ import annotations

from tests.ofc_pineapple.records import BING, JIA, YI


def test_rows_evaluate_answers_hand_value_and_royalty_in_canonical_cards(post):
    status, body = post("ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["kh", "K♦", "aS"]})
    assert status == 200
    assert body == {
        "hand": {"category": "pair", "label": "Pair", "strength": [2, 13, 14], "cards": ["Kh", "Kd", "As"]},
        "royalty": 8,
    }


def test_rows_evaluate_accepts_10_for_T(post):
    status, body = post("ofc-pineapple/rows/evaluate", {"row": "middle", "cards": ["10s", "Js", "Qs", "Ks", "As"]})
    assert (status, body["hand"]["category"], body["royalty"]) == (200, "royal_flush", 50)


def test_rows_evaluate_wrong_size_for_the_row_is_422(post):
    status, body = post("ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Kh", "Kd", "As", "2c", "3c"]})
    assert status == 422
    assert body["errors"] == [
        {"pointer": "/cards", "code": "wrong_row_size", "message": "the top row holds exactly 3 cards, not 5"}
    ]


def test_rows_evaluate_duplicate_card_is_422_at_the_second_copy(post):
    status, body = post("ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Kh", "Kd", "kh"]})
    assert status == 422 and [e["pointer"] for e in body["errors"]] == ["/cards/2"]


def test_not_a_card_is_422_naming_the_entry(post):
    status, body = post("ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Kh", "1d", "JK"]})
    assert status == 422
    assert [e["pointer"] for e in body["errors"]] == ["/cards/1", "/cards/2"]
    assert body["type"] == "urn:card-rules:problem:invalid-input"


def test_rows_compare_is_a_tie_when_suits_differ_only(post):
    status, body = post("ofc-pineapple/rows/compare", {"row": "top", "a": ["Kh", "Kd", "Qc"], "b": ["Ks", "Kc", "Qd"]})
    assert (status, body["winner"]) == (200, "tie")


def test_rows_compare_K_K_A_beats_K_K_Q(post):
    status, body = post("ofc-pineapple/rows/compare", {"row": "top", "a": ["Kh", "Kd", "Ac"], "b": ["Ks", "Kc", "Qd"]})
    assert body["winner"] == "a" and body["a"]["royalty"] == body["b"]["royalty"] == 8


def test_boards_evaluate_full_answer(post):
    board = {
        "top": ["Qh", "Qd", "2c"],
        "middle": ["Ts", "Th", "7c", "7d", "3s"],
        "bottom": ["Ah", "Jh", "8h", "6h", "4h"],
    }
    status, body = post("ofc-pineapple/boards/evaluate", {"board": board})
    assert status == 200
    assert (body["fouled"], body["foul_reasons"], body["royalties"]) == (False, [], 11)
    assert body["fantasyland_next"] == {"qualifies": True, "cards": 14, "reason": "enter_top_pair_QQ"}
    assert {r: v["royalty"] for r, v in body["rows"].items()} == {"top": 7, "middle": 0, "bottom": 4}


def test_boards_evaluate_duplicate_across_rows_is_422(post):
    board = {
        "top": ["Qh", "Qd", "2c"],
        "middle": ["Ts", "Th", "7c", "7d", "Qh"],
        "bottom": ["Ah", "Jh", "8h", "6h", "4h"],
    }
    status, body = post("ofc-pineapple/boards/evaluate", {"board": board})
    assert status == 422 and [e["pointer"] for e in body["errors"]] == ["/board/middle/4"]


def test_boards_evaluate_incomplete_board_is_422_by_schema(post):
    status, body = post("ofc-pineapple/boards/evaluate", {"board": {"top": ["Qh"], "middle": [], "bottom": []}})
    assert status == 422 and {e["pointer"] for e in body["errors"]} == {"/board/top", "/board/middle", "/board/bottom"}


def test_boards_evaluate_fantasyland_cards_without_active_is_422(post):
    board = {
        "top": ["Qh", "Qd", "2c"],
        "middle": ["Ts", "Th", "7c", "7d", "3s"],
        "bottom": ["Ah", "Jh", "8h", "6h", "4h"],
    }
    status, body = post(
        "ofc-pineapple/boards/evaluate", {"board": board, "fantasyland": {"active": False, "cards": 14}}
    )
    assert status == 422 and [e["pointer"] for e in body["errors"]] == ["/fantasyland/cards"]


def test_hands_score_worked_example(post):
    status, body = post("ofc-pineapple/hands/score", {"players": [{"board": JIA}, {"board": YI}, {"board": BING}]})
    assert status == 200
    assert [p["total"] for p in body["players"]] == [7, 17, -24]
    assert [p["seat"] for p in body["players"]] == [0, 1, 2]
    assert body["matchups"][0] == {
        "a": 0,
        "b": 1,
        "rows": {"top": "b", "middle": "a", "bottom": "a"},
        "lines": 1,
        "scoop": None,
        "royalty_diff": -4,
        "points_a": -3,
    }
    assert body["button_moves"] is True


def test_hands_score_card_twice_on_the_table_is_422_pointing_at_it(post):
    bing = dict(BING, top=["Kd", "Qc", "6d"])  # Kd is on 乙's top
    status, body = post("ofc-pineapple/hands/score", {"players": [{"board": JIA}, {"board": YI}, {"board": bing}]})
    assert status == 422 and [e["pointer"] for e in body["errors"]] == ["/players/2/board/top/0"]


def test_hands_score_needs_exactly_three_players(post):
    status, body = post("ofc-pineapple/hands/score", {"players": [{"board": JIA}, {"board": YI}]})
    assert status == 422 and [e["pointer"] for e in body["errors"]] == ["/players"]


def test_moves_validate_answers_violations_not_4xx(post):
    body = {
        "board": {"top": ["Kh", "Qh", "Jh"]},
        "round": 2,
        "dealt": ["Ks", "7c", "2d"],
        "placement": {"top": ["Ks"], "bottom": ["7c"]},
        "discard": ["2d"],
    }
    status, answer = post("ofc-pineapple/moves/validate", body)
    assert status == 200 and answer["legal"] is False
    assert [v["code"] for v in answer["violations"]] == ["board_not_at_round", "row_overflow"]
    assert answer["board"] == {"top": ["Kh", "Qh", "Jh"], "middle": [], "bottom": []}


def test_moves_validate_round_must_be_1_to_5_or_fantasyland(post):
    body = {"board": {}, "round": 6, "dealt": ["Ks"], "placement": {}}
    status, answer = post("ofc-pineapple/moves/validate", body)
    assert status == 422 and [e["pointer"] for e in answer["errors"]] == ["/round"]


def test_strict_types_no_truthy_strings(post):
    board = {
        "top": ["Qh", "Qd", "2c"],
        "middle": ["Ts", "Th", "7c", "7d", "3s"],
        "bottom": ["Ah", "Jh", "8h", "6h", "4h"],
    }
    status, body = post("ofc-pineapple/boards/evaluate", {"board": board, "fantasyland": {"active": "yes"}})
    assert status == 422 and [e["pointer"] for e in body["errors"]] == ["/fantasyland/active"]


# ---- Traditional Chinese (Accept-Language: zh-TW): the rule book's words, the same codes and numbers --------

ZH = {"Accept-Language": "zh-TW"}


def test_rows_evaluate_labels_in_the_rule_books_words(post):
    status, body = post(
        "ofc-pineapple/rows/evaluate", {"row": "bottom", "cards": ["9s", "9h", "9d", "9c", "2s"]}, headers=ZH
    )
    assert (status, body) == (
        200,
        {
            "hand": {
                "category": "quads",
                "label": "鐵支",
                "strength": [8, 9, 2],
                "cards": ["9s", "9h", "9d", "9c", "2s"],
            },
            "royalty": 10,
        },
    )
    status, body = post("ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Kh", "Kd", "As"]}, headers=ZH)
    assert body["hand"]["label"] == "一對"


def test_moves_validate_messages_name_the_rows_頭道_中道_尾道(post):
    body = {
        "board": {"top": ["Kh", "Qh", "Jh"]},
        "round": 2,
        "dealt": ["Ks", "7c", "2d"],
        "placement": {"top": ["Ks"], "bottom": ["7c"]},
        "discard": ["2d"],
    }
    status, answer = post("ofc-pineapple/moves/validate", body, headers=ZH)
    assert status == 200
    assert answer["violations"] == [
        {"code": "board_not_at_round", "message": "第 2 輪開始時牌面上應該有 5 張牌，不是 3 張"},
        {"code": "row_overflow", "message": "頭道只能放 3 張，已經擺滿", "cards": ["Ks"]},
    ]


def test_impossible_row_is_422_in_chinese_at_the_same_pointer(post):
    status, body = post(
        "ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Kh", "Kd", "As", "2c", "3c"]}, headers=ZH
    )
    assert status == 422 and body["title"] == "輸入無效"
    assert body["errors"] == [{"pointer": "/cards", "code": "wrong_row_size", "message": "頭道剛好是 3 張，不是 5 張"}]


# --- too many cards in a row is a rule broken (200 violation), not a malformed request (ruling S2) -------

FIVE = ["Ah", "Th", "7h", "Jc", "Jd"]


def test_moves_validate_five_cards_on_top_in_round_1_is_row_overflow_not_422(post):
    status, answer = post(
        "ofc-pineapple/moves/validate", {"board": {}, "round": 1, "dealt": FIVE, "placement": {"top": FIVE}}
    )
    assert status == 200 and answer["legal"] is False
    assert answer["violations"] == [
        {"code": "row_overflow", "message": "the top row holds only 3 cards", "cards": FIVE}
    ]
    assert answer["board"] == {"top": [], "middle": [], "bottom": []}


FANTASYLAND_14 = "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah".split()


def test_moves_validate_fantasyland_four_on_top_and_six_on_bottom_are_violations(post):
    cards = FANTASYLAND_14
    placement = {"top": cards[:4], "middle": cards[4:7], "bottom": cards[7:13]}  # 4 + 3 + 6 = 13 placed
    status, answer = post(
        "ofc-pineapple/moves/validate",
        {"board": {}, "round": "fantasyland", "dealt": cards, "placement": placement, "discard": cards[13:]},
    )
    assert status == 200 and answer["legal"] is False
    assert [(v["code"], v.get("cards")) for v in answer["violations"]] == [
        ("row_overflow", cards[:4]),
        ("row_overflow", cards[7:13]),
    ]


def test_moves_validate_too_many_placed_and_discarded_are_violations(post):
    dealt = ["Ks", "7c", "2d"]
    body = {
        "board": {"bottom": FIVE[:3], "middle": FIVE[3:]},
        "round": 2,
        "dealt": dealt,
        "placement": {"middle": dealt},
        "discard": dealt,
    }
    status, answer = post("ofc-pineapple/moves/validate", body)
    assert status == 200 and answer["legal"] is False
    assert [v["code"] for v in answer["violations"]] == [
        "card_used_twice",
        "card_used_twice",
        "card_used_twice",
        "wrong_placement_size",
        "wrong_discard_size",
    ]
    assert [(v["code"], v.get("cards")) for v in answer["violations"]][3:] == [
        ("wrong_placement_size", dealt),
        ("wrong_discard_size", dealt),
    ]


def test_moves_validate_a_row_bound_is_what_a_deal_holds(post):
    deck = [r + s for s in "cdhs" for r in "23456789TJQKA"]
    status, answer = post(
        "ofc-pineapple/moves/validate",
        {"board": {}, "round": "fantasyland", "dealt": deck[:17], "placement": {"bottom": deck[:17]}},
    )
    assert status == 200 and answer["legal"] is False
    assert {v["code"] for v in answer["violations"]} == {"row_overflow", "wrong_placement_size", "wrong_discard_size"}
    status, problem = post(
        "ofc-pineapple/moves/validate",
        {"board": {}, "round": "fantasyland", "dealt": deck[:17], "placement": {"bottom": deck[:18]}},
    )
    assert status == 422 and [(e["pointer"], e["code"]) for e in problem["errors"]] == [
        ("/placement/bottom", "wrong_length")
    ]


def test_hands_validate_an_over_full_placement_is_a_violation_at_its_action(post):
    from tests.ofc_pineapple.records import showdown_record

    record = showdown_record()
    first = record["actions"][0]
    first["placement"] = {"top": first["dealt"]}  # all five dealt cards on the 3-card top
    status, answer = post("ofc-pineapple/hands/validate", record)
    assert status == 200 and answer["legal"] is False
    assert answer["violations"] == [
        {"code": "row_overflow", "message": "the top row holds only 3 cards", "cards": first["dealt"], "index": 0}
    ]
    assert answer["score"] is None
