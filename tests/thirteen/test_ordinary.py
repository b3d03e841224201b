"""Ordinary 十三支 (rule set ``ORDINARY``, deck ``ORDINARY_DECK``): each way it differs from Joker Thirteen,
one named test each, Joker Thirteen's answer beside it where the contrast is the point.

One 52-card deck, every card distinct: 13 dealt, all 13 set, nothing discarded; no jokers, so no 鬼三條; no
second copy, so no pair flush and no five of a kind; a card twice is the card notation's ``duplicate_card``.
The worked rounds below use all 52 cards once; their scores are worked out by hand in the comments.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from service.rules import thirteen as j13
from service.rules.cards import DECK, JOKER, Card, Suit, cards, parse_cards
from service.rules.errors import CardNotationError, InvalidInputError
from service.rules.thirteen import (
    GSCAS,
    HEAD,
    JOKER_DECK,
    MIDDLE,
    ORDINARY,
    ORDINARY_DECK,
    RUNG,
    TAIL,
    Arrangement,
    Category,
    Dun,
    compare_duns,
    evaluate_dun,
    score_round,
    validate_arrangement,
)
from service.rules.thirteen import suggest as sg


def tail(text: str):
    return evaluate_dun(TAIL, cards(text), deck=ORDINARY_DECK)


def head(text: str):
    return evaluate_dun(HEAD, cards(text), deck=ORDINARY_DECK)


def problems(error: InvalidInputError) -> list[tuple]:
    return [(p.path, p.code, dict(p.params)) for p in error.problems]


def once(card: str) -> dict:
    """The params of ``duplicate_card`` for a card the deck holds once."""
    return {"case": "once", "card": card, "copies": 1}


# --- the deck and the deal ----------------------------------------------------------------------------


def test_the_ordinary_deck_is_the_52_distinct_cards_dealt_13_and_discarding_none():
    assert len(ORDINARY.deck.cards) == 52 == len(set(ORDINARY.deck.cards))
    assert set(ORDINARY.deck.cards) == set(DECK) and JOKER not in ORDINARY.deck.cards
    assert ORDINARY.deck is ORDINARY_DECK
    assert (ORDINARY_DECK.hand_size, ORDINARY_DECK.discards, ORDINARY_DECK.distinct) == (13, 0, True)
    # against Joker Thirteen's 68: a second spade suit and three jokers, 17 dealt, 4 discarded
    assert (len(JOKER_DECK.cards), JOKER_DECK.hand_size, JOKER_DECK.discards, JOKER_DECK.distinct) == (68, 17, 4, False)


def test_a_13_card_hand_placed_whole_is_legal_and_discards_nothing():
    placed = cards("Ac Kd Qh"), cards("Jh Th 8h 7h 6h"), cards("9s 9h 9d 5c 5d")
    result = validate_arrangement(*placed, hand=[c for dun in placed for c in dun], deck=ORDINARY_DECK)
    assert result.legal and result.violations == ()
    assert result.discarded == ()
    # high card A-K-Q < flush J-high < full house 9s over 5s
    assert [result.duns[d].category for d in (HEAD, MIDDLE, TAIL)] == ["high_card", "flush", "full_house"]


def test_a_17_card_hand_is_the_wrong_hand_size_13():
    dealt = cards("Ac Kd Qh Jh Th 8h 7h 6h 9s 9h 9d 5c 5d 2c 2d 3s 4s")
    placed = dealt[:3], dealt[3:8], dealt[8:13]
    result = validate_arrangement(*placed, hand=dealt, deck=ORDINARY_DECK)
    assert not result.legal
    assert [(v.code, dict(v.params)) for v in result.violations] == [("wrong_hand_size", {"size": 13, "actual": 17})]
    # the same deal is a legal Joker Thirteen hand: 17 cards, the 4 left over discarded
    joker = validate_arrangement(*placed, hand=dealt, deck=JOKER_DECK)
    assert joker.legal and sorted(c.text for c in joker.discarded) == ["2c", "2d", "3s", "4s"]


# --- categories the deck cannot make ------------------------------------------------------------------


def test_a_pair_in_one_suit_cannot_be_dealt_so_there_is_no_pair_flush():
    # Joker Thirteen holds every spade twice: a pair of aces of spades with three more spades is 對子同花
    assert evaluate_dun(TAIL, cards("As As Ks Qs 9s"), deck=JOKER_DECK).category == "pair_flush"
    # ordinary 十三支 holds each card once: the same dun is a card listed twice
    with pytest.raises(InvalidInputError) as raised:
        tail("As As Ks Qs 9s")
    assert problems(raised.value) == [(("cards", 1), "duplicate_card", once("As"))]
    # a pair needs two suits, so five cards of one suit are five ranks: a flush
    assert (tail("As Ks Qs 9s 2s").category, tail("As Ks Qs 9s 2s").strength) == ("flush", (7, 14, 13, 12, 9, 2))


def test_five_cards_of_one_suit_are_a_flush_or_one_of_ten_straight_flushes():
    """Every one of the 4 x C(13, 5) = 5,148 one-suit duns: 10 straight flushes per suit (5 high to ace high),
    1,277 flushes per suit, nothing else (no pair flush)."""
    for suit in Suit:
        found = Counter()
        highs = set()
        for five in combinations([c for c in DECK if c.suit is suit], 5):
            value = evaluate_dun(TAIL, five, deck=ORDINARY_DECK)
            found[value.category] += 1
            if value.category == "straight_flush":
                highs.add(value.strength[1])
        assert found == {"flush": 1277, "straight_flush": 10}, suit
        assert highs == set(range(5, 15)), suit


def test_no_five_of_a_kind_the_fifth_copy_is_a_duplicate():
    assert evaluate_dun(TAIL, cards("Ac Ad Ah As As"), deck=JOKER_DECK).category == "real_five"
    with pytest.raises(InvalidInputError) as raised:
        tail("Ac Ad Ah As As")
    assert problems(raised.value) == [(("cards", 4), "duplicate_card", once("As"))]
    # four of a rank and anything else: quads, kicker kept
    assert (tail("Ac Ad Ah As Kc").category, tail("Ac Ad Ah As Kc").strength) == ("quads", (10, 14, 13))


def test_a_joker_is_not_in_the_deck():
    # every core entry point refuses it: the deck holds no joker (0 copies)
    no_joker = {"case": "many", "card": "JK", "copies": 0}
    with pytest.raises(InvalidInputError) as raised:
        tail("As Ks Qs Js JK")
    assert problems(raised.value) == [(("cards", 4), "duplicate_card", no_joker)]
    with pytest.raises(InvalidInputError) as raised:
        head("JK JK JK")
    assert problems(raised.value) == [(("cards", 0), "duplicate_card", no_joker)]  # no 鬼三條
    with pytest.raises(InvalidInputError) as raised:
        compare_duns(HEAD, cards("Ac Ad 2c"), cards("JK 3c 4d"), deck=ORDINARY_DECK)
    assert problems(raised.value) == [(("b", 0), "duplicate_card", no_joker)]
    with pytest.raises(InvalidInputError) as raised:
        sg.check_hand(cards("JK 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"), ORDINARY_DECK)
    assert problems(raised.value) == [(("cards", 0), "duplicate_card", no_joker)]
    result = validate_arrangement(
        cards("2c 3d JK"), cards("9c 9d 9h 2s 2d"), cards("Ac Ad Ah As Kc"), deck=ORDINARY_DECK
    )
    assert not result.legal and [(v.code, dict(v.params)) for v in result.violations] == [
        ("too_many_copies", {"card": "JK", "copies": 0})
    ]
    # the notation of a game without jokers refuses the text itself
    with pytest.raises(CardNotationError) as raised:
        parse_cards(["As", "JK"], jokers=False)
    assert [(p.path, p.code) for p in raised.value.problems] == [((1,), "joker_not_allowed")]
    # the same five with Joker Thirteen's deck: the joker completes the royal straight flush
    joker = evaluate_dun(TAIL, cards("As Ks Qs Js JK"), deck=JOKER_DECK)
    assert (joker.category, joker.strength, joker.resolved) == ("straight_flush", (11, 14), (Card(10, Suit.SPADES),))


def test_a_joker_in_a_round_is_refused():
    players = [Arrangement(*(cards(dun) for dun in row)) for row in WORKED]
    players[3] = Arrangement(cards("Kh 5s 4s"), cards("Td Th 9h 8d 6s"), cards("Qd Qh Jd Jh JK"))
    with pytest.raises(InvalidInputError) as raised:
        score_round(players, ORDINARY)
    # where and what only: the params here say the deck holds the joker once (copies 1), the other checks 0
    assert [(p.path, p.code, p.params["card"]) for p in raised.value.problems] == [
        (("players", 3, "tail", 4), "duplicate_card", "JK")
    ]


@pytest.mark.slow
def test_every_dun_the_deck_deals_is_on_the_ordinary_ladder():
    """All 2,598,960 five-card duns and 22,100 heads, against the textbook counts of poker hands; and the
    number of distinct strengths per category (7,462 five-card classes: A-2-3-4-5 is a straight, no wrap)."""
    found, classes = Counter(), {}
    for five in combinations(DECK, 5):
        value = evaluate_dun(TAIL, five, deck=ORDINARY_DECK)
        found[value.category] += 1
        classes.setdefault(value.category, set()).add(value.strength)
    assert found == {
        "straight_flush": 40, "quads": 624, "full_house": 3_744, "flush": 5_108, "straight": 10_200,
        "trips": 54_912, "two_pair": 123_552, "pair": 1_098_240, "high_card": 1_302_540,
    }  # fmt: skip
    assert {c: len(s) for c, s in classes.items()} == {
        "straight_flush": 10, "quads": 156, "full_house": 156, "flush": 1_277, "straight": 10,
        "trips": 858, "two_pair": 858, "pair": 2_860, "high_card": 1_277,
    }  # fmt: skip
    heads = Counter(evaluate_dun(HEAD, three, deck=ORDINARY_DECK).category for three in combinations(DECK, 3))
    assert heads == {"trips": 52, "pair": 3_744, "high_card": 18_304}


# --- the ladder ---------------------------------------------------------------------------------------

LADDER = [  # up the ladder: each category's weakest and strongest dun
    ("high_card", "7c 5d 4h 3s 2c", "Ac Kd Qh Js 9c"),  # 7-5-4-3-2: 6-5-4-3-2 and 5-4-3-2-A are straights
    ("pair", "2c 2d 5h 4s 3c", "Ac Ad Kh Qs Jc"),
    ("two_pair", "3c 3d 2h 2s 4c", "Ac Ad Kh Ks Qc"),
    ("trips", "2c 2d 2h 4s 3c", "Ac Ad Ah Ks Qc"),
    ("straight", "Ac 2d 3h 4s 5c", "Tc Jd Qh Ks Ac"),
    ("flush", "7h 5h 4h 3h 2h", "Ah Kh Qh Jh 9h"),
    ("full_house", "2c 2d 2h 3s 3c", "Ac Ad Ah Ks Kc"),
    ("quads", "2c 2d 2h 2s 3c", "Ac Ad Ah As Kc"),
    ("straight_flush", "Ac 2c 3c 4c 5c", "Tc Jc Qc Kc Ac"),
]


def test_the_ladder_straight_flush_quads_full_house_flush_straight_trips_two_pair_pair_high_card():
    for category, weakest, strongest in LADDER:
        assert tail(weakest).category == tail(strongest).category == category
        assert tail(weakest).strength < tail(strongest).strength
    # a rung's weakest dun beats the strongest of the rung below, by strength and by compare_duns
    for (_, _, below), (category, above, _) in zip(LADDER, LADDER[1:]):
        assert tail(below).strength < tail(above).strength, category
        assert compare_duns(TAIL, cards(above), cards(below), deck=ORDINARY_DECK)[0] == "a", category
    # the rungs the ordinary deck can reach, in the engine's order
    ordinary = [c for c in sorted(RUNG, key=RUNG.__getitem__) if c not in _JOKER_OR_COPY]
    assert ordinary == [category for category, _, _ in LADDER]


_JOKER_OR_COPY = {Category.THREE_JOKERS, Category.PAIR_FLUSH, Category.JOKER_FIVE, Category.REAL_FIVE}


def test_a_2_3_4_5_is_the_lowest_straight_and_10_j_q_k_a_the_highest():
    wheel, six, broadway = tail("Ac 2d 3h 4s 5c"), tail("2c 3d 4h 5s 6c"), tail("Tc Jd Qh Ks Ac")
    assert (wheel.category, wheel.strength) == ("straight", (6, 5))  # five high: the ace counts low
    assert (six.strength, broadway.strength) == ((6, 6), (6, 14))
    assert wheel.strength < six.strength < broadway.strength
    # every straight there is lies between the two
    for high in range(6, 14):
        ranks = range(high - 4, high + 1)
        text = " ".join(f"{'23456789TJQKA'[r - 2]}{'cdhs'[i % 4]}" for i, r in enumerate(ranks))
        assert wheel.strength < tail(text).strength < broadway.strength, text
    # the same ranks in one suit: the lowest and highest straight flush, both above quads aces
    steel, royal, quad_aces = tail("Ah 2h 3h 4h 5h"), tail("Th Jh Qh Kh Ah"), tail("Ac Ad Ah As Kc")
    assert (steel.category, steel.strength, royal.strength) == ("straight_flush", (11, 5), (11, 14))
    assert quad_aces.strength < steel.strength


@pytest.mark.parametrize(
    ("text", "strength"),
    [
        ("Qc Kd Ah 2s 3c", (1, 14, 13, 12, 3, 2)),  # Q-K-A-2-3: no wrap past the ace
        ("Jc Qd Kh As 2c", (1, 14, 13, 12, 11, 2)),  # J-Q-K-A-2
        ("Kc Ad 2h 3s 4c", (1, 14, 13, 4, 3, 2)),  # K-A-2-3-4
        ("Qh Kh Ah 2h 3h", (7, 14, 13, 12, 3, 2)),  # in one suit: a flush, not a straight flush
    ],
)
def test_a_run_through_the_ace_is_no_straight(text, strength):
    value = tail(text)
    assert value.strength == strength
    assert value.category == ("flush" if strength[0] == 7 else "high_card")


def test_a_head_has_no_straight_or_flush():
    assert (head("Qh Kh Ah").category, head("Qh Kh Ah").strength) == ("high_card", (1, 14, 13, 12))
    assert (head("Kc Kd Ah").category, head("Kc Kd Ah").strength) == ("pair", (2, 13, 14))
    assert (head("Kc Kd Kh").category, head("Kc Kd Kh").strength) == ("trips", (4, 13))


# --- scoring ------------------------------------------------------------------------------------------


def test_the_ordinary_points_are_the_house_rules_without_the_joker_and_copy_bonuses():
    assert (ORDINARY.id, ORDINARY.shot, ORDINARY.home_run) == ("ordinary", 1, 9)
    assert dict(ORDINARY.bonus) == {
        (Dun.HEAD, Category.TRIPS): 1,
        (Dun.MIDDLE, Category.QUADS): 2,
        (Dun.MIDDLE, Category.STRAIGHT_FLUSH): 2,
        (Dun.TAIL, Category.QUADS): 1,
        (Dun.TAIL, Category.STRAIGHT_FLUSH): 1,
    }
    # exactly Joker Thirteen's table less the categories that need a joker or a second copy
    assert dict(ORDINARY.bonus) == {k: p for k, p in GSCAS.bonus.items() if k[1] not in _JOKER_OR_COPY}
    # nothing for any other category in any dun: a middle full house, a head pair, a tail flush
    assert j13.bonus(MIDDLE, tail("2c 2d 2h 3s 3c"), ORDINARY) == 0
    assert j13.bonus(HEAD, head("Kc Kd Ah"), ORDINARY) == 0
    assert j13.bonus(TAIL, tail("2h 3h 4h 5h 7h"), ORDINARY) == 0
    assert j13.bonus(HEAD, head("Kc Kd Kh"), ORDINARY) == 1
    assert j13.bonus(MIDDLE, tail("Ah 2h 3h 4h 5h"), ORDINARY) == 2
    assert j13.bonus(TAIL, tail("Ac Ad Ah As Kc"), ORDINARY) == 1


# The round played with all 52 cards (the hand of each is its 13 placed cards):
#   seat 0: head trips 3,       middle quads 2 (kicker 4), tail K-high straight flush (spades)
#   seat 1: head pair 5 (k 4),  middle full house 7s on 6s, tail quads A (kicker 8)
#   seat 2: head K-8-3,         middle 8-high straight flush, tail K-high straight flush (clubs)
#   seat 3: head K-5-4,         middle pair T,              tail two pair Q J (kicker 9)
# Heads: 0 > 1 > 2 > 3 (K-8-3 beats K-5-4). Middles: 2 > 0 > 1 > 3. Tails: 0 = 2 > 1 > 3.
#   0-1: 0 wins all three, shot +1; bonus head trips 1 + middle quads 2 + tail SF 1 = 4: 0 gets +5
#   0-2: head 0, middle 2, tail tie: no shot; 0 +1 (head trips), 2 +2 (middle SF): 0 gets -1
#   0-3: as 0-1: 0 gets +5
#   1-2: head 1 (a pair: no bonus), middle 2 (+2), tail 2 (+1): 1 gets -3
#   1-3: 1 wins all three, shot +1; middle full house 0, tail quads +1: 1 gets +2
#   2-3: 2 wins all three, shot +1; middle SF 2 + tail SF 1: 2 gets +4
# Nobody shoots all three. Totals: 0: 5 - 1 + 5 = 9; 1: -5 - 3 + 2 = -6; 2: 1 + 3 + 4 = 8; 3: -5 - 2 - 4 = -11.
# Shots 2, 0, 1, -3; bonuses 4 - 1 + 4 = 7, -4 - 3 + 1 = -6, 1 + 3 + 3 = 7, -4 - 1 - 3 = -8.
WORKED = [
    ("3c 3d 3h", "2c 2d 2h 2s 4c", "9s Ts Js Qs Ks"),
    ("5c 5d 4d", "7c 7d 7s 6c 6d", "Ac Ad Ah As 8c"),
    ("Kd 8s 3s", "4h 5h 6h 7h 8h", "9c Tc Jc Qc Kc"),
    ("Kh 5s 4s", "Td Th 9h 8d 6s", "Qd Qh Jd Jh 9d"),
]


def dealt(rows, hands: bool = True) -> list[Arrangement]:
    return [Arrangement(cards(h), cards(m), cards(t), cards(f"{h} {m} {t}") if hands else None) for h, m, t in rows]


def test_the_worked_rounds_use_each_of_the_52_cards_once():
    for rows in (WORKED, HOME_RUN):
        held = [c for p in dealt(rows) for c in p.hand]
        assert sorted(held, key=lambda c: c.index) == list(DECK)


def test_worked_round_totals_9_minus6_8_minus11():
    score = score_round(dealt(WORKED), ORDINARY)
    assert [(p.total, p.shots, p.home_run, p.bonus) for p in score.players] == [
        (9, 2, 0, 7),
        (-6, 0, 0, -6),
        (8, 1, 0, 7),
        (-11, -3, 0, -8),
    ]
    assert [(m.a, m.b, m.shot, m.bonus_a, m.bonus_b, m.points_a) for m in score.matchups] == [
        (0, 1, "a", 4, 0, 5),
        (0, 2, None, 1, 2, -1),
        (0, 3, "a", 4, 0, 5),
        (1, 2, None, 0, 3, -3),
        (1, 3, "a", 1, 0, 2),  # the full house in the middle earns nothing, the quads in the tail 1
        (2, 3, "a", 3, 0, 4),
    ]
    assert dict(score.matchups[1].duns) == {"head": "a", "middle": "b", "tail": "tie"}
    assert [p.duns[MIDDLE].category for p in score.players] == ["quads", "full_house", "straight_flush", "pair"]


# Seat 2 sets the same 13 cards another legal way: head K-8-3 (8 of hearts), middle 4-8 straight (8 of
# spades), tail the clubs' straight flush. Now seat 0 also beats seat 2's middle (quads > straight) and ties
# the tail: 0 shoots 2 too, bonus head 1 + middle 2 = 3, +4. 1-2: head 1, middle 1 (full house > straight),
# tail 2 (+1): 1 gets -1. 2-3: 2 wins all, +1 shot, tail SF +1: 2 gets +2. Before the home run: 0: 5 + 4 + 5
# = 14; 1: -5 - 1 + 2 = -4; 2: -4 + 1 + 2 = -1; 3: -5 - 2 - 2 = -9. 全壘打: 0 gets +9, 3 from each of the others.
HOME_RUN = [WORKED[0], WORKED[1], ("Kd 8h 3s", "4h 5h 6h 7h 8s", "9c Tc Jc Qc Kc"), WORKED[3]]


def test_a_home_run_is_9_three_from_each_of_the_others():
    score = score_round(dealt(HOME_RUN), ORDINARY)
    assert [p.total for p in score.players] == [23, -7, -4, -12]
    assert [p.home_run for p in score.players] == [9, -3, -3, -3]
    assert [p.shots for p in score.players] == [3, 0, 0, -3]
    assert [m.shot for m in score.matchups if m.a == 0] == ["a", "a", "a"]


def test_a_bonus_override_changes_exactly_the_middle_quads_and_straight_flush_points():
    """Middle quads 2 -> 5 and middle straight flush 2 -> 10, the worked round again:
    seat 0's middle quads beat seats 1 and 3: +3 each (0 +6, 1 -3, 3 -3);
    seat 2's middle straight flush beats seats 0, 1 and 3: +8 each (2 +24, 0 -8, 1 -8, 3 -8).
    Totals 9 + 6 - 8 = 7, -6 - 3 - 8 = -17, 8 + 24 = 32, -11 - 3 - 8 = -22; shots unchanged."""
    rules = ORDINARY.with_bonuses({"middle": {"quads": 5, "straight_flush": 10}})
    score = score_round(dealt(WORKED), rules)
    assert [p.total for p in score.players] == [7, -17, 32, -22]
    assert [p.shots for p in score.players] == [2, 0, 1, -3]
    assert [(m.bonus_a, m.bonus_b) for m in score.matchups] == [(7, 0), (1, 10), (7, 0), (0, 11), (1, 0), (11, 0)]
    # only the middle's table is replaced; the rule set is otherwise ORDINARY, and ORDINARY is unchanged
    assert dict(rules.bonus) == dict(ORDINARY.bonus) | {
        (MIDDLE, Category.QUADS): 5,
        (MIDDLE, Category.STRAIGHT_FLUSH): 10,
    }
    assert (rules.id, rules.shot, rules.home_run, rules.deck) == ("ordinary", 1, 9, ORDINARY_DECK)
    assert ORDINARY.bonus[MIDDLE, Category.QUADS] == 2
    assert rules.digest != ORDINARY.digest
    # the digest is of the parameters: the same table again is the same digest, GSCAS another
    assert ORDINARY.with_bonuses({"middle": {"quads": 2, "straight_flush": 2}}).digest == ORDINARY.digest
    assert len({ORDINARY.digest, GSCAS.digest, rules.digest}) == 3


@pytest.mark.parametrize(
    "tables",
    [
        {"head": {"trips": 1, "flush": 5}},  # a category a head cannot hold
        {"head": {"trips": 1, "four_of_a_kind": 5}},  # no such category
        {"neck": {"trips": 1}},  # no such dun
        {"tail": {"quads": 101, "straight_flush": 1}},  # above BONUS_MAX
        {"tail": {"quads": 1, "straight_flush": -1}},
    ],
)
def test_with_bonuses_refuses_a_category_the_dun_cannot_hold_or_points_out_of_range(tables):
    with pytest.raises(ValueError):
        ORDINARY.with_bonuses(tables)


def test_with_bonuses_takes_0_and_100_and_a_table_sent_is_replaced_whole():
    rules = ORDINARY.with_bonuses({"tail": {"quads": 0, "straight_flush": 100}, "head": {"trips": 0}})
    assert (rules.bonus[TAIL, Category.QUADS], rules.bonus[TAIL, Category.STRAIGHT_FLUSH]) == (0, 100)
    assert rules.bonus[HEAD, Category.TRIPS] == 0
    assert GSCAS.with_bonuses({"head": {"trips": 1, "three_jokers": 7}}).bonus[HEAD, Category.THREE_JOKERS] == 7
    # a category the table sent leaves out pays nothing; one the rule set did not pay is added
    head_only = GSCAS.with_bonuses({"head": {"trips": 2}})
    assert (head_only.bonus[HEAD, Category.TRIPS], head_only.bonus[HEAD, Category.THREE_JOKERS]) == (2, 0)
    full_house = ORDINARY.with_bonuses({"middle": {"full_house": 1}})
    assert [(d, c, p) for (d, c), p in full_house.bonus.items() if d is MIDDLE] == [
        (MIDDLE, Category.FULL_HOUSE, 1),  # listed up the ladder, however the table was written
        (MIDDLE, Category.QUADS, 0),
        (MIDDLE, Category.STRAIGHT_FLUSH, 0),
    ]
    assert (
        full_house.with_bonuses({"middle": {}}).bonus_by_rung
        == ORDINARY.with_bonuses({"middle": {"quads": 0, "straight_flush": 0}}).bonus_by_rung
    )


# --- a card twice -------------------------------------------------------------------------------------


def test_suggest_refuses_17_cards_and_a_repeated_card():
    dealt17 = cards("Ac Kd Qh Jh Th 8h 7h 6h 9s 9h 9d 5c 5d 2c 2d 3s 4s")
    with pytest.raises(InvalidInputError) as raised:
        sg.check_hand(dealt17, ORDINARY_DECK)
    assert problems(raised.value) == [(("cards",), "suggest_hand_size", {"actual": 17, "case": "deal"})]
    assert sg.hand_sizes(ORDINARY_DECK) == (13,) and sg.hand_sizes(JOKER_DECK) == (13, 17)
    # Joker Thirteen's deal is 17: the same cards are taken there and 4 are discarded
    assert sg.check_hand(dealt17, JOKER_DECK) is None
    assert len(sg.suggest(dealt17, alternatives=0).best.discarded) == 4
    repeated = cards("Ac Kd Qh Jh Th 8h 7h 6h 9s 9h 9d 5c Ac")
    with pytest.raises(InvalidInputError) as raised:
        sg.check_hand(repeated, ORDINARY_DECK)
    assert problems(raised.value) == [(("cards", 12), "duplicate_card", once("Ac"))]


def test_suggest_places_all_13_cards():
    hand = cards("Ac Kd Qh Jh Th 8h 7h 6h 9s 9h 9d 5c 5d")
    best = sg.suggest(hand, alternatives=0, rules=ORDINARY).best
    assert best.discarded == ()
    assert sorted(best.head + best.middle + best.tail, key=lambda c: c.index) == sorted(hand, key=lambda c: c.index)


def test_a_card_twice_in_one_players_duns_is_a_duplicate_card():
    rows = [("3c 3c 3h", *WORKED[0][1:]), *WORKED[1:]]  # seat 0's head holds the three of clubs twice
    with pytest.raises(InvalidInputError) as raised:
        score_round(dealt(rows, hands=False), ORDINARY)
    assert problems(raised.value) == [(("players", 0, "head", 1), "duplicate_card", once("3c"))]
    # with the hands given, the hand holds it twice too: both places are named
    with pytest.raises(InvalidInputError) as raised:
        score_round(dealt(rows), ORDINARY)
    assert problems(raised.value) == [
        (("players", 0, "hand", 1), "duplicate_card", once("3c")),
        (("players", 0, "head", 1), "duplicate_card", once("3c")),
    ]
    # the arrangement check says it as a violation (the HTTP layer answers it with 200, legal false)
    result = validate_arrangement(*(cards(d) for d in rows[0]), deck=ORDINARY_DECK)
    assert not result.legal
    assert [(v.code, dict(v.params)) for v in result.violations] == [("too_many_copies", {"card": "3c", "copies": 1})]


def test_a_card_held_by_two_players_is_a_duplicate_card():
    # seat 3's tail takes the king of spades, which seat 0's tail already holds (no hands given)
    rows = [*WORKED[:3], ("Kh 5s 4s", "Td Th 9h 8d 6s", "Qd Qh Jd Jh Ks")]
    with pytest.raises(InvalidInputError) as raised:
        score_round(dealt(rows, hands=False), ORDINARY)
    assert problems(raised.value) == [(("players", 3, "tail", 4), "duplicate_card", once("Ks"))]
    with pytest.raises(InvalidInputError) as raised:
        score_round(dealt(rows), ORDINARY)
    assert problems(raised.value) == [(("players", 3, "hand", 12), "duplicate_card", once("Ks"))]
    # Joker Thirteen has two kings of spades: the same table scores. Seat 3's tail is now two pair Q J with a
    # king, still below every other tail, and the bonuses are the same categories': the worked totals.
    assert [p.total for p in score_round(dealt(rows, hands=False), GSCAS).players] == [9, -6, 8, -11]
