"""Joker Thirteen (鬼牌十三支加一色): whether an arrangement is legal (``arrangements/validate``).

An arrangement is a player's three duns and, optionally, the cards they were chosen from (the deck's deal:
17 in Joker Thirteen, 13 in ordinary 十三支). It is legal when each dun has its size, no card is held beyond
the deck's copies nor placed more often than the hand holds it, and 頭墩 < 中墩 ≦ 尾墩 on the full strength, kickers included (otherwise 相公: an arrangement
that cannot be submitted, never one that is penalised).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from service.rules.cards import Card, by_rank_desc, extra_copies
from service.rules.errors import Path, Violation, violation
from service.rules.hand_value import HandValue
from service.rules.thirteen.duns import (
    _ALL_CARDS,
    _CARD_BITS,
    _CARD_SHIFT,
    _HAND_SHAPE,
    _SUIT_START,
    _TOO_MANY,
    DOMAIN,
    DUNS,
    HEAD,
    JOKER_DECK,
    MIDDLE,
    TAIL,
    Dun,
    ThirteenDeck,
    _lawful_dun,
    _value_if_lawful,
)


class ArrangementViolation(StrEnum):
    """Codes of what ``validate_arrangement`` finds wrong (``Violation.code``); ``score_round`` refuses the
    same problems as impossible input (``InputProblem.code``, HTTP 422)."""

    WRONG_HEAD_SIZE = "wrong_head_size"
    WRONG_MIDDLE_SIZE = "wrong_middle_size"
    WRONG_TAIL_SIZE = "wrong_tail_size"
    WRONG_HAND_SIZE = "wrong_hand_size"
    TOO_MANY_COPIES = "too_many_copies"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CARD_USED_TWICE = "card_used_twice"
    HEAD_NOT_BELOW_MIDDLE = "head_not_below_middle"  # 相公
    MIDDLE_ABOVE_TAIL = "middle_above_tail"  # 相公


# --- arrangements -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Arrangement:
    """One player's three duns and, optionally, the cards they were chosen from (the deck's deal).

    Not frozen: a round builds one per player and its duns are lists, so freezing the fields would not
    make it hashable or its cards immutable, only its constructor slower (``object.__setattr__`` per
    field); nothing keeps an arrangement beyond the call it is given to."""

    head: Sequence[Card]
    middle: Sequence[Card]
    tail: Sequence[Card]
    hand: Sequence[Card] | None = None
    declare: str | None = None  # the special a player declares (報到), at a table where players declare

    def dun(self, dun: Dun | str) -> Sequence[Card]:
        return getattr(self, _DUN_FIELD[dun])  # type: ignore[no-any-return]  # getattr is typed Any: a dun field, by name (no enum built per call)


_DUN_FIELD: dict[str, str] = {d.value: d.value for d in Dun}
"""A dun (or its name) -> the ``Arrangement`` field holding it; a str enum hashes as its value."""


@dataclass(frozen=True, slots=True)
class ArrangementResult:
    legal: bool
    violations: tuple[Violation, ...]
    duns: Mapping[Dun, HandValue] | None  # None when a dun cannot be evaluated (wrong size, impossible copies)
    discarded: tuple[Card, ...] | None  # the hand minus the placed cards, when a hand is given


Located = list[tuple[Path, Violation]]


def _size_violations(arrangement: Arrangement, deck: ThirteenDeck) -> Located:
    found: Located = []
    for dun in DUNS:
        cards = tuple(arrangement.dun(dun))
        if len(cards) != dun.size:
            found.append(
                (
                    (dun.value,),
                    violation(
                        DOMAIN, f"wrong_{dun.value}_size", cards, dun=dun.value, size=dun.size, actual=len(cards)
                    ),
                )
            )
    hand = arrangement.hand
    if hand is not None and len(hand) != deck.hand_size:
        found.append(
            (
                ("hand",),
                violation(
                    DOMAIN, ArrangementViolation.WRONG_HAND_SIZE, tuple(hand), size=deck.hand_size, actual=len(hand)
                ),
            )
        )
    return found


def _copies_fit(arrangement: Arrangement, hand: Sequence[Card] | None, deck: ThirteenDeck) -> bool:
    """Whether no card is beyond the deck's copies and every placed card is in the hand: the answer for
    almost every arrangement, from two counts in C, before any path is built."""
    placed = Counter(arrangement.head)
    placed.update(arrangement.middle)
    placed.update(arrangement.tail)
    copies = deck.copies.get
    if any(n > copies(c, 0) for c, n in placed.items()):
        return False
    if hand is None:
        return True
    held = Counter(hand)
    return all(n <= copies(c, 0) for c, n in held.items()) and all(n <= held[c] for c, n in placed.items())


def _copy_violations(arrangement: Arrangement, deck: ThirteenDeck) -> Located:
    """Cards beyond the deck's copies (in the hand, among the placed cards), placed cards not in the hand."""
    hand = arrangement.hand
    if _copies_fit(arrangement, hand, deck):
        return []
    found: Located = []
    placed = [((dun.value, i), c) for dun in DUNS for i, c in enumerate(arrangement.dun(dun))]
    located_hand = [] if hand is None else [(("hand", i), c) for i, c in enumerate(hand)]
    for path, c, n in extra_copies(located_hand, deck.copies, 0) + extra_copies(placed, deck.copies, 0):
        found.append((path, violation(DOMAIN, ArrangementViolation.TOO_MANY_COPIES, (c,), card=c.text, copies=n)))
    if hand is not None:
        held = Counter(hand)
        for path, c, n in extra_copies(placed, held, 0):
            if n >= deck.copies.get(c, 0):
                continue  # already too_many_copies: the deck itself has no such card to hold
            if n == 0:
                found.append((path, violation(DOMAIN, ArrangementViolation.CARD_NOT_IN_HAND, (c,), card=c.text)))
            else:
                found.append(
                    (path, violation(DOMAIN, ArrangementViolation.CARD_USED_TWICE, (c,), card=c.text, copies=n))
                )
    return found


def _order_violations(duns: Mapping[Dun, HandValue]) -> Located:
    """頭墩 ＜ 中墩 ≦ 尾墩, on the full strength (kickers included): otherwise 相公."""
    head, middle, tail = (duns[d] for d in DUNS)
    found: Located = []
    if head.strength >= middle.strength:
        found.append(
            (("head",), violation(DOMAIN, ArrangementViolation.HEAD_NOT_BELOW_MIDDLE, head.cards + middle.cards))
        )
    if middle.strength > tail.strength:
        found.append(
            (("middle",), violation(DOMAIN, ArrangementViolation.MIDDLE_ABOVE_TAIL, middle.cards + tail.cards))
        )
    return found


def _evaluate_all(arrangement: Arrangement, deck: ThirteenDeck) -> dict[Dun, HandValue] | None:
    head = _value_if_lawful(3, arrangement.head, deck)
    middle = _value_if_lawful(5, arrangement.middle, deck)
    tail = _value_if_lawful(5, arrangement.tail, deck)
    if head is None or middle is None or tail is None:
        return None
    return {HEAD: head, MIDDLE: middle, TAIL: tail}


ORDER_VIOLATIONS = frozenset({ArrangementViolation.HEAD_NOT_BELOW_MIDDLE, ArrangementViolation.MIDDLE_ABOVE_TAIL})
"""The violations of 相公 (duns out of order), which a table may score as a foul rather than refuse."""


def _check(arrangement: Arrangement, deck: ThirteenDeck) -> tuple[Located, dict[Dun, HandValue] | None]:
    found = _size_violations(arrangement, deck) + _copy_violations(arrangement, deck)
    duns = _evaluate_all(arrangement, deck)
    if duns is not None:
        found += _order_violations(duns)
    return found, duns


def _left(hand: Sequence[Card], placed: Sequence[Card]) -> tuple[Card, ...]:
    """``_discarded`` when every placed card is in the hand."""
    left = list(hand)
    for c in placed:
        left.remove(c)
    return tuple(by_rank_desc(left))


def _discarded(arrangement: Arrangement) -> tuple[Card, ...] | None:
    if arrangement.hand is None:
        return None
    left = Counter(arrangement.hand) - Counter(c for dun in DUNS for c in arrangement.dun(dun))
    return tuple(by_rank_desc(left.elements()))


_CARDS_TOO_MANY = _TOO_MANY >> _CARD_SHIFT  # a sum's card fields alone: the bits of "too many"
_CARD_FIELD: list[int] = [1 << (_CARD_BITS * c.index) for c in _ALL_CARDS]  # one card in the card fields


Orders = tuple[int, int, int]
"""A player's head, middle and tail strengths as ``_order`` ints."""


Lawful = tuple[dict[Dun, HandValue], int, Orders, int]
"""A legal arrangement as its duns' sums read it (``_lawful_arrangement``): its duns' values, what the player
holds (the hand when given, else the placed cards) as card fields from their start, the duns' ``_order``s and
the 13 placed cards' shape (``_HAND_SHAPE``: a special hand is read from it). A plain tuple: four a round."""


def _lawful_arrangement(arrangement: Arrangement, deck: ThirteenDeck) -> Lawful | None:
    """A legal arrangement (no violation at all) read from its duns' sums; None when anything may be wrong,
    for ``_check`` to say what.

    The three sums are added less their suit fields' starts: no low field then carries into the card
    fields, so the total's card fields hold each placed card's count and its low fields are the hand's
    shape. The hand's card fields are added from ``_CARD_FIELD`` alone."""
    head, middle, tail = (
        _lawful_dun(3, arrangement.head, deck),
        _lawful_dun(5, arrangement.middle, deck),
        _lawful_dun(5, arrangement.tail, deck),
    )
    if head is None or middle is None or tail is None:
        return None
    head_value, head_order, head_key = head
    middle_value, middle_order, middle_key = middle
    tail_value, tail_order, tail_key = tail
    start = deck.cards_start
    total = head_key + middle_key + tail_key - len(DUNS) * _SUIT_START
    placed = (total >> _CARD_SHIFT) - 2 * start
    if placed & _CARDS_TOO_MANY:
        return None  # a card placed beyond the deck's copies
    holding = placed
    hand = arrangement.hand
    if hand is not None:
        if len(hand) != deck.hand_size:
            return None
        field = _CARD_FIELD
        held = sum([field[c.index] for c in hand])
        holding = start + held
        if holding & _CARDS_TOO_MANY:
            return None  # the hand holds a card beyond the deck's copies
        if (_CARDS_TOO_MANY + held - (placed - start)) & _CARDS_TOO_MANY != _CARDS_TOO_MANY:
            return None  # a card placed more often than the hand holds it: each field 64 + held - placed
    if not head_order < middle_order <= tail_order:
        return None  # 相公
    duns = {HEAD: head_value, MIDDLE: middle_value, TAIL: tail_value}
    return duns, holding, (head_order, middle_order, tail_order), total & _HAND_SHAPE


def validate_arrangement(
    head: Sequence[Card],
    middle: Sequence[Card],
    tail: Sequence[Card],
    hand: Sequence[Card] | None = None,
    deck: ThirteenDeck = JOKER_DECK,
) -> ArrangementResult:
    """Is this arrangement legal, dealt from ``deck``? Every problem is its own violation; well-formed input
    never raises.

    A 相公 arrangement is simply not legal (it cannot be submitted), never penalised.
    """
    arrangement = Arrangement(head, middle, tail, hand)
    lawful = _lawful_arrangement(arrangement, deck)
    if lawful is not None:
        return ArrangementResult(True, (), lawful[0], None if hand is None else _left(hand, (*head, *middle, *tail)))
    found, duns = _check(arrangement, deck)
    violations = tuple(v for _, v in found)
    return ArrangementResult(not violations, violations, duns, _discarded(arrangement))
