"""The hand-record replay as it was before the incremental one (issue 15): every action validated whole by
``validate_move`` against a ``Board`` rebuilt per action, the complete record scored by ``score_hand`` with
all its checks. test_replay.py holds ``ofc_pineapple.validate_hand`` to exactly this."""

from __future__ import annotations

from collections.abc import Sequence

from service.rules.cards import Card
from service.rules.errors import InvalidInputError, problem, violation
from service.rules.ofc_pineapple import (
    DOMAIN,
    Action,
    Board,
    Discard,
    Fantasyland,
    HandRecordResult,
    MoveViolation,
    ProblemCode,
    Seat,
    _action_problems,
    _check_players,
    _round_params,
    check_fantasyland,
    score_hand,
    turn_order,
)
from service.rules.ofc_rules import HOUSE, OfcRules


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
