"""The service's round score (``score_round``) at any table, held to the plain reference of the rules folder's
steps (tests/thirteen/table_reference.py): every worked table of tests/thirteen/test_table_reference.py and
random tables and deals, pair by pair and part by part, with each player's special, foul, sweeps and home
run; a table the reference refuses is refused naming the same player. Then the engine's own properties:
totals sum to zero, the order of players changes no player's result, a third preset is one declaration."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.errors import InvalidInputError
from service.rules.thirteen import (
    ORDINARY,
    SHISANSHUI,
    Arrangement,
    Declare,
    Foul,
    Special,
    SpecialVsSpecial,
    Sweep,
    ThirteenRules,
    score_round,
)
from tests.thirteen import test_table_reference as worked
from tests.thirteen.table_reference import (
    ONE_SIX,
    ORDINARY_TABLE,
    PARTS,
    TWO_FOUR,
    Refused,
    score_table,
)
from tests.thirteen.table_reference import SHISANSHUI as SHISANSHUI_TABLE
from tests.thirteen.tables import rules_of


def arrangements(players: list[dict[str, Any]]) -> list[Arrangement]:
    return [Arrangement(p["head"], p["middle"], p["tail"], declare=p.get("declare")) for p in players]


def assert_scored_alike(players: list[dict[str, Any]], table: dict[str, Any]) -> None:
    """The service scores the deal as the reference does, or refuses it naming the same first player."""
    rules = rules_of(table)
    try:
        expected = score_table(players, table)
    except Refused as refused:
        with pytest.raises(InvalidInputError) as raised:
            score_round(arrangements(players), rules)
        named = {p.path[:2] for p in raised.value.problems}
        assert ("players", refused.seat) in named  # the reference stops at the first; the service names each
        assert min(named) == ("players", refused.seat)
        return
    served = score_round(arrangements(players), rules)
    assert [(m.a, m.b, m.points_a + m.parts_a.home_run, m.parts_a._asdict()) for m in served.matchups] == [
        (p.a, p.b, p.points_a, p.parts_a) for p in expected.pairs
    ]
    assert [(p.total, p.special, p.fouled, list(p.swept), p.made_home_run) for p in served.players] == [
        (p.total, p.special, p.fouled, p.swept, p.home_run) for p in expected.players
    ]
    for player in served.players:
        assert player.parts._asdict() == {
            part: sum(m.parts_a._asdict()[part] * (1 if m.a == player.seat else -1)
                      for m in served.matchups if player.seat in (m.a, m.b))
            for part in PARTS
        }  # fmt: skip  # a player's parts are its pairs', signed by its side
        assert (player.shots, player.home_run, player.bonus) == (
            player.parts.sweep,
            player.parts.home_run,
            player.parts.bonuses,
        )


TABLES = {
    "ordinary": ORDINARY_TABLE,
    "shisanshui": SHISANSHUI_TABLE,
    "one-six": ONE_SIX,
    "two-four": TWO_FOUR,
    "difference": SHISANSHUI_TABLE | {"special_vs_special": "difference"},
}
WORKED = {
    "ruling-14": worked.RULING_14,
    "mixed": worked.MIXED,
    "ties": worked.TIES,
    "dragon": worked.DRAGON_TABLE,
    "fouls": worked.FOULS,
    "specials": worked.three_specials(),
    "declared": [worked.player(worked.DRAGON, "dragon"), worked.player(worked.SIX_PAIRS, "six_pairs"),
                 *worked.DRAGON_TABLE[2:]],
}  # fmt: skip  # one deal a line


def test_shisanshui_is_the_reference_tables_column():
    assert rules_of(SHISANSHUI_TABLE) == replace(SHISANSHUI, id="ordinary")
    assert rules_of(ORDINARY_TABLE) == ORDINARY


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
@pytest.mark.parametrize("deal", WORKED.values(), ids=WORKED.keys())
def test_the_worked_tables_score_as_the_reference(deal, table):
    assert_scored_alike(deal, table)


def test_ruling_14_a_sweeps_b_plus_8_and_the_dragon_takes_36_from_each():
    score = score_round(arrangements(worked.RULING_14), SHISANSHUI)
    a_b = score.matchups[0]
    assert (a_b.a, a_b.b, a_b.points_a, a_b.parts_a.duns, a_b.parts_a.bonuses, a_b.parts_a.sweep) == (0, 1, 8, 3, 1, 4)
    assert a_b.shot == "a" and a_b.duns == {"head": "a", "middle": "a", "tail": "a"}
    score = score_round(arrangements(worked.DRAGON_TABLE), SHISANSHUI)
    assert [p.special for p in score.players] == [Special.DRAGON, Special.SIX_PAIRS, None, None]
    assert [p.total for p in score.players] == [108, -28, -39, -41]
    assert not score.players[0].fouled  # its duns are out of order: scored by its special, never fouled
    assert [m.duns for m in score.matchups][:5] == [None] * 5


def test_a_fouled_hand_at_a_refusing_table_is_refused_as_the_house_rules_refuse_it():
    with pytest.raises(InvalidInputError) as raised:
        score_round(arrangements(worked.FOULS), ORDINARY)
    assert [(p.path, p.code) for p in raised.value.problems] == [
        (("players", 1, "head"), "head_not_below_middle"),
        (("players", 2, "head"), "head_not_below_middle"),
    ]


def test_a_fouled_hand_loses_all_with_the_winners_bonuses_and_two_fouled_pay_each_other_nothing():
    """十三水: P0 sweeps fouled P1 and P2, each with 3 duns and its bonuses 2 + 7 + 4, doubled: 32 each."""
    score = score_round(arrangements(worked.FOULS), SHISANSHUI)
    assert [p.fouled for p in score.players] == [False, True, True, False]
    by_pair = {(m.a, m.b): m for m in score.matchups}
    assert (by_pair[0, 1].points_a, by_pair[0, 1].parts_a.bonuses, by_pair[0, 1].shot) == (32, 13, "a")
    assert (by_pair[1, 2].points_a, by_pair[1, 2].duns, by_pair[1, 2].shot) == (0, None, None)
    assert by_pair[1, 3].duns == {"head": "b", "middle": "b", "tail": "b"}


@pytest.mark.parametrize(
    ("deal", "seat", "declare", "table", "case"),
    [
        (worked.DRAGON_TABLE, 2, "six_pairs", ONE_SIX, "not_made"),
        (worked.DRAGON_TABLE, 0, "three_straights", ONE_SIX | {"specials": {"dragon": 13}}, "not_listed"),
        (worked.DRAGON_TABLE, 1, "six_pairs", SHISANSHUI_TABLE, "not_taken"),
        (worked.RULING_14, 1, "six_pairs", ORDINARY_TABLE, "not_taken"),  # a table paying no special
    ],
)
def test_a_declaration_the_table_cannot_take_is_a_problem_naming_the_player(deal, seat, declare, table, case):
    players = arrangements(deal)
    players[seat].declare = declare
    with pytest.raises(InvalidInputError) as raised:
        score_round(players, rules_of(table))
    assert [(p.path, p.code, p.params["case"]) for p in raised.value.problems] == [
        (("players", seat, "declare"), "declaration", case)
    ]


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_tables_and_deals_score_as_the_reference(rng):
    table = worked.random_table(rng)
    assert_scored_alike(worked.random_deal(rng, table), table)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(sorted(TABLES)))
def test_the_order_of_players_never_changes_a_players_result(rng, name):
    rules = rules_of(TABLES[name])
    players = arrangements(worked.random_deal(rng, TABLES[name]))
    order = rng.sample(range(4), 4)  # seat s of the new order is the player of seat order[s]
    try:
        before = score_round(players, rules).players
    except InvalidInputError:
        return  # a foul refused: refused in any order (the reference tests say whom it names)
    after = score_round([players[k] for k in order], rules).players
    for seat, k in enumerate(order):
        mine, theirs = after[seat], before[k]
        assert (mine.total, mine.parts, mine.special, mine.fouled, mine.made_home_run) == (
            theirs.total,
            theirs.parts,
            theirs.special,
            theirs.fouled,
            theirs.made_home_run,
        )
        assert sorted(order[j] for j in mine.swept) == list(theirs.swept)
    assert sum(p.total for p in after) == 0


def test_a_third_preset_is_one_declaration():
    """A made-up table, 'double sweep': 十三水 without specials and with the 1-6 sweep's 3 points, declared as
    one instance and scored by the same engine, as the reference scores its column."""
    double_sweep = ThirteenRules(
        id="double-sweep",
        dun_points=1,
        majority_points=0,
        sweep=Sweep.ALL_DUNS_WON,
        sweep_points=3,
        sweep_multiplier=2,
        sweep_multiplies_bonuses=False,
        home_run_points=0,
        home_run_multiplier=1,
        foul=Foul.LOSES_ALL,
        bonus=dict(SHISANSHUI.bonus),
        deck=SHISANSHUI.deck,
    )
    table = SHISANSHUI_TABLE | {
        "sweep_points": 3,
        "sweep_multiplies_bonuses": False,
        "home_run_multiplier": 1,
        "specials": {},
        "special_vs_special": None,
        "declare": None,
    }
    assert replace(rules_of(table), id="double-sweep") == double_sweep
    assert (
        rules_of(table).with_bonuses({}).canonical().replace('"ordinary"', '"double-sweep"') == double_sweep.canonical()
    )
    result = score_table(worked.RULING_14, table)
    served = score_round(arrangements(worked.RULING_14), double_sweep)
    assert [p.total for p in served.players] == [p.total for p in result.players]
    assert served.matchups[0].points_a == (3 + 3) * 2 + 1  # A sweeps B: 3 duns and 3 points doubled, bonus 1
    assert (double_sweep.declare, double_sweep.special_vs_special) == (None, None)
    assert Declare.AUTOMATIC is SHISANSHUI.declare and SpecialVsSpecial.DIFFERENCE.value == "difference"


def test_random_seeded_deals_at_shisanshui_cover_specials_fouls_sweeps_and_home_runs():
    """The random deals above reach every kind of result at 十三水 (so the equality is not vacuous)."""
    rng = random.Random(14)
    kinds: set[str] = set()
    for _ in range(400):
        players = worked.random_deal(rng, SHISANSHUI_TABLE)
        score = score_round(arrangements(players), SHISANSHUI)
        for p in score.players:
            kinds |= {"special"} if p.special else set()
            kinds |= {"fouled"} if p.fouled else set()
            kinds |= {"swept"} if p.swept else set()
            kinds |= {"home run"} if p.made_home_run else set()
    assert kinds == {"special", "fouled", "swept", "home run"}
