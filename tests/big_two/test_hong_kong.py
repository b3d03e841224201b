"""The turn and the score of the common game (``hong-kong``, 鋤大D) against the house rules (``taiwan``): the
lowest card in the game's first play, a pass that locks a player out of the trick, cards-left scoring
(README "Other Big Two rule sets"; docs/rulings.md B22-B24)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.rules import messages
from service.rules.big_two import (
    HONG_KONG,
    TAIWAN,
    Action,
    cards_left_tiers,
    score_game,
    validate_game,
    validate_move,
)
from service.rules.cards import DECK, Suit, cards
from service.rules.errors import InvalidInputError

# seat 0 holds the clubs, 1 the diamonds, 2 the hearts, 3 the spades: the 3 of clubs (taiwan) and the 3 of
# diamonds (hong-kong) lead from different seats
SUITED = [[c for c in DECK if c.suit is suit] for suit in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)]


def play(text: str, seat: int | None = None) -> Action:
    return Action.play(cards(text), seat)


def codes(result) -> list[str]:
    return [v.code for v in result.violations]


def test_the_games_first_play_must_hold_the_3_of_diamonds_in_hong_kong_and_need_not_in_taiwan():
    hand = cards("3d 4c 9s")
    assert codes(validate_move(hand, None, play("4c"), HONG_KONG, first_lead=True, passed=False)) == [
        "first_play_without_lowest_card"
    ]
    assert validate_move(hand, None, play("3d 4c 9s"[:2]), HONG_KONG, first_lead=True, passed=False).legal
    assert validate_move(cards("3c 4c 9s"), None, play("4c"), TAIWAN, first_lead=True).legal
    found = validate_move(hand, None, play("4c"), HONG_KONG, first_lead=True, passed=False).violations[0]
    assert found.message == "the game's first play must contain 3d"


def test_a_play_after_a_pass_in_the_same_trick_is_illegal_in_hong_kong_and_not_in_taiwan():
    hand = cards("3d 4c 9s")
    assert codes(validate_move(hand, cards("8c"), play("9s"), HONG_KONG, first_lead=False, passed=True)) == [
        "passed_this_trick"
    ]
    assert validate_move(hand, cards("8c"), Action.pass_(), HONG_KONG, first_lead=False, passed=True).legal
    assert validate_move(hand, cards("8c"), play("9s"), TAIWAN, passed=True).legal  # 「PASS 可以回頭」


def test_a_first_play_onto_a_table_is_impossible_input():
    with pytest.raises(InvalidInputError) as refused:
        validate_move(cards("3d 4c"), cards("3c"), play("4c"), HONG_KONG, first_lead=True, passed=False)
    assert [(p.path, p.code) for p in refused.value.problems] == [(("table",), "first_lead_with_table")]


def test_the_holder_of_the_3_of_diamonds_leads_in_hong_kong_with_it():
    record = validate_game(10, SUITED, [play("4d", 1)], HONG_KONG)
    assert (record.legal, [(v.code, v.index) for v in record.violations]) == (
        False, [("first_play_without_lowest_card", 0)]
    )  # fmt: skip
    assert validate_game(10, SUITED, [play("3d", 1)], HONG_KONG).state.turn == 2
    assert [v.code for v in validate_game(10, SUITED, [play("3d", 1)], TAIWAN).violations] == ["not_your_turn"]


def test_a_named_leader_leads_with_any_play():
    record = validate_game(10, SUITED, [play("4h", 2)], HONG_KONG, leader=2)
    assert (record.legal, record.state.turn) == (True, 3)
    with pytest.raises(InvalidInputError) as refused:
        validate_game(10, SUITED, [], HONG_KONG, leader=4)
    assert [(p.path, p.code) for p in refused.value.problems] == [(("leader",), "invalid_seat")]


LOCKED = [play("3d", 1), Action.pass_(2), play("5s", 3), play("6c", 0), play("7d", 1)]


def test_a_seat_that_passed_is_skipped_for_the_rest_of_the_trick_in_hong_kong():
    record = validate_game(10, SUITED, LOCKED, HONG_KONG)
    assert (record.legal, record.state.turn, record.state.table_seat) == (True, 3, 1)  # seat 2 is out
    late = validate_game(10, SUITED, [*LOCKED, play("8h", 2)], HONG_KONG)
    assert [(v.code, v.index, v.params) for v in late.violations] == [("not_your_turn", 5, {"seat": 3, "actual": 2})]


def test_the_trick_ends_when_every_other_seat_has_passed_and_its_last_player_leads():
    record = validate_game(10, SUITED, [*LOCKED, Action.pass_(3), Action.pass_(0)], HONG_KONG)
    state = record.state
    assert (record.legal, state.turn, state.table, state.table_seat) == (True, 1, None, None)


def test_in_taiwan_a_seat_that_passed_plays_again_in_the_trick():
    taiwan = [play("3c", 0), Action.pass_(1), play("5h", 2), play("6s", 3), play("7c", 0), play("8d", 1)]
    record = validate_game(10, SUITED, taiwan, TAIWAN)
    assert (record.legal, record.state.turn) == (True, 2)


def test_cards_left_scoring_worked_by_hand():
    """Base 10; losers with 5, 9 and 13 cards: 10 x 5 x 1, 10 x 9 x 2, 10 x 13 x 4; no 2s, no monsters, no
    winner multiplier, whatever the cards."""
    losers = [cards("2c 2d 2h 4c 5c"), cards("3c 4d 5h 6h 7c 8c 9c Tc Jd"), [*SUITED[3][1:], *cards("Kd")]]
    score = score_game(10, cards("2s"), False, losers, HONG_KONG)
    assert [loser.points for loser in score.losers] == [-50, -180, -520]
    assert score.winner.points == 750 and score.winner.factors == ()
    assert [[f.factor.value for f in loser.factors] for loser in score.losers] == [["cards_left_tier"]] * 3
    assert [loser.multiplier for loser in score.losers] == [1, 2, 4]
    taiwan = score_game(10, cards("2s"), False, losers, TAIWAN)
    assert [loser.points for loser in taiwan.losers] == [-10 * 5 * 1 * 8 * 2, -10 * 9 * 2 * 2, -10 * 13 * 4 * 2 * 2]


def test_a_tables_own_tiers_are_named_by_their_bounds():
    tiers = cards_left_tiers([(13, 5), (10, 3), (5, 2), (1, 1)])
    assert [(t.least, t.most, t.case) for t in tiers] == [(13, 13, "exactly"), (10, 12, "range"), (5, 9, "range"),
                                                          (1, 4, "range")]  # fmt: skip
    table = HONG_KONG.with_parameters(cards_left_tiers=tiers)
    score = score_game(10, cards("2s"), False, [cards("3c 4c 5c 6c 7c 8c 9c"), cards("3d"), SUITED[2]], table)
    texts = [
        messages.render("big-two", "factor." + f.factor.value, f.params)
        for loser in score.losers
        for f in loser.factors
    ]
    assert texts == ["5-9 cards left", "1-4 cards left", "13 cards left"]
    assert [loser.points for loser in score.losers] == [-10 * 7 * 2, -10 * 1 * 1, -10 * 13 * 5]
    with pytest.raises(InvalidInputError):
        HONG_KONG.with_parameters(cards_left_tiers=(tiers[0], replace(tiers[1], most=11), *tiers[2:]))
