"""Arrange for me at any table's scoring (``suggest.suggest(..., rules=...)``, ``pair_value``): exact against
brute force over every split at 十三水, the 1-6 and the 2-4 scorings (tests/thirteen/suggest_table_reference.py,
the spec's steps 1-3 from first principles); the house tables answered as before; the special a hand is
scored by, automatically or by the player's choice."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product

import numpy as np
import pytest

from service.rules.cards import DECK, JOKER, Card, cards
from service.rules.thirteen import (
    DUNS,
    GAME_DECK,
    GSCAS,
    ORDINARY,
    ORDINARY_DECK,
    SHISANSHUI,
    Dun,
    validate_arrangement,
)
from service.rules.thirteen import suggest as sg
from service.rules.thirteen.pair_value import FORMS_KEPT, applied, pair_form
from service.rules.thirteen.rules import Sweep
from service.rules.thirteen.specials import Special
from tests.thirteen import table_reference as tr
from tests.thirteen.reference import brute_force as house_brute_force
from tests.thirteen.suggest_table_reference import brute_force, expected
from tests.thirteen.tables import ONE_SIX, TWO_FOUR
from tests.thirteen.test_suggest import made_hand

TABLES = {  # the service's rule set and the reference's dict of the spec's column
    "shisanshui": (SHISANSHUI, tr.SHISANSHUI),
    "one-six": (ONE_SIX, tr.ONE_SIX),
    "two-four": (TWO_FOUR, tr.TWO_FOUR),
    "ordinary": (ORDINARY, tr.ORDINARY_TABLE),
}


def ranked(result: sg.SuggestResult) -> list[sg.Suggestion]:
    return [result.best, *result.alternatives]


def keys(result: sg.SuggestResult) -> list[tuple]:
    """The suggester's classes as the reference's keys: (value x N**3, tail, middle, head strengths)."""
    return [(s.exact_value, *(s.duns[d].strength for d in (Dun.TAIL, Dun.MIDDLE, Dun.HEAD))) for s in ranked(result)]


def texts(hand) -> list[str]:
    return [c.text for c in hand]


def seeded_hands(seed: int, count: int, made_every: int) -> list[list[Card]]:
    """``count`` hands of 13 of the 52: every ``made_every``-th one a made hand, the others as they come."""
    rng = random.Random(seed)
    return [made_hand(rng, i % 3) if i % made_every == made_every - 1 else rng.sample(DECK, 13) for i in range(count)]


CHUNKS = 8
HANDS_PER_CHUNK = 25  # 200 seeded hands per table, a fifth of them holding trips, quads or a straight flush
CASES = [(name, chunk) for name in ("shisanshui", "one-six") for chunk in range(CHUNKS)] + [("two-four", 0)]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "chunk"), CASES)
def test_13_card_hands_equal_brute_force_over_all_72072_splits_at_the_table(name, chunk):
    rules, table = TABLES[name]
    count = HANDS_PER_CHUNK if name != "two-four" else 20
    for hand in seeded_hands(7100 + chunk, count, made_every=5):
        expected_keys = brute_force(hand, 4, table, ORDINARY_DECK)
        assert keys(sg.suggest(hand, alternatives=3, rules=rules)) == expected_keys, texts(hand)


def outcomes_of(rng: random.Random, n: int, deals: int) -> np.ndarray:
    """``n`` random outcomes of one dun (won, tied, lost, own bonus weight, opponent's bonus weight)."""
    won = np.array([rng.randrange(deals + 1) for _ in range(n)])
    tied = np.array([rng.randrange(deals + 1 - w) for w in won])
    own = won * np.array([rng.choice((0, 0, 1, 2, 7, 9)) for _ in range(n)])
    theirs = np.array([rng.randrange(5 * deals) for _ in range(n)])
    return np.stack([won, tied, deals - won - tied, own, theirs], axis=1).astype(np.int64)


@pytest.mark.parametrize("name", list(TABLES))
def test_the_pair_form_is_the_specs_scoring_from_first_principles(name):
    """On random outcomes of three duns, ``PairForm.value`` is the reference's expectation over the 27
    combinations paid by ``table_reference.gain``, whichever dun is which."""
    rules, table = TABLES[name]
    rng = random.Random(len(name))  # the same draws on every run
    per_dun = [outcomes_of(rng, 300, 97) for _ in DUNS]
    want = expected(per_dun, table)
    form = pair_form(rules)
    for row, value in enumerate(want.tolist()):
        x, y, z = (tuple(d[row].tolist()) for d in per_dun)
        assert form.value(x, y, z) == form.value(z, x, y) == form.value(y, z, x) == value
        assert applied(form.fixing(x), y) == form.third(x, y)  # the search's matrix of one dun fixed


def test_under_the_house_scoring_the_objective_is_the_house_formula():
    """The general objective under ``ORDINARY``'s scoring, brute force from first principles, is the house
    formula P(not losing any) - P(the opponent not losing any) + bonuses (tests/thirteen/reference.py)."""
    for hand in seeded_hands(7300, 10, made_every=2):
        want = house_brute_force(hand, 4, ORDINARY)
        assert brute_force(hand, 4, tr.ORDINARY_TABLE, ORDINARY_DECK) == [key for key, _ in want], texts(hand)


def joker_hand(rng: random.Random, size: int) -> list[Card]:
    reals = [c for c in GAME_DECK if c is not JOKER]
    jokers = rng.randrange(4)
    return rng.sample(reals, size - jokers) + [JOKER] * jokers


@pytest.mark.slow
def test_the_house_tables_are_answered_as_before():
    """Under the house scoring ``suggest`` keeps its own search; the table search, asked the same, answers
    the same classes, members and values: 13 cards of ordinary 十三支, 13 and 17 of Joker Thirteen."""
    rng = random.Random(7400)
    hands = [(ORDINARY, rng.sample(DECK, 13)) for _ in range(30)]
    hands += [(GSCAS, joker_hand(rng, 13)) for _ in range(10)] + [(GSCAS, joker_hand(rng, 17)) for _ in range(5)]
    for rules, hand in hands:
        assert sg.house_scoring(rules)
        tables = sg.opponent_tables(rules)
        ordered = sorted(hand, key=lambda c: c.index, reverse=True)
        house = sg._house_search(ordered, 4, tables)
        assert sg.table_search(ordered, 4, tables, pair_form(rules)) == house, texts(hand)
        assert [s.exact_value for s in ranked(sg.suggest(hand, 3, rules=rules))] == [key[0] for key, _ in house]


def test_no_table_of_the_spec_but_the_house_one_is_searched_as_the_house():
    assert sg.house_scoring(ORDINARY) and sg.house_scoring(GSCAS)
    assert not any(sg.house_scoring(rules) for rules in (SHISANSHUI, ONE_SIX, TWO_FOUR))
    assert not sg.house_scoring(replace(ORDINARY, sweep_points=2))


@pytest.mark.parametrize("name", ["shisanshui", "one-six", "two-four"])
def test_every_suggestion_is_legal_and_its_figures_add_up_at_the_table(name):
    rules, _ = TABLES[name]
    for hand in seeded_hands(7500, 12, made_every=3):
        result = sg.suggest(hand, alternatives=3, rules=rules)
        n = result.deals
        for s in ranked(result):
            check = validate_arrangement(s.head, s.middle, s.tail, hand, deck=ORDINARY_DECK)
            assert check.legal, (texts(hand), check.violations)
            assert s.exact_value == round(s.expected_value * n**3)
            # the sweep is all three duns won at these tables
            assert s.shoot == pytest.approx(np.prod([s.win[d] for d in DUNS]), abs=1e-12)
            assert s.shot == pytest.approx(np.prod([1 - s.win[d] - s.tie[d] for d in DUNS]), abs=1e-12)
        values = [k[0] for k in keys(result)]
        assert values == sorted(values, reverse=True)


DRAGON = "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"


def test_a_dragon_under_shisanshui_is_scored_as_the_dragon_at_36():
    result = sg.suggest(cards(DRAGON), rules=SHISANSHUI)
    n = result.deals
    assert result.special == sg.SpecialChoice(Special.DRAGON, 36.0, 36 * n**3, "automatic", True)
    # the duns are still shown, legal, and worth far less than the dragon
    best = result.best
    assert validate_arrangement(best.head, best.middle, best.tail, cards(DRAGON), deck=ORDINARY_DECK).legal
    assert best.exact_value < result.special.exact_value


SIX_PAIRS = "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc 3s"
THREE_QUADS = "As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Qc 2s"  # six pairs at the 1-6 scoring, which lists no three quads


def test_under_one_six_six_pairs_are_declared_or_played_as_duns_whichever_is_worth_more():
    declare = sg.suggest(cards(SIX_PAIRS), rules=ONE_SIX)
    n = declare.deals
    assert declare.special == sg.SpecialChoice(Special.SIX_PAIRS, 3.0, 3 * n**3, "player", True)
    assert declare.best.exact_value < 3 * n**3  # two pairs, two pairs and a pair seldom sweep
    play = sg.suggest(cards(THREE_QUADS), rules=ONE_SIX)
    assert play.special == sg.SpecialChoice(Special.SIX_PAIRS, 3.0, 3 * n**3, "player", False)
    assert play.best.exact_value > 3 * n**3  # quads, quads and trips: the duns sweep more often than not
    # at 十三水 the same cards are three quads, scored by themselves whatever the duns are worth
    automatic = sg.suggest(cards(THREE_QUADS), rules=SHISANSHUI)
    assert automatic.special == sg.SpecialChoice(Special.THREE_QUADS, 20.0, 20 * n**3, "automatic", True)
    assert automatic.best.exact_value > 20 * n**3


def test_no_special_where_the_table_pays_none_or_the_hand_makes_none():
    assert sg.suggest(cards(DRAGON), rules=ORDINARY).special is None
    assert sg.suggest(cards(DRAGON), rules=TWO_FOUR).special is None
    assert sg.suggest(cards("As Ah Kd Qc Ts 9h 8d 7c 6s 5h 4d 3c 3s"), rules=ONE_SIX).special is None
    assert sg.suggest(joker_hand(random.Random(1), 17)).special is None  # Joker Thirteen pays no specials


def test_a_17_card_deal_at_a_table_of_its_own_keeps_13_and_is_legal():
    """Joker Thirteen with a won dun 1 and a doubled sweep: 13 of the 17 set, 4 discarded, legal."""
    rules = replace(GSCAS, id="own", dun_points=1, sweep=Sweep.ALL_DUNS_WON, sweep_points=0, sweep_multiplier=2)
    rng = random.Random(7600)
    for _ in range(3):
        hand = joker_hand(rng, 17)
        result = sg.suggest(hand, alternatives=2, rules=rules)
        for s in ranked(result):
            check = validate_arrangement(s.head, s.middle, s.tail, hand)
            assert check.legal and len(s.discarded) == 4
        values = [s.exact_value for s in ranked(result)]
        assert values == sorted(values, reverse=True)


def test_the_forms_kept_are_bounded():
    for sweep_points, multiplier in product(range(4), range(1, 5)):
        pair_form(replace(SHISANSHUI, sweep_points=sweep_points, sweep_multiplier=multiplier))
    from service.rules.thirteen import pair_value

    assert pair_value._form.cache_info().currsize <= FORMS_KEPT
    assert sg._tables.cache_info().maxsize == sg.TABLES_KEPT
