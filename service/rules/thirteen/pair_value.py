"""What one pair of players scores at a Thirteen table, as a form arrange for me can search with exactly.

Against one opponent whose three duns are drawn independently, each dun of the player's ends in one of three
outcomes: won, tied or lost. A dun's ``Outcome`` holds how many of the simulated deals end each way, with the
bonus weight each side earns there (the player's bonus times the deals it wins the dun; the opponent's bonus
summed over the deals it wins the dun). The table's pair scoring (the rules folder's steps 1-3: dun points,
the majority, the sweep with its points and multiplier, bonuses inside or outside the multiplied total)
depends on how many duns each side won, so the expected pair result times deals**3 is a sum over the 27
outcome combinations of integer products: a form linear in each dun's ``Outcome``.

``PairForm.third(x, y)`` contracts two duns' outcomes and answers the coefficients of the third dun's: the
pair's value is their dot product with its ``Outcome``. The scoring is the same whichever dun is which, so
one form serves tail, middle and head alike.

Monotone: a dun's result going from lost to tied to won never lowers what the player gets nor raises what the
opponent gets (points, multipliers and bonuses are never negative), so in the basis (deals, not lost, won,
own bonus weight, opponent's bonus weight) a coefficient is never negative, but the last, never positive. An
upper bound over several duns is then the ``Outcome`` of the most deals not lost, the most won, the most own
bonus and the least opponent's bonus (``dominating``), each taken from any of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import mul
from typing import NamedTuple

from service.rules.thirteen.rules import Sweep, ThirteenRules

Outcome = tuple[int, int, int, int, int]
"""One dun against the simulated opponent, in deals: (won, tied, lost, the player's bonus times the deals won,
the opponent's bonus summed over the deals it wins)."""

Form = tuple[int, int, int, int, int]
"""Coefficients of a dun's ``Outcome``: its dot product with them is the pair's value times deals**3."""

Fixed = tuple[Form, Form, Form, Form, Form]
"""``PairForm.third`` with one dun fixed: per coefficient of the third dun, its weights of the second's outcome."""

_UNITS: tuple[Outcome, ...] = ((1, 0, 0, 0, 0), (0, 1, 0, 0, 0), (0, 0, 1, 0, 0), (0, 0, 0, 1, 0), (0, 0, 0, 0, 1))

FORMS_KEPT = 8  # tables' forms kept (a form is a few dozen integers; one per scoring asked for)

# The two duns contracted, by (wins, losses) of those two: the deals of each count, then the player's bonus
# weight (a won dun's) and the opponent's (a lost dun's) over the counts that hold a win, or a loss.
_COUNTS = ((2, 0), (1, 0), (0, 0), (1, 1), (0, 1), (0, 2))
_WON = ((2, 0), (1, 0), (1, 1))
_LOST = ((0, 2), (0, 1), (1, 1))


class Scoring(NamedTuple):
    """The parameters of ``ThirteenRules`` a pair's result depends on (not the home run: three opponents)."""

    dun_points: int
    majority_points: int
    sweep: Sweep
    sweep_points: int
    sweep_multiplier: int
    sweep_multiplies_bonuses: bool


def scoring_of(rules: ThirteenRules) -> Scoring:
    return Scoring(
        rules.dun_points,
        rules.majority_points,
        rules.sweep,
        rules.sweep_points,
        rules.sweep_multiplier,
        rules.sweep_multiplies_bonuses,
    )


def gain(scoring: Scoring, wins: int, losses: int) -> tuple[int, int]:
    """What a player who won ``wins`` duns of another and lost ``losses`` gets from it, bonuses left out, and
    what its bonuses are multiplied by: steps 1-3 (dun points, the majority, the sweep)."""
    points = scoring.dun_points * wins + (scoring.majority_points if wins > losses else 0)
    swept = losses == 0 if scoring.sweep is Sweep.NO_DUN_LOST else wins == 3
    if not swept:
        return points, 1
    multiplier = scoring.sweep_multiplier
    return (points + scoring.sweep_points) * multiplier, multiplier if scoring.sweep_multiplies_bonuses else 1


@dataclass(frozen=True, slots=True)
class PairForm:
    """A table's pair scoring as constants: per outcome of the third dun (won, tied, lost) the weights of the
    two contracted duns' 12 terms (``_COUNTS``, ``_WON``, ``_LOST``), then those of the third dun's own bonus
    terms (6 each)."""

    by_outcome: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    own_bonus: tuple[int, ...]
    their_bonus: tuple[int, ...]

    def third(self, x: Outcome, y: Outcome) -> Form:
        """The coefficients of the third dun's ``Outcome`` when the other two are ``x`` and ``y``."""
        w1, t1, l1, b1, p1 = x
        w2, t2, l2, b2, p2 = y
        counts = (w1 * w2, w1 * t2 + t1 * w2, t1 * t2, w1 * l2 + l1 * w2, t1 * l2 + l1 * t2, l1 * l2)
        terms = (
            *counts,
            b1 * w2 + w1 * b2,  # one dun won with its bonus, the other won, tied or lost
            b1 * t2 + t1 * b2,
            b1 * l2 + l1 * b2,
            p1 * l2 + l1 * p2,  # one dun lost with the opponent's bonus, the other lost, tied or won
            p1 * t2 + t1 * p2,
            p1 * w2 + w1 * p2,
        )
        won, tied, lost = (sum(map(mul, terms, weights)) for weights in self.by_outcome)
        return won, tied, lost, sum(map(mul, counts, self.own_bonus)), sum(map(mul, counts, self.their_bonus))

    def fixing(self, x: Outcome) -> Fixed:
        """``third`` with ``x`` fixed, as a matrix: ``applied(fixing(x), y) == third(x, y)`` (bilinear), a
        fifth of the work per ``y`` when one dun is paired with many."""
        a, b, c, d, e = (self.third(x, unit) for unit in _UNITS)
        won, tied, lost, own, theirs = zip(a, b, c, d, e, strict=True)
        return won, tied, lost, own, theirs

    def value(self, x: Outcome, y: Outcome, z: Outcome) -> int:
        """The pair's expected value times deals**3 of three duns' outcomes."""
        return dot(self.third(x, y), z)


def dot(form: Form, outcome: Outcome) -> int:
    return sum(map(mul, form, outcome))


def applied(fixed: Fixed, y: Outcome) -> Form:
    """``PairForm.third(x, y)`` of the matrix ``PairForm.fixing(x)``."""
    a, b, c, d, e = fixed
    return dot(a, y), dot(b, y), dot(c, y), dot(d, y), dot(e, y)


def in_basis(form: Form) -> Form:
    """A form's coefficients of (deals, not lost, won, own bonus weight, opponent's bonus weight)."""
    won, tied, lost, own, theirs = form
    return lost, tied - lost, won - tied, own, theirs


def basis(outcome: Outcome, deals: int) -> Outcome:
    """An outcome as (deals, not lost, won, own bonus weight, opponent's bonus weight): every entry >= 0."""
    won, tied, _, own, theirs = outcome
    return deals, won + tied, won, own, theirs


def highest(forms: Sequence[Form]) -> Form:
    """Each coefficient's largest (forms in the basis): an upper bound over them of any outcome's value."""
    return (
        max(f[0] for f in forms),
        max(f[1] for f in forms),
        max(f[2] for f in forms),
        max(f[3] for f in forms),
        max(f[4] for f in forms),
    )


def dominating(a: Outcome, b: Outcome) -> Outcome:
    """The outcome of the most deals not lost and won, the most own bonus and the least opponent's bonus of
    ``a`` and ``b``: by monotonicity worth at least either, whatever the other duns."""
    not_lost = max(a[0] + a[1], b[0] + b[1])
    won = max(a[0], b[0])
    deals = a[0] + a[1] + a[2]
    return won, not_lost - won, deals - not_lost, max(a[3], b[3]), min(a[4], b[4])


def _weights(scoring: Scoring) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """Per (wins, losses) of the pair (W + L <= 3): the points the player gets less the opponent's, and the
    multipliers of the player's bonuses and of the opponent's."""
    points = [[0] * 4 for _ in range(4)]
    mine = [[0] * 4 for _ in range(4)]
    theirs = [[0] * 4 for _ in range(4)]
    for wins in range(4):
        for losses in range(4 - wins):
            got, mine[wins][losses] = gain(scoring, wins, losses)
            paid, theirs[wins][losses] = gain(scoring, losses, wins)
            points[wins][losses] = got - paid
    return points, mine, theirs


@lru_cache(maxsize=FORMS_KEPT)
def _form(scoring: Scoring) -> PairForm:
    """The form of one scoring, keyed by its parameters alone (``ThirteenRules`` is not hashable)."""
    points, mine, theirs = _weights(scoring)

    def weights(dw: int, dl: int) -> tuple[int, ...]:
        return (
            *(points[w + dw][lo + dl] for w, lo in _COUNTS),
            *(mine[w + dw][lo + dl] for w, lo in _WON),
            *(-theirs[w + dw][lo + dl] for w, lo in _LOST),
        )

    return PairForm(
        (weights(1, 0), weights(0, 0), weights(0, 1)),
        tuple(mine[w + 1][lo] for w, lo in _COUNTS),
        tuple(-theirs[w][lo + 1] for w, lo in _COUNTS),
    )


def pair_form(rules: ThirteenRules) -> PairForm:
    """``rules``' pair scoring as a ``PairForm``, kept for the ``FORMS_KEPT`` scorings last asked for."""
    return _form(scoring_of(rules))
