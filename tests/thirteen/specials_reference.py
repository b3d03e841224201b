"""The special hands (報到) defined plainly, for the tests: each special written as the spec's table says it, by
counting ranks and suits or by trying every 3/5/5 split of the 13 cards, nothing precomputed and nothing
shared with ``service/rules/thirteen/specials.py``; and makers of random hands that make a given special.

A split here is a head of 3 cards and two parts of 5 (no dun order: a special is never compared dun by dun).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from service.rules.cards import DECK, Card, Suit
from service.rules.thirteen import Special

RED = {Suit.HEARTS, Suit.DIAMONDS}
BLACK = {Suit.SPADES, Suit.CLUBS}
ACE = 14


def rank_counts(cards: Sequence[Card]) -> Counter[int]:
    return Counter(c.rank for c in cards)


def straight_3(part: Sequence[Card]) -> bool:
    """Three consecutive ranks: A23 lowest, QKA highest, no wrap-around (KA2 is none)."""
    ranks = sorted(c.rank for c in part)
    return ranks == [2, 3, ACE] or ranks == [ranks[0], ranks[0] + 1, ranks[0] + 2]


def straight_5(part: Sequence[Card]) -> bool:
    """A2345 to 10JQKA."""
    ranks = sorted(c.rank for c in part)
    return ranks == [2, 3, 4, 5, ACE] or ranks == list(range(ranks[0], ranks[0] + 5))


def flush(part: Sequence[Card]) -> bool:
    return len({c.suit for c in part}) == 1


def straight_flush_3(part: Sequence[Card]) -> bool:
    return straight_3(part) and flush(part)


def straight_flush_5(part: Sequence[Card]) -> bool:
    return straight_5(part) and flush(part)


def split_into(hand: Sequence[Card], head: Callable[..., bool], five: Callable[..., bool]) -> bool:
    """Whether some split of the 13 cards into 3 + 5 + 5 has a head passing ``head`` and two fives passing
    ``five``. Every head is tried; for one that passes, every way of cutting the 10 cards left into two fives
    (unordered: the five holding the first card left, and the rest)."""
    for head_cards in combinations(hand, 3):
        if not head(head_cards):
            continue
        first, *others = [c for c in hand if c not in head_cards]
        for four in combinations(others, 4):
            if five([first, *four]) and five([c for c in others if c not in four]):
                return True
    return False


def without_one(hand: Sequence[Card]) -> Iterator[list[Card]]:
    """The hand less each of its cards in turn: the 12 cards left beside "one card"."""
    for i in range(len(hand)):
        yield [c for j, c in enumerate(hand) if j != i]


def all_even(cards: Sequence[Card]) -> bool:
    """The cards are pairs of one rank each (a rank's four cards are two pairs)."""
    return all(n % 2 == 0 for n in rank_counts(cards).values())


DEFINITIONS: dict[Special, Callable[[Sequence[Card]], bool]] = {
    Special.SUPREME_DRAGON: lambda h: sorted(rank_counts(h)) == list(range(2, 15)) and flush(h),
    Special.DRAGON: lambda h: sorted(c.rank for c in h) == list(range(2, 15)),
    Special.TWELVE_ROYALS: lambda h: all(c.rank in (11, 12, 13, ACE) for c in h),
    Special.THREE_STRAIGHT_FLUSHES: lambda h: split_into(h, straight_flush_3, straight_flush_5),
    Special.THREE_QUADS: lambda h: any(sorted(rank_counts(rest).values()) == [4, 4, 4] for rest in without_one(h)),
    Special.ALL_BIG: lambda h: all(c.rank >= 8 for c in h),
    Special.ALL_SMALL: lambda h: all(c.rank <= 8 for c in h),
    Special.ONE_COLOUR: lambda h: {c.suit for c in h} <= RED or {c.suit for c in h} <= BLACK,
    # a four of a kind is one three-of-a-kind and a card: leave out one card, the rest is four trips
    Special.FOUR_TRIPS: lambda h: any(sorted(rank_counts(rest).values()) == [3, 3, 3, 3] for rest in without_one(h)),
    # a three-of-a-kind of three cards, the ten others five pairs (a four of a kind is two pairs)
    Special.FIVE_PAIRS_TRIPS: lambda h: any(
        len(rank_counts(trips)) == 1 and all_even([c for c in h if c not in trips]) for trips in combinations(h, 3)
    ),
    # one card left out, the twelve others six pairs (a three-of-a-kind is a pair and that card)
    Special.SIX_PAIRS: lambda h: any(all_even(rest) for rest in without_one(h)),
    Special.THREE_FLUSHES: lambda h: split_into(h, flush, flush),
    Special.THREE_STRAIGHTS: lambda h: split_into(h, straight_3, straight_5),
}
SPLIT_SPECIALS = (Special.THREE_STRAIGHT_FLUSHES, Special.THREE_FLUSHES, Special.THREE_STRAIGHTS)


def reference_specials(hand: Sequence[Card]) -> tuple[Special, ...]:
    """Every special the 13 cards make, in the catalog's order (high to low)."""
    assert len(hand) == 13 and len(set(hand)) == 13
    return tuple(s for s in Special if DEFINITIONS[s](hand))


# --- hands that make a special ---------------------------------------------------------------------------

SUITS = tuple(Suit)
BY_RANK_SUIT = {(c.rank, c.suit): c for c in DECK}
STRAIGHTS_3 = [(ACE, 2, 3), *((low, low + 1, low + 2) for low in range(2, 13))]
STRAIGHTS_5 = [(ACE, 2, 3, 4, 5), *(tuple(range(low, low + 5)) for low in range(2, 11))]


def _distinct(cards: list[Card]) -> list[Card] | None:
    return cards if len(set(cards)) == len(cards) else None


def _of_ranks(rng: random.Random, ranks: Sequence[int], suit: Suit | None = None) -> list[Card]:
    return [BY_RANK_SUIT[r, suit or rng.choice(SUITS)] for r in ranks]


def _sets(rng: random.Random, sizes: Sequence[int], extra: int) -> list[Card]:
    """Sets of one rank each, of these sizes (ranks apart), and ``extra`` other cards of the deck."""
    ranks = rng.sample(range(2, 15), len(sizes))
    cards = [c for rank, n in zip(ranks, sizes) for c in rng.sample([BY_RANK_SUIT[rank, s] for s in SUITS], n)]
    return cards + rng.sample([c for c in DECK if c not in cards], extra)


def _straights(rng: random.Random, suited: bool) -> list[Card] | None:
    parts = [rng.choice(STRAIGHTS_3), rng.choice(STRAIGHTS_5), rng.choice(STRAIGHTS_5)]
    return _distinct([c for ranks in parts for c in _of_ranks(rng, ranks, rng.choice(SUITS) if suited else None)])


def _flushes(rng: random.Random) -> list[Card] | None:
    by_suit: dict[Suit, int] = Counter()
    for size in (3, 5, 5):
        by_suit[rng.choice(SUITS)] += size
    if any(n > 13 for n in by_suit.values()):
        return None
    return [BY_RANK_SUIT[r, s] for s, n in by_suit.items() for r in rng.sample(range(2, 15), n)]


def _pairs(rng: random.Random, pairs: int, trips: int) -> list[Card]:
    """``trips`` three-of-a-kinds and ``pairs`` pairs (two pairs of a rank are its four cards), then any cards
    up to 13."""
    ranks = rng.sample(range(2, 15), 13)
    paired = Counter(rng.sample([r for r in ranks[trips:] for _ in range(2)], pairs))
    sizes = {**dict.fromkeys(ranks[:trips], 3), **{r: 2 * n for r, n in paired.items()}}
    cards = [c for r, n in sizes.items() for c in rng.sample([BY_RANK_SUIT[r, s] for s in SUITS], n)]
    return cards + rng.sample([c for c in DECK if c not in cards], 13 - len(cards))


def _one_colour(rng: random.Random, colour: set[Suit]) -> list[Card]:
    return rng.sample([c for c in DECK if c.suit in colour], 13)


MAKERS: dict[Special, Callable[[random.Random], list[Card] | None]] = {
    Special.SUPREME_DRAGON: lambda rng: _of_ranks(rng, range(2, 15), rng.choice(SUITS)),
    Special.DRAGON: lambda rng: _of_ranks(rng, range(2, 15)),
    Special.TWELVE_ROYALS: lambda rng: rng.sample([c for c in DECK if c.rank >= 11], 13),
    Special.THREE_STRAIGHT_FLUSHES: lambda rng: _straights(rng, suited=True),
    Special.THREE_QUADS: lambda rng: _sets(rng, (4, 4, 4), 1),
    Special.ALL_BIG: lambda rng: rng.sample([c for c in DECK if c.rank >= 8], 13),
    Special.ALL_SMALL: lambda rng: rng.sample([c for c in DECK if c.rank <= 8], 13),
    Special.ONE_COLOUR: lambda rng: _one_colour(rng, rng.choice((RED, BLACK))),
    Special.FOUR_TRIPS: lambda rng: _sets(rng, (3, 3, 3, 3), 1),
    Special.FIVE_PAIRS_TRIPS: lambda rng: _pairs(rng, 5, 1),
    Special.SIX_PAIRS: lambda rng: _pairs(rng, 6, 0),
    Special.THREE_FLUSHES: _flushes,
    Special.THREE_STRAIGHTS: lambda rng: _straights(rng, suited=False),
}
"""A random hand making each special (None: this draw did not make 13 distinct cards; draw again)."""


def making(special: Special, rng: random.Random) -> list[Card]:
    """A random hand that makes ``special``, in a random order."""
    while (hand := MAKERS[special](rng)) is None:
        pass
    rng.shuffle(hand)
    return hand


def near(hand: Sequence[Card], rng: random.Random) -> list[Card]:
    """``hand`` with one card swapped for another of the deck: mostly a near miss of what it made."""
    swapped = list(hand)
    swapped[rng.randrange(len(hand))] = rng.choice([c for c in DECK if c not in hand])
    return swapped
