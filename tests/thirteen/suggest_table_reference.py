"""Brute force for arrange for me at any table: every one of the 72,072 splits of 13 cards, nothing pruned.

Independent of the suggester (its search, strength cache, ``DunTable`` and ``pair_value``): duns are valued
by the public ``evaluate_dun``, the opponent's per-dun counts are read from the deck's shipped JSON file, the
table is a dict of the spec's parameters (``table_reference``: ``SHISANSHUI``, ``ONE_SIX``, ``TWO_FOUR``,
``ORDINARY_TABLE``) and what a pair scores is ``table_reference.gain``, the spec's steps 1-3 written plainly.

The objective from first principles: the opponent's three duns are independent, so for each dun the deals
split into those it wins, ties and loses (counts out of N); over the 27 combinations of the three outcomes,
the deals of a combination number the product of its counts, each paying ``gain`` for its wins and losses.
What a pair gets is affine in its bonuses (steps 1-3: bonuses added, multiplied only where the sweep multiplies
them), so a combination's expected payment is ``gain`` at no bonus for every deal of it, plus the slope (gain
at bonus 1 less at 0) times the bonus summed over its deals: the player's bonus for each dun it wins times the
deals, the opponent's bonus summed over the deals that beat that dun. Times N**3 it is an integer.

Every split is valued at once with numpy (int64: at most N**3 x a few hundred, far below 2**63); a fouled
split (相公) is left out.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations, product
from typing import Any

import numpy as np

from service.rules.cards import Card
from service.rules.thirteen import DUNS, HEAD, MIDDLE, RUNG, TAIL, Dun, ThirteenDeck, evaluate_dun
from service.rules.thirteen import suggest as sg
from tests.thirteen.table_reference import bonus, gain

_CATEGORY_OF_RUNG = {rung: category for category, rung in RUNG.items()}
WON, TIED, LOST = 0, 1, 2
Key = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # value x N**3, tail, middle, head strengths


@cache
def _splits() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every split of 13 positions: the index of its tail and its middle among the 5-card subsets
    (``combinations`` order) and of its head among the 3-card ones."""
    five_at = {c: i for i, c in enumerate(combinations(range(13), 5))}
    three_at = {c: i for i, c in enumerate(combinations(range(13), 3))}
    tails, middles, heads = [], [], []
    for tail in combinations(range(13), 5):
        rest = [p for p in range(13) if p not in tail]
        for middle in combinations(rest, 5):
            tails.append(five_at[tail])
            middles.append(five_at[middle])
            heads.append(three_at[tuple(p for p in rest if p not in middle)])
    assert len(tails) == 72_072
    return np.array(tails), np.array(middles), np.array(heads)


@cache
def _rows(file_name: str) -> tuple[int, dict[Dun, tuple[list[tuple[int, ...]], list[int], list[Any]]]]:
    """deals, and per dun: the shipped strengths ascending, running counts and their categories."""
    data = json.loads((sg.DATA_DIR / file_name).read_text(encoding="utf-8"))
    out = {}
    for d in DUNS:
        rows = sorted((tuple(s), n) for s, n in data["duns"][d.value])
        running = [0]
        for _, n in rows:
            running.append(running[-1] + n)
        out[d] = ([s for s, _ in rows], running, [(_CATEGORY_OF_RUNG[s[0]], n) for s, n in rows])
    return data["deals"], out


@cache
def _paid_from(file_name: str, bonuses: str, dun: Dun) -> list[int]:
    """Entry i: the opponent's bonus summed over its deals of the i-th strength and above (``bonuses``: the
    table's, as JSON, a key for the cache)."""
    table = {"bonuses": json.loads(bonuses)}
    _, rows = _rows(file_name)
    suffix = [0]
    for category, n in reversed(rows[dun][2]):
        suffix.append(suffix[-1] + n * bonus(table, dun.value, category))
    return suffix[::-1]


def outcomes(deck: ThirteenDeck, table: Mapping[str, Any], dun: Dun, value: Any) -> tuple[int, int, int, int, int]:
    """One dun of mine against the opponent's: (deals won, tied, lost, my bonus x won, the opponent's bonus
    summed over the deals it wins)."""
    deals, rows = _rows(deck.opponent)
    strengths, running, _ = rows[dun]
    lo, hi = bisect_left(strengths, value.strength), bisect_right(strengths, value.strength)
    won, tied, lost = running[lo], running[hi] - running[lo], deals - running[hi]
    theirs = _paid_from(deck.opponent, json.dumps(table["bonuses"], sort_keys=True), dun)[hi]
    return won, tied, lost, won * bonus(table, dun.value, value.category), theirs


def _swept(wins: int, losses: int, table: Mapping[str, Any]) -> bool:
    return losses == 0 if table["sweep"] == "no_dun_lost" else wins == 3


def _paid(wins: int, losses: int, bonuses: int, table: Mapping[str, Any]) -> int:
    return sum(gain(wins, losses, bonuses, _swept(wins, losses, table), table).values())


def expected(per_dun: Sequence[np.ndarray], table: Mapping[str, Any]) -> np.ndarray:
    """The pair's expected result x N**3 of arrays of duns: per dun an array (splits x 5) of ``outcomes``."""
    total = np.zeros(len(per_dun[0]), dtype=np.int64)
    for combo in product((WON, TIED, LOST), repeat=3):
        wins, losses = combo.count(WON), combo.count(LOST)
        counts = [per_dun[d][:, o] for d, o in enumerate(combo)]
        deals = counts[0] * counts[1] * counts[2]
        mine = np.zeros_like(total)
        theirs = np.zeros_like(total)
        for d, o in enumerate(combo):
            others = counts[(d + 1) % 3] * counts[(d + 2) % 3]
            if o == WON:
                mine += per_dun[d][:, 3] * others
            elif o == LOST:
                theirs += per_dun[d][:, 4] * others
        i0, i1 = _paid(wins, losses, 0, table), _paid(wins, losses, 1, table)
        j0, j1 = _paid(losses, wins, 0, table), _paid(losses, wins, 1, table)
        total += deals * (i0 - j0) + (i1 - i0) * mine - (j1 - j0) * theirs
    return total


def brute_force(hand: Sequence[Card], k: int, table: Mapping[str, Any], deck: ThirteenDeck) -> list[Key]:
    """The ``k`` best classes of ``hand`` at ``table``, best first: (value x N**3, tail, middle and head
    strengths); a class is every split making the same three strengths, ties to the stronger tail, middle,
    head."""
    cards = list(hand)
    assert len(cards) == 13
    fives = [evaluate_dun(TAIL, [cards[p] for p in c], deck=deck) for c in combinations(range(13), 5)]
    threes = [evaluate_dun(HEAD, [cards[p] for p in c], deck=deck) for c in combinations(range(13), 3)]
    tails, middles, heads = _splits()
    per_dun = [
        np.array([outcomes(deck, table, dun, v) for v in values], dtype=np.int64)[index]
        for dun, values, index in ((TAIL, fives, tails), (MIDDLE, fives, middles), (HEAD, threes, heads))
    ]
    order = sorted({v.strength for v in fives} | {v.strength for v in threes})
    rank = {s: r for r, s in enumerate(order)}
    t_rank = np.array([rank[v.strength] for v in fives])[tails]
    m_rank = np.array([rank[v.strength] for v in fives])[middles]
    h_rank = np.array([rank[v.strength] for v in threes])[heads]
    legal = (h_rank < m_rank) & (m_rank <= t_rank)
    value = expected(per_dun, table)[legal]
    keys = np.stack([value, t_rank[legal], m_rank[legal], h_rank[legal]], axis=1)
    distinct = np.unique(keys, axis=0)[::-1][:k]  # np.unique sorts rows ascending
    return [(int(v), order[t], order[m], order[h]) for v, t, m, h in distinct.tolist()]
