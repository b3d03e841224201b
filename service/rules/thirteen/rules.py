"""The Thirteen games' rule sets as data, one frozen ``ThirteenRules`` each: Joker Thirteen's house rules
(鬼牌十三支加一色, ``GSCAS``) and ordinary 十三支 (``ORDINARY``).

Four players (``PLAYERS``) are each dealt the deck's deal (17 cards of Joker Thirteen's 68, ``HAND_SIZE``;
13 of ordinary 十三支's 52) and set 13 of them in three duns. A round scores in 道: 打槍 (a shot: losing no
dun to an opponent), 全壘打 (a home run: shooting all three others) and 額外加分 (a bonus per opponent
beaten in a dun with a listed category). Their points are the fields of ``ThirteenRules``; ``GSCAS`` is
every function's default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from service.rules.hand_value import HandValue
from service.rules.parameters import DeclaredRules, Value, array, digest_of, integer, listed, one_of, record
from service.rules.thirteen.duns import (
    _CATEGORY_BY_ORDER_RUNG,
    DUNS,
    JOKER_DECK,
    ORDINARY_DECK,
    Category,
    Dun,
    ThirteenDeck,
)

PLAYERS = 4
HAND_SIZE = JOKER_DECK.hand_size
BONUS_MAX = 100  # the largest bonus a request may set (as OFC's royalties)


_BONUS = record(dun=one_of(d.value for d in DUNS), category=Value("string"), points=integer())


def _write_bonus(bonus: Mapping[tuple[Dun, Category], int]) -> list[dict[str, Any]]:
    return [{"dun": d.value, "category": c.value, "points": p} for (d, c), p in bonus.items()]


@dataclass(frozen=True, slots=True, kw_only=True)  # keywords only: a new parameter may take a default anywhere
class ThirteenRules(DeclaredRules):
    """A rule set as one frozen data object, passed explicitly to every operation as the OFC games pass
    ``OfcRules``: a variant is another instance. The deck belongs to the game (``GET /v1/games`` lists it
    there), so ``describe`` and ``digest`` cover the scoring and the id, which names the game's rule set."""

    id: str
    shot: int = listed("shot", integer())  # 打槍: points from each opponent shot (no dun lost to him; 平手也算不輸)
    home_run: int = listed("home_run", integer())  # 全壘打: shooting all three others, paid equally by the three
    bonus: Mapping[tuple[Dun, Category], int] = listed(
        "bonus", array(_BONUS), _write_bonus
    )  # 額外加分 per opponent beaten in the dun with this exact category
    deck: ThirteenDeck = JOKER_DECK  # the deck dealt, and how many cards each player gets
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
        object.__setattr__(self, "digest", digest_of(self.canonical()))

    def with_bonuses(self, tables: Mapping[str, Mapping[str, int]]) -> ThirteenRules:
        """These rules with a house bonus table: each dun named in ``tables`` (by name) has every bonus of
        this rule set's table for that dun replaced, nothing added (``ValueError`` otherwise)."""
        for dun, table in tables.items():
            book = {c.value for d, c in self.bonus if d == dun}
            if dun not in _DUN_NAMES or set(table) != book:
                raise ValueError(f"a {dun} bonus table holds exactly {sorted(book)}")
            if any(not 0 <= points <= BONUS_MAX for points in table.values()):
                raise ValueError(f"a bonus is 0 to {BONUS_MAX}")
        bonus = {(d, c): tables[d.value][c.value] if d.value in tables else p for (d, c), p in self.bonus.items()}
        return replace(self, bonus=bonus)


GSCAS = ThirteenRules(
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
"""The house rules (鬼牌十三支加一色): Joker Thirteen's rule set, and every function's default."""

ORDINARY = ThirteenRules(
    id="ordinary",
    shot=1,
    home_run=9,
    bonus={
        (Dun.HEAD, Category.TRIPS): 1,
        (Dun.MIDDLE, Category.QUADS): 2, (Dun.MIDDLE, Category.STRAIGHT_FLUSH): 2,
        (Dun.TAIL, Category.QUADS): 1, (Dun.TAIL, Category.STRAIGHT_FLUSH): 1,
    },
    deck=ORDINARY_DECK,
)  # fmt: skip  # the bonus table laid out by dun, two categories a line
"""Ordinary 十三支: the house rules without the extra suit and the jokers ("這個玩法跟一般十三支不同的地方有兩個：
加一色 … 鬼牌 …"): one 52-card deck, 13 cards each, and the house bonuses of the categories it can make."""

BONUS = GSCAS.bonus
"""額外加分 of the house rules: points per opponent whose dun is strictly beaten with this exact category."""


_DUN_NAMES = frozenset(d.value for d in DUNS)


def bonus(dun: Dun | str, hand: HandValue, rules: ThirteenRules = GSCAS) -> int:
    """Points per opponent beaten with ``hand`` in ``dun``: by exact category, so 鬼三條 never also counts as 衝三."""
    return rules.bonus_by_name.get((dun, hand.category), 0)
