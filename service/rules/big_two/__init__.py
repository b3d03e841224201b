"""Big Two (大老二): combinations, ordering, moves, scoring and whole-game replay, at any table.

A table's rules are one frozen ``BigTwoRules`` (``rules``): the house rules ``TAIWAN`` (台灣大老二, every
function's default), the common game ``HONG_KONG`` (鋤大D), or either with some parameters replaced. Its
``Ladder`` (``ladder``) holds what cards are worth as a play there. One module per part, as the tests are
split (tests/big_two): ``combinations``, ``compare``, ``moves``, ``plays`` (every legal play of a turn),
``scoring`` and ``game``, with the codes, labels and card order they share in ``common``. This package
re-exports every public name, so ``from service.rules.big_two import classify`` keeps working.

The game's texts are the catalog domain ``big-two`` (``DOMAIN``): ``messages.json`` beside these modules,
in English and Traditional Chinese, and ``messages.zh-CN.json`` generated from it
(``service/rules/messages.py``).

Pure and stateless: every function takes the whole situation it judges and returns its answer as values
(dataclasses, NamedTuples) that nothing changes once built.
The rule book is ``big-two-taiwan.zh-TW.txt``; the product's rulings on its open points and on the other
rule sets are in ``docs/rulings.md`` ("Taiwanese Big Two").

Order. Ranks 3 < 4 < ... < K < A < 2; a card's Big Two rank is 0 (3) ... 10 (K), 11 (A), 12 (2), and its
suit its place in the table's suit order (the house rules: clubs < diamonds < hearts < spades).

``HandValue.strength`` is ``(rung, ...)``, the rung being the combination's step on the table's ladder
(``ladder.py`` lists the rest of the tuple per combination). The house rules' ladder:

=====  ==================  =========================================================
rung   combination         rest of the tuple
=====  ==================  =========================================================
1      single              rank, suit
2      pair                rank, suit of the higher card
3      straight            sequence 0 (A2345) ... 9 (23456), suit of its highest-ranked card
4      full_house          rank of the triple
5      four_of_a_kind      rank of the four
6      straight_flush      sequence 0 ... 9, suit
7      dragon              (nothing)
8      green_dragon        (nothing)
=====  ==================  =========================================================

Within one combination, and between a monster (rungs 5-6) and anything below it, the larger strength
is the one that beats; a dragon beats everything and nothing beats a dragon. Two different normal
combinations (rungs 1-4) never beat each other whatever their strengths say: ``compare`` is the
authority on "beats", ``strength`` only sorts. Ties are impossible between plays of one deck.
"""

from __future__ import annotations

from service.rules.big_two.combinations import (
    Classification,
    classify,
)
from service.rules.big_two.common import (
    COMBINATION_LABELS,
    DOMAIN,
    HAND_SIZE,
    SEATS,
    STRAIGHTS,
    THREE_OF_CLUBS,
    ActionType,
    Combination,
    CompareReason,
    FactorCode,
    InvalidPlay,
    MoveViolation,
    ProblemCode,
    big_two_key,
    big_two_rank,
    sort_cards,
)
from service.rules.big_two.compare import (
    Comparison,
    compare,
    judge,
)
from service.rules.big_two.game import (
    GameRecord,
    GameState,
    validate_game,
)
from service.rules.big_two.moves import (
    Action,
    MoveResult,
    legal_play_values,
    legal_plays,
    validate_move,
)
from service.rules.big_two.plays import LegalPlay, PlayGroup, PlayList, PlaysProblem, list_plays
from service.rules.big_two.rules import (
    CYCLIC_RUNS,
    FIVE_CARD_PLAYS,
    HONG_KONG,
    MONSTER_KINDS,
    SHORT_PLAYS,
    TAIWAN,
    BigTwoRules,
    CardsLeftTier,
    FlushOrder,
    StraightSuitCard,
    cards_left_tiers,
)
from service.rules.big_two.scoring import (
    Factor,
    GameScore,
    LoserScore,
    WinnerScore,
    loser_multiplier_factors,
    monsters_left,
    score_game,
    winner_multiplier_factors,
)

CODES = (InvalidPlay, MoveViolation, ProblemCode, PlaysProblem)
"""The code registries of the game's violations and problems (a test checks that the rules emit each code and
that each has its texts)."""

__all__ = [
    "CODES",
    "COMBINATION_LABELS",
    "DOMAIN",
    "HAND_SIZE",
    "SEATS",
    "STRAIGHTS",
    "THREE_OF_CLUBS",
    "Action",
    "ActionType",
    "Classification",
    "Combination",
    "CompareReason",
    "Comparison",
    "Factor",
    "FactorCode",
    "GameRecord",
    "GameScore",
    "GameState",
    "InvalidPlay",
    "LegalPlay",
    "LoserScore",
    "MoveResult",
    "MoveViolation",
    "PlayGroup",
    "PlayList",
    "PlaysProblem",
    "ProblemCode",
    "WinnerScore",
    "big_two_key",
    "cards_left_tiers",
    "big_two_rank",
    "classify",
    "compare",
    "judge",
    "legal_play_values",
    "legal_plays",
    "list_plays",
    "loser_multiplier_factors",
    "monsters_left",
    "score_game",
    "BigTwoRules",
    "CYCLIC_RUNS",
    "CardsLeftTier",
    "FIVE_CARD_PLAYS",
    "FlushOrder",
    "HONG_KONG",
    "MONSTER_KINDS",
    "SHORT_PLAYS",
    "StraightSuitCard",
    "TAIWAN",
    "sort_cards",
    "validate_game",
    "validate_move",
    "winner_multiplier_factors",
]
