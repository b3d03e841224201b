"""Open-Face Chinese Poker (大菠蘿 and 明牌十三張): rows, royalties, the board and one move onto it.

A row's hand value and royalty (``rows/evaluate``, ``rows/compare``), a complete board's foul check
(bottom >= middle >= top), royalties and Fantasyland entry or stay (``boards/evaluate``), and whether one
move is legal (``moves/validate``). Every operation takes the rule set (``rules.OfcRules``) as an argument.
Terms follow the rule book: row (道), foul (爆牌), royalty (獎分), scoop (全贏), Fantasyland (范特西).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from service.rules.cards import Card, find_duplicates, repeated
from service.rules.errors import InputProblem, InvalidInputError, Path, Violation, problem, violation
from service.rules.hand_value import HandValue
from service.rules.ofc.rules import HOUSE, OfcRules, Row
from service.rules.poker import Ranking, value_if_distinct

# The house rules' parameters under their old names; every operation takes ``rules`` (rules.OfcRules).
PLAYERS = HOUSE.players[1]
FANTASYLAND_SIZES = HOUSE.fantasyland_sizes
BOARD_SIZE = HOUSE.board_size
DOMAIN = "ofc-pineapple"  # the catalog domain of both OFC games' texts (ofc/messages.json)


class MoveViolation(StrEnum):
    """Codes of the rule breaks ``validate_move`` and ``validate_hand`` answer (``Violation.code``)."""

    BOARD_NOT_AT_ROUND = "board_not_at_round"
    WRONG_DEAL_SIZE = "wrong_deal_size"
    DUPLICATE_ON_BOARD = "duplicate_on_board"
    DUPLICATE_IN_DEAL = "duplicate_in_deal"
    CARD_ALREADY_ON_BOARD = "card_already_on_board"
    CARD_SEEN_ELSEWHERE = "card_seen_elsewhere"
    CARD_USED_TWICE = "card_used_twice"
    CARD_NOT_DEALT = "card_not_dealt"
    WRONG_PLACEMENT_SIZE = "wrong_placement_size"
    WRONG_DISCARD_SIZE = "wrong_discard_size"
    ROW_OVERFLOW = "row_overflow"
    # whole hand records only
    RECORD_INCOMPLETE = "record_incomplete"
    ACTION_AFTER_HAND_END = "action_after_hand_end"
    OUT_OF_TURN = "out_of_turn"
    CARD_DEALT_TWICE = "card_dealt_twice"


class ProblemCode(StrEnum):
    """Codes of the impossible input the game's operations refuse (``InputProblem.code``, HTTP 422), besides the
    card notation's (``cards.NotationProblem``)."""

    WRONG_ROW_SIZE = "wrong_row_size"
    FANTASYLAND_CARDS = "fantasyland_cards"
    WRONG_PLAYER_COUNT = "wrong_player_count"
    BAD_SEAT = "bad_seat"
    INVALID_ROUND = "invalid_round"


TOP, MIDDLE, BOTTOM = Row.TOP, Row.MIDDLE, Row.BOTTOM  # plain names: Enum class attributes are slow to read
ROWS = (TOP, MIDDLE, BOTTOM)

# --- royalties (獎分表) -------------------------------------------------------------------------------


def royalty(row: Row, hand: HandValue | Ranking, rules: OfcRules = HOUSE) -> int:
    """The row's royalty by the rule set's table; earned whether the row wins or not (not if fouled)."""
    return rules.royalty_by_row[row][hand.strength]


# --- rows --------------------------------------------------------------------------------------------


class RowValue(NamedTuple):
    """A row's hand and royalty (a NamedTuple: built for every row evaluated, so it must be cheap). ``hand``
    is a full ``HandValue``, or in a showdown asked for categories only (``score_hand(cards=False)``) the
    table's ``poker.Ranking``: the same ``category`` and ``strength``, without the cards in order."""

    hand: HandValue | Ranking
    royalty: int


def _row_problem(row: Row, hand: Sequence[Card], path: Path) -> InvalidInputError:
    """Why ``hand`` cannot be valued as ``row``: a wrong size, or the first copy of each repeated card."""
    if len(hand) != row.size:
        return InvalidInputError(
            problem(DOMAIN, path, ProblemCode.WRONG_ROW_SIZE, row=row.value, size=row.size, actual=len(hand))
        )
    return InvalidInputError(find_duplicates([(path + (i,), c) for i, c in enumerate(hand)]))


_ROW_SIZE = {TOP: 3, MIDDLE: 5, BOTTOM: 5}


def evaluate_row(row: Row, hand: Sequence[Card], path: Path = ("cards",), rules: OfcRules = HOUSE) -> RowValue:
    """A complete row's hand value and royalty (``InvalidInputError`` for a wrong size or a duplicate)."""
    value = value_if_distinct(hand) if len(hand) == _ROW_SIZE[row] else None
    if value is None:
        raise _row_problem(row, hand, path)
    return RowValue(value, royalty(row, value, rules))


def compare_rows(
    row: Row, a: Sequence[Card], b: Sequence[Card], rules: OfcRules = HOUSE
) -> tuple[str, RowValue, RowValue]:
    """Which of two hands wins a row (``"a"``, ``"b"`` or ``"tie"``). The two may share cards: they are
    alternatives being weighed, not two boards on one table."""
    value_a = evaluate_row(row, a, ("a",), rules)
    value_b = evaluate_row(row, b, ("b",), rules)
    return _row_winner(value_a.hand.strength, value_b.hand.strength), value_a, value_b


def _row_winner(a: tuple[int, ...], b: tuple[int, ...]) -> str:
    return "a" if a > b else "b" if b > a else "tie"


# --- boards, fouls, Fantasyland -----------------------------------------------------------------------


class Board(NamedTuple):
    """A player's three rows; complete when they hold 3/5/5 cards. A NamedTuple, immutable and hashed by its
    rows: every request of a board builds one, and a NamedTuple is the cheapest immutable value to build."""

    top: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    bottom: tuple[Card, ...] = ()

    def row(self, row: Row) -> tuple[Card, ...]:
        return getattr(self, row)  # type: ignore[no-any-return]  # getattr is typed Any: one of the three tuple fields

    def cards(self) -> list[Card]:
        return [*self.top, *self.middle, *self.bottom]

    @property
    def complete(self) -> bool:
        return all(len(self.row(r)) == r.size for r in ROWS)

    def placed(self, placement: Mapping[Row, Sequence[Card]]) -> Board:
        """This board with ``placement``'s cards added to their rows."""
        return Board(
            self.top + tuple(placement.get(TOP, ())),
            self.middle + tuple(placement.get(MIDDLE, ())),
            self.bottom + tuple(placement.get(BOTTOM, ())),
        )

    @classmethod
    def of(cls, rows: Mapping[str, Sequence[Card]]) -> Board:
        return cls(*(tuple(rows.get(r.value, ())) for r in ROWS))


class Fantasyland(NamedTuple):
    """A player's Fantasyland state for this hand: ``active`` with ``cards`` 14-17 dealt, or not (a NamedTuple,
    as ``Board``: hashed at C speed where a record's seating keys the turn plan)."""

    active: bool = False
    cards: int | None = None


class FantasylandNext(NamedTuple):
    """Whether the player plays the next hand in Fantasyland, with how many cards, and why."""

    qualifies: bool
    cards: int | None
    reason: str | None


class FoulReason(StrEnum):
    TOP_ABOVE_MIDDLE = "top_above_middle"
    MIDDLE_ABOVE_BOTTOM = "middle_above_bottom"


class BoardValue(NamedTuple):
    rows: dict[Row, RowValue]
    fouled: bool
    foul_reasons: tuple[FoulReason, ...]
    royalties: int
    fantasyland_next: FantasylandNext


def foul_reasons(
    top: HandValue | Ranking, middle: HandValue | Ranking, bottom: HandValue | Ranking
) -> tuple[FoulReason, ...]:
    """Why bottom >= middle >= top fails, if it does. Equal strength is not a foul (規則是「大於或等於」);
    top vs middle compares category, main rank, then kickers, a kicker the top lacks counting as smallest
    (a shorter strength tuple that is a prefix of the longer one is smaller)."""
    reasons = []
    if top.strength > middle.strength:
        reasons.append(FoulReason.TOP_ABOVE_MIDDLE)
    if middle.strength > bottom.strength:
        reasons.append(FoulReason.MIDDLE_ABOVE_BOTTOM)
    return tuple(reasons)


def fantasyland_next(
    rows: Mapping[Row, RowValue], fouled: bool, current: Fantasyland, rules: OfcRules = HOUSE
) -> FantasylandNext:
    """Entry from a normal hand (the rule set's entry table: in the house rules top QQ/KK/AA/trips without
    fouling give 14/15/16/17 cards) or staying from a Fantasyland hand (no foul and one of the rule set's stay
    conditions: in the house rules top trips or bottom quads-or-better), with the rule set's stay count:
    Ultimate Fantasyland keeps the entry count, never upgrading nor downgrading (the mid-Fantasyland upgrade
    ruling was overturned); Progressive and standard stay with 14."""
    if fouled:
        return _FOULED if current.active else _NOT_NEXT
    if current.active:
        for row, rung, reason in rules.stay_rungs:
            if rows[row].hand.strength[0] >= rung:
                cards = rules.fantasyland_stay_cards or current.cards
                return FantasylandNext(True, cards, reason)
        return _NOT_NEXT
    entry = rules.entry_by_strength.get(rows[TOP].hand.strength)
    if entry is not None:
        return FantasylandNext(True, entry[0], entry[1])
    return _NOT_NEXT


_NOT_NEXT = FantasylandNext(False, None, None)  # shared: NamedTuples are immutable
_FOULED = FantasylandNext(False, None, "fouled")


def check_fantasyland(fantasyland: Fantasyland, path: Path, rules: OfcRules = HOUSE) -> None:
    if fantasyland.active and fantasyland.cards not in rules.fantasyland_sizes:
        raise InvalidInputError(problem(DOMAIN, path + ("cards",), ProblemCode.FANTASYLAND_CARDS, **_sizes_case(rules)))
    if not fantasyland.active and fantasyland.cards is not None:
        raise InvalidInputError(problem(DOMAIN, path + ("cards",), ProblemCode.FANTASYLAND_CARDS, case="inactive"))


def _sizes_case(rules: OfcRules) -> dict[str, object]:
    """The text naming the Fantasyland card counts a rule set deals (the house text names 14-17)."""
    sizes = rules.fantasyland_sizes
    if not sizes:
        return {"case": "none", "rule_set": rules.id}
    if sizes == FANTASYLAND_SIZES:
        return {"case": "active"}
    return {"case": "sizes", "sizes": ", ".join(map(str, sizes))}


def check_board(board: Board, path: Path) -> None:
    """A complete board with no card twice, else ``InvalidInputError`` pointing into ``path``."""
    top, middle, bottom = board.top, board.middle, board.bottom
    if len(top) == 3 and len(middle) == 5 and len(bottom) == 5 and len(set(top + middle + bottom)) == BOARD_SIZE:
        return  # the common, valid case, checked cheaply
    problems: list[InputProblem] = []
    for r in ROWS:
        if len(board.row(r)) != r.size:
            problems.append(
                problem(
                    DOMAIN,
                    path + (r.value,),
                    ProblemCode.WRONG_ROW_SIZE,
                    row=r.value,
                    size=r.size,
                    actual=len(board.row(r)),
                )
            )
    problems += find_duplicates([(path + (r.value, i), c) for r in ROWS for i, c in enumerate(board.row(r))])
    if problems:
        raise InvalidInputError(problems)


def evaluate_board(
    board: Board, fantasyland: Fantasyland = Fantasyland(), path: Path = (), rules: OfcRules = HOUSE
) -> BoardValue:
    """A complete board's rows, foul, royalties (0 when fouled) and next-hand Fantasyland status.

    ``path`` locates the object holding ``board`` and ``fantasyland`` in the request, for errors."""
    check_board(board, path + ("board",))
    check_fantasyland(fantasyland, path + ("fantasyland",), rules)
    return _board_value(*_row_values(board, value_if_distinct), fantasyland, rules)


Valuer = Callable[[Sequence[Card]], HandValue | Ranking | None]
"""How a row's cards are valued: ``poker.value_if_distinct`` (the full hand) or ``poker.ranking_if_distinct``
(category and strength only)."""


def _row_values(board: Board, value_of: Valuer) -> tuple[HandValue | Ranking, HandValue | Ranking, HandValue | Ranking]:
    """The values of a board's top, middle and bottom rows, the board known complete, its cards distinct."""
    top, middle, bottom = value_of(board.top), value_of(board.middle), value_of(board.bottom)
    if top is None or middle is None or bottom is None:  # never, for a board the caller checked
        raise ValueError(f"a card repeats on {board}")
    return top, middle, bottom


def _board_value(
    top: HandValue | Ranking,
    middle: HandValue | Ranking,
    bottom: HandValue | Ranking,
    fantasyland: Fantasyland,
    rules: OfcRules,
) -> BoardValue:
    """``evaluate_board`` of a board's rows' values, its Fantasyland state known valid: every board is valued
    here, its rows valued as full hands or as the table's rankings."""
    reasons = foul_reasons(top, middle, bottom)
    if reasons:  # a fouler's royalties are zero (爆牌者自己的獎分全部歸零), so each row reports 0 too
        rows = {TOP: RowValue(top, 0), MIDDLE: RowValue(middle, 0), BOTTOM: RowValue(bottom, 0)}
    else:
        rows = {
            TOP: _row_value(TOP, top, rules),
            MIDDLE: _row_value(MIDDLE, middle, rules),
            BOTTOM: _row_value(BOTTOM, bottom, rules),
        }
    fouled = bool(reasons)
    royalties = rows[TOP].royalty + rows[MIDDLE].royalty + rows[BOTTOM].royalty
    return BoardValue(rows, fouled, reasons, royalties, fantasyland_next(rows, fouled, fantasyland, rules))


def _row_value(row: Row, hand: HandValue | Ranking, rules: OfcRules) -> RowValue:
    """A row of a board that did not foul: ``hand`` and its royalty. A row valued as the table's ranking
    (``poker.Ranking``) has the same value every time, so the rule set keeps it (``OfcRules.ranked_rows``),
    made on first use."""
    cache = rules.ranked_rows
    if cache is None or type(hand) is not Ranking:
        return RowValue(hand, royalty(row, hand, rules))
    kept = cache[_ROW_INDEX[row]]
    value = kept.get(hand.strength)
    if value is None:
        value = kept[hand.strength] = RowValue(hand, royalty(row, hand, rules))
    return value


_ROW_INDEX = {row: index for index, row in enumerate(ROWS)}  # a row's place in ``OfcRules.ranked_rows``


# --- moves -------------------------------------------------------------------------------------------

FANTASYLAND_ROUND = "fantasyland"
Round = int | str  # 1 to the rule set's number of rounds, or "fantasyland"


@dataclass(frozen=True, slots=True)
class MoveResult:
    legal: bool
    violations: tuple[Violation, ...]
    board: Board  # after the move when legal; the board as given when not


def _expected_sizes(round_: Round, dealt: int, rules: OfcRules) -> tuple[int | None, int, int, int]:
    """(cards dealt, cards placed, cards discarded, cards on the board before) for a round."""
    if round_ == FANTASYLAND_ROUND and rules.fantasyland_sizes:
        return (dealt if dealt in rules.fantasyland_sizes else None), rules.board_size, dealt - rules.board_size, 0
    if type(round_) is not int or not 1 <= round_ <= rules.rounds:
        raise InvalidInputError(problem(DOMAIN, ("round",), ProblemCode.INVALID_ROUND, **round_case(rules)))
    deal = rules.deals[round_ - 1]
    return deal.dealt, deal.placed, deal.dealt - deal.placed, rules.before_round[round_ - 1]


def round_case(rules: OfcRules) -> dict[str, object]:
    """The text naming the rounds a rule set has (the house text names 1-5 and "fantasyland")."""
    if rules.rounds == HOUSE.rounds and rules.has_fantasyland:
        return {"case": "five_and_fantasyland"}
    return {"case": "rounds", "rounds": rules.rounds}


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
    deal_size, place_size, discard_size, board_before = _expected_sizes(round_, len(dealt), rules)
    on_board = board.cards()
    held = set(on_board)
    placed_rows = placement.get(TOP, ()), placement.get(MIDDLE, ()), placement.get(BOTTOM, ())
    if (  # the board at the round, its cards distinct and none seen elsewhere, and the action plainly legal
        deal_size is not None
        and len(on_board) == len(held) == board_before
        and held.isdisjoint(seen)
        and _plainly_legal(board, dealt, placed_rows, discard, deal_size, place_size, held.union(seen))
    ):
        return MoveResult(True, (), board.placed(placement))
    v: list[Violation] = []
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


def _plainly_legal(
    rows: Sequence[Sequence[Card]],
    dealt: Sequence[Card],
    placed: Sequence[Sequence[Card]],
    discard: Sequence[Card],
    dealt_count: int,
    placed_count: int,
    taken: set[Card],
) -> bool:
    """Whether an action on a board whose top, middle and bottom are ``rows`` is plainly legal: ``dealt_count``
    cards dealt, distinct and none of them ``taken`` (on a board or seen), each either placed (``placed``: the
    cards put in top, middle and bottom, ``placed_count`` in all, no row overflowing) or discarded, exactly
    once. True only when the full check (``validate_move``'s, ``_action_problems``) would find no violation;
    False when unsure, and the full check then names every violation (or finds none)."""
    on_top, on_middle, on_bottom = rows
    top, middle, bottom = placed
    if (
        len(dealt) != dealt_count
        or len(discard) != dealt_count - placed_count
        or len(top) + len(middle) + len(bottom) != placed_count
        or len(on_top) + len(top) > 3
        or len(on_middle) + len(middle) > 5
        or len(on_bottom) + len(bottom) > 5
    ):
        return False
    dealt_set = set(dealt)
    # placed and discarded together are as many as dealt (the counts above): the same set as the deal means
    # each dealt card used exactly once
    return (
        len(dealt_set) == dealt_count
        and dealt_set.isdisjoint(taken)
        and dealt_set == {*top, *middle, *bottom, *discard}
    )


def _sizes_text(sizes: Sequence[int]) -> str:
    """``14-17`` or ``14``: the Fantasyland deal sizes a rule set allows."""
    return str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}"


def _distinct(hand: Sequence[Card]) -> tuple[Card, ...]:
    """The cards a violation names, each once, in the order first met."""
    return tuple(dict.fromkeys(hand))


def _duplicates(code: MoveViolation, hand: Sequence[Card]) -> list[Violation]:
    twice = sorted(repeated(hand), key=lambda c: c.index)
    return [violation(DOMAIN, code, (c,), card=c.text) for c in twice]
