"""The Joker Thirteen HTTP operations: exact answers (the joker table, the worked example), the documented
examples, card notation, and the precise 422s the spec cannot express, each with its JSON pointer."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from service.api.games import schemas_for
from service.api.loading import fast_load
from service.rules.cards import card_texts
from service.rules.games import find_game
from tests.conftest import ROOT
from tests.joker_thirteen.test_scoring import WORKED, worked_hands

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
PATHS = {path: item["post"] for path, item in SPEC["paths"].items() if path.startswith("/v1/joker-thirteen/")}
OUR_SCHEMAS = sorted(name for name in SPEC["components"]["schemas"] if name.startswith("JokerThirteen"))


def pointers(body: dict[str, Any]) -> list[str]:
    return [e["pointer"] for e in body["errors"]]


def hv(category: str, label: str, strength: list[int], cards: str, resolved: str = "") -> dict[str, Any]:
    return {
        "category": category,
        "label": label,
        "strength": strength,
        "cards": cards.split(),
        "resolved": resolved.split(),
    }


def seat(head: str, middle: str, tail: str) -> dict[str, list[str]]:
    return {"head": head.split(), "middle": middle.split(), "tail": tail.split()}


def worked_table(with_hands: bool = True) -> list[dict[str, Any]]:
    """The rule book's worked example (tests/joker_thirteen/test_scoring.py), as request bodies."""
    players = []
    for p in worked_hands():
        body: dict[str, Any] = {"head": card_texts(p.head), "middle": card_texts(p.middle), "tail": card_texts(p.tail)}
        if with_hands:
            body["hand"] = card_texts(p.hand)
        players.append(body)
    return players


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": SPEC["components"]})


# ---- the documented examples are real answers, and every example fits its schema ------------------------


def test_every_operation_is_documented():
    assert sorted(PATHS) == [
        f"/v1/joker-thirteen/{p}"
        for p in ("arrangements/suggest", "arrangements/validate", "duns/compare", "duns/evaluate", "rounds/score")
    ]


@pytest.mark.parametrize("path", sorted(PATHS))
def test_every_operation_example_answers_200_with_the_documented_answer(post, path):
    op = PATHS[path]
    request = op["requestBody"]["content"]["application/json"]["example"]
    documented = op["responses"]["200"]["content"]["application/json"]
    status, body = post(path.removeprefix("/v1/"), request)
    assert (status, body) == (200, documented["example"])
    validator(documented["schema"]["$ref"].rsplit("/", 1)[1]).validate(body)


@pytest.mark.parametrize("name", OUR_SCHEMAS)
def test_every_schema_example_is_valid(name):
    validator(name).validate(SPEC["components"]["schemas"][name]["example"])


@pytest.mark.parametrize("name", [n for n in OUR_SCHEMAS if n.endswith("Request") or n == "JokerThirteenScoredPlayer"])
def test_every_request_schema_example_loads(name):
    schema = next(s for s in schemas_for(find_game("joker-thirteen")).values() if s.__name__ == name)
    schema().load(SPEC["components"]["schemas"][name]["example"])


# ---- duns/evaluate: the rule book's 自動認定的例子, with what each joker stands for --------------------------

JOKER_TABLE = [  # (dun, cards, category, strength, cards in order, resolved), as tests/joker_thirteen/test_jokers.py
    ("head", "5h 7c JK", "pair", [2, 7, 5], "7c JK 5h", "7s"),
    ("head", "Ad JK JK", "trips", [4, 14], "Ad JK JK", "As Ah"),
    ("middle", "4c 5d 6h 7s JK", "straight", [6, 8], "JK 7s 6h 5d 4c", "8s"),
    ("middle", "2c 3d 4h JK JK", "straight", [6, 6], "JK JK 4h 3d 2c", "6s 5s"),
    ("tail", "Ac Ad Kh Ks JK", "full_house", [9, 14, 13], "Ad Ac JK Ks Kh", "As"),
    ("tail", "Ah Kh 5h 2h JK", "pair_flush", [8, 1, 14, 13, 5, 2], "Ah JK Kh 5h 2h", "Ah"),
    ("tail", "As Ks 9s JK JK", "pair_flush", [8, 2, 14, 13, 9], "As JK Ks JK 9s", "As Ks"),
    ("middle", "6c 6d 6h JK Ad", "quads", [10, 6, 14], "6h 6d 6c JK Ad", "6s"),
    ("tail", "JK JK JK Kd 8c", "quads", [10, 13, 8], "Kd JK JK JK 8c", "Ks Kh Kc"),
    ("tail", "As Ks JK JK JK", "straight_flush", [11, 14], "As Ks JK JK JK", "Qs Js Ts"),
    ("tail", "As 9s JK JK JK", "quads", [10, 14, 9], "As JK JK JK 9s", "Ah Ad Ac"),
    ("tail", "As 7s 7s 5s JK", "pair_flush", [8, 2, 14, 7, 5], "As JK 7s 7s 5s", "As"),
]
LABELS = {
    "pair": "Pair", "trips": "Three of a kind", "straight": "Straight", "full_house": "Full house",
    "pair_flush": "Pair flush", "quads": "Four of a kind", "straight_flush": "Straight flush",
}  # fmt: skip
BONUS = {("head", "trips"): 1, ("middle", "quads"): 2, ("tail", "quads"): 1, ("tail", "straight_flush"): 1}


@pytest.mark.parametrize(
    ("dun", "text", "category", "strength", "order", "resolved"), JOKER_TABLE, ids=[f"row{i:02d}" for i in range(1, 13)]
)
def test_joker_table_rows_through_duns_evaluate(post, dun, text, category, strength, order, resolved):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": dun, "cards": text.split()})
    label = "Pair flush, two pairs" if strength[:2] == [8, 2] else LABELS[category]
    assert status == 200
    assert body == {"hand": hv(category, label, strength, order, resolved), "bonus": BONUS.get((dun, category), 0)}


def test_three_jokers_in_the_head_stand_for_themselves_and_pay_five(post):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": "head", "cards": ["JK", "jk", "Jk"]})
    assert (status, body) == (
        200,
        {"hand": hv("three_jokers", "Three jokers", [5], "JK JK JK", "JK JK JK"), "bonus": 5},
    )


def test_no_joker_means_resolved_is_empty(post):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": "middle", "cards": ["2c", "2d", "2h", "2s", "2s"]})
    assert (status, body) == (
        200,
        {"hand": hv("real_five", "Five of a kind (real cards)", [13, 2], "2s 2s 2h 2d 2c"), "bonus": 12},
    )


@pytest.mark.parametrize(
    ("dun", "text", "bonus"),
    [("head", "9c 9d 9h", 1), ("head", "9c JK JK", 1), ("middle", "Ac Ad Ah JK JK", 3), ("tail", "Ac Ad Ah JK JK", 2),
     ("tail", "2c 2d 2h 2s 2s", 5), ("middle", "5h 6h 7h 8h JK", 2), ("middle", "Ac Ad Ah Kc Kd", 0)],
)  # fmt: skip
def test_bonus_per_opponent_by_dun_and_exact_category(post, dun, text, bonus):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": dun, "cards": text.split()})
    assert (status, body["bonus"]) == (200, bonus)


# ---- card notation --------------------------------------------------------------------------------------


@pytest.mark.parametrize("joker", ["JK", "jk", "Jk", "jK"])
@pytest.mark.parametrize("spelling", [["As", "Ks", "Qs", "Js"], ["as", "KS", "q♠", "J♤"], ["A♠", "k♠", "Q♤", "j♠"]])
def test_joker_and_card_spellings_give_the_same_canonical_answer(post, joker, spelling):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": "tail", "cards": [*spelling, joker]})
    assert (status, body) == (
        200,
        {"hand": hv("straight_flush", "Straight flush", [11, 14], "As Ks Qs Js JK", "Ts"), "bonus": 1},
    )


def test_ten_may_be_spelled_10_and_answers_are_canonical(post):
    status, body = post(
        "joker-thirteen/duns/compare",
        {"dun": "middle", "a": ["10h", "9h", "8h", "7h", "jk"], "b": ["Th", "9h", "8h", "7h", "6h"]},
    )
    assert (status, body["winner"]) == (200, "a")
    assert body["a"]["hand"]["cards"] == ["JK", "Th", "9h", "8h", "7h"] and body["a"]["hand"]["resolved"] == ["Jh"]


@pytest.mark.parametrize("text", ["JKR", "J", "joker", "KJ", "1s", "As "])
def test_not_a_card_is_422_naming_the_entry(post, text):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": "head", "cards": ["As", text, "2c"]})
    assert status == 422 and pointers(body) == ["/cards/1"]


def test_rounds_score_ignores_card_spelling(post):
    players = worked_table()
    variant = copy.deepcopy(players)
    for p in variant:
        for key, cards in p.items():
            p[key] = [c.lower().replace("s", "♠") if i % 2 else c.upper() for i, c in enumerate(cards)]
    assert post("joker-thirteen/rounds/score", {"players": variant}) == post(
        "joker-thirteen/rounds/score", {"players": players}
    )


# ---- duns/compare ----------------------------------------------------------------------------------------


def test_joker_straight_ties_the_natural_one(post):
    status, body = post(
        "joker-thirteen/duns/compare", {"dun": "middle", "a": "9c 8d 7h 6s 5c".split(), "b": "JK 8d 7h 6s 5c".split()}
    )
    assert status == 200
    assert body == {
        "winner": "tie",
        "a": {"hand": hv("straight", "Straight", [6, 9], "9c 8d 7h 6s 5c"), "bonus": 0},
        "b": {"hand": hv("straight", "Straight", [6, 9], "JK 8d 7h 6s 5c", "9s"), "bonus": 0},
    }


def test_compare_hands_may_share_cards_but_each_is_checked_against_the_deck(post):
    status, body = post(
        "joker-thirteen/duns/compare", {"dun": "head", "a": ["Ah", "Ad", "2c"], "b": ["Ah", "Ad", "3c"]}
    )
    assert (status, body["winner"]) == (200, "b")
    status, body = post(
        "joker-thirteen/duns/compare", {"dun": "head", "a": ["Ah", "Ad", "2c"], "b": ["Ah", "Ah", "3c"]}
    )
    assert status == 422 and pointers(body) == ["/b/1"]


def test_compare_wrong_size_for_the_dun_is_422_at_the_hand(post):
    status, body = post(
        "joker-thirteen/duns/compare", {"dun": "head", "a": ["As", "Ks", "Qs"], "b": ["As", "Ks", "Qs", "Js"]}
    )
    assert status == 422
    assert body["errors"] == [
        {"pointer": "/b", "code": "wrong_head_size", "message": "the head holds exactly 3 cards, not 4"}
    ]


# ---- duns/evaluate: impossible input --------------------------------------------------------------------


def test_a_spade_three_times_is_422_at_the_third_copy(post):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": "tail", "cards": ["As", "as", "A♠", "Kd", "Qd"]})
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/cards/2",
            "code": "duplicate_card",
            "message": "As appears more often than the deck holds it (2 times)",
        }
    ]


def test_a_spade_twice_is_a_pair_flush_not_an_error(post):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": "tail", "cards": ["As", "As", "Ks", "9s", "5s"]})
    assert (status, body["hand"]["category"], body["hand"]["strength"]) == (200, "pair_flush", [8, 1, 14, 13, 9, 5])


def test_a_non_spade_twice_is_422_at_the_second_copy(post):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": "middle", "cards": ["Ah", "Kd", "AH", "Qd", "Jc"]})
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/cards/2",
            "code": "duplicate_card",
            "message": "Ah appears more often than the deck holds it (once)",
        }
    ]


def test_four_jokers_in_one_dun_is_422_at_the_fourth(post):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": "tail", "cards": ["JK", "JK", "As", "jk", "Jk"]})
    assert status == 422 and pointers(body) == ["/cards/4"]


@pytest.mark.parametrize(
    ("dun", "cards"), [("head", "As Ks Qs Js Ts"), ("middle", "As Ks Qs"), ("tail", "As Ks Qs Js")]
)
def test_wrong_dun_size_is_422_at_cards(post, dun, cards):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": dun, "cards": cards.split()})
    size = 3 if dun == "head" else 5
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/cards",
            "code": f"wrong_{dun}_size",
            "message": f"the {dun} holds exactly {size} cards, not {len(cards.split())}",
        }
    ]


@pytest.mark.parametrize(
    "body",
    [
        {"dun": "top", "cards": ["As", "Ks", "Qs"]},
        {"dun": "head", "cards": ["As", "Ks"]},
        {"dun": "head", "cards": ["As", "Ks", "Qs", "Js", "Ts", "9s"]},
    ],
)
def test_schema_422s(post, body):
    status, answer = post("joker-thirteen/duns/evaluate", body)
    assert status == 422 and len(pointers(answer)) == 1


# ---- arrangements/validate -------------------------------------------------------------------------------

HAND = "Qh Qd 5c 9c 9d 9h JK 4s Ts Js Qs Ks As 2c 3d 7h 8s".split()


def test_validate_legal_arrangement_from_a_hand_discards_the_other_four(post):
    body = {
        "hand": HAND,
        "head": ["Qh", "Qd", "5c"],
        "middle": ["9c", "9d", "9h", "JK", "4s"],
        "tail": ["Ts", "Js", "Qs", "Ks", "As"],
    }
    status, answer = post("joker-thirteen/arrangements/validate", body)
    assert (status, answer["legal"], answer["violations"], answer["discarded"]) == (
        200,
        True,
        [],
        ["8s", "7h", "3d", "2c"],
    )
    assert answer["duns"]["middle"] == hv("quads", "Four of a kind", [10, 9, 4], "9h 9d 9c JK 4s", "9s")


def test_validate_xianggong_is_legal_false_with_the_values(post):
    # the rule book's example: head 9-9-K over middle 9-9-5-4-3 (kickers count)
    body = {
        "head": ["9h", "9d", "Kc"],
        "middle": ["9c", "9s", "5d", "4h", "3c"],
        "tail": ["Ts", "Js", "Qs", "Ks", "JK"],
    }
    status, answer = post("joker-thirteen/arrangements/validate", body)
    assert (status, answer["legal"], answer["discarded"]) == (200, False, None)
    assert [v["code"] for v in answer["violations"]] == ["head_not_below_middle"]
    assert answer["duns"]["head"]["strength"] == [2, 9, 13] and answer["duns"]["middle"]["strength"] == [2, 9, 5, 4, 3]


def test_validate_every_problem_is_a_violation_never_a_422(post):
    body = {
        "hand": HAND[:16],
        "head": ["Qh", "Qd"],
        "middle": ["9c", "9d", "9h", "JK", "4s"],
        "tail": ["Ts", "Js", "Qs", "Ks", "Ah", "Ah"],
    }
    status, answer = post("joker-thirteen/arrangements/validate", body)
    assert (status, answer["legal"], answer["duns"]) == (200, False, None)
    assert [v["code"] for v in answer["violations"]] == [
        "wrong_head_size",
        "wrong_tail_size",
        "wrong_hand_size",
        "too_many_copies",
        "card_not_in_hand",
    ]
    assert answer["violations"][2]["cards"] == HAND[:16]


def test_validate_null_hand_is_no_hand(post):
    body = {
        "hand": None,
        "head": ["Qh", "Qd", "5c"],
        "middle": ["9c", "9d", "9h", "JK", "4s"],
        "tail": ["Ts", "Js", "Qs", "Ks", "As"],
    }
    status, answer = post("joker-thirteen/arrangements/validate", body)
    assert (status, answer["legal"], answer["discarded"]) == (200, True, None)


def test_validate_needs_the_three_duns(post):
    status, answer = post("joker-thirteen/arrangements/validate", {"head": ["Qh", "Qd", "5c"]})
    assert status == 422 and sorted(pointers(answer)) == ["/middle", "/tail"]


# ---- rounds/score ----------------------------------------------------------------------------------------


def test_rounds_score_worked_example_18_minus5_minus7_minus6(post):
    status, body = post("joker-thirteen/rounds/score", {"players": worked_table()})
    assert status == 200
    assert [(p["seat"], p["total"], p["shots"], p["home_run"], p["bonus"]) for p in body["players"]] == [
        (0, 18, 3, 9, 6), (1, -5, 0, -3, -2), (2, -7, -2, -3, -2), (3, -6, -1, -3, -2),
    ]  # fmt: skip
    assert [(m["a"], m["b"], m["shot"], m["bonus_a"], m["bonus_b"], m["points_a"]) for m in body["matchups"]] == [
        (0, 1, "a", 2, 0, 3), (0, 2, "a", 2, 0, 3), (0, 3, "a", 2, 0, 3),
        (1, 2, "a", 0, 0, 1), (1, 3, None, 0, 0, 0), (2, 3, None, 0, 0, 0),
    ]  # fmt: skip
    assert body["matchups"][4]["duns"] == {"head": "a", "middle": "b", "tail": "tie"}
    assert body["players"][0]["duns"]["middle"] == hv("quads", "Four of a kind", [10, 14, 2], "As Ah Ad Ac 2c")


def test_rounds_score_same_answer_with_or_without_hands(post):
    with_hands = post("joker-thirteen/rounds/score", {"players": worked_table(True)})
    without = post("joker-thirteen/rounds/score", {"players": worked_table(False)})
    assert with_hands == without and with_hands[0] == 200


def test_rounds_score_mutual_shot_is_both(post):
    twins = [
        seat("8c 8d 2c", "9c 9d 3c 3d 4c", "Tc Jd Qh Kh Ac"),
        seat("8h 8s 2d", "9h 9s 3h 3s 4d", "Th Jc Qd Ks Ad"),
        seat("7c 7d 2h", "6c 6d 5c 5d 4h", "As Ah Ts Td 9s"),
        seat("7h 7s 4s", "6h 6s 5h 5s 2s", "Kc Kd Qc Qs Jh"),
    ]
    status, body = post("joker-thirteen/rounds/score", {"players": twins})
    assert status == 200 and body["matchups"][0]["shot"] == "both" and body["matchups"][0]["points_a"] == 0
    assert sum(p["total"] for p in body["players"]) == 0


def test_rounds_score_four_jokers_across_the_table_is_422_at_the_fourth(post):
    players = [seat(*row) for row in WORKED]
    for p, suit in zip(players, "shdc"):
        p["tail"] = ["JK", f"T{suit}", f"J{suit}", f"Q{suit}", f"K{suit}"]  # a joker for each 9: four jokers
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/players/3/tail/0",
            "code": "duplicate_card",
            "message": "JK appears more often than the deck holds it (3 times)",
        }
    ]


def test_rounds_score_fourth_joker_counted_in_the_hands_when_given(post):
    players = worked_table()
    players[0]["hand"][16] = "JK"  # 丁 holds the deck's three jokers already
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422 and pointers(body) == ["/players/3/hand/16"]


def test_rounds_score_non_spade_on_two_players_is_422_at_the_second(post):
    players = [seat(*row) for row in WORKED]
    players[2]["head"] = ["7h", "7d", "8h"]  # 8h is on 甲's head
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422 and pointers(body) == ["/players/2/head/2"]


def test_rounds_score_spade_three_times_across_the_table_is_422(post):
    players = [seat(*row) for row in WORKED]
    players[2]["head"] = ["7h", "7d", "3s"]  # 丁 holds both 3s already
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422 and pointers(body) == ["/players/3/middle/2"]


def test_rounds_score_a_card_beyond_the_deck_within_one_player_is_422(post):
    players = [seat(*row) for row in WORKED]
    players[1]["middle"] = ["2d", "3d", "4h", "5c", "2d"]
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422 and pointers(body) == ["/players/1/middle/4"]


def test_rounds_score_placed_card_not_in_the_hand_is_422(post):
    players = worked_table()
    players[1]["head"] = ["8c", "8s", "6h"]  # 6h is 丁's, not in 乙's hand
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422
    assert body["errors"] == [
        {"pointer": "/players/1/head/2", "code": "card_not_in_hand", "message": "6h is not in the hand"}
    ]


def test_rounds_score_xianggong_cannot_be_scored(post):
    players = [seat(*row) for row in WORKED]
    players[2]["head"], players[2]["middle"] = ["7h", "7d", "Ah"], ["5d", "5h", "2h", "3c", "4c"]  # pair 7 over pair 5
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/players/2/head",
            "code": "head_not_below_middle",
            "message": "相公: the head must be strictly smaller than the middle (kickers included)",
        }
    ]


def test_rounds_score_middle_above_tail_cannot_be_scored(post):
    players = [seat(*row) for row in WORKED]
    players[1]["middle"], players[1]["tail"] = players[1]["tail"], players[1]["middle"]
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422 and pointers(body) == ["/players/1/middle"]


@pytest.mark.parametrize("count", [0, 3, 5])
def test_rounds_score_needs_exactly_four_players(post, count):
    players = ([seat(*row) for row in WORKED] * 2)[:count]
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422
    assert body["errors"] == [{"pointer": "/players", "code": "wrong_length", "message": "Length must be 4."}]


def test_rounds_score_wrong_dun_size_is_422_at_the_dun(post):
    players = [seat(*row) for row in WORKED]
    players[1]["head"] = ["8c", "8s", "6c", "2c"]
    players[3]["hand"] = players[3]["head"] + players[3]["middle"] + players[3]["tail"]  # 13 cards, not 17
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422
    assert body["errors"] == [
        {"pointer": "/players/1/head", "code": "wrong_length", "message": "Length must be 3."},
        {"pointer": "/players/3/hand", "code": "wrong_length", "message": "Length must be 17."},
    ]


def test_rounds_score_unknown_field_is_422(post):
    players = [seat(*row) for row in WORKED]
    players[0]["discard"] = ["2c"]
    status, body = post("joker-thirteen/rounds/score", {"players": players})
    assert status == 422 and pointers(body) == ["/players/0/discard"]


# ---- the fast path loads exactly what the schema loads -----------------------------------------------------


def fast_bodies() -> list[Any]:
    plain = {"players": worked_table(False)}
    spelled = copy.deepcopy(plain)
    spelled["players"][3]["head"] = ["6H", "4♦", "2♠"]
    null_hand = {"players": [dict(p, hand=None) for p in worked_table(False)]}
    return [plain, {"players": worked_table(True)}, spelled, null_hand]


@pytest.mark.parametrize("body", fast_bodies(), ids=["plain", "hands", "spellings", "null-hand"])
def test_fast_load_equals_load(body):
    schema = schemas_for(find_game("joker-thirteen"))["RoundScoreRequest"]()
    fast = fast_load(schema, body)
    assert fast is not None and fast == schema.load(body)


@pytest.mark.parametrize(
    "body",
    [{"players": worked_table(False)[:3]}, {"players": [dict(p, extra=1) for p in worked_table(False)]}, {"players": [dict(p, head=["As"]) for p in worked_table(False)]},
     {"players": [dict(p, hand=[]) for p in worked_table(False)]}, {"players": worked_table(False), "x": 1}, {"players": [dict(p, head=["As", 1, "Ks"]) for p in worked_table(False)]}, []],
)  # fmt: skip
def test_fast_load_declines_what_the_schema_refuses(body):
    assert fast_load(schemas_for(find_game("joker-thirteen"))["RoundScoreRequest"](), body) is None


# ---- Traditional Chinese (Accept-Language: zh-TW): the rule book's words, the same codes and numbers --------

ZH = {"Accept-Language": "zh-TW"}


@pytest.mark.parametrize(
    ("dun", "text", "label"),
    [("head", "JK JK JK", "鬼三條"), ("middle", "2c 2d 2h 2s 2s", "正五枚"), ("middle", "Ac Ad Ah JK JK", "鬼五枚"),
     ("tail", "Ah Kh 5h 2h JK", "對子同花"), ("tail", "As Ks 9s JK JK", "雙對的對子同花"), ("head", "Kh 9d 4c", "烏龍")],
)  # fmt: skip
def test_labels_in_the_rule_books_words(post, dun, text, label):
    english = post("joker-thirteen/duns/evaluate", {"dun": dun, "cards": text.split()})[1]
    status, body = post("joker-thirteen/duns/evaluate", {"dun": dun, "cards": text.split()}, headers=ZH)
    assert status == 200 and body["hand"]["label"] == label
    assert {**body["hand"], "label": None} == {**english["hand"], "label": None} and body["bonus"] == english["bonus"]


def test_xianggong_in_chinese(post):
    body = {
        "head": ["9h", "9d", "Kc"],
        "middle": ["9c", "9s", "5d", "4h", "3c"],
        "tail": ["Ts", "Js", "Qs", "Ks", "JK"],
    }
    status, answer = post("joker-thirteen/arrangements/validate", body, headers=ZH)
    assert (status, [(v["code"], v["message"]) for v in answer["violations"]]) == (
        200,
        [("head_not_below_middle", "相公：頭墩一定要比中墩小（單張也要算進去）")],
    )


@pytest.mark.parametrize(
    ("dun", "cards", "name"),
    [("head", "As Ks Qs Js Ts", "頭墩"), ("middle", "As Ks Qs", "中墩"), ("tail", "As Ks Qs Js", "尾墩")],
)
def test_wrong_dun_size_is_422_naming_the_dun(post, dun, cards, name):
    status, body = post("joker-thirteen/duns/evaluate", {"dun": dun, "cards": cards.split()}, headers=ZH)
    size = 3 if dun == "head" else 5
    assert status == 422
    assert body["errors"] == [
        {
            "pointer": "/cards",
            "code": f"wrong_{dun}_size",
            "message": f"{name}剛好是 {size} 張，不是 {len(cards.split())} 張",
        }
    ]
