"""A table's scoring of ordinary 十三支, written straight from the rules folder's steps ("Thirteen as other
tables score it", "A table's scoring", steps 1-7), plainly, for the tests: nothing of the service's scoring
(``service/rules/thirteen/scoring.py``) is used. Duns are valued and compared by the service's dun
evaluation (``evaluate_dun`` on the 52-card deck: strengths compare as tuples), specials read by the plain
definitions of specials_reference.py.

A table is a dict of the spec's parameters::

    dun_points, bonuses ({dun: {category: points}}, a dun or category absent pays nothing), majority_points,
    sweep ("no_dun_lost" | "all_duns_won"), sweep_points, sweep_multiplier, sweep_multiplies_bonuses,
    home_run_points, home_run_multiplier, foul ("refused" | "loses_all"), specials ({code: points}),
    special_vs_special ("higher_takes_its_points" | "difference"), declare ("automatic" | "by_player")

(``ORDINARY_TABLE``, ``SHISANSHUI``, ``ONE_SIX`` and ``TWO_FOUR`` are the spec's four columns). A player is a
dict: ``head``, ``middle``, ``tail`` (cards) and, under ``by_player``, ``declare`` (a special's code) when it
declares one.

What each ordered pair (i, j) pays i is its parts: ``duns``, ``bonuses``, ``majority``, ``sweep`` (what the
sweep adds: its points and what its multiplier adds), ``home_run`` (what the home run adds) and
``specials``; a pair's points are what i gets from j less what j gets from i, part by part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.rules.cards import Card
from service.rules.thirteen import DUNS, ORDINARY_DECK, Special, evaluate_dun
from tests.thirteen.specials_reference import reference_specials

PARTS = ("duns", "bonuses", "majority", "sweep", "home_run", "specials")
NO_SPECIALS: dict[str, int] = {}

ORDINARY_TABLE: dict[str, Any] = {
    "dun_points": 0,
    "bonuses": {
        "head": {"trips": 1},
        "middle": {"quads": 2, "straight_flush": 2},
        "tail": {"quads": 1, "straight_flush": 1},
    },
    "majority_points": 0,
    "sweep": "no_dun_lost",
    "sweep_points": 1,
    "sweep_multiplier": 1,
    "sweep_multiplies_bonuses": False,
    "home_run_points": 3,
    "home_run_multiplier": 1,
    "foul": "refused",
    "specials": NO_SPECIALS,
    "special_vs_special": None,
    "declare": None,
}
SHISANSHUI: dict[str, Any] = {
    "dun_points": 1,
    "bonuses": {
        "head": {"trips": 2},
        "middle": {"full_house": 1, "quads": 7, "straight_flush": 9},
        "tail": {"quads": 3, "straight_flush": 4},
    },
    "majority_points": 0,
    "sweep": "all_duns_won",
    "sweep_points": 0,
    "sweep_multiplier": 2,
    "sweep_multiplies_bonuses": True,
    "home_run_points": 0,
    "home_run_multiplier": 2,
    "foul": "loses_all",
    "specials": {
        "supreme_dragon": 108,
        "dragon": 36,
        "twelve_royals": 24,
        "three_straight_flushes": 22,
        "three_quads": 20,
        "all_big": 15,
        "all_small": 12,
        "one_colour": 10,
        "four_trips": 6,
        "five_pairs_trips": 5,
        "six_pairs": 4,
        "three_flushes": 3,
        "three_straights": 3,
    },  # fmt: skip  # the spec's column, five specials a line
    "special_vs_special": "higher_takes_its_points",
    "declare": "automatic",
}
ONE_SIX: dict[str, Any] = {  # shisanshui's values but these
    **SHISANSHUI,
    "bonuses": {},
    "sweep_points": 3,
    "sweep_multiplier": 1,
    "sweep_multiplies_bonuses": False,
    "home_run_multiplier": 1,
    "specials": {"dragon": 13, "six_pairs": 3, "three_flushes": 3, "three_straights": 3},
    "declare": "by_player",
}
TWO_FOUR: dict[str, Any] = {  # the 1-6 scoring's but these
    **ONE_SIX,
    "majority_points": 1,
    "sweep_points": 0,
    "specials": NO_SPECIALS,
    "special_vs_special": None,
    "declare": None,
}


class Refused(ValueError):
    """What the table cannot score: a foul where fouls are refused, a declaration it does not take."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"player {seat}: {reason}")
        self.seat = seat
        self.reason = reason


@dataclass
class PlayerResult:
    total: int
    special: Special | None  # the special it is scored by
    fouled: bool
    swept: list[int]  # the seats it swept
    home_run: bool


@dataclass
class PairResult:
    a: int
    b: int
    points_a: int  # what a gets from b, less what b gets from a
    parts_a: dict[str, int]  # the same, part by part


@dataclass
class TableResult:
    players: list[PlayerResult]
    pairs: list[PairResult]  # a < b


def hand_of(player: Mapping[str, Sequence[Card]]) -> list[Card]:
    return [*player["head"], *player["middle"], *player["tail"]]


def special_of(seat: int, player: Mapping[str, Any], table: Mapping[str, Any]) -> Special | None:
    """Step 7: the special a player is scored by (its highest listed one, automatically or when declared)."""
    listed = [Special(code) for code in table["specials"]]
    declared = player.get("declare")
    if table["declare"] != "by_player":
        if declared is not None:
            raise Refused(seat, "a declaration is taken only where players declare")
        made = reference_specials(hand_of(player)) if listed else ()
        return next((s for s in made if s in listed), None)
    if declared is None:
        return None
    if Special(declared) not in listed or Special(declared) not in reference_specials(hand_of(player)):
        raise Refused(seat, f"declares {declared}, which the table does not list or the cards do not make")
    return Special(declared)


def strengths(player: Mapping[str, Sequence[Card]]) -> list[Any]:
    return [evaluate_dun(dun, player[dun.value], deck=ORDINARY_DECK) for dun in DUNS]


def fouled(values: Sequence[Any]) -> bool:
    """相公: the head not strictly below the middle, or the middle above the tail."""
    head, middle, tail = (v.strength for v in values)
    return not head < middle <= tail


def bonus(table: Mapping[str, Any], dun: str, category: str) -> int:
    return table["bonuses"].get(dun, {}).get(category, 0)


def gain(wins: int, losses: int, bonuses: int, swept: bool, table: Mapping[str, Any]) -> dict[str, int]:
    """Steps 1-3: what one player gets from another it won ``wins`` duns of and lost ``losses`` to."""
    parts = dict.fromkeys(PARTS, 0)
    parts["duns"] = table["dun_points"] * wins
    parts["bonuses"] = bonuses
    parts["majority"] = table["majority_points"] if wins > losses else 0
    if swept:
        multiplied = parts["duns"] + parts["majority"] + (bonuses if table["sweep_multiplies_bonuses"] else 0)
        parts["sweep"] = (multiplied + table["sweep_points"]) * table["sweep_multiplier"] - multiplied
    return parts


def home_run(parts: dict[str, int], table: Mapping[str, Any]) -> None:
    """Step 4: the pair's total (bonuses only where the sweep multiplies them) gets the home run's points
    and is multiplied by its multiplier."""
    multiplied = parts["duns"] + parts["majority"] + parts["sweep"]
    if table["sweep_multiplies_bonuses"]:
        multiplied += parts["bonuses"]
    parts["home_run"] = (multiplied + table["home_run_points"]) * table["home_run_multiplier"] - multiplied


def special_gain(mine: Special | None, theirs: Special | None, table: Mapping[str, Any]) -> int:
    """Step 6: what a player scored by ``mine`` gets from one scored by ``theirs`` (None: no special)."""
    points = {Special(code): p for code, p in table["specials"].items()}
    if mine is None:
        return 0
    if theirs is None:
        return points[mine]
    order = list(Special)  # high to low
    if order.index(mine) >= order.index(theirs):  # the lower special, or the same one, takes nothing
        return 0
    if table["special_vs_special"] == "higher_takes_its_points":
        return points[mine]
    return points[mine] - points[theirs]  # difference


def score_table(players: Sequence[Mapping[str, Any]], table: Mapping[str, Any]) -> TableResult:
    """Every pair's points with their parts and every player's total, at ``table``."""
    assert len(players) == 4
    cards = [c for p in players for c in hand_of(p)]
    assert len(cards) == len(set(cards)), "a card twice at the table"
    specials = [special_of(seat, p, table) for seat, p in enumerate(players)]
    values = [strengths(p) for p in players]
    fouls = [specials[seat] is None and fouled(values[seat]) for seat in range(4)]
    for seat, foul in enumerate(fouls):
        if foul and table["foul"] == "refused":
            raise Refused(seat, "相公: the duns are out of order")
    gains: dict[tuple[int, int], dict[str, int]] = {}
    sweeps: dict[tuple[int, int], bool] = {}
    for i in range(4):
        for j in range(4):
            if i == j:
                continue
            sweeps[i, j] = False
            if specials[i] or specials[j]:
                gains[i, j] = dict.fromkeys(PARTS, 0) | {"specials": special_gain(specials[i], specials[j], table)}
            elif fouls[i]:  # it loses every dun to a player who did not foul; two fouled players: nothing
                gains[i, j] = dict.fromkeys(PARTS, 0)
            elif fouls[j]:  # i wins every dun, with its bonuses, and counts as sweeping j
                won = sum(bonus(table, dun.value, v.category) for dun, v in zip(DUNS, values[i], strict=True))
                sweeps[i, j] = True
                gains[i, j] = gain(3, 0, won, True, table)
            else:
                wins = losses = won = 0
                for dun, mine, theirs in zip(DUNS, values[i], values[j], strict=True):
                    if mine.strength > theirs.strength:
                        wins += 1
                        won += bonus(table, dun.value, mine.category)
                    elif mine.strength < theirs.strength:
                        losses += 1
                sweeps[i, j] = losses == 0 if table["sweep"] == "no_dun_lost" else wins == 3
                gains[i, j] = gain(wins, losses, won, sweeps[i, j], table)
    home_runs = [all(sweeps[i, j] for j in range(4) if j != i) for i in range(4)]
    for i in range(4):
        if home_runs[i]:
            for j in range(4):
                if j != i:
                    home_run(gains[i, j], table)
    pairs = []
    totals = [0] * 4
    for a in range(4):
        for b in range(a + 1, 4):
            parts = {part: gains[a, b][part] - gains[b, a][part] for part in PARTS}
            points = sum(parts.values())
            pairs.append(PairResult(a, b, points, parts))
            totals[a] += points
            totals[b] -= points
    results = [
        PlayerResult(totals[i], specials[i], fouls[i], [j for j in range(4) if j != i and sweeps[i, j]], home_runs[i])
        for i in range(4)
    ]
    return TableResult(results, pairs)
