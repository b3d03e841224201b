"""Joker Thirteen (鬼牌十三支加一色): the round's scoring as data, one frozen ``JokerThirteenRules`` per
rule set.

Four players (``PLAYERS``) are each dealt 17 cards (``HAND_SIZE``) and set 13 of them in three duns. A
round scores in 道: 打槍 (a shot: losing no dun to an opponent), 全壘打 (a home run: shooting all three
others) and 額外加分 (a bonus per opponent beaten in a dun with a listed category). Their points are the
fields of ``JokerThirteenRules``; the house rules, ``GSCAS``, are every operation's default.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from service.rules.hand_value import HandValue
from service.rules.thirteen.duns import _CATEGORY_BY_ORDER_RUNG, Category, Dun

PLAYERS = 4
HAND_SIZE = 17


@dataclass(frozen=True, slots=True)
class JokerThirteenRules:
    """The round's scoring as one frozen data object (the house rules: ``GSCAS``), passed explicitly to
    ``score_round`` and ``bonus`` as the OFC games pass ``OfcRules``: a variant is another instance."""

    id: str
    shot: int  # 打槍: points from each opponent shot (no dun lost to him; 平手也算不輸)
    home_run: int  # 全壘打: shooting all three others, paid equally by the three
    bonus: Mapping[tuple[Dun, Category], int]  # 額外加分 per opponent beaten in the dun with this exact category
    bonus_by_name: Mapping[tuple[str, str], int] = field(init=False, repr=False, compare=False)
    # per dun (head, middle, tail), the points by the dun's rung plus one (``duns._order(strength) >>
    # duns._RUNG_SHIFT``): the round's settlement reads them by index
    bonus_by_rung: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    digest: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        # str enums hash and compare as their values: the names look up without building an enum per call
        object.__setattr__(self, "bonus_by_name", {(d.value, c.value): points for (d, c), points in self.bonus.items()})
        by_rung = tuple(
            tuple(0 if c is None else self.bonus.get((dun, c), 0) for c in _CATEGORY_BY_ORDER_RUNG)
            for dun in (Dun.HEAD, Dun.MIDDLE, Dun.TAIL)
        )
        object.__setattr__(self, "bonus_by_rung", by_rung)
        canonical = json.dumps(self.describe(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        object.__setattr__(self, "digest", hashlib.sha256(canonical.encode()).hexdigest()[:16])

    def describe(self) -> dict[str, Any]:
        """Every parameter, as JSON: what ``GET /v1/games`` lists and what ``digest`` hashes."""
        return {
            "id": self.id,
            "shot": self.shot,
            "home_run": self.home_run,
            "bonus": [{"dun": d.value, "category": c.value, "points": p} for (d, c), p in self.bonus.items()],
        }


GSCAS = JokerThirteenRules(
    id="gscas",
    shot=1,
    home_run=9,  # "再 ＋9 道（等於向三家各多收 3 道）"
    bonus={
        (Dun.HEAD, Category.TRIPS): 1, (Dun.HEAD, Category.THREE_JOKERS): 5,
        (Dun.MIDDLE, Category.QUADS): 2, (Dun.MIDDLE, Category.STRAIGHT_FLUSH): 2,
        (Dun.MIDDLE, Category.JOKER_FIVE): 3, (Dun.MIDDLE, Category.REAL_FIVE): 12,
        (Dun.TAIL, Category.QUADS): 1, (Dun.TAIL, Category.STRAIGHT_FLUSH): 1,
        (Dun.TAIL, Category.JOKER_FIVE): 2, (Dun.TAIL, Category.REAL_FIVE): 5,
    },
)  # fmt: skip  # the bonus table laid out by dun, two categories a line
"""The house rules (鬼牌十三支加一色): the only rule set, and every function's default."""

BONUS = GSCAS.bonus
"""額外加分 of the house rules: points per opponent whose dun is strictly beaten with this exact category."""


def bonus(dun: Dun | str, hand: HandValue, rules: JokerThirteenRules = GSCAS) -> int:
    """Points per opponent beaten with ``hand`` in ``dun``: by exact category, so 鬼三條 never also counts as 衝三."""
    return rules.bonus_by_name.get((dun, hand.category), 0)
