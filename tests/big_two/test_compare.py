"""誰能壓誰: ranks, suits, the straight order, monsters and dragons."""

import pytest

from service.rules.big_two import STRAIGHTS, CompareReason, big_two_key, classify, compare, judge, sort_cards
from service.rules.cards import DECK, Suit, cards


def verdict(table: str, play: str) -> tuple[bool, str]:
    result = compare(cards(table), cards(play))
    return result.beats, result.reason.value


# ---- single cards: 「先比點數，點數相同再比花色」


def test_single_card_order_is_3_lowest_then_up_to_k_a_2_and_clubs_diamonds_hearts_spades():
    ordered = sorted(DECK, key=lambda c: classify([c]).hand.strength)
    assert [str(c) for c in ordered[:5]] == ["3c", "3d", "3h", "3s", "4c"]
    assert [str(c) for c in ordered[-8:]] == ["Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s"]
    assert ordered == list(sort_cards(DECK)) == sorted(DECK, key=big_two_key)


def test_two_of_spades_is_the_highest_single_and_three_of_clubs_the_lowest():
    assert verdict("2h", "2s") == (True, "higher_suit")
    assert verdict("3c", "3d") == (True, "higher_suit")
    assert all(compare(cards("2s"), [c]).beats is False for c in DECK if str(c) != "2s")
    assert all(compare(cards("3c"), [c]).beats is True for c in DECK if str(c) != "3c")


def test_single_rank_beats_suit():
    assert verdict("Ks", "Ac") == (True, "higher_rank")
    assert verdict("As", "2c") == (True, "higher_rank")
    assert verdict("2c", "As") == (False, "lower")


def test_suit_order_is_clubs_diamonds_hearts_spades():
    assert [s.order for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)] == [0, 1, 2, 3]
    assert verdict("7c", "7d") == verdict("7d", "7h") == verdict("7h", "7s") == (True, "higher_suit")


# ---- pairs: 「點數相同時，比兩張之中較大的那個花色（有黑桃的那一對較大）」


def test_pair_of_one_rank_is_decided_by_its_higher_suit():
    assert verdict("Kh Kd", "Ks Kc") == (True, "higher_suit")
    assert verdict("Ks Kc", "Kh Kd") == (False, "lower")
    assert verdict("Kc Kd", "Ks Kh") == (True, "higher_suit")


def test_pair_rank_comes_before_suit():
    assert verdict("Ks Kh", "Ac Ad") == (True, "higher_rank")
    assert verdict("2c 2d", "As Ah") == (False, "lower")


# ---- straights: 「同一種順子比『點數最大那張牌』的花色」, with 2 > A > K


def test_same_straight_compares_the_suit_of_its_highest_ranked_card():
    assert verdict("3s 4s 5s 6s 7c", "3c 4c 5c 6d 7d") == (True, "higher_suit")


def test_a2345_compares_its_two_not_its_ace_or_five():
    assert verdict("As 2c 3s 4s 5s", "Ac 2d 3c 4c 5c") == (True, "higher_suit")
    assert verdict("Ac 2d 3c 4c 5c", "As 2c 3s 4s 5s") == (False, "lower")


def test_23456_compares_its_two():
    assert verdict("2c 3s 4s 5s 6s", "2d 3c 4c 5c 6c") == (True, "higher_suit")


def test_tjqka_compares_its_ace():
    assert verdict("Ts Js Qs Ks Ad", "Tc Jc Qc Kc Ah") == (True, "higher_suit")


def test_23456_is_the_highest_straight_and_a2345_the_lowest():
    assert verdict("Ts Js Qs Ks Ah", "2c 3d 4c 5c 6c") == (True, "higher_sequence")
    assert verdict("Ac 2s 3s 4s 5s", "3c 4d 5c 6c 7c") == (True, "higher_sequence")
    assert verdict("3c 4d 5c 6c 7c", "Ac 2s 3s 4s 5s") == (False, "lower")


# ---- full house and four of a kind: only the triple / the four count


def test_full_house_compares_only_its_triple():
    assert verdict("3s 3h 3d 2s 2h", "4c 4d 4h 5c 5d") == (True, "higher_rank")
    assert verdict("4c 4d 4h 5c 5d", "3s 3h 3d 2s 2h") == (False, "lower")


def test_four_of_a_kind_compares_only_its_rank():
    assert verdict("9c 9d 9h 9s 2s", "Tc Td Th Ts 3c") == (True, "higher_rank")
    assert verdict("2c 2d 2h 2s 3c", "Ac Ad Ah As Ks") == (False, "lower")


# ---- 「一般牌型只能被同一種牌型壓過」


@pytest.mark.parametrize(
    "table, play",
    [
        ("3c 4d 5h 6s 7c", "8c 8d 8h 9c 9d"),  # full house on a straight
        ("8c 8d 8h 9c 9d", "Tc Jd Qh Ks Ac"),  # straight on a full house
        ("3c", "2s 2h"),  # pair on a single
        ("3c 3d", "2s"),  # single on a pair
        ("3c", "Tc Jd Qh Ks Ac"),  # straight on a single
    ],
)
def test_normal_play_beats_only_the_same_combination(table, play):
    assert verdict(table, play) == (False, "different_combination")


# ---- monsters: 「不受張數限制」, 「同花順 ＞ 鐵支」


@pytest.mark.parametrize("table", ["2s", "2s 2h", "2c 3d 4c 5c 6c", "2c 2d 2h Ac Ad"])
def test_four_of_a_kind_beats_any_normal_play_including_singles_and_pairs(table):
    assert verdict(table, "9c 9d 9h 9s Kc") == (True, "monster_beats_normal")


@pytest.mark.parametrize("table", ["2s", "2s 2h", "2c 3d 4c 5c 6c", "2c 2d 2h Ac Ad"])
def test_straight_flush_beats_any_normal_play_including_singles_and_pairs(table):
    assert verdict(table, "8d 9d Td Jd Qd") == (True, "monster_beats_normal")


@pytest.mark.parametrize("table", ["2s", "2s 2h", "2c 3d 4c 5c 6c", "2c 2d 2h Ac Ad"])
def test_normal_play_cannot_beat_a_monster(table):
    assert verdict("9c 9d 9h 9s Kc", table) == (False, "normal_cannot_beat_monster")
    assert verdict("8d 9d Td Jd Qd", table) == (False, "normal_cannot_beat_monster")


def test_any_straight_flush_beats_any_four_of_a_kind():
    assert verdict("2c 2d 2h 2s As", "3d 4d 5d 6d 7d") == (True, "straight_flush_beats_quads")
    assert verdict("3h 4h 5h 6h 7h", "2c 2d 2h 2s As") == (False, "quads_cannot_beat_straight_flush")


def test_lowest_straight_flush_beats_four_of_a_kind():
    lowest = "Ac 2c 3c 4c 5c"
    assert classify(cards(lowest)).hand.strength == (6, 0, 0)
    assert verdict("Kc Kd Kh Ks 3s", lowest) == (True, "straight_flush_beats_quads")


def test_straight_flush_against_straight_flush_compares_sequence_then_suit():
    assert verdict("3s 4s 5s 6s 7s", "4c 5c 6c 7c 8c") == (True, "higher_sequence")
    assert verdict("4c 5c 6c 7c 8c", "4d 5d 6d 7d 8d") == (True, "higher_suit")
    assert verdict("2s 3s 4s 5s 6s", "Th Jh Qh Kh Ah") == (False, "lower")


# ---- dragons: 「任何牌都壓不過它」


def dragon_avoiding(used) -> list:
    """A dragon (one card of each rank) that uses none of ``used``."""
    return [next(c for c in DECK if c.rank == rank and c not in used) for rank in range(2, 15)]


# A four of a kind never meets a dragon: the dragon holds one card of every rank.
@pytest.mark.parametrize("table", ["2s", "2s 2h", "2c 3d 4c 5c 6c", "2c 2d 2h Ac Ad", "2s 3s 4s 5s 6s"])
def test_dragon_beats_anything(table):
    result = compare(cards(table), dragon_avoiding(cards(table)))
    assert (result.beats, result.reason) == (True, CompareReason.DRAGON_BEATS_ALL)


def test_nothing_beats_a_dragon():
    straight_flush = cards("2s 3s 4s 5s 6s")
    result = compare(dragon_avoiding(straight_flush), straight_flush)
    assert (result.beats, result.reason) == (False, CompareReason.NOTHING_BEATS_DRAGON)
    green = [c for c in DECK if c.suit == "h"]
    result = compare(dragon_avoiding(green), green)
    assert (result.beats, result.reason) == (False, CompareReason.NOTHING_BEATS_DRAGON)


# ---- what compare will not judge


def test_compare_reports_an_invalid_table_or_play_with_its_reason():
    result = compare(cards("2h 4h 5h 6h 8h"), cards("3c"))
    assert (result.beats, result.reason, [v.code for v in result.violations]) == (
        False,
        "invalid_table",
        ["flush_not_a_combination"],
    )
    result = compare(cards("3c"), cards("9c 9d 9h"))
    assert (result.beats, result.reason, [v.code for v in result.violations]) == (
        False,
        "invalid_play",
        ["triple_not_a_combination"],
    )


def test_a_card_on_the_table_cannot_also_be_played():
    result = compare(cards("3c"), cards("3c"))
    assert (result.beats, result.reason, [v.code for v in result.violations]) == (
        False,
        "duplicate_card",
        ["duplicate_card"],
    )


def test_equal_strength_does_not_beat():
    hand = classify(cards("3c 4d 5h 6s 7c")).hand
    assert judge(hand, hand) == (False, CompareReason.EQUAL)


# ---- judge on one combination by its strengths at once, against the place-by-place reading -------------


def judged_place_by_place(table, play):
    """``judge`` as it was, for two plays of one combination: the first place after the rung that
    differs decides, a sequence's or a rank's place first, then the suit's."""
    from service.rules.big_two.common import Combination

    for place, (mine, theirs) in enumerate(zip(play.strength[1:], table.strength[1:]), start=1):
        if mine != theirs:
            if mine < theirs:
                return False, CompareReason.LOWER
            if place > 1:
                return True, CompareReason.HIGHER_SUIT
            sequenced = play.category in (Combination.STRAIGHT, Combination.STRAIGHT_FLUSH)
            return True, CompareReason.HIGHER_SEQUENCE if sequenced else CompareReason.HIGHER_RANK
    return False, CompareReason.EQUAL


def test_one_combination_judged_at_once_as_place_by_place():
    import random

    rng = random.Random("judge")
    by_kind: dict = {}
    singles_and_pairs = [(c,) for c in DECK] + [(a, b) for a in DECK for b in DECK if a.rank == b.rank and a is not b]
    monsters = [tuple(c for c in DECK if c.rank == rank) + (rng.choice([c for c in DECK if c.rank != rank]),)
                for rank in range(2, 15)]  # fmt: skip
    monsters += [tuple(c for c in DECK if c.suit is suit and c.rank in ranks) for suit in Suit for ranks in STRAIGHTS]
    for played in singles_and_pairs + monsters + [tuple(rng.sample(DECK, 5)) for _ in range(60000)]:
        hand = classify(played).hand
        if hand is not None:
            by_kind.setdefault(hand.category, []).append(hand)
    assert set(by_kind) == {"single", "pair", "straight", "full_house", "four_of_a_kind", "straight_flush"}
    for hands in by_kind.values():
        sample = hands if len(hands) <= 200 else rng.sample(hands, 200)
        for table in sample:
            for play in sample:
                assert judge(table, play) == judged_place_by_place(table, play), (table, play)


# --- compare and validate_move read a single, pair or five-card play from play_value's tables ------------


def _compare_as_before(table, play):
    """``compare`` as it was: both sides classified in full, then the same checks."""
    from service.rules.big_two import Comparison
    from service.rules.cards import card_texts
    from service.rules.errors import violation

    on_table, played = classify(table), classify(play)
    if not on_table.valid:
        return Comparison(False, CompareReason.INVALID_TABLE, None, played.hand, on_table.violations)
    if not played.valid:
        return Comparison(False, CompareReason.INVALID_PLAY, on_table.hand, None, played.violations)
    if not set(table).isdisjoint(play):
        shared = sort_cards(set(table) & set(play))
        both = violation(
            "big-two", CompareReason.DUPLICATE_CARD, shared, case="table_and_play", these=" ".join(card_texts(shared))
        )
        return Comparison(False, CompareReason.DUPLICATE_CARD, on_table.hand, played.hand, (both,))
    beats, reason = judge(on_table.hand, played.hand)
    return Comparison(beats, reason, on_table.hand, played.hand)


def test_compare_and_validate_move_answer_as_when_both_sides_were_classified_in_full():
    """On 30000 random pairs of plays (every size 1-6 and 13, often overlapping, often one combination) and
    a move for each, ``compare`` answers what classifying both sides did, and ``validate_move`` what its
    ``classify`` of the table and the play found (its answer with ``play_value`` switched off)."""
    import random

    from service.rules.big_two import Action, combinations, moves, validate_move

    rng = random.Random("compare-fast")
    cases = []
    for _ in range(30000):
        size = rng.choice([1, 1, 2, 2, 3, 5, 5, 5, 6, 13])
        table = tuple(rng.sample(DECK, size))
        play = tuple(rng.sample(DECK, rng.choice([size, size, size, 1, 5])))
        cases.append((table, play))
        assert compare(table, play) == _compare_as_before(table, play), (table, play)
    moved = []
    for table, play in cases[:6000]:
        hand = tuple(dict.fromkeys(play + tuple(rng.sample(DECK, rng.randrange(0, 8)))))[:13]
        kind = rng.choice(["play", "play", "pass"])
        moved.append((hand, None if rng.randrange(5) == 0 else table, Action.of(kind, play if kind == "play" else ())))
    fast = [validate_move(*m) for m in moved]
    original = moves.play_value
    moves.play_value = lambda played, rules: None  # every play and table through classify, as before
    try:
        assert [validate_move(*m) for m in moved] == fast
    finally:
        moves.play_value = original
    assert combinations.play_value is original
    assert sum(r.legal for r in fast) > 300 and sum(not r.legal for r in fast) > 300
