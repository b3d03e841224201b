"""Big Two's operations at any table over HTTP: ``rule_set`` and ``rules`` on every operation, the answers
that name them, the state a question about one turn needs, and one shape of a table (docs/rulings.md,
B15-B28). The rules themselves are tested in the core (test_rules.py, test_hong_kong.py, test_ladder.py);
here each row of the spec's table is asked both ways as a client asks it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from service.rules.big_two import HONG_KONG, TAIWAN, FlushOrder
from service.rules.big_two.rules import MAX_MULTIPLIER
from tests.big_two.test_api import BIG_TWO_PATHS, pass_, play, pointers

EXAMPLES = {
    path.removeprefix("/v1/"): op["requestBody"]["content"]["application/json"]["example"]
    for path, op in BIG_TWO_PATHS.items()
}


def written(rules: Any) -> dict[str, Any]:
    """Every parameter of ``rules`` as a request writes it."""
    return {name: value for name, value in rules.describe().items() if name != "id"}


def at(post, path: str, body: dict[str, Any], rule_set: str | None = None, **rules: Any) -> dict[str, Any]:
    """The 200 answer of ``path`` to ``body`` at a table of ``rule_set`` with ``rules``."""
    sent = dict(body)
    if rule_set is not None:
        sent["rule_set"] = rule_set
    if rules:
        sent["rules"] = rules
    status, answer = post(path, sent)
    assert status == 200, answer
    return answer


# ---- the house rules, named or not ---------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(EXAMPLES))
def test_naming_the_house_rules_answers_as_before_and_says_so(post, path):
    """A request naming no rule set gets the answer it always had (the documented one); naming ``taiwan``
    gets the same answer with ``rule_set`` and ``rules_digest``."""
    unnamed = at(post, path, EXAMPLES[path])
    assert "rule_set" not in unnamed and "rules_digest" not in unnamed
    named = at(post, path, EXAMPLES[path], "taiwan")
    assert named.pop("rule_set") == "taiwan" and named.pop("rules_digest") == TAIWAN.digest
    if path.endswith("games/validate") and named["state"] is not None:
        assert named["state"].pop("first_lead") is not None and named["state"].pop("locked_out") is not None
    assert named == unnamed


@pytest.mark.parametrize("path", sorted(EXAMPLES))
def test_every_operation_takes_hong_kong_and_a_tables_own_rules_and_says_which(post, path):
    body = EXAMPLES[path]
    if path.endswith(("moves/validate", "plays/legal")):
        body = {**body, "first_lead": False, "passed": False}
    answer = at(post, path, body, "hong-kong")
    assert (answer["rule_set"], answer["rules_digest"]) == ("hong-kong", HONG_KONG.digest)
    own = at(post, path, body, "hong-kong", pass_locks=False, first_play_has_lowest_card=False)
    expected = HONG_KONG.with_parameters(pass_locks=False, first_play_has_lowest_card=False)
    assert (own["rule_set"], own["rules_digest"]) == ("hong-kong", expected.digest)
    assert expected.digest != HONG_KONG.digest


def test_a_whole_table_written_as_get_games_lists_it_is_that_table(post, client):
    listed = client.get("/v1/games").get_json()["games"]
    hong_kong = next(r for g in listed if g["id"] == "big-two" for r in g["rule_sets"] if r["id"] == "hong-kong")
    table = {name: value for name, value in hong_kong["rules"].items() if name != "id"}
    assert table == written(HONG_KONG)
    as_hong_kong = at(post, "big-two/plays/classify", {"cards": ["3c", "3d", "3h"]}, "taiwan", **table)
    assert as_hong_kong["combination"] == "triple"
    assert as_hong_kong["rule_set"] == "taiwan"  # the set it was built on; its digest says the rest
    assert as_hong_kong["rules_digest"] == TAIWAN.with_description(table).digest


def test_a_made_up_preset_is_served_from_its_parameters_alone(post):
    """A third table is data: straights that wrap past the ace, no monsters, any five over a lower kind."""
    made_up = {
        "straights": ["A2345", "23456", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA",
                      "JQKA2", "QKA23", "KA234"],
        "monsters": [],
        "five_beats_lower_kind": True,
    }  # fmt: skip  # the thirteen runs on two lines
    wraps = at(post, "big-two/plays/classify", {"cards": ["Jc", "Qd", "Kh", "As", "2c"]}, **made_up)
    assert (wraps["combination"], wraps["hand"]["strength"][0]) == ("straight", 3)
    compared = at(post, "big-two/plays/compare", {"table": ["Qc", "Kd", "Ah", "2s", "3c"],
                                                  "play": ["9c", "9d", "9h", "9s", "4d"]}, **made_up)  # fmt: skip
    assert (compared["beats"], compared["reason"]) == (True, "higher_combination")
    assert at(post, "big-two/plays/compare", {"table": ["3c"], "play": ["9c", "9d", "9h", "9s", "4d"]},
              **made_up)["reason"] == "different_combination"  # fmt: skip  # no monsters


# ---- each row of the spec's table, both ways --------------------------------------------------------


def test_a_flush_is_a_play_in_hong_kong_and_not_in_taiwan(post):
    body = {"cards": ["3h", "7h", "9h", "Jh", "Kh"]}
    assert at(post, "big-two/plays/classify", body, "hong-kong")["combination"] == "flush"
    taiwan = at(post, "big-two/plays/classify", body)
    assert (taiwan["valid"], taiwan["violations"][0]["code"]) == (False, "flush_not_a_combination")


def test_a_triple_is_a_play_in_hong_kong_and_not_in_taiwan(post):
    body = {"cards": ["8c", "8d", "8s"]}
    assert at(post, "big-two/plays/classify", body, "hong-kong")["hand"]["strength"] == [3, 5]
    assert at(post, "big-two/plays/classify", body)["violations"][0]["code"] == "triple_not_a_combination"


def test_quads_beat_a_single_in_taiwan_and_not_in_hong_kong(post):
    body = {"table": ["2s"], "play": ["9c", "9d", "9h", "9s", "3d"]}
    taiwan = at(post, "big-two/plays/compare", body)
    assert (taiwan["beats"], taiwan["reason"]) == (True, "monster_beats_normal")
    hong_kong = at(post, "big-two/plays/compare", body, "hong-kong")
    assert (hong_kong["beats"], hong_kong["reason"], hong_kong["play"]["category"]) == (
        False, "different_combination", "four_of_a_kind")  # fmt: skip


def test_23456_is_the_highest_straight_in_taiwan_and_the_second_lowest_in_hong_kong(post):
    low, top = ["3c", "4d", "5h", "6s", "7c"], ["2c", "3d", "4h", "5s", "6c"]
    assert at(post, "big-two/plays/compare", {"table": low, "play": top})["beats"] is True
    hong_kong = at(post, "big-two/plays/compare", {"table": low, "play": top}, "hong-kong")
    assert (hong_kong["beats"], hong_kong["reason"]) == (False, "lower")
    above_the_lowest = at(
        post, "big-two/plays/compare", {"table": ["Ac", "2d", "3h", "4s", "5c"], "play": top}, "hong-kong"
    )
    assert (above_the_lowest["beats"], above_the_lowest["reason"]) == (True, "higher_sequence")


def test_a2345_against_a2345_is_decided_by_the_2s_in_taiwan_and_by_the_5s_in_hong_kong(post):
    """The spade 2 against the club 2 in taiwan; in hong-kong the 5s decide: the heart 5 over the spade
    5 loses (spades are highest), whatever the 2s."""
    spade_two = ["Ac", "2s", "3c", "4c", "5h"]
    club_two = ["Ad", "2c", "3d", "4d", "5s"]
    taiwan = at(post, "big-two/plays/compare", {"table": club_two, "play": spade_two})
    assert (taiwan["beats"], taiwan["reason"], taiwan["play"]["cards"][0]) == (True, "higher_suit", "2s")
    hong_kong = at(post, "big-two/plays/compare", {"table": club_two, "play": spade_two}, "hong-kong")
    assert (hong_kong["beats"], hong_kong["reason"], hong_kong["play"]["cards"][0]) == (False, "lower", "5h")


FIRST_HAND = "3c 3d 4c 6s 7d 8c 9s Th Jd Qc Ks Ah 2d".split()  # dealt to the holder of 3c and 3d, before any play


def test_a_first_play_without_the_3_of_diamonds_is_illegal_in_hong_kong(post):
    body = {"hand": FIRST_HAND, "table": None, "action": {"type": "play", "cards": ["4c"]},
            "first_lead": True, "passed": False}  # fmt: skip
    hong_kong = at(post, "big-two/moves/validate", body, "hong-kong")
    assert (hong_kong["legal"], [v["code"] for v in hong_kong["violations"]]) == (
        False, ["first_play_without_lowest_card"])  # fmt: skip
    assert hong_kong["violations"][0]["message"] == "the game's first play must contain 3d"
    assert at(post, "big-two/moves/validate", {**body, "action": {"type": "play", "cards": ["3d"]}}, "hong-kong")[
        "legal"
    ]
    assert at(post, "big-two/moves/validate", body)["legal"] is True  # 「不必包含梅花 3」


def test_a_play_after_a_pass_in_the_trick_is_illegal_in_hong_kong(post):
    body = {"hand": ["3d", "4c", "9s"], "table": ["8c"], "action": {"type": "play", "cards": ["9s"]},
            "first_lead": False, "passed": True}  # fmt: skip
    hong_kong = at(post, "big-two/moves/validate", body, "hong-kong")
    assert [v["code"] for v in hong_kong["violations"]] == ["passed_this_trick"]
    assert at(post, "big-two/moves/validate", body)["legal"] is True  # 「PASS 可以回頭」
    legal = at(post, "big-two/plays/legal", {"hand": body["hand"], "table": {"cards": ["8c"]}, "first_lead": False,
                                             "passed": True}, "hong-kong")  # fmt: skip
    assert (legal["count"], legal["may_pass"]) == (0, True)


def test_cards_left_scoring_worked_by_hand_in_hong_kong(post):
    """Base 10: losers with 5, 9 and 13 cards pay 10 x 5 x 1, 10 x 9 x 2 and 10 x 13 x 4, whatever 2s and
    monsters they hold; the winner takes 750."""
    body = {
        "base": 10,
        "winner": {"last_play": ["2s"], "grand_slam": False},
        "losers": [{"cards": "2c 2d 2h 4c 5c".split()}, {"cards": "3c 4d 5h 6h 7c 8c 9c Tc Jd".split()},
                   {"cards": "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As Kd".split()}],
    }  # fmt: skip
    score = at(post, "big-two/games/score", body, "hong-kong")
    assert [(loser["cards_left"], loser["multiplier"], loser["points"]) for loser in score["losers"]] == [
        (5, 1, -50), (9, 2, -180), (13, 4, -520)]  # fmt: skip
    assert (score["winner"]["points"], score["winner"]["factors"]) == (750, [])
    assert [[f["reason"] for f in loser["factors"]] for loser in score["losers"]] == [
        ["1-7 cards left"], ["8-9 cards left"], ["13 cards left"]]  # fmt: skip


def test_a_tables_own_multipliers_score_by_them(post):
    body = {"base": 1, "winner": {"last_play": ["2s"], "grand_slam": False},
            "losers": [{"cards": ["3c"]}, {"cards": ["3d", "4d", "5d", "6d", "7d"]}, {"cards": ["2c", "9h"]}]}  # fmt: skip
    tiers = [{"at_least": 5, "multiplier": 3}, {"at_least": 1, "multiplier": 1}]
    score = at(
        post, "big-two/games/score", body, "hong-kong", loser_multipliers={"cards_left": tiers, "per_two_held": 5}
    )
    assert [loser["points"] for loser in score["losers"]] == [-1, -5 * 3, -2 * 5]
    assert [f["reason"] for f in score["losers"][1]["factors"]] == ["5-13 cards left"]


def test_the_rule_books_worked_example_pays_3960_in_hong_kong_with_the_house_multipliers_and_dragons(post):
    """計算範例 at the common game's table scored with the house multipliers: 丙 still holds four 5s, so
    「×3（10–12 張）× 2（怪物未出）」 whatever the table's monsters (none); +3,960, not +2,760."""
    house = {key: written(TAIWAN)[key] for key in ("loser_multipliers", "winner_multipliers")}
    body = {"base": 10, "winner": {"last_play": ["2s", "2h"], "grand_slam": False},
            "losers": [{"cards": "3c 7d Jh".split()}, {"cards": "2c 4d 6d 6s 8c Td Th Qs Kc".split()},
                       {"cards": "5c 5d 5h 5s 3h 4h 9d 6h 7s 8h".split()}]}  # fmt: skip
    score = at(post, "big-two/games/score", body, "hong-kong", dragons=True, **house)
    assert [loser["points"] for loser in score["losers"]] == [-120, -1440, -2400]
    assert score["winner"]["points"] == 3960 == at(post, "big-two/games/score", body)["winner"]["points"]
    assert [(f["factor"], f["value"], f["cards"]) for f in score["losers"][2]["factors"]] == [
        ("cards_left_tier", 3, []), ("monster_held", 2, ["5d", "5c", "5h", "5s"])]  # fmt: skip


# ---- the state a question needs, and one shape of a table --------------------------------------------


def test_the_state_a_table_makes_matter_is_required_there_and_only_there(post):
    body = {"hand": ["3d", "4c"], "table": ["3c"], "action": {"type": "play", "cards": ["4c"]}}
    status, problem = post("big-two/moves/validate", {**body, "rule_set": "hong-kong"})
    assert (status, [(e["pointer"], e["code"]) for e in problem["errors"]]) == (
        422, [("/first_lead", "state_needed"), ("/passed", "state_needed")])  # fmt: skip
    assert at(post, "big-two/moves/validate", body)["legal"] is True
    only_locks = at(post, "big-two/moves/validate", {**body, "passed": False}, "hong-kong",
                    first_play_has_lowest_card=False)  # fmt: skip
    assert only_locks["legal"] is True
    status, problem = post("big-two/plays/legal", {"hand": ["3d"], "rule_set": "hong-kong", "first_lead": False})
    assert (status, pointers(problem)) == (422, ["/passed"])


def test_a_first_lead_onto_a_table_is_impossible_input(post):
    body = {"hand": FIRST_HAND, "table": ["3s"], "action": {"type": "play", "cards": ["4c"]}, "first_lead": True,
            "passed": False, "rule_set": "hong-kong"}  # fmt: skip
    status, problem = post("big-two/moves/validate", body)
    assert (status, [(e["pointer"], e["code"]) for e in problem["errors"]]) == (
        422,
        [("/table", "first_lead_with_table")],
    )


@pytest.mark.parametrize(
    ("named", "refused"),
    [
        ({}, False),
        ({"rule_set": "hong-kong"}, True),
        ({"rule_set": "taiwan", "rules": {"first_play_has_lowest_card": True}}, True),
        ({"rule_set": "hong-kong", "rules": {"first_play_has_lowest_card": False}}, False),
    ],
    ids=["taiwan", "hong-kong", "taiwan-lowest-first", "hong-kong-any-first"],
)
def test_a_first_lead_is_refused_alike_where_the_table_reads_it_and_answered_where_it_does_not(post, named, refused):
    """plays/legal and moves/validate give one answer: where the first play must hold the lowest card, a
    first lead from fewer than 13 cards is a 422 ``first_lead_hand`` in both (onto a table, with
    ``first_lead_with_table``); elsewhere ``first_lead`` is read as false and the question is answered."""
    hand, state = ["3c", "3d", "4c"], {"first_lead": True, "passed": False, **named}
    for table, pointed in ((None, ["/hand"]), (["3s"], ["/table", "/hand"])):
        move = {"hand": hand, "table": table, "action": {"type": "play", "cards": ["4c"]}, **state}
        listing = {"hand": hand, "table": None if table is None else {"cards": table}, **state}
        (status, moved), (listed_status, listed) = post("big-two/moves/validate", move), post(
            "big-two/plays/legal", listing)  # fmt: skip
        if refused:
            assert (status, pointers(moved)) == (listed_status, pointers(listed)) == (422, pointed)
            assert [e["code"] for e in moved["errors"]] == [e["code"] for e in listed["errors"]]
            assert moved["errors"][-1]["code"] == "first_lead_hand"
        else:
            assert (status, listed_status, moved["legal"]) == (200, 200, True)
            assert moved == at(post, "big-two/moves/validate", {**move, "first_lead": False})
            assert listed == at(post, "big-two/plays/legal", {**listing, "first_lead": False})
            assert listed["count"] == (4 if table is None else 1)  # three singles and the pair; on the 3s, the 4c


def test_a_table_is_written_as_its_cards_or_with_its_seat_in_every_operation(post):
    bare = {
        "hand": ["3c", "7d", "Jh", "Js", "2h"],
        "table": ["Jd", "Jc"],
        "action": {"type": "play", "cards": ["Jh", "Js"]},
    }
    with_seat = {**bare, "table": {"cards": ["Jd", "Jc"], "seat": 1}, "seat": 2}
    assert at(post, "big-two/moves/validate", with_seat) == at(post, "big-two/moves/validate", bare)
    compared = {"table": ["Kh", "Kd"], "play": ["2c", "2d"]}
    assert at(post, "big-two/plays/compare", {**compared, "table": {"cards": ["Kh", "Kd"], "seat": 3}}) == at(
        post, "big-two/plays/compare", compared)  # fmt: skip
    listed = {"hand": ["3c", "7d", "Jh", "Js", "2h"], "table": {"cards": ["Jd", "Jc"]}}
    assert at(post, "big-two/plays/legal", {**listed, "table": ["Jd", "Jc"]}) == at(post, "big-two/plays/legal", listed)


def test_a_table_the_player_made_itself_is_a_new_lead(post):
    came_back = {
        "hand": ["3c", "7d"],
        "table": {"cards": ["2s"], "seat": 2},
        "seat": 2,
        "action": {"type": "play", "cards": ["3c"]},
    }
    assert at(post, "big-two/moves/validate", came_back)["legal"] is True
    status, problem = post("big-two/moves/validate", {**came_back, "seat": None})
    assert status == 422 and pointers(problem) == ["/seat"]
    passing = {**came_back, "action": {"type": "pass"}}
    assert [v["code"] for v in at(post, "big-two/moves/validate", passing)["violations"]] == ["leader_cannot_pass"]
    without_seat = {key: value for key, value in came_back.items() if key != "seat"}
    status, problem = post("big-two/moves/validate", without_seat)
    assert (status, [(e["pointer"], e["code"]) for e in problem["errors"]]) == (422, [("/seat", "seat_needed")])


# ---- a whole game at another table ---------------------------------------------------------------


HONG_KONG_DEAL = [  # seat 1 holds the 3 of diamonds
    "3c 4c 5d 6h 7s 8c 8d 8h 9c 9d Tc Td Js".split(),
    "2c 3d 3h 3s 4d 4h 4s 5c 5h 5s 6c 6d 6s".split(),
    "2d 2h 7c 7d 7h 8s 9h 9s Th Ts Jc Jd Jh".split(),
    "2s Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As".split(),
]


def test_a_hong_kong_record_is_led_by_the_3_of_diamonds_and_its_state_says_what_the_next_turn_needs(post):
    body = {"base": 10, "hands": HONG_KONG_DEAL, "actions": [play(1, "3d 3h 3s"), pass_(2)]}
    record = at(post, "big-two/games/validate", body, "hong-kong")
    assert (record["legal"], record["state"]["turn"], record["state"]["first_lead"], record["state"]["locked_out"]) == (
        True, 3, False, [2])  # fmt: skip
    fresh = at(post, "big-two/games/validate", {**body, "actions": []}, "hong-kong")
    assert (fresh["state"]["turn"], fresh["state"]["first_lead"]) == (1, True)
    wrong = at(post, "big-two/games/validate", {**body, "actions": [play(1, "4d 4h 4s")]}, "hong-kong")
    assert [v["code"] for v in wrong["violations"]] == ["first_play_without_lowest_card"]
    led = at(post, "big-two/games/validate", {**body, "leader": 0, "actions": [play(0, "Js")]}, "hong-kong")
    assert led["legal"] is True and led["state"]["first_lead"] is False


def test_a_locked_out_seat_is_skipped_for_the_rest_of_the_trick(post):
    actions = [play(1, "3d"), pass_(2), play(3, "2s"), play(0, "Js")]  # seat 2 passed: seat 0 follows seat 3...
    record = at(post, "big-two/games/validate", {"base": 1, "hands": HONG_KONG_DEAL, "actions": actions}, "hong-kong")
    assert [v["code"] for v in record["violations"]] == ["not_higher"]  # ...and cannot beat the 2 of spades
    actions = [play(1, "3d"), pass_(2), play(3, "2s"), pass_(0), pass_(1)]
    record = at(post, "big-two/games/validate", {"base": 1, "hands": HONG_KONG_DEAL, "actions": actions}, "hong-kong")
    assert (record["legal"], record["state"]["turn"], record["state"]["table"], record["state"]["locked_out"]) == (
        True, 3, None, [])  # fmt: skip


def test_a_locked_seats_turn_may_be_written_as_a_pass(post):
    """Seat 2 passed and is out of the trick: when seat 1's pass ends it, a record may write seat 2's turn as a
    pass before seat 3 leads again, or leave it out; the same game either way. Seat 2 plays only in the next
    trick."""
    skipped = [play(1, "3d"), pass_(2), play(3, "2s"), pass_(0), pass_(1), play(3, "Qc")]
    written = [play(1, "3d"), pass_(2), play(3, "2s"), pass_(0), pass_(1), pass_(2), play(3, "Qc")]
    answers = [at(post, "big-two/games/validate", {"base": 1, "hands": HONG_KONG_DEAL, "actions": actions},
                  "hong-kong") for actions in (skipped, written)]  # fmt: skip
    assert [(a["legal"], a["violations"], a["state"]["turn"], a["state"]["table_seat"]) for a in answers] == [
        (True, [], 0, 3)] * 2  # fmt: skip
    assert (answers[0]["state"].pop("actions_replayed"), answers[1]["state"].pop("actions_replayed")) == (6, 7)
    assert answers[0]["state"] == answers[1]["state"]
    played = [play(1, "3d"), pass_(2), play(3, "2s"), pass_(0), pass_(1), play(2, "7c")]
    late = at(post, "big-two/games/validate", {"base": 1, "hands": HONG_KONG_DEAL, "actions": played}, "hong-kong")
    assert [(v["code"], v["index"]) for v in late["violations"]] == [("passed_this_trick", 5)]


# ---- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "pointer"),
    [
        ({"plays": ["single", "pair", "triple"]}, "/rules/five_card_order"),
        ({"monsters": ["straight_flush", "four_of_a_kind"]}, "/rules/monsters"),
        ({"plays": ["pair", "straight"], "five_card_order": ["straight"], "monsters": []}, "/rules/plays"),
        ({"straights": []}, "/rules/straights"),
        (
            {"loser_multipliers": {"cards_left": [{"at_least": 5, "multiplier": 2}]}},
            "/rules/loser_multipliers/cards_left",
        ),
        ({"loser_multipliers": {"per_two_held": 100}}, "/rules"),
    ],
)
def test_a_table_no_one_can_play_is_422_naming_the_parameter(post, rules, pointer):
    status, problem = post("big-two/plays/classify", {"cards": ["3c"], "rules": rules})
    assert (status, [(e["pointer"], e["code"]) for e in problem["errors"]]) == (422, [(pointer, "inconsistent_rules")])


def test_the_largest_multipliers_a_table_may_set_keep_every_payment_exact(post):
    most = {"loser_multipliers": {"cards_left": [{"at_least": 1, "multiplier": MAX_MULTIPLIER}]}}
    body = {"base": 10**9, "winner": {"last_play": ["2s"], "grand_slam": False},
            "losers": [{"cards": [c]} for c in ("3c", "3d", "3h")]}  # fmt: skip
    score = at(post, "big-two/games/score", body, "hong-kong", **most)
    assert score["winner"]["points"] == 3 * 10**9 * MAX_MULTIPLIER < 2**53
    over = copy.deepcopy(most)
    over["loser_multipliers"]["cards_left"][0]["multiplier"] = MAX_MULTIPLIER + 1
    status, problem = post("big-two/games/score", {**body, "rule_set": "hong-kong", "rules": over})
    assert (status, pointers(problem)) == (422, ["/rules/loser_multipliers/cards_left/0/multiplier"])


def test_an_unknown_rule_set_is_422_at_rule_set(post):
    status, problem = post("big-two/plays/classify", {"cards": ["3c"], "rule_set": "macau"})
    assert (status, [(e["pointer"], e["code"]) for e in problem["errors"]]) == (422, [("/rule_set", "not_one_of")])


def test_a_flush_compared_by_its_highest_card_or_rank_by_rank(post):
    """Two flushes with the same highest rank: by the highest card's suit (the king of spades over the king
    of hearts), or, where the table compares rank by rank, by the next rank (the jack over the nine)."""
    body = {"table": ["Ks", "9s", "7s", "5s", "3s"], "play": ["Kh", "Jh", "4h", "5h", "3h"]}
    by_card = at(post, "big-two/plays/compare", body, "hong-kong")
    assert (by_card["beats"], by_card["reason"], by_card["play"]["strength"]) == (False, "lower", [5, 10, 2])
    by_ranks = at(post, "big-two/plays/compare", body, "hong-kong", flush_order=FlushOrder.RANK_BY_RANK.value)
    assert (by_ranks["beats"], by_ranks["reason"], by_ranks["play"]["strength"]) == (
        True, "higher_rank", [5, 10, 8, 2, 1, 0, 2])  # fmt: skip  # K J 5 4 3, the king of hearts
