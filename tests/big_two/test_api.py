"""The Big Two HTTP operations: exact answers, the documented examples, and the precise 422s the spec
cannot express (each with its JSON pointer)."""

from __future__ import annotations

import random
from typing import Any

import pytest
import yaml

from service.rules.big_two import validate_game
from tests.big_two.players import deal, play_random_game
from tests.conftest import ROOT

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
BIG_TWO_PATHS = {path: item["post"] for path, item in SPEC["paths"].items() if path.startswith("/v1/big-two/")}

# Seat 0 can go out alone in four leads (tests/big_two/test_game.py's SLAM_DEAL), the openapi.yaml example.
SLAM_DEAL = [
    "3c 4c 5d 6h 7s 8c 8d 8h 9c 9d Tc Td Js".split(),
    "2c 3d 3h 3s 4d 4h 4s 5c 5h 5s 6c 6d 6s".split(),
    "2d 2h 7c 7d 7h 8s 9h 9s Th Ts Jc Jd Jh".split(),
    "2s Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As".split(),
]


def play(seat: int, text: str) -> dict[str, Any]:
    return {"seat": seat, "type": "play", "cards": text.split()}


def pass_(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "pass"}


SLAM = [
    play(0, "3c 4c 5d 6h 7s"), pass_(1), pass_(2), pass_(3), play(0, "8c 8d 8h 9c 9d"), pass_(1), pass_(2), pass_(3),
    play(0, "Tc Td"), pass_(1), pass_(2), pass_(3), play(0, "Js"),
]  # fmt: skip


def pointers(body: dict[str, Any]) -> list[str]:
    return [e["pointer"] for e in body["errors"]]


def hv(category: str, label: str, strength: list[int], cards: str) -> dict[str, Any]:
    return {"category": category, "label": label, "strength": strength, "cards": cards.split()}


# ---- the documented examples are real answers


@pytest.mark.parametrize("path", sorted(BIG_TWO_PATHS))
def test_every_operation_example_answers_200_with_the_documented_answer(post, path):
    op = BIG_TWO_PATHS[path]
    request = op["requestBody"]["content"]["application/json"]["example"]
    documented = op["responses"]["200"]["content"]["application/json"]["example"]
    status, body = post(path.removeprefix("/v1/"), request)
    assert (status, body) == (200, documented)


@pytest.mark.parametrize("path", sorted(BIG_TWO_PATHS))
def test_every_request_schema_example_answers_200(post, path):
    schema = BIG_TWO_PATHS[path]["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    status, body = post(path.removeprefix("/v1/"), SPEC["components"]["schemas"][schema]["example"])
    assert status == 200, body


# ---- plays/classify


def test_classify_four_of_a_kind_in_any_notation_answers_canonical_cards(post):
    status, body = post("big-two/plays/classify", {"cards": ["3h", "9♣", "9d", "9H", "9s"]})
    assert status == 200
    assert body == {
        "valid": True, "combination": "four_of_a_kind", "monster": True,
        "hand": hv("four_of_a_kind", "Four of a kind", [5, 6], "9s 9h 9d 9c 3h"), "violations": [],
    }  # fmt: skip


def test_classify_straight_counts_ace_as_low_in_a2345_and_leads_with_the_two(post):
    status, body = post("big-two/plays/classify", {"cards": ["Ac", "2d", "3h", "4s", "5c"]})
    assert (status, body["combination"], body["monster"]) == (200, "straight", False)
    assert body["hand"] == hv("straight", "Straight", [3, 0, 1], "2d Ac 5c 4s 3h")


def test_classify_green_dragon(post):
    status, body = post("big-two/plays/classify", {"cards": "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh".split()})
    assert (status, body["valid"], body["combination"], body["monster"], body["hand"]["strength"]) == (
        200,
        True,
        "green_dragon",
        False,
        [8],
    )
    assert body["hand"]["cards"] == "2h Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h".split()


def test_classify_no_play_is_200_with_the_reason(post):
    status, body = post("big-two/plays/classify", {"cards": ["3h", "3d", "3c"]})
    assert status == 200
    assert body == {
        "valid": False, "combination": None, "monster": False, "hand": None,
        "violations": [{"code": "triple_not_a_combination", "message": "three of a kind is not a combination", "cards": ["3c", "3d", "3h"]}],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ("Jc Qd Kh As 2c", "straight_crosses_two"),
        ("3s 5s 7s 9s Js", "flush_not_a_combination"),
        ("9s 9h 9d 9c", "four_without_kicker"),
        ("9s 9h 4d 4c", "two_pair_not_a_combination"),
        ("9s 8h", "not_a_combination"),
        ("3c 4d 5h 6s 7c 8d", "wrong_card_count"),
    ],
)
def test_classify_names_each_near_miss(post, cards, code):
    status, body = post("big-two/plays/classify", {"cards": cards.split()})
    assert (status, body["valid"], [v["code"] for v in body["violations"]]) == (200, False, [code])


def test_classify_a_card_twice_is_a_violation_not_a_422(post):
    status, body = post("big-two/plays/classify", {"cards": ["Ks", "ks"]})
    assert status == 200
    assert body["violations"] == [{"code": "duplicate_card", "message": "Ks appears more than once", "cards": ["Ks"]}]


def test_classify_no_cards_or_more_than_13_is_422_at_cards(post):
    for cards in ([], "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d".split()):
        status, body = post("big-two/plays/classify", {"cards": cards})
        assert (status, pointers(body)) == (422, ["/cards"])


def test_classify_joker_is_not_a_big_two_card(post):
    status, body = post("big-two/plays/classify", {"cards": ["3c", "JK"]})
    assert (status, pointers(body)) == (422, ["/cards/1"])


# ---- plays/compare


def test_compare_higher_pair_by_rank_with_both_values(post):
    status, body = post("big-two/plays/compare", {"table": ["Kh", "Kd"], "play": ["2c", "2d"]})
    assert status == 200
    assert body == {
        "beats": True, "reason": "higher_rank",
        "table": hv("pair", "Pair", [2, 10, 2], "Kh Kd"), "play": hv("pair", "Pair", [2, 12, 1], "2d 2c"), "violations": [],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("table", "play", "beats", "reason"),
    [
        ("Kh Kd", "Ks Kc", True, "higher_suit"),
        ("3c 4d 5h 6s 7c", "4c 5d 6h 7s 8c", True, "higher_sequence"),
        ("2s", "9s 9h 9d 9c 3h", True, "monster_beats_normal"),
        ("9s 9h 9d 9c 3h", "3d 4d 5d 6d 7d", True, "straight_flush_beats_quads"),
        ("3d 4d 5d 6d 7d", "As 2c 3c 4s 5h 6s 7s 8s 9s Ts Js Qs Kh", True, "dragon_beats_all"),
        ("2s", "2h", False, "lower"),
        ("Kh Kd", "2s", False, "different_combination"),
        ("9s 9h 9d 9c 3h", "2s 2h", False, "normal_cannot_beat_monster"),
        ("3d 4d 5d 6d 7d", "9s 9h 9d 9c 3h", False, "quads_cannot_beat_straight_flush"),
        (
            "As 2c 3c 4s 5s 6s 7s 8s 9s Ts Js Qs Kc",
            "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
            False,
            "nothing_beats_dragon",
        ),
    ],
)
def test_compare_reasons(post, table, play, beats, reason):
    status, body = post("big-two/plays/compare", {"table": table.split(), "play": play.split()})
    assert (status, body["beats"], body["reason"]) == (200, beats, reason)
    assert body["table"]["cards"] and body["play"]["cards"] and body["violations"] == []


def test_compare_invalid_table_answers_its_violations_and_the_plays_value(post):
    status, body = post("big-two/plays/compare", {"table": ["3c", "3d", "3h"], "play": ["4s"]})
    assert status == 200
    assert body == {
        "beats": False, "reason": "invalid_table", "table": None, "play": hv("single", "Single", [1, 1, 3], "4s"),
        "violations": [{"code": "triple_not_a_combination", "message": "three of a kind is not a combination", "cards": ["3c", "3d", "3h"]}],
    }  # fmt: skip


def test_compare_invalid_play(post):
    status, body = post("big-two/plays/compare", {"table": ["4s"], "play": ["5c", "6c"]})
    assert (status, body["beats"], body["reason"], body["play"]) == (200, False, "invalid_play", None)
    assert body["table"] == hv("single", "Single", [1, 1, 3], "4s")
    assert [v["code"] for v in body["violations"]] == ["not_a_combination"]


def test_compare_plays_sharing_a_card_is_a_violation_not_a_422(post):
    status, body = post("big-two/plays/compare", {"table": ["Kh", "Kd"], "play": ["Ks", "Kh"]})
    assert (status, body["beats"], body["reason"]) == (200, False, "duplicate_card")
    assert body["violations"] == [
        {"code": "duplicate_card", "message": "Kh cannot be on the table and in the play", "cards": ["Kh"]}
    ]


# ---- moves/validate


def move(hand: str, table: str | None, kind: str, cards: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": kind}
    if cards is not None:
        action["cards"] = cards.split()
    return {"hand": hand.split(), "table": None if table is None else table.split(), "action": action}


def test_move_legal_play_answers_the_hand_after_in_big_two_order(post):
    status, body = post("big-two/moves/validate", move("2h Js 3c Jh 7d", "Jd Jc", "play", "Jh Js"))
    assert status == 200
    assert body == {
        "legal": True,
        "violations": [],
        "hand": ["3c", "7d", "2h"],
        "play": hv("pair", "Pair", [2, 8, 3], "Js Jh"),
        "wins": False,
    }


def test_move_last_cards_win(post):
    status, body = post("big-two/moves/validate", move("2h", "As", "play", "2h"))
    assert (status, body["legal"], body["hand"], body["wins"]) == (200, True, [], True)


def test_move_pass_as_follower_keeps_the_hand(post):
    status, body = post("big-two/moves/validate", move("3c 2h", "As", "pass"))
    assert status == 200
    assert body == {"legal": True, "violations": [], "hand": ["3c", "2h"], "play": None, "wins": False}


def test_move_leader_cannot_pass(post):
    status, body = post("big-two/moves/validate", move("3c 2h", None, "pass"))
    assert status == 200
    assert body == {
        "legal": False, "violations": [{"code": "leader_cannot_pass", "message": "the leader must play; only a follower may pass"}],
        "hand": ["3c", "2h"], "play": None, "wins": False,
    }  # fmt: skip


def test_move_not_higher_leaves_the_hand_unchanged(post):
    status, body = post("big-two/moves/validate", move("3c 7d Jh Js 2h", "Qd Qc", "play", "Jh Js"))
    assert status == 200
    assert body == {
        "legal": False,
        "violations": [{"code": "not_higher", "message": "Pair Js Jh does not beat Pair Qd Qc (lower)", "cards": ["Js", "Jh"]}],
        "hand": ["3c", "7d", "Jh", "Js", "2h"], "play": None, "wins": False,
    }  # fmt: skip


def test_move_every_problem_is_its_own_violation(post):
    # the table is no play, Jd is both held and on the table, 9s is not held, and 9s Jd is no pair
    status, body = post("big-two/moves/validate", move("3c Jd 2h", "Jd Qc", "play", "9s Jd"))
    assert (status, body["legal"]) == (200, False)
    assert [v["code"] for v in body["violations"]] == [
        "invalid_table",
        "duplicate_card",
        "card_not_in_hand",
        "not_a_combination",
    ]
    assert body["hand"] == ["3c", "Jd", "2h"]


def test_move_dragon_needs_the_full_hand(post):
    hand = "As 2c 3c 4s 5h 6s 7s 8s 9s Ts Js Qs"
    status, body = post("big-two/moves/validate", move(hand, None, "play", hand + " Kh"))
    assert (status, [v["code"] for v in body["violations"]]) == (200, ["card_not_in_hand", "dragon_needs_full_hand"])
    full = hand + " Kh"
    status, body = post("big-two/moves/validate", move(full, "2s", "play", full))
    assert (status, body["legal"], body["wins"], body["play"]["category"]) == (200, True, True, "dragon")


def test_move_pass_with_cards_and_play_without_cards(post):
    status, body = post("big-two/moves/validate", move("3c 2h", "As", "pass", "2h"))
    assert [v["code"] for v in body["violations"]] == ["cards_with_pass"]
    status, body = post("big-two/moves/validate", move("3c 2h", "As", "play", ""))
    assert (status, [v["code"] for v in body["violations"]]) == (200, ["empty_play"])


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"hand": [], "table": None, "action": {"type": "pass"}}, "/hand"),
        (
            {"hand": "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c 2d".split(), "table": None, "action": {"type": "pass"}},
            "/hand",
        ),
        ({"hand": ["3c"], "action": {"type": "play", "cards": ["3c"]}}, "/table"),
        ({"hand": ["3c"], "table": [], "action": {"type": "play", "cards": ["3c"]}}, "/table"),
        ({"hand": ["3c"], "table": None, "action": {"type": "fold"}}, "/action/type"),
        ({"hand": ["3c"], "table": None, "action": {"type": "play", "cards": ["3c"], "seat": 0}}, "/action/seat"),
        ({"hand": ["3c"], "table": ["JK"], "action": {"type": "pass"}}, "/table/0"),
    ],
)
def test_move_schema_422s(post, body, pointer):
    status, answer = post("big-two/moves/validate", body)
    assert (status, pointers(answer)) == (422, [pointer])


# ---- games/score


WORKED = {
    "base": 10,
    "winner": {"last_play": ["2♠", "2♥"], "grand_slam": False},
    "losers": [
        {"cards": "3c 7d Jh".split()},
        {"cards": "2c 4d 5h 6s 8c Td Th Qs Kc".split()},
        {"cards": "9s 9h 9d 9c 3h 4h 5d 6h 7s 8h".split()},
    ],
}


def test_score_worked_example_of_the_rule_book(post):
    status, body = post("big-two/games/score", WORKED)
    assert status == 200
    assert body["base"] == 10
    assert body["winner"] == {
        "seat": None, "last_play": hv("pair", "Pair", [2, 12, 3], "2s 2h"), "grand_slam": False, "multiplier": 4,
        "factors": [{"factor": "twos_finish", "value": 4, "reason": "2 two(s) in the last play, x2 each", "cards": ["2h", "2s"]}],
        "points": 3960,
    }  # fmt: skip
    assert body["losers"] == [
        {
            "seat": None, "cards": ["3c", "7d", "Jh"], "cards_left": 3, "multiplier": 1,
            "factors": [{"factor": "cards_left_tier", "value": 1, "reason": "7 or fewer cards left", "cards": []}],
            "payment": 120, "points": -120,
        },
        {
            "seat": None, "cards": "4d 5h 6s 8c Td Th Qs Kc 2c".split(), "cards_left": 9, "multiplier": 4,
            "factors": [
                {"factor": "cards_left_tier", "value": 2, "reason": "8-9 cards left", "cards": []},
                {"factor": "twos_held", "value": 2, "reason": "1 two(s) still held, x2 each", "cards": ["2c"]},
            ],
            "payment": 1440, "points": -1440,
        },
        {
            "seat": None, "cards": "3h 4h 5d 6h 7s 8h 9c 9d 9h 9s".split(), "cards_left": 10, "multiplier": 6,
            "factors": [
                {"factor": "cards_left_tier", "value": 3, "reason": "10-12 cards left", "cards": []},
                {"factor": "monster_held", "value": 2, "reason": "can still form four_of_a_kind (counted once)", "cards": ["9c", "9d", "9h", "9s"]},
            ],
            "payment": 2400, "points": -2400,
        },
    ]  # fmt: skip
    assert body["winner"]["points"] + sum(loser["points"] for loser in body["losers"]) == 0


def test_score_green_dragon_grand_slam_with_every_winner_factor(post):
    others = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As".split()
    body = {
        "base": 1,
        "winner": {"last_play": "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh".split(), "grand_slam": True},
        "losers": [{"cards": others[0:13]}, {"cards": others[13:26]}, {"cards": others[26:39]}],
    }
    status, answer = post("big-two/games/score", body)
    assert status == 200
    assert [(f["factor"], f["value"]) for f in answer["winner"]["factors"]] == [
        ("grand_slam", 2),
        ("twos_finish", 2),
        ("green_dragon_finish", 20),
    ]
    assert answer["winner"]["multiplier"] == 80
    assert answer["winner"]["points"] + sum(loser["points"] for loser in answer["losers"]) == 0


def with_(body: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**body, **changes}


def test_score_card_twice_across_hands_is_422_at_the_second_copy(post):
    losers = [{"cards": ["3c", "7d", "Jh"]}, {"cards": ["Jh", "4d"]}, {"cards": ["5d"]}]
    status, body = post("big-two/games/score", with_(WORKED, losers=losers))
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/losers/1/cards/0",
            "code": "duplicate_card",
            "message": "Jh appears more often than the deck holds it (once)",
        }
    ]


def test_score_card_in_the_last_play_and_a_losers_hand_is_422(post):
    losers = [{"cards": ["3c"]}, {"cards": ["4d"]}, {"cards": ["2s", "5d"]}]
    status, body = post("big-two/games/score", with_(WORKED, losers=losers))
    assert (status, pointers(body)) == (422, ["/losers/2/cards/0"])


def test_score_last_play_that_is_no_play_is_422_with_the_reason(post):
    status, body = post("big-two/games/score", with_(WORKED, winner={"last_play": ["Ks", "Ah"], "grand_slam": False}))
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/winner/last_play",
            "code": "not_a_combination",
            "message": "two cards are a play only as a pair of one rank",
        }
    ]


def test_score_grand_slam_while_a_loser_has_played_is_422(post):
    status, body = post("big-two/games/score", with_(WORKED, winner={"last_play": ["2s", "2h"], "grand_slam": True}))
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/winner/grand_slam",
            "code": "grand_slam_impossible",
            "message": "in a grand slam no loser has played a card, so each holds 13",
        }
    ]


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"losers": [{"cards": []}, {"cards": ["4d"]}, {"cards": ["5d"]}]}, "/losers/0/cards"),
        (
            {
                "losers": [
                    {"cards": ["4d"]},
                    {"cards": "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c 3d".split()},
                    {"cards": ["5d"]},
                ]
            },
            "/losers/1/cards",
        ),
        ({"losers": [{"cards": ["4d"]}, {"cards": ["5d"]}]}, "/losers"),
        ({"base": 0}, "/base"),
        ({"base": "10"}, "/base"),
        ({"base": 10**9 + 1}, "/base"),
        ({"winner": {"last_play": ["2s", "2h"], "grand_slam": "no"}}, "/winner/grand_slam"),
        ({"winner": {"last_play": ["2s", "2h"]}}, "/winner/grand_slam"),
        ({"winner": {"last_play": [], "grand_slam": False}}, "/winner/last_play"),
    ],
)
def test_score_schema_422s(post, change, pointer):
    status, body = post("big-two/games/score", with_(WORKED, **change))
    assert (status, pointers(body)) == (422, [pointer])


# ---- games/validate


def record(actions: list[dict[str, Any]], hands: list[list[str]] = SLAM_DEAL, base: int = 10) -> dict[str, Any]:
    return {"base": base, "hands": hands, "actions": actions}


def test_validate_grand_slam_record_is_scored_with_seats(post):
    status, body = post("big-two/games/validate", record(SLAM))
    assert status == 200
    assert (body["legal"], body["finished"], body["violations"], body["state"]) == (True, True, [], None)
    score = body["score"]
    assert (score["winner"]["seat"], score["winner"]["grand_slam"], score["winner"]["points"]) == (0, True, 10400)
    assert [(loser["seat"], loser["cards_left"], loser["points"]) for loser in score["losers"]] == [
        (1, 13, -2080),
        (2, 13, -4160),
        (3, 13, -4160),
    ]


def test_validate_unfinished_record_answers_the_state(post):
    status, body = post("big-two/games/validate", record(SLAM[:6]))
    assert status == 200
    assert (body["legal"], body["finished"], body["violations"], body["score"]) == (True, False, [], None)
    assert body["state"] == {
        "turn": 2, "table": hv("full_house", "Full house", [4, 5], "8h 8d 8c 9d 9c"), "table_seat": 0, "passes_in_row": 1,
        "cards_left": [3, 13, 13, 13],
        "hands": [["Tc", "Td", "Js"], "3d 3h 3s 4d 4h 4s 5c 5h 5s 6c 6d 6s 2c".split(),
                  "7c 7d 7h 8s 9h 9s Th Ts Jc Jd Jh 2d 2h".split(), "Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As 2s".split()],
        "actions_replayed": 6,
    }  # fmt: skip


def test_validate_empty_record_the_three_of_clubs_holder_leads(post):
    rotated = SLAM_DEAL[2:] + SLAM_DEAL[:2]
    status, body = post("big-two/games/validate", record([], rotated))
    assert (status, body["legal"], body["finished"]) == (200, True, False)
    state = body["state"]
    assert (
        state["turn"],
        state["table"],
        state["table_seat"],
        state["passes_in_row"],
        state["cards_left"],
        state["actions_replayed"],
    ) == (2, None, None, 0, [13] * 4, 0)


def test_validate_first_illegal_action_with_its_index_and_the_state_before_it(post):
    status, body = post("big-two/games/validate", record(SLAM[:5] + [play(1, "3d")] + SLAM[6:]))
    assert (status, body["legal"], body["finished"], body["score"]) == (200, False, False, None)
    assert body["violations"] == [{
        "code": "different_combination", "message": "Single 3d does not beat Full house 8h 8d 8c 9d 9c (different_combination)",
        "cards": ["3d"], "index": 5,
    }]  # fmt: skip
    assert (body["state"]["turn"], body["state"]["actions_replayed"], body["state"]["cards_left"]) == (
        1,
        5,
        [3, 13, 13, 13],
    )


def test_validate_out_of_turn_is_reported_alone(post):
    status, body = post("big-two/games/validate", record([play(1, "2c 2d")]))
    assert (status, body["legal"]) == (200, False)
    assert body["violations"] == [{"code": "not_your_turn", "message": "it is seat 0's turn, not seat 1's", "index": 0}]


def test_validate_action_after_the_game_ended(post):
    status, body = post("big-two/games/validate", record(SLAM + [pass_(1)]))
    assert status == 200
    assert (body["legal"], body["finished"], body["state"], body["score"]) == (False, True, None, None)
    assert [(v["code"], v["index"]) for v in body["violations"]] == [("action_after_game_end", 13)]


def test_validate_random_legal_games_agree_with_the_core(post):
    rng = random.Random(20260922)
    for _ in range(5):
        game = play_random_game(rng, deal(rng))
        body = record(
            [{"seat": a.seat, "type": a.type.value, "cards": [str(c) for c in a.cards]} for a in game.actions],
            [[str(c) for c in hand] for hand in game.hands],
        )
        status, answer = post("big-two/games/validate", body)
        core = validate_game(10, game.hands, game.actions)
        assert (status, answer["legal"], answer["finished"]) == (200, True, True)
        assert answer["score"]["winner"]["seat"] == game.winner == core.winner
        points = {answer["score"]["winner"]["seat"]: answer["score"]["winner"]["points"]}
        points |= {loser["seat"]: loser["points"] for loser in answer["score"]["losers"]}
        assert tuple(points[s] for s in range(4)) == core.points and sum(core.points) == 0


def test_validate_card_dealt_twice_is_422_at_the_second_copy(post):
    hands = [list(h) for h in SLAM_DEAL]
    hands[2][5] = "8D"  # seat 0 holds 8d: the four hands are no longer one deck
    status, body = post("big-two/games/validate", record([], hands))
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/hands/2/5",
            "code": "duplicate_card",
            "message": "8d appears more often than the deck holds it (once)",
        }
    ]


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"hands": SLAM_DEAL[:3]}, "/hands"),
        ({"hands": [SLAM_DEAL[0], SLAM_DEAL[1][:12], SLAM_DEAL[2], SLAM_DEAL[3]]}, "/hands/1"),
        ({"actions": [{"seat": 4, "type": "pass"}]}, "/actions/0/seat"),
        ({"actions": [{"seat": 0, "type": "fold"}]}, "/actions/0/type"),
        ({"actions": [{"type": "pass"}]}, "/actions/0/seat"),
        ({"actions": [pass_(1)] * 201}, "/actions"),
        ({"base": -10}, "/base"),
    ],
)
def test_validate_schema_422s(post, change, pointer):
    status, body = post("big-two/games/validate", {**record([]), **change})
    assert (status, pointers(body)) == (422, [pointer])


def test_validate_accepts_200_actions(post):
    status, body = post("big-two/games/validate", record(SLAM + [pass_(1)] * (200 - len(SLAM))))
    assert (status, body["legal"], body["violations"][0]["index"]) == (200, False, 13)


# ---- Traditional Chinese (Accept-Language: zh-TW): the rule book's words, the same codes and numbers --------

ZH = {"Accept-Language": "zh-TW"}


@pytest.mark.parametrize(
    ("cards", "label"),
    [("3c", "單張"), ("3c 3d", "對子"), ("3c 4d 5h 6s 7c", "順子"), ("3c 3d 3h 4s 4c", "葫蘆"), ("9s 9h 9d 9c 3h", "鐵支"),
     ("3c 4c 5c 6c 7c", "同花順"), ("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc", "一條龍"), ("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "一條青龍")],
)  # fmt: skip
def test_classify_labels_in_the_rule_books_words(post, cards, label):
    english = post("big-two/plays/classify", {"cards": cards.split()})[1]
    status, body = post("big-two/plays/classify", {"cards": cards.split()}, headers=ZH)
    assert status == 200 and body["hand"]["label"] == label
    assert {**body, "hand": {**body["hand"], "label": None}} == {**english, "hand": {**english["hand"], "label": None}}


def test_move_not_higher_in_chinese(post):
    status, body = post("big-two/moves/validate", move("3c 7d Jh Js 2h", "Qd Qc", "play", "Jh Js"), headers=ZH)
    assert status == 200
    assert body["violations"] == [
        {"code": "not_higher", "message": "對子 Js Jh 壓不過對子 Qd Qc（比桌面小）", "cards": ["Js", "Jh"]}
    ]


def test_score_factor_reasons_in_the_rule_books_words(post):
    status, body = post("big-two/games/score", WORKED, headers=ZH)
    english = post("big-two/games/score", WORKED)[1]
    assert status == 200
    assert [f["reason"] for f in body["winner"]["factors"]] == ["老二收尾：最後一手牌含 2 張 2，每張 ×2"]
    assert [[f["reason"] for f in loser["factors"]] for loser in body["losers"]] == [
        ["剩 7 張以下"], ["剩 8–9 張", "老二未出：手上還有 1 張 2，每張 ×2"], ["剩 10–12 張", "怪物未出：剩餘手牌還組得出鐵支（只算一次）"],
    ]  # fmt: skip
    strip = lambda score: [[{**f, "reason": None} for f in p["factors"]] for p in (score["winner"], *score["losers"])]  # noqa: E731
    assert strip(body) == strip(english) and body["winner"]["points"] == english["winner"]["points"] == 3960


def test_validate_first_illegal_action_in_chinese(post):
    status, body = post("big-two/games/validate", record([play(1, "2c 2d")]), headers=ZH)
    assert (status, body["violations"]) == (
        200,
        [{"code": "not_your_turn", "message": "現在輪到座位 0，不是座位 1", "index": 0}],
    )
