"""Open-Face Chinese Poker: a partial board's outlook (``boards/outlook``).

A *completion* fills every empty place of the board with distinct cards not yet seen (not on the board, not
in ``seen``: the player's own discards, the other boards, cards dealt and not yet placed). Any completion
can happen: some deal brings exactly those cards and the player places them so. The exact questions:

* ``foul_certain``: every completion fouls (bottom >= middle >= top fails), whatever cards come;
* for each royalty level of each row (top: each pair 66-AA and each trips; middle and bottom: each category
  that earns a royalty), whether some completion that does not foul makes that row exactly that level;
* Fantasyland: for each number of cards the next hand may be played with (entry from a normal hand, or
  staying when ``fantasyland.active``), whether some completion that does not foul earns it.

Search. Each row's completions are listed alone (every set of cards for its empty places) with their hand
values; a question is then a search over one completion per row, rows without a card in common, ordered
top <= middle <= bottom: the asked row first, then the outer rows strongest bottom / weakest top first, and
the middle by binary search on strength within the range the two others leave, so that a witness is
usually found at once. A question answered by a witness is true; a question whose whole space was searched
without one is false. The search is bounded by ``limit`` (hands valued plus combinations examined, from
the request, never by time): when the limit runs out first, the questions not yet settled answer ``None``
and ``complete`` is false. Same request, same answer.

Monte Carlo (``seed`` given): ``samples`` times, the unseen cards are shuffled by a ``random.Random(seed)``
and dealt by the rule set's schedule from the board's round on; each deal is placed by the *simple policy*
below; the answer is the share of finished boards that foul, with its standard error sqrt(p(1-p)/n).

The simple policy, per deal: among the legal moves (``moves.legal_moves``, in their canonical order),
take the first that maximises (-(partial fouls), bottom, middle, -top), where a row's partial value is its
hand's strength once complete and, before that, the rung its repeated ranks make (high card, pair, two
pair, trips, full house, quads) followed by its ranks, most repeated and highest first; partial fouls count
the adjacent rows whose upper value exceeds the lower's. It keeps made hands low on the board; it is a
reference, not a strong player.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache, partial
from itertools import combinations, product
from math import comb, sqrt
from typing import Any, cast

from service.rules import poker
from service.rules.cards import DECK, Card, Suit
from service.rules.errors import InvalidInputError, problem
from service.rules.hand_value import HandValue
from service.rules.ofc.board import (
    BOARD_SIZE,
    BOTTOM,
    DOMAIN,
    MIDDLE,
    ROWS,
    TOP,
    Board,
    Fantasyland,
    FantasylandNext,
    RowValue,
    check_fantasyland,
    fantasyland_next,
    foul_reasons,
    royalty,
)
from service.rules.ofc.moves import PINEAPPLE, MovesProblem, Schedule, board_problems, schedule_of
from service.rules.ofc.rules import HOUSE, RULE_SETS_KEPT, OfcRules, Row

DEFAULT_LIMIT = 50_000
MAX_LIMIT = 200_000
DEFAULT_SAMPLES = 100
MAX_SAMPLES = 200


class OutlookProblem(StrEnum):
    """Impossible outlook requests (HTTP 422)."""

    NOT_ENOUGH_CARDS = "not_enough_cards"


@dataclass(frozen=True, slots=True)
class Level:
    """A royalty level of a row: its category, the rank for the top's pairs and trips, the royalty."""

    row: Row
    category: str
    rank: int | None
    royalty: int


@dataclass(frozen=True, slots=True)
class LevelOutlook:
    level: Level
    reachable: bool | None  # None: not settled within the limit


@dataclass(frozen=True, slots=True)
class FantasylandOutlook:
    cards: int  # the next hand's card count
    reachable: bool | None


@dataclass(frozen=True, slots=True)
class MonteCarlo:
    seed: int
    samples: int
    fouls: int
    foul_probability: float
    standard_error: float


@dataclass(frozen=True, slots=True)
class Outlook:
    empty: dict[Row, int]  # empty places per row
    unseen: int  # cards that may still come
    foul_certain: bool | None
    levels: tuple[LevelOutlook, ...]  # by row (top, middle, bottom), then by royalty
    fantasyland: tuple[FantasylandOutlook, ...]  # by card count
    complete: bool  # every exact answer settled
    examined: int  # hands valued plus combinations examined
    limit: int
    monte_carlo: MonteCarlo | None


@dataclass(frozen=True, slots=True)
class OutlookRules:
    """What the outlook needs of a rule set: its deal schedule, royalty function, Fantasyland judgement,
    the card counts Fantasyland may be entered with, the staying count (None: the count played now) and
    the check of a Fantasyland state."""

    schedule: Schedule
    royalty: Callable[[Row, HandValue], int]
    fantasyland_next: Callable[[Mapping[Row, RowValue], bool, Fantasyland], FantasylandNext]
    entry_counts: tuple[int, ...]
    stay_count: int | None
    check_fantasyland: Callable[[Fantasyland, tuple[str | int, ...]], None]  # (state, its path in the request)


def outlook_rules(rules: OfcRules) -> OutlookRules:
    """What the outlook needs of an OFC rule set (rules.OfcRules): a few bound functions, made per call
    (not cached: a cache keyed by a client's royalty table would keep each table's rule set)."""
    return OutlookRules(
        schedule_of(rules),
        partial(royalty, rules=rules),
        partial(fantasyland_next, rules=rules),
        tuple(sorted(set(rules.fantasyland_entry.values()))),
        rules.fantasyland_stay_cards,
        partial(check_fantasyland, rules=rules),
    )


HOUSE_RULES = outlook_rules(HOUSE)
"""The house rules (Ultimate Fantasyland): entry with 14-17 cards, staying with the same count."""


# --- royalty levels ------------------------------------------------------------------------------------


@lru_cache(maxsize=RULE_SETS_KEPT)
def _levels(rules: OfcRules) -> dict[Row, list[Level]]:
    """Every level of every row that earns a royalty under ``rules``: built once per rule set, for the few
    most recent (equal rule sets are one entry, so a table that clients keep sending stays)."""
    royalty_of = partial(royalty, rules=rules)
    found: dict[Row, dict[tuple[str, int | None], int]] = {r: {} for r in ROWS}
    for row, table in ((TOP, poker.TOP3), (MIDDLE, poker.PLAIN5), (BOTTOM, poker.PLAIN5)):
        rankings = list(table.values()) + ([] if row is TOP else list(poker.FLUSH5.values()))
        for r in rankings:
            hand = HandValue(r.code, r.label, r.strength, ())
            points = royalty_of(row, hand)
            if points > 0:
                found[row][_level_key(row, hand)] = points
    return {
        row: sorted((Level(row, c, k, p) for (c, k), p in found[row].items()), key=lambda x: (x.royalty, x.category))
        for row in ROWS
    }


def _level_key(row: Row, hand: HandValue) -> tuple[str, int | None]:
    return (hand.category, hand.strength[1] if row is TOP else None)


# --- the exact search ----------------------------------------------------------------------------------


class _Budget:
    def __init__(self, limit: int):
        self.left = limit
        self.used = 0

    def take(self, n: int = 1) -> bool:
        self.left -= n
        self.used += n
        return self.left >= 0


@dataclass(slots=True)
class _RowOptions:
    """A row's completions alone, sorted by strength: (strength, card mask, hand)."""

    strengths: list[tuple[int, ...]]
    masks: list[int]
    hands: list[HandValue]


def _row_options(fixed: tuple[Card, ...], size: int, pool: Sequence[Card], budget: _Budget) -> _RowOptions | None:
    empty = size - len(fixed)
    count = comb(len(pool), empty)
    if count > budget.left:
        return None
    budget.take(count)
    value = poker.value_if_distinct
    entries = []
    for extra in combinations(pool, empty):
        hand = value(fixed + extra)
        assert hand is not None  # the pool holds no card of the row: distinct by construction
        mask = 0
        for c in extra:
            mask |= 1 << c.index
        entries.append((hand.strength, mask, hand))
    entries.sort(key=lambda e: e[0])
    return _RowOptions([e[0] for e in entries], [e[1] for e in entries], [e[2] for e in entries])


def _indices_by_key(row: Row, options: _RowOptions) -> dict[tuple[str, int | None], list[int]]:
    """The row's completions by key (category, and the top's rank), each list in strength order."""
    found: dict[tuple[str, int | None], list[int]] = {}
    for i, hand in enumerate(options.hands):
        found.setdefault(_level_key(row, hand), []).append(i)
    return found


def _fantasyland_search(
    options: dict[Row, _RowOptions],
    by_key: dict[Row, dict[tuple[str, int | None], list[int]]],
    answers: dict[int, bool | None],
    current: Fantasyland,
    royalty: Callable[[Row, HandValue], int],
    fantasyland_next: Callable[..., Any],
    budget: _Budget,
    record: Callable[[HandValue, HandValue, HandValue], None],
) -> None:
    """Which next-hand card counts some completion that does not foul earns.

    A rule set's Fantasyland conditions are on each row's category (and the top's rank), the keys the
    rows' completions are grouped by: each combination of keys is judged once on representative hands,
    then a witness is searched among the completions of the qualifying combinations only."""
    judged: dict[int, list[tuple[list[int], list[int], list[int]]]] = {n: [] for n in answers}
    for tops in by_key[TOP].values():
        for middles in by_key[MIDDLE].values():
            for bottoms in by_key[BOTTOM].values():
                t, m, b = (
                    options[TOP].hands[tops[-1]],
                    options[MIDDLE].hands[middles[-1]],
                    options[BOTTOM].hands[bottoms[-1]],
                )
                rows = {
                    TOP: RowValue(t, royalty(TOP, t)),
                    MIDDLE: RowValue(m, royalty(MIDDLE, m)),
                    BOTTOM: RowValue(b, royalty(BOTTOM, b)),
                }
                nxt = fantasyland_next(rows, False, current)
                if nxt.qualifies and nxt.cards in judged:
                    judged[nxt.cards].append((tops, middles, bottoms))
    for cards, combos in judged.items():
        if answers[cards] is not None:
            continue
        answer: bool | None = False
        for tops, middles, bottoms in combos:
            found = _search(options, TOP, {TOP: tops, MIDDLE: middles, BOTTOM: bottoms}, budget)
            if found is None:
                answer = None
                break
            if found:
                assert isinstance(found, tuple)  # a witness (True is never returned)
                record(*found)
                answer = True
                break
        answers[cards] = answer


def _ordered_apart(options: dict[Row, _RowOptions]) -> bool:
    """Rows listed so far that cannot be in order in any completion (enough to prove a certain foul)."""
    pairs = ((TOP, MIDDLE), (MIDDLE, BOTTOM), (TOP, BOTTOM))
    return any(
        upper in options and lower in options and options[upper].strengths[0] > options[lower].strengths[-1]
        for upper, lower in pairs
    )


def _subset(options: _RowOptions, allowed: Sequence[int] | None) -> _RowOptions:
    if allowed is None:
        return options
    return _RowOptions(
        [options.strengths[i] for i in allowed],
        [options.masks[i] for i in allowed],
        [options.hands[i] for i in allowed],
    )


def _search(
    options: dict[Row, _RowOptions], first: Row, allowed: dict[Row, Sequence[int] | None], budget: _Budget
) -> tuple[HandValue, HandValue, HandValue] | None | bool:
    """A completion (top, middle, bottom) that does not foul, each row one of its ``allowed`` completions
    (indices into its options, in strength order; None: any): the witness, False when none exists, None
    when the budget ran out. ``first`` is the row tried first (the asked one)."""
    top, middle, bottom = (_subset(options[r], allowed.get(r)) for r in ROWS)
    if first is MIDDLE:
        for i in range(len(middle.hands)):
            if not budget.take():
                return None
            m_mask, m_strength = middle.masks[i], middle.strengths[i]
            for t in range(len(top.hands)):  # weakest top first; past the middle's strength, no top fits
                if top.strengths[t] > m_strength:
                    break
                if not budget.take():
                    return None
                if top.masks[t] & m_mask:
                    continue
                used = m_mask | top.masks[t]
                for b in range(len(bottom.hands) - 1, -1, -1):  # strongest bottom first
                    if bottom.strengths[b] < m_strength:
                        break
                    if not budget.take():
                        return None
                    if not bottom.masks[b] & used:
                        return top.hands[t], middle.hands[i], bottom.hands[b]
        return False
    # an outer row first (top weakest first, or bottom strongest first), the other outer row from its far
    # end, then the middle by binary search within the range the two leave
    one, other = (top, bottom) if first is TOP else (bottom, top)
    for i in range(len(one.hands)) if first is TOP else range(len(one.hands) - 1, -1, -1):
        if not budget.take():
            return None
        i_mask, i_strength = one.masks[i], one.strengths[i]
        for j in range(len(other.hands) - 1, -1, -1) if first is TOP else range(len(other.hands)):
            j_strength = other.strengths[j]
            if (j_strength < i_strength) if first is TOP else (j_strength > i_strength):
                break
            if not budget.take():
                return None
            if other.masks[j] & i_mask:
                continue
            used = i_mask | other.masks[j]
            low, high = (i_strength, j_strength) if first is TOP else (j_strength, i_strength)
            for k in range(bisect.bisect_left(middle.strengths, low), bisect.bisect_right(middle.strengths, high)):
                if not budget.take():
                    return None
                if not middle.masks[k] & used:
                    t_hand, b_hand = (one.hands[i], other.hands[j]) if first is TOP else (other.hands[j], one.hands[i])
                    return t_hand, middle.hands[k], b_hand
    return False


# --- the outlook --------------------------------------------------------------------------------------


def outlook(
    board: Board,
    seen: Sequence[Card] = (),
    fantasyland: Fantasyland = Fantasyland(),
    *,
    limit: int = DEFAULT_LIMIT,
    seed: int | None = None,
    samples: int = DEFAULT_SAMPLES,
    rules: OfcRules = HOUSE,
) -> Outlook:
    """The board's outlook (module docstring) under ``rules`` (the house rules by default)."""
    o_rules = outlook_rules(rules)
    schedule, royalty, fantasyland_next = o_rules.schedule, o_rules.royalty, o_rules.fantasyland_next
    board = Board(*(tuple(board.row(r)) for r in ROWS))  # rows as tuples, whatever the caller built
    seen = tuple(seen)
    pool = _check(board, seen, fantasyland, o_rules, seed is not None)
    budget = _Budget(limit)
    levels = _levels(rules)
    empty = {r: r.size - len(board.row(r)) for r in ROWS}
    fl_counts = _fantasyland_counts(fantasyland, o_rules)

    level_answers: dict[tuple[Row, str, int | None], bool | None] = {
        (level.row, level.category, level.rank): None for r in ROWS for level in levels[r]
    }
    fl_answers: dict[int, bool | None] = dict.fromkeys(fl_counts)
    nonfoul: bool | None = None

    def record(t: HandValue, m: HandValue, b: HandValue) -> None:
        """A witness that does not foul: mark every question it answers."""
        nonlocal nonfoul
        nonfoul = True
        for row, hand in ((TOP, t), (MIDDLE, m), (BOTTOM, b)):
            key = (row, *_level_key(row, hand))
            if level_answers.get(key, False) is None:  # a level key earns its royalty by definition
                level_answers[key] = True
        if None not in fl_answers.values():
            return
        rows = {
            TOP: RowValue(t, royalty(TOP, t)),
            MIDDLE: RowValue(m, royalty(MIDDLE, m)),
            BOTTOM: RowValue(b, royalty(BOTTOM, b)),
        }
        nxt = fantasyland_next(rows, False, fantasyland)
        if nxt.qualifies and nxt.cards in fl_answers:
            fl_answers[nxt.cards] = True

    options: dict[Row, _RowOptions] = {}
    for r in sorted(ROWS, key=lambda r: comb(len(pool), empty[r])):  # the cheapest rows first
        row_options = _row_options(board.row(r), r.size, pool, budget)
        if row_options is None:
            break
        options[r] = row_options
        if _ordered_apart(options):  # the weakest upper row beats the strongest lower one: every completion fouls
            nonfoul = False
            level_answers = dict.fromkeys(level_answers, False)
            fl_answers = dict.fromkeys(fl_answers, False)
            break
    for r, row_options in options.items():  # a level no completion of its row makes, even alone, is out of reach
        made = {_level_key(r, hand) for hand in row_options.hands}
        for key in level_answers:
            if key[0] == r and key[1:] not in made:
                level_answers[key] = False
    if nonfoul is None and len(options) == 3:
        by_key = {r: _indices_by_key(r, options[r]) for r in ROWS}
        found = _search(options, TOP, {}, budget)
        if found is False:
            nonfoul = False
            level_answers = dict.fromkeys(level_answers, False)  # no completion avoids the foul
            fl_answers = dict.fromkeys(fl_answers, False)
        elif isinstance(found, tuple):
            record(*found)
        for key in [k for k, v in level_answers.items() if v is None]:
            if level_answers[key] is not None:
                continue  # answered by an earlier witness
            row = key[0]
            found = _search(options, row, {row: by_key[row].get(key[1:], [])}, budget)
            if found is False:
                level_answers[key] = False
            elif isinstance(found, tuple):
                record(*found)
        _fantasyland_search(options, by_key, fl_answers, fantasyland, royalty, fantasyland_next, budget, record)
    elif nonfoul is None:  # a row too large to list within the limit: witnesses from seeded random completions only
        _sample_witnesses(board, pool, budget, record)
    complete = nonfoul is not None and None not in level_answers.values() and None not in fl_answers.values()
    level_list = tuple(
        LevelOutlook(level, level_answers[(level.row, level.category, level.rank)]) for r in ROWS for level in levels[r]
    )
    fl_list = tuple(FantasylandOutlook(n, fl_answers[n]) for n in fl_counts)
    carlo = None if seed is None else monte_carlo(board, pool, seed, samples, schedule)
    return Outlook(
        empty,
        len(pool),
        None if nonfoul is None else not nonfoul,
        level_list,
        fl_list,
        complete,
        budget.used if budget.left >= 0 else limit,
        limit,
        carlo,
    )


WITNESS_SEED = 14  # the sampler's fixed seed: part of the definition, so the answer is a function of the request
WITNESS_COST = 10  # budget units per sampled completion (the draw, three hands valued, the witness recorded)


def _sample_witnesses(
    board: Board, pool: Sequence[Card], budget: _Budget, record: Callable[[HandValue, HandValue, HandValue], None]
) -> None:
    """Random completions (fixed seed) until the budget runs out; each one that does not foul is a witness.
    They can only prove "reachable": the questions they do not answer stay unsettled (None).

    Each row's places are, in two draws of three, filled first from a narrowed pool, so that rare hands
    come up: the cards of one suit (flushes, straight flushes) or of two ranks (trips, full houses, quads);
    the places left are then filled from the rest, uniformly. Every draw is a real completion."""
    rng = random.Random(WITNESS_SEED)
    deck = list(pool)
    sizes = [r.size - len(board.row(r)) for r in ROWS]
    open_rows = [n for n in range(3) if sizes[n]]
    # suits in their declared order: a set of them iterates by string hash, which differs between processes
    by_suit = [suited for s in Suit if (suited := [c for c in deck if c.suit is s])]
    by_rank: dict[int, list[Card]] = {}
    for c in deck:
        by_rank.setdefault(c.rank, []).append(c)
    ranks = list(by_rank)
    value = poker.value_if_distinct
    while budget.take(WITNESS_COST):
        rows: list[list[Card]] = [[], [], []]
        taken: set[Card] = set()
        for n in open_rows:  # each row narrowed in two draws of three, uniform in the third
            kind = rng.randrange(3)
            if kind == 0:
                continue
            if kind == 1:
                narrowed = [c for c in rng.choice(by_suit) if c not in taken]
            else:
                narrowed = [c for r in rng.sample(ranks, min(2, len(ranks))) for c in by_rank[r] if c not in taken]
            rows[n] = rng.sample(narrowed, min(sizes[n], len(narrowed)))
            taken.update(rows[n])
        rest = rng.sample([c for c in deck if c not in taken], sum(sizes) - len(taken))
        for n in range(3):
            need = sizes[n] - len(rows[n])
            rows[n] += rest[:need]
            rest = rest[need:]
        top = value(board.top + tuple(rows[0]))
        middle = value(board.middle + tuple(rows[1]))
        bottom = value(board.bottom + tuple(rows[2]))
        assert top is not None and middle is not None and bottom is not None  # sampled without repeats
        if top.strength <= middle.strength <= bottom.strength:
            record(top, middle, bottom)


def _fantasyland_counts(current: Fantasyland, rules: OutlookRules) -> tuple[int, ...]:
    """The card counts the next hand may be played with: staying (the rule set's count, or the one played
    now), or entering (each count of the entry table)."""
    if current.active:
        count = rules.stay_count or current.cards
        return (count,) if count is not None else ()
    return rules.entry_counts


def _check(
    board: Board, seen: tuple[Card, ...], fantasyland: Fantasyland, rules: OutlookRules, simulate: bool
) -> list[Card]:
    schedule = rules.schedule
    problems = board_problems(board, seen, "seen")
    on_board = len(board.cards())
    needed = BOARD_SIZE - on_board
    if simulate and on_board < BOARD_SIZE:  # the simulation deals the rounds from the board's on
        round_ = schedule.round_at(on_board)
        if round_ is None:
            problems.append(problem(DOMAIN, ("board",), MovesProblem.BOARD_BETWEEN_ROUNDS, actual=on_board))
        else:
            needed = sum(dealt for dealt, _ in schedule.rounds[round_ - 1 :])
    if problems:
        raise InvalidInputError(problems)
    rules.check_fantasyland(fantasyland, ("fantasyland",))
    taken = set(board.cards()) | set(seen)
    pool: list[Card] = [c for c in DECK if c not in taken]
    if len(pool) < needed:
        raise InvalidInputError(
            problem(DOMAIN, ("seen",), OutlookProblem.NOT_ENOUGH_CARDS, needed=needed, unseen=len(pool))
        )
    return pool


# --- Monte Carlo under the simple policy ---------------------------------------------------------------


_PATTERN_RUNG = {(): 1, (2,): 2, (2, 2): 3, (3,): 4, (3, 2): 7, (4,): 8}


def _partial(cards: tuple[Card, ...], size: int) -> tuple[int, ...]:
    """A row's value for the policy: its hand's strength when complete; before that, the rung its repeated
    ranks make (pair, two pair, trips, full house, quads, else high card) then its ranks, most repeated
    and highest first. Comparable with each other and across rows, like strengths."""
    if len(cards) == size:
        return cast(HandValue, poker.value_if_distinct(cards)).strength
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    groups = sorted(((n, rank) for rank, n in counts.items()), reverse=True)
    pattern = tuple(n for n, _ in groups if n > 1)
    return (_PATTERN_RUNG.get(pattern, 1), *(rank for _, rank in groups))


def policy_key(board: Board) -> tuple[Any, ...]:
    """The simple policy's preference for a board after a move (larger is better; module docstring)."""
    top, middle, bottom = _partial(board.top, 3), _partial(board.middle, 5), _partial(board.bottom, 5)
    fouls = (top > middle) + (middle > bottom)
    return (-fouls, bottom, middle, tuple(-x for x in top))


def place_by_policy(board: Board, dealt: Sequence[Card], schedule: Schedule = PINEAPPLE) -> Board:
    """The board after the simple policy places ``dealt``: the first of ``legal_moves``' moves (in their
    canonical order) with the largest ``policy_key``. The moves are walked here in that same order without
    building each board, and each row's partial value is computed once per set of added cards."""
    rows = [tuple(board.row(r)) for r in ROWS]
    room = [r.size - len(rows[n]) for n, r in enumerate(ROWS)]
    round_ = schedule.round_at(len(board.cards()))
    assert round_ is not None
    deal_size, places = schedule.rounds[round_ - 1]
    assert len(dealt) == deal_size
    ordered = sorted(dealt, key=lambda c: c.index)
    partial: dict[tuple[int, tuple[Card, ...]], tuple[Any, ...]] = {}

    def value(n: int, added: tuple[Card, ...]) -> tuple[Any, ...]:
        key = (n, added)
        if key not in partial:
            partial[key] = _partial(rows[n] + added, ROWS[n].size)
        return partial[key]

    best, best_key = None, None
    for discard in combinations(ordered, deal_size - places):
        kept = [c for c in ordered if c not in discard]
        for assign in product(range(3), repeat=len(kept)):
            parts = tuple(tuple(c for c, a in zip(kept, assign) if a == n) for n in range(3))
            if any(len(parts[n]) > room[n] for n in range(3)):
                continue
            top, middle, bottom = value(0, parts[0]), value(1, parts[1]), value(2, parts[2])
            key = (-((top > middle) + (middle > bottom)), bottom, middle, tuple(-x for x in top))
            if best_key is None or key > best_key:
                best, best_key = parts, key
    assert best is not None
    return Board(*(rows[n] + best[n] for n in range(3)))


def monte_carlo(
    board: Board, pool: Sequence[Card], seed: int, samples: int, schedule: Schedule = PINEAPPLE
) -> MonteCarlo:
    rng = random.Random(seed)
    deck = list(pool)
    fouls = 0
    for _ in range(samples):
        rng.shuffle(deck)
        current, position = board, 0
        while len(current.cards()) < BOARD_SIZE:
            round_ = schedule.round_at(len(current.cards()))
            assert round_ is not None
            size = schedule.rounds[round_ - 1][0]
            current = place_by_policy(current, deck[position : position + size], schedule)
            position += size
        top, middle, bottom = (cast(HandValue, poker.value_if_distinct(current.row(r))) for r in ROWS)  # one deck
        fouls += bool(foul_reasons(top, middle, bottom))
    p = fouls / samples if samples else 0.0
    return MonteCarlo(seed, samples, fouls, p, sqrt(p * (1 - p) / samples) if samples else 0.0)


__all__ = [
    "HOUSE_RULES",
    "OutlookRules",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "MAX_SAMPLES",
    "FantasylandOutlook",
    "Level",
    "LevelOutlook",
    "MonteCarlo",
    "Outlook",
    "OutlookProblem",
    "monte_carlo",
    "outlook",
    "place_by_policy",
    "policy_key",
]
