"""Properties that hold for every input (hypothesis): zero-sum rounds, a consistent comparison, and an
answer that ignores card order, the joker's position, the notation and the names of non-spade suits."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.cards import CARD_BY_TEXT, JOKER, Card, Suit, parse_cards
from service.rules.thirteen import (
    DUNS,
    GAME_DECK,
    Arrangement,
    Dun,
    compare_duns,
    evaluate_dun,
    score_round,
    validate_arrangement,
)  # fmt: skip
from service.rules.thirteen.duns import _evaluate

REALS = [c for c in GAME_DECK if c is not JOKER]  # 65 cards, spades twice


@st.composite
def duns(draw, size: int) -> list[Card]:
    """A dun the deck can hold, with 0-3 jokers equally likely (jokers are rare in a uniform draw)."""
    jokers = draw(st.integers(0, 3))
    picks = draw(st.lists(st.integers(0, len(REALS) - 1), min_size=size - jokers, max_size=size - jokers, unique=True))
    return draw(st.permutations([REALS[i] for i in picks] + [JOKER] * jokers))


dun_kinds = st.sampled_from(DUNS)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_compare_is_antisymmetric(data):
    dun = data.draw(dun_kinds)
    a, b = data.draw(duns(dun.size)), data.draw(duns(dun.size))
    forward, _, _ = compare_duns(dun, a, b)
    backward, _, _ = compare_duns(dun, b, a)
    assert backward == {"a": "b", "b": "a", "tie": "tie"}[forward]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_compare_is_transitive(data):
    dun = data.draw(dun_kinds)
    a, b, c = (data.draw(duns(dun.size)) for _ in range(3))
    at_least = lambda x, y: compare_duns(dun, x, y)[0] != "b"  # noqa: E731
    if at_least(a, b) and at_least(b, c):
        assert at_least(a, c)
    if compare_duns(dun, a, b)[0] == compare_duns(dun, b, c)[0] == "tie":
        assert compare_duns(dun, a, c)[0] == "tie"


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_card_order_within_a_dun_is_irrelevant(data):
    dun = data.draw(dun_kinds)
    hand = data.draw(duns(dun.size))
    assert evaluate_dun(dun, data.draw(st.permutations(hand))) == evaluate_dun(dun, hand)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_joker_position_is_irrelevant(data):
    dun = data.draw(dun_kinds)
    hand = data.draw(duns(dun.size))
    reals = [c for c in hand if c is not JOKER]
    jokers = [JOKER] * (len(hand) - len(reals))
    expected = evaluate_dun(dun, hand)
    assert evaluate_dun(dun, jokers + reals) == expected == evaluate_dun(dun, reals + jokers)


SPELLINGS: dict[Card, list[str]] = {}
for text, c in CARD_BY_TEXT.items():
    SPELLINGS.setdefault(c, []).append(text)
SPELLINGS[JOKER] = ["JK", "jk", "Jk", "jK"]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_notation_variants_give_the_same_result(data):
    dun = data.draw(dun_kinds)
    hand = data.draw(duns(dun.size))
    texts = [data.draw(st.sampled_from(SPELLINGS[c])) for c in hand]
    assert evaluate_dun(dun, parse_cards(texts, jokers=True)) == evaluate_dun(dun, hand)


def test_notation_examples():
    assert parse_cards(["10s", "Ts", "t♠", "T♤"], jokers=True) == [Card(10, Suit.SPADES)] * 4
    a = evaluate_dun("tail", parse_cards(["10s", "j♠", "QS", "k♤", "jk"], jokers=True))
    b = evaluate_dun("tail", parse_cards(["Ts", "Js", "Qs", "Ks", "JK"], jokers=True))
    assert a == b and a.strength == (11, 14)


_OTHER_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_renaming_clubs_diamonds_hearts_keeps_category_and_strength(data):
    # spades are special (two copies); the other three suits are interchangeable
    dun = data.draw(dun_kinds)
    hand = data.draw(duns(dun.size))
    renamed = dict(zip(_OTHER_SUITS, data.draw(st.permutations(_OTHER_SUITS))))
    moved = [
        c if c is JOKER or c.suit is Suit.SPADES else parse_cards([f"{str(c)[0]}{renamed[c.suit]}"])[0] for c in hand
    ]
    before, after = evaluate_dun(dun, hand), evaluate_dun(dun, moved)
    assert (before.category, before.strength) == (after.category, after.strength)


def greedy(cards13: list[Card]) -> Arrangement:
    """Always legal: the best 5 of 13 as the tail, the best 5 of the other 8 as the middle."""

    def best(pool: list[Card]) -> list[Card]:
        return list(max(combinations(pool, 5), key=lambda five: _evaluate(5, five).strength))

    def without(pool: list[Card], taken: list[Card]) -> list[Card]:
        left = list(pool)
        for c in taken:
            left.remove(c)
        return left

    tail = best(cards13)
    middle = best(without(cards13, tail))
    return Arrangement(without(without(cards13, tail), middle), middle, tail)


@settings(max_examples=25, deadline=None)
@given(st.permutations(GAME_DECK), st.lists(st.integers(0, 16), min_size=4, max_size=4))
def test_round_scores_sum_to_zero_and_matchups_add_up(deck, skip):
    players = []
    for seat in range(4):
        hand = list(deck[17 * seat : 17 * seat + 17])
        placed = [c for i, c in enumerate(hand) if (i - skip[seat]) % 17 >= 4]  # any 13 of the 17
        arrangement = greedy(placed)
        assert validate_arrangement(arrangement.head, arrangement.middle, arrangement.tail, hand).legal
        players.append(Arrangement(arrangement.head, arrangement.middle, arrangement.tail, hand))
    score = score_round(players)
    assert sum(p.total for p in score.players) == 0
    net = [0] * 4
    for m in score.matchups:
        net[m.a] += m.points_a
        net[m.b] -= m.points_a
    for p in score.players:
        assert p.total == net[p.seat] + p.home_run == p.shots + p.home_run + p.bonus
    assert sum(p.home_run for p in score.players) == sum(p.shots for p in score.players) == 0
    assert all(p.duns[Dun.HEAD].strength < p.duns[Dun.MIDDLE].strength for p in score.players)
