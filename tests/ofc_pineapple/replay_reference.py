"""The hand-record replay, the move check and the showdown as they were before they were made cheaper:
every action validated whole by ``validate_move`` (every check, every time) against a ``Board`` rebuilt per
action, the complete record scored by ``score_hand`` with all its checks, each board by ``evaluate_board``.
test_replay.py holds ``ofc.validate_hand``, ``validate_move``, ``score_hand`` and
``evaluate_board`` to exactly these."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations

from service.rules import poker
from service.rules.cards import Card, find_duplicates
from service.rules.errors import InvalidInputError, Path, Violation, problem, violation
from service.rules.ofc import (
    BOTTOM,
    DOMAIN,
    FANTASYLAND_ROUND,
    MIDDLE,
    ROWS,
    TOP,
    Action,
    Board,
    BoardValue,
    Discard,
    Fantasyland,
    HandRecordResult,
    HandScore,
    Matchup,
    MoveResult,
    MoveViolation,
    PlayerScore,
    ProblemCode,
    Round,
    Row,
    RowValue,
    Seat,
    check_board,
    check_fantasyland,
    fantasyland_next,
    foul_reasons,
    turn_order,
)
from service.rules.ofc.board import _distinct, _duplicates, _expected_sizes, _row_winner, _sizes_text
from service.rules.ofc.rules import HOUSE, OfcRules
from service.rules.ofc.scoring import _check_players, _round_params


def validate_hand(
    dealer: int, fantasyland: Sequence[Fantasyland], actions: Sequence[Action], rules: OfcRules = HOUSE
) -> HandRecordResult:
    _check_players(len(fantasyland), rules)
    if not 0 <= dealer < len(fantasyland):
        case = {"case": "three"} if len(fantasyland) == 3 else {"case": "seats", "last": len(fantasyland) - 1}
        raise InvalidInputError(problem(DOMAIN, ("dealer",), ProblemCode.BAD_SEAT, **case))
    for s, fl in enumerate(fantasyland):
        check_fantasyland(fl, ("players", s, "fantasyland"), rules)
    order = turn_order(dealer, fantasyland, rules)
    boards = [Board() for _ in range(len(fantasyland))]
    dealt_so_far: set[Card] = set()
    discards: list[Discard] = []
    for index, action in enumerate(actions):
        problems = _action_problems(index, action, order, fantasyland, boards, dealt_so_far, rules)
        if problems:
            return HandRecordResult(False, tuple(problems), tuple(boards))
        dealt_so_far.update(action.dealt)
        boards[action.seat] = boards[action.seat].placed(action.placement)
        discards += [Discard(action.seat, c, index) for c in action.discard]
    if len(actions) < len(order):
        seat, round_ = order[len(actions)]
        missing = violation(
            DOMAIN, MoveViolation.RECORD_INCOMPLETE, index=len(actions), seat=seat, **_round_params(round_)
        )
        return HandRecordResult(False, (missing,), tuple(boards))
    score = score_hand([Seat(b, fl) for b, fl in zip(boards, fantasyland)], rules)
    return HandRecordResult(True, (), tuple(boards), score, tuple(discards))


def evaluate_board(
    board: Board, fantasyland: Fantasyland = Fantasyland(), path: Path = (), rules: OfcRules = HOUSE
) -> BoardValue:
    """A complete board's rows, foul, royalties (0 when fouled) and next-hand Fantasyland status.

    ``path`` locates the object holding ``board`` and ``fantasyland`` in the request, for errors."""
    check_board(board, path + ("board",))
    check_fantasyland(fantasyland, path + ("fantasyland",), rules)
    # The board is checked whole above, so each row is valued without evaluate_row's own checks.
    top, middle, bottom = poker.hand_value(board.top), poker.hand_value(board.middle), poker.hand_value(board.bottom)
    reasons = foul_reasons(top, middle, bottom)
    if reasons:  # a fouler's royalties are zero (爆牌者自己的獎分全部歸零), so each row reports 0 too
        rows = {TOP: RowValue(top, 0), MIDDLE: RowValue(middle, 0), BOTTOM: RowValue(bottom, 0)}
        total = 0
    else:
        top_royalty, middle_royalty, bottom_royalty = (
            rules.top_royalty[top.strength],
            rules.middle_royalty[middle.strength],
            rules.bottom_royalty[bottom.strength],
        )
        rows = {
            TOP: RowValue(top, top_royalty),
            MIDDLE: RowValue(middle, middle_royalty),
            BOTTOM: RowValue(bottom, bottom_royalty),
        }
        total = top_royalty + middle_royalty + bottom_royalty
    return BoardValue(rows, bool(reasons), reasons, total, fantasyland_next(rows, bool(reasons), fantasyland, rules))


def settle(a: int, b: int, value_a: BoardValue, value_b: BoardValue, rules: OfcRules = HOUSE) -> Matchup:
    """1-6 scoring between two players: +1 per row won, +3 for all three, plus the royalty difference
    (the rule set's ``row_point`` and ``scoop_bonus``; every OFC rule set served has 1 and 3)."""
    if value_a.fouled and value_b.fouled:  # two foulers score 0 between them, royalties ignored
        return Matchup(a, b, {TOP: "tie", MIDDLE: "tie", BOTTOM: "tie"}, 0, None, 0, 0)
    if value_a.fouled or value_b.fouled:  # the non-fouler wins every row: +6, plus its royalties
        side = "b" if value_a.fouled else "a"
        rows = {TOP: side, MIDDLE: side, BOTTOM: side}
    else:
        rows_a, rows_b = value_a.rows, value_b.rows
        rows = {r: _row_winner(rows_a[r].hand.strength, rows_b[r].hand.strength) for r in ROWS}
    lines = 0
    for w in rows.values():
        lines += 1 if w == "a" else -1 if w == "b" else 0
    scoop = "a" if lines == 3 else "b" if lines == -3 else None
    bonus = rules.scoop_bonus if scoop == "a" else -rules.scoop_bonus if scoop == "b" else 0
    diff = value_a.royalties - value_b.royalties
    return Matchup._make((a, b, rows, lines, scoop, diff, lines * rules.row_point + bonus + diff))


def score_hand(seats: Sequence[Seat], rules: OfcRules = HOUSE) -> HandScore:
    """The showdown of a hand (2-4 players as the rule set allows): every pair settled, totals summing to 0."""
    _check_players(len(seats), rules)
    players_count = len(seats)
    table = [c for seat in seats for c in seat.board.cards()]
    if len(set(table)) != len(table):
        located = [
            (("players", s, "board", r.value, i), c)
            for s, seat in enumerate(seats)
            for r in ROWS
            for i, c in enumerate(seat.board.row(r))
        ]
        raise InvalidInputError(find_duplicates(located))
    values = [evaluate_board(seat.board, seat.fantasyland, ("players", s), rules) for s, seat in enumerate(seats)]
    matchups = tuple(settle(a, b, values[a], values[b], rules) for a, b in combinations(range(players_count), 2))
    totals = [0] * players_count
    for m in matchups:
        totals[m.a] += m.points_a
        totals[m.b] -= m.points_a
    players = tuple([PlayerScore._make((s, totals[s], values[s])) for s in range(players_count)])
    # The button stays put in any hand in which someone played Fantasyland.
    return HandScore(players, matchups, not any(seat.fantasyland.active for seat in seats))


def validate_move(
    board: Board,
    round_: Round,
    dealt: Sequence[Card],
    placement: Mapping[Row, Sequence[Card]],
    discard: Sequence[Card],
    seen: Sequence[Card] = (),
    rules: OfcRules = HOUSE,
) -> MoveResult:
    """Is placing ``placement`` and discarding ``discard`` from ``dealt`` legal on ``board`` this round?

    Every problem is its own violation; well-formed input never raises.
    """
    v: list[Violation] = []
    deal_size, place_size, discard_size, board_before = _expected_sizes(round_, len(dealt), rules)
    on_board = board.cards()
    if len(on_board) != board_before:
        where = {"case": "fantasyland"} if round_ == FANTASYLAND_ROUND else {"case": "round", "round": round_}
        v.append(
            violation(DOMAIN, MoveViolation.BOARD_NOT_AT_ROUND, expected=board_before, actual=len(on_board), **where)
        )
    if deal_size is None or len(dealt) != deal_size:
        expected = _sizes_text(rules.fantasyland_sizes) if round_ == FANTASYLAND_ROUND else str(deal_size)
        v.append(
            violation(
                DOMAIN,
                MoveViolation.WRONG_DEAL_SIZE,
                _distinct(dealt),
                case="round",
                expected=expected,
                actual=len(dealt),
            )
        )
    v += _duplicates(MoveViolation.DUPLICATE_ON_BOARD, on_board)
    v += _duplicates(MoveViolation.DUPLICATE_IN_DEAL, dealt)
    already = [c for c in dealt if c in set(on_board)]
    if already:
        v.append(violation(DOMAIN, MoveViolation.CARD_ALREADY_ON_BOARD, _distinct(already)))
    visible = [c for c in [*on_board, *dealt] if c in set(seen)]
    if visible:
        v.append(violation(DOMAIN, MoveViolation.CARD_SEEN_ELSEWHERE, _distinct(visible)))
    placed = [c for r in ROWS for c in placement.get(r, ())]
    used = placed + list(discard)
    v += _duplicates(MoveViolation.CARD_USED_TWICE, used)
    not_dealt = [c for c in used if c not in set(dealt)]
    if not_dealt:
        v.append(violation(DOMAIN, MoveViolation.CARD_NOT_DEALT, _distinct(not_dealt)))
    if len(placed) != place_size:
        v.append(
            violation(
                DOMAIN, MoveViolation.WRONG_PLACEMENT_SIZE, _distinct(placed), expected=place_size, actual=len(placed)
            )
        )
    if len(discard) != max(discard_size, 0):
        v.append(
            violation(
                DOMAIN,
                MoveViolation.WRONG_DISCARD_SIZE,
                _distinct(discard),
                expected=max(discard_size, 0),
                actual=len(discard),
            )
        )
    for r in ROWS:
        if len(board.row(r)) + len(placement.get(r, ())) > r.size:
            v.append(
                violation(DOMAIN, MoveViolation.ROW_OVERFLOW, _distinct(placement.get(r, ())), row=r.value, size=r.size)
            )
    legal = not v
    return MoveResult(legal, tuple(v), board.placed(placement) if legal else board)


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
        problems.append(violation(
            DOMAIN, MoveViolation.WRONG_DEAL_SIZE, _distinct(action.dealt), index,
            case="fantasyland_player", expected=expected, actual=len(action.dealt),
        ))  # fmt: skip
    return problems
