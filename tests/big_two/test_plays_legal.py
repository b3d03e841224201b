"""plays/legal: every legal play of a turn, proven equal to what moves/validate accepts on every subset of
many random hands, in canonical order, each play once; the situations (first lead, lead, follow, the trick
come back) and the 422s of impossible input."""

from __future__ import annotations

import random
from functools import partial
from itertools import chain, combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.big_two import (
    HONG_KONG,
    TAIWAN,
    Action,
    ProblemCode,
    big_two_key,
    classify,
    legal_plays,
    validate_move,
)
from service.rules.big_two.plays import PlaysProblem, list_plays
from service.rules.cards import DECK, Suit, cards
from service.rules.errors import InvalidInputError
from tests.big_two.players import deal
from tests.big_two.test_ladder import RULE_SETS as LADDER_RULE_SETS


def random_table(rng: random.Random, avoid, rules=TAIWAN) -> list | None:
    """None (leading) or a random valid play from 13 cards outside ``avoid`` (dragons included)."""
    if rng.random() < 0.2:
        return None
    others = [c for c in DECK if c not in avoid]
    rng.shuffle(others)
    return list(rng.choice(legal_plays(others[:13], None, rules)))


def subsets(hand):
    return chain.from_iterable(combinations(hand, size) for size in range(1, len(hand) + 1))


def refusal(function, *args, **kwargs) -> list[tuple[str, tuple]] | None:
    """The problems of the impossible input ``function`` refuses, in a canonical order; None if it answers."""
    try:
        function(*args, **kwargs)
    except InvalidInputError as refused:
        return sorted((p.code, p.path) for p in refused.problems)
    return None


def prove(rng: random.Random, hands: int, largest: int = 13, rules=TAIWAN) -> int:
    """For ``hands`` random hands and tables at a table of ``rules``: the listed plays are exactly the
    non-empty subsets that validate_move accepts, and may_pass is exactly whether it accepts a pass, or both
    refuse the question alike. Drawn: the game's first lead (most often as it comes, from 13 cards holding
    the lowest card with no table; now and then from any hand, onto any table) and a player who passed in
    the trick, on any turn. Returns subsets checked."""
    checked = 0
    for _ in range(hands):
        hand = rng.sample(DECK, rng.randint(1, largest))
        if largest == 13 and rng.random() < 0.1:  # a dealt dragon now and then, so the 13-card plays are proven too
            hand = rng.choice([h for h in deal(rng, rng.choice(["dragon", "green"])) if classify(h).valid])
        table = random_table(rng, hand, rules)
        opening = table is None and len(hand) == 13 and rules.ladder.lowest_card in hand
        first_lead = rng.random() < (0.5 if opening else 0.1)
        passed = rng.random() < 0.2
        turn = {"first_lead": first_lead, "passed": passed}
        refused = refusal(list_plays, hand, table, rules=rules, **turn)
        assert refused == refusal(validate_move, hand, table, Action.pass_(), rules, **turn), (hand, table)
        if refused is not None:
            continue
        listed = list_plays(hand, table, first_lead=first_lead, passed=passed, rules=rules)
        plays = [frozenset(p.cards) for p in listed.plays()]
        assert len(set(plays)) == len(plays)  # each play once
        accepted = set()
        for subset in subsets(hand):
            checked += 1
            if validate_move(hand, table, Action.play(subset), rules, first_lead=first_lead, passed=passed).legal:
                accepted.add(frozenset(subset))
        assert set(plays) == accepted, (hand, table)
        assert (
            listed.may_pass
            == validate_move(hand, table, Action.pass_(), rules, first_lead=first_lead, passed=passed).legal
        )
        assert listed.leading == (table is None)
    return checked


def test_listed_plays_are_exactly_the_subsets_moves_validate_accepts():
    assert prove(random.Random("plays-legal"), 60, largest=10) > 60 * 50


def test_listed_plays_equal_moves_validate_on_every_subset_of_full_hands():
    assert prove(random.Random("plays-legal-13"), 6) > 6 * 8


def with_the_other_turn(rules):
    """``rules`` with the other turn: the first play holding the lowest card or not, a pass locking or not."""
    return rules.with_parameters(
        first_play_has_lowest_card=not rules.first_play_has_lowest_card, pass_locks=not rules.pass_locks
    )


# every table the property tests draw (test_ladder.py's), each with its own turn and with the other one
TABLES = [*LADDER_RULE_SETS[1:], *map(with_the_other_turn, LADDER_RULE_SETS)]


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.id + r.digest)
def test_listed_plays_are_exactly_the_subsets_moves_validate_accepts_on_other_tables(rules):
    assert prove(random.Random(rules.digest), 30, largest=10, rules=rules) > 30 * 30
    assert prove(random.Random(rules.digest + "13"), 2, rules=rules) >= 2


@pytest.mark.parametrize("rules", [TAIWAN, *TABLES], ids=lambda r: r.id + r.digest)
def test_a_first_lead_and_a_player_who_passed_are_answered_or_refused_alike_on_every_table(rules):
    """Where the first play must hold the lowest card, a first lead no game reaches (fewer than 13 cards,
    without that card, onto a table) is refused by both operations at the same fields; elsewhere ``first_lead``
    is read as false by both. A player who passed, leading or following, is answered alike."""
    rng = random.Random(rules.digest + "turns")
    refused = 0
    for _ in range(40):
        hand = rng.sample(DECK, rng.choice([1, 5, 12, 13, 13]))
        table = random_table(rng, hand, rules)
        for first_lead, passed in ((True, False), (True, True), (False, True)):
            turn = {"first_lead": first_lead, "passed": passed}
            listed = refusal(list_plays, hand, table, rules=rules, **turn)
            assert listed == refusal(validate_move, hand, table, Action.pass_(), rules, **turn), (hand, table, turn)
            lowest_due = rules.first_play_has_lowest_card and first_lead
            opening = table is None and len(hand) == 13 and rules.ladder.lowest_card in hand
            assert (listed is not None) == (lowest_due and not opening), (hand, table, first_lead)
            refused += listed is not None
    assert refused > 0 if rules.first_play_has_lowest_card else refused == 0


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_listed_plays_equal_moves_validate_on_every_subset_of_many_more_hands(chunk):
    assert prove(random.Random(f"plays-legal-slow-{chunk}"), 25) > 25 * 100


# ---- canonical order


def test_groups_follow_the_ladder_and_plays_sort_by_strength_then_cards():
    rng = random.Random("canonical")
    for _ in range(200):
        hand = rng.sample(DECK, 13)
        listed = list_plays(hand, random_table(rng, hand))
        rungs = [g.plays[0].hand.strength[0] for g in listed.groups]
        assert rungs == sorted(set(rungs))
        for group in listed.groups:
            assert all(p.hand.category == group.combination for p in group.plays)
            keys = [(p.hand.strength, [big_two_key(c) for c in p.cards]) for p in group.plays]
            assert keys == sorted(keys) and len(set(map(str, keys))) == len(keys)
            assert all(list(p.cards) == sorted(p.cards, key=big_two_key) for p in group.plays)
            assert all(p.monster == (group.combination in ("four_of_a_kind", "straight_flush")) for p in group.plays)


@settings(max_examples=60)
@given(st.randoms(use_true_random=False), st.integers(1, 13))
def test_card_order_never_changes_the_answer(rng, size):
    hand = rng.sample(DECK, size)
    table = random_table(rng, hand)
    shuffled_hand, shuffled_table = rng.sample(hand, size), None if table is None else rng.sample(table, len(table))
    assert list_plays(shuffled_hand, shuffled_table) == list_plays(hand, table)


# ---- named cases


def test_a_follower_on_a_pair_of_jacks_may_play_the_higher_pair_or_pass():
    listed = list_plays(cards("3c 7d Jh Js 2h"), cards("Jd Jc"))
    assert (listed.leading, listed.may_pass, listed.count) == (False, True, 1)
    assert [(g.combination, [p.cards for p in g.plays]) for g in listed.groups] == [("pair", [tuple(cards("Jh Js"))])]


def test_a_leader_lists_every_single_pair_and_five_card_play_and_may_not_pass():
    listed = list_plays(cards("3c 3d 4h 5s 6c 7d"))
    assert (listed.leading, listed.may_pass, listed.table) == (True, False, None)
    assert [(g.combination, [" ".join(map(str, p.cards)) for p in g.plays]) for g in listed.groups] == [
        ("single", ["3c", "3d", "4h", "5s", "6c", "7d"]),
        ("pair", ["3c 3d"]),
        ("straight", ["3c 4h 5s 6c 7d", "3d 4h 5s 6c 7d"]),
    ]


def test_when_the_last_play_was_the_players_own_the_trick_came_back_and_it_leads():
    """「其餘三家連續都 PASS ... 由最後出牌的那個人重新自由起牌」"""
    back = list_plays(cards("3c 7d Jh"), cards("Ks Kh"), table_seat=2, seat=2)
    assert (back.leading, back.may_pass, back.table, back.count) == (True, False, None, 3)
    other = list_plays(cards("3c 7d Jh"), cards("Ks Kh"), table_seat=1, seat=2)
    assert (other.leading, other.may_pass, other.count) == (False, True, 0)


def test_the_games_first_lead_is_any_lead_the_three_of_clubs_not_required():
    """「第一手可以出任何合法牌型，不必包含梅花 3」"""
    hand = cards("3c 4d 5h 6s 7c 9d Th Js Qc Kd Ah 2s 2c")
    first = list_plays(hand, first_lead=True)
    assert first == list_plays(hand)
    assert any(cards("2c") == list(p.cards) for p in first.plays())


def test_a_dragon_and_a_green_dragon_are_listed_while_holding_all_13_on_any_table():
    dragon = cards("3d 4d 5h 6s 7d 8d 9h Ts Jd Qd Kh As 2s")
    green = [c for c in DECK if c.suit is Suit.CLUBS]
    listed = list_plays(dragon, cards("2h"))
    assert [g.combination for g in listed.groups] == ["single", "dragon"]  # the 2s beats the 2h; the dragon beats all
    greens = list_plays(green, cards("Ah Ad As Ks Kh"))
    assert greens.groups[-1].combination == "green_dragon" and greens.groups[-1].plays[0].cards == tuple(
        sorted(green, key=big_two_key)
    )


def test_nothing_but_a_pass_beats_a_straight_flush_without_a_higher_one():
    listed = list_plays(cards("3c 4c 5c 6c 7c 8h 8d 8s 8c"), cards("9s Ts Js Qs Ks"))
    assert (listed.count, listed.may_pass) == (0, True)


# ---- impossible input (422)


def codes(call) -> list[tuple[str, tuple]]:
    with pytest.raises(InvalidInputError) as raised:
        call()
    return [(p.code, p.path) for p in raised.value.problems]


def test_impossible_situations_are_refused_with_their_paths():
    assert codes(lambda: list_plays(cards("3c 3c"))) == [("duplicate_card", ("hand", 1))]
    assert codes(lambda: list_plays(cards("3c 4c"), cards("4c"))) == [("duplicate_card", ("table", "cards", 0))]
    assert codes(lambda: list_plays(cards("3c 4c"), cards("5c 6d"))) == [
        (PlaysProblem.TABLE_NOT_A_PLAY, ("table", "cards"))
    ]
    assert codes(lambda: list_plays(DECK[:14])) == [("wrong_card_count", ("hand",))]
    first_lead = partial(list_plays, first_lead=True, passed=False, rules=HONG_KONG)  # its first play holds 3d
    assert codes(lambda: first_lead(cards("3d 4c"))) == [(ProblemCode.FIRST_LEAD_HAND, ("hand",))]
    hand = cards("3d 4d 5h 6s 7c 9d Th Js Qc Kd Ah 2s 2c")
    assert codes(lambda: first_lead(hand, cards("3c"))) == [(ProblemCode.FIRST_LEAD_WITH_TABLE, ("table",))]
    assert codes(lambda: first_lead(hand[1:] + cards("3c"))) == [(ProblemCode.FIRST_LEAD_HAND, ("hand",))]
    assert codes(lambda: list_plays(cards("3c"), cards("4c"), table_seat=1)) == [(ProblemCode.SEAT_NEEDED, ("seat",))]


# ---- over HTTP


def test_http_answer_is_the_core_answer_in_both_languages(post):
    body = {"hand": ["3c", "7d", "Jh", "Js", "2h"], "table": {"cards": ["Jd", "Jc"], "seat": 1}, "seat": 2}
    status, en = post("big-two/plays/legal", body)
    assert status == 200 and en["count"] == 1 and en["groups"][0]["plays"][0]["cards"] == ["Jh", "Js"]
    status, zh = post("big-two/plays/legal", body, headers={"Accept-Language": "zh-TW"})
    assert status == 200 and zh["groups"][0]["plays"][0]["hand"]["label"] == "對子" and zh["table"]["label"] == "對子"


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"hand": ["3c", "3c"]}, "/hand/1"),
        ({"hand": ["3c", "4c"], "table": {"cards": ["4c"]}}, "/table/cards/0"),
        ({"hand": ["3c", "4c"], "table": {"cards": ["5c", "6d"]}}, "/table/cards"),
        ({"hand": [c.text for c in DECK[:14]]}, "/hand"),
        ({"hand": ["3d", "4c"], "first_lead": True, "passed": False, "rule_set": "hong-kong"}, "/hand"),
        ({"hand": ["3c"], "table": {"cards": ["4c"], "seat": 1}}, "/seat"),
        ({"hand": ["3c"], "seat": 4}, "/seat"),
    ],
)
def test_http_refuses_impossible_input_with_422_at_the_field(post, body, pointer):
    status, problem = post("big-two/plays/legal", body)
    assert status == 422 and pointer in [e["pointer"] for e in problem["errors"]]
