"""A Big Two table's rules as data (``BigTwoRules``): the house rules' parameters are the rule book's, and an
inconsistent set is refused naming each inconsistent parameter (docs/rulings.md, B15-B17)."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from service.rules.big_two import (
    CYCLIC_RUNS,
    HAND_SIZE,
    HONG_KONG,
    TAIWAN,
    BigTwoRules,
    CardsLeftTier,
    Combination,
    cards_left_tiers,
)
from service.rules.big_two.rules import EXACT, MAX_BASE, MAX_MULTIPLIER, largest_multiplier
from service.rules.cards import Suit
from service.rules.errors import InvalidInputError
from service.rules.games import find_game

C = Combination


def refusals(**changes) -> list[tuple[tuple, str]]:
    with pytest.raises(InvalidInputError) as refused:
        TAIWAN.with_parameters(**changes)
    assert {p.code for p in refused.value.problems} == {"inconsistent_rules"}
    return [(p.path, p.params["case"]) for p in refused.value.problems]


def test_the_house_rules_are_the_rule_books_parameters():
    assert TAIWAN.suit_order == (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
    assert TAIWAN.plays == (C.SINGLE, C.PAIR, C.STRAIGHT, C.FULL_HOUSE, C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH)
    assert TAIWAN.five_card_order == (C.STRAIGHT, C.FULL_HOUSE, C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH)
    assert TAIWAN.monsters == (C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH)
    assert not TAIWAN.five_beats_lower_kind and TAIWAN.dragons
    assert not TAIWAN.first_play_has_lowest_card and not TAIWAN.pass_locks
    described = TAIWAN.describe()
    assert described["straights"] == ["A2345", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA",
                                      "23456"]  # fmt: skip  # the rule book's ten, low to high
    assert described["straight_suit_card"] == "highest"
    assert [r.rules for r in find_game("big-two").rule_sets] == [TAIWAN, HONG_KONG]


def test_the_straights_a_table_may_allow_are_the_thirteen_cyclic_runs():
    assert len(CYCLIC_RUNS) == 13
    assert CYCLIC_RUNS[0] == (14, 2, 3, 4, 5) and CYCLIC_RUNS[9] == (10, 11, 12, 13, 14)
    assert CYCLIC_RUNS[10:] == ((11, 12, 13, 14, 2), (12, 13, 14, 2, 3), (13, 14, 2, 3, 4))


def test_a_table_is_the_house_rules_with_some_parameters_replaced():
    table = TAIWAN.with_parameters(pass_locks=True, first_play_has_lowest_card=True)
    assert (table.pass_locks, table.first_play_has_lowest_card, table.plays) == (True, True, TAIWAN.plays)
    assert table.digest != TAIWAN.digest and len(table.digest) == 16
    assert TAIWAN.with_parameters() is TAIWAN
    assert TAIWAN.with_parameters(pass_locks=False) == TAIWAN


def test_a_made_up_preset_is_one_declaration():
    """A third rule set is data: straights that wrap past the ace, no monsters, fives over lower kinds."""
    wrapping = replace(
        TAIWAN,
        id="made-up",
        straights=CYCLIC_RUNS,
        monsters=(),
        five_beats_lower_kind=True,
        suit_order=(Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES),
    )
    assert wrapping.describe()["straights"][-3:] == ["JQKA2", "QKA23", "KA234"]
    assert wrapping.describe()["suit_order"] == ["d", "c", "h", "s"]
    assert wrapping.digest != TAIWAN.digest


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"suit_order": (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)}, "suits"),
        ({"suit_order": (Suit.CLUBS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)}, "suits"),
        ({"plays": (C.SINGLE, C.SINGLE)}, "plays"),
        ({"plays": (C.SINGLE, C.DRAGON)}, "plays"),
        ({"plays": (C.PAIR, C.STRAIGHT)}, "plays"),
        ({"five_card_order": (C.STRAIGHT, C.FULL_HOUSE, C.FOUR_OF_A_KIND)}, "five_card_plays"),
        ({"monsters": (C.STRAIGHT_FLUSH, C.FOUR_OF_A_KIND)}, "monsters"),
        ({"monsters": (C.PAIR,)}, "monsters"),
        ({"straights": ((3, 4, 5, 6, 8),)}, "straights"),
        ({"straights": ((3, 4, 5, 6, 7), (3, 4, 5, 6, 7))}, "straights"),
        ({"straights": ()}, "straights"),
        ({"cards_left_tiers": (CardsLeftTier(5, 2, "5+"),)}, "tiers"),
        ({"cards_left_tiers": (CardsLeftTier(8, 2, "8+"), CardsLeftTier(8, 1, "0-8"))}, "tiers"),
        ({"cards_left_tiers": (CardsLeftTier(0, 0, "all"),)}, "tiers"),
        ({"two_finish": 0}, "multiplier"),
    ],
)
def test_an_inconsistent_table_is_refused_naming_the_parameter(changes, expected):
    (name,) = changes
    place = {
        "cards_left_tiers": ("loser_multipliers", "cards_left"),
        "two_finish": ("winner_multipliers", "per_two_finish"),
    }
    assert refusals(**changes) == [(("rules", *place.get(name, (name,))), expected)]


def test_a_five_card_play_left_out_of_the_plays_must_leave_the_five_card_order_too():
    assert refusals(plays=TAIWAN.plays[:-1]) == [(("rules", "five_card_order"), "five_card_plays")]
    assert refusals(plays=TAIWAN.plays[:-1], five_card_order=TAIWAN.five_card_order[:-1]) == [
        (("rules", "monsters"), "monsters")
    ]
    table = TAIWAN.with_parameters(
        plays=TAIWAN.plays[:-1], five_card_order=TAIWAN.five_card_order[:-1], monsters=(C.FOUR_OF_A_KIND,)
    )
    assert C.STRAIGHT_FLUSH not in table.plays


def test_straights_unused_by_any_play_are_allowed_but_a_straight_needs_one():
    no_runs = (C.SINGLE, C.PAIR, C.FULL_HOUSE, C.FOUR_OF_A_KIND)
    table = TAIWAN.with_parameters(
        plays=no_runs, five_card_order=no_runs[2:], monsters=(C.FOUR_OF_A_KIND,), straights=()
    )
    assert table.straights == ()


def test_every_inconsistency_is_named_at_once_and_an_unknown_parameter_too():
    assert refusals(suit_order=(), two_held=0) == [
        (("rules", "suit_order"), "suits"),
        (("rules", "loser_multipliers", "per_two_held"), "multiplier"),
    ]
    assert refusals(colour="red", id="x") == [(("rules", "colour"), "unknown"), (("rules", "id"), "unknown")]


def test_rules_are_frozen_values_equal_by_content():
    given = {f.name: getattr(TAIWAN, f.name) for f in fields(BigTwoRules) if f.init}
    assert BigTwoRules(**given) == TAIWAN and hash(BigTwoRules(**given)) == hash(TAIWAN)
    with pytest.raises(AttributeError):
        TAIWAN.pass_locks = True  # type: ignore[misc]


def written(rules: BigTwoRules) -> dict[str, object]:
    """Every parameter of ``rules`` as a request writes it: ``describe()`` without the id."""
    return {name: value for name, value in rules.describe().items() if name != "id"}


def test_a_table_written_as_get_games_lists_it_is_that_table():
    as_hong_kong = TAIWAN.with_description(written(HONG_KONG))
    assert written(as_hong_kong) == written(HONG_KONG) and as_hong_kong.id == "taiwan"
    assert TAIWAN.with_description({}) is TAIWAN
    locks = TAIWAN.with_description({"pass_locks": True, "winner_multipliers": {"green_dragon_finish": 10}})
    assert (locks.pass_locks, locks.green_dragon_finish, locks.monster_finish) == (True, 10, 2)
    assert written(locks) == {**written(TAIWAN), "pass_locks": True,
                              "winner_multipliers": {**written(TAIWAN)["winner_multipliers"], "green_dragon_finish": 10}}  # fmt: skip  # two lines


def test_a_table_written_wrong_is_refused_naming_each_place():
    wrong = {"suit_order": ["x", "c", "d", "h"], "straights": ["A2346"], "colour": "red",
             "winner_multipliers": {"per_two_finish": 3, "per_three": 2}}  # fmt: skip  # two lines
    with pytest.raises(InvalidInputError) as refused:
        TAIWAN.with_description(wrong)
    assert [(p.path, p.params["case"]) for p in refused.value.problems] == [
        (("rules", "suit_order"), "value"),
        (("rules", "straights"), "value"),
        (("rules", "colour"), "unknown"),
        (("rules", "winner_multipliers", "per_three"), "unknown"),
    ]


def test_multipliers_that_could_make_a_payment_inexact_are_refused():
    """The worst payment at the house table: a loser with 13 cards (x4), four 2s (x16) and a monster (x2)
    against a grand slam (x2) finished with the 3 of clubs (x2) and a green dragon (one 2, x2, x20):
    128 x 160. Three such payments at the largest base stay under 2^53, and so must every table's."""
    assert largest_multiplier(TAIWAN) == 128 * 160
    assert largest_multiplier(HONG_KONG) == 4
    assert MAX_BASE * HAND_SIZE * 3 * MAX_MULTIPLIER < EXACT <= MAX_BASE * HAND_SIZE * 3 * (MAX_MULTIPLIER + 1)
    most = HONG_KONG.with_parameters(cards_left_tiers=cards_left_tiers([(1, MAX_MULTIPLIER)]))
    assert largest_multiplier(most) == MAX_MULTIPLIER
    with pytest.raises(InvalidInputError) as refused:
        HONG_KONG.with_parameters(cards_left_tiers=cards_left_tiers([(1, MAX_MULTIPLIER + 1)]))
    assert [(p.path, p.params) for p in refused.value.problems] == [
        (("rules",), {"case": "exact", "most": MAX_MULTIPLIER + 1, "limit": MAX_MULTIPLIER})
    ]
