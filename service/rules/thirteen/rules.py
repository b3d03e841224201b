"""The Thirteen games' rule sets as data, one frozen ``ThirteenRules`` each: Joker Thirteen's house rules
(鬼牌十三支加一色, ``GSCAS``), ordinary 十三支 (``ORDINARY``) and 十三水 (``SHISANSHUI``).

Four players (``PLAYERS``) are each dealt the deck's deal (17 cards of Joker Thirteen's 68, ``HAND_SIZE``;
13 of ordinary 十三支's 52) and set 13 of them in three duns. A table's scoring is the fields of
``ThirteenRules``, each declared once as a parameter (``service/rules/parameters.py``): the points of a won
dun and of a majority of duns, 打槍 (the sweep: its condition, points and multiplier), 全壘打 (the home run:
sweeping all three others), 額外加分 (a bonus per opponent beaten in a dun with a listed category), what a
fouled arrangement (相公) does, and the special hands (報到) a table pays. ``GSCAS`` is every function's
default. A table whose parameters cannot be played together is refused (``InvalidInputError``, ruling 13 of
the rules folder: docs/rulings.md), each problem naming its parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from service.rules.errors import InputProblem, InvalidInputError, problem
from service.rules.hand_value import HandValue
from service.rules.parameters import (
    DeclaredRules,
    Value,
    array,
    by_value,
    choice,
    count,
    declare,
    digest_of,
    flag,
    integer,
    listed,
    one_of,
    place_of,
    read_changes,
    record,
)
from service.rules.thirteen.duns import (
    _CATEGORY_BY_ORDER_RUNG,
    DOMAIN,
    DUNS,
    JOKER_DECK,
    ORDINARY_DECK,
    RUNG,
    Category,
    Dun,
    ThirteenDeck,
)
from service.rules.thirteen.specials import SPECIALS, Special

PLAYERS = 4
HAND_SIZE = JOKER_DECK.hand_size
BONUS_MAX = 100  # the largest bonus a request may set (as OFC's royalties)
POINTS_MAX = 1000  # the most a won dun, a majority, a sweep, a home run or a special pays (ruling 13)
MULTIPLIER_MAX = 4  # the largest sweep or home-run multiplier (ruling 13)


class ProblemCode(StrEnum):
    """Codes of the impossible input the Thirteen games refuse (HTTP 422), besides ``ArrangementViolation``'s
    and the card notation's (``cards.NotationProblem``)."""

    WRONG_PLAYER_COUNT = "wrong_player_count"
    INCONSISTENT_RULES = "inconsistent_rules"
    DECLARATION = "declaration"  # a player's declared special the table does not take


class Sweep(StrEnum):
    """When one player sweeps another (打槍): losing no dun to it (a tie is not lost), or winning all three."""

    NO_DUN_LOST = "no_dun_lost"
    ALL_DUNS_WON = "all_duns_won"


class Foul(StrEnum):
    """What an illegal arrangement (相公) does: refused as impossible input, or it loses everything."""

    REFUSED = "refused"
    LOSES_ALL = "loses_all"


class SpecialVsSpecial(StrEnum):
    """What two players scored by specials pay: the higher takes its own points, or their difference."""

    HIGHER_TAKES_ITS_POINTS = "higher_takes_its_points"
    DIFFERENCE = "difference"


class Declare(StrEnum):
    """Whether a hand is scored by its special by itself, or only when the player declares it."""

    AUTOMATIC = "automatic"
    BY_PLAYER = "by_player"


_BONUS = record(dun=one_of(d.value for d in DUNS), category=Value("string"), points=integer())


def _write_bonus(bonus: Mapping[tuple[Dun, Category], int]) -> list[dict[str, Any]]:
    return [{"dun": d.value, "category": c.value, "points": p} for (d, c), p in bonus.items()]


_SPECIAL_POINTS = Value(
    "object",
    properties=tuple((s.value, integer(0, POINTS_MAX)) for s in SPECIALS),
    name="SpecialPoints",
    optional=True,
)


def _read_specials(written: Mapping[str, int]) -> Mapping[Special, int]:
    """A table's specials and their points, high to low (the catalog's order) whatever order they are written in."""
    points = {Special(code): value for code, value in written.items()}
    return {s: points[s] for s in SPECIALS if s in points}


def _write_specials(specials: Mapping[Special, int]) -> dict[str, int]:
    return {s.value: points for s, points in specials.items()}


_DUN_CATEGORIES = {
    dun: tuple(
        c
        for c in _CATEGORY_BY_ORDER_RUNG
        if c is not None
        and (dun is not Dun.HEAD or c in (Category.HIGH_CARD, Category.PAIR, Category.TRIPS, Category.THREE_JOKERS))
    )
    for dun in DUNS
}
"""The categories a bonus may be paid for in each dun (a head holds three cards)."""
_BONUS_ORDER = {(dun, c): (DUNS.index(dun), RUNG[c]) for dun in DUNS for c in _DUN_CATEGORIES[dun]}


@dataclass(frozen=True, slots=True, kw_only=True)  # keywords only: a new parameter may take a default anywhere
class ThirteenRules(DeclaredRules):
    """A rule set as one frozen data object, passed explicitly to every operation as the OFC games pass
    ``OfcRules``: a variant is another instance. The deck belongs to the game (``GET /v1/games`` lists it
    there), so ``describe`` and ``digest`` cover the scoring and the id, which names the game's rule set."""

    id: str
    # Listed for the clients that read them before the table's scoring was declared: the sweep's points, and
    # what a home run collects from the three others before its multiplier. Derived, never set. The scoring
    # declared since implies the house book's values (``implied``): a house table's digest is what it was.
    shot: int = listed("shot", integer(), init=False)  # 打槍: ``sweep_points``
    home_run: int = listed("home_run", integer(), init=False)  # 全壘打: ``home_run_points`` from each of three
    bonus: Mapping[tuple[Dun, Category], int] = listed(
        "bonus", array(_BONUS), _write_bonus
    )  # 額外加分 per opponent beaten in the dun with this exact category (a request's ``bonuses`` replaces it)
    dun_points: int = count("dun_points", 0, POINTS_MAX, implied=0)  # each dun won strictly (a tie pays nothing)
    majority_points: int = count(
        "majority_points", 0, POINTS_MAX, implied=0
    )  # winning more duns of the three than lost
    sweep: Sweep = choice(
        "sweep", by_value(Sweep), implied=Sweep.NO_DUN_LOST
    )  # 打槍: no dun lost (平手也算不輸), or all three won
    sweep_points: int = count("sweep_points", 0, POINTS_MAX, implied=1)  # added to a swept pair's total
    sweep_multiplier: int = count("sweep_multiplier", 1, MULTIPLIER_MAX, implied=1)  # then multiplying it
    sweep_multiplies_bonuses: bool = flag(
        "sweep_multiplies_bonuses", implied=False
    )  # the bonuses inside the multiplied total
    home_run_points: int = count("home_run_points", 0, POINTS_MAX, implied=3)  # 全壘打: more from each player swept
    home_run_multiplier: int = count("home_run_multiplier", 1, MULTIPLIER_MAX, implied=1)  # then multiplying each pair
    foul: Foul = choice(
        "foul", by_value(Foul), implied=Foul.REFUSED
    )  # 相公: refused, or it loses all to each player who did not foul
    specials: Mapping[Special, int] = declare(
        "specials", _SPECIAL_POINTS, read=_read_specials, write=_write_specials, implied={}, default_factory=dict
    )  # 報到: the points of each special the table pays, high to low ({}: none)
    special_vs_special: SpecialVsSpecial | None = choice(
        "special_vs_special", by_value(SpecialVsSpecial), null=True, implied=None, default=None
    )  # two specials: the higher takes its points, or the difference (null: the table pays no special)
    declare: Declare | None = choice(
        "declare", by_value(Declare), null=True, implied=None, default=None
    )  # a special scored automatically, or only when declared (null: the table pays no special)
    deck: ThirteenDeck = JOKER_DECK  # the deck dealt, and how many cards each player gets
    bonus_by_name: Mapping[tuple[str, str], int] = field(init=False, repr=False, compare=False)
    # per dun (head, middle, tail), the points by the dun's rung plus one (``duns._order(strength) >>
    # duns._RUNG_SHIFT``): the round's settlement reads them by index
    bonus_by_rung: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    digest: str = field(init=False, compare=False)
    # the house book's scoring (every parameter declared since at its implied value): answered as the games
    # always answered; any other table's answers also say why (each part, specials, fouls, sweeps)
    house_scored: bool = field(init=False, compare=False)
    kept: dict[str, Any] = field(init=False, repr=False, compare=False)  # tables derived by the scoring, once

    def __post_init__(self) -> None:
        problems = _inconsistencies(self)
        if problems:
            raise InvalidInputError(problems)
        # one order for a bonus table (by dun, then up the ladder), however it was built: the digest's
        object.__setattr__(self, "bonus", dict(sorted(self.bonus.items(), key=lambda entry: _BONUS_ORDER[entry[0]])))
        object.__setattr__(self, "shot", self.sweep_points)
        object.__setattr__(self, "home_run", self.home_run_points * (PLAYERS - 1))
        # str enums hash and compare as their values: the names look up without building an enum per call
        object.__setattr__(self, "bonus_by_name", {(d.value, c.value): points for (d, c), points in self.bonus.items()})
        by_rung = tuple(
            tuple(0 if c is None else self.bonus.get((dun, c), 0) for c in _CATEGORY_BY_ORDER_RUNG)
            for dun in (Dun.HEAD, Dun.MIDDLE, Dun.TAIL)
        )
        object.__setattr__(self, "bonus_by_rung", by_rung)
        object.__setattr__(self, "digest", digest_of(self.canonical()))
        object.__setattr__(self, "house_scored", self.as_served())
        object.__setattr__(self, "kept", {})

    def with_bonuses(self, tables: Mapping[str, Mapping[str, int]]) -> ThirteenRules:
        """These rules with a house bonus table: each dun named in ``tables`` (by name) has its table
        replaced whole, a category it does not name paying nothing; a dun not named keeps this rule set's
        (``ValueError`` for a category the dun cannot hold or points outside 0 to ``BONUS_MAX``)."""
        bonus = dict(self.bonus)  # in this rule set's order, so a table sending its entries lists them alike
        for name, table in tables.items():
            dun = Dun(name)
            if any(Category(c) not in _DUN_CATEGORIES[dun] or not 0 <= p <= BONUS_MAX for c, p in table.items()):
                raise ValueError(f"a {dun} bonus is one of {_DUN_CATEGORIES[dun]}, 0 to {BONUS_MAX}")
            bonus |= {(d, c): table.get(c.value, 0) for d, c in self.bonus if d is dun}
            bonus |= {(dun, Category(c)): p for c, p in table.items() if p and (dun, Category(c)) not in bonus}
        return replace(self, bonus=bonus)

    def with_description(self, described: Mapping[str, Any]) -> ThirteenRules:
        """These rules with the parameters in ``described`` replaced, each written as ``describe()`` writes it
        (any of them): how a request states its table's scoring. ``InvalidInputError`` naming each parameter
        that cannot be read or played with the others."""
        changes = read_changes(type(self), described, _refused)
        return replace(self, **changes) if changes else self


def _refused(place: tuple[str, ...], case: str) -> InputProblem:
    """The problem of what is written at ``place`` in a table's rules."""
    return problem(DOMAIN, ("rules", *place), ProblemCode.INCONSISTENT_RULES, case=case, parameter=".".join(place))


def _inconsistencies(rules: ThirteenRules) -> list[InputProblem]:
    """Why a scoring cannot be played (ruling 13), each naming its parameter: none for a consistent one. The
    bounds of each number are its declaration's; what is left is how parameters go together."""
    found = []
    if rules.specials and not rules.deck.distinct:  # specials are of one 52-card deck: none at Joker Thirteen
        found.append(_refused(place_of(ThirteenRules, "specials"), "deck"))
    for name in ("special_vs_special", "declare"):
        if rules.specials and rules.deck.distinct and getattr(rules, name) is None:
            found.append(_refused(place_of(ThirteenRules, name), "needed"))
    return found


_HOUSE_SCORING: dict[str, Any] = {
    "dun_points": 0,
    "majority_points": 0,
    "sweep": Sweep.NO_DUN_LOST,  # 打槍: "平手也算不輸"
    "sweep_points": 1,
    "sweep_multiplier": 1,
    "sweep_multiplies_bonuses": False,
    "home_run_points": 3,  # "再 ＋9 道（等於向三家各多收 3 道）"
    "home_run_multiplier": 1,
    "foul": Foul.REFUSED,  # 相公 is impossible input
}
"""The house book's scoring, shared by both of its games: 打槍 +1, 全壘打 +9 (3 from each), no won dun paid."""

GSCAS = ThirteenRules(
    id="gscas",
    **_HOUSE_SCORING,
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
    **_HOUSE_SCORING,
    bonus={
        (Dun.HEAD, Category.TRIPS): 1,
        (Dun.MIDDLE, Category.QUADS): 2, (Dun.MIDDLE, Category.STRAIGHT_FLUSH): 2,
        (Dun.TAIL, Category.QUADS): 1, (Dun.TAIL, Category.STRAIGHT_FLUSH): 1,
    },
    deck=ORDINARY_DECK,
)  # fmt: skip  # the bonus table laid out by dun, two categories a line
"""Ordinary 十三支: the house rules without the extra suit and the jokers ("這個玩法跟一般十三支不同的地方有兩個：
加一色 … 鬼牌 …"): one 52-card deck, 13 cards each, and the house bonuses of the categories it can make."""

SHISANSHUI = ThirteenRules(
    id="shisanshui",
    dun_points=1,
    majority_points=0,
    sweep=Sweep.ALL_DUNS_WON,
    sweep_points=0,
    sweep_multiplier=2,  # 打槍: the pair's total doubled
    sweep_multiplies_bonuses=True,
    home_run_points=0,
    home_run_multiplier=2,  # 全壘打: each pair's total doubled again
    foul=Foul.LOSES_ALL,  # 倒水: it pays everyone as swept
    bonus={
        (Dun.HEAD, Category.TRIPS): 2,
        (Dun.MIDDLE, Category.FULL_HOUSE): 1, (Dun.MIDDLE, Category.QUADS): 7,
        (Dun.MIDDLE, Category.STRAIGHT_FLUSH): 9,
        (Dun.TAIL, Category.QUADS): 3, (Dun.TAIL, Category.STRAIGHT_FLUSH): 4,
    },
    specials={
        Special.SUPREME_DRAGON: 108, Special.DRAGON: 36, Special.TWELVE_ROYALS: 24,
        Special.THREE_STRAIGHT_FLUSHES: 22, Special.THREE_QUADS: 20, Special.ALL_BIG: 15, Special.ALL_SMALL: 12,
        Special.ONE_COLOUR: 10, Special.FOUR_TRIPS: 6, Special.FIVE_PAIRS_TRIPS: 5, Special.SIX_PAIRS: 4,
        Special.THREE_FLUSHES: 3, Special.THREE_STRAIGHTS: 3,
    },
    special_vs_special=SpecialVsSpecial.HIGHER_TAKES_ITS_POINTS,
    declare=Declare.AUTOMATIC,
    deck=ORDINARY_DECK,
)  # fmt: skip  # the bonus and special tables laid out by dun and by points
"""十三水 as the mainland and Taiwanese platforms score it: a won dun 1 水, the common dun values less that 1
(沖三 3, 中墩葫蘆 2, 中墩鐵支 8, 尾墩鐵支 4, 中墩同花順 10, 尾墩同花順 5), a sweep doubling the pair and its
bonuses, a home run doubling again, 倒水 paying everyone as swept, and every special paid, scored by itself."""

BONUS = GSCAS.bonus
"""額外加分 of the house rules: points per opponent whose dun is strictly beaten with this exact category."""


def bonus(dun: Dun | str, hand: HandValue, rules: ThirteenRules = GSCAS) -> int:
    """Points per opponent beaten with ``hand`` in ``dun``: by exact category, so 鬼三條 never also counts as 衝三."""
    return rules.bonus_by_name.get((dun, hand.category), 0)
