"""Open-Face Chinese Poker: Pineapple OFC (大菠蘿, game ``ofc-pineapple``) and classic OFC (明牌十三張, game
``ofc-classic``), one set of rules that takes the rule set as data.

One module per part:

* ``rules``: the rule sets (``OfcRules``: players, deals, royalty tables, Fantasyland entry and stay,
  scoring) and the row names (``Row``);
* ``board``: a row's hand value and royalty, a complete board's foul check, royalties and Fantasyland entry
  or stay, and whether one move is legal (``validate_move``);
* ``scoring``: the showdown (every pair of players settled) and the replay of a whole hand record;
* ``moves``: every legal move of one deal;
* ``outlook``: what a partial board can still become (a certain foul, each royalty, Fantasyland);
* ``fantasyland``: the best setting of a Fantasyland hand.

This package re-exports the public names of ``rules``, ``board``, ``scoring`` and ``moves`` (but the deal
schedules ``moves.PINEAPPLE`` and ``moves.CLASSIC``, which the rule sets' names would hide), so
``from service.rules.ofc import Board, score_hand`` keeps the game's words. The two solvers are used as
modules, where their names read right: ``ofc.outlook.outlook(...)``, ``ofc.fantasyland.solve(...)``.

The texts of both games are the catalog domain ``ofc-pineapple`` (``DOMAIN``): ``messages.json`` beside
these modules, in English and Traditional Chinese, and ``messages.zh-CN.json`` generated from it
(``service/rules/messages.py``). The rule books' terms: row (道), foul (爆牌), royalty (獎分), scoop
(全贏), Fantasyland (范特西).
"""

from __future__ import annotations

from service.rules.ofc import fantasyland, outlook
from service.rules.ofc.board import (
    BOARD_SIZE,
    BOTTOM,
    DOMAIN,
    FANTASYLAND_ROUND,
    FANTASYLAND_SIZES,
    MIDDLE,
    PLAYERS,
    ROWS,
    TOP,
    Board,
    BoardValue,
    Fantasyland,
    FantasylandNext,
    FoulReason,
    MoveResult,
    MoveViolation,
    ProblemCode,
    Round,
    RowValue,
    Valuer,
    check_board,
    check_fantasyland,
    compare_rows,
    evaluate_board,
    evaluate_row,
    fantasyland_next,
    foul_reasons,
    round_case,
    royalty,
    validate_move,
)
from service.rules.ofc.moves import (
    Move,
    MoveList,
    MovesProblem,
    Schedule,
    board_problems,
    legal_moves,
    schedule_of,
)
from service.rules.ofc.rules import (
    CLASSIC,
    CLASSIC_DEALS,
    CLASSIC_ROYALTIES,
    FIVE_CARD_CATEGORIES,
    HOUSE,
    HOUSE_ROYALTIES,
    HOUSE_STAY,
    PINEAPPLE_DEALS,
    PROGRESSIVE,
    RANK_TEXT,
    ROW_ROYALTY_KEYS,
    ROYALTY_MAX,
    RULE_SETS_KEPT,
    STANDARD,
    TOP_HANDS,
    ULTIMATE,
    ULTIMATE_ENTRY,
    Deal,
    OfcRules,
    Row,
    RoyaltyTable,
    StayRule,
    top_hand_key,
)
from service.rules.ofc.scoring import (
    Action,
    Discard,
    HandRecordResult,
    HandScore,
    Matchup,
    PlayerScore,
    Seat,
    score_hand,
    settle,
    turn_order,
    validate_hand,
)

CODES = (MoveViolation, ProblemCode, MovesProblem, outlook.OutlookProblem)
"""The code registries of the game's violations and problems (a test checks that the rules emit each code and
that each has its texts); the Fantasyland solver's input check, ``fantasyland.SolveProblem``, stays with it."""

__all__ = [
    "BOARD_SIZE",
    "BOTTOM",
    "CLASSIC",
    "CLASSIC_DEALS",
    "CLASSIC_ROYALTIES",
    "CODES",
    "DOMAIN",
    "FANTASYLAND_ROUND",
    "FANTASYLAND_SIZES",
    "FIVE_CARD_CATEGORIES",
    "HOUSE",
    "HOUSE_ROYALTIES",
    "HOUSE_STAY",
    "MIDDLE",
    "PINEAPPLE_DEALS",
    "PLAYERS",
    "PROGRESSIVE",
    "RANK_TEXT",
    "ROWS",
    "ROW_ROYALTY_KEYS",
    "ROYALTY_MAX",
    "RULE_SETS_KEPT",
    "STANDARD",
    "TOP",
    "TOP_HANDS",
    "ULTIMATE",
    "ULTIMATE_ENTRY",
    "Action",
    "Board",
    "BoardValue",
    "Deal",
    "Discard",
    "Fantasyland",
    "FantasylandNext",
    "FoulReason",
    "HandRecordResult",
    "HandScore",
    "Matchup",
    "Move",
    "MoveList",
    "MoveResult",
    "MoveViolation",
    "MovesProblem",
    "OfcRules",
    "PlayerScore",
    "ProblemCode",
    "Round",
    "Row",
    "RowValue",
    "RoyaltyTable",
    "Schedule",
    "Seat",
    "StayRule",
    "Valuer",
    "board_problems",
    "check_board",
    "check_fantasyland",
    "compare_rows",
    "evaluate_board",
    "evaluate_row",
    "fantasyland",
    "fantasyland_next",
    "foul_reasons",
    "legal_moves",
    "outlook",
    "round_case",
    "royalty",
    "schedule_of",
    "score_hand",
    "settle",
    "top_hand_key",
    "turn_order",
    "validate_hand",
    "validate_move",
]
