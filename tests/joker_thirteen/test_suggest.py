"""Joker Thirteen arrangements/suggest (service/rules/thirteen/suggest.py): brute force, the naive
arranger, the strength cache, the opponent table and the HTTP operation."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules import thirteen as j13
from service.rules.cards import JOKER, cards
from service.rules.thirteen import DUNS, Dun
from service.rules.thirteen import suggest as sg
from tests.joker_thirteen.suggest_reference import brute_force

REAL = [c for c in j13.GAME_DECK if c is not JOKER]


def random_hand(rng: random.Random, size: int, jokers: int) -> list:
    return rng.sample(REAL, size - jokers) + [JOKER] * jokers


def ranked(result: sg.SuggestResult) -> list[sg.Suggestion]:
    return [result.best, *result.alternatives]


CHUNKS = 8
HANDS_PER_CHUNK = 25  # 200 random 13-card hands, 50 of each joker count 0-3


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_13_card_hands_equal_brute_force_over_all_72072_splits(chunk):
    rng = random.Random(1300 + chunk)
    for i in range(HANDS_PER_CHUNK):
        hand = random_hand(rng, 13, jokers=(chunk * HANDS_PER_CHUNK + i) % 4)
        expected = brute_force(hand, k=4)
        result = sg.suggest(hand, alternatives=3)
        got = [
            (
                (s.exact_value, s.duns[Dun.TAIL].strength, s.duns[Dun.MIDDLE].strength, s.duns[Dun.HEAD].strength),
                (s.tail, s.middle, s.head),
            )
            for s in ranked(result)
        ]
        assert got == expected, [c.text for c in hand]


def test_every_suggestion_is_legal_and_its_parts_add_up():
    rng = random.Random(5)
    for jokers in range(4):
        for size in (13, 17):
            hand = random_hand(rng, size, jokers)
            result = sg.suggest(hand, alternatives=2)
            for s in ranked(result):
                check = j13.validate_arrangement(s.head, s.middle, s.tail, hand if size == 17 else None)
                assert check.legal, check.violations
                if size == 17:
                    assert sorted(check.discarded, key=lambda c: c.index) == sorted(s.discarded, key=lambda c: c.index)
                assert {d: s.duns[d].strength for d in DUNS} == {d: check.duns[d].strength for d in DUNS}
                ev = s.shoot - s.shot + sum(s.expected_bonus.values())
                assert ev == pytest.approx(s.expected_value, abs=1e-9)
                assert s.exact_value == round(s.expected_value * result.deals**3)
            values = [s.exact_value for s in ranked(result)]
            assert values == sorted(values, reverse=True)


@pytest.mark.slow
def test_17_cards_choose_the_best_13_of_them():
    """Against the 13-card solver over every distinct choice of 13 of the 17 (1,470 with 3 jokers)."""
    rng = random.Random(17)
    for jokers in (3,):
        hand = random_hand(rng, 17, jokers)
        best = sg.suggest(hand, alternatives=0).best
        kept = max(
            (sg.suggest(list(sub), alternatives=0).best for sub in _distinct_subsets(hand, 13)),
            key=lambda s: s.exact_value,
        )
        assert best.exact_value == kept.exact_value


def _distinct_subsets(hand, size):
    seen = set()
    for sub in combinations(sorted(hand, key=lambda c: c.index), size):
        key = tuple(c.index for c in sub)
        if key not in seen:
            seen.add(key)
            yield sub


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(j13.GAME_DECK), min_size=5, max_size=5), st.booleans())
def test_the_strength_cache_is_evaluate_dun(hand, head):
    if any(hand.count(c) > j13.DECK_COPIES[c] for c in hand):
        return
    dun, cs = (Dun.HEAD, hand[:3]) if head else (Dun.TAIL, hand)
    assert sg.strength(cs) == j13.evaluate_dun(dun, cs).strength


def test_naive_arranger_takes_the_strongest_tail_then_middle():
    hand = cards("As Ks Qs Js Ts 9h 9d 9c 9s 4h 4d 2c 3c")
    head, middle, tail = sg.naive_arrangement(hand)
    assert j13.evaluate_dun(Dun.TAIL, tail).category == "straight_flush"
    assert j13.evaluate_dun(Dun.MIDDLE, middle).category == "quads"
    assert j13.validate_arrangement(head, middle, tail).legal


def test_suggest_beats_the_naive_tail_first_split_where_the_middle_matters():
    # Naive puts the straight flush in the tail and quads in the middle (bonus +2 middle, +1 tail);
    # the objective may differ, and never scores below the naive arrangement by its own measure.
    hand = cards("As Ks Qs Js Ts 9h 9d 9c 9s 4h 4d 2c 3c")
    result = sg.suggest(hand, alternatives=0)
    head, middle, tail = sg.naive_arrangement(hand)
    naive_value = _exact(head, middle, tail)
    assert result.best.exact_value >= naive_value


def _exact(head, middle, tail) -> int:
    tables = sg.opponent_tables()
    n = tables.deals
    (ha, hw, hb), (ma, mw, mb), (ta, tw, tb) = (
        tables.duns[d].terms(sg.strength(x)) for d, x in zip(DUNS, (head, middle, tail))
    )
    return ta * ma * ha - (n - tw) * (n - mw) * (n - hw) + n * n * (tb + mb + hb)


def test_the_opponent_table_is_the_documented_simulation():
    """The table counts every simulated deal once per dun, and the first 100 deals of its seed, arranged
    by the naive arranger, are all inside it (the whole build takes minutes: scripts/build_joker_thirteen_tables.py)."""
    data = json.loads(sg.DATA.read_text(encoding="utf-8"))
    tables = sg.opponent_tables()
    assert data["deals"] == tables.deals >= 10_000 and data["hand_size"] == 17
    counts = {d: {tuple(s): n for s, n in data["duns"][d.value]} for d in DUNS}
    for d in DUNS:
        assert sum(counts[d].values()) == tables.deals
    rng = random.Random(data["seed"])
    deck = range(len(j13.GAME_DECK))
    first = {d: Counter() for d in DUNS}
    for _ in range(100):
        hand = [j13.GAME_DECK[i] for i in rng.sample(deck, j13.HAND_SIZE)]
        for d, dun in zip(DUNS, sg.naive_arrangement(hand)):
            first[d][sg.strength(dun)] += 1
    for d in DUNS:
        assert all(n <= counts[d].get(s, 0) for s, n in first[d].items()), d


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False))
def test_card_order_never_changes_the_suggestion(rng):
    hand = random_hand(rng, 13, rng.randrange(4))
    shuffled = list(hand)
    rng.shuffle(shuffled)
    a, b = sg.suggest(hand), sg.suggest(shuffled)
    assert [(s.head, s.middle, s.tail, s.exact_value) for s in ranked(a)] == [
        (s.head, s.middle, s.tail, s.exact_value) for s in ranked(b)
    ]


# --- POST /v1/joker-thirteen/arrangements/suggest -----------------------------------------------------

SUGGEST = "joker-thirteen/arrangements/suggest"
DEALT = "As As Ks Qs Js 9h 9d 9c 7h 7d 5c 4c 3d 2h JK JK Td".split()


def test_suggest_answers_the_best_arrangement_with_its_jokers(post):
    status, body = post(SUGGEST, {"cards": DEALT, "alternatives": 1})
    assert status == 200
    assert body["proven_optimal"] is True
    tables = sg.opponent_tables()
    assert body["opponent"] == {"deals": tables.deals, "seed": tables.seed}
    best = body["best"]
    # the two jokers: a ten of spades completing the royal straight flush, a nine making quads
    assert best["duns"]["tail"]["category"] == "straight_flush" and best["duns"]["tail"]["resolved"] == ["Ts"]
    assert best["duns"]["middle"]["category"] == "quads" and best["duns"]["middle"]["resolved"] == ["9s"]
    assert sorted(best["discarded"]) == sorted(["5c", "4c", "3d", "2h"])
    core = sg.suggest(cards(" ".join(DEALT)), alternatives=1)
    assert best["expected_value"] == round(core.best.expected_value, 6)
    assert [best["head"], best["middle"], best["tail"]] == [
        [c.text for c in x] for x in (core.best.head, core.best.middle, core.best.tail)
    ]
    assert best["shoot"] == round(core.best.shoot, 6) and best["win"]["tail"] == round(core.best.win[Dun.TAIL], 6)
    assert len(body["alternatives"]) == 1 and body["alternatives"][0]["expected_value"] <= best["expected_value"]


def test_suggest_labels_in_the_rule_books_words(post):
    _, body = post(SUGGEST, {"cards": DEALT, "alternatives": 0}, headers={"Accept-Language": "zh-TW"})
    assert body["best"]["duns"]["tail"]["label"] == "同花順"
    assert body["alternatives"] == []


@pytest.mark.parametrize(
    ("request_body", "pointers"),
    [
        ({"cards": DEALT[:15]}, ["/cards"]),  # neither 13 nor 17
        ({"cards": DEALT[:12] + ["As"]}, ["/cards/12"]),  # a third ace of spades
        ({"cards": DEALT[:12] + ["JK"] * 1 + ["JK"]}, ["/cards"]),  # 14 cards
        ({"cards": ["JK"] * 4 + DEALT[:9]}, ["/cards/3"]),  # a fourth joker
        ({"cards": DEALT[:13], "alternatives": 11}, ["/alternatives"]),
        ({"cards": DEALT + ["8d"]}, ["/cards"]),  # 18 cards
    ],
)
def test_suggest_refuses_impossible_input_with_422(post, request_body, pointers):
    status, body = post(SUGGEST, request_body)
    assert status == 422
    assert [e["pointer"] for e in body["errors"]] == pointers
