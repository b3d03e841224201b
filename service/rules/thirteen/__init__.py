"""Thirteen-card games (十三支): Joker Thirteen with an extra spade suit (鬼牌十三支加一色, game
``joker-thirteen``).

One module per part:

* ``duns``: the 68-card deck, the three duns, the hand categories and a dun's hand value, jokers included
  (the ladder, and the tables that read a dun from the sum of its cards' codes);
* ``rules``: the round's scoring as data (``JokerThirteenRules``; the house rules ``GSCAS``);
* ``arrangements``: whether a player's three duns are a legal arrangement (相公 is not);
* ``scoring``: the round score of four players: 打槍 + 全壘打 + 額外加分, in 道;
* ``suggest``: arrange for me (自動理牌), the best arrangement by a documented objective, reading the
  simulated opponent's tables in ``data/``.

This package re-exports the public names of ``duns``, ``rules``, ``arrangements`` and ``scoring``, so
``from service.rules.thirteen import evaluate_dun, score_round`` keeps the game's words; the solver is used
as a module, ``thirteen.suggest.suggest(...)``.

The game's texts are the catalog domain ``joker-thirteen`` (``DOMAIN``): ``messages.json`` beside these
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
    LABELS,
    MIDDLE,
    RUNG,
    SHAPES,
    TAIL,
    TWO_PAIR_FLUSH_LABEL,
    Category,
    Dun,
    Group,
    Plan,
    compare_duns,
    evaluate_dun,
    plan_every_shape,
)
from service.rules.thirteen.rules import BONUS, GSCAS, HAND_SIZE, PLAYERS, JokerThirteenRules, bonus
from service.rules.thirteen.scoring import Matchup, PlayerScore, ProblemCode, RoundScore, score_round

CODES = (ArrangementViolation, ProblemCode)
"""The code registries of the game's violations and problems (a test checks that the rules emit each code and
that each has its texts); the suggester's input check, ``suggest.SuggestProblem``, stays with it."""

__all__ = [
    "BONUS",
    "CODES",
    "DECK_COPIES",
    "DOMAIN",
    "DUNS",
    "GAME_DECK",
    "GSCAS",
    "HAND_SIZE",
    "HEAD",
    "LABELS",
    "MIDDLE",
    "PLAYERS",
    "RUNG",
    "SHAPES",
    "TAIL",
    "TWO_PAIR_FLUSH_LABEL",
    "Arrangement",
    "ArrangementResult",
    "ArrangementViolation",
    "Category",
    "Dun",
    "Group",
    "JokerThirteenRules",
    "Located",
    "Matchup",
    "Orders",
    "Plan",
    "PlayerScore",
    "ProblemCode",
    "RoundScore",
    "bonus",
    "compare_duns",
    "evaluate_dun",
    "plan_every_shape",
    "score_round",
    "suggest",
    "validate_arrangement",
]
