"""Big Two: what some cards are as a play at a table (tests/big_two/test_combinations.py).

The definitions and the tables are the table's ``Ladder`` (``ladder.py``), which its ``BigTwoRules`` builds;
these are the functions every operation calls, the house rules by default."""

from __future__ import annotations

from collections.abc import Iterable

from service.rules.big_two.ladder import Classification
from service.rules.big_two.rules import TAIWAN, BigTwoRules
from service.rules.cards import Card
from service.rules.hand_value import HandValue


def classify(cards: Iterable[Card], rules: BigTwoRules = TAIWAN) -> Classification:
    """Classify a play at a table of ``rules``; the order of ``cards`` never matters."""
    played = tuple(cards)
    hand = play_value(played, rules)
    if hand is not None:
        kind, monster = rules.ladder.kinds[hand.category]
        return Classification(True, kind, monster, hand)
    return rules.ladder.classify(played)


def play_value(played: tuple[Card, ...], rules: BigTwoRules = TAIWAN) -> HandValue | None:
    """``classify(played, rules).hand`` for a single, a pair, a triple or a five-card play; None for anything
    else (no play, or a 13-card play), where ``classify`` answers in full. Equal to ``classify`` on every
    input (tests/big_two/test_ladder.py)."""
    ladder = rules.ladder
    size = len(played)
    if size == 1:
        return ladder.singles.get(played[0])
    if size == 2 or size == 3:
        return ladder.short.get(played)
    if size == 5:
        return ladder.five_value(played)
    return None


def _classify_in_full(played: tuple[Card, ...], rules: BigTwoRules = TAIWAN) -> Classification:
    """``classify`` by the rule book's definitions alone, without the tables (the reference they are proven
    equal to)."""
    return rules.ladder.classify(played)


__all__ = ["Classification", "classify", "play_value"]
