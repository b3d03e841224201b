"""Thirteen at any table over HTTP: the ``shisanshui`` rule set and a request's ``rules`` on every operation,
ruling 13's refusals naming the parameter, ruling 14's worked table, fouls and declarations in a round, the
special hands of ``hands/specials`` and ``arrangements/validate``, and a suggestion's special."""

from __future__ import annotations

from typing import Any

import pytest

from service.rules import thirteen as j13
from tests.thirteen import table_reference as tr
from tests.thirteen import test_table_reference as worked
from tests.thirteen.tables import SCALARS
from tests.thirteen.test_api import JOKER_THIRTEEN, THIRTEEN, errors, example

SHISANSHUI = {"rule_set": "shisanshui"}
ONE_SIX = {"rules": {name: tr.ONE_SIX[name] for name in SCALARS}, "bonuses": {"head": {}, "middle": {}, "tail": {}}}
"""The 1-6 scoring of the rules folder, written as a request writes it."""


def players(deal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reference's players as a request writes them (card texts, ``declare`` kept)."""
    return [{k: [c.text for c in v] if k != "declare" else v for k, v in p.items()} for p in deal]


def score(client, deal: list[dict[str, Any]], **table: Any) -> dict[str, Any]:
    response = client.post(f"{THIRTEEN}/rounds/score", json={"players": players(deal), **table})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


# ---- ruling 14, worked -----------------------------------------------------------------------------------


def test_ruling_14_a_sweeps_b_with_a_middle_full_house_plus_8(client):
    answer = score(client, worked.RULING_14, **SHISANSHUI)
    a_b = answer["matchups"][0]
    assert (a_b["a"], a_b["b"], a_b["points_a"], a_b["total_a"], a_b["shot"]) == (0, 1, 8, 8, "a")
    assert a_b["parts_a"] == {"duns": 3, "bonuses": 1, "majority": 0, "sweep": 4, "home_run": 0, "specials": 0}
    assert [p["total"] for p in answer["players"]] == [-48, -64, 192, -80]  # C's home run: 64 from each
    assert [p["made_home_run"] for p in answer["players"]] == [False, False, True, False]
    assert [p["swept"] for p in answer["players"]] == [[1, 3], [3], [0, 1, 3], []]
    assert (answer["rule_set"], answer["rules_digest"]) == ("shisanshui", j13.SHISANSHUI.digest)


def test_ruling_14_a_dragon_takes_36_from_each_and_six_pairs_4(client):
    answer = score(client, worked.DRAGON_TABLE, **SHISANSHUI)
    assert [p["total"] for p in answer["players"]] == [108, -28, -39, -41]
    specials = [p["special"] for p in answer["players"]]
    assert specials == [
        {"special": "dragon", "name": "Dragon", "points": 36},
        {"special": "six_pairs", "name": "Six pairs", "points": 4},
        None,
        None,
    ]
    assert [m["duns"] for m in answer["matchups"]][:5] == [None] * 5  # the specials are compared with nobody
    assert not answer["players"][0]["fouled"]  # the dragon's duns are out of order: no foul


@pytest.mark.parametrize(
    ("language", "dragon", "six_pairs"), [("zh-TW", "一條龍", "六對半"), ("zh-CN", "一条龙", "六对半")]
)
def test_a_specials_name_is_in_the_answers_language(client, language, dragon, six_pairs):
    body = {"players": players(worked.DRAGON_TABLE), **SHISANSHUI}
    answer = client.post(f"{THIRTEEN}/rounds/score", json=body, headers={"Accept-Language": language}).get_json()
    assert [p["special"]["name"] for p in answer["players"][:2]] == [dragon, six_pairs]


def test_a_fouled_hand_loses_all_at_shisanshui_and_is_a_422_at_ordinary(client):
    answer = score(client, worked.FOULS, **SHISANSHUI)
    assert [p["fouled"] for p in answer["players"]] == [False, True, True, False]
    assert [m["points_a"] for m in answer["matchups"][:2]] == [32, 32]  # 3 duns and 2 + 7 + 4, doubled
    assert answer["matchups"][3]["duns"] is None and answer["matchups"][3]["points_a"] == 0  # two fouls
    refused = client.post(f"{THIRTEEN}/rounds/score", json={"players": players(worked.FOULS)})
    assert refused.status_code == 422
    assert errors(refused.get_json()) == [
        ("/players/1/head", "head_not_below_middle"),
        ("/players/2/head", "head_not_below_middle"),
    ]


def test_the_1_6_scoring_with_declarations(client):
    deal = [worked.player(worked.DRAGON, "dragon"), worked.player(worked.SIX_PAIRS, "six_pairs"),
            *worked.DRAGON_TABLE[2:]]  # fmt: skip
    answer = score(client, deal, **ONE_SIX)
    assert [p["total"] for p in answer["players"]] == [39, -7, -15, -17]
    undeclared = [deal[0], worked.DRAGON_TABLE[1], *deal[2:]]
    assert [p["total"] for p in score(client, undeclared, **ONE_SIX)["players"]] == [39, -11, -13, -15]


@pytest.mark.parametrize(
    ("seat", "special", "table", "case"),
    [
        (2, "six_pairs", ONE_SIX, "not_made"),
        (0, "three_flushes", ONE_SIX, "not_made"),
        (1, "six_pairs", SHISANSHUI, "not_taken"),
        (0, "twelve_royals", ONE_SIX, "not_listed"),
    ],
)
def test_a_declaration_the_table_does_not_take_is_a_422_naming_the_player(client, seat, special, table, case):
    body = {"players": players(worked.DRAGON_TABLE), **table}
    body["players"][seat]["declare"] = special
    response = client.post(f"{THIRTEEN}/rounds/score", json=body)
    assert response.status_code == 422
    problem = response.get_json()["errors"]
    assert [(e["pointer"], e["code"]) for e in problem] == [(f"/players/{seat}/declare", "declaration")]
    assert WORDS[case] in problem[0]["message"]


WORDS = {"not_made": "do not make", "not_taken": "declares none", "not_listed": "does not pay"}
"""A few words of each case's message (the catalog's English texts)."""


def test_joker_thirteen_has_no_declaration_field(client):
    body = {"players": worked_joker_players()}
    body["players"][0]["declare"] = "dragon"
    response = client.post(f"{JOKER_THIRTEEN}/rounds/score", json=body)
    assert errors(response.get_json()) == [("/players/0/declare", "unknown_field")]


def worked_joker_players() -> list[dict[str, Any]]:
    return example(f"{JOKER_THIRTEEN}/rounds/score")["players"]


# ---- a table of one's own: ruling 13 ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "rules", "pointers"),
    [
        (THIRTEEN, {"specials": {"dragon": 13}}, ["/rules/special_vs_special", "/rules/declare"]),
        (THIRTEEN, {"specials": {"dragon": 13}, "declare": "automatic"}, ["/rules/special_vs_special"]),
        (JOKER_THIRTEEN, {"specials": {"dragon": 13}}, ["/rules/specials"]),
    ],
)
def test_an_inconsistent_table_is_a_422_naming_the_parameter(client, base, rules, pointers):
    body = {**example(f"{base}/rounds/score"), "rules": rules}
    response = client.post(f"{base}/rounds/score", json=body)
    assert response.status_code == 422
    assert errors(response.get_json()) == [(p, "inconsistent_rules") for p in pointers]


@pytest.mark.parametrize(
    ("rules", "pointer", "code"),
    [
        ({"sweep_multiplier": 5}, "/rules/sweep_multiplier", "out_of_range"),
        ({"home_run_multiplier": 0}, "/rules/home_run_multiplier", "out_of_range"),
        ({"dun_points": 1001}, "/rules/dun_points", "out_of_range"),
        ({"specials": {"dragon": -1}}, "/rules/specials/dragon", "out_of_range"),
        ({"specials": {"royal_dragon": 1}}, "/rules/specials/royal_dragon", "unknown_field"),
        ({"sweep": "all_lost"}, "/rules/sweep", "not_one_of"),
        ({"shot": 2}, "/rules/shot", "unknown_field"),  # listed, derived: not set
    ],
)
def test_a_parameter_out_of_its_bounds_is_the_schemas_422(client, rules, pointer, code):
    body = {**example(f"{THIRTEEN}/rounds/score"), "rules": rules}
    assert errors(client.post(f"{THIRTEEN}/rounds/score", json=body).get_json()) == [(pointer, code)]


def test_a_table_of_its_own_overrides_the_named_rule_set_and_answers_its_digest(client):
    body = {**example(f"{THIRTEEN}/rounds/score"), "rule_set": "shisanshui", "rules": {"dun_points": 2}}
    answer = client.post(f"{THIRTEEN}/rounds/score", json=body).get_json()
    from dataclasses import replace

    assert answer["rules_digest"] == replace(j13.SHISANSHUI, dun_points=2).digest != j13.SHISANSHUI.digest
    assert answer["rule_set"] == "shisanshui"
    plain = client.post(f"{THIRTEEN}/rounds/score", json={**body, "rules": {}}).get_json()
    assert plain["rules_digest"] == j13.SHISANSHUI.digest


def test_joker_thirteen_takes_the_scoring_parameters(client):
    """The Joker Thirteen worked round at a table where each dun won also pays 1: every pair's points move by
    the duns won less the duns lost, and nothing else changes."""
    body = {"players": worked_joker_players(), "rules": {"dun_points": 1}}
    house = client.post(f"{JOKER_THIRTEEN}/rounds/score", json={"players": worked_joker_players()}).get_json()
    answer = client.post(f"{JOKER_THIRTEEN}/rounds/score", json=body).get_json()
    for before, after in zip(house["matchups"], answer["matchups"], strict=True):
        won = list(before["duns"].values())
        assert after["points_a"] == before["points_a"] + won.count("a") - won.count("b")
        assert after["parts_a"]["duns"] == won.count("a") - won.count("b")
    assert sum(p["total"] for p in answer["players"]) == 0


# ---- hands/specials and arrangements/validate ------------------------------------------------------------


def cards_of(text: str) -> list[str]:
    return text.replace("|", " ").split()


@pytest.mark.parametrize(
    ("table", "specials", "scored_by"),
    [
        ({}, [("dragon", None), ("three_straights", None)], None),
        (SHISANSHUI, [("dragon", 36), ("three_straights", 3)], ("dragon", 36)),
        ({"rule_set": "shisanshui", "rules": {"specials": {"three_straights": 5}}}, [("dragon", None),
                                                                                      ("three_straights", 5)],
         ("three_straights", 5)),
    ],
)  # fmt: skip
def test_hands_specials_lists_every_special_and_the_one_the_table_scores(client, table, specials, scored_by):
    body = {"cards": cards_of(worked.DRAGON), **table}
    answer = client.post(f"{THIRTEEN}/hands/specials", json=body).get_json()
    assert [(s["special"], s["points"]) for s in answer["specials"]] == specials
    found = answer["scored_by"]
    assert (None if found is None else (found["special"], found["points"])) == scored_by


def test_hands_specials_reads_every_spelling_alike(client):
    plain = cards_of(worked.SIX_PAIRS)
    spelled = [c[0].replace("T", "10") + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[c[1]] for c in plain]
    answers = [
        client.post(f"{THIRTEEN}/hands/specials", json={"cards": cards, **SHISANSHUI}).get_json()
        for cards in (plain, spelled, [c.lower() for c in reversed(plain)])
    ]
    assert answers[0] == answers[1] == answers[2]
    assert [s["special"] for s in answers[0]["specials"]] == ["six_pairs"]


@pytest.mark.parametrize(
    ("cards", "pointer", "code"),
    [
        (cards_of(worked.DRAGON)[:12], "/cards", "wrong_length"),
        ([*cards_of(worked.DRAGON)[:12], "Ac"], "/cards/12", "duplicate_card"),
        ([*cards_of(worked.DRAGON)[:12], "JK"], "/cards/12", "joker_not_allowed"),
    ],
)
def test_hands_specials_refuses_a_hand_that_is_not_13_distinct_cards(client, cards, pointer, code):
    response = client.post(f"{THIRTEEN}/hands/specials", json={"cards": cards})
    assert response.status_code == 422
    assert errors(response.get_json())[0] == (pointer, code)


def test_arrangements_validate_names_the_specials_the_table_pays(client):
    dragon = worked.player(worked.DRAGON)
    body = {dun: [c.text for c in dragon[dun]] for dun in ("head", "middle", "tail")}
    answer = client.post(f"{THIRTEEN}/arrangements/validate", json={**body, **SHISANSHUI}).get_json()
    assert answer["legal"] is False  # 相公 as placed: validate answers the duns' order as it is
    assert [(s["special"], s["points"]) for s in answer["specials"]] == [("dragon", 36), ("three_straights", 3)]
    own = client.post(f"{THIRTEEN}/arrangements/validate", json={**body, "rules": {"dun_points": 1}})
    assert own.get_json()["specials"] == []  # a table of its own that pays none
    for house in ({}, {"rule_set": "ordinary"}):  # the house table pays none: answered as it always was
        assert "specials" not in client.post(f"{THIRTEEN}/arrangements/validate", json={**body, **house}).get_json()
    short = {**body, "tail": body["tail"][:4], **SHISANSHUI}
    assert client.post(f"{THIRTEEN}/arrangements/validate", json=short).get_json()["specials"] is None


# ---- arrange for me at a table paying specials -----------------------------------------------------------


def test_suggest_scores_a_dragon_as_the_dragon_at_shisanshui(client):
    body = {"cards": cards_of(worked.DRAGON), "alternatives": 0, **SHISANSHUI}
    answer = client.post(f"{THIRTEEN}/arrangements/suggest", json=body).get_json()
    assert answer["special"] == {
        "special": "dragon",
        "name": "Dragon",
        "points": 36,
        "expected_value": 36.0,
        "declared_by": "automatic",
        "recommended": True,
    }
    plain = client.post(f"{THIRTEEN}/arrangements/suggest", json={"cards": body["cards"]}).get_json()
    assert "special" not in plain  # the house table pays no special


def test_suggest_says_whether_to_declare_six_pairs_at_the_1_6_table(client):
    body = {"cards": cards_of(worked.SIX_PAIRS), "alternatives": 0, **ONE_SIX}
    answer = client.post(f"{THIRTEEN}/arrangements/suggest", json=body).get_json()
    special = answer["special"]
    assert (special["special"], special["points"], special["declared_by"]) == ("six_pairs", 3, "player")
    assert special["recommended"] is True and answer["best"]["expected_value"] < 3  # six pairs' duns are worth less
