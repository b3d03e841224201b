"""Pineapple OFC: the best way to set a Fantasyland hand (范特西擺牌), exactly, by bounds and pruning.

The objective (docs/rulings.md O-FL1): among the arrangements of 13 of the dealt cards into top 3 /
middle 5 / bottom 5 that do not foul (there always is one), maximise

    value = royalties of the three rows + ``stay_value`` if the board stays in Fantasyland

then, on equal value, the stronger bottom, then the stronger middle, then the stronger top (each row's
full strength, kickers included: the rows that win more lines against the other players). Arrangements
that make exactly the same three hands (they differ in suits or in which kicker is discarded) are one
*class*; the answer names one member per class, chosen by the card order: the bottom holding the highest
cards, then the middle, then the top (cards compared by ``Card.index``, rank then suit c d h s).
The alternatives are the next best classes in the same order, so every one makes different hands.

The royalty tables and the stay condition are parameters (``FantasylandTerms``), never read from a
global: a rule set is data.

How the search prunes (exact: a branch is cut only when no arrangement in it can reach the k-th best
class found so far):
  1. Every 5-card and 3-card subset of the dealt cards is valued once (strength, royalty as middle and
     as bottom, whether it alone keeps the player in Fantasyland): at most 6,188 + 680 look-ups.
  2. Each possible middle ``M`` gets an optimistic value ``g(M)``: its royalty plus the best top
     royalty of any 3 cards not above it, plus ``stay_value`` if it or such a top could stay. Each
     bottom ``B`` gets ``UB(B)`` = its royalty (+ stay) + the best ``g`` of a middle not above it
     (prefix maxima over the subsets sorted by strength; card overlaps ignored, so it only overestimates).
  3. Bottoms are tried in descending (UB, strength) and middles in descending (g, strength). With the
     k-th best class key (value, bottom, middle, top) known, a bottom whose (UB, strength) is below the
     key's (value, bottom) ends the search, and a middle whose bound is below the key's (value, bottom,
     middle) ends that bottom's loop: both lists are sorted, so everything after is lower still.
  4. A middle that shares a card with the bottom or ranks above it is skipped; the tops are the 3-card
     subsets of the 1-7 cards left, valued from step 1.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any, NamedTuple

from service.rules import poker
from service.rules.cards import Card, find_duplicates
from service.rules.errors import InvalidInputError, problem
from service.rules.ofc.board import BOTTOM, DOMAIN, FANTASYLAND_SIZES, MIDDLE, TOP, Board
from service.rules.ofc.rules import HOUSE, OfcRules, Row

Strength = tuple[int, ...]

MAX_ALTERNATIVES = 10
DEFAULT_ALTERNATIVES = 3
DEFAULT_STAY_VALUE = 10
MAX_STAY_VALUE = 1000


class SolveProblem(StrEnum):
    """Codes of the impossible input ``check_deal`` refuses (HTTP 422), besides the card notation's."""

    FANTASYLAND_DEAL_SIZE = "fantasyland_deal_size"


@dataclass(frozen=True, slots=True)
class FantasylandTerms:
    """What a rule set says that the solver needs: royalties by row and hand strength, and which rows
    keep the player in Fantasyland (any one row at or above its rung, without fouling)."""

    royalties: Mapping[Row, Mapping[Strength, int]]
    stay_rungs: Mapping[Row, int]


def terms_of(rules: OfcRules) -> FantasylandTerms:
    """The solver's view of a rule set: its royalty tables and the rows (with their rungs) that stay."""
    return FantasylandTerms(
        royalties=rules.royalty_by_row, stay_rungs={Row(row): rung for row, rung, _ in rules.stay_rungs}
    )


HOUSE_TERMS = terms_of(HOUSE)
"""Ultimate Fantasyland (the house rules): stay with top trips or bottom quads-or-better."""

_NEVER = 99  # a rung no hand reaches: the row never keeps the player in


class Setting(NamedTuple):
    """One arrangement: the board, the discarded cards, its royalties, whether it stays, its value."""

    board: Board
    discard: tuple[Card, ...]
    royalties: int
    row_royalties: tuple[int, int, int]  # top, middle, bottom
    stays: bool
    value: int
    strengths: tuple[Strength, Strength, Strength]  # top, middle, bottom


class Solution(NamedTuple):
    best: Setting
    alternatives: tuple[Setting, ...]


def check_deal(dealt: Sequence[Card], seen: Sequence[Card] = (), sizes: Sequence[int] = FANTASYLAND_SIZES) -> None:
    """``InvalidInputError`` unless ``dealt`` is a Fantasyland deal (``sizes``) of different cards, none of
    them among the cards ``seen`` elsewhere (which must be different too)."""
    problems = []
    if len(dealt) not in sizes:
        problems.append(
            problem(
                DOMAIN,
                ("cards",),
                SolveProblem.FANTASYLAND_DEAL_SIZE,
                sizes=", ".join(map(str, sizes)),
                actual=len(dealt),
            )
        )
    problems += find_duplicates(
        [(("cards", i), c) for i, c in enumerate(dealt)] + [(("seen", i), c) for i, c in enumerate(seen)]
    )
    if problems:
        raise InvalidInputError(problems)


def _subsets(cards: Sequence[Card], size: int) -> list[tuple[int, Strength]]:
    """Every ``size``-card subset of ``cards`` as (bit mask of positions, strength)."""
    codes = [poker.CODE_BY_CARD[c] for c in cards]
    rank = poker.rank5_codes if size == 5 else poker.rank3_codes
    found = []
    for positions in combinations(range(len(cards)), size):
        mask = 0
        key = 0
        for p in positions:
            mask |= 1 << p
            key += codes[p]
        found.append((mask, rank(key).strength))
    return found


def _prefix_max(values: Sequence[int]) -> list[int]:
    out, best = [], -1
    for v in values:
        best = v if v > best else best
        out.append(best)
    return out


def solve(
    dealt: Sequence[Card],
    terms: FantasylandTerms = HOUSE_TERMS,
    stay_value: int = DEFAULT_STAY_VALUE,
    alternatives: int = DEFAULT_ALTERNATIVES,
) -> Solution:
    """The best setting of ``dealt`` (13-17 distinct cards, checked by the caller) and the next
    ``alternatives`` best classes (fewer when the hand has fewer). ``stay_value`` must be >= 0."""
    # Position 0 is the highest card: a mask compares like the cards it holds, for the tie-break.
    cards = sorted(dealt, key=lambda c: c.index, reverse=True)
    n = len(cards)
    full = (1 << n) - 1
    top_royalty, middle_royalty, bottom_royalty = terms.royalties[TOP], terms.royalties[MIDDLE], terms.royalties[BOTTOM]
    top_rung, middle_rung, bottom_rung = (terms.stay_rungs.get(r, _NEVER) for r in (TOP, MIDDLE, BOTTOM))

    threes = {mask: (s, top_royalty[s], s[0] >= top_rung) for mask, s in _subsets(cards, 3)}
    fives = _subsets(cards, 5)

    # Optimistic top for a middle of strength s: best royalty (+ stay) of any 3 cards not above s.
    by_strength3 = sorted(threes.values())
    strengths3 = [t[0] for t in by_strength3]
    best_top_royalty = _prefix_max([t[1] for t in by_strength3])
    top_can_stay = _prefix_max([int(t[2]) for t in by_strength3])

    def g(s: Strength, royalty: int, stays: bool) -> int:
        i = bisect_right(strengths3, s) - 1
        if i < 0:
            return -(10**9)  # no top fits under this middle: it can never be played
        return royalty + best_top_royalty[i] + (stay_value if stays or top_can_stay[i] else 0)

    middle_info = {}  # mask -> (g, strength, mask, royalty, stays)
    for mask, s in fives:
        m_royalty, m_stays = middle_royalty[s], s[0] >= middle_rung
        middle_info[mask] = (g(s, m_royalty, m_stays), s, mask, m_royalty, m_stays)
    by_strength5 = sorted((m[1], m[0]) for m in middle_info.values())
    strengths5 = [m[0] for m in by_strength5]
    best_g = _prefix_max([m[1] for m in by_strength5])
    bottoms = []
    for mask, s in fives:
        b_royalty, b_stays = bottom_royalty[s], s[0] >= bottom_rung
        base = b_royalty + (stay_value if b_stays else 0)
        bottoms.append((base + best_g[bisect_right(strengths5, s) - 1], s, mask, b_royalty, b_stays, base))
    bottoms.sort(reverse=True)

    k = 1 + alternatives
    heap: list[tuple[int, Strength, Strength, Strength]] = []  # the k best class keys, smallest first
    members: dict[tuple[int, Strength, Strength, Strength], tuple[int, int, int]] = {}
    tops_left: dict[int, list[int]] = {}  # cards left -> the masks of their 3-card subsets
    bits = [1 << p for p in range(n)]
    floor: tuple[Any, ...] = (-(10**9),)  # the k-th best class key once k classes are known: below it, nothing counts
    floor2 = floor3 = floor

    for ub, b_strength, b_mask, b_royalty, b_stays, base in bottoms:
        if (ub, b_strength) < floor2:
            break
        # The middles: 5 of the cards the bottom leaves, not above it, best bound first.
        left = [bit for bit in bits if not bit & b_mask]
        middles = [middle_info[sum(combo)] for combo in combinations(left, 5)]
        middles = sorted([m for m in middles if m[1] <= b_strength], reverse=True)
        for m_g, m_strength, m_mask, m_royalty, m_stays in middles:
            if (base + m_g, b_strength, m_strength) < floor3:
                break
            rest = full ^ b_mask ^ m_mask
            masks = tops_left.get(rest)
            if masks is None:
                masks = tops_left[rest] = [sum(combo) for combo in combinations([bit for bit in bits if bit & rest], 3)]
            royalty_bm = b_royalty + m_royalty
            stays_bm = b_stays or m_stays
            for t_mask in masks:
                t_strength, t_royalty, t_stays = threes[t_mask]
                if t_strength > m_strength:
                    continue  # foul: top above middle
                value = royalty_bm + t_royalty + (stay_value if stays_bm or t_stays else 0)
                key = (value, b_strength, m_strength, t_strength)
                if key < floor:
                    continue
                member = (b_mask, m_mask, t_mask)
                known = members.get(key)
                if known is not None:
                    if member > known:
                        members[key] = member
                    continue
                members[key] = member
                if len(heap) < k:
                    heapq.heappush(heap, key)
                    if len(heap) < k:
                        continue
                else:
                    heapq.heapreplace(heap, key)
                floor = heap[0]
                floor2, floor3 = floor[:2], floor[:3]

    ranked = sorted(heap, reverse=True)
    settings = [_setting(cards, members[key], key, terms, stay_value) for key in ranked]
    return Solution(settings[0], tuple(settings[1:]))


def _setting(
    cards: Sequence[Card], masks: tuple[int, int, int], key: tuple[Any, ...], terms: FantasylandTerms, stay_value: int
) -> Setting:
    b_mask, m_mask, t_mask = masks

    def pick(mask: int) -> tuple[Card, ...]:
        return tuple(c for p, c in enumerate(cards) if mask >> p & 1)

    used = b_mask | m_mask | t_mask
    board = Board(pick(t_mask), pick(m_mask), pick(b_mask))
    value, b_strength, m_strength, t_strength = key
    rows = (terms.royalties[TOP][t_strength], terms.royalties[MIDDLE][m_strength], terms.royalties[BOTTOM][b_strength])
    royalties = sum(rows)
    stays = any(
        s[0] >= terms.stay_rungs.get(r, _NEVER)
        for r, s in ((TOP, t_strength), (MIDDLE, m_strength), (BOTTOM, b_strength))
    )
    discard = tuple(c for p, c in enumerate(cards) if not used >> p & 1)
    return Setting(board, discard, royalties, rows, stays, value, (t_strength, m_strength, b_strength))
