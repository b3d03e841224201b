"""Big Two: one move at a table, its legality, and every legal play (tests/big_two/test_moves.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import NamedTuple

from service.rules.big_two.combinations import classify, play_value
from service.rules.big_two.common import (
    _DRAGONS,
    DOMAIN,
    HAND_SIZE,
    PASS,
    ActionType,
    Combination,
    CompareReason,
    MoveViolation,
    ProblemCode,
    _joker_problems,
)
from service.rules.big_two.compare import judge
from service.rules.big_two.rules import TAIWAN, BigTwoRules
from service.rules.cards import JOKER, Card, Suit, card_texts, repeated
from service.rules.errors import InputProblem, InvalidInputError, Violation, problem, quoted, violation
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


def state_problems(rules: BigTwoRules, first_lead: bool | None, passed: bool | None) -> list[InputProblem]:
    """A problem for each state of the turn the table's rules make matter that the question left out (None):
    whether this is the game's first lead (where it must hold the lowest card), whether the player has passed
    in this trick (where a pass locks)."""
    found = []
    if first_lead is None and rules.first_play_has_lowest_card:
        found.append(_state_needed("first_lead", "first_play_has_lowest_card"))
    if passed is None and rules.pass_locks:
        found.append(_state_needed("passed", "pass_locks"))
    return found


def _state_needed(state: str, parameter: str) -> InputProblem:
    return problem(DOMAIN, (state,), ProblemCode.STATE_NEEDED, case=state, parameter=parameter)


def first_lead_problems(
    rules: BigTwoRules, first_lead: bool | None, held: tuple[Card, ...], table: object
) -> list[InputProblem]:
    """Where the table reads it (``first_play_has_lowest_card``), the game's first lead is the holder of the
    lowest card leading from the 13 cards dealt: asked with a table (at ``("table",)``), with fewer cards or
    without that card (at ``("hand",)``), it is a situation no game reaches. Elsewhere ``first_lead`` is read
    as false and nothing about it is refused."""
    if not (first_lead and rules.first_play_has_lowest_card):
        return []
    found = [] if table is None else [problem(DOMAIN, ("table",), ProblemCode.FIRST_LEAD_WITH_TABLE)]
    lowest = rules.ladder.lowest_card
    if len(held) != HAND_SIZE or lowest not in held:
        found.append(problem(DOMAIN, ("hand",), ProblemCode.FIRST_LEAD_HAND, card=lowest.text))
    return found


def validate_move(
    hand: Sequence[Card],
    table: Sequence[Card] | None,
    action: Action,
    rules: BigTwoRules = TAIWAN,
    *,
    first_lead: bool | None = None,
    passed: bool | None = None,
    table_seat: int | None = None,
    seat: int | None = None,
) -> MoveResult:
    """Is ``action`` legal for a player holding ``hand`` with ``table`` to beat (None when leading), at a table
    of ``rules``? ``first_lead``: this is the game's first lead (``rules.first_play_has_lowest_card``);
    ``passed``: the player has passed in this trick (``rules.pass_locks``). Each is needed where the table's
    rules make it matter and read as False elsewhere. ``table_seat``: who made the play on the table; when it
    is the player's own ``seat``, everyone else passed and the player leads again (as in ``list_plays``).

    A hand outside 1-13 cards, a joker anywhere, a first lead no game reaches where the table reads it
    (``first_lead_problems``), or a state the rules need left out cannot be judged (InvalidInputError at
    ``("hand",)``, the joker's path, ``("table",)``, or the state's name); every rule problem of well-formed
    input is its own Violation.
    """
    held = tuple(hand)
    shown = () if table is None else tuple(table)
    problems = []
    if JOKER in held or JOKER in shown or JOKER in action.cards:
        problems += _joker_problems(
            [(("hand", i), c) for i, c in enumerate(held)]
            + [(("table", i), c) for i, c in enumerate(shown)]
            + [(("action", "cards", i), c) for i, c in enumerate(action.cards)]
        )
    if not 1 <= len(held) <= HAND_SIZE:
        problems.insert(0, problem(DOMAIN, ("hand",), ProblemCode.WRONG_CARD_COUNT, case="hand", count=len(held)))
    problems += first_lead_problems(rules, first_lead, held, table)
    problems += state_problems(rules, first_lead, passed)
    if table_seat is not None and seat is None:
        problems.append(problem(DOMAIN, ("seat",), ProblemCode.SEAT_NEEDED))
    if problems:
        raise InvalidInputError(problems)
    violations: list[Violation] = []
    on_table: HandValue | None = None
    if table is not None:
        on_table = play_value(shown, rules)  # a play of the tables: classify's value
        if on_table is None:
            classified = classify(shown, rules)
            on_table = classified.hand
        if on_table is None:
            reasons = [(v.code, v.params) for v in classified.violations]
            violations.append(violation(DOMAIN, MoveViolation.INVALID_TABLE, rules.ladder.sort(shown), reasons=reasons))
    violations.extend(_deck_problems(held, shown, rules))
    turn = (
        Turn(bool(first_lead) and rules.first_play_has_lowest_card, bool(passed) and rules.pass_locks)
        if first_lead or passed
        else _FREE
    )
    if table_seat is not None and table_seat == seat:  # the trick came back to its last player: a new lead
        return _judge_move(rules.ladder.sort(held), True, None, action, violations, rules, turn)
    return _judge_move(rules.ladder.sort(held), table is None, on_table, action, violations, rules, turn)


class Turn(NamedTuple):
    """What a table's rules make a move depend on besides the hand and the table."""

    lowest_card_due: bool = False  # the game's first play, which must contain the lowest card
    locked_out: bool = False  # the player passed in this trick, where a pass locks


_FREE = Turn()


def _deck_problems(held: tuple[Card, ...], table: tuple[Card, ...], rules: BigTwoRules = TAIWAN) -> list[Violation]:
    """A card held twice, or both held and on the table, is a card more than the deck has."""
    if len(set(held).union(table)) == len(held) + len(table):
        return []
    doubled = rules.ladder.sort(repeated(held + table))
    if not doubled:
        return []
    return [
        violation(
            DOMAIN, MoveViolation.DUPLICATE_CARD, doubled, case="hand_and_table", these=" ".join(card_texts(doubled))
        )
    ]


def _judge_move(
    held: tuple[Card, ...],
    leading: bool,
    on_table: HandValue | None,
    action: Action,
    problems: list[Violation],
    rules: BigTwoRules = TAIWAN,
    turn: Turn = _FREE,
) -> MoveResult:
    """The shared core of validate_move and the replay (``on_table`` None and not leading: no valid table)."""
    ladder = rules.ladder
    if action.type is PASS:
        if action.cards:
            problems.append(violation(DOMAIN, MoveViolation.CARDS_WITH_PASS, ladder.sort(action.cards)))
        if leading:
            problems.append(violation(DOMAIN, MoveViolation.LEADER_CANNOT_PASS))
        return _result(problems, held, held, None)
    if not action.cards:
        problems.append(violation(DOMAIN, MoveViolation.EMPTY_PLAY))
        return _result(problems, held, held, None)
    if turn.locked_out:  # a player who passed takes no further part in the trick
        problems.append(violation(DOMAIN, MoveViolation.PASSED_THIS_TRICK))
    chosen = set(action.cards)
    if not chosen.issubset(held):
        missing = ladder.sort(c for c in chosen if c not in held)
        problems.append(violation(DOMAIN, MoveViolation.CARD_NOT_IN_HAND, missing, these=" ".join(card_texts(missing))))
    if turn.lowest_card_due and ladder.lowest_card not in chosen:
        problems.append(violation(DOMAIN, MoveViolation.FIRST_PLAY_WITHOUT_LOWEST_CARD, card=ladder.lowest_card.text))
    play = play_value(action.cards, rules)  # a valid play: its value from the tables
    if play is None:
        played = classify(action.cards, rules)
        problems.extend(played.violations)
        play = played.hand
    if play is not None:
        problems.extend(_beating_problems(held, on_table, play, rules))
    left = tuple([c for c in held if c not in chosen])
    return _result(problems, held, left, play)


def _beating_problems(
    held: tuple[Card, ...], on_table: HandValue | None, play: HandValue, rules: BigTwoRules = TAIWAN
) -> list[Violation]:
    code, reason = _refusal(len(held), on_table, play, rules)
    if code is None:
        return []
    if code is MoveViolation.DRAGON_NEEDS_FULL_HAND:
        return [violation(DOMAIN, code, play.cards)]
    assert on_table is not None and reason is not None
    return [violation(
        DOMAIN, code, play.cards,
        play=play.category, play_cards=" ".join(card_texts(play.cards)),
        table=on_table.category, table_cards=" ".join(card_texts(on_table.cards)), reason=reason.value,
    )]  # fmt: skip  # a table: the code and cards, then the play's parameters and the table's


def _refusal(
    held: int, on_table: HandValue | None, play: HandValue, rules: BigTwoRules = TAIWAN
) -> tuple[MoveViolation | None, CompareReason | None]:
    """Why a valid play may not go on the table (None, None: it may)."""
    if play.category in _DRAGONS:
        # 「只有在手牌還是完整 13 張時才可能成立」; then 「不受當時桌面牌型的限制」
        return (None, None) if held == HAND_SIZE else (MoveViolation.DRAGON_NEEDS_FULL_HAND, None)
    if on_table is None:
        return None, None
    beats, reason = judge(on_table, play, rules)
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


def legal_plays(
    hand: Sequence[Card], table: Sequence[Card] | None = None, rules: BigTwoRules = TAIWAN, turn: Turn = _FREE
) -> list[tuple[Card, ...]]:
    """Every legal play (not the pass) from ``hand`` with ``table`` to beat at a table of ``rules``, each in
    the table's order.

    The same judgement as validate_move, enumerated by shape rather than by all subsets, so a random
    player can afford it at every turn; a property test checks it against validate_move on all subsets.
    """
    return [cards for cards, _ in legal_play_values(hand, table, rules, turn)]


def legal_play_values(
    hand: Sequence[Card], table: Sequence[Card] | None = None, rules: BigTwoRules = TAIWAN, turn: Turn = _FREE
) -> list[tuple[tuple[Card, ...], HandValue]]:
    """``legal_plays`` with each play's value (classified once, for plays/legal)."""
    held, shown = tuple(hand), () if table is None else tuple(table)
    if any(c.is_joker for c in held + shown) or _deck_problems(held, shown, rules) or turn.locked_out:
        return []  # validate_move would refuse every play (or the input) here
    ladder = rules.ladder
    held = ladder.sort(held)
    on_table = None if table is None else classify(shown, rules).hand
    if table is not None and on_table is None:
        return []
    found = []
    for candidate in _candidates(held, None if on_table is None else len(on_table.cards), rules):
        if turn.lowest_card_due and ladder.lowest_card not in candidate:
            continue
        play = classify(candidate, rules).hand
        assert play is not None
        if _refusal(len(held), on_table, play, rules)[0] is None:
            found.append((candidate, play))
    return found


# The plays the enumeration asks for, by module names (an enum class's attribute is a look-up through its
# metaclass, paid on every turn listed).
_SINGLE, _STRAIGHT, _FLUSH, _FULL_HOUSE = (
    Combination.SINGLE,
    Combination.STRAIGHT,
    Combination.FLUSH,
    Combination.FULL_HOUSE,
)
_FOUR_OF_A_KIND, _STRAIGHT_FLUSH, _DRAGON = Combination.FOUR_OF_A_KIND, Combination.STRAIGHT_FLUSH, Combination.DRAGON
_SETS_OF_A_RANK = ((2, Combination.PAIR), (3, Combination.TRIPLE))


def _candidates(held: tuple[Card, ...], size: int | None, rules: BigTwoRules) -> Iterable[tuple[Card, ...]]:
    """Every play in ``held`` the table allows of ``size`` cards (all sizes if None), plus any five-card play
    where a monster may beat it and a dragon: each once, in the table's order."""
    ladder, allowed = rules.ladder, rules.ladder.allowed
    by_rank: dict[int, list[Card]] = {}
    for c in held:
        by_rank.setdefault(c.rank, []).append(c)
    if size in (None, 1) and _SINGLE in allowed:
        yield from ((c,) for c in held)
    for count, kind in _SETS_OF_A_RANK:
        if size in (None, count) and kind in allowed:
            for group in by_rank.values():
                yield from combinations(group, count)
    # on a shorter play only a monster can go
    kinds = allowed if size in (None, 5) else allowed & ladder.monsters
    fives = _five_card_plays(held, by_rank, rules, kinds)
    yield from dict.fromkeys(fives) if _FLUSH in kinds else fives  # a suited run is a flush too: once
    if len(held) == HAND_SIZE and len(by_rank) == HAND_SIZE and _DRAGON in allowed:
        yield held


def _five_card_plays(
    held: tuple[Card, ...], by_rank: dict[int, list[Card]], rules: BigTwoRules, kinds: frozenset[Combination]
) -> Iterable[tuple[Card, ...]]:
    """The five-card plays of ``kinds`` in ``held``: straights (in any suits) and straight flushes,
    flushes, full houses and fours of a kind with a card."""
    ladder = rules.ladder
    if _STRAIGHT in kinds:
        for ranks in rules.straights:  # every run is a play: a straight at least
            if all(r in by_rank for r in ranks):
                yield from (ladder.sort(pick) for pick in product(*(by_rank[r] for r in ranks)))
    elif _STRAIGHT_FLUSH in kinds:
        for suit in Suit:
            of_suit = {c.rank: c for c in held if c.suit is suit}
            if len(of_suit) < 5:  # too few for a straight flush
                continue
            for ranks in rules.straights:
                if all(r in of_suit for r in ranks) and ladder.five_value(pick := tuple(of_suit[r] for r in ranks)):
                    yield ladder.sort(pick)
    if _FLUSH in kinds:
        for suit in Suit:
            yield from (ladder.sort(five) for five in combinations([c for c in held if c.suit is suit], 5))
    if _FULL_HOUSE in kinds:
        for three, group in by_rank.items():
            for triple in combinations(group, 3):
                for two, pairs in by_rank.items():
                    if two != three:
                        yield from (ladder.sort(triple + pair) for pair in combinations(pairs, 2))
    if _FOUR_OF_A_KIND in kinds:
        for four, group in by_rank.items():
            if len(group) == 4:
                yield from (ladder.sort([*group, c]) for c in held if c.rank != four)
