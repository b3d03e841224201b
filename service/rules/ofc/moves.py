"""Open-Face Chinese Poker: every legal placement of one deal (``moves/legal``).

The round is the board's: a board holding the cards of the rounds before it (a deal schedule says how
many each round deals and places) is at the next round, and the deal must be that round's size. Every
rule set's schedule is data (``Schedule``): Pineapple deals 5 and places them all, then deals 3 four times,
placing 2 and discarding 1; classic Open-Face deals 5, then 1 card eight times, with no discard.

A move is which dealt cards are discarded and which row each other card goes to. Moves are distinct by the
board they make (rows are sets of cards): with distinct cards, two different moves always make different
boards, so the listing has one move per board. Canonical order: by the discarded cards
(in card order), then by the row of each placed card taken in card order (top < middle < bottom).

``tests/ofc_pineapple/test_moves_legal.py`` proves the listing equal to ``validate_move`` on every way of
using the dealt cards (each to a row or to the discard) over exhaustive small cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import combinations, product

from service.rules.cards import Card, find_duplicates
from service.rules.errors import InputProblem, InvalidInputError, Path, problem
from service.rules.ofc.board import BOARD_SIZE, BOTTOM, DOMAIN, MIDDLE, ROWS, TOP, Board
from service.rules.ofc.rules import CLASSIC as CLASSIC_RULES
from service.rules.ofc.rules import HOUSE, Deal, OfcRules, Row


@dataclass(frozen=True, slots=True)
class Schedule:
    """A rule set's deal: ``rounds[i]`` = (cards dealt, cards placed) in round i + 1; the rest is discarded."""

    rounds: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        assert sum(placed for _, placed in self.rounds) == BOARD_SIZE, "a schedule fills the 13 places"

    def round_at(self, on_board: int) -> int | None:
        """The round (1-based) whose deal a board of ``on_board`` cards receives; None if none does."""
        placed = 0
        for number, (_, places) in enumerate(self.rounds, start=1):
            if placed == on_board:
                return number
            placed += places
        return None


def schedule_of(rules: OfcRules) -> Schedule:
    """A rule set's deal schedule (rules.OfcRules.deals), built once per schedule: keyed by the deals
    alone, which only the declared rule sets make (a request's royalties do not change them)."""
    return _schedule(rules.deals)


@cache
def _schedule(deals: tuple[Deal, ...]) -> Schedule:
    return Schedule(tuple((deal.dealt, deal.placed) for deal in deals))


PINEAPPLE = schedule_of(HOUSE)
CLASSIC = schedule_of(CLASSIC_RULES)


class MovesProblem(StrEnum):
    """Impossible requests ``legal_moves`` refuses (HTTP 422)."""

    BOARD_COMPLETE = "board_complete"
    BOARD_BETWEEN_ROUNDS = "board_between_rounds"
    DEAL_SIZE = "deal_size"
    ROW_TOO_FULL = "row_too_full"


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move: the discarded cards, the placement by row and the board it makes."""

    discard: tuple[Card, ...]
    placement: dict[Row, tuple[Card, ...]]
    board: Board


@dataclass(frozen=True, slots=True)
class MoveList:
    round: int
    placed: int  # cards placed this round
    discarded: int  # cards discarded this round
    moves: tuple[Move, ...]


@cache
def _patterns(kept: int, room: tuple[int, int, int]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every way to send cards 0..kept-1 to the three rows within their room, as the indices each row
    gets, in the canonical order (the row of card 0 first, top < middle < bottom)."""
    found = []
    for rows in product(range(3), repeat=kept):
        if all(rows.count(n) <= room[n] for n in range(3)):
            found.append(tuple(tuple(i for i, r in enumerate(rows) if r == n) for n in range(3)))
    return tuple(found)


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.index))


def legal_moves(board: Board, dealt: Sequence[Card], rules: OfcRules = HOUSE) -> MoveList:
    """Every distinct legal move of ``dealt`` on ``board`` in the round the board is at (module docstring),
    under ``rules`` (the house rules by default)."""
    schedule = schedule_of(rules)
    board = Board(*(tuple(board.row(r)) for r in ROWS))  # rows as tuples, whatever the caller built
    dealt = tuple(dealt)
    round_ = _check(board, dealt, schedule)
    deal_size, places = schedule.rounds[round_ - 1]
    room = tuple(r.size - len(board.row(r)) for r in ROWS)
    top, middle, bottom = board.top, board.middle, board.bottom
    moves: list[Move] = []
    # With distinct cards, different moves always make different boards: each board is listed once without
    # a look-up (tests/ofc_pineapple/test_moves_legal.py checks it).
    for discard in combinations(_sorted(dealt), deal_size - places):
        kept = [c for c in _sorted(dealt) if c not in discard]
        for pattern in _patterns(len(kept), room):
            on_top, on_middle, on_bottom = (tuple(kept[i] for i in row) for row in pattern)
            placement = {TOP: on_top, MIDDLE: on_middle, BOTTOM: on_bottom}
            moves.append(Move(discard, placement, Board(top + on_top, middle + on_middle, bottom + on_bottom)))
    return MoveList(round_, places, deal_size - places, tuple(moves))


def board_problems(board: Board, others: tuple[Card, ...], where: str) -> list[InputProblem]:
    """A card twice on the board and among ``others`` (at ``/where/i``), a row holding more than it can."""
    located: list[tuple[Path, Card]] = [(("board", r.value, i), c) for r in ROWS for i, c in enumerate(board.row(r))]
    located += [((where, i), c) for i, c in enumerate(others)]
    problems: list[InputProblem] = list(find_duplicates(located))
    for r in ROWS:
        if len(board.row(r)) > r.size:
            problems.append(
                problem(
                    DOMAIN,
                    ("board", r.value),
                    MovesProblem.ROW_TOO_FULL,
                    row=r.value,
                    size=r.size,
                    actual=len(board.row(r)),
                )
            )
    return problems


def _check(board: Board, dealt: tuple[Card, ...], schedule: Schedule) -> int:
    problems = board_problems(board, dealt, "dealt")
    on_board = len(board.cards())
    round_ = schedule.round_at(on_board)
    if on_board >= BOARD_SIZE:
        problems.append(problem(DOMAIN, ("board",), MovesProblem.BOARD_COMPLETE))
    elif round_ is None:
        problems.append(problem(DOMAIN, ("board",), MovesProblem.BOARD_BETWEEN_ROUNDS, actual=on_board))
    elif len(dealt) != schedule.rounds[round_ - 1][0]:
        expected = schedule.rounds[round_ - 1][0]
        problems.append(
            problem(DOMAIN, ("dealt",), MovesProblem.DEAL_SIZE, round=round_, expected=expected, actual=len(dealt))
        )
    if problems:
        raise InvalidInputError(problems)
    assert round_ is not None
    return round_


__all__ = ["CLASSIC", "PINEAPPLE", "Move", "MoveList", "MovesProblem", "Schedule", "board_problems", "legal_moves"]
