"""Taiwanese Big Two's shared bits: codes, labels, the Big Two card order and the joker refusal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from service.rules import messages
from service.rules.cards import DECK, Card, Suit
from service.rules.errors import InputProblem, Path, problem

SEATS = 4
HAND_SIZE = 13
DOMAIN = "big-two"  # the catalog domain of this game's texts (big_two/messages.json)


class Combination(StrEnum):
    """Every play a Big Two table may allow (``BigTwoRules.plays``) and the two 13-card plays. The house rules
    allow six of the eight below the dragons: no triple, no flush."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    DRAGON = "dragon"
    GREEN_DRAGON = "green_dragon"


COMBINATION_LABELS: dict[Combination, messages.Message] = {c: messages.label(DOMAIN, c.value) for c in Combination}
"""Each combination's label: its key in the catalog (big_two/messages.json), rendered at the edge."""

_COMBINATION_OF = {c.value: c for c in Combination}  # a HandValue's category: its combination, by look-up
_MONSTERS = frozenset({Combination.FOUR_OF_A_KIND, Combination.STRAIGHT_FLUSH})  # 「鐵支與同花順稱為『怪物』」
_DRAGONS = frozenset({Combination.DRAGON, Combination.GREEN_DRAGON})
_SEQUENCED = frozenset({Combination.STRAIGHT, Combination.STRAIGHT_FLUSH})


class InvalidPlay(StrEnum):
    """Why some cards are not a play (``Classification.violations`` codes)."""

    WRONG_CARD_COUNT = "wrong_card_count"
    NOT_A_COMBINATION = "not_a_combination"
    TRIPLE_NOT_A_COMBINATION = "triple_not_a_combination"
    TWO_PAIR_NOT_A_COMBINATION = "two_pair_not_a_combination"
    FOUR_WITHOUT_KICKER = "four_without_kicker"
    FLUSH_NOT_A_COMBINATION = "flush_not_a_combination"
    STRAIGHT_CROSSES_TWO = "straight_crosses_two"
    DUPLICATE_CARD = "duplicate_card"
    JOKER_NOT_ALLOWED = "joker_not_allowed"


class CompareReason(StrEnum):
    """Why ``play`` does or does not beat ``table`` (``Comparison.reason``)."""

    HIGHER_RANK = "higher_rank"
    HIGHER_SUIT = "higher_suit"
    HIGHER_SEQUENCE = "higher_sequence"
    MONSTER_BEATS_NORMAL = "monster_beats_normal"
    STRAIGHT_FLUSH_BEATS_QUADS = "straight_flush_beats_quads"
    DRAGON_BEATS_ALL = "dragon_beats_all"
    LOWER = "lower"
    EQUAL = "equal"
    DIFFERENT_COMBINATION = "different_combination"
    HIGHER_COMBINATION = "higher_combination"  # a five-card play of a higher kind, where the table allows it
    LOWER_COMBINATION = "lower_combination"
    NORMAL_CANNOT_BEAT_MONSTER = "normal_cannot_beat_monster"
    QUADS_CANNOT_BEAT_STRAIGHT_FLUSH = "quads_cannot_beat_straight_flush"
    NOTHING_BEATS_DRAGON = "nothing_beats_dragon"
    INVALID_TABLE = "invalid_table"
    INVALID_PLAY = "invalid_play"
    DUPLICATE_CARD = "duplicate_card"


class MoveViolation(StrEnum):
    """Rule breaks of one action (``MoveResult.violations`` codes, besides ``InvalidPlay`` codes)."""

    LEADER_CANNOT_PASS = "leader_cannot_pass"
    CARDS_WITH_PASS = "cards_with_pass"
    EMPTY_PLAY = "empty_play"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    DUPLICATE_CARD = "duplicate_card"
    INVALID_TABLE = "invalid_table"
    DRAGON_NEEDS_FULL_HAND = "dragon_needs_full_hand"
    DIFFERENT_COMBINATION = "different_combination"
    NOT_HIGHER = "not_higher"
    CANNOT_BEAT_MONSTER = "cannot_beat_monster"
    CANNOT_BEAT_DRAGON = "cannot_beat_dragon"
    FIRST_PLAY_WITHOUT_LOWEST_CARD = "first_play_without_lowest_card"  # where the table's rules say so
    PASSED_THIS_TRICK = "passed_this_trick"  # where a pass locks the player out of the trick
    # whole-record replay only
    NOT_YOUR_TURN = "not_your_turn"
    ACTION_AFTER_GAME_END = "action_after_game_end"


class FactorCode(StrEnum):
    """One factor of a multiplier in the score (``Factor.factor``)."""

    CARDS_LEFT_TIER = "cards_left_tier"
    TWOS_HELD = "twos_held"
    MONSTER_HELD = "monster_held"
    GRAND_SLAM = "grand_slam"
    THREE_OF_CLUBS_FINISH = "three_of_clubs_finish"
    TWOS_FINISH = "twos_finish"
    MONSTER_FINISH = "monster_finish"
    GREEN_DRAGON_FINISH = "green_dragon_finish"


class ProblemCode(StrEnum):
    """Codes of the impossible input this module refuses (``InputProblem.code``, HTTP 422), besides the
    card notation's and a finishing play's ``InvalidPlay`` codes."""

    INVALID_BASE = "invalid_base"
    INVALID_GRAND_SLAM = "invalid_grand_slam"
    GRAND_SLAM_IMPOSSIBLE = "grand_slam_impossible"
    WRONG_PLAYER_COUNT = "wrong_player_count"
    WRONG_CARD_COUNT = "wrong_card_count"
    INVALID_SEAT = "invalid_seat"
    UNKNOWN_ACTION_TYPE = "unknown_action_type"
    JOKER_NOT_ALLOWED = "joker_not_allowed"
    INCONSISTENT_RULES = "inconsistent_rules"
    FIRST_LEAD_WITH_TABLE = "first_lead_with_table"  # the game's first lead asked about with a table to beat
    FIRST_LEAD_HAND = "first_lead_hand"  # the game's first lead asked about without the 13 cards holding the lowest
    SEAT_NEEDED = "seat_needed"  # a table's seat without the player's own: whose turn came back is unknown
    STATE_NEEDED = "state_needed"  # the table's rules make the answer depend on a state the request left out


class ActionType(StrEnum):
    PLAY = "play"
    PASS = "pass"


# What the replay and the judge test each action's type against: one module name (an enum class's attribute
# is a look-up through its metaclass, paid per action).
PASS = ActionType.PASS


# --------------------------------------------------------------------------------------------------
# Cards in Big Two order


def big_two_rank(c: Card) -> int:
    """0 for a 3 ... 10 for a K, 11 for an A, 12 for a 2 (Card.rank is poker order, A=14, 2=2)."""
    return (c.rank - 3) % 13


_KEY: dict[Card, int] = {c: big_two_rank(c) * 4 + c.suit.order for c in DECK}  # 0 (3c) ... 51 (2s)
THREE_OF_CLUBS = DECK[(3 - 2) * 4 + Suit.CLUBS.order]


def big_two_key(c: Card) -> int:
    """0 for 3c ... 51 for 2s: the single-card order of the whole game."""
    return _KEY[c]


def sort_cards(hand: Iterable[Card]) -> tuple[Card, ...]:
    """Low to high in Big Two order: the canonical order of every card list this module returns."""
    return tuple(sorted(hand, key=_KEY.__getitem__))


def _desc(hand: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(hand, key=_KEY.__getitem__, reverse=True))


# The ten straights of the house rule book, low to high, as poker ranks (A=14): ``TAIWAN.straights``.
STRAIGHTS: tuple[tuple[int, ...], ...] = (
    (14, 2, 3, 4, 5),
    *(tuple(range(low, low + 5)) for low in range(3, 11)),
    (2, 3, 4, 5, 6),
)


def _joker_problems(located: Sequence[tuple[Path, Card]]) -> list[InputProblem]:
    return [problem(DOMAIN, path, ProblemCode.JOKER_NOT_ALLOWED, case="big_two") for path, c in located if c.is_joker]


class StraightSuitCard(StrEnum):
    """Which card's suit decides between two straights of one sequence."""

    HIGHEST = "highest"  # the highest-ranked card (2 > A > K ...): the 2 of A2345 and of 23456
    TOP = "top"  # the top of the sequence: the 5 of A2345, the 6 of 23456, the A of 10JQKA


class FlushOrder(StrEnum):
    """How two flushes compare."""

    HIGHEST_CARD = "highest_card"  # the highest card, as a single (rank, then suit)
    RANK_BY_RANK = "rank_by_rank"  # rank by rank from the highest, then the highest card's suit
