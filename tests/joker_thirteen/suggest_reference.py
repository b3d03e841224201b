"""Brute force for arrangements/suggest: every one of the 72,072 splits of 13 cards, nothing pruned.

Each dun is valued by the public ``evaluate_dun`` (not the suggester's cache), the opponent's per-dun
probabilities are read from the shipped table's counts directly, and the objective is computed as the
module documents it, as an exact integer (x deals^3).
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from functools import cache
from itertools import combinations

from service.rules import thirteen as j13
from service.rules.thirteen import DUNS, Dun
from service.rules.thirteen import suggest as sg


@cache
def table() -> tuple[int, dict[Dun, tuple[list, list, list]]]:
    """deals, and per dun: sorted strengths, running counts, running bonus-weighted counts."""
    data = json.loads(sg.DATA.read_text(encoding="utf-8"))
    out = {}
    for d in DUNS:
        rows = sorted((tuple(s), n) for s, n in data["duns"][d.value])
        strengths = [s for s, _ in rows]
        counts, bonuses, total, total_bonus = [0], [0], 0, 0
        for s, n in rows:
            total += n
            total_bonus += n * j13.BONUS.get((d, j13.Category(sg.category_of(s))), 0)
            counts.append(total)
            bonuses.append(total_bonus)
        out[d] = (strengths, counts, bonuses)
    return data["deals"], out


def terms(d: Dun, value) -> tuple[int, int, int]:
    deals, tables = table()
    strengths, counts, bonuses = tables[d]
    below = counts[bisect_left(strengths, value.strength)]
    not_above = counts[bisect_right(strengths, value.strength)]
    paid = bonuses[-1] - bonuses[bisect_right(strengths, value.strength)]
    return not_above, below, j13.bonus(d, value) * below - paid


def brute_force(hand, k: int):
    """The ``k`` best classes, best first: [((exact value, tail, middle, head strengths), (tail, middle, head cards))]."""
    deals, _ = table()
    cards = sorted(hand, key=lambda c: c.index, reverse=True)  # the suggester's order: masks mean the same
    n = len(cards)
    assert n == 13
    pick = lambda mask: tuple(c for p, c in enumerate(cards) if mask >> p & 1)  # noqa: E731
    value = {}
    for size, dun_names in ((5, (Dun.MIDDLE, Dun.TAIL)), (3, (Dun.HEAD,))):
        for combo in combinations(range(n), size):
            mask = sum(1 << p for p in combo)
            hv = j13.evaluate_dun(dun_names[0], pick(mask))  # a middle and a tail of the same cards are the same hand
            for d in dun_names:
                value[d, mask] = (hv.strength, *terms(d, hv))
    best: dict[tuple, tuple[int, int, int]] = {}
    full = (1 << n) - 1
    splits = 0
    for t in combinations(range(n), 5):
        t_mask = sum(1 << p for p in t)
        rest = [p for p in range(n) if p not in t]
        for m in combinations(rest, 5):
            m_mask = sum(1 << p for p in m)
            h_mask = full ^ t_mask ^ m_mask
            splits += 1
            t_s, t_a, t_w, t_b = value[Dun.TAIL, t_mask]
            m_s, m_a, m_w, m_b = value[Dun.MIDDLE, m_mask]
            h_s, h_a, h_w, h_b = value[Dun.HEAD, h_mask]
            if not (h_s < m_s <= t_s):
                continue  # 相公
            exact = t_a * m_a * h_a - (deals - t_w) * (deals - m_w) * (deals - h_w) + deals * deals * (t_b + m_b + h_b)
            key = (exact, t_s, m_s, h_s)
            member = (t_mask, m_mask, h_mask)
            if member > best.get(key, (-1,)):
                best[key] = member
    assert splits == 72_072
    ranked = sorted(best.items(), reverse=True)[:k]
    return [(key, tuple(pick(m) for m in member)) for key, member in ranked]
