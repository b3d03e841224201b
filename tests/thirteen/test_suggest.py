"""Arrange for me in ordinary 十三支 (``suggest.suggest(..., rules=ORDINARY)``): exact against brute force over
every split (tests/thirteen/reference.py), under the rule set's bonuses and under an override; every
suggestion legal; the opponent table the documented simulation."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.cards import DECK, Card, Suit
from service.rules.thirteen import (
    DUNS,
    GSCAS,
    MIDDLE,
    ORDINARY,
    ORDINARY_DECK,
    RUNG,
    TAIL,
    Category,
    Dun,
    evaluate_dun,
    validate_arrangement,
)
from service.rules.thirteen import suggest as sg
from tests.thirteen.reference import brute_force


def ranked(result: sg.SuggestResult) -> list[sg.Suggestion]:
    return [result.best, *result.alternatives]


def as_reference(result: sg.SuggestResult) -> list[tuple]:
    """The suggester's classes in the reference's form: (value and strengths, (tail, middle, head))."""
    return [
        (
            (s.exact_value, s.duns[Dun.TAIL].strength, s.duns[Dun.MIDDLE].strength, s.duns[Dun.HEAD].strength),
            (s.tail, s.middle, s.head),
        )
        for s in ranked(result)
    ]


def texts(hand) -> list[str]:
    return [c.text for c in hand]


CHUNKS = 8
HANDS_PER_CHUNK = 25  # 200 random 13-card hands of the 52


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_13_card_hands_equal_brute_force_over_all_72072_splits(chunk):
    rng = random.Random(2600 + chunk)
    for _ in range(HANDS_PER_CHUNK):
        hand = rng.sample(DECK, 13)
        expected = brute_force(hand, 4, ORDINARY)
        assert as_reference(sg.suggest(hand, alternatives=3, rules=ORDINARY)) == expected, texts(hand)


# Bonuses far from the house rules': trips pay 20 in the head, quads and straight flushes pay in the tail
# only, 20 and 30 (the house rules pay them more in the middle).
OVERRIDE = ORDINARY.with_bonuses(
    {"head": {"trips": 20}, "middle": {"quads": 0, "straight_flush": 0}, "tail": {"quads": 20, "straight_flush": 30}}
)


def made_hand(rng: random.Random, kind: int) -> list[Card]:
    """13 cards holding trips (kind 0), quads (1) or a straight flush (2), the rest drawn at random."""
    rank = rng.randrange(2, 15)
    if kind == 0:
        core = [Card(rank, s) for s in rng.sample(list(Suit), 3)]
    elif kind == 1:
        core = [Card(rank, s) for s in Suit]
    else:
        suit, high = rng.choice(list(Suit)), rng.randrange(5, 15)
        core = [Card(14 if r == 1 else r, suit) for r in range(high - 4, high + 1)]
    return core + rng.sample([c for c in DECK if c not in core], 13 - len(core))


def placed(s: sg.Suggestion) -> tuple:
    return s.head, s.middle, s.tail


OVERRIDE_CHUNKS = 3
MOVED_HANDS = 8  # per chunk: hands whose best arrangement the override moves
PLAIN_HANDS = 2  # per chunk: hands taken as they come; 30 hands in all


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(OVERRIDE_CHUNKS))
def test_under_a_bonus_override_the_suggestion_equals_brute_force_under_it(chunk):
    """Against brute force under the override, on hands where it matters: those whose best arrangement under
    the override is not the house rules' one (found by drawing made hands until there are enough), and a
    few taken as they come."""
    rng = random.Random(4100 + chunk)
    moved, plain, drawn = [], [], 0
    while len(moved) < MOVED_HANDS:
        drawn += 1
        assert drawn <= 200, "the override should move the best arrangement of some made hands"
        hand = made_hand(rng, drawn % 3)
        result = sg.suggest(hand, alternatives=3, rules=OVERRIDE)
        if placed(result.best) != placed(sg.suggest(hand, alternatives=0, rules=ORDINARY).best):
            moved.append((hand, result))
        elif len(plain) < PLAIN_HANDS:
            plain.append((hand, result))
    for hand, result in moved + plain:
        assert as_reference(result) == brute_force(hand, 4, OVERRIDE), texts(hand)
    # the house rules' answer for the moved hands is brute force's under the house rules, and not the override's
    for hand, _ in moved[:2]:
        house = brute_force(hand, 1, ORDINARY)[0]
        assert as_reference(sg.suggest(hand, alternatives=0, rules=ORDINARY)) == [house]
        assert house[1] != brute_force(hand, 1, OVERRIDE)[0][1]


def test_the_override_is_paid_in_the_opponent_tables_too():
    tables, house = sg.opponent_tables(OVERRIDE), sg.opponent_tables(ORDINARY)
    assert tables.duns[Dun.HEAD].bonus[RUNG[Category.TRIPS]] == 20
    assert tables.duns[TAIL].bonus[RUNG[Category.QUADS]] == 20
    assert tables.duns[TAIL].bonus[RUNG[Category.STRAIGHT_FLUSH]] == 30
    assert (
        tables.duns[MIDDLE].bonus[RUNG[Category.QUADS]] == tables.duns[MIDDLE].bonus[RUNG[Category.STRAIGHT_FLUSH]] == 0
    )
    assert house.duns[MIDDLE].bonus[RUNG[Category.QUADS]] == 2 and house.duns[TAIL].bonus[RUNG[Category.QUADS]] == 1
    # the same deals: only the bonuses differ
    assert all(tables.duns[d].at_most == house.duns[d].at_most for d in DUNS)


def test_every_suggestion_is_legal_and_its_parts_add_up():
    rng = random.Random(13)
    for _ in range(60):
        hand = rng.sample(DECK, 13)
        result = sg.suggest(hand, alternatives=3, rules=ORDINARY)
        assert len(ranked(result)) == 4  # 13 distinct cards always make more than four classes
        for s in ranked(result):
            check = validate_arrangement(s.head, s.middle, s.tail, hand, deck=ORDINARY_DECK)
            assert check.legal, (texts(hand), check.violations)
            assert check.discarded == () and s.discarded == ()
            assert {d: s.duns[d].strength for d in DUNS} == {d: check.duns[d].strength for d in DUNS}
            assert s.expected_value == pytest.approx(s.shoot - s.shot + sum(s.expected_bonus.values()), abs=1e-9)
            assert s.exact_value == round(s.expected_value * result.deals**3)
            assert all(s.win[d] + s.tie[d] <= 1 + 1e-12 for d in DUNS)
        keys = [(s.exact_value, *(s.duns[d].strength for d in (TAIL, MIDDLE, Dun.HEAD))) for s in ranked(result)]
        assert keys == sorted(keys, reverse=True) and len(set(keys)) == 4


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False))
def test_card_order_never_changes_the_suggestion(rng):
    hand = rng.sample(DECK, 13)
    shuffled = list(hand)
    rng.shuffle(shuffled)
    a, b = sg.suggest(hand, rules=ORDINARY), sg.suggest(shuffled, rules=ORDINARY)
    assert as_reference(a) == as_reference(b)


# --- the simulated opponent ---------------------------------------------------------------------------

PREFIX = 1_000  # deals of the simulation run again here (all 10,000 take about half a minute)


def test_the_opponent_table_is_the_documented_simulation():
    """thirteen_opponent.json: 10,000 deals of 13 of the 52 drawn by random.Random(20261130), each set by the
    naive arranger. Each dun counts every deal once, holds only ordinary categories, and the first 1,000
    deals run again here (the documented draw, duns valued by evaluate_dun) are all inside it."""
    path = sg.DATA_DIR / ORDINARY_DECK.opponent
    assert path.name == "thirteen_opponent.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["deals"], data["seed"], data["hand_size"]) == (10_000, 20261130, 13)
    tables = sg.opponent_tables(ORDINARY)
    assert (tables.deals, tables.seed) == (10_000, 20261130)
    counts = {d: {tuple(s): n for s, n in data["duns"][d.value]} for d in DUNS}
    unreachable = {
        RUNG[c] for c in (Category.THREE_JOKERS, Category.PAIR_FLUSH, Category.JOKER_FIVE, Category.REAL_FIVE)
    }
    for d in DUNS:
        assert sum(counts[d].values()) == 10_000
        assert tables.duns[d].strengths == tuple(sorted(counts[d]))
        assert not {s[0] for s in counts[d]} & unreachable, d
    rng = random.Random(data["seed"])
    again = {d: Counter() for d in DUNS}
    for _ in range(PREFIX):
        hand = [DECK[i] for i in rng.sample(range(52), 13)]
        for d, dun in zip(DUNS, sg.naive_arrangement(hand)):
            again[d][evaluate_dun(d, dun, deck=ORDINARY_DECK).strength] += 1
    for d in DUNS:
        assert sum(again[d].values()) == PREFIX
        assert all(n <= counts[d].get(s, 0) for s, n in again[d].items()), d


def test_ordinary_and_joker_thirteen_read_their_own_tables():
    ordinary, joker = sg.opponent_tables(ORDINARY), sg.opponent_tables(GSCAS)
    assert ORDINARY_DECK.opponent != GSCAS.deck.opponent
    assert ordinary.duns[TAIL].strengths != joker.duns[TAIL].strengths
    # the rules choose the tables: passing ordinary's explicitly is the same answer
    hand = random.Random(99).sample(DECK, 13)
    a = sg.suggest(hand, rules=ORDINARY)
    b = sg.suggest(hand, tables=ordinary, rules=ORDINARY)
    assert as_reference(a) == as_reference(b)
