"""Taiwanese Big Two (台灣大老二): combinations, ordering, moves, scoring and whole-game replay.

Pure and stateless: every function takes the whole situation it judges and returns frozen dataclasses.
The rule book is ``big-two-taiwan.zh-TW.txt``; the product's rulings on its open points are in
``docs/rulings.md`` ("Taiwanese Big Two").

Order. Ranks 3 < 4 < ... < K < A < 2 and suits clubs < diamonds < hearts < spades, so a card's Big Two
rank is 0 (3) ... 10 (K), 11 (A), 12 (2) and its suit 0 (c) ... 3 (s).

``HandValue.strength`` layout: ``(rung, ...)``. The rung is the combination's step on one ladder on
which the monsters sit above every normal play and the dragons above everything:

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

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import combinations, product
from typing import Any

from service.rules.cards import DECK, Card, Suit, find_duplicates
from service.rules import messages
from service.rules.errors import InputProblem, InvalidInputError, Path, Violation, problem, quoted, violation
from service.rules.hand_value import HandValue

SEATS = 4
HAND_SIZE = 13
DOMAIN = "big-two"  # the catalog domain of this game's texts (service/rules/messages.py)


# --------------------------------------------------------------------------------------------------
# Codes


class Combination(StrEnum):
    """The six combinations of the rule book plus the two 13-card plays."""

    SINGLE = "single"
    PAIR = "pair"
    STRAIGHT = "straight"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    DRAGON = "dragon"
    GREEN_DRAGON = "green_dragon"


COMBINATION_LABELS: dict[Combination, messages.Message] = {c: messages.label(DOMAIN, c.value) for c in Combination}
"""Each combination's label: its key in the catalog (service/rules/messages.py), rendered at the edge."""

_RUNG = {combination: rung for rung, combination in enumerate(Combination, start=1)}
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


CODES = (InvalidPlay, MoveViolation, ProblemCode)
"""Every code registry of this module's violations and problems (a test checks each code has its texts)."""


class ActionType(StrEnum):
    PLAY = "play"
    PASS = "pass"


# --------------------------------------------------------------------------------------------------
# Cards in Big Two order


def big_two_rank(c: Card) -> int:
    """0 for a 3 ... 10 for a K, 11 for an A, 12 for a 2 (Card.rank is poker order, A=14, 2=2)."""
    return (c.rank - 3) % 13


_KEY = {c: big_two_rank(c) * 4 + c.suit.order for c in DECK}  # 0 (3c) ... 51 (2s)
THREE_OF_CLUBS = DECK[(3 - 2) * 4 + Suit.CLUBS.order]


def big_two_key(c: Card) -> int:
    """0 for 3c ... 51 for 2s: the single-card order of the whole game."""
    return _KEY[c]


def sort_cards(hand: Iterable[Card]) -> tuple[Card, ...]:
    """Low to high in Big Two order: the canonical order of every card list this module returns."""
    return tuple(sorted(hand, key=_KEY.__getitem__))


def _desc(hand: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(hand, key=_KEY.__getitem__, reverse=True))


def _text(hand: Iterable[Card]) -> str:
    return " ".join(str(c) for c in hand)


# The ten straights of the rule book, low to high, as poker ranks (A=14). Nothing else is a straight.
STRAIGHTS: tuple[tuple[int, ...], ...] = (
    (14, 2, 3, 4, 5),
    *(tuple(range(low, low + 5)) for low in range(3, 11)),
    (2, 3, 4, 5, 6),
)
_SEQUENCE_OF = {frozenset(ranks): index for index, ranks in enumerate(STRAIGHTS)}
# 「J-Q-K-A-2、Q-K-A-2-3、K-A-2-3-4這類跨過 2 的組合不成順」: named so the reason can say so.
_CROSSING_TWO = frozenset({frozenset({11, 12, 13, 14, 2}), frozenset({12, 13, 14, 2, 3}), frozenset({13, 14, 2, 3, 4})})


# --------------------------------------------------------------------------------------------------
# Classification


@dataclass(frozen=True, slots=True)
class Classification:
    """What some cards are as a play: a combination with its value, or the reasons they are none."""

    valid: bool
    combination: Combination | None
    monster: bool  # four of a kind or straight flush; the dragons are not "monsters" in the rule book
    hand: HandValue | None
    violations: tuple[Violation, ...] = ()


def _value(combination: Combination, strength: tuple[int, ...], ordered: tuple[Card, ...]) -> Classification:
    hand = HandValue(combination.value, COMBINATION_LABELS[combination], (_RUNG[combination], *strength), ordered)
    return Classification(True, combination, combination in _MONSTERS, hand)


def _invalid(code: InvalidPlay, involved: Iterable[Card], **params: object) -> Classification:
    return Classification(False, None, False, None, (violation(DOMAIN, code, sort_cards(involved), **params),))


def classify(cards: Iterable[Card]) -> Classification:
    """Classify a play; the order of ``cards`` never matters."""
    played = tuple(cards)
    jokers = [c for c in played if c.is_joker]
    if jokers:
        return Classification(False, None, False, None, (violation(DOMAIN, InvalidPlay.JOKER_NOT_ALLOWED, case="big_two"),))
    doubled = _doubled(played) if len(set(played)) != len(played) else ()
    if doubled:
        return _invalid(InvalidPlay.DUPLICATE_CARD, doubled, case="play", these=_text(doubled))
    counts = Counter(c.rank for c in played)
    size = len(played)
    if size == 1:
        return _value(Combination.SINGLE, (big_two_rank(played[0]), played[0].suit.order), played)
    if size == 2:
        return _classify_two(played, counts)
    if size == 5:
        return _classify_five(played, counts)
    if size == HAND_SIZE:
        return _classify_thirteen(played, counts)
    return _classify_other(played, counts)


def _doubled(played: Sequence[Card]) -> tuple[Card, ...]:
    seen: set[Card] = set()
    doubled: list[Card] = []
    for c in played:
        if c in seen and c not in doubled:
            doubled.append(c)
        seen.add(c)
    return sort_cards(doubled)


def _classify_two(played: tuple[Card, ...], counts: Counter[int]) -> Classification:
    if len(counts) != 1:
        return _invalid(InvalidPlay.NOT_A_COMBINATION, played, case="two")
    ordered = _desc(played)  # the spade-most card decides between two pairs of one rank
    return _value(Combination.PAIR, (big_two_rank(ordered[0]), ordered[0].suit.order), ordered)


def _classify_five(played: tuple[Card, ...], counts: Counter[int]) -> Classification:
    shape = sorted(counts.values(), reverse=True)
    if shape == [4, 1]:
        four = max(counts, key=counts.__getitem__)
        ordered = _desc(c for c in played if c.rank == four) + tuple(c for c in played if c.rank != four)
        return _value(Combination.FOUR_OF_A_KIND, (big_two_rank(ordered[0]),), ordered)
    if shape == [3, 2]:
        three = max(counts, key=counts.__getitem__)
        ordered = _desc(c for c in played if c.rank == three) + _desc(c for c in played if c.rank != three)
        return _value(Combination.FULL_HOUSE, (big_two_rank(ordered[0]),), ordered)
    if shape == [3, 1, 1]:
        return _invalid(InvalidPlay.TRIPLE_NOT_A_COMBINATION, played, case="five")
    if shape == [2, 2, 1]:
        return _invalid(InvalidPlay.TWO_PAIR_NOT_A_COMBINATION, played)
    if shape != [1, 1, 1, 1, 1]:
        return _invalid(InvalidPlay.NOT_A_COMBINATION, played, case="pair_and_singles")
    return _classify_run(played, frozenset(counts))


def _classify_run(played: tuple[Card, ...], ranks: frozenset[int]) -> Classification:
    """Five different ranks: a straight (flush), a sequence across the 2, a flush, or nothing."""
    one_suit = len({c.suit for c in played}) == 1
    sequence = _SEQUENCE_OF.get(ranks)
    if sequence is not None:
        ordered = _desc(played)  # highest-ranked card first: 2 > A > K, so A2345 and 23456 lead with the 2
        if one_suit:
            return _value(Combination.STRAIGHT_FLUSH, (sequence, ordered[0].suit.order), ordered)
        return _value(Combination.STRAIGHT, (sequence, ordered[0].suit.order), ordered)
    if ranks in _CROSSING_TWO:
        return _invalid(InvalidPlay.STRAIGHT_CROSSES_TWO, played)
    if one_suit:
        return _invalid(InvalidPlay.FLUSH_NOT_A_COMBINATION, played)
    return _invalid(InvalidPlay.NOT_A_COMBINATION, played, case="five")


def _classify_thirteen(played: tuple[Card, ...], counts: Counter[int]) -> Classification:
    if len(counts) != HAND_SIZE:
        return _invalid(InvalidPlay.NOT_A_COMBINATION, played, case="thirteen")
    ordered = _desc(played)
    if len({c.suit for c in played}) == 1:
        return _value(Combination.GREEN_DRAGON, (), ordered)
    return _value(Combination.DRAGON, (), ordered)


def _classify_other(played: tuple[Card, ...], counts: Counter[int]) -> Classification:
    """Sizes no combination has (0, 3, 4, 6-12, 14+), naming the near misses the rule book names."""
    shape = sorted(counts.values(), reverse=True)
    if shape == [4]:
        return _invalid(InvalidPlay.FOUR_WITHOUT_KICKER, played)
    if shape == [2, 2]:
        return _invalid(InvalidPlay.TWO_PAIR_NOT_A_COMBINATION, played)
    if len(played) in (3, 4) and shape[0] == 3:
        return _invalid(InvalidPlay.TRIPLE_NOT_A_COMBINATION, played, case="short")
    return _invalid(InvalidPlay.WRONG_CARD_COUNT, played, case="play", count=len(played))


# --------------------------------------------------------------------------------------------------
# Comparison


@dataclass(frozen=True, slots=True)
class Comparison:
    """Whether ``play`` may be put on ``table``, and the one reason why (or why not)."""

    beats: bool
    reason: CompareReason
    table: HandValue | None = None
    play: HandValue | None = None
    violations: tuple[Violation, ...] = ()  # why the table or the play is no combination


def compare(table: Iterable[Card], play: Iterable[Card]) -> Comparison:
    """Does ``play`` beat ``table``? Both must be valid plays without a card in common."""
    table_cards, play_cards = tuple(table), tuple(play)
    on_table, played = classify(table_cards), classify(play_cards)
    if not on_table.valid:
        return Comparison(False, CompareReason.INVALID_TABLE, None, played.hand, on_table.violations)
    if not played.valid:
        return Comparison(False, CompareReason.INVALID_PLAY, on_table.hand, None, played.violations)
    shared = sort_cards(set(table_cards) & set(play_cards))
    if shared:
        both = violation(DOMAIN, CompareReason.DUPLICATE_CARD, shared, case="table_and_play", these=_text(shared))
        return Comparison(False, CompareReason.DUPLICATE_CARD, on_table.hand, played.hand, (both,))
    assert on_table.hand is not None and played.hand is not None
    beats, reason = judge(on_table.hand, played.hand)
    return Comparison(beats, reason, on_table.hand, played.hand)


def judge(table: HandValue, play: HandValue) -> tuple[bool, CompareReason]:
    """The "who beats whom" table of the rule book on two valid plays' values."""
    table_kind, play_kind = Combination(table.category), Combination(play.category)
    if table_kind in _DRAGONS:
        return False, CompareReason.NOTHING_BEATS_DRAGON  # 「任何牌都壓不過它」
    if play_kind in _DRAGONS:
        return True, CompareReason.DRAGON_BEATS_ALL  # 「不受當時桌面牌型的限制」
    if table_kind != play_kind:
        return _across_combinations(table_kind, play_kind)
    for place, (mine, theirs) in enumerate(zip(play.strength[1:], table.strength[1:]), start=1):
        if mine != theirs:
            if mine < theirs:
                return False, CompareReason.LOWER
            return True, _higher_because(play_kind, place)
    return False, CompareReason.EQUAL  # 「比桌面更大」: equal is not bigger


def _across_combinations(table_kind: Combination, play_kind: Combination) -> tuple[bool, CompareReason]:
    table_monster, play_monster = table_kind in _MONSTERS, play_kind in _MONSTERS
    if play_monster and not table_monster:
        return True, CompareReason.MONSTER_BEATS_NORMAL  # 「不受張數限制」
    if table_monster and not play_monster:
        return False, CompareReason.NORMAL_CANNOT_BEAT_MONSTER
    if play_monster:  # two different monsters: 「同花順 ＞ 鐵支」
        if play_kind is Combination.STRAIGHT_FLUSH:
            return True, CompareReason.STRAIGHT_FLUSH_BEATS_QUADS
        return False, CompareReason.QUADS_CANNOT_BEAT_STRAIGHT_FLUSH
    return False, CompareReason.DIFFERENT_COMBINATION  # 「一般牌型只能被同一種牌型壓過」


def _higher_because(kind: Combination, place: int) -> CompareReason:
    if place == 1:
        return CompareReason.HIGHER_SEQUENCE if kind in _SEQUENCED else CompareReason.HIGHER_RANK
    return CompareReason.HIGHER_SUIT


# --------------------------------------------------------------------------------------------------
# One move


@dataclass(frozen=True, slots=True)
class Action:
    """Play some cards or pass; ``seat`` (0-3) only in a whole-game record."""

    type: ActionType
    cards: tuple[Card, ...] = ()
    seat: int | None = None

    def __post_init__(self) -> None:
        # Accept "play"/"pass" and any iterable of cards so callers need not build enums and tuples.
        try:
            object.__setattr__(self, "type", ActionType(self.type))
        except ValueError:
            raise InvalidInputError(problem(DOMAIN, ("type",), ProblemCode.UNKNOWN_ACTION_TYPE, value=quoted(self.type))) from None
        object.__setattr__(self, "cards", tuple(self.cards))

    @classmethod
    def play(cls, cards: Iterable[Card], seat: int | None = None) -> Action:
        return cls(ActionType.PLAY, tuple(cards), seat)

    @classmethod
    def pass_(cls, seat: int | None = None) -> Action:
        return cls(ActionType.PASS, (), seat)


@dataclass(frozen=True, slots=True)
class MoveResult:
    """``hand_after``: the hand left after a legal action, the hand unchanged after an illegal one (Big Two order)."""

    legal: bool
    violations: tuple[Violation, ...]
    hand_after: tuple[Card, ...]
    play: HandValue | None = None  # the value of a legal play
    wins: bool = False  # the play emptied the hand: the game is over


def validate_move(hand: Sequence[Card], table: Sequence[Card] | None, action: Action) -> MoveResult:
    """Is ``action`` legal for a player holding ``hand`` with ``table`` to beat (None when leading)?

    A hand outside 1-13 cards, or a joker anywhere, cannot be judged (InvalidInputError at ``("hand",)``
    or the joker's path); every rule problem of well-formed input is its own Violation.
    """
    held = tuple(hand)
    shown = () if table is None else tuple(table)
    problems = _joker_problems(
        [(("hand", i), c) for i, c in enumerate(held)]
        + [(("table", i), c) for i, c in enumerate(shown)]
        + [(("action", "cards", i), c) for i, c in enumerate(action.cards)]
    )
    if not 1 <= len(held) <= HAND_SIZE:
        problems.insert(0, problem(DOMAIN, ("hand",), ProblemCode.WRONG_CARD_COUNT, case="hand", count=len(held)))
    if problems:
        raise InvalidInputError(problems)
    violations: list[Violation] = []
    on_table: HandValue | None = None
    if table is not None:
        classified = classify(shown)
        on_table = classified.hand
        if on_table is None:
            reasons = [(v.code, v.params) for v in classified.violations]
            violations.append(violation(DOMAIN, MoveViolation.INVALID_TABLE, sort_cards(shown), reasons=reasons))
    violations.extend(_deck_problems(held, shown))
    return _judge_move(sort_cards(held), table is None, on_table, action, violations)


def _deck_problems(held: tuple[Card, ...], table: tuple[Card, ...]) -> list[Violation]:
    """A card held twice, or both held and on the table, is a card more than the deck has."""
    doubled = _doubled(held + table)
    if not doubled:
        return []
    return [violation(DOMAIN, MoveViolation.DUPLICATE_CARD, doubled, case="hand_and_table", these=_text(doubled))]


def _judge_move(held: tuple[Card, ...], leading: bool, on_table: HandValue | None, action: Action, problems: list[Violation]) -> MoveResult:
    """The shared core of validate_move and the replay (``on_table`` None and not leading: no valid table)."""
    if action.type is ActionType.PASS:
        if action.cards:
            problems.append(violation(DOMAIN, MoveViolation.CARDS_WITH_PASS, sort_cards(action.cards)))
        if leading:
            problems.append(violation(DOMAIN, MoveViolation.LEADER_CANNOT_PASS))
        return _result(problems, held, held, None)
    if not action.cards:
        problems.append(violation(DOMAIN, MoveViolation.EMPTY_PLAY))
        return _result(problems, held, held, None)
    chosen = set(action.cards)
    missing = sort_cards(c for c in chosen if c not in held)
    if missing:
        problems.append(violation(DOMAIN, MoveViolation.CARD_NOT_IN_HAND, missing, these=_text(missing)))
    played = classify(action.cards)
    problems.extend(played.violations)
    if played.hand is not None:
        problems.extend(_beating_problems(held, on_table, played))
    left = tuple(c for c in held if c not in chosen)
    return _result(problems, held, left, played.hand)


def _beating_problems(held: tuple[Card, ...], on_table: HandValue | None, played: Classification) -> list[Violation]:
    assert played.hand is not None
    code, reason = _refusal(len(held), on_table, played.hand)
    if code is None:
        return []
    if code is MoveViolation.DRAGON_NEEDS_FULL_HAND:
        return [violation(DOMAIN, code, played.hand.cards)]
    assert on_table is not None and reason is not None
    return [violation(
        DOMAIN, code, played.hand.cards,
        play=played.hand.category, play_cards=_text(played.hand.cards),
        table=on_table.category, table_cards=_text(on_table.cards), reason=reason.value,
    )]  # fmt: skip


def _refusal(held: int, on_table: HandValue | None, play: HandValue) -> tuple[MoveViolation | None, CompareReason | None]:
    """Why a valid play may not go on the table (None, None: it may)."""
    if play.category in _DRAGONS:
        # 「只有在手牌還是完整 13 張時才可能成立」; then 「不受當時桌面牌型的限制」
        return (None, None) if held == HAND_SIZE else (MoveViolation.DRAGON_NEEDS_FULL_HAND, None)
    if on_table is None:
        return None, None
    beats, reason = judge(on_table, play)
    return (None, None) if beats else (_NOT_BEATING[reason], reason)


_NOT_BEATING = {
    CompareReason.LOWER: MoveViolation.NOT_HIGHER,
    CompareReason.EQUAL: MoveViolation.NOT_HIGHER,
    CompareReason.DIFFERENT_COMBINATION: MoveViolation.DIFFERENT_COMBINATION,
    CompareReason.NORMAL_CANNOT_BEAT_MONSTER: MoveViolation.CANNOT_BEAT_MONSTER,
    CompareReason.QUADS_CANNOT_BEAT_STRAIGHT_FLUSH: MoveViolation.CANNOT_BEAT_MONSTER,
    CompareReason.NOTHING_BEATS_DRAGON: MoveViolation.CANNOT_BEAT_DRAGON,
}


def _result(problems: list[Violation], held: tuple[Card, ...], left: tuple[Card, ...], play: HandValue | None) -> MoveResult:
    if problems:  # a move happens whole or not at all: the hand stays as it was
        return MoveResult(False, tuple(problems), held)
    return MoveResult(True, (), left, play, wins=left == ())


def legal_plays(hand: Sequence[Card], table: Sequence[Card] | None = None) -> list[tuple[Card, ...]]:
    """Every legal play (not the pass) from ``hand`` with ``table`` to beat, each in Big Two order.

    The same judgement as validate_move, enumerated by shape rather than by all subsets, so a random
    player can afford it at every turn; a property test checks it against validate_move on all subsets.
    """
    return [cards for cards, _ in legal_play_values(hand, table)]


def legal_play_values(hand: Sequence[Card], table: Sequence[Card] | None = None) -> list[tuple[tuple[Card, ...], HandValue]]:
    """``legal_plays`` with each play's value (classified once, for plays/legal)."""
    held, shown = tuple(hand), () if table is None else tuple(table)
    if any(c.is_joker for c in held + shown) or _deck_problems(held, shown):
        return []  # validate_move would refuse every play (or the input) here
    held = sort_cards(held)
    on_table = None if table is None else classify(shown).hand
    if table is not None and on_table is None:
        return []
    found = []
    # On a single or a pair only the same combination or a monster can go: skip the other shapes.
    only_monsters = on_table is not None and on_table.category in (Combination.SINGLE, Combination.PAIR)
    for candidate in _candidates(held, None if on_table is None else len(on_table.cards), only_monsters):
        play = classify(candidate).hand
        assert play is not None
        if _refusal(len(held), on_table, play)[0] is None:
            found.append((candidate, play))
    return found


def _candidates(held: tuple[Card, ...], size: int | None, only_monsters: bool) -> Iterable[tuple[Card, ...]]:
    """Every valid play in ``held`` of ``size`` cards (all sizes if None), plus monsters and a dragon."""
    by_rank: dict[int, list[Card]] = {}
    for c in held:
        by_rank.setdefault(c.rank, []).append(c)
    if size in (None, 1):
        yield from ((c,) for c in held)
    if size in (None, 2):
        for group in by_rank.values():
            yield from combinations(group, 2)
    if only_monsters:
        yield from _straight_flushes(held)
    else:
        for ranks in STRAIGHTS:
            if all(r in by_rank for r in ranks):
                yield from (sort_cards(pick) for pick in product(*(by_rank[r] for r in ranks)))
        for three, group in by_rank.items():
            for triple in combinations(group, 3):
                for two, pairs in by_rank.items():
                    if two != three:
                        yield from (sort_cards(triple + pair) for pair in combinations(pairs, 2))
    for four, group in by_rank.items():
        if len(group) == 4:
            yield from (sort_cards([*group, c]) for c in held if c.rank != four)
    if len(held) == HAND_SIZE and len(by_rank) == HAND_SIZE:
        yield held


def _straight_flushes(held: tuple[Card, ...]) -> Iterable[tuple[Card, ...]]:
    for suit in Suit:
        of_suit = {c.rank: c for c in held if c.suit is suit}
        if len(of_suit) >= 5:
            for ranks in STRAIGHTS:
                if all(r in of_suit for r in ranks):
                    yield sort_cards(of_suit[r] for r in ranks)


# --------------------------------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True, slots=True)
class Factor:
    """One factor of a multiplier: its code, its value (already raised to its count) and why.

    Its reason is the catalog's text ``factor.<code>`` with ``params`` (the HTTP layer renders it in the
    client's language; ``reason`` is the English text, on demand)."""

    factor: FactorCode
    value: int
    cards: tuple[Card, ...] = ()  # the cards that earn it (the 2s, the 3 of clubs, the monster)
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def reason(self) -> str:
        return messages.render(DOMAIN, f"factor.{self.factor.value}", self.params)


def _factor(code: FactorCode, value: int, cards: tuple[Card, ...] = (), **params: Any) -> Factor:
    return Factor(code, value, cards, params)


@dataclass(frozen=True, slots=True)
class LoserScore:
    seat: int | None  # None from score_game, which knows no seats
    cards: tuple[Card, ...]
    cards_left: int
    multiplier: int  # the loser multiplier: product of ``factors``
    factors: tuple[Factor, ...]
    payment: int  # base x cards left x loser multiplier x winner multiplier
    points: int  # -payment


@dataclass(frozen=True, slots=True)
class WinnerScore:
    seat: int | None
    last_play: HandValue
    grand_slam: bool
    multiplier: int  # the winner multiplier applied to every loser: product of ``factors``
    factors: tuple[Factor, ...]
    points: int  # the sum of the payments


@dataclass(frozen=True, slots=True)
class GameScore:
    base: int
    winner: WinnerScore
    losers: tuple[LoserScore, ...]


def score_game(base: int, last_play: Sequence[Card], grand_slam: bool, losers: Sequence[Sequence[Card]]) -> GameScore:
    """Score a finished game from the winner's last play and the three losers' remaining cards."""
    played = tuple(last_play)
    left = [tuple(cards) for cards in losers]
    problems = _base_problems(base) + _score_problems(played, grand_slam, left)
    if problems:
        raise InvalidInputError(problems)
    finish = classify(played).hand
    assert finish is not None
    return _score(base, finish, grand_slam, None, [(None, cards) for cards in left])


def _base_problems(base: object) -> list[InputProblem]:
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        return [problem(DOMAIN, ("base",), ProblemCode.INVALID_BASE, value=quoted(base))]
    return []


def _joker_problems(located: Sequence[tuple[Path, Card]]) -> list[InputProblem]:
    return [problem(DOMAIN, path, ProblemCode.JOKER_NOT_ALLOWED, case="big_two") for path, c in located if c.is_joker]


def _score_problems(played: tuple[Card, ...], grand_slam: object, left: list[tuple[Card, ...]]) -> list[InputProblem]:
    problems: list[InputProblem] = []
    if not isinstance(grand_slam, bool):
        problems.append(problem(DOMAIN, ("winner", "grand_slam"), ProblemCode.INVALID_GRAND_SLAM))
    located = [(("winner", "last_play", i), c) for i, c in enumerate(played)]
    if len(left) != SEATS - 1:
        problems.append(problem(DOMAIN, ("losers",), ProblemCode.WRONG_PLAYER_COUNT, case="losers", count=len(left)))
    for i, cards in enumerate(left):
        if not 1 <= len(cards) <= HAND_SIZE:
            problems.append(problem(DOMAIN, ("losers", i, "cards"), ProblemCode.WRONG_CARD_COUNT, case="loser", count=len(cards)))
        located += [(("losers", i, "cards", j), c) for j, c in enumerate(cards)]
    problems += _joker_problems(located)
    problems += find_duplicates([(path, c) for path, c in located if not c.is_joker])
    if problems:
        return problems
    finish = classify(played)
    if not finish.valid:
        problems += [v.as_problem("winner", "last_play") for v in finish.violations]
    if grand_slam is True and any(len(cards) != HAND_SIZE for cards in left):
        # 「其餘三家整局一張牌都沒出過」: every loser of a grand slam still holds 13 cards
        problems.append(problem(DOMAIN, ("winner", "grand_slam"), ProblemCode.GRAND_SLAM_IMPOSSIBLE))
    return problems


def _score(base: int, finish: HandValue, grand_slam: bool, winner_seat: int | None, losers: Sequence[tuple[int | None, tuple[Card, ...]]]) -> GameScore:
    winner_factors = winner_multiplier_factors(finish, grand_slam)
    winner_multiplier = _product(winner_factors)
    scored = []
    for seat, cards in losers:
        factors = loser_multiplier_factors(cards)
        multiplier = _product(factors)
        payment = base * len(cards) * multiplier * winner_multiplier
        scored.append(LoserScore(seat, sort_cards(cards), len(cards), multiplier, factors, payment, -payment))
    total = sum(loser.payment for loser in scored)
    winner = WinnerScore(winner_seat, finish, grand_slam, winner_multiplier, winner_factors, total)
    return GameScore(base, winner, tuple(scored))


def _product(factors: Iterable[Factor]) -> int:
    result = 1
    for f in factors:
        result *= f.value
    return result


# 「剩餘張數的級距只取一級」: the first tier whose least count the loser reaches, and only that one.
_CARDS_LEFT_TIERS = ((13, 4, "13"), (10, 3, "10-12"), (8, 2, "8-9"), (0, 1, "0-7"))


def loser_multiplier_factors(cards: Sequence[Card]) -> tuple[Factor, ...]:
    """The loser multiplier's factors: the one cards-left tier (always listed), the 2s, a monster."""
    tier, case = next((tier, case) for least, tier, case in _CARDS_LEFT_TIERS if len(cards) >= least)
    factors = [_factor(FactorCode.CARDS_LEFT_TIER, tier, case=case)]
    twos = sort_cards(c for c in cards if c.rank == 2)
    if twos:
        factors.append(_factor(FactorCode.TWOS_HELD, 2 ** len(twos), twos, count=len(twos)))
    kinds, monster_cards = monsters_left(cards)
    if kinds:
        factors.append(_factor(FactorCode.MONSTER_HELD, 2, monster_cards, kinds=[k.value for k in kinds]))
    return tuple(factors)


def monsters_left(cards: Sequence[Card]) -> tuple[tuple[Combination, ...], tuple[Card, ...]]:
    """Which monsters (and dragons) the cards can still form, and the cards that form them.

    「若剩餘手牌恰好只有四張同點數、沒有第五張可帶，依鐵支的定義不成牌型」: four of a kind counts only
    when there is a fifth card to go with it.
    """
    held = tuple(cards)
    kinds: list[Combination] = []
    involved: set[Card] = set()
    counts = Counter(c.rank for c in held)
    fours = [c for c in held if counts[c.rank] == 4]
    if fours and len(held) >= 5:
        kinds.append(Combination.FOUR_OF_A_KIND)
        involved.update(fours)
    suited = {(c.rank, c.suit) for c in held}
    for suit in Suit:
        for ranks in STRAIGHTS:
            if all((r, suit) in suited for r in ranks):
                if Combination.STRAIGHT_FLUSH not in kinds:
                    kinds.append(Combination.STRAIGHT_FLUSH)
                involved.update(c for c in held if c.suit == suit and c.rank in ranks)
    if len(held) == HAND_SIZE and len(counts) == HAND_SIZE:
        kinds.append(Combination.GREEN_DRAGON if len({c.suit for c in held}) == 1 else Combination.DRAGON)
        involved.update(held)
    return tuple(kinds), sort_cards(involved)


def winner_multiplier_factors(finish: HandValue, grand_slam: bool) -> tuple[Factor, ...]:
    """The winner multiplier's factors, from the last play and whether the game was a grand slam."""
    factors = []
    if grand_slam:
        factors.append(_factor(FactorCode.GRAND_SLAM, 2))
    if THREE_OF_CLUBS in finish.cards:
        factors.append(_factor(FactorCode.THREE_OF_CLUBS_FINISH, 2, (THREE_OF_CLUBS,)))
    twos = sort_cards(c for c in finish.cards if c.rank == 2)
    if twos:
        factors.append(_factor(FactorCode.TWOS_FINISH, 2 ** len(twos), twos, count=len(twos)))
    kind = Combination(finish.category)
    if kind is Combination.GREEN_DRAGON:  # 「以 ×20 取代怪物收尾的 ×2」
        factors.append(_factor(FactorCode.GREEN_DRAGON_FINISH, 20, finish.cards))
    elif kind in _MONSTERS or kind is Combination.DRAGON:
        factors.append(_factor(FactorCode.MONSTER_FINISH, 2, finish.cards, kind=kind.value))
    return tuple(factors)


# --------------------------------------------------------------------------------------------------
# Whole-game replay


@dataclass(frozen=True, slots=True)
class GameState:
    """Where a game stands after the replayed actions."""

    turn: int | None  # the seat to act; None once the game is over
    table: HandValue | None  # the play to beat; None when the seat to act leads
    table_seat: int | None  # who made that play
    passes_in_row: int
    cards_left: tuple[int, ...]  # per seat
    hands: tuple[tuple[Card, ...], ...]  # per seat, Big Two order
    actions_replayed: int  # the legal actions applied


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The verdict on a game record: the first illegal action, the state so far, the score if over."""

    legal: bool
    finished: bool
    violations: tuple[Violation, ...]  # all of the first illegal action's problems, each with its index
    state: GameState  # after the last legal action (the final state of a finished game)
    winner: int | None
    grand_slam: bool | None
    score: GameScore | None
    points: tuple[int, ...] | None  # per seat, summing to 0, once finished


def validate_game(base: int, hands: Sequence[Sequence[Card]], actions: Sequence[Action]) -> GameRecord:
    """Replay a whole game (seat s+1 acts after seat s) and stop at the first illegal action."""
    dealt = [tuple(hand) for hand in hands]
    problems = _base_problems(base) + _deal_problems(dealt) + _action_problems(actions)
    if problems:
        raise InvalidInputError(problems)
    game = _Replay(dealt)
    for index, action in enumerate(actions):
        violations = game.apply(action)
        if violations:
            indexed = tuple(replace(v, index=index) for v in violations)
            return GameRecord(False, game.winner is not None, indexed, game.state(), game.winner, None, None, None)
    if game.winner is None:
        return GameRecord(True, False, (), game.state(), None, None, None, None)
    score = game.score(base)
    points = [0] * SEATS
    points[game.winner] = score.winner.points
    for loser in score.losers:
        assert loser.seat is not None
        points[loser.seat] = loser.points
    return GameRecord(True, True, (), game.state(), game.winner, score.winner.grand_slam, score, tuple(points))


def _deal_problems(dealt: list[tuple[Card, ...]]) -> list[InputProblem]:
    if len(dealt) != SEATS:
        return [problem(DOMAIN, ("hands",), ProblemCode.WRONG_PLAYER_COUNT, case="seats", count=len(dealt))]
    problems = [
        problem(DOMAIN, ("hands", s), ProblemCode.WRONG_CARD_COUNT, case="seat", count=len(hand))
        for s, hand in enumerate(dealt)
        if len(hand) != HAND_SIZE
    ]
    located = [(("hands", s, i), c) for s, hand in enumerate(dealt) for i, c in enumerate(hand)]
    problems += _joker_problems(located)
    # four hands of 13 different cards, none a joker, are exactly the 52-card deck
    return problems + find_duplicates([(path, c) for path, c in located if not c.is_joker])


def _action_problems(actions: Sequence[Action]) -> list[InputProblem]:
    problems: list[InputProblem] = []
    for i, action in enumerate(actions):
        if isinstance(action.seat, bool) or not isinstance(action.seat, int) or not 0 <= action.seat < SEATS:
            problems.append(problem(DOMAIN, ("actions", i, "seat"), ProblemCode.INVALID_SEAT, value=quoted(action.seat)))
        problems += _joker_problems([(("actions", i, "cards", j), c) for j, c in enumerate(action.cards)])
    return problems


class _Replay:
    """The mutable bookkeeping of one replay; only ever seen from outside through ``state``/``score``."""

    def __init__(self, dealt: list[tuple[Card, ...]]):
        self.hands = [sort_cards(hand) for hand in dealt]
        self.turn = next(s for s, hand in enumerate(dealt) if THREE_OF_CLUBS in hand)  # 「持有梅花 3 的玩家先出牌」
        self.table: HandValue | None = None
        self.table_seat: int | None = None
        self.passes = 0
        self.replayed = 0
        self.first_player: int | None = None
        self.players: set[int] = set()  # seats that have played a card
        self.winner: int | None = None
        self.last_play: HandValue | None = None

    def apply(self, action: Action) -> list[Violation]:
        if self.winner is not None:  # 「任何一家出完最後一張牌，該局立即結束」
            return [violation(DOMAIN, MoveViolation.ACTION_AFTER_GAME_END, seat=self.winner)]
        assert action.seat is not None
        if action.seat != self.turn:
            return [violation(DOMAIN, MoveViolation.NOT_YOUR_TURN, seat=self.turn, actual=action.seat)]
        moved = _judge_move(self.hands[action.seat], self.table is None, self.table, action, [])
        if not moved.legal:
            return list(moved.violations)
        self.replayed += 1
        if action.type is ActionType.PLAY:
            self._play(action.seat, moved)
        else:
            self._pass(action.seat)
        return []

    def _play(self, seat: int, moved: MoveResult) -> None:
        assert moved.play is not None
        self.hands[seat] = moved.hand_after
        self.table = moved.play
        self.table_seat = seat
        self.passes = 0
        if self.first_player is None:
            self.first_player = seat
        self.players.add(seat)
        self.turn = (seat + 1) % SEATS  # seat s+1 after seat s: the rule book's counterclockwise
        if moved.wins:
            self.winner, self.last_play = seat, moved.play

    def _pass(self, seat: int) -> None:
        self.passes += 1
        self.turn = (seat + 1) % SEATS
        if self.passes == SEATS - 1:  # 「其餘三家連續都 PASS，這一輪就結束，由最後出牌的那個人重新自由起牌」
            assert self.turn == self.table_seat
            self.table, self.table_seat, self.passes = None, None, 0

    def state(self) -> GameState:
        return GameState(
            turn=None if self.winner is not None else self.turn,
            table=self.table,
            table_seat=self.table_seat,
            passes_in_row=self.passes,
            cards_left=tuple(len(hand) for hand in self.hands),
            hands=tuple(self.hands),
            actions_replayed=self.replayed,
        )

    def score(self, base: int) -> GameScore:
        assert self.winner is not None and self.last_play is not None
        # 「贏家是該局第一個出牌的人，且其餘三家整局一張牌都沒出過」
        grand_slam = self.first_player == self.winner and self.players == {self.winner}
        losers = [(s, self.hands[s]) for s in range(SEATS) if s != self.winner]
        return _score(base, self.last_play, grand_slam, self.winner, losers)


__all__ = [
    "COMBINATION_LABELS",
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
    "LoserScore",
    "MoveResult",
    "MoveViolation",
    "ProblemCode",
    "WinnerScore",
    "big_two_key",
    "big_two_rank",
    "classify",
    "compare",
    "judge",
    "legal_play_values",
    "legal_plays",
    "loser_multiplier_factors",
    "monsters_left",
    "score_game",
    "sort_cards",
    "validate_game",
    "validate_move",
    "winner_multiplier_factors",
]
