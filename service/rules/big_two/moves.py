"""Taiwanese Big Two: one move, its legality, and every legal play (tests/big_two/test_moves.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from service.rules.big_two.combinations import classify, play_value
from service.rules.big_two.common import (
    _DRAGONS,
    DOMAIN,
    HAND_SIZE,
    PASS,
    STRAIGHTS,
    ActionType,
    Combination,
    CompareReason,
    MoveViolation,
    ProblemCode,
    _joker_problems,
    sort_cards,
)
from service.rules.big_two.compare import judge
from service.rules.cards import JOKER, Card, Suit, card_texts, repeated
from service.rules.errors import InvalidInputError, Violation, problem, quoted, violation
from service.rules.hand_value import HandValue


@dataclass(slots=True)
class Action:
    """Play some cards or pass; ``seat`` (0-3) only in a whole-game record.

    The constructor takes its fields as typed (an ``ActionType``, a tuple of cards) and checks nothing, as a
    record builds one per entry; ``Action.of`` takes a type's text and any iterable of cards. Not frozen: a
    frozen dataclass's constructor sets each field through ``object.__setattr__``, several times the cost of
    a plain one, and nothing keeps an action beyond the call it is given to."""

    type: ActionType
    cards: tuple[Card, ...] = ()
    seat: int | None = None

    @classmethod
    def of(cls, type: ActionType | str, cards: Iterable[Card] = (), seat: int | None = None) -> Action:
        """An action from a type's text ("play"/"pass") or member and any iterable of cards; an unknown type
        is invalid input."""
        try:
            kind = ActionType(type)
        except ValueError:
            raise InvalidInputError(
                problem(DOMAIN, ("type",), ProblemCode.UNKNOWN_ACTION_TYPE, value=quoted(type))
            ) from None
        return cls(kind, tuple(cards), seat)

    @classmethod
    def play(cls, cards: Iterable[Card], seat: int | None = None) -> Action:
        return cls(ActionType.PLAY, tuple(cards), seat)

    @classmethod
    def pass_(cls, seat: int | None = None) -> Action:
        return cls(ActionType.PASS, (), seat)


@dataclass(slots=True)
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
    problems = []
    if JOKER in held or JOKER in shown or JOKER in action.cards:
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
        on_table = play_value(shown)  # a single, pair or five-card play: classify's value, from its tables
        if on_table is None:
            classified = classify(shown)
            on_table = classified.hand
        if on_table is None:
            reasons = [(v.code, v.params) for v in classified.violations]
            violations.append(violation(DOMAIN, MoveViolation.INVALID_TABLE, sort_cards(shown), reasons=reasons))
    violations.extend(_deck_problems(held, shown))
    return _judge_move(sort_cards(held), table is None, on_table, action, violations)


def _deck_problems(held: tuple[Card, ...], table: tuple[Card, ...]) -> list[Violation]:
    """A card held twice, or both held and on the table, is a card more than the deck has."""
    if len(set(held).union(table)) == len(held) + len(table):
        return []
    doubled = sort_cards(repeated(held + table))
    if not doubled:
        return []
    return [
        violation(
            DOMAIN, MoveViolation.DUPLICATE_CARD, doubled, case="hand_and_table", these=" ".join(card_texts(doubled))
        )
    ]


def _judge_move(
    held: tuple[Card, ...], leading: bool, on_table: HandValue | None, action: Action, problems: list[Violation]
) -> MoveResult:
    """The shared core of validate_move and the replay (``on_table`` None and not leading: no valid table)."""
    if action.type is PASS:
        if action.cards:
            problems.append(violation(DOMAIN, MoveViolation.CARDS_WITH_PASS, sort_cards(action.cards)))
        if leading:
            problems.append(violation(DOMAIN, MoveViolation.LEADER_CANNOT_PASS))
        return _result(problems, held, held, None)
    if not action.cards:
        problems.append(violation(DOMAIN, MoveViolation.EMPTY_PLAY))
        return _result(problems, held, held, None)
    chosen = set(action.cards)
    if not chosen.issubset(held):
        missing = sort_cards(c for c in chosen if c not in held)
        problems.append(violation(DOMAIN, MoveViolation.CARD_NOT_IN_HAND, missing, these=" ".join(card_texts(missing))))
    play = play_value(action.cards)  # a single, pair or five-card play: valid, its value from the tables
    if play is None:
        played = classify(action.cards)
        problems.extend(played.violations)
        play = played.hand
    if play is not None:
        problems.extend(_beating_problems(held, on_table, play))
    left = tuple([c for c in held if c not in chosen])
    return _result(problems, held, left, play)


def _beating_problems(held: tuple[Card, ...], on_table: HandValue | None, play: HandValue) -> list[Violation]:
    code, reason = _refusal(len(held), on_table, play)
    if code is None:
        return []
    if code is MoveViolation.DRAGON_NEEDS_FULL_HAND:
        return [violation(DOMAIN, code, play.cards)]
    assert on_table is not None and reason is not None
    return [violation(
        DOMAIN, code, play.cards,
        play=play.category, play_cards=" ".join(card_texts(play.cards)),
        table=on_table.category, table_cards=" ".join(card_texts(on_table.cards)), reason=reason.value,
    )]  # fmt: skip  # the code and cards, then the parameters of each play


def _refusal(
    held: int, on_table: HandValue | None, play: HandValue
) -> tuple[MoveViolation | None, CompareReason | None]:
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
    CompareReason.LOWER_COMBINATION: MoveViolation.NOT_HIGHER,
    CompareReason.DIFFERENT_COMBINATION: MoveViolation.DIFFERENT_COMBINATION,
    CompareReason.NORMAL_CANNOT_BEAT_MONSTER: MoveViolation.CANNOT_BEAT_MONSTER,
    CompareReason.QUADS_CANNOT_BEAT_STRAIGHT_FLUSH: MoveViolation.CANNOT_BEAT_MONSTER,
    CompareReason.NOTHING_BEATS_DRAGON: MoveViolation.CANNOT_BEAT_DRAGON,
}


def _result(
    problems: list[Violation], held: tuple[Card, ...], left: tuple[Card, ...], play: HandValue | None
) -> MoveResult:
    if problems:  # a move happens whole or not at all: the hand stays as it was
        return MoveResult(False, tuple(problems), held)
    return MoveResult(True, (), left, play, left == ())


def legal_plays(hand: Sequence[Card], table: Sequence[Card] | None = None) -> list[tuple[Card, ...]]:
    """Every legal play (not the pass) from ``hand`` with ``table`` to beat, each in Big Two order.

    The same judgement as validate_move, enumerated by shape rather than by all subsets, so a random
    player can afford it at every turn; a property test checks it against validate_move on all subsets.
    """
    return [cards for cards, _ in legal_play_values(hand, table)]


def legal_play_values(
    hand: Sequence[Card], table: Sequence[Card] | None = None
) -> list[tuple[tuple[Card, ...], HandValue]]:
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
