"""Big Two: every legal play of one turn at a table (``plays/legal``), grouped by combination.

The judgement is ``moves.validate_move``'s, enumerated by shape (``moves.legal_plays``) instead of over
all 2^13 subsets of the hand; ``tests/big_two/test_plays_legal.py`` proves both equal on every subset of
many random hands. What this module adds is the turn's situation and the canonical answer:

* The situation: the game's first lead (where the table's first play must hold its lowest card, by that
  card's holder with 13 cards and no table, and only plays holding it; under the house rules 「第一手可以出任何
  合法牌型，不必包含梅花 3」, so nothing but a lead), a lead (no table), or a follow (the last play and, optionally,
  who made it: when the player made it itself, everyone else passed and the player leads again,
  「由最後出牌的那個人重新自由起牌」); where a pass locks, a player who passed has no play left in the trick.
* The order: groups in the ladder's order (single ... green dragon), plays within a group by strength, then
  by their cards in Big Two order (full houses and fours of one rank differ only in their other cards).
  A play is a set of cards, listed once.

Impossible input is refused whole (``InvalidInputError``, HTTP 422): a hand outside 1-13 cards, a joker, a
card twice in the hand or both in the hand and on the table, a table that is no play, a first lead no game
reaches where the table reads it (``moves.first_lead_problems``, as ``moves/validate``), a table's seat
without the player's seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from service.rules.big_two.combinations import classify
from service.rules.big_two.common import (
    DOMAIN,
    HAND_SIZE,
    SEATS,
    Combination,
    ProblemCode,
)
from service.rules.big_two.moves import Turn, first_lead_problems, legal_play_values, state_problems
from service.rules.big_two.rules import TAIWAN, BigTwoRules
from service.rules.cards import Card, find_duplicates
from service.rules.errors import InputProblem, InvalidInputError, problem
from service.rules.hand_value import HandValue


class PlaysProblem(StrEnum):
    """Codes of the impossible situations ``list_plays`` refuses (besides ``common.ProblemCode``'s)."""

    TABLE_NOT_A_PLAY = "table_not_a_play"


@dataclass(frozen=True, slots=True)
class LegalPlay:
    """One legal play: its cards in Big Two order and its value (cards in order of significance)."""

    cards: tuple[Card, ...]
    hand: HandValue
    monster: bool


@dataclass(frozen=True, slots=True)
class PlayGroup:
    combination: Combination
    plays: tuple[LegalPlay, ...]


@dataclass(frozen=True, slots=True)
class PlayList:
    """Every legal play of the turn, grouped; whether the player leads and whether it may pass."""

    leading: bool
    may_pass: bool  # a follower may always pass (「PASS 可以回頭」); a leader never
    table: HandValue | None  # the play to beat; None when leading
    groups: tuple[PlayGroup, ...]  # non-empty groups only, in ladder order

    @property
    def count(self) -> int:
        return sum(len(g.plays) for g in self.groups)

    def plays(self) -> list[LegalPlay]:
        return [p for g in self.groups for p in g.plays]


def list_plays(
    hand: Sequence[Card],
    table: Sequence[Card] | None = None,
    *,
    table_seat: int | None = None,
    seat: int | None = None,
    first_lead: bool | None = None,
    passed: bool | None = None,
    rules: BigTwoRules = TAIWAN,
) -> PlayList:
    """Every legal play from ``hand`` this turn at a table of ``rules``, in canonical order (module docstring).
    ``first_lead``: this is the game's first lead; ``passed``: the player has passed in this trick, which locks
    it out where the table says so. Each is needed where the table's rules make it matter (``state_needed``)
    and read as False elsewhere."""
    held, shown = tuple(hand), () if table is None else tuple(table)
    _check(held, table, shown, table_seat, seat, first_lead, passed, rules)
    on_table = None if table is None else classify(shown, rules).hand
    if on_table is not None and table_seat is not None and table_seat == seat:
        on_table = None  # the trick came back to its last player: a new lead
    # strength's first number is the ladder's rung, so sorting by it orders the groups too
    turn = Turn(bool(first_lead) and rules.first_play_has_lowest_card, bool(passed) and rules.pass_locks)
    found = legal_play_values(held, None if on_table is None else shown, rules, turn)
    key = rules.ladder.key
    found.sort(key=lambda f: (f[1].strength, [key[c] for c in f[0]]))
    groups: dict[str, list[LegalPlay]] = {}
    for cards, value in found:
        kind = value.category
        groups.setdefault(kind, []).append(LegalPlay(cards, value, rules.ladder.kinds[kind][1]))
    leading = on_table is None
    return PlayList(
        leading, not leading, on_table, tuple(PlayGroup(Combination(k), tuple(v)) for k, v in groups.items())
    )


def _check(
    held: tuple[Card, ...],
    table: Sequence[Card] | None,
    shown: tuple[Card, ...],
    table_seat: int | None,
    seat: int | None,
    first_lead: bool | None,
    passed: bool | None,
    rules: BigTwoRules,
) -> None:
    located = [(("hand", i), c) for i, c in enumerate(held)] + [(("table", "cards", i), c) for i, c in enumerate(shown)]
    problems: list[InputProblem] = []
    if not 1 <= len(held) <= HAND_SIZE:
        problems.append(problem(DOMAIN, ("hand",), ProblemCode.WRONG_CARD_COUNT, case="hand", count=len(held)))
    problems += [
        problem(DOMAIN, path, ProblemCode.JOKER_NOT_ALLOWED, case="big_two") for path, c in located if c.is_joker
    ]
    problems += find_duplicates([(path, c) for path, c in located if not c.is_joker])
    problems += state_problems(rules, first_lead, passed)
    for name, value in (("seat", seat), ("table_seat", table_seat)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEATS):
            where = ("seat",) if name == "seat" else ("table", "seat")
            problems.append(problem(DOMAIN, where, ProblemCode.INVALID_SEAT, value=repr(value)))
    if table_seat is not None and seat is None:
        problems.append(problem(DOMAIN, ("seat",), ProblemCode.SEAT_NEEDED))
    problems += first_lead_problems(rules, first_lead, held, table)
    if problems:
        raise InvalidInputError(problems)
    if table is not None:
        classified = classify(shown, rules)
        if not classified.valid:
            reasons = [(v.code, v.params) for v in classified.violations]
            raise InvalidInputError(problem(DOMAIN, ("table", "cards"), PlaysProblem.TABLE_NOT_A_PLAY, reasons=reasons))


__all__ = ["LegalPlay", "PlayGroup", "PlayList", "PlaysProblem", "list_plays"]
