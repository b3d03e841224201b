"""合法與犯規: one action judged from the hand and the play to beat."""

import pytest

from service.rules.big_two import Action, ActionType, validate_move
from service.rules.cards import DECK, cards
from service.rules.errors import InvalidInputError

HAND = "3c 3d 5h 7s 9c 9d 9h 9s Jd Qh 2c"
DRAGON_HAND = "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"


def move(hand: str, table: str | None, action: Action):
    return validate_move(cards(hand), None if table is None else cards(table), action)


def play(text: str) -> Action:
    return Action.play(cards(text))


def codes(result) -> list[str]:
    return [v.code for v in result.violations]


def texts(hand) -> list[str]:
    return [str(c) for c in hand]


def test_a_legal_play_leaves_the_rest_of_the_hand_in_big_two_order():
    result = move(HAND, "4s", play("5h"))
    assert (result.legal, result.violations, result.wins) == (True, (), False)
    assert texts(result.hand_after) == "3c 3d 7s 9c 9d 9h 9s Jd Qh 2c".split()
    assert result.play.category == "single"


def test_leader_cannot_pass():
    result = move(HAND, None, Action.pass_())
    assert (result.legal, codes(result)) == (False, ["leader_cannot_pass"])


def test_an_illegal_move_leaves_the_hand_unchanged():
    result = move("Qh 3d 2c", "4s", play("3d"))
    assert (result.legal, texts(result.hand_after), result.play, result.wins) == (
        False,
        ["3d", "Qh", "2c"],
        None,
        False,
    )


def test_leader_may_play_any_combination():
    for text in ("3c", "3c 3d", "9c 9d 9h 9s 3c"):
        assert move(HAND, None, play(text)).legal is True


def test_follower_may_pass_even_holding_a_play_that_beats_the_table():
    result = move(HAND, "4s", Action.pass_())
    assert (result.legal, result.violations) == (True, ())
    assert texts(result.hand_after) == "3c 3d 5h 7s 9c 9d 9h 9s Jd Qh 2c".split()


def test_a_pass_plays_no_cards():
    result = move(HAND, "4s", Action.of("pass", cards("5h")))
    assert codes(result) == ["cards_with_pass"]


def test_a_play_needs_cards():
    assert codes(move(HAND, "4s", Action.of("play", ()))) == ["empty_play"]


def test_played_cards_must_be_in_the_hand():
    result = move(HAND, "4s", play("Ks"))
    assert (result.legal, codes(result)) == (False, ["card_not_in_hand"])
    assert texts(result.violations[0].cards) == ["Ks"]


def test_a_play_must_be_a_combination():
    assert codes(move("2h 4h 5h 6h 8h 3c", None, play("2h 4h 5h 6h 8h"))) == ["flush_not_a_combination"]
    assert codes(move(HAND, None, play("9c 9d 9h"))) == ["triple_not_a_combination"]
    assert codes(move(HAND, None, play("9c 9d 9h 9s"))) == ["four_without_kicker"]


def test_a_play_must_be_higher_than_the_table():
    result = move(HAND, "4s", play("3d"))
    assert (result.legal, codes(result)) == (False, ["not_higher"])


def test_a_normal_play_must_be_the_same_combination_as_the_table():
    assert codes(move(HAND, "4s", play("3c 3d"))) == ["different_combination"]
    assert codes(move(HAND, "4c 4d", play("2c"))) == ["different_combination"]


def test_a_monster_may_be_played_on_a_single():
    result = move(HAND, "2s", play("9c 9d 9h 9s 3c"))
    assert (result.legal, result.play.category) == (True, "four_of_a_kind")


def test_a_normal_play_cannot_beat_a_monster_on_the_table():
    assert codes(move(HAND, "8c 8d 8h 8s Ac", play("2c"))) == ["cannot_beat_monster"]
    assert codes(move(HAND, "Tc Jc Qc Kc Ac", play("9c 9d 9h 9s 3c"))) == ["cannot_beat_monster"]


def test_every_problem_is_its_own_violation():
    result = move(HAND, "3c 3d 3h Ac Ad", play("2h 4h 5h 6h 8h"))
    assert codes(result) == ["duplicate_card", "card_not_in_hand", "flush_not_a_combination"]


def test_a_card_both_in_the_hand_and_on_the_table_is_a_violation():
    result = move(HAND, "2c", Action.pass_())
    assert (result.legal, codes(result), texts(result.violations[0].cards)) == (False, ["duplicate_card"], ["2c"])


def test_the_table_must_be_a_valid_play():
    assert codes(move(HAND, "Ks Kh Kd", Action.pass_())) == ["invalid_table"]


def test_playing_the_last_card_wins():
    result = move("2s", "Ah", play("2s"))
    assert (result.legal, result.hand_after, result.wins) == (True, (), True)


# ---- dragons: 「輪到自己時隨時可以打」, 「只有在手牌還是完整 13 張」 (README ruling 1)


# No four of a kind: a dragon holds one card of every rank, so no such table can meet it.
@pytest.mark.parametrize("table", [None, "2s", "2h 2s", "3s 4s 5s 6s 7s", "Tc Td Th Jc Jd"])
def test_dragon_with_the_full_hand_may_be_played_on_any_turn_whatever_the_table(table):
    hand = cards(DRAGON_HAND)
    if table is not None:  # a table the dragon does not hold cards of
        hand = [
            c if c not in cards(table) else next(d for d in DECK if d.rank == c.rank and d not in cards(table))
            for c in hand
        ]
    result = validate_move(hand, None if table is None else cards(table), Action.play(hand))
    assert (result.legal, result.violations, result.hand_after, result.wins) == (True, (), (), True)
    assert result.play.category == "dragon"


def test_dragon_needs_the_complete_13_card_hand():
    result = move(DRAGON_HAND.replace(" Kc", ""), None, play(DRAGON_HAND))
    assert codes(result) == ["card_not_in_hand", "dragon_needs_full_hand"]


def test_thirteen_cards_that_are_not_a_dragon_are_not_a_play():
    hand = "3c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    assert codes(move(hand, None, play(hand))) == ["not_a_combination"]


# ---- input that cannot be judged


@pytest.mark.parametrize("size", [0, 14])
def test_a_hand_has_one_to_thirteen_cards(size):
    with pytest.raises(InvalidInputError) as error:
        validate_move(DECK[:size], None, Action.pass_())
    assert [(p.path, p.code) for p in error.value.problems] == [(("hand",), "wrong_card_count")]


def test_a_joker_is_not_a_card_here():
    with pytest.raises(InvalidInputError) as error:
        validate_move(cards("3c JK"), None, play("3c"))
    assert [(p.path, p.code) for p in error.value.problems] == [(("hand", 1), "joker_not_allowed")]


def test_an_unknown_action_type_is_invalid_input():
    with pytest.raises(InvalidInputError) as error:
        Action.of("fold")
    assert [p.code for p in error.value.problems] == ["unknown_action_type"]


def test_an_action_of_a_type_text_and_any_iterable_of_cards_is_the_typed_action():
    assert Action.of("play", iter(cards("5h 5s")), 2) == Action(ActionType.PLAY, tuple(cards("5h 5s")), 2)
    assert Action.of(ActionType.PASS) == Action.pass_()
