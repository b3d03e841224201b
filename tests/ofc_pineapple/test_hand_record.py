"""hands/validate: replaying a whole hand record (deal order, Fantasyland first, one deck, complete boards)."""

from __future__ import annotations

import copy

from tests.ofc_pineapple.records import BING, JIA, SPARE, YI, showdown_record

PATH = "ofc-pineapple/hands/validate"


def test_a_legal_record_is_scored_and_reveals_discards_in_order(post):
    status, body = post(PATH, showdown_record())
    assert status == 200
    assert body["legal"] is True and body["violations"] == []
    assert [p["total"] for p in body["score"]["players"]] == [7, 17, -24]
    assert body["boards"] == [JIA, YI, BING]
    # 攤牌後亮出所有棄牌: in the order they were discarded, with who and when.
    assert [d["card"] for d in body["discards"]] == SPARE
    assert [d["seat"] for d in body["discards"]] == [0, 1, 2] * 4
    assert body["discards"][0]["action"] == 3


def test_action_order_starts_at_the_dealers_left():
    for dealer in (0, 1, 2):
        record = showdown_record(dealer)
        assert [a["seat"] for a in record["actions"][:3]] == [(dealer + 1) % 3, (dealer + 2) % 3, dealer]


def test_every_dealer_position_replays_legally(post):
    for dealer in (0, 1, 2):
        status, body = post(PATH, showdown_record(dealer))
        assert (status, body["legal"]) == (200, True)


def test_acting_out_of_turn_is_the_first_violation(post):
    record = showdown_record(dealer=2)  # seat 0 acts first
    record["actions"][0], record["actions"][1] = record["actions"][1], record["actions"][0]
    status, body = post(PATH, record)
    assert status == 200 and body["legal"] is False
    assert [(v["code"], v["index"]) for v in body["violations"]] == [("out_of_turn", 0)]
    assert body["score"] is None and body["discards"] == []


def test_a_card_dealt_twice_in_one_hand(post):
    record = showdown_record()
    record["actions"][3]["dealt"][2] = "Ah"  # seat 0's first discard replaced by a card it already holds
    record["actions"][3]["discard"] = ["Ah"]
    status, body = post(PATH, record)
    assert [(v["code"], v["index"]) for v in body["violations"]][:1] == [("card_dealt_twice", 3)]
    assert body["legal"] is False


def test_an_illegal_move_stops_the_replay_with_its_index(post):
    record = showdown_record()
    record["actions"][4]["placement"] = {"top": ["Ks", "Kd", "3s"]}
    record["actions"][4]["discard"] = []
    status, body = post(PATH, record)
    assert {(v["code"], v["index"]) for v in body["violations"]} == {
        ("wrong_placement_size", 4),
        ("wrong_discard_size", 4),
    }
    # The boards show the hand as it stood before the illegal action.
    assert body["boards"][1] == {"top": [], "middle": ["Ac", "Ad"], "bottom": ["9s", "9d", "7c"]}


def test_an_unfinished_record_is_not_legal(post):
    record = showdown_record()
    record["actions"] = record["actions"][:-1]
    status, body = post(PATH, record)
    assert [(v["code"], v["index"]) for v in body["violations"]] == [("record_incomplete", 14)]


def test_an_action_after_every_board_is_complete(post):
    record = showdown_record()
    record["actions"].append(copy.deepcopy(record["actions"][0]))
    status, body = post(PATH, record)
    assert [(v["code"], v["index"]) for v in body["violations"]] == [("action_after_hand_end", 15)]


def fantasyland_record() -> dict:
    """乙 (seat 1) plays Fantasyland with 15 cards and sets first; 甲 and 丙 play normally, dealer 2."""
    record = showdown_record(dealer=2)
    yi_cards = [c for row in ("top", "middle", "bottom") for c in YI[row]]
    yi_set = {"seat": 1, "dealt": yi_cards + ["3s", "5d"], "placement": YI, "discard": ["3s", "5d"]}
    others = [a for a in record["actions"] if a["seat"] != 1]
    for action in others:  # the two discards are 乙's now: deal the other seats other spare cards
        action["dealt"] = [{"3s": "Kh", "5d": "Qd"}.get(c, c) for c in action["dealt"]]
        action["discard"] = [{"3s": "Kh", "5d": "Qd"}.get(c, c) for c in action["discard"]]
    record["players"][1]["fantasyland"] = {"active": True, "cards": 15}
    record["actions"] = [yi_set] + others
    return record


def test_fantasyland_player_sets_first_and_the_button_stays(post):
    status, body = post(PATH, fantasyland_record())
    assert status == 200 and body["legal"] is True, body["violations"]
    assert [p["total"] for p in body["score"]["players"]] == [7, 17, -24]
    assert body["score"]["button_moves"] is False
    # 乙 did not make trips on top nor quads at the bottom: back to normal play.
    assert body["score"]["players"][1]["fantasyland_next"] == {"qualifies": False, "cards": None, "reason": None}
    assert [d["card"] for d in body["discards"]][:2] == ["3s", "5d"]


def test_fantasyland_player_acting_after_a_normal_round_is_out_of_turn(post):
    record = fantasyland_record()
    record["actions"][0], record["actions"][1] = record["actions"][1], record["actions"][0]
    status, body = post(PATH, record)
    assert body["violations"][0]["code"] == "out_of_turn" and body["violations"][0]["index"] == 0


def test_fantasyland_deal_must_match_the_players_count(post):
    record = fantasyland_record()
    record["players"][1]["fantasyland"]["cards"] = 14
    status, body = post(PATH, record)
    assert [(v["code"], v["index"]) for v in body["violations"]] == [("wrong_deal_size", 0)]


def test_fantasyland_without_a_card_count_is_impossible_input(post):
    record = fantasyland_record()
    record["players"][1]["fantasyland"] = {"active": True}
    status, body = post(PATH, record)
    assert status == 422
    assert [e["pointer"] for e in body["errors"]] == ["/players/1/fantasyland/cards"]
