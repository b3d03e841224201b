"""Open-Face Chinese Poker: the showdown of a hand and the replay of a whole hand record (``hands/score``,
``hands/validate``).

The showdown settles every pair of players by the rule set's scoring (in every OFC rule set served: +1 a
row won, +3 more for winning all three, plus the royalty difference; a fouler loses every row and earns no
royalty; two foulers score 0 between them), so the totals sum to 0. The replay walks a record in turn
order, stops at the first illegal action, and scores a complete legal record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, NamedTuple

from service.rules.cards import Card, find_duplicates
from service.rules.errors import InvalidInputError, Violation, problem, violation
from service.rules.ofc.board import (
    BOTTOM,
    DOMAIN,
    FANTASYLAND_ROUND,
    MIDDLE,
    ROWS,
    TOP,
    Board,
    BoardValue,
    Fantasyland,
    MoveViolation,
    ProblemCode,
    Round,
    _board_value,
    _distinct,
    _plainly_legal,
    _row_values,
    _row_winner,
    check_fantasyland,
    evaluate_board,
    validate_move,
)
from service.rules.ofc.rules import HOUSE, Deal, OfcRules, Row
from service.rules.poker import rank_board, ranking_if_distinct, value_if_distinct

# --- scoring a hand ----------------------------------------------------------------------------------


class Seat(NamedTuple):
    """One player's complete board and Fantasyland state, as scored at showdown (a NamedTuple, as ``Board``)."""

    board: Board
    fantasyland: Fantasyland = Fantasyland()


class Matchup(NamedTuple):
    """The pairwise settlement between seats ``a`` < ``b``, from ``a``'s side."""

    a: int
    b: int
    rows: dict[Row, str]  # "a" / "b" / "tie"; a fouler loses every row to a non-fouler
    lines: int  # rows won minus rows lost by a
    scoop: str | None  # "a" or "b" when one side won all three rows (+3), else None
    royalty_diff: int  # a's royalties minus b's (a fouler's count as 0)
    points_a: int


class PlayerScore(NamedTuple):
    seat: int
    total: int
    value: BoardValue


class HandScore(NamedTuple):
    players: tuple[PlayerScore, ...]
    matchups: tuple[Matchup, ...]
    button_moves: bool


def settle(a: int, b: int, value_a: BoardValue, value_b: BoardValue, rules: OfcRules = HOUSE) -> Matchup:
    """1-6 scoring between two players: +1 per row won, +3 for all three, plus the royalty difference
    (the rule set's ``row_point`` and ``scoop_bonus``; every OFC rule set served has 1 and 3)."""
    rows_a, fouled_a, _, royalties_a, _ = value_a
    rows_b, fouled_b, _, royalties_b, _ = value_b
    if fouled_a and fouled_b:  # two foulers score 0 between them, royalties ignored
        return Matchup(a, b, {TOP: "tie", MIDDLE: "tie", BOTTOM: "tie"}, 0, None, 0, 0)
    if fouled_a or fouled_b:  # the non-fouler wins every row: +6, plus its royalties
        side = "b" if fouled_a else "a"
        rows = {TOP: side, MIDDLE: side, BOTTOM: side}
        lines = 3 if side == "a" else -3
    else:
        top = _row_winner(rows_a[TOP].hand.strength, rows_b[TOP].hand.strength)
        middle = _row_winner(rows_a[MIDDLE].hand.strength, rows_b[MIDDLE].hand.strength)
        bottom = _row_winner(rows_a[BOTTOM].hand.strength, rows_b[BOTTOM].hand.strength)
        rows = {TOP: top, MIDDLE: middle, BOTTOM: bottom}
        lines = _LINE[top] + _LINE[middle] + _LINE[bottom]
    scoop = "a" if lines == 3 else "b" if lines == -3 else None
    bonus = rules.scoop_bonus if scoop == "a" else -rules.scoop_bonus if scoop == "b" else 0
    diff = royalties_a - royalties_b
    return Matchup(a, b, rows, lines, scoop, diff, lines * rules.row_point + bonus + diff)


_LINE = {"a": 1, "b": -1, "tie": 0}  # a row's winner as a line won (+1) or lost (-1) by a


def _check_players(count: int, rules: OfcRules) -> None:
    low, high = rules.players
    if not low <= count <= high:
        case = {"case": "exact"} if low == high else {"case": "range", "min": low}
        raise InvalidInputError(
            problem(DOMAIN, ("players",), ProblemCode.WRONG_PLAYER_COUNT, players=high, actual=count, **case)
        )


def score_hand(seats: Sequence[Seat], rules: OfcRules = HOUSE, cards: bool = True) -> HandScore:
    """The showdown of a hand (2-4 players as the rule set allows): every pair settled, totals summing to 0.

    ``cards=False`` values each row as the table's ``Ranking`` (its category and strength, the same score),
    not as a full ``HandValue``: a quarter of the cost, for an answer that names no row's cards."""
    _check_players(len(seats), rules)
    if not cards:
        ranked = _ranked_showdown(seats, rules)
        if ranked is not None:
            return ranked
    table: set[Card] = set()
    count = 0
    for seat in seats:
        top, middle, bottom = seat.board.top, seat.board.middle, seat.board.bottom
        table.update(top, middle, bottom)
        count += len(top) + len(middle) + len(bottom)
    if len(table) != count:
        located = [
            (("players", s, "board", r.value, i), c)
            for s, seat in enumerate(seats)
            for r in ROWS
            for i, c in enumerate(seat.board.row(r))
        ]
        raise InvalidInputError(find_duplicates(located))
    values = []
    value_of = value_if_distinct if cards else ranking_if_distinct
    for s, seat in enumerate(seats):
        board, fantasyland = seat.board, seat.fantasyland
        if len(board.top) == 3 and len(board.middle) == 5 and len(board.bottom) == 5:
            # no card is on the table twice (above) and the rows are full: check_board would pass
            check_fantasyland(fantasyland, ("players", s, "fantasyland"), rules)
            values.append(_board_value(*_row_values(board, value_of), fantasyland, rules))
        else:  # evaluate_board names the row of the wrong size, as before
            values.append(evaluate_board(board, seat.fantasyland, ("players", s), rules))
    return _showdown(values, [seat.fantasyland for seat in seats], rules)


def _ranked_showdown(seats: Sequence[Seat], rules: OfcRules) -> HandScore | None:
    """``score_hand(cards=False)`` when every row is full and no card repeats on the table, checked by the
    ranking itself (``poker.rank_board``: each board's cards as bits, added up); None otherwise, and
    ``score_hand``'s own checks name what is wrong."""
    ranked = []
    held = 0
    for (top, middle, bottom), _fantasyland in seats:
        if len(top) != 3 or len(middle) != 5 or len(bottom) != 5:
            return None
        rows = rank_board(top, middle, bottom)
        if rows is None:
            return None
        held += rows[3]
        ranked.append(rows)
    if held.bit_count() != 13 * len(seats):
        return None
    values = []
    for s, ((top_value, middle_value, bottom_value, _), (_board, fantasyland)) in enumerate(zip(ranked, seats)):
        check_fantasyland(fantasyland, ("players", s, "fantasyland"), rules)
        values.append(_board_value(top_value, middle_value, bottom_value, fantasyland, rules))
    return _showdown(values, [fantasyland for _board, fantasyland in seats], rules)


def _showdown(values: Sequence[BoardValue], fantasyland: Sequence[Fantasyland], rules: OfcRules) -> HandScore:
    """``score_hand`` of boards already valued: every pair settled, the totals, whether the button moves."""
    players_count = len(values)
    totals = [0] * players_count
    matchups = []
    for a, b in _PAIRS[players_count]:
        m = settle(a, b, values[a], values[b], rules)
        matchups.append(m)
        totals[a] += m.points_a
        totals[b] -= m.points_a
    players = tuple([PlayerScore(s, totals[s], values[s]) for s in range(players_count)])
    # The button stays put in any hand in which someone played Fantasyland.
    button_moves = True
    for fl in fantasyland:
        if fl.active:
            button_moves = False
    return HandScore(players, tuple(matchups), button_moves)


_PAIRS = [tuple(combinations(range(count), 2)) for count in range(9)]  # every pair of seats, by player count


# --- replaying a hand record -------------------------------------------------------------------------


class Action(NamedTuple):
    """One set of cards: what the seat was dealt, where it placed them, what it discarded (a NamedTuple, as
    ``Board``: a hand record's request builds one per action)."""

    seat: int
    dealt: tuple[Card, ...]
    placement: dict[Row, tuple[Card, ...]]
    discard: tuple[Card, ...]


class Discard(NamedTuple):
    """A card discarded, by whom and at which action (a NamedTuple, as ``Action``)."""

    seat: int
    card: Card
    action: int


@dataclass(frozen=True, slots=True)
class HandRecordResult:
    legal: bool
    violations: tuple[Violation, ...]
    boards: tuple[Board, ...]
    score: HandScore | None = None
    discards: tuple[Discard, ...] = field(default=())


def turn_order(dealer: int, fantasyland: Sequence[Fantasyland], rules: OfcRules = HOUSE) -> list[tuple[int, Round]]:
    """Who acts when: Fantasyland players set first (from the dealer's left), then the rule set's rounds
    of the others, each round from the dealer's left, clockwise, dealer last."""
    return _turn_order(dealer, fantasyland, rules.rounds)


def _turn_order(dealer: int, fantasyland: Sequence[Fantasyland], rounds: int) -> list[tuple[int, Round]]:
    count = len(fantasyland)
    seats = [(dealer + k) % count for k in range(1, count + 1)]
    order: list[tuple[int, Round]] = [(s, FANTASYLAND_ROUND) for s in seats if fantasyland[s].active]
    order += [(s, r) for r in range(1, rounds + 1) for s in seats if not fantasyland[s].active]
    return order


def validate_hand(
    dealer: int,
    fantasyland: Sequence[Fantasyland],
    actions: Sequence[Action],
    rules: OfcRules = HOUSE,
    cards: bool = True,
) -> HandRecordResult:
    """Replay a whole hand record. The first illegal action stops the replay and is reported with its
    index; a legal, complete record is scored (its rows valued as ``score_hand``'s ``cards`` says) and its
    discards revealed in discard order."""
    _check_players(len(fantasyland), rules)
    if not 0 <= dealer < len(fantasyland):
        case = {"case": "three"} if len(fantasyland) == 3 else {"case": "seats", "last": len(fantasyland) - 1}
        raise InvalidInputError(problem(DOMAIN, ("dealer",), ProblemCode.BAD_SEAT, **case))
    for s, fl in enumerate(fantasyland):
        check_fantasyland(fl, ("players", s, "fantasyland"), rules)
    order, plan = _turn_plan(dealer, tuple(fantasyland), rules.deals)
    # The replay keeps each seat's rows as growing lists and checks of each action only what the action
    # itself could break: the right seat, the deal's size, its cards distinct and never dealt before, each
    # placed or discarded exactly once, the counts the round asks for, no row overflowing. What earlier
    # actions established holds by construction (each board holds what its seat's earlier rounds placed, its
    # cards distinct and all dealt before), so nothing is validated twice (_plainly_legal). An action failing
    # this quick check gets the full one (_action_problems), which names every violation (or finds none: the
    # quick check may only be stricter).
    rows: list[tuple[list[Card], list[Card], list[Card]]] = [([], [], []) for _ in fantasyland]
    dealt_so_far: set[Card] = set()
    discarded: list[tuple[int, Sequence[Card], int]] = []  # (seat, cards, action index)
    planned = len(plan)
    for index, action in enumerate(actions):
        acting, dealt, placement, discard = action
        placed = top, middle, bottom = placement.get(TOP, ()), placement.get(MIDDLE, ()), placement.get(BOTTOM, ())
        plain = False
        if index < planned:
            seat, dealt_count, placed_count = plan[index]
            plain = acting == seat and _plainly_legal(
                rows[seat], dealt, placed, discard, dealt_count, placed_count, dealt_so_far
            )
        if not plain:
            boards = _boards(rows)
            problems = _action_problems(index, action, order, fantasyland, boards, dealt_so_far, rules)
            if problems:
                return HandRecordResult(False, tuple(problems), tuple(boards))
        on_top, on_middle, on_bottom = rows[acting]
        dealt_so_far.update(dealt)
        on_top += top
        on_middle += middle
        on_bottom += bottom
        if discard:
            discarded.append((acting, discard, index))
    boards = _boards(rows)
    if len(actions) < planned:
        seat, round_ = order[len(actions)]
        missing = violation(
            DOMAIN, MoveViolation.RECORD_INCOMPLETE, index=len(actions), seat=seat, **_round_params(round_)
        )
        return HandRecordResult(False, (missing,), tuple(boards))
    # Every action legal and none missing: each board is complete (all its cards placed, no row overflowing)
    # and no card is on two boards (each was dealt once), so the showdown skips score_hand's checks.
    value_of = value_if_distinct if cards else ranking_if_distinct
    values = [_board_value(*_row_values(board, value_of), fl, rules) for board, fl in zip(boards, fantasyland)]
    score = _showdown(values, fantasyland, rules)
    discards = tuple([Discard(seat, c, index) for seat, cards, index in discarded for c in cards])
    return HandRecordResult(True, (), tuple(boards), score, discards)


@lru_cache(maxsize=256)
def _turn_plan(
    dealer: int, fantasyland: tuple[Fantasyland, ...], deals: tuple[Deal, ...]
) -> tuple[tuple[tuple[int, Round], ...], tuple[tuple[int, int, int], ...]]:
    """The turn order and, for each of its actions, (seat, cards dealt, cards placed): the same few tables
    serve every record of a table's seating, so they are built once. Keyed by the rule set's deals, not the
    rule set, so that no request's royalty table is kept here."""
    order = tuple(_turn_order(dealer, fantasyland, len(deals)))
    board_size = sum(deal.placed for deal in deals)
    plan = []
    for seat, round_ in order:
        if round_ == FANTASYLAND_ROUND:  # the count the player entered with (checked among the rule set's)
            plan.append((seat, fantasyland[seat].cards or 0, board_size))
        else:
            deal = deals[int(round_) - 1]
            plan.append((seat, deal.dealt, deal.placed))
    return order, tuple(plan)


def _boards(rows: Sequence[tuple[list[Card], list[Card], list[Card]]]) -> list[Board]:
    return [Board(tuple(top), tuple(middle), tuple(bottom)) for top, middle, bottom in rows]


def _round_params(round_: Round) -> dict[str, Any]:
    """The text parameters naming a round: "round 3" or "the Fantasyland set"."""
    return {"case": "fantasyland"} if round_ == FANTASYLAND_ROUND else {"case": "round", "round": round_}


def _action_problems(
    index: int,
    action: Action,
    order: Sequence[tuple[int, Round]],
    fantasyland: Sequence[Fantasyland],
    boards: Sequence[Board],
    dealt_so_far: set[Card],
    rules: OfcRules,
) -> list[Violation]:
    if index >= len(order):
        return [violation(DOMAIN, MoveViolation.ACTION_AFTER_HAND_END, index=index)]
    seat, round_ = order[index]
    if action.seat != seat:
        return [
            violation(
                DOMAIN, MoveViolation.OUT_OF_TURN, index=index, seat=seat, actual=action.seat, **_round_params(round_)
            )
        ]
    problems = []
    reused = [c for c in action.dealt if c in dealt_so_far]
    if reused:
        problems.append(violation(DOMAIN, MoveViolation.CARD_DEALT_TWICE, _distinct(reused), index))
    move = validate_move(boards[seat], round_, action.dealt, action.placement, action.discard, (), rules)
    problems += [replace(v, index=index) for v in move.violations]
    # A Fantasyland player is dealt the count it entered with, not just any of 14-17.
    expected = fantasyland[seat].cards
    if (
        round_ == FANTASYLAND_ROUND
        and len(action.dealt) != expected
        and not any(p.code == "wrong_deal_size" for p in problems)
    ):
        problems.append(
            violation(
                DOMAIN,
                MoveViolation.WRONG_DEAL_SIZE,
                _distinct(action.dealt),
                index,
                case="fantasyland_player",
                expected=expected,
                actual=len(action.dealt),
            )
        )
    return problems
