"""Brute force for arrange for me under any Thirteen rule set: every one of the 72,072 splits of 13 cards
into a tail, a middle and a head, nothing pruned.

Independent of the suggester's search, strength cache and ``DunTable``: each dun is valued by the public
``evaluate_dun`` on the rule set's deck, the opponent's per-dun counts are read from the deck's shipped JSON
file, bonuses from ``rules.bonus`` by the dun's category, and the objective is computed as the module
docstring of ``service/rules/thirteen/suggest.py`` states it, as an exact integer (EV x N^3, N deals):

    A_t A_m A_h - (N - W_t)(N - W_m)(N - W_h) + N^2 (B_t + B_m + B_h)

per dun d: A_d opponents not above it, W_d opponents below it, B_d its bonus times W_d less the bonuses of
the opponents above it.

``tests/joker_thirteen/suggest_reference.py`` does the same for Joker Thirteen alone (it reads that game's
file and bonus table); this one takes the rule set.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from functools import cache
from itertools import combinations

from service.rules.thirteen import DUNS, HEAD, MIDDLE, RUNG, TAIL, Category, Dun, ThirteenRules, evaluate_dun
from service.rules.thirteen import suggest as sg

_CATEGORY_OF_RUNG = {rung: category for category, rung in RUNG.items()}


@cache
def _counts(file_name: str) -> tuple[int, dict[Dun, list[tuple[tuple[int, ...], int]]]]:
    """deals, and per dun the (strength, count) rows of the shipped file, ascending."""
    data = json.loads((sg.DATA_DIR / file_name).read_text(encoding="utf-8"))
    return data["deals"], {d: sorted((tuple(s), n) for s, n in data["duns"][d.value]) for d in DUNS}


class Opponent:
    """One rule set's simulated opponent, per dun: sorted strengths, running counts, and running counts
    weighted by the bonus each strength's category earns in that dun under the rule set."""

    def __init__(self, rules: ThirteenRules) -> None:
        self.deals, rows = _counts(rules.deck.opponent)
        self.rules = rules
        self.duns = {}
        for d in DUNS:
            strengths, counts, paid = [], [0], [0]
            for s, n in rows[d]:
                strengths.append(s)
                counts.append(counts[-1] + n)
                paid.append(paid[-1] + n * self.bonus(d, _CATEGORY_OF_RUNG[s[0]]))
            self.duns[d] = (strengths, counts, paid)

    def bonus(self, dun: Dun, category: Category | str) -> int:
        return self.rules.bonus.get((dun, Category(category)), 0)

    def terms(self, dun: Dun, value) -> tuple[int, int, int]:
        """(opponents not above, opponents below, bonus won when winning minus the opponents' bonus when they win)."""
        strengths, counts, paid = self.duns[dun]
        below = counts[bisect_left(strengths, value.strength)]
        above_from = bisect_right(strengths, value.strength)
        return counts[above_from], below, self.bonus(dun, value.category) * below - (paid[-1] - paid[above_from])

    def exact(self, head, middle, tail) -> int:
        """The objective x deals^3 of three evaluated duns."""
        n = self.deals
        (ha, hw, hb), (ma, mw, mb), (ta, tw, tb) = (
            self.terms(d, v) for d, v in ((HEAD, head), (MIDDLE, middle), (TAIL, tail))
        )
        return ta * ma * ha - (n - tw) * (n - mw) * (n - hw) + n * n * (tb + mb + hb)


def brute_force(hand, k: int, rules: ThirteenRules):
    """The ``k`` best classes, best first: [((exact value, tail, middle, head strengths), (tail, middle, head))].

    A class is every split making the same three strengths (so the same value); ties in value go to the
    stronger tail, then middle, then head. A class is shown by one member: the service's choice is, per dun
    from the tail, the member whose cards (by ``Card.index``, low to high) are smallest lexicographically,
    that is, which holds the lowest card on which the members' duns differ (suggest.py's docstring says
    "hold the highest cards"; this is what it does, as tests/joker_thirteen/suggest_reference.py has it)."""
    opponent = Opponent(rules)
    n = opponent.deals
    cards = list(hand)
    assert len(cards) == 13
    # every 5-card subset as a tail and as a middle (the same hand, different odds), every 3-card one as a
    # head, by its positions in ``cards`` as a bit mask; with its cards' indices low to high (see above)
    fives, threes = {}, {}
    for combo in combinations(range(13), 5):
        v = evaluate_dun(TAIL, [cards[p] for p in combo], deck=rules.deck)
        fives[_mask(combo)] = (v.strength, opponent.terms(TAIL, v), opponent.terms(MIDDLE, v), _indices(cards, combo))
    for combo in combinations(range(13), 3):
        v = evaluate_dun(HEAD, [cards[p] for p in combo], deck=rules.deck)
        threes[_mask(combo)] = (v.strength, opponent.terms(HEAD, v), _indices(cards, combo))
    best: dict[tuple, tuple] = {}
    splits = 0
    for tail in combinations(range(13), 5):
        t_mask = _mask(tail)
        t_s, (ta, tw, tb), _, t_member = fives[t_mask]
        for middle in combinations([p for p in range(13) if p not in tail], 5):
            m_mask = _mask(middle)
            h_mask = (1 << 13) - 1 - t_mask - m_mask
            splits += 1
            m_s, _, (ma, mw, mb), m_member = fives[m_mask]
            h_s, (ha, hw, hb), h_member = threes[h_mask]
            if not h_s < m_s <= t_s:
                continue  # 相公
            exact = ta * ma * ha - (n - tw) * (n - mw) * (n - hw) + n * n * (tb + mb + hb)
            key = (exact, t_s, m_s, h_s)
            member = (t_member, m_member, h_member)
            if key not in best or member < best[key][0]:
                best[key] = (member, (t_mask, m_mask, h_mask))
    assert splits == 72_072
    ranked = sorted(best.items(), reverse=True)[:k]
    return [(key, tuple(_shown(cards, mask) for mask in masks)) for key, (_, masks) in ranked]


def _mask(positions) -> int:
    return sum(1 << p for p in positions)


def _indices(cards, positions) -> tuple[int, ...]:
    return tuple(sorted(cards[p].index for p in positions))


def _shown(cards, mask: int) -> tuple:
    """A dun's cards high to low by index, as the suggester lists them."""
    return tuple(sorted((c for p, c in enumerate(cards) if mask >> p & 1), key=lambda c: c.index, reverse=True))
