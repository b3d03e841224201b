"""計分: loser pays base x cards left x loser multiplier x winner multiplier; the winner takes the sum."""

import pytest

from service.rules.big_two import score_game
from service.rules.cards import DECK, cards
from service.rules.errors import InvalidInputError

PLAIN = cards("3c 4d 5h 6s 7c 8d 9h Ts Jc Qd Kh As 3d")  # no 2, no monster, no dragon in any prefix


def factors(factor_list) -> list[tuple[str, int]]:
    return [(f.factor.value, f.value) for f in factor_list]


def texts(hand) -> list[str]:
    return [str(c) for c in hand]


def total(score) -> int:
    return score.winner.points + sum(loser.points for loser in score.losers)


def plain_losers(*sizes: int, avoid=()) -> list[list]:
    """Losers of the given sizes made of cards with no 2 and no monster, none of them in ``avoid``."""
    pool = [c for c in DECK if c.rank != 2 and c not in avoid]
    pool.sort(key=lambda c: (c.suit.order + c.rank) % 4 * 13 + c.rank)  # spread suits and ranks
    losers, start = [], 0
    for size in sizes:
        hand = pool[start : start + size]
        losers.append(hand)
        start += size
    return losers


# ---- 計算範例: the rule book's worked example, with concrete hands


def test_worked_example_base_10_last_play_pair_of_twos():
    jia = cards("3c 7d Jh")  # 3 cards, no 2, no monster
    yi = cards("2c 4d 5h 6s 8c Td Th Qs Kc")  # 9 cards, one of them a 2
    bing = cards("9s 9h 9d 9c 3h 4h 5d 6h 7s 8h")  # 10 cards holding four 9s and other cards
    score = score_game(10, cards("2s 2h"), False, [jia, yi, bing])
    assert factors(score.winner.factors) == [("twos_finish", 4)]
    assert score.winner.multiplier == 4
    assert [factors(loser.factors) for loser in score.losers] == [
        [("cards_left_tier", 1)],
        [("cards_left_tier", 2), ("twos_held", 2)],
        [("cards_left_tier", 3), ("monster_held", 2)],
    ]
    assert [loser.multiplier for loser in score.losers] == [1, 4, 6]
    assert [loser.points for loser in score.losers] == [-120, -1440, -2400]
    assert score.winner.points == 3960
    assert total(score) == 0


def test_factors_carry_a_reason_and_the_cards_that_earn_them():
    score = score_game(
        10, cards("2s 2h"), False, [cards("3c 7d Jh"), cards("2c 2d 4d"), cards("9s 9h 9d 9c 3h 4h 5d 6h 7s 8h")]
    )
    (twos_finish,) = score.winner.factors
    assert (twos_finish.reason, texts(twos_finish.cards)) == ("2 two(s) in the last play, x2 each", ["2h", "2s"])
    tier, twos = score.losers[1].factors
    assert (tier.reason, twos.value, texts(twos.cards)) == ("7 or fewer cards left", 4, ["2c", "2d"])
    tier, monster = score.losers[2].factors
    assert (tier.reason, monster.reason) == ("10-12 cards left", "can still form four_of_a_kind (counted once)")
    assert texts(monster.cards) == ["9c", "9d", "9h", "9s"]


# ---- 輸家倍數


@pytest.mark.parametrize("left, tier", [(13, 4), (12, 3), (11, 3), (10, 3), (9, 2), (8, 2), (7, 1), (4, 1), (1, 1)])
def test_cards_left_tier_takes_exactly_one_tier(left, tier):
    (loser, *_) = score_game(1, cards("2s"), False, [PLAIN[:left], cards("2h"), cards("2d")]).losers
    assert factors(loser.factors) == [("cards_left_tier", tier)]
    assert loser.payment == left * tier * 2


@pytest.mark.parametrize("twos, value", [(1, 2), (2, 4), (3, 8), (4, 16)])
def test_each_two_still_held_doubles(twos, value):
    held = [c for c in DECK if c.rank == 2][:twos] + cards("3c 4d 5h")
    (loser, *_) = score_game(1, cards("As"), False, [held, cards("Ah"), cards("Ad")]).losers
    assert ("twos_held", value) in factors(loser.factors)
    assert loser.payment == len(held) * value * (2 if twos == 4 else 1)  # four 2s + a card are also a monster


def test_monster_held_counts_once_however_many_monsters():
    held = cards("9c 9d 9h 9s 3h 4h 5h 6h 7h Kc")  # four 9s and a straight flush
    (loser, *_) = score_game(1, cards("As"), False, [held, cards("Ah"), cards("Ad")]).losers
    assert factors(loser.factors) == [("cards_left_tier", 3), ("monster_held", 2)]
    assert loser.factors[1].reason == "can still form four_of_a_kind, straight_flush (counted once)"


def test_four_of_a_kind_alone_is_not_a_monster_left_in_hand():
    (loser, *_) = score_game(10, cards("As"), False, [cards("9c 9d 9h 9s"), cards("Ah"), cards("Ad")]).losers
    assert factors(loser.factors) == [("cards_left_tier", 1)]
    assert loser.points == -40


def test_four_of_a_kind_with_another_card_is_a_monster_left_in_hand():
    (loser, *_) = score_game(10, cards("As"), False, [cards("9c 9d 9h 9s 3d"), cards("Ah"), cards("Ad")]).losers
    assert factors(loser.factors) == [("cards_left_tier", 1), ("monster_held", 2)]
    assert loser.points == -100


@pytest.mark.parametrize("held", ["3d 4d 5d 6d 7d Kc", "Ac 2c 3c 4c 5c", "2h 3h 4h 5h 6h"])
def test_straight_flush_left_in_hand_is_a_monster(held):
    (loser, *_) = score_game(1, cards("As"), False, [cards(held), cards("Ah"), cards("Ad")]).losers
    assert ("monster_held", 2) in factors(loser.factors)


def test_one_suit_cards_across_the_two_are_no_monster_left_in_hand():
    (loser, *_) = score_game(1, cards("As"), False, [cards("Jh Qh Kh Ah 2h"), cards("Ac"), cards("Ad")]).losers
    assert factors(loser.factors) == [("cards_left_tier", 1), ("twos_held", 2)]


def test_dragon_left_in_hand_is_a_monster():
    dragon = cards("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc")
    (loser, *_) = score_game(1, cards("As"), False, [dragon, cards("Ah"), cards("Ad")]).losers
    assert factors(loser.factors) == [("cards_left_tier", 4), ("twos_held", 2), ("monster_held", 2)]
    assert loser.factors[2].reason == "can still form dragon (counted once)"


# ---- 贏家倍數


def test_grand_slam_doubles():
    losers = plain_losers(13, 13, 13, avoid=cards("Kc"))
    score = score_game(1, cards("Kc"), True, losers)
    assert factors(score.winner.factors) == [("grand_slam", 2)]
    assert [loser.payment for loser in score.losers] == [13 * 4 * 2] * 3


def test_grand_slam_requires_every_loser_to_hold_13_cards():
    with pytest.raises(InvalidInputError) as error:
        score_game(1, cards("Kc"), True, plain_losers(13, 13, 12, avoid=cards("Kc")))
    assert [(p.path, p.code) for p in error.value.problems] == [(("winner", "grand_slam"), "grand_slam_impossible")]


def test_three_of_clubs_in_the_last_play_doubles():
    score = score_game(1, cards("3c 3d"), False, [cards("Kc"), cards("Kd"), cards("Kh")])
    assert factors(score.winner.factors) == [("three_of_clubs_finish", 2)]
    assert score.winner.points == 6


@pytest.mark.parametrize("last_play, value", [("2s", 2), ("2s 2h", 4), ("2s 3d 4d 5d 6d", 2)])
def test_each_two_in_the_last_play_doubles(last_play, value):
    score = score_game(1, cards(last_play), False, [cards("Kc"), cards("Kd"), cards("Kh")])
    assert factors(score.winner.factors) == [("twos_finish", value)]


@pytest.mark.parametrize("last_play", ["9c 9d 9h 9s Kc", "4h 5h 6h 7h 8h"])
def test_monster_finish_doubles(last_play):
    score = score_game(1, cards(last_play), False, [cards("Qc"), cards("Qd"), cards("Qh")])
    assert factors(score.winner.factors) == [("monster_finish", 2)]


def test_all_winner_factors_multiply():
    score = score_game(1, cards("2c 3c 4c 5c 6c"), True, plain_losers(13, 13, 13, avoid=cards("2c 3c 4c 5c 6c")))
    assert factors(score.winner.factors) == [
        ("grand_slam", 2),
        ("three_of_clubs_finish", 2),
        ("twos_finish", 2),
        ("monster_finish", 2),
    ]
    assert score.winner.multiplier == 16


# ---- 一條龍的計分


def test_dragon_finish_counts_as_monster_finish_and_its_two():
    dragon = cards("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc")
    score = score_game(1, dragon, False, [cards("3c"), cards("3d"), cards("3s")])
    assert factors(score.winner.factors) == [("twos_finish", 2), ("monster_finish", 2)]
    assert [loser.points for loser in score.losers] == [-4, -4, -4]
    assert score.winner.points == 12


def test_dragon_holding_the_three_of_clubs_also_doubles_for_it():
    dragon = cards("Ac 2d 3c 4s 5c 6d 7h 8s 9c Td Jh Qs Kc")
    score = score_game(1, dragon, False, [cards("3h"), cards("3d"), cards("3s")])
    assert factors(score.winner.factors) == [("three_of_clubs_finish", 2), ("twos_finish", 2), ("monster_finish", 2)]
    assert score.winner.multiplier == 8
    assert score.winner.points == 24


def test_green_dragon_pays_x20_instead_of_the_monster_x2():
    clubs = [c for c in DECK if c.suit == "c"]
    score = score_game(1, clubs, False, [cards("3h"), cards("3d"), cards("3s")])
    assert factors(score.winner.factors) == [
        ("three_of_clubs_finish", 2),
        ("twos_finish", 2),
        ("green_dragon_finish", 20),
    ]
    assert score.winner.multiplier == 80
    spades = [c for c in DECK if c.suit == "s"]
    score = score_game(1, spades, False, [cards("3h"), cards("3d"), cards("3c")])
    assert factors(score.winner.factors) == [("twos_finish", 2), ("green_dragon_finish", 20)]
    assert (score.winner.multiplier, score.winner.points) == (40, 120)


# ---- 四家加起來為零


def test_scores_sum_to_zero():
    score = score_game(7, cards("2s 2h"), False, [cards("3c 7d Jh"), cards("2c 4d 5h 6s 8c Td Th Qs Kc"), cards("9s")])
    assert total(score) == 0
    assert score.winner.points == sum(loser.payment for loser in score.losers) > 0
    assert all(loser.points == -loser.payment for loser in score.losers)


def test_answer_lists_remaining_cards_in_big_two_order():
    (loser, *_) = score_game(1, cards("3c"), False, [cards("2s Kd 4h"), cards("Ah"), cards("Ad")]).losers
    assert (texts(loser.cards), loser.cards_left, loser.seat) == (["4h", "Kd", "2s"], 3, None)


# ---- impossible input: InvalidInputError with a path into the request


def problems(error) -> list[tuple[tuple, str]]:
    return [(p.path, p.code) for p in error.value.problems]


def test_last_play_must_be_a_valid_combination():
    with pytest.raises(InvalidInputError) as error:
        score_game(10, cards("2h 4h 5h 6h 8h"), False, [cards("3c"), cards("3d"), cards("3s")])
    assert problems(error) == [(("winner", "last_play"), "flush_not_a_combination")]


def test_a_card_in_two_places_is_invalid_input_at_its_second_place():
    with pytest.raises(InvalidInputError) as error:
        score_game(10, cards("2s 2h"), False, [cards("3c 4d 5h"), cards("6c 7c 8c 9c 3c"), cards("Kd")])
    assert problems(error) == [(("losers", 1, "cards", 4), "duplicate_card")]
    with pytest.raises(InvalidInputError) as error:
        score_game(10, cards("2s 2s"), False, [cards("3c"), cards("3d"), cards("3s")])
    assert problems(error) == [(("winner", "last_play", 1), "duplicate_card")]


@pytest.mark.parametrize("size", [0, 14])
def test_a_loser_holds_one_to_thirteen_cards(size):
    middle = [c for c in DECK if str(c) not in ("2s", "3c", "Kd")][:size]
    with pytest.raises(InvalidInputError) as error:
        score_game(10, cards("2s"), False, [cards("3c"), middle, cards("Kd")])
    assert problems(error) == [(("losers", 1, "cards"), "wrong_card_count")]


def test_there_are_three_losers():
    with pytest.raises(InvalidInputError) as error:
        score_game(10, cards("2s"), False, [cards("3c"), cards("3d")])
    assert problems(error) == [(("losers",), "wrong_player_count")]


@pytest.mark.parametrize("base", [0, -5, True, 2.5])
def test_base_is_a_positive_whole_number(base):
    with pytest.raises(InvalidInputError) as error:
        score_game(base, cards("2s"), False, [cards("3c"), cards("3d"), cards("3h")])
    assert problems(error) == [(("base",), "invalid_base")]


def test_the_scoring_is_the_rule_sets_data_not_code():
    """BigTwoRules carries every multiplier (the registry's rule set ``taiwan`` is ``TAIWAN``): a variant is
    another instance, and the same game scores by its numbers."""
    from dataclasses import replace

    from service.rules.big_two import TAIWAN, CardsLeftTier
    from service.rules.games import find_game

    assert find_game("big-two").default.rules is TAIWAN
    losers = [cards("3c 7d Jh"), cards("2c 2d 4d"), cards("9s 9h 9d 9c 3h 4h 5d 6h 7s 8h")]
    house = score_game(10, cards("2s 2h"), False, losers)
    variant = replace(
        TAIWAN,
        id="variant",
        two_held=3,
        two_finish=1,
        cards_left_tiers=(CardsLeftTier(10, 2, "10-12"), CardsLeftTier(0, 1, "0-7")),
    )
    other = score_game(10, cards("2s 2h"), False, losers, variant)
    # base x cards left x loser multiplier x winner multiplier. House: the winner's two 2s x4; two 2s held x4;
    # 10 cards left x3 and four 9s with a kicker (a monster) x2. Variant: 2s in the last play x1, each 2
    # held x3, 10 cards left x2.
    assert [loser.payment for loser in house.losers] == [10 * 3 * 1 * 4, 10 * 3 * 4 * 4, 10 * 10 * 6 * 4]
    assert [loser.payment for loser in other.losers] == [10 * 3 * 1 * 1, 10 * 3 * 9 * 1, 10 * 10 * 4 * 1]
    assert variant.digest != TAIWAN.digest and other.winner.points == 30 + 270 + 400
