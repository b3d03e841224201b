"""The rules of Open-Face Chinese Poker as data: one frozen ``OfcRules`` per rule set.

A rule set is data, not a new ``if``: the deal schedule, the Fantasyland entry table, its stay conditions
and card counts, the three royalty tables and the scoring are fields of one frozen object, and the
operations of the ``ofc`` package take it as an argument (the house rules by default). Everything a hot
path looks up is derived once, when the object is built (``__post_init__``), never per call.

The four rule sets the rules folder names (docs/rulings.md, "Other OFC rule sets"):

* ``ultimate-fantasyland``: the house book (大菠蘿), the default of game ``ofc-pineapple``;
* ``standard``: the public Pineapple page: 2 or 3 players, Fantasyland QQ+ for 14 cards whatever the top,
  staying also by a middle full house, always 14; the house royalty table (ruling 7);
* ``progressive``: the house rules except that staying always gives 14 cards (ruling 9);
* ``classic``: Classic Open-Face Chinese (明牌十三張), game ``ofc-classic``: 2-4 players, 5 cards then
  eight rounds of 1, no discards, the forum's royalty table, no Fantasyland.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

from service.rules import poker
from service.rules.parameters import DeclaredRules, Value, array, digest_of, integer, listed, one_of, record
from service.rules.poker import Category


class Row(StrEnum):
    """A row of the board (道): top 3 cards, middle 5, bottom 5 (in every OFC rule set)."""

    TOP = "top"
    MIDDLE = "middle"
    BOTTOM = "bottom"

    # Rows are hashed and compared as the plain strings they are: Enum's own __hash__ is Python code,
    # and rows key every dict of a board on the scoring hot path.
    __hash__ = str.__hash__

    @property
    def size(self) -> int:
        return 3 if self == "top" else 5


RANK_TEXT = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "T",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
TOP_HANDS = (*(RANK_TEXT[r] * 2 for r in range(2, 15)), *(RANK_TEXT[r] * 3 for r in range(2, 15)))
"""The top row's hands that can earn a royalty or Fantasyland, by rank: pairs ``22``-``AA``, trips
``222``-``AAA`` (a high-card top never does)."""
FIVE_CARD_CATEGORIES = tuple(c.value for c in Category)
ROW_ROYALTY_KEYS = {"top": TOP_HANDS, "middle": FIVE_CARD_CATEGORIES, "bottom": FIVE_CARD_CATEGORIES}
"""Every key of each row's royalty table: a table (and a client's replacement for it) names all of them."""
ROYALTY_MAX = 100
RULE_SETS_KEPT = 16
"""How many rule sets made from requests' royalty tables each cache keyed by a rule set keeps, the most
recently used (each holds its royalty tables as far as they were used, 0.6 MiB at most: README,
"Production", "Memory")."""


class Deal(NamedTuple):
    """One round of a normal hand: cards dealt, cards placed (the rest are discarded)."""

    dealt: int
    placed: int

    @property
    def discarded(self) -> int:
        return self.dealt - self.placed


class StayRule(NamedTuple):
    """Fantasyland is kept when ``row`` reaches ``at_least`` (or better) without fouling."""

    row: str
    at_least: str  # a poker.Category value
    reason: str  # the answer's fantasyland_next.reason


def top_hand_key(strength: tuple[int, ...]) -> str | None:
    """``"QQ"`` / ``"AAA"`` for a top pair or trips by its strength, None for a high-card top."""
    rung = strength[0]
    if rung == poker.RUNG[Category.PAIR]:
        return RANK_TEXT[strength[1]] * 2
    if rung == poker.RUNG[Category.TRIPS]:
        return RANK_TEXT[strength[1]] * 3
    return None


def _group_strengths() -> tuple[dict[str | None, list[tuple[int, ...]]], dict[str | None, list[tuple[int, ...]]]]:
    """Every strength a top (by TOP_HANDS key, None for high card) and a five-card row (by category) can have."""
    top: dict[str | None, list[tuple[int, ...]]] = {key: [] for key in (None, *TOP_HANDS)}
    for r in poker.TOP3.values():
        top[top_hand_key(r.strength)].append(r.strength)
    five: dict[str | None, list[tuple[int, ...]]] = {None: [], **{c: [] for c in FIVE_CARD_CATEGORIES}}
    for r in (*poker.PLAIN5.values(), *poker.FLUSH5.values()):
        five[r.code].append(r.strength)
    return top, five


_TOP_STRENGTHS, _FIVE_STRENGTHS = _group_strengths()
_TOP_KEY = {strength: key for key, strengths in _TOP_STRENGTHS.items() for strength in strengths}
_FIVE_KEY = {strength: key for key, strengths in _FIVE_STRENGTHS.items() for strength in strengths}
"""Each strength's key of the royalty tables (None: a high-card top, which never earns one)."""


class RoyaltyTable(dict[tuple[int, ...], int]):
    """A row's royalty by the row's strength, filled as strengths are looked up: what a rule set made from a
    request's royalty table holds, since it lives for few requests and most of them value a few rows (a
    whole five-card table, every strength, is about 0.3 MiB). A look-up of a strength already there costs
    what a plain dict's does."""

    __slots__ = ("_key_of", "_points")

    def __init__(self, key_of: Mapping[tuple[int, ...], str | None], points: Mapping[str, int]) -> None:
        super().__init__()
        self._key_of = key_of
        self._points = points

    def __missing__(self, strength: tuple[int, ...]) -> int:
        key = self._key_of[strength]  # a KeyError for a strength no row has, as the whole table would give
        points = self[strength] = 0 if key is None else self._points[key]
        return points


def _frozen(table: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(table))


_PLAYERS = record(min=integer(), max=integer())
_DEAL = record(round=integer(), dealt=integer(), placed=integer(), discarded=integer())
_ROYALTIES = record(top=Value("object"), middle=Value("object"), bottom=Value("object"))
_STAY = record(row=one_of(ROW_ROYALTY_KEYS), at_least=Value("string"), reason=Value("string"))


def _write_deals(deals: tuple[Deal, ...]) -> list[dict[str, int]]:
    return [
        {"round": i, "dealt": d.dealt, "placed": d.placed, "discarded": d.discarded} for i, d in enumerate(deals, 1)
    ]


def _write_tables(royalties: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    return {row: dict(table) for row, table in royalties.items()}


def _write_stays(stays: tuple[StayRule, ...]) -> list[dict[str, str]]:
    return [{"row": rule.row, "at_least": rule.at_least, "reason": rule.reason} for rule in stays]


@dataclass(frozen=True, eq=False, kw_only=True)  # keywords only: a new parameter may take a default anywhere
class OfcRules(DeclaredRules):
    """One OFC rule set. Build variants with ``dataclasses.replace`` or ``with_royalties``: every derived
    table is rebuilt by ``__post_init__``.

    Equal and hashed by content (every parameter and name): the same royalty table sent twice makes two
    equal rule sets, one entry of any cache keyed by a rule set. ``digest`` names the content in answers."""

    id: str
    game: str
    name: str
    native_name: str
    source: str
    players: tuple[int, int] = listed("players", _PLAYERS, lambda p: {"min": p[0], "max": p[1]})  # fewest, most
    deals: tuple[Deal, ...] = listed("deals", array(_DEAL), _write_deals)  # the rounds of a normal hand, in order
    royalties: Mapping[str, Mapping[str, int]] = listed("royalties", _ROYALTIES, _write_tables)  # row -> key -> points
    overridden: tuple[str, ...] = listed("royalties_overridden", array(one_of(ROW_ROYALTY_KEYS)), list, default=())
    """The rows whose royalty table a request replaced."""
    fantasyland_entry: Mapping[str, int] = listed(
        ("fantasyland", "entry"), Value("object"), dict, default_factory=dict
    )  # top hand (TOP_HANDS) -> cards dealt
    fantasyland_stay: tuple[StayRule, ...] = listed(("fantasyland", "stay"), array(_STAY), _write_stays, default=())
    fantasyland_stay_cards: int | None = listed(
        ("fantasyland", "stay_cards"), integer(null=True), default=None
    )  # None: the count the player entered with (Ultimate)
    fantasyland_sizes: tuple[int, ...] = listed(("fantasyland", "cards"), array(integer()), list, init=False)
    row_point: int = listed(("scoring", "row"), integer(), default=1)  # per row won
    scoop_bonus: int = listed(("scoring", "scoop_bonus"), integer(), default=3)  # more for winning all three rows
    # Facts of every OFC rule set, listed so that a client reads the whole scoring in one place:
    fouled_royalties: int = listed(("scoring", "fouled_royalties"), integer(), init=False, default=0)
    fouler_loses_every_row: bool = listed(
        ("scoring", "fouler_loses_every_row"), Value("boolean"), init=False, default=True
    )
    two_foulers: int = listed(
        ("scoring", "two_foulers"), integer(), init=False, default=0
    )  # what two foulers pay each other

    # --- derived in __post_init__ (not fields: a replace() rebuilds them) ---
    board_size: int = field(init=False)
    rounds: int = field(init=False)
    top_royalty: Mapping[tuple[int, ...], int] = field(init=False, repr=False)
    middle_royalty: Mapping[tuple[int, ...], int] = field(init=False, repr=False)
    bottom_royalty: Mapping[tuple[int, ...], int] = field(init=False, repr=False)
    royalty_by_row: Mapping[Row, Mapping[tuple[int, ...], int]] = field(init=False, repr=False)
    entry_by_strength: Mapping[tuple[int, ...], tuple[int, str]] = field(init=False, repr=False)
    stay_rungs: tuple[tuple[Row, int, str], ...] = field(init=False, repr=False)
    # Each row's values by the table's rankings, filled on first use (board._row_value): at
    # most every ranking once per row. None for a rule set with a request's royalties, which lives for few
    # requests (and a client sending many tables must not fill many caches).
    ranked_rows: tuple[dict[Any, Any], dict[Any, Any], dict[Any, Any]] | None = field(init=False, repr=False)
    before_round: tuple[int, ...] = field(init=False, repr=False)
    digest: str = field(init=False)
    content: tuple[str, ...] = field(init=False, repr=False)  # what equality and the hash compare

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        for row, keys in ROW_ROYALTY_KEYS.items():
            given = self.royalties[row]
            if set(given) != set(keys) or not all(type(v) is int and 0 <= v <= ROYALTY_MAX for v in given.values()):
                raise ValueError(f"the {row} royalty table names each of {keys} once, with integers 0-{ROYALTY_MAX}")
        put(
            "royalties",
            _frozen(
                {row: _frozen({k: self.royalties[row][k] for k in keys}) for row, keys in ROW_ROYALTY_KEYS.items()}
            ),
        )
        put("fantasyland_entry", _frozen(self.fantasyland_entry))
        sizes = set(self.fantasyland_entry.values())
        if sizes and self.fantasyland_stay_cards is not None:
            sizes.add(self.fantasyland_stay_cards)
        put("fantasyland_sizes", tuple(sorted(sizes)))
        put("board_size", sum(d.placed for d in self.deals))
        put("rounds", len(self.deals))
        before = [0]
        for deal in self.deals[:-1]:
            before.append(before[-1] + deal.placed)
        put("before_round", tuple(before))
        # Hot-path tables, keyed by the row's strength as the evaluator gives it: one look-up per row. A
        # declared rule set's are whole, built from the strengths grouped once per module (_STRENGTHS); a
        # request's rule set gets tables filled as they are used (RoyaltyTable).
        tables: dict[Row, dict[tuple[int, ...], int]] = {}
        for row, groups in ((Row.TOP, _TOP_STRENGTHS), (Row.MIDDLE, _FIVE_STRENGTHS), (Row.BOTTOM, _FIVE_STRENGTHS)):
            if self.overridden:
                tables[row] = RoyaltyTable(_TOP_KEY if row is Row.TOP else _FIVE_KEY, self.royalties[row])
                continue
            table: dict[tuple[int, ...], int] = dict.fromkeys(groups[None], 0)
            for key, strengths in groups.items():
                if key is not None:
                    table.update(dict.fromkeys(strengths, self.royalties[row][key]))
            tables[row] = table
        put("top_royalty", tables[Row.TOP])
        put("middle_royalty", tables[Row.MIDDLE])
        put("bottom_royalty", tables[Row.BOTTOM])
        put("royalty_by_row", tables)
        entry: dict[tuple[int, ...], tuple[int, str]] = {}
        for key, cards in self.fantasyland_entry.items():
            reason = "enter_top_trips" if len(key) == 3 else f"enter_top_pair_{key}"
            entry.update(dict.fromkeys(_TOP_STRENGTHS[key], (cards, reason)))
        put("entry_by_strength", entry)
        put(
            "stay_rungs",
            tuple((Row(rule.row), poker.RUNG[Category(rule.at_least)], rule.reason) for rule in self.fantasyland_stay),
        )
        put("ranked_rows", None if self.overridden else ({}, {}, {}))
        canonical = self.canonical()
        put("digest", digest_of(canonical))
        put("content", (self.game, self.name, self.native_name, self.source, canonical))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, OfcRules) and self.content == other.content)

    def __hash__(self) -> int:
        return hash(self.content)

    @property
    def has_fantasyland(self) -> bool:
        return bool(self.fantasyland_entry)

    def deal(self, round_: int) -> Deal:
        """The deal of round ``round_`` (1-based) of a normal hand."""
        return self.deals[round_ - 1]

    def with_royalties(self, tables: Mapping[str, Mapping[str, int]]) -> OfcRules:
        """These rules with some royalty tables replaced (each table whole: every key of its row)."""
        if not tables:
            return self
        rows = tuple(r for r in ROW_ROYALTY_KEYS if r in tables or r in self.overridden)
        return replace(self, royalties={**self.royalties, **tables}, overridden=rows)


# --- the tables ----------------------------------------------------------------------------------------

_ZERO_FIVE = dict.fromkeys(FIVE_CARD_CATEGORIES, 0)
HOUSE_ROYALTIES = {
    "top": {
        **{RANK_TEXT[r] * 2: max(r - 5, 0) for r in range(2, 15)},
        **{RANK_TEXT[r] * 3: r + 8 for r in range(2, 15)},
    },
    "middle": {
        **_ZERO_FIVE,
        "trips": 2,
        "straight": 4,
        "flush": 8,
        "full_house": 12,
        "quads": 20,
        "straight_flush": 30,
        "royal_flush": 50,
    },
    "bottom": {
        **_ZERO_FIVE,
        "straight": 2,
        "flush": 4,
        "full_house": 6,
        "quads": 10,
        "straight_flush": 15,
        "royal_flush": 25,
    },
}
"""The house book's 獎分表: top 66 = 1 ... AA = 9, 222 = 10 ... AAA = 22; middle and bottom by category."""
CLASSIC_ROYALTIES = {
    "top": HOUSE_ROYALTIES["top"],
    "middle": {
        **_ZERO_FIVE,
        "straight": 4,
        "flush": 8,
        "full_house": 12,
        "quads": 16,
        "straight_flush": 20,
        "royal_flush": 40,
    },
    "bottom": {
        **_ZERO_FIVE,
        "straight": 2,
        "flush": 4,
        "full_house": 6,
        "quads": 8,
        "straight_flush": 10,
        "royal_flush": 20,
    },
}
"""The forum's first post: 尾道 顺子2/同花4/葫芦6/四条8/同花顺10/同花大顺20, 中道 twice that (no trips), 头道 as the house."""

PINEAPPLE_DEALS = (Deal(5, 5), Deal(3, 2), Deal(3, 2), Deal(3, 2), Deal(3, 2))
CLASSIC_DEALS = (Deal(5, 5), *(Deal(1, 1) for _ in range(8)))
_TRIPS = [RANK_TEXT[r] * 3 for r in range(2, 15)]
ULTIMATE_ENTRY = {"QQ": 14, "KK": 15, "AA": 16, **dict.fromkeys(_TRIPS, 17)}
HOUSE_STAY = (StayRule("top", "trips", "stay_top_trips"), StayRule("bottom", "quads", "stay_bottom_quads_or_better"))

ULTIMATE = OfcRules(
    id="ultimate-fantasyland",
    game="ofc-pineapple",
    name="Ultimate Fantasyland (house rules)",
    native_name="大菠蘿（Ultimate 范特西，本店規則）",
    source="ofc-pineapple/ultimate-fantasyland/2026-09-22",
    players=(3, 3),
    deals=PINEAPPLE_DEALS,
    royalties=HOUSE_ROYALTIES,
    fantasyland_entry=ULTIMATE_ENTRY,
    fantasyland_stay=HOUSE_STAY,
    fantasyland_stay_cards=None,
)
STANDARD = OfcRules(
    id="standard",
    game="ofc-pineapple",
    name="Standard Fantasyland (the public Pineapple page)",
    native_name="大菠蘿（標準范特西）",
    source="ofc-pineapple-background.en.txt",
    players=(2, 3),
    deals=PINEAPPLE_DEALS,
    royalties=HOUSE_ROYALTIES,
    fantasyland_entry={"QQ": 14, "KK": 14, "AA": 14, **dict.fromkeys(_TRIPS, 14)},
    fantasyland_stay=(
        *HOUSE_STAY[:1],
        StayRule("middle", "full_house", "stay_middle_full_house_or_better"),
        *HOUSE_STAY[1:],
    ),
    fantasyland_stay_cards=14,
)
PROGRESSIVE = replace(
    ULTIMATE,
    id="progressive",
    name="Progressive Fantasyland",
    native_name="大菠蘿（Progressive 范特西：續留一律降回 14 張）",
    source="ofc-pineapple.zh-TW.txt: 續留一律降回 14 張的 Progressive",
    fantasyland_stay_cards=14,
)
CLASSIC = OfcRules(
    id="classic",
    game="ofc-classic",
    name="Classic Open-Face Chinese Poker",
    native_name="明牌十三張",
    source="ofc-background-forum.zh-CN.txt",
    players=(2, 4),
    deals=CLASSIC_DEALS,
    royalties=CLASSIC_ROYALTIES,
)

HOUSE = ULTIMATE
"""The default: the authoritative house book."""
