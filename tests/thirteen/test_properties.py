"""Properties of both Thirteen games (hypothesis): Joker Thirteen (``GSCAS``, 4 x 17 of the 68 cards) and
ordinary 十三支 (``ORDINARY``, 4 x 13 of the 52), each round a random deal of the game's deck arranged legally.

A round is zero-sum; the players' order only permutes their scores; the order of the cards within a dun or
a hand changes nothing; every accepted spelling of a card gives the same answer; arrange for me is never
below the naive arranger by its own objective.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.cards import CARD_BY_TEXT, JOKER, Card, Suit, parse_cards
from service.rules.thirteen import (
    DUNS,
    GSCAS,
    HEAD,
    MIDDLE,
    ORDINARY,
    TAIL,
    Arrangement,
    ThirteenRules,
    evaluate_dun,
    score_round,
    validate_arrangement,
)
from service.rules.thirteen import suggest as sg
from tests.thirteen.reference import Opponent

GAMES = [pytest.param(GSCAS, id="joker-thirteen"), pytest.param(ORDINARY, id="ordinary")]

seeds = st.randoms(use_true_random=False)


def random_legal(hand: list[Card], rng: random.Random, rules: ThirteenRules) -> tuple[list[Card], ...] | None:
    """Some 13 of the hand split at random into a legal head, middle and tail (the two five-card duns
    swapped when the middle is the stronger), or None after a few tries: 相公 is common at random."""
    deck = rules.deck
    for _ in range(20):
        placed = rng.sample(hand, 13)
        head, middle, tail = placed[:3], placed[3:8], placed[8:]
        values = [evaluate_dun(d, x, deck=deck) for d, x in ((HEAD, head), (MIDDLE, middle), (TAIL, tail))]
        if values[1].strength > values[2].strength:
            middle, tail = tail, middle
            values[1], values[2] = values[2], values[1]
        if values[0].strength < values[1].strength:
            return head, middle, tail
    return None


def deal(rules: ThirteenRules, rng: random.Random) -> list[Arrangement]:
    """Four hands of the game's deal from one shuffled deck, each set by the naive arranger or, half the
    time, at random (ties, lost heads and bonuses both ways come up more often than naive against naive)."""
    cards = list(rules.deck.cards)
    rng.shuffle(cards)
    size = rules.deck.hand_size
    players = []
    for seat in range(4):
        hand = cards[size * seat : size * (seat + 1)]
        duns = (rng.random() < 0.5 and random_legal(hand, rng, rules)) or sg.naive_arrangement(hand)
        players.append(Arrangement(*(list(d) for d in duns), hand))
    return players


def unbeaten(seat: int, m) -> bool:
    """Whether ``seat`` lost no dun of matchup ``m`` (a tie is no loss)."""
    return ("b" if seat == m.a else "a") not in m.duns.values()


def summary(score) -> list[tuple]:
    return [(p.total, p.shots, p.home_run, p.bonus, tuple(p.duns[d].strength for d in DUNS)) for p in score.players]


@pytest.mark.parametrize("rules", GAMES)
@settings(max_examples=25, deadline=None)
@given(rng=seeds)
def test_a_round_is_zero_sum_and_its_matchups_add_up(rules, rng):
    players = deal(rules, rng)
    for p in players:  # the arrangements are legal deals of the game: the hand less the placed is discarded
        check = validate_arrangement(p.head, p.middle, p.tail, p.hand, deck=rules.deck)
        assert check.legal and len(check.discarded) == rules.deck.discards
    score = score_round(players, rules)
    assert sum(p.total for p in score.players) == 0
    assert sum(p.shots for p in score.players) == sum(p.home_run for p in score.players) == 0
    assert sum(p.bonus for p in score.players) == 0
    net = [0] * 4
    for m in score.matchups:
        net[m.a] += m.points_a
        net[m.b] -= m.points_a
        assert m.points_a == {"a": 1, "b": -1, "both": 0, None: 0}[m.shot] * rules.shot + m.bonus_a - m.bonus_b
    # 全壘打: not losing a dun to any of the three others earns 9, 3 paid by each of them
    home_runs = [all(unbeaten(seat, m) for m in score.matchups if seat in (m.a, m.b)) for seat in range(4)]
    for p in score.players:
        assert p.total == net[p.seat] + p.home_run == p.shots + p.home_run + p.bonus
        assert p.home_run == rules.home_run * home_runs[p.seat] - rules.home_run // 3 * (
            sum(home_runs) - home_runs[p.seat]
        )


@pytest.mark.parametrize("rules", GAMES)
@settings(max_examples=25, deadline=None)
@given(rng=seeds)
def test_permuting_the_players_permutes_their_scores(rules, rng):
    players = deal(rules, rng)
    order = list(range(4))
    rng.shuffle(order)
    before, after = summary(score_round(players, rules)), summary(score_round([players[i] for i in order], rules))
    assert after == [before[i] for i in order]


def shuffled(cards, rng: random.Random) -> list[Card]:
    out = list(cards)
    rng.shuffle(out)
    return out


@pytest.mark.parametrize("rules", GAMES)
@settings(max_examples=25, deadline=None)
@given(rng=seeds)
def test_the_order_of_cards_within_each_dun_and_hand_changes_nothing(rules, rng):
    players = deal(rules, rng)
    moved = [Arrangement(*(shuffled(x, rng) for x in (p.head, p.middle, p.tail, p.hand))) for p in players]
    a, b = score_round(players, rules), score_round(moved, rules)
    assert summary(a) == summary(b)
    assert [tuple(m) for m in a.matchups] == [tuple(m) for m in b.matchups]
    for p, q in zip(players, moved):
        for d in DUNS:  # the same hand value, its cards listed in the same order
            assert evaluate_dun(d, p.dun(d), deck=rules.deck) == evaluate_dun(d, q.dun(d), deck=rules.deck)
        x = validate_arrangement(p.head, p.middle, p.tail, p.hand, deck=rules.deck)
        y = validate_arrangement(q.head, q.middle, q.tail, q.hand, deck=rules.deck)
        assert (x.legal, x.discarded, x.duns) == (y.legal, y.discarded, y.duns)


SPELLINGS: dict[Card, list[str]] = {}
for _text, _card in CARD_BY_TEXT.items():
    SPELLINGS.setdefault(_card, []).append(_text)
SPELLINGS[JOKER] = ["JK", "jk", "Jk", "jK"]


def test_a_card_has_the_spellings_10h_th_and_its_suit_symbols():
    ten_of_hearts = ["10h", "10H", "Th", "th", "TH", "T♥", "t♡", "10♥", "10♡"]
    assert parse_cards(ten_of_hearts) == [Card(10, Suit.HEARTS)] * len(ten_of_hearts)
    assert set(ten_of_hearts) <= set(SPELLINGS[Card(10, Suit.HEARTS)])
    # a suit is its letter in either case or one of its two symbols (4 forms); a rank digit has one form, a
    # rank letter two (its cases), the ten three more ("10" and "t")
    assert [len(SPELLINGS[Card(r, Suit.CLUBS)]) for r in range(2, 15)] == [4] * 8 + [12, 8, 8, 8, 8]
    assert len(CARD_BY_TEXT) == 4 * (8 * 4 + 12 + 4 * 8)


@pytest.mark.parametrize("rules", GAMES)
@settings(max_examples=20, deadline=None)
@given(rng=seeds)
def test_every_spelling_of_the_cards_gives_the_same_round(rules, rng):
    players = deal(rules, rng)
    jokers = JOKER in rules.deck.copies

    def respelled(hand) -> list[Card]:
        texts = [rng.choice(SPELLINGS[c]) for c in hand]
        parsed = parse_cards(texts, jokers=jokers)
        assert parsed == list(hand), texts
        return parsed

    moved = [Arrangement(*(respelled(x) for x in (p.head, p.middle, p.tail, p.hand))) for p in players]
    assert summary(score_round(moved, rules)) == summary(score_round(players, rules))
    hand = players[0].hand[:13]  # arrange for me on 13 cards: the spelling is what is under test, not the size
    a = sg.suggest(hand, alternatives=0, rules=rules).best
    b = sg.suggest(respelled(hand), alternatives=0, rules=rules).best
    assert (a.head, a.middle, a.tail, a.exact_value) == (b.head, b.middle, b.tail, b.exact_value)


@pytest.mark.parametrize("rules", GAMES)
@settings(max_examples=15, deadline=None)
@given(rng=seeds)
def test_arrange_for_me_is_never_below_the_naive_arranger(rules, rng):
    """Both legal arrangements of the same deal, valued by the reference's objective (tests/thirteen/reference.py)."""
    hand = rng.sample(rules.deck.cards, rules.deck.hand_size)
    best = sg.suggest(hand, alternatives=0, rules=rules).best
    opponent = Opponent(rules)

    def exact(head, middle, tail) -> int:
        return opponent.exact(*(evaluate_dun(d, x, deck=rules.deck) for d, x in zip(DUNS, (head, middle, tail))))

    assert best.exact_value == exact(best.head, best.middle, best.tail)
    assert best.exact_value >= exact(*sg.naive_arrangement(hand))
