"""The Thirteen games' round score (``rounds/score``) at any table: in 道 (水), the four players' totals summing
to 0, under a rule set (``ThirteenRules``: Joker Thirteen's ``GSCAS``, ordinary 十三支's ``ORDINARY``, 十三水's
``SHISANSHUI``, or a table of one's own).

One engine, fed the table, follows the rules folder's steps ("Thirteen as other tables score it"): per ordered
pair of players, each dun won pays its points and its bonus, a majority of duns its points, and a sweep (打槍)
adds its points and multiplies the pair's total; a home run (全壘打: sweeping all three others) adds its points
to each of the player's pairs and multiplies them again. A fouled arrangement (相公) is refused or loses
everything, as the table says; a player scored by a special (報到) is compared with nobody dun by dun.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, compress
from operator import mul, sub
from typing import NamedTuple

from service.rules.cards import Card, duplicate_card, find_duplicates
from service.rules.errors import InputProblem, InvalidInputError, Path, Violation, problem
from service.rules.hand_value import HandValue
from service.rules.thirteen.arrangements import (
    _CARDS_TOO_MANY,
    ORDER_VIOLATIONS,
    Arrangement,
    ArrangementViolation,
    Orders,
    _check,
    _lawful_arrangement,
)
from service.rules.thirteen.duns import _RUNG_SHIFT, DOMAIN, DUNS, HEAD, MIDDLE, TAIL, Dun, ThirteenDeck, _order
from service.rules.thirteen.rules import (
    GSCAS,
    PLAYERS,
    Declare,
    Foul,
    ProblemCode,
    SpecialVsSpecial,
    Sweep,
    ThirteenRules,
)
from service.rules.thirteen.specials import SPECIALS, Special, scored_special, specials_of, specials_of_shape

# --- the round score ----------------------------------------------------------------------------------


class Parts(NamedTuple):
    """Points by where they come from: what a pair pays one of its players (net of what it pays the other),
    or a player's net over its three pairs."""

    duns: int = 0  # each dun won
    bonuses: int = 0  # 額外加分: each dun won with a category the table pays
    majority: int = 0  # more duns won than lost
    sweep: int = 0  # 打槍: the sweep's points and what its multiplier adds
    home_run: int = 0  # 全壘打: its points and what its multiplier adds
    specials: int = 0  # 報到: a special hand's points


Gain = tuple[int, int, int, int, int, int]
"""What one player gets from another, part by part as ``Parts`` orders them: a plain tuple while a round is
settled (six a pair made and dropped), a ``Parts`` in the answer."""
NOTHING: Gain = (0, 0, 0, 0, 0, 0)
PairResult = tuple[Mapping[str, str] | None, Gain, Gain, bool, bool]
Fixed = tuple[int, int, int, int]
"""What a player gets from a pair's outcome but its bonuses: duns, majority, sweep, and the sweep's slope in the
bonuses it won."""
"""One pair a < b not compared dun by dun, before home runs: who won each dun (None: nobody), what a gets from
b, what b gets from a, whether a swept b and whether b swept a."""


class Matchup(NamedTuple):
    """Players ``a`` < ``b`` of one pair, from ``a``'s side (a NamedTuple: six per scored round).

    ``points_a`` is a's net from this pair without home runs (every part but ``home_run``); ``parts_a`` the
    pair's net for a, part by part, home run included. A player's total is the sum of its pairs' parts
    (negated on the ``b`` side)."""

    a: int
    b: int
    duns: Mapping[str, str] | None  # by dun name: "a" / "b" / "tie"; None where no dun is compared
    shot: str | None  # who swept whom: "a", "b", "both" (mutual sweeps cancel) or None
    bonus_a: int
    bonus_b: int
    points_a: int
    parts_a: Parts


class PlayerScore(NamedTuple):
    seat: int
    total: int
    shots: int  # net 打槍 points (the sweep part)
    home_run: int  # net 全壘打 points
    bonus: int  # net 額外加分 points
    duns: Mapping[Dun, HandValue]
    parts: Parts  # the net of every part
    special: Special | None  # the special it is scored by
    fouled: bool  # 相公 scored as a foul
    swept: tuple[int, ...]  # the seats it swept
    made_home_run: bool


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
    """The 4 players' scores at the table ``rules``, summing to 0, dealt from ``rules.deck``.

    ``InvalidInputError`` for anything that cannot be scored: not 4 players, a dun of the wrong size, a card
    beyond the deck's copies across the table, a special declared where the table does not take it, and an
    illegal (相公) arrangement where the table refuses fouls and the player is not scored by a special.
    """
    deck = rules.deck
    if len(players) != PLAYERS:
        raise InvalidInputError(
            problem(DOMAIN, ("players",), ProblemCode.WRONG_PLAYER_COUNT, players=PLAYERS, actual=len(players))
        )
    lawful = _lawful_round(players, deck)
    if lawful is not None:  # the usual round: every arrangement legal, no card twice
        values, orders, shapes = lawful
        specials = _specials(players, rules, shapes) if rules.specials or _declared(players) else _NOBODY
        return _settled(values, orders, specials, _NOBODY, rules)
    checked = [_check(arrangement, deck) for arrangement in players]
    # 相公 is refused with every other problem where the table refuses fouls and pays no special, as the house
    # rules; elsewhere it waits until the player's special says whether its duns are compared at all
    refused_now = rules.foul is Foul.REFUSED and not rules.specials
    problems = [
        _refused(v, deck, "players", seat, *path)
        for seat, (found, _) in enumerate(checked)
        for path, v in found
        if refused_now or v.code not in ORDER_VIOLATIONS
    ]
    if problems or (problems := _table_duplicates(players, deck)):
        raise InvalidInputError(problems)
    specials = _specials(players, rules)
    out_of_order = [any(v.code in ORDER_VIOLATIONS for _, v in found) for found, _ in checked]
    fouled = tuple(bad and special is None for bad, special in zip(out_of_order, specials, strict=True))
    if rules.foul is Foul.REFUSED and any(fouled):
        raise InvalidInputError(
            [
                _refused(v, deck, "players", seat, *path)
                for seat, (found, _) in enumerate(checked)
                for path, v in found
                if fouled[seat]
            ]
        )
    values = [duns for _, duns in checked if duns is not None]  # no problems: all evaluated
    orders = [
        (_order(duns[HEAD].strength), _order(duns[MIDDLE].strength), _order(duns[TAIL].strength)) for duns in values
    ]
    return _settled(values, orders, specials, fouled, rules)


def _declared(players: Sequence[Arrangement]) -> bool:
    return any(arrangement.declare is not None for arrangement in players)


def _specials(
    players: Sequence[Arrangement], rules: ThirteenRules, shapes: Sequence[int] | None = None
) -> tuple[Special | None, ...]:
    """The special each player is scored by (step 7 of the table's scoring): under ``automatic`` its highest
    listed one, under ``by_player`` the one it declares, which must be listed and made (``InvalidInputError``
    naming each player whose declaration the table does not take). ``shapes``: each player's, from its duns'
    sums, when every arrangement is legal (``_lawful_round``); else each hand's cards are read again."""
    by_player = rules.declare is Declare.BY_PLAYER
    automatic = bool(rules.specials) and not by_player
    found: list[Special | None] = []
    problems = []
    for seat, arrangement in enumerate(players):
        declared = arrangement.declare
        if declared is None:
            made = _specials_made(arrangement, seat, shapes) if automatic else ()
            found.append(scored_special(made, rules.specials) if made else None)  # most hands make none
            continue
        if not by_player:
            problems.append(_declaration(seat, "not_taken"))
            continue
        special = Special(declared)
        if special not in rules.specials:
            problems.append(_declaration(seat, "not_listed", special))
        elif special not in _specials_made(arrangement, seat, shapes):
            problems.append(_declaration(seat, "not_made", special))
        found.append(special)
    if problems:
        raise InvalidInputError(problems)
    return tuple(found)


def _specials_made(arrangement: Arrangement, seat: int, shapes: Sequence[int] | None) -> tuple[Special, ...]:
    """Every special a player's 13 placed cards make, from its shape when read (``InvalidInputError`` at
    the player unless they are 13 distinct cards of the 52)."""
    if shapes is None:
        return specials_of([*arrangement.head, *arrangement.middle, *arrangement.tail], ("players", seat))
    return specials_of_shape(shapes[seat], (arrangement.head, arrangement.middle, arrangement.tail))


def _declaration(seat: int, case: str, special: Special | None = None) -> InputProblem:
    params = {} if special is None else {"special": special.value}
    return problem(DOMAIN, ("players", seat, "declare"), ProblemCode.DECLARATION, case=case, **params)


_NOBODY = (None,) * PLAYERS  # no player scored by a special, none fouled (falsy alike)


def _settled(
    values: Sequence[Mapping[Dun, HandValue]],
    orders: Sequence[Orders],
    specials: Sequence[Special | None],
    fouled: Sequence[bool | None],
    rules: ThirteenRules,
) -> RoundScore:
    """The six pairs and the four players' scores: each dun's strength compared as its ``_order`` int and
    its bonus read once per player (by the order's rung); a pair's gains are plain tuples until the answer's
    ``Parts``. tests/thirteen/table_reference.py holds it to the rules folder's steps, and
    tests/joker_thirteen/test_fast_paths.py to the house book, pair by pair."""
    head_bonus, middle_bonus, tail_bonus = rules.bonus_by_rung
    bonuses = [
        (head_bonus[head >> _RUNG_SHIFT], middle_bonus[middle >> _RUNG_SHIFT], tail_bonus[tail >> _RUNG_SHIFT])
        for head, middle, tail in orders
    ]
    table = _Table(rules)
    by_outcome = rules.kept.get("pairs") or rules.kept.setdefault("pairs", table.by_outcome())
    swept = [[False] * PLAYERS for _ in _SEATS]  # swept[i][j]: i swept j
    pairs = []
    for a, b in _PAIRS:
        if specials[a] or specials[b] or fouled[a] or fouled[b]:
            duns, gain_a, gain_b, swept[a][b], swept[b][a] = table.apart(bonuses, specials, fouled, a, b)
        else:
            head_a, middle_a, tail_a = orders[a]
            head_b, middle_b, tail_b = orders[b]
            outcome = _OUTCOMES[
                (head_a > head_b) + 2 * (head_b > head_a)
                + 3 * ((middle_a > middle_b) + 2 * (middle_b > middle_a))
                + 9 * ((tail_a > tail_b) + 2 * (tail_b > tail_a))
            ]  # fmt: skip  # one digit a dun: 0 tied, 1 won by a, 2 won by b
            bonus_a = sum(map(mul, outcome.won_a, bonuses[a]))
            bonus_b = sum(map(mul, outcome.won_b, bonuses[b]))
            swept[a][b], swept[b][a], (duns_a, majority_a, sweep_a, slope_a), (duns_b, majority_b, sweep_b, slope_b) = (
                by_outcome[outcome.code]
            )
            duns = outcome.duns
            gain_a = (duns_a, bonus_a, majority_a, sweep_a + slope_a * bonus_a, 0, 0)
            gain_b = (duns_b, bonus_b, majority_b, sweep_b + slope_b * bonus_b, 0, 0)
        pairs.append((a, b, duns, gain_a, gain_b))
    home_runs = [sum(row) == PLAYERS - 1 for row in swept]  # nobody sweeps itself
    received: list[list[Gain]] = [[] for _ in _SEATS]  # each player's gains from its three others
    paid: list[list[Gain]] = [[] for _ in _SEATS]  # and theirs from it
    matchups = []
    for a, b, duns, gain_a, gain_b in pairs:
        if home_runs[a]:
            gain_a = table.home_run(gain_a)
        if home_runs[b]:
            gain_b = table.home_run(gain_b)
        parts = Parts._make(map(sub, gain_a, gain_b))
        points = sum(parts) - parts.home_run
        shot = _SHOT_BY[swept[a][b]][swept[b][a]]
        matchups.append(Matchup(a, b, duns, shot, gain_a[_BONUSES], gain_b[_BONUSES], points, parts))
        received[a].append(gain_a)
        paid[a].append(gain_b)
        received[b].append(gain_b)
        paid[b].append(gain_a)
    scores = []
    for seat in _SEATS:
        (got_1, got_2, got_3), (gave_1, gave_2, gave_3) = received[seat], paid[seat]
        net = Parts._make(
            [a + b + c - x - y - z for a, b, c, x, y, z in zip(got_1, got_2, got_3, gave_1, gave_2, gave_3)]
        )
        whom = tuple(compress(_SEATS, swept[seat]))
        scores.append(
            PlayerScore(seat, sum(net), net.sweep, net.home_run, net.bonuses, values[seat], net, specials[seat],
                        bool(fouled[seat]), whom, home_runs[seat])
        )  # fmt: skip  # a player's eleven fields, as the NamedTuple declares them
    return RoundScore(tuple(scores), tuple(matchups))


class _Outcome(NamedTuple):
    """How a pair's three duns went, one of 27: who won each (the answer's ``duns``), which duns each player
    won (1 where it won) and how many."""

    code: int  # per dun a digit, head first: 0 tied, 1 won by a, 2 won by b
    duns: Mapping[str, str]
    won_a: tuple[int, int, int]
    won_b: tuple[int, int, int]
    wins_a: int
    wins_b: int


def _outcome(code: int) -> _Outcome:
    digits = (code % 3, code // 3 % 3, code // 9)
    won_a = tuple(int(d == 1) for d in digits)
    won_b = tuple(int(d == 2) for d in digits)
    duns = {name: ("tie", "a", "b")[d] for name, d in zip(_DUN_NAMES, digits, strict=True)}
    return _Outcome(code, duns, won_a, won_b, sum(won_a), sum(won_b))  # type: ignore[arg-type]  # three digits


@dataclass(frozen=True, slots=True)
class _Table:
    """What one player gets from another under a table's scoring (the rules folder's steps 1-4 and 6)."""

    rules: ThirteenRules

    def apart(
        self,
        bonuses: Sequence[tuple[int, int, int]],
        specials: Sequence[Special | None],
        fouled: Sequence[bool | None],
        a: int,
        b: int,
    ) -> PairResult:
        """Players ``a`` and ``b`` not compared dun by dun, before home runs: by their specials (step 6) or by
        a foul (step 5: the other wins every dun, with its bonuses, and sweeps; two fouled pay nothing)."""
        if specials[a] or specials[b]:
            return None, self.specials(specials[a], specials[b]), self.specials(specials[b], specials[a]), False, False
        if fouled[a] and fouled[b]:
            return None, NOTHING, NOTHING, False, False
        if fouled[b]:
            return _ALL_WON["a"], self.gain(3, 0, sum(bonuses[a]), True), NOTHING, True, False
        return _ALL_WON["b"], NOTHING, self.gain(3, 0, sum(bonuses[b]), True), False, True

    def by_outcome(self) -> tuple[tuple[bool, bool, Fixed, Fixed], ...]:
        """Per outcome of a pair's duns (``_Outcome.code``): whether a swept b, whether b swept a, and what each
        gets but its bonuses, with the slope of its sweep part in them (steps 1-3, from ``gain``): a table of
        the rules, built once and kept on them. The bonuses a player won add to its gain as themselves, and
        to its sweep part times the slope (the sweep multiplies them, or not)."""
        found = []
        for outcome in _OUTCOMES:
            wins_a, wins_b = outcome.wins_a, outcome.wins_b
            swept_a, swept_b = self.sweeps(wins_a, wins_b), self.sweeps(wins_b, wins_a)
            found.append((swept_a, swept_b, self.fixed(wins_a, wins_b, swept_a), self.fixed(wins_b, wins_a, swept_b)))
        return tuple(found)

    def fixed(self, wins: int, losses: int, swept: bool) -> Fixed:
        """``gain`` without bonuses: (duns, majority, sweep), and the sweep's slope in the bonuses won."""
        duns, _, majority, sweep, _, _ = self.gain(wins, losses, 0, swept)
        return duns, majority, sweep, self.gain(wins, losses, 1, swept)[3] - sweep

    def sweeps(self, wins: int, losses: int) -> bool:
        """Step 3: whether a player who won ``wins`` duns and lost ``losses`` sweeps the other."""
        return losses == 0 if self.rules.sweep is Sweep.NO_DUN_LOST else wins == len(DUNS)

    def gain(self, wins: int, losses: int, bonuses: int, swept: bool) -> Gain:
        """Steps 1-3: what a player gets from one it won ``wins`` duns of (with ``bonuses``) and lost
        ``losses`` to."""
        rules = self.rules
        duns = rules.dun_points * wins
        majority = rules.majority_points if wins > losses else 0
        if not swept:
            return (duns, bonuses, majority, 0, 0, 0)
        multiplied = duns + majority + (bonuses if rules.sweep_multiplies_bonuses else 0)
        sweep = (multiplied + rules.sweep_points) * rules.sweep_multiplier - multiplied
        return (duns, bonuses, majority, sweep, 0, 0)

    def home_run(self, gain: Gain) -> Gain:
        """Step 4: a pair of a player who swept every other gets the home run's points and its multiplier."""
        rules = self.rules
        duns, bonuses, majority, sweep, _, specials = gain
        multiplied = duns + majority + sweep + (bonuses if rules.sweep_multiplies_bonuses else 0)
        home_run = (multiplied + rules.home_run_points) * rules.home_run_multiplier - multiplied
        return (duns, bonuses, majority, sweep, home_run, specials)

    def specials(self, mine: Special | None, theirs: Special | None) -> Gain:
        """Step 6: what a player scored by ``mine`` gets from one scored by ``theirs`` (None: by its duns)."""
        points = self.rules.specials
        if mine is None or (theirs is not None and _RANK[mine] >= _RANK[theirs]):
            return NOTHING  # no special, or the lower one, or the same
        if theirs is None or self.rules.special_vs_special is SpecialVsSpecial.HIGHER_TAKES_ITS_POINTS:
            return (0, 0, 0, 0, 0, points[mine])
        return (0, 0, 0, 0, 0, points[mine] - points[theirs])


_BONUSES = Parts._fields.index("bonuses")
_RANK = {special: rank for rank, special in enumerate(SPECIALS)}  # high to low: a lower rank is the higher
_DUN_NAMES = tuple(d.value for d in DUNS)
_ALL_WON = {side: dict.fromkeys(_DUN_NAMES, side) for side in ("a", "b")}
_OUTCOMES = tuple(_outcome(code) for code in range(27))
"""Every outcome of a pair's duns, by code: built once, shared by every round (an answer's ``duns`` is one of
these, never changed)."""
_SHOT_BY = ((None, "b"), ("a", "both"))  # by [a swept b][b swept a]
_SEATS = range(PLAYERS)


_PAIRS = tuple(combinations(range(PLAYERS), 2))


def _lawful_round(
    players: Sequence[Arrangement], deck: ThirteenDeck
) -> tuple[list[dict[Dun, HandValue]], list[Orders], list[int]] | None:
    """Every player's duns, their ``_order``s and its hand's shape (what its specials are read from), when
    nothing can be wrong (the usual round): every arrangement legal (``_lawful_arrangement``) and no card
    beyond the deck's copies across the table. None otherwise, for ``_check`` and ``_table_duplicates`` to
    find what is wrong. The players' holdings are added as card fields: lawful each, so no card counts more
    than 4 x 3 across the table (no carry)."""
    values = []
    orders = []
    shapes = []
    cards = -(PLAYERS - 1) * deck.cards_start  # the four holdings added, one start left
    for arrangement in players:
        found = _lawful_arrangement(arrangement, deck)
        if found is None:
            return None
        duns, holding, order, shape = found
        values.append(duns)
        orders.append(order)
        shapes.append(shape)
        cards += holding
    if cards & _CARDS_TOO_MANY:
        return None
    return values, orders, shapes
