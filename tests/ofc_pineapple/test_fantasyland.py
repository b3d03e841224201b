"""The Fantasyland solver (service/rules/fantasyland.py) against brute force and the board evaluator."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules import ofc, poker
from service.rules.cards import DECK, cards
from service.rules.ofc import BOTTOM, MIDDLE, TOP, Fantasyland
from service.rules.ofc import fantasyland as fl
from tests.ofc_pineapple.fantasyland_reference import brute_force

# A stay condition that also counts the middle (standard Fantasyland: middle full house or better).
MIDDLE_TOO = fl.FantasylandTerms(
    fl.HOUSE_TERMS.royalties,
    {
        TOP: poker.RUNG[poker.Category.TRIPS],
        MIDDLE: poker.RUNG[poker.Category.FULL_HOUSE],
        BOTTOM: poker.RUNG[poker.Category.QUADS],
    },
)


def ranked(solution: fl.Solution) -> list[fl.Setting]:
    return [solution.best, *solution.alternatives]


def assert_matches_brute_force(dealt, terms, stay_value, alternatives):
    order = sorted(dealt, key=lambda c: c.index, reverse=True)
    position = {c: p for p, c in enumerate(order)}
    expected = brute_force(order, terms, stay_value, 1 + alternatives)
    solution = fl.solve(dealt, terms, stay_value, alternatives)
    got = []
    for s in ranked(solution):
        masks = tuple(sum(1 << position[c] for c in s.board.row(r)) for r in (BOTTOM, MIDDLE, TOP))
        got.append(((s.value, s.strengths[2], s.strengths[1], s.strengths[0]), masks))
    assert got == expected
    return solution


def assert_consistent_with_the_evaluator(dealt, solution, stay_value):
    """Each setting is a legal Fantasyland set of the dealt cards, valued as boards/evaluate values it."""
    for s in ranked(solution):
        assert sorted(s.board.cards() + list(s.discard), key=lambda c: c.index) == sorted(dealt, key=lambda c: c.index)
        value = ofc.evaluate_board(s.board, Fantasyland(True, len(dealt)))
        assert not value.fouled
        assert value.royalties == s.royalties
        assert value.fantasyland_next.qualifies == s.stays
        assert s.value == s.royalties + (stay_value if s.stays else 0)


CHUNKS = 8
DEALS_PER_CHUNK = 25  # 200 random 14-card deals in all


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_14_card_deals_equal_brute_force_over_every_arrangement(chunk):
    rng = random.Random(1400 + chunk)
    for _ in range(DEALS_PER_CHUNK):
        dealt = rng.sample(DECK, 14)
        stay_value = rng.choice([0, 1, 10, 25, 100])
        terms = rng.choice([fl.HOUSE_TERMS, MIDDLE_TOO])
        solution = assert_matches_brute_force(dealt, terms, stay_value, alternatives=3)
        if terms is fl.HOUSE_TERMS:
            assert_consistent_with_the_evaluator(dealt, solution, stay_value)


@pytest.mark.slow
@pytest.mark.parametrize(("size", "seed"), [(15, 1), (15, 2), (15, 3), (16, 1), (16, 2), (17, 1)])
def test_15_to_17_card_samples_equal_brute_force(size, seed):
    rng = random.Random(size * 100 + seed)
    dealt = rng.sample(DECK, size)
    assert_matches_brute_force(dealt, fl.HOUSE_TERMS, rng.choice([0, 10, 50]), alternatives=2)


def test_a_staying_setting_wins_when_staying_is_worth_enough():
    # Quads of sixes on the bottom stay; the hearts flush (8 in the middle) and the QQ top do not.
    dealt = cards("6s 6h 6d 6c Ah Kh 9h 7h 2h Qs Qd 3c 4d 8s")
    greedy = fl.solve(dealt, stay_value=0)
    staying = fl.solve(dealt, stay_value=100)
    assert staying.best.stays
    assert staying.best.value == staying.best.royalties + 100
    assert greedy.best.value == greedy.best.royalties >= staying.best.royalties
    assert_consistent_with_the_evaluator(dealt, staying, 100)


def test_never_fouls_even_when_every_arrangement_is_worth_nothing():
    dealt = cards("2c 3d 4h 6s 7c 8d Th Js Qc Kd 2h 3s 7d 9c")  # small pairs only: no royalty anywhere
    solution = fl.solve(dealt, stay_value=10, alternatives=5)
    assert_consistent_with_the_evaluator(dealt, solution, 10)
    keys = [(s.value, s.strengths[2], s.strengths[1], s.strengths[0]) for s in ranked(solution)]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)


def test_alternatives_are_distinct_hands_in_order():
    dealt = cards("As Ks Qs Js Ts 9h 9d 9c 4s 4h 2d 3c 5h 7d")
    solution = fl.solve(dealt, alternatives=fl.MAX_ALTERNATIVES)
    settings_ = ranked(solution)
    assert len(settings_) == 1 + fl.MAX_ALTERNATIVES
    # No bottom can hold up a royal middle (50), so the royal flush is the bottom (25, and it stays:
    # quads or better) under 9-9-9-4-4 (12).
    assert settings_[0].row_royalties == (0, 12, 25) and settings_[0].stays and settings_[0].value == 47
    strengths = [s.strengths for s in settings_]
    assert len(set(strengths)) == len(strengths)


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 30))
def test_card_order_never_changes_the_answer(rng, stay_value):
    dealt = rng.sample(DECK, 14)
    shuffled = list(dealt)
    rng.shuffle(shuffled)
    assert fl.solve(dealt, stay_value=stay_value) == fl.solve(shuffled, stay_value=stay_value)


# --- POST /v1/ofc-pineapple/fantasyland/solve ---------------------------------------------------------

SOLVE = "ofc-pineapple/fantasyland/solve"
ROYAL_DEAL = "As Ks Qs Js Ts 9h 9d 9c 4s 4h 2d 3c 5h 7d".split()


def test_solve_answers_the_best_setting_and_its_alternatives(post):
    status, body = post(SOLVE, {"cards": ROYAL_DEAL, "alternatives": 2})
    assert status == 200
    assert body["proven_optimal"] is True and body["stay_value"] == fl.DEFAULT_STAY_VALUE
    best = body["best"]
    assert best["board"] == {
        "top": ["7d", "5h", "3c"],
        "middle": ["9h", "9d", "9c", "4s", "4h"],
        "bottom": ["As", "Ks", "Qs", "Js", "Ts"],
    }
    assert best["discard"] == ["2d"]
    assert (best["value"], best["royalties"], best["stays"]) == (47, 37, True)
    assert {r: best["rows"][r]["royalty"] for r in ("top", "middle", "bottom")} == {
        "top": 0,
        "middle": 12,
        "bottom": 25,
    }
    assert best["fantasyland_next"] == {"qualifies": True, "cards": 14, "reason": "stay_bottom_quads_or_better"}
    assert len(body["alternatives"]) == 2
    assert [a["value"] for a in body["alternatives"]] == [47, 47]  # weaker tops: 7-5-2, then 7-3-2
    assert [a["rows"]["top"]["hand"]["strength"] for a in body["alternatives"]] == [[1, 7, 5, 2], [1, 7, 3, 2]]


def test_solve_is_the_core_solver_and_ignores_card_order(post):
    rng = random.Random(7)
    dealt = rng.sample(DECK, 16)
    solution = fl.solve(dealt, stay_value=25, alternatives=1)
    texts = [c.text for c in dealt]
    _, a = post(SOLVE, {"cards": texts, "stay_value": 25, "alternatives": 1})
    _, b = post(SOLVE, {"cards": [t.lower() for t in reversed(texts)], "stay_value": 25, "alternatives": 1})
    assert a == b
    assert a["best"]["board"] == {r: [c.text for c in solution.best.board.row(r)] for r in ("top", "middle", "bottom")}
    assert a["best"]["value"] == solution.best.value


def test_solve_labels_in_the_rule_books_words(post):
    _, body = post(SOLVE, {"cards": ROYAL_DEAL}, headers={"Accept-Language": "zh-TW"})
    assert body["best"]["rows"]["middle"]["hand"]["label"] == "葫蘆"


@pytest.mark.parametrize(
    ("request_body", "pointers"),
    [
        ({"cards": ROYAL_DEAL[:-1] + ["As"]}, ["/cards/13"]),  # a card twice
        ({"cards": ROYAL_DEAL, "seen": ["9h"]}, ["/seen/0"]),  # dealt and seen elsewhere
        ({"cards": ROYAL_DEAL[:13]}, ["/cards"]),  # too few
        ({"cards": ROYAL_DEAL + ["2c", "2h", "2s", "3d"]}, ["/cards"]),  # too many
        ({"cards": ROYAL_DEAL, "stay_value": 1001}, ["/stay_value"]),
        ({"cards": ROYAL_DEAL, "stay_value": -1}, ["/stay_value"]),
        ({"cards": ROYAL_DEAL, "alternatives": 11}, ["/alternatives"]),
        ({"cards": ROYAL_DEAL, "stay_value": "10"}, ["/stay_value"]),
    ],
)
def test_solve_refuses_impossible_input_with_422(post, request_body, pointers):
    status, body = post(SOLVE, request_body)
    assert status == 422
    assert [e["pointer"] for e in body["errors"]] == pointers


# --- the rule set a request names ---------------------------------------------------------------------------

MIDDLE_FULL_HOUSE_DEAL = ["9h", "9d", "9c", "4s", "4h", "Th", "Td", "Tc", "5s", "5h", "2c", "3d", "7d", "8c"]
"""Two full houses and four odd cards: only a middle full house can keep the player in Fantasyland."""


def test_solve_stays_by_a_middle_full_house_in_standard_but_not_in_the_house_rules():
    from service.api import create_app

    client = create_app({"TESTING": True}).test_client()
    house = client.post("/v1/ofc-pineapple/fantasyland/solve", json={"cards": MIDDLE_FULL_HOUSE_DEAL}).get_json()
    standard = client.post(
        "/v1/ofc-pineapple/fantasyland/solve", json={"cards": MIDDLE_FULL_HOUSE_DEAL, "rule_set": "standard"}
    ).get_json()
    assert house["best"]["stays"] is False and "rule_set" not in house
    assert standard["best"]["stays"] is True and standard["rule_set"] == "standard"
    assert standard["best"]["board"]["middle"] == ["9h", "9d", "9c", "4s", "4h"]
    assert standard["best"]["fantasyland_next"] == {
        "qualifies": True,
        "cards": 14,
        "reason": "stay_middle_full_house_or_better",
    }


def test_solve_in_standard_takes_14_cards_only():
    from service.api import create_app

    client = create_app({"TESTING": True}).test_client()
    answer = client.post(
        "/v1/ofc-pineapple/fantasyland/solve", json={"cards": [*MIDDLE_FULL_HOUSE_DEAL, "Ac"], "rule_set": "standard"}
    )
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["code"] == "fantasyland_deal_size"


def test_solve_in_progressive_takes_the_entry_counts():
    from service.api import create_app

    client = create_app({"TESTING": True}).test_client()
    sixteen = [*MIDDLE_FULL_HOUSE_DEAL, "Ac", "Kd"]
    answer = client.post("/v1/ofc-pineapple/fantasyland/solve", json={"cards": sixteen, "rule_set": "progressive"})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["rule_set"] == "progressive" and len(body["best"]["discard"]) == 3
    # 9-9-9 on top over T-T-T and the wheel stays; staying in Progressive always deals 14 next, not the entry's 16
    assert body["best"]["board"]["top"] == ["9h", "9d", "9c"] and body["best"]["stays"] is True
    assert body["best"]["fantasyland_next"] == {"qualifies": True, "cards": 14, "reason": "stay_top_trips"}
