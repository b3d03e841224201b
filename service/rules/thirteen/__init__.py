"""Thirteen-card games (十三支): Joker Thirteen with an extra spade suit (鬼牌十三支加一色, game
``joker-thirteen``) and ordinary 十三支 (game ``thirteen``), one engine fed a rule set.

One module per part:

* ``duns``: the decks (``ThirteenDeck``: Joker Thirteen's 68 cards, ordinary 十三支's 52), the three duns,
  the hand categories and a dun's hand value, jokers included (the ladder, and the tables that read a dun
  from the sum of its cards' codes);
* ``rules``: each rule set as data (``ThirteenRules``: the house rules ``GSCAS``, ordinary ``ORDINARY``,
  十三水 ``SHISANSHUI``), its deck and its scoring, every parameter declared once;
* ``specials``: the special hands (報到) 13 cards of one 52-card deck make;
* ``arrangements``: whether a player's three duns are a legal arrangement (相公 is not);
* ``scoring``: the round score of four players at any table (won duns, majority, 打槍, 全壘打, 額外加分,
  fouls and specials), one engine fed the rule set;
* ``suggest``: arrange for me (自動理牌), the best arrangement by a documented objective, reading the
  simulated opponent's tables in ``data/``; ``pair_value`` the objective of a pair at any table's scoring.

This package re-exports the public names of ``duns``, ``rules``, ``arrangements`` and ``scoring``, so
``from service.rules.thirteen import evaluate_dun, score_round`` keeps the game's words; the solver is used
as a module, ``thirteen.suggest.suggest(...)``.

The games' texts are the catalog domain ``joker-thirteen`` (``DOMAIN``): ``messages.json`` beside these
modules, in English and Traditional Chinese, and ``messages.zh-CN.json`` generated from it
(``service/rules/messages.py``). Terms follow the rule book: dun (墩: head 頭墩, middle 中墩, tail 尾墩),
相公 (an arrangement out of order), 打槍 (shot), 全壘打 (home run), 額外加分 (bonus), 道 (the scoring unit).
"""

from __future__ import annotations

from service.rules.thirteen import suggest
from service.rules.thirteen.arrangements import (
    Arrangement,
    ArrangementResult,
    ArrangementViolation,
    Located,
    Orders,
    validate_arrangement,
)
from service.rules.thirteen.duns import (
    DECK_COPIES,
    DOMAIN,
    DUNS,
    GAME_DECK,
    HEAD,
    JOKER_DECK,
    LABELS,
    MIDDLE,
    ORDINARY_DECK,
    RUNG,
    SET_CARDS,
    SHAPES,
    TAIL,
    TWO_PAIR_FLUSH_LABEL,
    Category,
    Dun,
    Group,
    Plan,
    ThirteenDeck,
    compare_duns,
    evaluate_dun,
    plan_every_shape,
)
from service.rules.thirteen.rules import (
    BONUS,
    BONUS_MAX,
    GSCAS,
    HAND_SIZE,
    ORDINARY,
    PLAYERS,
    SHISANSHUI,
    Declare,
    Foul,
    ProblemCode,
    SpecialVsSpecial,
    Sweep,
    ThirteenRules,
    bonus,
)
from service.rules.thirteen.scoring import Matchup, PlayerScore, RoundScore, score_round
from service.rules.thirteen.specials import SPECIAL_LABELS, SPECIALS, Special, scored_special, specials_of

CODES = (ArrangementViolation, ProblemCode)
"""The code registries of the game's violations and problems (a test checks that the rules emit each code and
that each has its texts); the suggester's input check, ``suggest.SuggestProblem``, stays with it."""

__all__ = [
    "BONUS",
    "BONUS_MAX",
    "CODES",
    "DECK_COPIES",
    "DOMAIN",
    "DUNS",
    "GAME_DECK",
    "GSCAS",
    "HAND_SIZE",
    "HEAD",
    "JOKER_DECK",
    "LABELS",
    "MIDDLE",
    "ORDINARY",
    "ORDINARY_DECK",
    "PLAYERS",
    "RUNG",
    "SET_CARDS",
    "SHISANSHUI",
    "SHAPES",
    "SPECIALS",
    "SPECIAL_LABELS",
    "TAIL",
    "TWO_PAIR_FLUSH_LABEL",
    "Arrangement",
    "ArrangementResult",
    "ArrangementViolation",
    "Category",
    "Declare",
    "Foul",
    "Dun",
    "Group",
    "Located",
    "Matchup",
    "Orders",
    "Plan",
    "PlayerScore",
    "ProblemCode",
    "RoundScore",
    "Special",
    "SpecialVsSpecial",
    "Sweep",
    "ThirteenDeck",
    "ThirteenRules",
    "bonus",
    "compare_duns",
    "evaluate_dun",
    "plan_every_shape",
    "score_round",
    "scored_special",
    "specials_of",
    "suggest",
    "validate_arrangement",
]
