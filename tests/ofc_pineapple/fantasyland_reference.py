"""Brute force for the Fantasyland solver: every arrangement of the dealt cards, valued, nothing pruned.

It shares only the hand evaluator and the rule set's tables with the solver. Every (bottom, middle, top)
triple of disjoint subsets is enumerated (14 cards: 1,009,008 arrangements; 17 cards: 171,531,360), with
numpy: for each bottom, the middles and tops are the same local pattern over the cards it leaves, mapped
to real card masks by a table. Fouls are filtered, each arrangement's class key (value, bottom, middle,
top strength) packed into one integer, and the best member of each class kept (the solver's tie-break:
the highest bottom mask, then middle, then top).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from service.rules import poker
from service.rules.ofc import BOTTOM, MIDDLE, TOP
from service.rules.ofc.fantasyland import FantasylandTerms

_NEVER = 99


@cache
def _ordinals() -> dict[tuple[int, ...], int]:
    """Every 3- and 5-card strength by its place in one order (3- and 5-card strengths compare as tuples)."""
    strengths = {r.strength for table in (poker.PLAIN5, poker.FLUSH5, poker.TOP3) for r in table.values()}
    return {s: i for i, s in enumerate(sorted(strengths))}


@cache
def _pattern(left: int) -> tuple[np.ndarray, np.ndarray]:
    """Over ``left`` local cards: every (middle mask, top mask) of 5 and then 3 disjoint local cards."""
    middles, tops = [], []
    for m in combinations(range(left), 5):
        rest = [p for p in range(left) if p not in m]
        for t in combinations(rest, 3):
            middles.append(sum(1 << p for p in m))
            tops.append(sum(1 << p for p in t))
    return np.array(middles, dtype=np.int64), np.array(tops, dtype=np.int64)


def brute_force(cards, terms: FantasylandTerms, stay_value: int, k: int, chunk: int = 64):
    """The ``k`` best classes, best first: [((value, bottom, middle, top strengths), (b, m, t masks))].

    ``cards`` must be in the solver's order (highest ``Card.index`` first): masks are over positions."""
    n = len(cards)
    ordinal = _ordinals()
    strength_of = {i: s for s, i in ordinal.items()}
    size = 1 << n
    ord5 = np.full(size, -1, dtype=np.int64)
    ord3 = np.full(size, -1, dtype=np.int64)
    royalty_m = np.zeros(size, dtype=np.int64)
    royalty_b = np.zeros(size, dtype=np.int64)
    royalty_t = np.zeros(size, dtype=np.int64)
    stay5_m = np.zeros(size, dtype=bool)
    stay5_b = np.zeros(size, dtype=bool)
    stay3 = np.zeros(size, dtype=bool)
    rungs = {r: terms.stay_rungs.get(r, _NEVER) for r in (TOP, MIDDLE, BOTTOM)}
    codes = [poker.CODE_BY_CARD[c] for c in cards]
    for combo in combinations(range(n), 5):
        mask = sum(1 << p for p in combo)
        s = poker.rank5_codes(sum(codes[p] for p in combo)).strength
        ord5[mask] = ordinal[s]
        royalty_m[mask], royalty_b[mask] = terms.royalties[MIDDLE][s], terms.royalties[BOTTOM][s]
        stay5_m[mask], stay5_b[mask] = s[0] >= rungs[MIDDLE], s[0] >= rungs[BOTTOM]
    for combo in combinations(range(n), 3):
        mask = sum(1 << p for p in combo)
        s = poker.rank3_codes(sum(codes[p] for p in combo)).strength
        ord3[mask] = ordinal[s]
        royalty_t[mask] = terms.royalties[TOP][s]
        stay3[mask] = s[0] >= rungs[TOP]

    local_m, local_t = _pattern(n - 5)
    local_bits = (np.arange(1 << (n - 5))[:, None] >> np.arange(n - 5)) & 1  # local mask -> its bits
    bottoms = [sum(1 << p for p in combo) for combo in combinations(range(n), 5)]
    width = 1 << 13  # > number of distinct strengths: a key packs four fields
    best: dict[int, int] = {}
    for start in range(0, len(bottoms), chunk):
        b = np.array(bottoms[start : start + chunk], dtype=np.int64)
        # each bottom's left cards, lowest position first: their real bits, then local -> real tables
        left = np.array([[1 << p for p in range(n) if not bm >> p & 1] for bm in b.tolist()], dtype=np.int64)
        tables = left @ local_bits.T  # (bottoms, 2^(n-5))
        m = np.take_along_axis(tables, np.broadcast_to(local_m, (len(b), len(local_m))), axis=1)
        t = np.take_along_axis(tables, np.broadcast_to(local_t, (len(b), len(local_t))), axis=1)
        bb = np.broadcast_to(b[:, None], m.shape)
        ob, om, ot = ord5[bb], ord5[m], ord3[t]
        legal = (om <= ob) & (ot <= om)
        bb, m, t, ob, om, ot = bb[legal], m[legal], t[legal], ob[legal], om[legal], ot[legal]
        stays = stay5_b[bb] | stay5_m[m] | stay3[t]
        value = royalty_b[bb] + royalty_m[m] + royalty_t[t] + stay_value * stays
        key = ((value * width + ob) * width + om) * width + ot
        member = (bb << 34) | (m << 17) | t
        if not key.size:
            continue  # every arrangement of these bottoms fouls
        if key.size > 4096:  # only the top classes matter: sort the few thousand highest keys, not all
            top = np.argpartition(key, key.size - 4096)[-4096:]
            if np.unique(key[top]).size > k:  # k classes inside, plus the partial one at the cut
                cut = key[top].min()
                keep = key > cut
                key, member = key[keep], member[keep]
        order = np.lexsort((member, key))
        key, member = key[order], member[order]
        last = np.r_[key[1:] != key[:-1], True]  # the highest member of each class
        key, member = key[last], member[last]
        for kk, mm in zip(key[-k:].tolist(), member[-k:].tolist()):  # a global top-k class is a chunk's top-k
            if mm > best.get(kk, -1):
                best[kk] = mm
    ranked = sorted(best.items(), reverse=True)[:k]
    out = []
    for kk, mm in ranked:
        ot, om, ob, value = kk % width, kk // width % width, kk // width**2 % width, kk // width**3
        out.append(
            ((value, strength_of[ob], strength_of[om], strength_of[ot]), (mm >> 34, mm >> 17 & 0x1FFFF, mm & 0x1FFFF))
        )
    return out
