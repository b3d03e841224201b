"""特殊規則與裁決 (one test per ruling of the rule book) and the README's open-point rulings 3 and 4.

docs/rulings.md names these tests next to each decision.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from service.rules.cards import DECK, JOKER, card, cards
from service.rules.errors import InvalidInputError
from service.rules.thirteen import (
    DECK_COPIES,
    Arrangement,
    Dun,
    bonus,
    evaluate_dun,
    score_round,
    validate_arrangement,
)  # fmt: skip
from service.rules.thirteen.duns import _evaluate

from .test_scoring import WORKED, matchup, table, worked_hands


def test_ruling_middle_real_five_bonus_is_twelve_not_the_old_seven():
    # 中墩正五枚的加分是 ＋12。舊版規格文件曾寫 ＋7
    five = evaluate_dun("middle", cards("7c 7d 7h 7s 7s"))
    assert bonus(Dun.MIDDLE, five) == 12
    assert bonus(Dun.TAIL, evaluate_dun("tail", cards("7c 7d 7h 7s 7s"))) == 5
    rows = list(WORKED)
    rows[0] = ("8h 8d 7c", "9c 9d 9h 9s 9s", "Ac Ad Ah As As")  # 甲: middle real five of nines
    rows[1] = ("8c 7s 6c", "2d 3d 4h 5c 6d", "Ks Qs Js Ts 8s")  # 乙 ... 丁: no nine or ace left for them
    rows[2] = ("7h 7d 2h", "5d 5h 5s 3c 4c", "Kh Kd Kc Qh Qd")
    rows[3] = ("6h 4d 2s", "3h 3s 3s 6s 2c", "Jh Jd Jc Th Td")
    score = score_round(table(*rows))
    assert [matchup(score, 0, b).bonus_a for b in (1, 2, 3)] == [12 + 5] * 3  # middle 12 + tail real five 5


def test_ruling_head_middle_comparison_counts_kickers():
    # 「頭 9-9-K、中 9-9-5-4-3」是相公；「頭 A-A-A、中 A＋鬼＋鬼＋兩張單張」合法
    tail = cards("8c 8d 8h 8s 8s")
    bad = validate_arrangement(cards("9c 9d Kh"), cards("9h 9s 5c 4d 3h"), tail)
    good = validate_arrangement(cards("Ac Ad Ah"), cards("As JK JK 7d 3c"), tail)
    assert [v.code for v in bad.violations] == ["head_not_below_middle"] and good.legal


def test_ruling_middle_may_equal_tail_head_strictly_below_middle():
    # 中墩與尾墩可以一樣大，頭墩則必須嚴格小於中墩
    assert validate_arrangement(cards("2c 3d 5h"), cards("Kc Kd 4c 4d 2s"), cards("Kh Ks 4h 4s 2d")).legal
    # the closest a head comes to its middle: same pair, same first kicker, the middle's extra kickers win
    assert validate_arrangement(cards("Kc Kd 9c"), cards("Kh Ks 9d 3c 2d"), cards("Ac Ad Ah 2h 3h")).legal
    over = validate_arrangement(cards("Kc Kd Tc"), cards("Kh Ks 9d 3c 2d"), cards("Ac Ad Ah 2h 3h"))
    assert [v.code for v in over.violations] == ["head_not_below_middle"]


def _joker_duns():
    """Every head with a joker, and the 1-joker tails built on one suit (the richest for jokers)."""
    for reals in combinations_with_replacement(DECK, 2):
        if reals[0] is not reals[1] or DECK_COPIES[reals[0]] == 2:
            yield 3, [*reals, JOKER]
    for real in DECK:
        yield 3, [real, JOKER, JOKER]
    spades = [c for c in DECK if c.suit == "s"]
    for reals in combinations_with_replacement(spades, 4):
        if all(reals.count(c) <= 2 for c in reals):
            yield 5, [*reals, JOKER]


def test_ruling_joker_as_a_single_is_never_above_a_real_ace():
    # 鬼牌當單張時，等同你能成立的最大代牌，不會比真的 A 還大。 A joker is always a real card of the 52, and
    # putting the cards it stands for in its place gives the same hand (except 五枚, which a joker makes 鬼五枚).
    for size, hand in _joker_duns():
        value = _evaluate(size, hand)
        assert all(c in DECK for c in value.resolved) and max(value.strength[1:]) <= 14
        stand_ins = iter(value.resolved)
        natural = _evaluate(size, [next(stand_ins) if c is JOKER else c for c in value.cards])
        if value.category != "joker_five":
            assert natural.strength == value.strength, hand


def test_ruling_three_jokers_are_not_also_chong_san():
    # 鬼三條不算衝三。頭墩鬼三條只計鬼衝三 ＋5
    three = evaluate_dun("head", cards("JK JK JK"))
    assert (three.category, three.strength, bonus(Dun.HEAD, three)) == ("three_jokers", (5,), 5)
    assert three.strength > evaluate_dun("head", cards("Ac Ad Ah")).strength
    rows = list(WORKED)
    rows[0] = ("JK JK JK", "Ac Ad Ah As 2c", "9s Ts Js Qs Ks")
    score = score_round(table(*rows))
    assert [matchup(score, 0, b).bonus_a for b in (1, 2, 3)] == [5 + 2] * 3  # 鬼衝三 5 + middle quads 2


def test_ruling_suited_ace_king_three_jokers_is_straight_flush_ace_nine_is_quads():
    # 「同花色的 A、K＋三張鬼牌」算同花順; 湊不成同花順時（例如 A、9＋三張鬼牌）才是鐵支
    assert evaluate_dun("tail", cards("Ah Kh JK JK JK")).strength == (11, 14)
    assert evaluate_dun("tail", cards("Ah 9h JK JK JK")).strength == (10, 14, 9)
    assert evaluate_dun("tail", cards("Ah Kd JK JK JK")).strength == (10, 14, 13)  # two suits: no flush


def test_ruling_no_three_identical_cards():
    # 沒有三條同花：同一張牌最多算兩張，鬼牌不能變成第三張
    hand = evaluate_dun("tail", cards("As As Ks JK JK"))
    assert card("As") not in hand.resolved and hand.strength == (10, 14, 13)
    flush = evaluate_dun("tail", cards("As As Ks Qs JK"))
    assert (flush.category, flush.strength, flush.resolved) == ("pair_flush", (8, 2, 14, 13, 12), (card("Ks"),))
    with pytest.raises(InvalidInputError):
        evaluate_dun("head", cards("As As As"))


def test_ruling_shot_counts_tied_duns_as_not_losing():
    # 打槍的條件是「不輸」，平手的墩也算數: in the worked example every tail ties
    score = score_round(worked_hands())
    assert matchup(score, 1, 2).duns[Dun.TAIL] == "tie" and matchup(score, 1, 2).shot == "a"


def test_ruling_bonus_is_never_multiplied_by_shots_or_home_run():
    # 額外加分不翻倍：不論有沒有打槍、全壘打，加分表的數字都是原值，逐家累加
    score = score_round(worked_hands())
    assert score.players[0].bonus == 2 * 3 and score.players[0].total == 3 + 9 + 6


def test_ruling_no_whole_hand_specials():
    # 不採用整副牌的特殊牌型 (一條龍 here: A to K one of each): the three duns are scored as usual
    players = table(
        ("2c 3d 4h", "5c 6d 7h 8s 9c", "Tc Jd Qh Ks Ac"),  # 一條龍, shot by 乙
        ("As As Kd", "2d 5d 7d 9d Qd", "Kc Kh Ks 3c 3h"),
        ("6h 4c 2h", "8c 8d 6c 4d 2s", "9h 9s Th Ts 5h"),
        ("5s 3s 2s", "7c 7s 6s 4s Js", "Qc Qs Jc Jh 8h"),
    )
    assert validate_arrangement(*(players[0].dun(d) for d in Dun)).legal
    score = score_round(players)
    assert [p.total for p in score.players] == [-4, 12, -4, -4]


def test_ruling_scores_are_plain_dao():
    # 只計道數：不設底分、金額換算與抽水
    assert [p.total for p in score_round(worked_hands()).players] == [18, -5, -7, -6]


# --- README rulings 3 and 4 (open points) ----------------------------------------------------------


def test_ruling_joker_may_be_a_second_copy_of_any_card_whatever_others_hold():
    # A joker is the second Ah of a hearts flush though the real Ah is in this very dun ...
    value = evaluate_dun("tail", cards("Ah Kh 5h 2h JK"))
    assert value.resolved == (card("Ah"),) and value.category == "pair_flush"
    # ... and 乙's joker is the Kh of his straight flush while 丁 holds the real Kh (as a discard).
    players = worked_hands()
    king, b, d = card("Kh"), players[1], players[3]
    players[1] = Arrangement(
        b.head, b.middle, [JOKER if c is king else c for c in b.tail], [JOKER if c is king else c for c in b.hand]
    )
    d_hand = list(d.hand)
    d_hand[d_hand.index(JOKER)] = king
    players[3] = Arrangement(d.head, d.middle, d.tail, d_hand)
    score = score_round(players)
    assert score.players[1].duns[Dun.TAIL].resolved == (king,)
    assert [p.total for p in score.players] == [18, -5, -7, -6]


def test_ruling_bonus_by_exact_category_straight_flush_pays_once():
    middle_sf = evaluate_dun("middle", cards("5h 6h 7h 8h 9h"))
    assert bonus(Dun.MIDDLE, middle_sf) == 2 and bonus(Dun.TAIL, middle_sf) == 1
    assert bonus(Dun.MIDDLE, evaluate_dun("middle", cards("Ac Ad Ah As As"))) == 12
    assert bonus(Dun.MIDDLE, evaluate_dun("middle", cards("Ac Ad Ah As JK"))) == 3
    assert bonus(Dun.TAIL, evaluate_dun("tail", cards("Ac Ad Ah As JK"))) == 2
    for dun, text in [("middle", "Ac Ad Ah Kd Ks"), ("tail", "As As Ks Ks Qs"), ("head", "Ac Ad 2h")]:
        assert bonus(dun, evaluate_dun(dun, cards(text))) == 0


def test_ruling_joker_made_head_trips_are_chong_san():
    trips = evaluate_dun("head", cards("Qd JK JK"))
    assert trips.category == "trips" and bonus(Dun.HEAD, trips) == 1
    assert bonus(Dun.HEAD, evaluate_dun("head", cards("Qc Qd Qh"))) == 1


def test_ruling_two_home_runs_in_one_round():
    from .test_scoring import TWINS

    score = score_round(table(*TWINS))
    assert [p.home_run for p in score.players] == [9 - 3, 9 - 3, -6, -6]
    assert sum(p.total for p in score.players) == 0
