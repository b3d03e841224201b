"""計分: 打槍, 全壘打, 額外加分, the worked example 計分範例, and the input a round cannot be scored from."""

from __future__ import annotations

from collections import Counter

import pytest

from service.rules.cards import JOKER, by_rank_desc, cards
from service.rules.errors import InvalidInputError
from service.rules.thirteen import GAME_DECK, Arrangement, Dun, score_round, validate_arrangement


def arrangement(head: str, middle: str, tail: str, hand: list | None = None) -> Arrangement:
    return Arrangement(cards(head), cards(middle), cards(tail), hand)


def table(*rows: tuple[str, str, str]) -> list[Arrangement]:
    return [arrangement(*row) for row in rows]


def totals(score) -> list[int]:
    return [p.total for p in score.players]


def matchup(score, a: int, b: int):
    return next(m for m in score.matchups if (m.a, m.b) == (a, b))


# --- 計分範例 -------------------------------------------------------------------------------------------
# The rule book gives results, not hands (README ruling 5). 甲's middle quads force a tail of quads or
# better, so for 甲 to collect no tail bonus every tail ties 甲's: four 9-K straight flushes, one per suit.
# 丁's low head and full-house middle split with 乙 and 丙; 乙's pair of 8s and straight beat 丙's.
WORKED = [
    ("8h 8d 7c", "Ac Ad Ah As 2c", "9s Ts Js Qs Ks"),  # 甲: pair 8 (kicker 7), quad aces, straight flush
    ("8c 8s 6c", "2d 3d 4h 5c 6d", "9h Th Jh Qh Kh"),  # 乙: pair 8 (kicker 6), straight, straight flush
    ("7h 7d 2h", "5d 5h 5s 3c 4c", "9d Td Jd Qd Kd"),  # 丙: pair 7, trips, straight flush
    ("6h 4d 2s", "3h 3s 3s 6s 6s", "9c Tc Jc Qc Kc"),  # 丁: high card, full house, straight flush
]


def worked_hands() -> list[Arrangement]:
    """The example as whole deals: the 16 cards nobody placed (jokers included) are each player's discards."""
    placed = [arrangement(*row) for row in WORKED]
    left = Counter(GAME_DECK) - Counter(c for p in placed for d in Dun for c in p.dun(d))
    rest = by_rank_desc(left.elements())
    assert len(rest) == 16 and rest.count(JOKER) == 3  # the table uses each of the 68 cards once
    return [
        arrangement(*row, [*p.head, *p.middle, *p.tail, *rest[4 * i : 4 * i + 4]])
        for i, (row, p) in enumerate(zip(WORKED, placed))
    ]


def test_worked_example_totals_18_minus5_minus7_minus6():
    score = score_round(worked_hands())
    assert totals(score) == [18, -5, -7, -6]
    assert [(p.shots, p.home_run, p.bonus) for p in score.players] == [
        (3, 9, 6),
        (0, -3, -2),
        (-2, -3, -2),
        (-1, -3, -2),
    ]


def test_worked_example_who_shoots_whom():
    score = score_round(worked_hands())
    assert [matchup(score, 0, b).shot for b in (1, 2, 3)] == ["a", "a", "a"]  # 甲 shoots all three: 全壘打
    assert matchup(score, 1, 2).shot == "a"  # 乙 shoots 丙
    assert matchup(score, 1, 3).shot is None and matchup(score, 2, 3).shot is None  # 互有輸贏
    assert matchup(score, 1, 3).duns == {Dun.HEAD: "a", Dun.MIDDLE: "b", Dun.TAIL: "tie"}
    assert matchup(score, 2, 3).duns == {Dun.HEAD: "a", Dun.MIDDLE: "b", Dun.TAIL: "tie"}
    assert [matchup(score, 0, b).bonus_a for b in (1, 2, 3)] == [2, 2, 2]  # 中墩鐵支 ＋2 × 3 家
    assert all(m.bonus_b == 0 for m in score.matchups) and all(m.duns[Dun.TAIL] == "tie" for m in score.matchups)


def test_worked_example_deals_are_legal_and_discard_four_each():
    for p in worked_hands():
        result = validate_arrangement(p.head, p.middle, p.tail, p.hand)
        assert result.legal and len(result.discarded) == 4


# --- 打槍 and 全壘打 -------------------------------------------------------------------------------------

# Two players who tie every dun with each other and shoot the other two (README ruling 4).
TWINS = [
    ("8c 8d 2c", "9c 9d 3c 3d 4c", "Tc Jd Qh Kh Ac"),
    ("8h 8s 2d", "9h 9s 3h 3s 4d", "Th Jc Qd Ks Ad"),
    ("7c 7d 2h", "6c 6d 5c 5d 4h", "As Ah Ts Td 9s"),
    ("7h 7s 4s", "6h 6s 5h 5s 2s", "Kc Kd Qc Qs Jh"),
]


def test_mutual_shots_cancel_when_every_dun_ties():
    score = score_round(table(*TWINS))
    m = matchup(score, 0, 1)
    assert m.duns == {Dun.HEAD: "tie", Dun.MIDDLE: "tie", Dun.TAIL: "tie"}
    assert (m.shot, m.points_a) == ("both", 0)


def test_two_home_runs_apply_the_formula_as_written():
    score = score_round(table(*TWINS))
    # each twin: shots 0 + 1 + 1, home run +9 of its own and -3 for the other's
    assert [(p.shots, p.home_run, p.bonus, p.total) for p in score.players] == [
        (2, 6, 0, 8), (2, 6, 0, 8), (-2, -6, 0, -8), (-2, -6, 0, -8),
    ]  # fmt: skip


def test_home_run_is_nine_more_three_from_each():
    score = score_round(worked_hands())
    assert [p.home_run for p in score.players] == [9, -3, -3, -3]
    assert score.players[0].shots + score.players[0].home_run == 12  # 光是打槍與全壘打就有 3 ＋ 9 ＝ 12 道


def test_no_shot_without_losing_nothing():
    score = score_round(table(*TWINS))
    assert matchup(score, 2, 3).shot is None and matchup(score, 2, 3).points_a == 0


def test_matchups_are_the_six_pairs_and_add_up_to_the_totals():
    for players in (worked_hands(), table(*TWINS)):
        score = score_round(players)
        assert [(m.a, m.b) for m in score.matchups] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        net = [0, 0, 0, 0]
        for m in score.matchups:
            net[m.a] += m.points_a
            net[m.b] -= m.points_a
        assert [n + p.home_run for n, p in zip(net, score.players)] == totals(score)
        assert sum(totals(score)) == 0


# --- 額外加分 --------------------------------------------------------------------------------------------


def test_bonus_only_for_duns_strictly_won():
    # 甲 and 乙 both hold quad aces (乙's made with jokers): the tie pays nothing, wins over 丙 and 丁 pay +2
    players = table(
        ("8h 8s 4h", "Ac Ad Ah As 2c", "9s Ts Js Qs Ks"),
        ("8c 8d 3d", "As JK JK JK 2d", "9h Th Jh Qh Kh"),
        ("7h 7d 2h", "5d 5h 5s 3c 4c", "9d Td Jd Qd Kd"),
        ("6h 4d 2s", "3h 3s 3s 6s 6s", "9c Tc Jc Qc Kc"),
    )
    score = score_round(players)
    assert matchup(score, 0, 1).duns[Dun.MIDDLE] == "tie" and matchup(score, 0, 1).bonus_a == 0
    assert [p.bonus for p in score.players] == [4, 4, -4, -4]


def test_tail_bonuses():
    players = table(
        ("2c 3d 4h", "7c 7d 8c 8d 9c", "Ac Ad Ah As 2s"),  # tail quads +1
        ("2d 3h 4c", "7s 7s 8s 8s 9d", "Kc Kd Kh JK JK"),  # tail joker five +2
        ("2h 3c 4d", "6c 6d Tc Td Jc", "Qs Qs Qc Qd Qh"),  # tail real five +5
        ("2s 3s 4s", "6s 6s Th Ts Jd", "5h 6h 7h 8h 9h"),  # tail straight flush +1 (beats the quads)
    )
    score = score_round(players)
    assert matchup(score, 0, 2).bonus_b == matchup(score, 1, 2).bonus_b == matchup(score, 2, 3).bonus_a == 5
    assert matchup(score, 0, 1).bonus_b == matchup(score, 1, 3).bonus_a == 2
    assert matchup(score, 0, 3).bonus_b == 1
    assert [p.bonus for p in score.players] == [-8, -1, 15, -6]
    assert totals(score) == [-14, -4, 27, -9]  # 丙 shoots everyone: 3 + 9 + 15


def test_head_trips_bonus_is_one_per_opponent_beaten():
    players = table(
        ("8c 8d 8h", "Ac Ad Ah 2c 3c", "9s Ts Js Qs Ks"),
        ("7c 7d 2d", "6c 6d 6h 2h 3d", "9h Th Jh Qh Kh"),
        ("5c 5d 2s", "4c 4d 4h 3h 2s", "9d Td Jd Qd Kd"),
        ("7h 5h 3s", "As As 8s 8s 5s", "9c Tc Jc Qc Kc"),
    )
    score = score_round(players)
    assert [matchup(score, 0, b).bonus_a for b in (1, 2, 3)] == [1, 1, 1]
    assert [p.bonus for p in score.players] == [3, -1, -1, -1]


# --- what cannot be scored -----------------------------------------------------------------------------


def problems(players) -> list[tuple[tuple, str]]:
    with pytest.raises(InvalidInputError) as error:
        score_round(players)
    return [(p.path, p.code) for p in error.value.problems]


def test_round_needs_exactly_four_players():
    assert problems(table(*WORKED[:3])) == [(("players",), "wrong_player_count")]


def test_wrong_dun_size_is_impossible_input_at_its_path():
    rows = list(WORKED)
    rows[2] = ("7h 7d 2h", "5d 5h 5s 3c", "9d Td Jd Qd Kd")
    assert problems(table(*rows)) == [(("players", 2, "middle"), "wrong_middle_size")]


def test_too_many_copies_across_the_table_is_impossible_input():
    rows = list(WORKED)  # 甲 holds one As
    rows[1] = ("8c As 6c", "2d 3d 4h 5c 6d", "9h Th Jh Qh Kh")  # the second As: still possible
    assert score_round(table(*rows)).players[0].total == 18
    rows[3] = ("6h 4d 2s", "3h 3s 3s 6s As", "9c Tc Jc Qc Kc")  # a third As
    assert problems(table(*rows)) == [(("players", 3, "middle", 4), "duplicate_card")]


def test_too_many_jokers_across_the_table_is_impossible_input():
    rows = list(WORKED)
    rows[1] = ("8c JK 6c", "2d 3d 4h 5c 6d", "9h Th Jh Qh Kh")
    rows[2] = ("7h JK 2h", "5d 5h 5s JK 4c", "9d Td Jd Qd Kd")
    rows[3] = ("6h 4d JK", "3h 3s 3s 6s 6s", "9c Tc Jc Qc Kc")
    assert problems(table(*rows)) == [(("players", 3, "head", 2), "duplicate_card")]


def test_xianggong_arrangement_cannot_be_scored():
    rows = list(WORKED)
    rows[3] = ("6h 6c 2s", "3h 3s 4d 7s 5s", "9c Tc Jc Qc Kc")  # pair 6 head over pair 3 middle
    assert problems(table(*rows)) == [(("players", 3, "head"), "head_not_below_middle")]


def test_card_not_in_the_players_hand_cannot_be_scored():
    players = worked_hands()
    p = players[1]
    players[1] = Arrangement(p.head, p.middle, p.tail, [c for c in p.hand if str(c) != "6d"] + cards("Ad"))
    found = problems(players)
    assert (("players", 1, "middle", 4), "card_not_in_hand") in found


def test_the_scoring_is_the_rule_sets_data_not_code():
    """ThirteenRules carries 打槍, 全壘打 and 額外加分 (the registry's rule set ``gscas`` is ``GSCAS``): a
    variant is another instance, and the same round scores by its numbers (``shot`` and ``home_run`` are
    listed from the sweep's and the home run's points)."""
    from dataclasses import replace

    from service.rules.games import find_game
    from service.rules.thirteen import GSCAS

    assert find_game("joker-thirteen").default.rules is GSCAS
    players = worked_hands()
    house = score_round(players)
    doubled = replace(
        GSCAS, id="doubled", sweep_points=2, home_run_points=6, bonus={key: 2 * p for key, p in GSCAS.bonus.items()}
    )
    other = score_round(players, doubled)
    assert [p.total for p in other.players] == [2 * p.total for p in house.players]
    assert (
        any(p.total for p in house.players)
        and sum(p.total for p in other.players) == 0
        and doubled.digest != GSCAS.digest
        and (doubled.shot, doubled.home_run) == (2, 18)
    )
