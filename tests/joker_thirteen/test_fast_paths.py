"""The round's fast path (``joker_thirteen._lawful_round``: duns from their sums, the table's copies from
the sums' card fields) against the full checks it skips: for seeded random rounds, lawful and not (a
card beyond the deck's copies in a dun, across a player's duns or across the table, 相公, a hand given,
a wrong size), ``score_round`` answers exactly what it answers with the fast path switched off: the same
score, or the same problems in the same order."""

from __future__ import annotations

import random

import pytest

from service.rules import joker_thirteen as j13
from service.rules.errors import InvalidInputError
from service.rules.joker_thirteen import GAME_DECK, Arrangement, score_round

REALS = [c for c in GAME_DECK if c.suit is not None]


def deal(rng: random.Random) -> list[Arrangement]:
    """Four arrangements from one shuffled deck, each the first in order of up to 20 random splits."""
    deck = list(GAME_DECK)
    rng.shuffle(deck)
    players = []
    for seat in range(4):
        cards = deck[13 * seat : 13 * seat + 13]
        for _ in range(20):
            rng.shuffle(cards)
            head, middle, tail = cards[:3], cards[3:8], cards[8:]
            if j13._evaluate(5, middle).strength > j13._evaluate(5, tail).strength:
                middle, tail = tail, middle
            if j13.validate_arrangement(head, middle, tail).legal:
                break
        players.append(Arrangement(head, middle, tail))
    return players


def spoil(rng: random.Random, players: list[Arrangement]) -> list[Arrangement]:
    """One way a round can be wrong, or none."""
    kind = rng.randrange(7)
    seat = rng.randrange(4)
    p = players[seat]
    duns = {"head": list(p.head), "middle": list(p.middle), "tail": list(p.tail)}
    if kind == 1:  # a card copied from elsewhere on the table (sometimes still within the deck: a spade)
        other = players[rng.randrange(4)]
        name = rng.choice(list(duns))
        duns[name][rng.randrange(len(duns[name]))] = rng.choice([*other.head, *other.middle, *other.tail])
    elif kind == 2:  # a card repeated inside one dun
        name = rng.choice(["middle", "tail"])
        duns[name][0] = duns[name][1]
    elif kind == 3:  # head and middle swapped cards: often 相公
        duns["head"][0], duns["middle"][0] = duns["middle"][0], duns["head"][0]
    elif kind == 4:  # a dun of the wrong size
        duns["tail"] = duns["tail"][:4]
    elif kind == 5:  # the hand given (the placed cards and the four discarded, or others)
        hand = [*p.head, *p.middle, *p.tail, *rng.sample(REALS, 4)]
        return [*players[:seat], Arrangement(p.head, p.middle, p.tail, hand), *players[seat + 1 :]]
    elif kind == 6:  # many jokers and spades: copies at the deck's limit
        duns["middle"] = [j13.JOKER, j13.JOKER, *rng.sample([c for c in REALS if c.suit.value == "s"], 3)]
    spoiled = Arrangement(duns["head"], duns["middle"], duns["tail"])
    return [*players[:seat], spoiled, *players[seat + 1 :]]


def answer(players):
    try:
        return score_round(players)
    except InvalidInputError as error:
        return [(p.path, p.code, p.params) for p in error.problems]


@pytest.mark.parametrize("seed", range(4))
def test_the_fast_path_answers_what_the_full_checks_answer(seed, monkeypatch):
    rng = random.Random(seed)
    rounds = [spoil(rng, deal(rng)) for _ in range(1500)]
    fast = [answer(players) for players in rounds]
    monkeypatch.setattr(j13, "_lawful_round", lambda players: None)
    full = [answer(players) for players in rounds]
    assert fast == full
    scored = sum(1 for a in fast if not isinstance(a, list))
    assert 300 < scored < 1400  # both kinds of answer, many of each


def with_hand(rng: random.Random, p: Arrangement) -> Arrangement:
    """The arrangement with a hand: its cards and four more, sometimes one of them swapped out for another
    card (a placed card then not in the hand), sometimes 16 or 18 cards."""
    hand = [*p.head, *p.middle, *p.tail, *rng.sample(REALS, 4)]
    kind = rng.randrange(4)
    if kind == 1:
        hand[rng.randrange(13)] = rng.choice(GAME_DECK)
    elif kind == 2:
        hand = hand[: rng.choice([16, 18])] + ([rng.choice(REALS)] if len(hand) < 18 else [])
    return Arrangement(p.head, p.middle, p.tail, hand)


def validation(p: Arrangement):
    return j13.validate_arrangement(p.head, p.middle, p.tail, p.hand)


@pytest.mark.parametrize("seed", range(4))
def test_a_legal_arrangement_answers_what_the_full_checks_answer(seed, monkeypatch):
    rng = random.Random(100 + seed)
    arrangements = []
    for _ in range(800):
        players = spoil(rng, deal(rng))
        arrangements += [p if rng.randrange(2) else with_hand(rng, p) for p in players]
    fast = [validation(p) for p in arrangements]
    monkeypatch.setattr(j13, "_lawful_arrangement", lambda arrangement: None)
    full = [validation(p) for p in arrangements]
    assert fast == full
    legal = sum(1 for a in fast if a.legal)
    assert len(arrangements) // 4 < legal < len(arrangements) * 9 // 10  # both kinds of answer, many of each
