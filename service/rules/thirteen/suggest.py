"""The Thirteen games: arrange for me (自動理牌), exactly for a documented objective, by bounds and pruning.

The objective (docs/rulings.md J14): the expected result, in 道, of the arrangement against ONE opponent
whose three duns are drawn independently from the per-dun distributions of ``OPPONENT``, scored as the table
(``rules``) scores a pair: each dun won strictly pays ``dun_points`` and its bonus, the majority of duns
``majority_points``, the sweep (no dun lost, or all three won, as the table says) adds ``sweep_points`` and
multiplies the pair's total (bonuses inside it where the table says so), the opponent's the same from its
side, the result what the player gets less what the opponent gets (``pair_value``). A home run needs three
opponents and is left out. Each dun won, tied or lost is counted out of the simulated deals, so over the 27
combinations of the three outcomes the objective times ``deals**3`` is an integer polynomial
(``pair_value.PairForm``). At the house scoring (no dun or majority points, 打槍 1 for losing no dun, nothing
multiplied; ``house_scoring``) it is:

    EV = P(not losing any dun) - P(the opponent not losing any dun)
         + sum over duns of [bonus(mine) * P(win the dun) - E(opponent's bonus when it wins the dun)]

    with P(not losing any dun) = prod_d P(opp_d <= mine_d) and P(opponent not losing) = prod_d P(opp_d >= mine_d)
    (independent duns),

searched by the house search below (the fastest there); any other table by ``table_search``. Only legal
arrangements are searched: a fouled one is refused at the house tables, and where it loses all
(``Foul.LOSES_ALL``) it loses every dun to the opponent, who sweeps it with its bonuses: no deal pays it
more than any legal arrangement, which loses at most every dun.

Specials (報到): at a table paying them, the answer also names the highest listed special 13 cards of the 52
make (``SpecialChoice``). The simulated opponent is scored by its duns, never by a special (an assumption,
stated), so the special takes its points from it: they are its expected value. Scored automatically, the hand
is that special whatever its duns (shown all the same); declared by the player, the answer says which is
worth more, declaring or the best duns (on a tie, declaring: the same mean, without the duns' spread).

``OPPONENT`` holds, for each dun, how often each hand strength occurred in a fixed set of simulated
opponents: ``deals`` hands of the game's deal drawn at random from its whole deck with a fixed seed (17 of
Joker Thirteen's 68 cards, 13 of ordinary 十三支's 52), each arranged by ``naive_arrangement`` (strongest
tail, then strongest middle, then the strongest legal head). The tables are data, one file per deck
(``data/joker_thirteen_opponent.json``, ``data/thirteen_opponent.json``: ``ThirteenDeck.opponent``), built
once by ``scripts/build_joker_thirteen_tables.py``; with integer counts the objective times ``deals**3`` is an
integer, so the search compares exact integers and the answer never depends on float rounding.
Assumptions, stated: the opponent's cards are drawn from the whole deck (the cards the player holds are not
removed), and the opponent's three duns are treated as independent.

On equal EV the stronger tail, then middle, then head wins. Arrangements making the same three hands are
one class (same EV); a class is shown by its member whose tail, then middle, then head holds the lowest of
the cards in which the members' duns differ (``Card.index``, jokers highest: a mask over the cards sorted high
to low is largest). Alternatives are the next best classes.

How the house search prunes (exact: a branch is cut only when no arrangement in it can reach the k-th best
class; ``table_search`` does the same with a table's form, its bounds in ``pair_value``'s terms):
  1. Every 5- and 3-card subset is valued once; a dun's strength depends only on its rank counts, its
     joker count and whether its real cards share one suit, so strengths are cached under that key.
  2. For a middle ``m``, optimistic partners: the best head below it in each of the three terms
     separately (most "not lose", most "win", most bonus). For a tail, the same over every middle not
     above it (prefix maxima by strength; card overlaps ignored, so bounds only overestimate).
  3. Tails are tried best bound first; a tail whose bound is below the k-th best key ends the search.
     Its middles (5 of the cards it leaves) are sorted by bound and the loop ends at the first one below.
  4. Heads are the 3-card subsets of the cards left (1 for 13 cards, 35 for 17), valued exactly.
"""

from __future__ import annotations

import heapq
import json
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any, Literal, NamedTuple

from service.rules.cards import JOKER, Card, find_duplicates
from service.rules.errors import InvalidInputError, problem
from service.rules.hand_value import HandValue
from service.rules.thirteen.duns import (
    DOMAIN,
    DUNS,
    JOKER_DECK,
    RUNG,
    SET_CARDS,
    Category,
    Dun,
    ThirteenDeck,
    _evaluate,
    evaluate_dun,
)
from service.rules.thirteen.pair_value import (
    Form,
    Outcome,
    PairForm,
    Scoring,
    applied,
    basis,
    dominating,
    dot,
    highest,
    in_basis,
    pair_form,
    scoring_of,
)
from service.rules.thirteen.rules import GSCAS, Declare, Sweep, ThirteenRules
from service.rules.thirteen.specials import Special, scored_special, specials_of

Strength = tuple[int, ...]
Ranked = tuple[tuple[Any, ...], tuple[int, int, int]]  # a class: (value x deals**3 and strengths), its masks

MAX_ALTERNATIVES = 10
DEFAULT_ALTERNATIVES = 3
DATA_DIR = Path(__file__).with_name("data")
DATA = DATA_DIR / JOKER_DECK.opponent
TABLES_KEPT = 4  # opponent tables kept, for the bonus tables most recently asked for (see opponent_tables)


def hand_sizes(deck: ThirteenDeck = JOKER_DECK) -> tuple[int, ...]:
    """What arrange for me takes: the 13 cards to place, or the whole deal when it holds more."""
    return tuple(sorted({SET_CARDS, deck.hand_size}))


_CATEGORY_BY_RUNG = {rung: category for category, rung in RUNG.items()}


# --- a dun's strength, fast ---------------------------------------------------------------------------

_JOKER_CODE = 1 << 39  # rank counts take 3 bits per rank (ranks 2-14: bits 0-38), jokers above
_ONE_SUIT = 1 << 42


def _code(c: Card) -> int:
    return _JOKER_CODE if c is JOKER else 1 << 3 * (c.rank - 2)


def _suit_bit(c: Card) -> int:
    return 0 if c.suit is None else 1 << c.suit.order  # the joker is in no suit


_STRENGTH_CACHE: dict[int, Strength] = {}
_CACHE_LIMIT = 1 << 20  # keys are at most ~10^5 in practice; bounded anyway


def strength(cards: Sequence[Card]) -> Strength:
    """The dun's strength (``evaluate_dun``'s), cached by rank counts, jokers and "one suit": a joker
    completes the strongest shape from exactly these facts (tests hold it to ``evaluate_dun``)."""
    key = 0
    suits = 0
    for c in cards:
        key += _code(c)
        suits |= _suit_bit(c)
    return _strength_by_key(key, suits, cards)


def _strength_by_key(key: int, suits: int, cards: Sequence[Card]) -> Strength:
    if len(cards) == 5 and suits & (suits - 1) == 0:
        key |= _ONE_SUIT
    key |= len(cards) << 43
    found = _STRENGTH_CACHE.get(key)
    if found is None:
        found = _miss(key, cards)
    return found


def _miss(key: int, cards: Sequence[Card]) -> Strength:
    found = _evaluate(len(cards), cards).strength
    if len(_STRENGTH_CACHE) < _CACHE_LIMIT:
        _STRENGTH_CACHE[key] = found
    return found


def _subsets(cards: Sequence[Card], size: int) -> list[tuple[int, Strength]]:
    """Every ``size``-card subset of the positions of ``cards``: (bit mask, strength). Nested loops with
    running sums: the hot part of every request, so no per-subset lists unless the cache misses."""
    n = len(cards)
    codes = [_code(c) for c in cards]
    suit_bits = [_suit_bit(c) for c in cards]
    cache_get = _STRENGTH_CACHE.get
    found = []
    if size == 3:
        tag = 3 << 43
        for a in range(n):
            ka, ma = codes[a] | tag, 1 << a
            for b in range(a + 1, n):
                kb, mb = ka + codes[b], ma | 1 << b
                for c in range(b + 1, n):
                    key = kb + codes[c]
                    s = cache_get(key)
                    if s is None:
                        s = _miss(key, (cards[a], cards[b], cards[c]))
                    found.append((mb | 1 << c, s))
        return found
    tag = 5 << 43
    for a in range(n):
        ka, ma, sa = codes[a] | tag, 1 << a, suit_bits[a]
        for b in range(a + 1, n):
            kb, mb, sb = ka + codes[b], ma | 1 << b, sa | suit_bits[b]
            for c in range(b + 1, n):
                kc, mc, sc = kb + codes[c], mb | 1 << c, sb | suit_bits[c]
                for d in range(c + 1, n):
                    kd, md, sd = kc + codes[d], mc | 1 << d, sc | suit_bits[d]
                    for e in range(d + 1, n):
                        suits = sd | suit_bits[e]
                        key = kd + codes[e]
                        if suits & (suits - 1) == 0:
                            key |= _ONE_SUIT
                        s = cache_get(key)
                        if s is None:
                            s = _miss(key, (cards[a], cards[b], cards[c], cards[d], cards[e]))
                        found.append((md | 1 << e, s))
    return found


# --- the naive arranger (the simulated opponent, and the benchmark's baseline) -------------------------


def naive_arrangement(hand: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """Strongest tail of the hand, then the strongest middle of the rest, then the strongest head of the
    rest below that middle (the next strongest middle if none is). A tie goes to the dun holding the lowest
    of the cards in which the tied duns differ (``Card.index``: the largest mask over the cards sorted high to
    low), so the answer is one function of the hand. Returns (head, middle, tail)."""
    cards = sorted(hand, key=lambda c: c.index, reverse=True)
    n = len(cards)
    fives = dict(_subsets(cards, 5))
    threes = dict(_subsets(cards, 3))
    full = (1 << n) - 1
    tail = max(fives, key=lambda m: (fives[m], m))
    middles = sorted(
        (m for m in fives if not m & tail and fives[m] <= fives[tail]), key=lambda m: (fives[m], m), reverse=True
    )
    for middle in middles:
        rest = full ^ tail ^ middle
        heads = [h for h in threes if h & rest == h and threes[h] < fives[middle]]
        if heads:
            head = max(heads, key=lambda h: (threes[h], h))

            def pick(mask: int) -> tuple[Card, ...]:
                return tuple(c for p, c in enumerate(cards) if mask >> p & 1)

            return pick(head), pick(middle), pick(tail)
    raise AssertionError("every hand has a legal arrangement")  # pragma: no cover


# --- the opponent's tables --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DunTable:
    """How often each strength occurred as one dun of the simulated opponents (``deals`` in all), with the
    bonus each rung earns in this dun (by rung: ``bonus[RUNG[category]]``)."""

    dun: Dun
    strengths: tuple[Strength, ...]  # ascending, each once
    at_most: tuple[int, ...]  # at_most[i]: occurrences of strengths[:i] (len + 1 entries)
    bonus_at_most: tuple[int, ...]  # the same, each occurrence weighted by its bonus in this dun
    deals: int
    bonus: tuple[int, ...]  # by rung
    known: dict[Strength, tuple[int, int, int]] = field(default_factory=dict, compare=False)  # terms, cached
    outcomes: dict[Strength, Outcome] = field(default_factory=dict, compare=False)  # outcome, cached

    @classmethod
    def of(cls, dun: Dun, counts: dict[Strength, int], deals: int, bonus: tuple[int, ...]) -> DunTable:
        strengths = tuple(sorted(counts))
        at_most, bonus_at_most = [0], [0]
        for s in strengths:
            at_most.append(at_most[-1] + counts[s])
            bonus_at_most.append(bonus_at_most[-1] + bonus[s[0]] * counts[s])
        assert at_most[-1] == deals, "a dun table counts every simulated deal once"
        return cls(dun, strengths, tuple(at_most), tuple(bonus_at_most), deals, bonus)

    def terms(self, s: Strength) -> tuple[int, int, int]:
        """For a dun of strength ``s``, in units of 1/deals: (not lose = P(opp <= s), win = P(opp < s),
        bonus = bonus(s) x P(win) - E[the opponent's bonus when it wins])."""
        found = self.known.get(s)
        if found is None:
            found = self._terms(s)
            if len(self.known) < _CACHE_LIMIT:
                self.known[s] = found
        return found

    def outcome(self, s: Strength) -> Outcome:
        """For a dun of strength ``s``, in deals: (won, tied, lost, its bonus x won, the opponents' bonuses
        when they win): what a table's pair form reads (``pair_value``)."""
        found = self.outcomes.get(s)
        if found is None:
            lo = bisect_left(self.strengths, s)
            hi = bisect_right(self.strengths, s)
            win, not_lose = self.at_most[lo], self.at_most[hi]
            paid = self.bonus_at_most[-1] - self.bonus_at_most[hi]
            found = (win, not_lose - win, self.deals - not_lose, self.bonus[s[0]] * win, paid)
            if len(self.outcomes) < _CACHE_LIMIT:
                self.outcomes[s] = found
        return found

    def _terms(self, s: Strength) -> tuple[int, int, int]:
        lo = bisect_left(self.strengths, s)
        hi = bisect_right(self.strengths, s)
        win, not_lose = self.at_most[lo], self.at_most[hi]
        paid = self.bonus_at_most[-1] - self.bonus_at_most[hi]
        return not_lose, win, self.bonus[s[0]] * win - paid


@dataclass(frozen=True, slots=True)
class OpponentTables:
    deals: int
    seed: int
    duns: dict[Dun, DunTable]


Counts = tuple[int, int, tuple[dict[Strength, int], ...]]  # deals, seed, each dun's strength counts


@cache
def _opponent_counts(path: Path) -> Counts:
    """One shipped file's counts, read once (``cache``: the files are the decks', a fixed few)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["deals"], data["seed"], tuple({tuple(s): n for s, n in data["duns"][d.value]} for d in DUNS)


def opponent_tables(rules: ThirteenRules = GSCAS, path: Path | None = None) -> OpponentTables:
    """The simulated opponent of ``rules``' deck (``path``: its shipped file unless given), its bonuses paid
    by ``rules``. Kept for the ``TABLES_KEPT`` bonus tables most recently asked for, as a rule set's tables
    are asked for again and again: each holds its deck's counts once more and the terms it has answered, at
    most one per strength a dun can have (bench/README.md, "Ordinary 十三支", has their size)."""
    return _tables(path or DATA_DIR / rules.deck.opponent, rules.bonus_by_rung)


@lru_cache(maxsize=TABLES_KEPT)
def _tables(path: Path, bonus_by_rung: tuple[tuple[int, ...], ...]) -> OpponentTables:
    """``opponent_tables``, keyed by the file and the bonuses alone (``ThirteenRules`` is not hashable, and
    two rule sets paying the same bonuses on one deck share their tables). ``bonus_by_rung`` is by rung
    plus one (``ThirteenRules.bonus_by_rung``); a table reads it by rung."""
    deals, seed, counts = _opponent_counts(path)
    duns = {d: DunTable.of(d, counts[i], deals, bonus_by_rung[i][1:]) for i, d in enumerate(DUNS)}
    return OpponentTables(deals, seed, duns)


# --- the search -------------------------------------------------------------------------------------


class SuggestProblem(StrEnum):
    """Codes of the impossible input ``check_hand`` refuses (HTTP 422), besides the card notation's."""

    SUGGEST_HAND_SIZE = "suggest_hand_size"


class Suggestion(NamedTuple):
    """One arrangement and its objective's parts (probabilities against the simulated opponent)."""

    head: tuple[Card, ...]
    middle: tuple[Card, ...]
    tail: tuple[Card, ...]
    discarded: tuple[Card, ...]
    duns: dict[Dun, HandValue]  # with ``resolved``: what each joker stands for
    expected_value: float
    exact_value: int  # expected_value x deals**3, the integer the search compares
    win: dict[Dun, float]
    tie: dict[Dun, float]
    expected_bonus: dict[Dun, float]  # bonus won minus bonus paid, expected, per dun
    shoot: float  # P(the player sweeps the opponent, by the table's condition: no dun lost, or all won)
    shot: float  # P(the opponent sweeps the player)


class SuggestResult(NamedTuple):
    best: Suggestion
    alternatives: tuple[Suggestion, ...]
    deals: int
    special: SpecialChoice | None = None  # the special the hand is scored by, where the table pays one


def check_hand(hand: Sequence[Card], deck: ThirteenDeck = JOKER_DECK) -> None:
    """``InvalidInputError`` for a hand arrange for me cannot take: not one of ``hand_sizes(deck)``, or a
    card beyond the deck's copies."""
    problems = []
    if len(hand) not in hand_sizes(deck):
        case = "discards" if deck.discards else "deal"  # a deal that discards: both sizes it takes
        problems.append(problem(DOMAIN, ("cards",), SuggestProblem.SUGGEST_HAND_SIZE, case=case, actual=len(hand)))
    problems += find_duplicates([(("cards", i), c) for i, c in enumerate(hand)], copies=deck.copies, default_copies=0)
    if problems:
        raise InvalidInputError(problems)


def _prefix(values: Sequence[int], better: Callable[[int, int], bool]) -> list[int]:
    out: list[int] = []
    best: int | None = None
    for v in values:
        best = v if best is None or better(v, best) else best
        out.append(best)
    return out


class SpecialChoice(NamedTuple):
    """The special a hand is scored by at a table paying specials, against the duns' best arrangement.

    The simulated opponent is scored by its duns, never by a special (an assumption, stated), so a special
    takes its points from it: its expected value is its points. ``declared_by`` ``"automatic"``: the hand
    IS scored by it (``recommended`` always); ``"player"``: declaring is the player's choice, ``recommended``
    when its points are at least the best arrangement's EV (on a tie, declare: the same mean, without the
    duns' spread)."""

    special: Special
    expected_value: float  # the special's points
    exact_value: int  # the points x deals**3, the unit of ``Suggestion.exact_value``
    declared_by: Literal["automatic", "player"]
    recommended: bool


def special_choice(hand: Sequence[Card], best: Suggestion, rules: ThirteenRules, deals: int) -> SpecialChoice | None:
    """The highest special ``rules`` lists that 13 cards of the 52 make (None: none, or no specials paid)."""
    if not rules.specials or len(hand) != SET_CARDS or not rules.deck.distinct:
        return None
    special = scored_special(specials_of(hand), rules.specials)
    if special is None:
        return None
    points = rules.specials[special]
    exact = points * deals**3
    automatic = rules.declare is Declare.AUTOMATIC
    by: Literal["automatic", "player"] = "automatic" if automatic else "player"
    return SpecialChoice(special, float(points), exact, by, automatic or exact >= best.exact_value)


def house_scoring(rules: ThirteenRules) -> bool:
    """Whether ``rules`` score a pair as the house book (no dun or majority points, a sweep of 1 for losing no
    dun, nothing multiplied), where the objective is the house formula and its own search answers."""
    return scoring_of(rules) in (
        Scoring(0, 0, Sweep.NO_DUN_LOST, 1, 1, False),
        Scoring(0, 0, Sweep.NO_DUN_LOST, 1, 1, True),
    )


def suggest(
    hand: Sequence[Card],
    alternatives: int = DEFAULT_ALTERNATIVES,
    tables: OpponentTables | None = None,
    rules: ThirteenRules = GSCAS,
) -> SuggestResult:
    """The best legal arrangement of ``hand`` (13 cards, or the whole deal of ``rules``' deck, the rest
    discarded; checked by the caller with ``check_hand``) for the module's objective under ``rules``, and the
    next ``alternatives`` classes; with the special the hand is scored by, where the table pays one."""
    tables = tables or opponent_tables(rules)
    cards = sorted(hand, key=lambda c: c.index, reverse=True)
    k = 1 + alternatives
    if house_scoring(rules):
        ranked = _house_search(cards, k, tables)
    else:
        ranked = table_search(cards, k, tables, pair_form(rules))
    found = [_suggestion(cards, masks, key[0], tables, rules) for key, masks in ranked]
    return SuggestResult(found[0], tuple(found[1:]), tables.deals, special_choice(hand, found[0], rules, tables.deals))


class _Ranking:
    """The ``k`` best classes found so far: a min-heap of their keys (value, then tail, middle and head
    strengths), each class's shown member (the largest masks), and the floor a new class must reach."""

    __slots__ = ("k", "heap", "members", "floor", "floor2", "floor3")

    def __init__(self, k: int) -> None:
        self.k = k
        self.heap: list[tuple[Any, ...]] = []
        self.members: dict[tuple[Any, ...], tuple[int, int, int]] = {}
        self.floor: tuple[Any, ...] = (-(10**30),)
        self.floor2 = self.floor3 = self.floor  # the floor's first two and three entries

    def offer(self, key: tuple[Any, ...], member: tuple[int, int, int]) -> None:
        known = self.members.get(key)
        if known is not None:
            if member > known:
                self.members[key] = member
            return
        self.members[key] = member
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, key)
            if len(self.heap) < self.k:
                return
        else:
            heapq.heapreplace(self.heap, key)
        self.floor = self.heap[0]
        self.floor2, self.floor3 = self.floor[:2], self.floor[:3]

    def ranked(self) -> list[Ranked]:
        return [(key, self.members[key]) for key in sorted(self.heap, reverse=True)]


def _dominated(outcomes: Sequence[Outcome]) -> list[Outcome]:
    """Running ``dominating`` outcomes: entry i is worth at least each of outcomes[: i + 1]."""
    out: list[Outcome] = []
    for o in outcomes:
        out.append(dominating(out[-1], o) if out else o)
    return out


def _highest_running(forms: Sequence[Form]) -> list[Form]:
    out: list[Form] = []
    for f in forms:
        out.append(highest((out[-1], f)) if out else f)
    return out


def table_search(cards: Sequence[Card], k: int, tables: OpponentTables, form: PairForm) -> list[Ranked]:
    """The ``k`` best classes of ``cards`` (sorted high to low) under a table's pair ``form``, best first.

    Exact, by sound upper bounds (``pair_value``: each coefficient is monotone in its dun's outcome):
    per middle, the form of the tail with that middle and the dominating outcome of every head below it;
    per tail, the highest of those forms over every middle not above it (card overlaps ignored). Tails,
    then their middles, are tried best bound first and a loop ends at the first bound below the k-th best."""
    N = tables.deals
    head_t, middle_t, tail_t = (tables.duns[d] for d in DUNS)
    fives = _subsets(cards, 5)
    heads = sorted((s, head_t.outcome(s), mask) for mask, s in _subsets(cards, 3))
    head_strengths = [h[0] for h in heads]
    head_best = _dominated([h[1] for h in heads])
    middles = []
    for mask, s in fives:
        i = bisect_left(head_strengths, s) - 1
        if i >= 0:  # else no head fits below: never a middle
            middles.append((s, mask, middle_t.outcome(s), i))
    middles.sort()
    own: list[Form] = []  # per middle, the bound of any tail's outcome with it: a form in the basis
    by_strength: dict[Strength, Form] = {}
    for m_s, _, m_out, i in middles:
        if m_s not in by_strength:
            by_strength[m_s] = in_basis(form.third(m_out, head_best[i]))
        own.append(by_strength[m_s])
    best = _highest_running(own)
    tails = _tails(fives, [m[0] for m in middles], tail_t, best, N)
    return _search(cards, k, form, tails, middles, own, best, heads, head_best)


TailEntry = tuple[int, Strength, int, Outcome, Outcome, int]  # bound, strength, mask, outcome, its basis, j


def _tails(
    fives: Sequence[tuple[int, Strength]],
    middle_strengths: Sequence[Strength],
    table: DunTable,
    best: Sequence[Form],
    N: int,
) -> list[TailEntry]:
    """Every tail with a middle not above it, best bound first; ``j`` the strongest such middle."""
    tails = []
    for mask, s in fives:
        j = bisect_right(middle_strengths, s) - 1
        if j >= 0:
            out = table.outcome(s)
            b = basis(out, N)
            tails.append((dot(best[j], b), s, mask, out, b, j))
    tails.sort(reverse=True)
    return tails


def _search(
    cards: Sequence[Card],
    k: int,
    form: PairForm,
    tails: Sequence[TailEntry],
    middles: Sequence[tuple[Strength, int, Outcome, int]],
    own: Sequence[Form],
    best: Sequence[Form],
    heads: Sequence[tuple[Strength, Outcome, int]],
    head_best: Sequence[Outcome],
) -> list[Ranked]:
    """``table_search``'s loops: tails, their middles (5 of the cards each leaves), then the heads left."""
    n = len(cards)
    full = (1 << n) - 1
    bits = [1 << p for p in range(n)]
    middle_at = {m[1]: jj for jj, m in enumerate(middles)}
    head_at = {h[2]: i for i, h in enumerate(heads)}
    heads_left: dict[int, list[tuple[Strength, Outcome, int]]] = {}  # cards left -> their heads, strongest first
    ranking = _Ranking(k)
    for bound, t_s, t_mask, t_out, t_b, j in tails:
        if (bound, t_s) < ranking.floor2:
            break
        while j >= 0 and middles[j][1] & t_mask:  # the strongest middle this tail leaves bounds the others
            j -= 1
        if j < 0 or (dot(best[j], t_b), t_s) < ranking.floor2:
            continue
        left = [bit for bit in bits if not bit & t_mask]
        order = sorted(
            [at for combo in combinations(left, 5) if (at := middle_at.get(sum(combo), -1)) <= j], reverse=True
        )
        fixed = form.fixing(t_out)
        with_middle: dict[Strength, Form] = {}  # the head's form, per middle strength: many middles share one
        for jj in order:
            m_s, m_mask, m_out, _ = middles[jj]
            if (dot(best[jj], t_b), t_s, m_s) < ranking.floor3:
                break  # running highest: every weaker middle is bounded by this
            if (dot(own[jj], t_b), t_s, m_s) < ranking.floor3:
                continue
            rest = full ^ t_mask ^ m_mask
            found = heads_left.get(rest)
            if found is None:
                found = heads_left[rest] = _heads_of(rest, bits, heads, head_at)
            c = with_middle.get(m_s)
            if c is None:
                c = with_middle[m_s] = applied(fixed, m_out)
            for h_s, h_out, h_mask in found:
                if h_s >= m_s:
                    continue  # 相公: the head must be below the middle
                if (dot(c, head_best[head_at[h_mask]]), t_s, m_s, h_s) < ranking.floor:
                    break  # no weaker head of these cards reaches the floor
                key = (dot(c, h_out), t_s, m_s, h_s)
                if key >= ranking.floor:
                    ranking.offer(key, (t_mask, m_mask, h_mask))
    return ranking.ranked()


def _heads_of(
    rest: int, bits: Sequence[int], heads: Sequence[tuple[Strength, Outcome, int]], head_at: dict[int, int]
) -> list[tuple[Strength, Outcome, int]]:
    """The heads of the cards ``rest`` holds, strongest first (one when 3 cards are left)."""
    if rest in head_at:
        return [heads[head_at[rest]]]
    held = [bit for bit in bits if bit & rest]
    return sorted((heads[head_at[a + b + c]] for a, b, c in combinations(held, 3)), reverse=True)


def _house_search(cards: Sequence[Card], k: int, tables: OpponentTables) -> list[Ranked]:
    """The ``k`` best classes of ``cards`` (sorted high to low) under the house scoring, best first: the
    house objective's own bounds (P(not losing) and P(the opponent not losing) as products)."""
    N = tables.deals
    N2 = N * N
    head_t, middle_t, tail_t = (tables.duns[d] for d in DUNS)
    n = len(cards)
    full = (1 << n) - 1
    fives = _subsets(cards, 5)

    # Heads by strength, with each term's best over the heads up to each one (prefix maxima).
    head_list = sorted((s, *head_t.terms(s), mask) for mask, s in _subsets(cards, 3))
    head_strengths = [h[0] for h in head_list]
    head_a = _prefix([h[1] for h in head_list], int.__gt__)
    head_w = _prefix([h[2] for h in head_list], int.__gt__)
    head_b = _prefix([h[3] for h in head_list], int.__gt__)
    head_at = {h[4]: i for i, h in enumerate(head_list)}

    # Middles by strength: (strength, mask, a, w, b, i) with i the last head strictly below, and the
    # optimistic P (not lose), Q (opponent not losing), R (bonus) of middle + best head, as prefix bests.
    middles = []
    for mask, s in fives:
        i = bisect_left(head_strengths, s) - 1
        if i >= 0:  # else no head fits below: never a middle
            middles.append((s, mask, *middle_t.terms(s), i))
    middles.sort()
    middle_strengths = [m[0] for m in middles]
    middle_at = {m[1]: jj for jj, m in enumerate(middles)}
    best_p = _prefix([a * head_a[i] for _, _, a, _, _, i in middles], int.__gt__)
    best_q = _prefix([(N - w) * (N - head_w[i]) for _, _, _, w, _, i in middles], int.__lt__)
    best_r = _prefix([b + head_b[i] for _, _, _, _, b, i in middles], int.__gt__)

    tails = []
    for mask, s in fives:
        j = bisect_right(middle_strengths, s) - 1
        if j >= 0:
            a, w, b = tail_t.terms(s)
            tails.append((a * best_p[j] - (N - w) * best_q[j] + N2 * (b + best_r[j]), s, mask, a, w, b, j))
    tails.sort(reverse=True)

    heap: list[tuple[Any, ...]] = []
    members: dict[tuple[Any, ...], tuple[int, int, int]] = {}
    floor: tuple[int, ...] = (-(10**30),)
    floor2 = floor3 = floor
    bits = [1 << p for p in range(n)]
    heads_left: dict[int, list[Any]] = {}  # cards left -> their heads, strongest first
    for bound, t_s, t_mask, t_a, t_w, t_b, j in tails:
        if (bound, t_s) < floor2:
            break
        t_lose = N - t_w
        # The strongest middle this tail leaves is an upper bound on every middle it leaves.
        while j >= 0 and middles[j][1] & t_mask:
            j -= 1
        if j < 0 or (t_a * best_p[j] - t_lose * best_q[j] + N2 * (t_b + best_r[j]), t_s) < floor2:
            continue
        # This tail's middles: 5 of the cards it leaves, strongest first.
        left = [bit for bit in bits if not bit & t_mask]
        order = sorted(
            [at for combo in combinations(left, 5) if (at := middle_at.get(sum(combo), -1)) <= j], reverse=True
        )
        for jj in order:
            m_s, m_mask, m_a, m_w, m_b, i = middles[jj]
            if (t_a * best_p[jj] - t_lose * best_q[jj] + N2 * (t_b + best_r[jj]), t_s, m_s) < floor3:
                break  # prefix bests: every weaker middle is bounded by this
            rest = full ^ t_mask ^ m_mask
            heads = heads_left.get(rest)
            if heads is None:
                if n == 13:
                    heads = [head_list[head_at[rest]]]
                else:
                    heads = [
                        head_list[head_at[a + b + c]]
                        for a, b, c in combinations([bit for bit in bits if bit & rest], 3)
                    ]
                    heads.sort(reverse=True)
                heads_left[rest] = heads
            ta_ma = t_a * m_a
            tw_mw = t_lose * (N - m_w)
            tb_mb = t_b + m_b
            for h_s, h_a, h_w, h_b, h_mask in heads:
                if h_s >= m_s:
                    continue  # 相公: the head must be below the middle
                h = head_at[h_mask]
                if (ta_ma * head_a[h] - tw_mw * (N - head_w[h]) + N2 * (tb_mb + head_b[h]), t_s, m_s, h_s) < floor:
                    break  # prefix bests again: no weaker head of these cards reaches the floor
                key = (ta_ma * h_a - tw_mw * (N - h_w) + N2 * (tb_mb + h_b), t_s, m_s, h_s)
                if key < floor:
                    continue
                member = (t_mask, m_mask, h_mask)
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
    return [(key, members[key]) for key in sorted(heap, reverse=True)]


def _suggestion(
    cards: Sequence[Card], masks: tuple[int, int, int], exact: int, tables: OpponentTables, rules: ThirteenRules
) -> Suggestion:
    t_mask, m_mask, h_mask = masks

    def pick(mask: int) -> tuple[Card, ...]:
        return tuple(c for p, c in enumerate(cards) if mask >> p & 1)

    used = t_mask | m_mask | h_mask
    rows = {Dun.HEAD: pick(h_mask), Dun.MIDDLE: pick(m_mask), Dun.TAIL: pick(t_mask)}
    duns = {d: evaluate_dun(d, rows[d], deck=rules.deck) for d in DUNS}
    N = tables.deals
    win, tie, bonus = {}, {}, {}
    shoot = shot = 1.0
    no_dun_lost = rules.sweep is Sweep.NO_DUN_LOST
    for d in DUNS:
        w, t, lost, own, theirs = tables.duns[d].outcome(duns[d].strength)
        win[d], tie[d], bonus[d] = w / N, t / N, (own - theirs) / N
        shoot *= (w + t if no_dun_lost else w) / N  # the player sweeps: no dun lost, or all won
        shot *= (t + lost if no_dun_lost else lost) / N
    discarded = tuple(c for p, c in enumerate(cards) if not used >> p & 1)
    return Suggestion(
        rows[Dun.HEAD],
        rows[Dun.MIDDLE],
        rows[Dun.TAIL],
        discarded,
        duns,
        exact / N**3,
        exact,
        win,
        tie,
        bonus,
        shoot,
        shot,
    )


def category_of(s: Strength) -> Category:
    return _CATEGORY_BY_RUNG[s[0]]
