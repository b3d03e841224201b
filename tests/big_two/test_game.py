"""怎麼玩: whole game records replayed by validate_game."""

import pytest

from service.rules.big_two import Action, score_game, validate_game
from service.rules.cards import DECK, Card, cards
from service.rules.errors import InvalidInputError

# Seat 0 can go out alone in four leads: straight, full house, pair, single.
SLAM_DEAL = [
    "3c 4c 5d 6h 7s 8c 8d 8h 9c 9d Tc Td Js",
    "2c 3d 3h 3s 4d 4h 4s 5c 5h 5s 6c 6d 6s",
    "2d 2h 7c 7d 7h 8s 9h 9s Th Ts Jc Jd Jh",
    "2s Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As",
]
# Seat 1 can shed twelve cards quickly, so seat 0 can act while seat 1 holds one card.
RACE_DEAL = [
    "3c 4c 5d 6h 7s 8c 8d 8h 9c 9d Tc Td Js",
    "9h Th Jc Qd Kc Ac Ad Ah 4d 4h 5c 6c 7c",
    "2c 2d 3d 3h 3s 4s 5h 5s 6d 6s 7d 7h 8s",
    "2h 2s 9s Ts Jd Jh Qc Qh Qs Kd Kh Ks As",
]
DRAGON = "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"


def hands_of(deal: list[str]) -> list[list[Card]]:
    hands = [cards(text) for text in deal]
    assert sorted(c.index for hand in hands for c in hand) == list(range(52))
    return hands


def deal_with(**seats: str) -> list[list[Card]]:
    """Give the named seats (``s0``...``s3``) these cards and the others the rest, in deck order."""
    fixed = {int(name[1:]): cards(text) for name, text in seats.items()}
    rest = [c for c in DECK if not any(c in hand for hand in fixed.values())]
    hands = []
    for seat in range(4):
        if seat in fixed:
            hands.append(fixed[seat])
        else:
            hands.append(rest[:13])
            rest = rest[13:]
    return hands


def act(seat: int, text: str | None = None) -> Action:
    return Action.pass_(seat) if text is None else Action.play(cards(text), seat)


def passes(*seats: int) -> list[Action]:
    return [Action.pass_(s) for s in seats]


def codes(record) -> list[tuple[str, int]]:
    return [(v.code, v.index) for v in record.violations]


def factor_codes(factor_list) -> list[tuple[str, int]]:
    return [(f.factor.value, f.value) for f in factor_list]


SLAM = [
    act(0, "3c 4c 5d 6h 7s"),
    *passes(1, 2, 3),
    act(0, "8c 8d 8h 9c 9d"),
    *passes(1, 2, 3),
    act(0, "Tc Td"),
    *passes(1, 2, 3),
    act(0, "Js"),
]


# ---- who leads, who follows


def test_three_of_clubs_holder_leads_first():
    record = validate_game(10, hands_of(SLAM_DEAL), [act(1, "2c")])
    assert (record.legal, codes(record)) == (False, [("not_your_turn", 0)])
    assert record.violations[0].message == "it is seat 0's turn, not seat 1's"
    rotated = hands_of(SLAM_DEAL[2:] + SLAM_DEAL[:2])  # the 3 of clubs now sits with seat 2
    record = validate_game(10, rotated, [])
    assert (record.legal, record.state.turn, record.state.table) == (True, 2, None)


def test_first_play_need_not_contain_the_three_of_clubs():
    record = validate_game(10, hands_of(SLAM_DEAL), [act(0, "Js")])
    assert (record.legal, record.state.turn, record.state.table.category) == (True, 1, "single")


def test_seat_s_plus_1_acts_after_seat_s_the_rule_books_counterclockwise():
    record = validate_game(10, hands_of(SLAM_DEAL), [act(0, "Tc"), act(2, "Th")])
    assert codes(record) == [("not_your_turn", 1)]
    after_seat_3 = validate_game(10, hands_of(SLAM_DEAL), [act(0, "Tc"), *passes(1, 2), act(3, "Ac")])
    assert (after_seat_3.legal, after_seat_3.state.turn) == (True, 0)


# ---- passes and tricks


NO_LOCK = [act(0, "4c"), act(1), act(2, "5h"), act(3), act(0), act(1, "6c")]


def test_pass_does_not_lock_a_player_out_of_the_trick():
    record = validate_game(10, hands_of(RACE_DEAL), NO_LOCK)
    assert (record.legal, record.finished) == (True, False)
    assert (record.state.turn, [str(c) for c in record.state.table.cards], record.state.table_seat) == (2, ["6c"], 1)


def test_three_passes_in_a_row_end_the_trick_and_the_last_player_leads_anything():
    record = validate_game(10, hands_of(RACE_DEAL), [*NO_LOCK, *passes(2, 3, 0)])
    assert (
        record.legal,
        record.state.turn,
        record.state.table,
        record.state.table_seat,
        record.state.passes_in_row,
    ) == (True, 1, None, None, 0)
    record = validate_game(10, hands_of(RACE_DEAL), [*NO_LOCK, *passes(2, 3, 0), act(1, "Ac Ad")])
    assert (record.legal, record.state.table.category) == (True, "pair")


def test_the_new_leader_cannot_pass():
    record = validate_game(10, hands_of(RACE_DEAL), [*NO_LOCK, *passes(2, 3, 0, 1)])
    assert codes(record) == [("leader_cannot_pass", 9)]


def test_two_passes_do_not_end_the_trick():
    record = validate_game(10, hands_of(RACE_DEAL), [act(0, "4c"), *passes(1, 2)])
    assert (record.state.turn, record.state.passes_in_row, str(record.state.table.cards[0])) == (3, 2, "4c")


def test_no_top_rule_a_player_need_not_play_its_highest_single_when_the_next_holds_one_card():
    # 「不採用頂大規則」: seat 1 is down to one card; seat 0 may answer a single with a low one, or pass.
    down_to_one = [
        act(0, "3c 4c 5d 6h 7s"), act(1, "9h Th Jc Qd Kc"), *passes(2, 3, 0),
        act(1, "Ac Ad Ah 4d 4h"), *passes(2, 3, 0),
        act(1, "5c"), *passes(2, 3, 0),
        act(1, "6c"), *passes(2, 3),
    ]  # fmt: skip
    record = validate_game(10, hands_of(RACE_DEAL), [*down_to_one, act(0, "8c")])
    assert (record.legal, record.state.cards_left, record.state.turn) == (True, (7, 1, 13, 13), 1)
    assert validate_game(10, hands_of(RACE_DEAL), [*down_to_one, act(0)]).legal is True


# ---- the end of the game and the first illegal action


def test_game_ends_the_moment_a_hand_is_empty():
    record = validate_game(10, hands_of(SLAM_DEAL), SLAM)
    assert (record.legal, record.finished, record.winner, record.state.turn) == (True, True, 0, None)
    assert record.state.cards_left == (0, 13, 13, 13)


def test_any_action_after_the_game_ended_is_a_violation():
    record = validate_game(10, hands_of(SLAM_DEAL), [*SLAM, act(1)])
    assert (record.legal, codes(record), record.finished, record.winner, record.score) == (
        False,
        [("action_after_game_end", 13)],
        True,
        0,
        None,
    )


def test_first_illegal_action_is_reported_with_its_index_and_replay_stops_there():
    actions = [act(0, "4c"), act(1), act(2, "3d"), act(3, "2d"), act(0)]
    record = validate_game(10, hands_of(RACE_DEAL), actions)
    assert (record.legal, codes(record)) == (False, [("not_higher", 2)])
    assert (record.state.actions_replayed, record.state.turn, record.state.cards_left) == (2, 2, (12, 13, 13, 13))


def test_all_problems_of_the_first_illegal_action_are_reported():
    record = validate_game(10, hands_of(RACE_DEAL), [act(0, "2h 4h 5h 6h 8h")])
    assert codes(record) == [("card_not_in_hand", 0), ("flush_not_a_combination", 0)]


def test_unfinished_legal_record_returns_the_state():
    record = validate_game(10, hands_of(RACE_DEAL), NO_LOCK)
    state = record.state
    assert (record.legal, record.finished, record.winner, record.score, record.points) == (
        True,
        False,
        None,
        None,
        None,
    )
    assert (state.turn, state.table_seat, state.passes_in_row, state.cards_left, state.actions_replayed) == (
        2,
        1,
        0,
        (12, 12, 12, 13),
        6,
    )
    assert state.table.strength == (1, 3, 0)
    assert [str(c) for c in state.hands[1]] == "4d 4h 5c 7c 9h Th Jc Qd Kc Ac Ad Ah".split()


# ---- score of a finished record, grand slam derived from it


def test_grand_slam_is_derived_when_the_first_player_wins_and_no_one_else_played():
    record = validate_game(10, hands_of(SLAM_DEAL), SLAM)
    assert (record.legal, record.grand_slam) == (True, True)
    assert factor_codes(record.score.winner.factors) == [("grand_slam", 2)]
    assert [factor_codes(loser.factors) for loser in record.score.losers] == [
        [("cards_left_tier", 4), ("twos_held", 2)],
        [("cards_left_tier", 4), ("twos_held", 4)],
        [("cards_left_tier", 4), ("twos_held", 2), ("monster_held", 2)],
    ]
    assert record.points == (10400, -2080, -4160, -4160)


def test_no_grand_slam_once_another_player_has_played_a_card():
    actions = [
        act(0, "Tc"), act(1, "2c"), *passes(2, 3, 0),
        act(1, "3d"), *passes(2, 3), act(0, "Td"), *passes(1, 2, 3),
        act(0, "3c 4c 5d 6h 7s"), *passes(1, 2, 3), act(0, "8c 8d 8h 9c 9d"), *passes(1, 2, 3), act(0, "Js"),
    ]  # fmt: skip
    record = validate_game(10, hands_of(SLAM_DEAL), actions)
    assert (record.legal, record.finished, record.winner, record.grand_slam) == (True, True, 0, False)
    assert record.score.winner.factors == ()
    assert record.points == (4490, -330, -2080, -2080)


def test_finished_record_scores_like_score_game_with_seats():
    record = validate_game(10, hands_of(SLAM_DEAL), SLAM)
    expected = score_game(10, cards("Js"), True, [record.state.hands[s] for s in (1, 2, 3)])
    assert [loser.points for loser in record.score.losers] == [loser.points for loser in expected.losers]
    assert [loser.seat for loser in record.score.losers] == [1, 2, 3]
    assert (record.score.winner.seat, record.score.winner.points) == (0, expected.winner.points)
    assert sum(record.points) == 0


# ---- dragons in a game (README ruling 1)


def test_dragon_as_the_games_first_play_by_the_three_of_clubs_holder_is_a_grand_slam():
    dragon = DRAGON.replace("3h", "3c")
    record = validate_game(1, deal_with(s0=dragon), [act(0, dragon)])
    assert (record.legal, record.finished, record.winner, record.grand_slam) == (True, True, 0, True)
    assert factor_codes(record.score.winner.factors) == [
        ("grand_slam", 2),
        ("three_of_clubs_finish", 2),
        ("twos_finish", 2),
        ("monster_finish", 2),
    ]
    assert record.score.winner.multiplier == 16
    assert sum(record.points) == 0


def test_dragon_may_be_played_while_following_on_ones_first_turn():
    hands = deal_with(s1=DRAGON)  # seat 0 gets the 3 of clubs with the rest
    record = validate_game(1, hands, [act(0, "3c"), act(1, DRAGON)])
    assert (record.legal, record.winner, record.grand_slam) == (True, 1, False)
    assert factor_codes(record.score.winner.factors) == [("twos_finish", 2), ("monster_finish", 2)]


def test_dragon_may_be_played_after_passing_while_the_hand_is_still_complete():
    hands = deal_with(s1=DRAGON)
    assert [str(c) for c in hands[0][:7]] == "2c 2h 2s 3c 3d 3s 4c".split()
    record = validate_game(1, hands, [act(0, "3c"), *passes(1, 2, 3), act(0, "4c"), act(1, DRAGON)])
    assert (record.legal, record.winner, record.grand_slam) == (True, 1, False)


def test_green_dragon_finish_in_a_game():
    hearts = " ".join(str(c) for c in DECK if c.suit == "h")
    record = validate_game(1, deal_with(s2=hearts), [act(0, "3c"), act(1), act(2, hearts)])
    assert (record.legal, record.winner) == (True, 2)
    assert factor_codes(record.score.winner.factors) == [("twos_finish", 2), ("green_dragon_finish", 20)]


def test_a_dragon_cannot_be_played_once_a_card_has_left_the_hand():
    dragon = DRAGON.replace("3h", "3c")
    record = validate_game(1, deal_with(s0=dragon), [act(0, "3c"), *passes(1, 2, 3), act(0, dragon)])
    assert codes(record) == [("card_not_in_hand", 4), ("dragon_needs_full_hand", 4)]


# ---- impossible records: InvalidInputError with paths


def problems(error) -> list[tuple[tuple, str]]:
    return [(p.path, p.code) for p in error.value.problems]


def test_there_are_four_hands():
    with pytest.raises(InvalidInputError) as error:
        validate_game(10, [cards(text) for text in SLAM_DEAL[:3]], [])
    assert problems(error) == [(("hands",), "wrong_player_count")]


def test_each_hand_has_13_cards():
    hands = hands_of(SLAM_DEAL)
    hands[2] = hands[2][:12]
    with pytest.raises(InvalidInputError) as error:
        validate_game(10, hands, [])
    assert problems(error) == [(("hands", 2), "wrong_card_count")]


def test_the_hands_are_one_deck_without_a_card_twice():
    hands = hands_of(SLAM_DEAL)
    hands[3][5] = hands[0][1]
    with pytest.raises(InvalidInputError) as error:
        validate_game(10, hands, [])
    assert problems(error) == [(("hands", 3, 5), "duplicate_card")]


@pytest.mark.parametrize("seat", [4, -1, None])
def test_a_seat_is_0_to_3(seat):
    with pytest.raises(InvalidInputError) as error:
        validate_game(10, hands_of(SLAM_DEAL), [act(0, "Js"), Action.pass_(seat)])
    assert problems(error) == [(("actions", 1, "seat"), "invalid_seat")]


def test_base_is_checked_in_a_record_too():
    with pytest.raises(InvalidInputError) as error:
        validate_game(0, hands_of(SLAM_DEAL), [])
    assert problems(error) == [(("base",), "invalid_base")]
