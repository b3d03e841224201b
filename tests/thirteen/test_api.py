"""The Thirteen games over HTTP: ordinary 十三支 at /v1/thirteen (exact answers, its 422s with their pointers,
what differs from Joker Thirteen) and the house bonus tables and rule sets of both games."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from service.rules import thirteen as j13
from tests.conftest import ROOT
from tests.joker_thirteen.test_api import worked_table

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
THIRTEEN = "/v1/thirteen"
JOKER_THIRTEEN = "/v1/joker-thirteen"


def example(path: str) -> dict[str, Any]:
    """The contract's request example of an operation (a copy the test may change)."""
    return copy.deepcopy(SPEC["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"])


def errors(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["pointer"], e["code"]) for e in body["errors"]]


# The contract's round of ordinary 十三支: the whole 52-card deck, one player's hands a seat each.
ROUND = example(f"{THIRTEEN}/rounds/score")["players"]


# ---- ordinary 十三支: the differences from Joker Thirteen, each named -----------------------------------


def test_the_round_scores_as_the_house_rules_without_the_five_of_a_kind(client):
    """The four 9-K straight flushes tie. Seat 0 shoots all three (head 8-8-7 beats 8-8-6, 7-7 and 6-high;
    quad aces beat the rest): shots 3, home run +9 (3 from each), middle quads +2 from each: 6. Seat 1
    (pair of 8s, straight) shoots seats 2 and 3; seat 2 (pair of 7s, trips) shoots seat 3 (6-high, a pair of
    3s). Seat 1: 1 - 3 - 2 = -4; seat 2: -1 - 3 - 2 = -6; seat 3: -3 - 3 - 2 = -8."""
    answer = client.post(f"{THIRTEEN}/rounds/score", json={"players": ROUND}).get_json()
    assert [(p["total"], p["shots"], p["home_run"], p["bonus"]) for p in answer["players"]] == [
        (18, 3, 9, 6), (-4, 1, -3, -2), (-6, -1, -3, -2), (-8, -3, -3, -2),
    ]  # fmt: skip
    assert sum(p["total"] for p in answer["players"]) == 0
    assert [p["duns"]["middle"]["category"] for p in answer["players"]] == ["quads", "straight", "trips", "pair"]
    assert "rule_set" not in answer


def test_the_round_with_a_17_card_hand_is_refused_by_the_schema(client):
    players = copy.deepcopy(ROUND)
    players[0]["hand"] = [*players[0]["head"], *players[0]["middle"], *players[0]["tail"], "2h", "3c", "4c", "5d"]
    response = client.post(f"{THIRTEEN}/rounds/score", json={"players": players})
    assert response.status_code == 422
    assert errors(response.get_json()) == [("/players/0/hand", "wrong_length")]


def test_a_card_twice_in_one_dun_is_a_duplicate_card(client):
    response = client.post(f"{THIRTEEN}/duns/evaluate", json={"dun": "head", "cards": ["Ah", "Ah", "Kd"]})
    assert response.status_code == 422
    assert errors(response.get_json()) == [("/cards/1", "duplicate_card")]
    assert response.get_json()["errors"][0]["message"] == "Ah appears more often than the deck holds it (once)"


def test_one_card_spelled_twice_is_a_duplicate_card(client):
    response = client.post(f"{THIRTEEN}/duns/evaluate", json={"dun": "head", "cards": ["Ah", "A♥", "Kd"]})
    assert errors(response.get_json()) == [("/cards/1", "duplicate_card")]


def test_a_joker_is_not_a_card_of_thirteen(client):
    response = client.post(f"{THIRTEEN}/duns/evaluate", json={"dun": "head", "cards": ["Ah", "JK", "Kd"]})
    assert response.status_code == 422
    assert errors(response.get_json()) == [("/cards/1", "joker_not_allowed")]


def test_a_card_twice_within_a_player_is_a_duplicate_card_in_the_round(client):
    players = copy.deepcopy(ROUND)
    players[1]["middle"][4] = players[1]["middle"][0]
    response = client.post(f"{THIRTEEN}/rounds/score", json={"players": players})
    assert response.status_code == 422
    assert errors(response.get_json()) == [("/players/1/middle/4", "duplicate_card")]


def test_a_card_twice_across_the_table_is_a_duplicate_card_at_its_second_copy(client):
    players = copy.deepcopy(ROUND)
    players[3]["head"][0] = players[0]["head"][0]  # 8h, seat 0's
    response = client.post(f"{THIRTEEN}/rounds/score", json={"players": players})
    assert errors(response.get_json()) == [("/players/3/head/0", "duplicate_card")]


def test_validate_answers_a_17_card_hand_and_a_card_twice_as_violations(client):
    body = example(f"{THIRTEEN}/arrangements/validate")
    body["hand"] += ["2h", "3c", "4c", "5d"]
    body["tail"][0] = body["tail"][1]
    answer = client.post(f"{THIRTEEN}/arrangements/validate", json=body).get_json()
    assert answer["legal"] is False
    assert [(v["code"], v.get("cards")) for v in answer["violations"]] == [
        ("wrong_hand_size", body["hand"]),
        ("too_many_copies", ["Js"]),
    ]
    assert answer["violations"][0]["message"] == "a hand holds 13 cards, not 17"


def test_validate_sets_all_13_and_discards_nothing(client):
    answer = client.post(f"{THIRTEEN}/arrangements/validate", json=example(f"{THIRTEEN}/arrangements/validate"))
    body = answer.get_json()
    assert (body["legal"], body["violations"], body["discarded"]) == (True, [], [])
    assert [body["duns"][d]["category"] for d in ("head", "middle", "tail")] == ["pair", "quads", "straight_flush"]


def test_suggest_takes_the_13_cards_dealt_and_discards_nothing(client):
    answer = client.post(f"{THIRTEEN}/arrangements/suggest", json=example(f"{THIRTEEN}/arrangements/suggest"))
    body = answer.get_json()
    assert body["opponent"] == {"deals": 10_000, "seed": 20261130}
    assert body["best"]["discarded"] == []
    placed = [*body["best"]["head"], *body["best"]["middle"], *body["best"]["tail"]]
    assert sorted(placed) == sorted(example(f"{THIRTEEN}/arrangements/suggest")["cards"])


def test_suggest_refuses_14_cards_by_the_schema(client):
    cards = [*example(f"{THIRTEEN}/arrangements/suggest")["cards"], "Th"]
    response = client.post(f"{THIRTEEN}/arrangements/suggest", json={"cards": cards})
    assert response.status_code == 422
    assert errors(response.get_json()) == [("/cards", "wrong_length")]


def test_five_cards_of_one_suit_are_a_flush_not_a_pair_flush(client):
    answer = client.post(f"{THIRTEEN}/duns/evaluate", json={"dun": "tail", "cards": ["Ah", "Kh", "9h", "5h", "2h"]})
    assert answer.get_json()["hand"]["category"] == "flush"
    assert answer.get_json()["hand"]["strength"] == [7, 14, 13, 9, 5, 2]


# ---- rule sets and house bonus tables, both games ---------------------------------------------------


@pytest.mark.parametrize(
    ("base", "rules"), [(JOKER_THIRTEEN, j13.GSCAS), (THIRTEEN, j13.ORDINARY)], ids=["joker-thirteen", "thirteen"]
)
@pytest.mark.parametrize("operation", ["duns/evaluate", "duns/compare", "arrangements/validate", "rounds/score",
                                       "arrangements/suggest"])  # fmt: skip
def test_naming_the_rule_set_answers_the_same_and_names_it(client, base, rules, operation):
    body = example(f"{base}/{operation}")
    plain = client.post(f"{base}/{operation}", json=body).get_json()
    named = client.post(f"{base}/{operation}", json={**body, "rule_set": rules.id}).get_json()
    assert named == {**plain, "rule_set": rules.id, "rules_digest": rules.digest}
    assert "rule_set" not in plain


@pytest.mark.parametrize("base", [JOKER_THIRTEEN, THIRTEEN])
def test_a_table_scoring_beyond_the_house_book_says_why_and_one_at_its_values_answers_as_before(client, base):
    """A table setting a parameter to the house book's value is the house table (its digest too); one setting
    another value gets each player's special, foul, sweeps, home run and parts, and each pair's parts."""
    body = example(f"{base}/rounds/score")
    plain = client.post(f"{base}/rounds/score", json=body).get_json()
    house = client.post(f"{base}/rounds/score", json={**body, "rules": {"dun_points": 0, "foul": "refused"}})
    rules = j13.GSCAS if base == JOKER_THIRTEEN else j13.ORDINARY
    assert house.get_json() == {**plain, "rule_set": rules.id, "rules_digest": rules.digest}
    doubled = client.post(f"{base}/rounds/score", json={**body, "rules": {"sweep_multiplier": 2}}).get_json()
    for before, player in zip(plain["players"], doubled["players"], strict=True):
        why = {key: player.pop(key) for key in ("special", "fouled", "swept", "made_home_run", "parts")}
        assert (why["special"], why["fouled"]) == (None, False)
        assert why["made_home_run"] == (len(why["swept"]) == 3) and why["parts"]["home_run"] == player["home_run"]
        assert sum(why["parts"].values()) == player["total"] and why["parts"]["sweep"] == player["shots"]
        assert (player["shots"], player["bonus"]) == (2 * before["shots"], before["bonus"])  # the sweep doubled
    for matchup in doubled["matchups"]:
        assert matchup.pop("total_a") == matchup["points_a"] + matchup.pop("parts_a")["home_run"]


def test_the_house_rules_digest_is_what_games_lists(client):
    listed = {g["id"]: g["rule_sets"][0]["rules_digest"] for g in client.get("/v1/games").get_json()["games"]}
    assert (listed["joker-thirteen"], listed["thirteen"]) == (j13.GSCAS.digest, j13.ORDINARY.digest)
    assert j13.GSCAS.digest == "0a94ac926860ad50"  # unchanged since the game was served: clients may pin it
    assert j13.ORDINARY.digest == "66e70bc7142eca28"  # and the scoring declared since, at the house values, too


def test_a_bonus_override_changes_exactly_the_bonus_points_of_the_round(client):
    """The Joker Thirteen worked example (甲 +18, 乙 -5, 丙 -7, 丁 -6): 甲's middle quads beat the other three
    for 2 each. At a table paying 5 for middle quads, 甲 takes 3 more from each: +27, -8, -10, -9; no
    matchup's winner or shot changes."""
    house = client.post(f"{JOKER_THIRTEEN}/rounds/score", json={"players": worked_table()}).get_json()
    bonuses = {"middle": {"quads": 5, "straight_flush": 2, "joker_five": 3, "real_five": 12}}
    table = client.post(f"{JOKER_THIRTEEN}/rounds/score", json={"players": worked_table(), "bonuses": bonuses})
    answer = table.get_json()
    assert [p["total"] for p in house["players"]] == [18, -5, -7, -6]
    assert [p["total"] for p in answer["players"]] == [27, -8, -10, -9]
    assert [p["bonus"] for p in answer["players"]] == [15, -5, -5, -5]
    assert [(m["duns"], m["shot"]) for m in answer["matchups"]] == [(m["duns"], m["shot"]) for m in house["matchups"]]
    assert [m["bonus_a"] for m in answer["matchups"][:3]] == [5, 5, 5]
    expected = j13.GSCAS.with_bonuses(bonuses)
    assert (answer["rule_set"], answer["rules_digest"]) == ("gscas", expected.digest) != ("gscas", j13.GSCAS.digest)


def test_a_bonus_override_of_thirteen_pays_its_own_table(client):
    """The round above at a table that pays nothing for middle quads: seat 0's bonus falls from 6 to 0 and
    each other seat pays 2 less; shots and home runs stay."""
    bonuses = {"middle": {"quads": 0, "straight_flush": 2}}
    answer = client.post(f"{THIRTEEN}/rounds/score", json={"players": ROUND, "bonuses": bonuses}).get_json()
    assert [(p["total"], p["bonus"]) for p in answer["players"]] == [(12, 0), (-2, 0), (-4, 0), (-6, 0)]


def test_a_dun_value_answers_the_tables_bonus(client):
    body = {
        "dun": "middle",
        "cards": ["9s", "9h", "9d", "9c", "2s"],
        "bonuses": {"middle": {"quads": 5, "straight_flush": 2}},
    }
    answer = client.post(f"{THIRTEEN}/duns/evaluate", json=body).get_json()
    assert (answer["hand"]["category"], answer["bonus"], answer["rule_set"]) == ("quads", 5, "ordinary")


def test_suggest_under_a_bonus_table_weighs_its_bonuses(client):
    """A straight flush worth 100 in the tail: arranging for me keeps it there, and its expected bonus is at
    least 100 x P(win) (the opponent's tail beats a 9-high straight flush almost never)."""
    cards = ["9h", "8h", "7h", "6h", "5h", "As", "Ad", "Kc", "Qc", "Jd", "4s", "3d", "2c"]
    table = {"tail": {"quads": 1, "straight_flush": 100}}
    answer = client.post(f"{THIRTEEN}/arrangements/suggest", json={"cards": cards, "bonuses": table}).get_json()
    best = answer["best"]
    assert best["duns"]["tail"]["category"] == "straight_flush"
    assert best["expected_bonus"]["tail"] >= 100 * best["win"]["tail"] - 1
    assert answer["rules_digest"] == j13.ORDINARY.with_bonuses(table).digest


@pytest.mark.parametrize(
    ("bonuses", "pointer"),
    [
        ({"middle": {"quads": 2, "straight_flush": 101}}, "/bonuses/middle/straight_flush"),
        ({"middle": {"quads": 2, "straight_flush": 2, "flush": 1}}, "/bonuses/middle/flush"),
        ({"head": {"trips": 1, "three_jokers": 5}}, "/bonuses/head/three_jokers"),  # no jokers in 十三支
        ({"middle": {"quads": -1, "straight_flush": 2}}, "/bonuses/middle/quads"),
    ],
    ids=["above-100", "unknown-category", "joker-category", "negative"],
)
def test_a_bonus_table_with_a_category_no_rule_set_pays_or_out_of_range_is_a_422_at_the_entry(client, bonuses, pointer):
    body = {"dun": "head", "cards": ["Ah", "Kd", "2c"], "bonuses": bonuses}
    response = client.post(f"{THIRTEEN}/duns/evaluate", json=body)
    assert response.status_code == 422
    assert [p for p, _ in errors(response.get_json())] == [pointer]


def test_an_unknown_rule_set_is_a_422(client):
    response = client.post(
        f"{THIRTEEN}/duns/evaluate", json={"dun": "head", "cards": ["Ah", "Kd", "2c"], "rule_set": "gscas"}
    )
    assert errors(response.get_json()) == [("/rule_set", "not_one_of")]
