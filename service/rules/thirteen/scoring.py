"""The Thirteen games' round score (``rounds/score``): 打槍 + 全壘打 + 額外加分 in 道, the four players'
totals summing to 0, under a rule set (``ThirteenRules``: Joker Thirteen's ``GSCAS``, ordinary 十三支's
``ORDINARY``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from service.rules.cards import Card, duplicate_card, find_duplicates
from service.rules.errors import InputProblem, InvalidInputError, Path, Violation, problem
from service.rules.hand_value import HandValue
from service.rules.thirteen.arrangements import (
    _CARDS_TOO_MANY,
    Arrangement,
    ArrangementViolation,
    Orders,
    _check,
    _lawful_arrangement,
)
from service.rules.thirteen.duns import _RUNG_SHIFT, DOMAIN, DUNS, HEAD, MIDDLE, TAIL, Dun, ThirteenDeck, _order
from service.rules.thirteen.rules import GSCAS, PLAYERS, ProblemCode, ThirteenRules

# --- the round score ----------------------------------------------------------------------------------


class Matchup(NamedTuple):
    """Players ``a`` < ``b`` compared dun by dun, from ``a``'s side (a NamedTuple: six per scored round).

    ``points_a`` is a's net from this pair without home runs: shot (+1 a shot b, -1 b shot a, 0 both or
    neither) + ``bonus_a`` - ``bonus_b``. A player's total is the sum of its matchups' points (negated on
    the ``b`` side) plus its net home-run points.
    """

    a: int
    b: int
    duns: Mapping[str, str]  # by dun (its name: a str enum looks it up too): "a" / "b" / "tie"
    shot: str | None  # "a", "b", "both" (every dun tied: mutual shots cancel) or None
    bonus_a: int
    bonus_b: int
    points_a: int


class PlayerScore(NamedTuple):
    seat: int
    total: int
    shots: int  # net 打槍 points
    home_run: int  # net 全壘打 points
    bonus: int  # net 額外加分 points
    duns: Mapping[Dun, HandValue]


@dataclass(slots=True)
class RoundScore:
    players: tuple[PlayerScore, ...]
    matchups: tuple[Matchup, ...]


def _table_duplicates(players: Sequence[Arrangement], deck: ThirteenDeck) -> list[InputProblem]:
    """Cards beyond the deck's copies across the table. A player's cards are its hand when given (the
    placed cards are inside it, already checked against it), else its placed cards."""
    held: Counter[Card] = Counter()
    for arrangement in players:
        if arrangement.hand is not None:
            held.update(arrangement.hand)
        else:
            held.update(arrangement.head)
            held.update(arrangement.middle)
            held.update(arrangement.tail)
    copies = deck.copies.get
    if all(n <= copies(c, 0) for c, n in held.items()):
        return []  # the usual answer, counted in C; the paths are built only for a problem to report
    located = [
        (("players", seat, *path), c) for seat, arrangement in enumerate(players) for path, c in _holding(arrangement)
    ]
    return find_duplicates(located, copies=deck.copies, default_copies=0)


def _refused(v: Violation, deck: ThirteenDeck, *path: str | int) -> InputProblem:
    """A player's violation as the reason the round cannot be scored. In a deck of distinct cards, a card
    beyond its copies is a card listed twice: the card notation's ``duplicate_card``, as every game of one
    52-card deck says it; a deck holding copies names the copies (``too_many_copies``)."""
    if deck.distinct and v.code == ArrangementViolation.TOO_MANY_COPIES:
        (c,) = v.cards
        return duplicate_card(path, c, v.params["copies"])
    return v.as_problem(*path)


def _holding(arrangement: Arrangement) -> list[tuple[Path, Card]]:
    if arrangement.hand is not None:
        return [(("hand", i), c) for i, c in enumerate(arrangement.hand)]
    return [((dun.value, i), c) for dun in DUNS for i, c in enumerate(arrangement.dun(dun))]


def score_round(players: Sequence[Arrangement], rules: ThirteenRules = GSCAS) -> RoundScore:
    """The 4 players' scores in 道, summing to 0: 打槍 + 全壘打 + 額外加分, dealt from ``rules.deck``.

    ``InvalidInputError`` for anything that cannot be scored: not 4 players, a dun of the wrong size,
    a card beyond the deck's copies across the table, an illegal (相公) arrangement.
    """
    deck = rules.deck
    if len(players) != PLAYERS:
        raise InvalidInputError(
            problem(DOMAIN, ("players",), ProblemCode.WRONG_PLAYER_COUNT, players=PLAYERS, actual=len(players))
        )
    lawful = _lawful_round(players, deck)
    if lawful is None:  # something may be wrong: the full checks say what
        checked = [_check(arrangement, deck) for arrangement in players]
        problems = [
            _refused(v, deck, "players", seat, *path) for seat, (found, _) in enumerate(checked) for path, v in found
        ]
        if problems or (problems := _table_duplicates(players, deck)):
            raise InvalidInputError(problems)
        return _settled([duns for _, duns in checked if duns is not None], rules)  # no problems: all evaluated
    return _settled(lawful[0], rules, lawful[1])


def _settled(
    values: Sequence[Mapping[Dun, HandValue]], rules: ThirteenRules, orders: Sequence[Orders] | None = None
) -> RoundScore:
    """The six matchups and the four players' scores in one pass (each dun's strength and bonus read once
    per player rather than once per pair, strengths compared as ``_order`` ints: ``orders`` when the plans
    gave them). tests/joker_thirteen/test_fast_paths.py holds it to the rule book, pair by pair."""
    if orders is None:
        orders = [
            (_order(duns[HEAD].strength), _order(duns[MIDDLE].strength), _order(duns[TAIL].strength)) for duns in values
        ]
    head_bonus, middle_bonus, tail_bonus = rules.bonus_by_rung
    hands = [  # per player: each dun's order, then the bonus it earns when it wins (by the order's rung)
        (head, middle, tail, head_bonus[head >> _RUNG_SHIFT], middle_bonus[middle >> _RUNG_SHIFT],
         tail_bonus[tail >> _RUNG_SHIFT])
        for head, middle, tail in orders
    ]  # fmt: skip  # a table: per player, its three orders, then the bonus each earns
    shot = rules.shot
    shots, nets, shot_count = [0] * PLAYERS, [0] * PLAYERS, [0] * PLAYERS  # nets: shots and bonuses
    matchups = []
    for a, b in _PAIRS:
        head_a, middle_a, tail_a, head_bonus_a, middle_bonus_a, tail_bonus_a = hands[a]
        head_b, middle_b, tail_b, head_bonus_b, middle_bonus_b, tail_bonus_b = hands[b]
        bonus_a = bonus_b = won_a = won_b = 0
        if head_a > head_b:
            won_head, bonus_a, won_a = "a", head_bonus_a, 1
        elif head_b > head_a:
            won_head, bonus_b, won_b = "b", head_bonus_b, 1
        else:
            won_head = "tie"
        if middle_a > middle_b:
            won_middle, won_a = "a", 1
            bonus_a += middle_bonus_a
        elif middle_b > middle_a:
            won_middle, won_b = "b", 1
            bonus_b += middle_bonus_b
        else:
            won_middle = "tie"
        if tail_a > tail_b:
            won_tail, won_a = "a", 1
            bonus_a += tail_bonus_a
        elif tail_b > tail_a:
            won_tail, won_b = "b", 1
            bonus_b += tail_bonus_b
        else:
            won_tail = "tie"
        # 打槍: not losing a dun (平手也算不輸); both when every dun tied
        net_shot = (won_a - won_b) * shot
        points_a = net_shot + bonus_a - bonus_b
        won = {"head": won_head, "middle": won_middle, "tail": won_tail}
        matchups.append(Matchup(a, b, won, _SHOT_BY[won_a][won_b], bonus_a, bonus_b, points_a))
        shots[a] += net_shot
        shots[b] -= net_shot
        nets[a] += points_a
        nets[b] -= points_a
        if not won_b:
            shot_count[a] += 1
        if not won_a:
            shot_count[b] += 1
    home_runs: Sequence[int] = _home_runs(shot_count, rules) if PLAYERS - 1 in shot_count else _NO_HOME_RUNS
    scores = tuple(
        [
            PlayerScore(seat, net + home_run, shot_points, home_run, net - shot_points, duns)
            for seat, net, shot_points, home_run, duns in zip(_SEATS, nets, shots, home_runs, values, strict=True)
        ]
    )
    return RoundScore(scores, tuple(matchups))


_SHOT_BY = (("both", "b"), ("a", None))  # by [a won a dun][b won a dun]: who shot whom
_SEATS = range(PLAYERS)


_PAIRS = tuple(combinations(range(PLAYERS), 2))
_NO_HOME_RUNS = (0,) * PLAYERS  # nobody shot all three others (most rounds): no call to _home_runs


def _lawful_round(
    players: Sequence[Arrangement], deck: ThirteenDeck
) -> tuple[list[dict[Dun, HandValue]], list[Orders]] | None:
    """Every player's duns and their ``_order``s, when nothing can be wrong (the usual round): every
    arrangement legal (``_lawful_arrangement``) and no card beyond the deck's copies across the table.
    None otherwise, for ``_check`` and ``_table_duplicates`` to find what is wrong. The players' holdings
    are added as card fields: lawful each, so no card counts more than 4 x 3 across the table (no carry)."""
    values = []
    orders = []
    cards = -(PLAYERS - 1) * deck.cards_start  # the four holdings added, one start left
    for arrangement in players:
        found = _lawful_arrangement(arrangement, deck)
        if found is None:
            return None
        duns, holding, order = found
        values.append(duns)
        orders.append(order)
        cards += holding
    if cards & _CARDS_TOO_MANY:
        return None
    return values, orders


def _home_runs(shot_count: Sequence[int], rules: ThirteenRules = GSCAS) -> list[int]:
    """全壘打: shooting all three others earns +9, 3 from each of them; two home runs both apply."""
    share = rules.home_run // (PLAYERS - 1)
    points = [0] * PLAYERS
    for seat in range(PLAYERS):
        if shot_count[seat] == PLAYERS - 1:
            points = [p - share for p in points]
            points[seat] += share + rules.home_run
    return points
