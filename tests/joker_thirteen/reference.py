"""Brute-force reference for Joker Thirteen duns (test-only, never imported by the service).

Every joker is tried as each of the 52 cards, skipping any substitution that puts a third identical card
in the dun ("鬼牌也不能變成第三張一樣的牌"), and the strongest natural hand wins. The natural evaluator
below is written independently of the module (counts of ranks ordered by (count, rank), the classic
way), so the two only agree if both read the rule book the same way.

Jokers are identical, so trying them as a multiset of cards (combinations with replacement) covers the
same hands as trying every joker as every card (the product), in fewer steps.

``brute_force`` is the literal search. ``brute_force_grouped`` is the same search made fast enough to run
over every dun with one, two and three jokers: the natural value of a substitution depends only on the
ranks of the five cards and on whether they share one suit (see ``natural``), so it takes the
substitutions rank by rank, asks which of "flush" / "not a flush" some lawful substitution of those ranks
reaches, and evaluates only those. The tests check the two against each other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

from service.rules.cards import DECK, JOKER, Card

_WHEEL = (14, 5, 4, 3, 2)
_RANK = [c.rank for c in DECK]  # by Card.index
_SUIT = [c.suit for c in DECK]


def _straight_high(ranks: tuple[int, ...]) -> int:
    """High card of a 5-rank straight (ranks sorted high to low), 5 for A-2-3-4-5, else 0."""
    if len(set(ranks)) != 5:
        return 0
    if ranks == _WHEEL:
        return 5
    return ranks[0] if ranks[0] - ranks[4] == 4 else 0


@cache
def natural(ranks: tuple[int, ...], flush: bool, joker_made: bool) -> tuple[str, tuple[int, ...]]:
    """Category and strength of concrete cards (ranks sorted high to low; ``flush``: one suit for all).

    Within one suit two cards of a rank are identical copies, so ranks and ``flush`` say everything;
    ``joker_made`` only splits five of a kind into real and joker.
    """
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = tuple(counts[r] for r in order)
    if len(ranks) == 3:
        if shape == (3,):
            return "trips", (4, *order)
        return ("pair", (2, *order)) if shape == (2, 1) else ("high_card", (1, *order))
    high = _straight_high(ranks)
    if shape == (5,):
        return ("joker_five", (12, *order)) if joker_made else ("real_five", (13, *order))
    if flush and high:
        return "straight_flush", (11, high)
    if shape == (4, 1):
        return "quads", (10, *order)
    if shape == (3, 2):
        return "full_house", (9, *order)
    if flush and shape[0] == 2:
        return "pair_flush", (8, shape.count(2), *order)
    if flush:
        return "flush", (7, *order)
    if high:
        return "straight", (6, high)
    if shape == (3, 1, 1):
        return "trips", (4, *order)
    if shape == (2, 2, 1):
        return "two_pair", (3, *order)
    if shape == (2, 1, 1, 1):
        return "pair", (2, *order)
    return "high_card", (1, *order)


def brute_force(hand: Sequence[Card]) -> tuple[str, tuple[int, ...]]:
    """The best (category, strength) over every substitution of the jokers in ``hand`` (3 or 5 cards)."""
    reals = [c for c in hand if c is not JOKER]
    jokers = len(hand) - len(reals)
    if len(hand) == 3 and jokers == 3:
        return "three_jokers", (5,)  # 鬼三條 is its own rung: no substitution makes it
    held = [0] * 52  # copies by Card.index: plain ints, as hashing cards is slow at this volume
    for c in reals:
        held[c.index] += 1
    real_ranks = [c.rank for c in reals]
    real_suits = {c.suit for c in reals}
    best: tuple[str, tuple[int, ...]] | None = None
    for subs in combinations_with_replacement(range(52), jokers):
        if any(held[i] + subs.count(i) > 2 for i in subs):
            continue  # no third identical card, jokers included
        ranks = tuple(sorted(real_ranks + [_RANK[i] for i in subs], reverse=True))
        flush = len(real_suits.union([_SUIT[i] for i in subs])) == 1
        value = natural(ranks, flush, jokers > 0)
        if best is None or value[1] > best[1]:
            best = value
    assert best is not None
    return best


Substitution = tuple[frozenset[int], frozenset[int], object]  # its cards, the cards it holds twice, its one suit


@cache
def _by_ranks(jokers: int) -> tuple[tuple[tuple[int, ...], tuple[Substitution, ...]], ...]:
    """Every multiset of ``jokers`` of the 52 cards (none 3 times), grouped by its ranks."""
    groups: dict[tuple[int, ...], list[Substitution]] = {}
    for subs in combinations_with_replacement(range(52), jokers):
        counts = Counter(subs)
        if max(counts.values()) > 2:
            continue
        suits = {_SUIT[i] for i in subs}
        twice = frozenset(i for i, n in counts.items() if n == 2)
        groups.setdefault(tuple(_RANK[i] for i in subs), []).append(
            (frozenset(subs), twice, next(iter(suits)) if len(suits) == 1 else None)
        )
    return tuple((ranks, tuple(group)) for ranks, group in groups.items())


def brute_force_grouped(hand: Sequence[Card]) -> tuple[str, tuple[int, ...]]:
    """``brute_force``, the substitutions of one set of ranks evaluated once per reachable flush flag."""
    reals = [c for c in hand if c is not JOKER]
    jokers = len(hand) - len(reals)
    if len(hand) == 3 and jokers == 3:
        return "three_jokers", (5,)
    if jokers == 0:
        return natural(tuple(sorted((c.rank for c in reals), reverse=True)), len({c.suit for c in reals}) == 1, False)
    held = Counter(c.index for c in reals)
    full = frozenset(i for i, n in held.items() if n == 2)  # a sub here would be a third copy
    once = frozenset(i for i, n in held.items() if n == 1)  # two subs here would be a third copy
    suits = {c.suit for c in reals}
    only_suit = next(iter(suits)) if len(suits) == 1 else None
    real_ranks = [c.rank for c in reals]
    best: tuple[str, tuple[int, ...]] = ("", ())
    for sub_ranks, group in _by_ranks(jokers):
        plain = flush = False
        for cards, twice, suit in group:
            if not (cards.isdisjoint(full) and twice.isdisjoint(once)):
                continue  # no third identical card
            if suit is not None and suit is only_suit:
                flush = True
            else:
                plain = True
            if plain and (flush or only_suit is None):
                break  # both flags found, or a flush is out of reach for these real cards
        ranks = tuple(sorted(real_ranks + list(sub_ranks), reverse=True))
        for reached, is_flush in ((plain, False), (flush, True)):
            if reached:
                value = natural(ranks, is_flush, True)
                if value[1] > best[1]:
                    best = value
    return best
