"""A Big Two table's rules as one frozen data object, passed explicitly to every operation as the OFC games
pass ``OfcRules``: a variant is another instance, never a new ``if``.

Two rule sets are declared: ``TAIWAN``, the house rules (台灣大老二, the default), and ``HONG_KONG``, the common
game the house book contrasts itself with (鋤大D). A table's own rules are a declared set with some parameters
replaced (``with_parameters``). Every parameter is checked for consistency (``BigTwoRules.__post_init__``):
an inconsistent set is refused, naming the parameter, never guessed at (docs/rulings.md, "Big Two rule sets").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from service.rules.big_two.common import (
    DOMAIN,
    HAND_SIZE,
    STRAIGHTS,
    Combination,
    FlushOrder,
    ProblemCode,
    StraightSuitCard,
)
from service.rules.big_two.ladder import Ladder
from service.rules.cards import RANK_SYMBOLS, Suit
from service.rules.errors import InputProblem, InvalidInputError, problem
from service.rules.parameters import (
    DeclaredRules,
    array,
    by_value,
    choice,
    choices,
    count,
    declare,
    declared,
    digest_of,
    flag,
    integer,
    place_of,
    read_changes,
    record,
)

MAX_BASE = 10**9
"""The largest base a game may be scored at."""
EXACT = 2**53
"""Every payment and the winner's sum stay below this, so that they are exact in every JSON client (a double)."""
MAX_MULTIPLIER = (EXACT - 1) // (MAX_BASE * HAND_SIZE * 3)
"""The largest loser multiplier x winner multiplier a table may reach: the winner's sum of three payments of
base x 13 cards x that stays exact at ``MAX_BASE``."""

FIVE_CARD_PLAYS = (
    Combination.STRAIGHT,
    Combination.FLUSH,
    Combination.FULL_HOUSE,
    Combination.FOUR_OF_A_KIND,
    Combination.STRAIGHT_FLUSH,
)
"""Every five-card play a table may allow."""
SHORT_PLAYS = (Combination.SINGLE, Combination.PAIR, Combination.TRIPLE)
"""Every play of one, two or three cards a table may allow."""
MONSTER_KINDS = (Combination.FOUR_OF_A_KIND, Combination.STRAIGHT_FLUSH)
"""The plays a table may make monsters (「鐵支與同花順稱為『怪物』」)."""

# The cyclic order of the ranks as poker ranks (A=14): a straight is five of them in a row, wrapping past the A.
_CYCLE = (14, *range(2, 14))
CYCLIC_RUNS: tuple[tuple[int, ...], ...] = tuple(tuple(_CYCLE[(i + k) % 13] for k in range(5)) for i in range(13))
"""The thirteen runs of five ranks in the cyclic order A 2 3 ... K A, from A2345 to KA234: every straight a
table may allow."""


@dataclass(frozen=True, slots=True)
class CardsLeftTier:
    least: int  # the fewest cards left that reach the tier
    multiplier: int
    case: str  # the tier's name in the factor's text ("8-9"), or "range"/"exactly" with ``most``
    most: int | None = None  # the most cards left in the tier, for a tier named by its bounds


def cards_left_tiers(bounds: Sequence[tuple[int, int]]) -> tuple[CardsLeftTier, ...]:
    """A table's own tiers from ``(at_least, multiplier)``, most cards first, each named by its bounds in the
    factor's text ("5-9 cards left", "13 cards left")."""
    tiers, most = [], HAND_SIZE
    for least, multiplier in bounds:
        tiers.append(CardsLeftTier(least, multiplier, "exactly" if least == most else "range", most))
        most = least - 1
    return tuple(tiers)


def rank_text(ranks: tuple[int, ...]) -> str:
    """A run of poker ranks as its ranks' symbols: ``"A2345"``, ``"TJQKA"``."""
    return "".join(RANK_SYMBOLS[r - 2] for r in ranks)


_RUNS = {rank_text(run): run for run in CYCLIC_RUNS}
_TIER = record("CardsLeftTier", at_least=integer(0, HAND_SIZE), multiplier=integer(1, MAX_MULTIPLIER))


def _read_tiers(tiers: Sequence[Mapping[str, int]]) -> tuple[CardsLeftTier, ...]:
    return cards_left_tiers([(t["at_least"], t["multiplier"]) for t in tiers])


def _write_tiers(tiers: tuple[CardsLeftTier, ...]) -> list[dict[str, int]]:
    return [{"at_least": t.least, "multiplier": t.multiplier} for t in tiers]


def _multiplier(place: tuple[str, str]) -> Any:
    return count(place, 1, MAX_MULTIPLIER)


_LOSER, _WINNER = "loser_multipliers", "winner_multipliers"


@dataclass(frozen=True, slots=True, kw_only=True)  # keywords only: a new parameter may take a default anywhere
class BigTwoRules(DeclaredRules):
    """One table's rules: what may be played and how plays compare, the turn's rules and the scoring.

    Lists run low to high. ``plays`` holds the plays of one to five cards; the dragons are ``dragons``. Each
    parameter is declared on its field, with its place in ``describe()`` (service/rules/parameters.py)."""

    id: str
    # --- cards and plays ---
    suit_order: tuple[Suit, ...] = choices("suit_order", by_value(Suit), least=4)  # the lowest card: the first's 3
    plays: tuple[Combination, ...] = choices("plays", by_value(SHORT_PLAYS + FIVE_CARD_PLAYS))  # besides the dragons
    five_card_order: tuple[Combination, ...] = choices("five_card_order", by_value(FIVE_CARD_PLAYS))  # low to high
    five_beats_lower_kind: bool = flag("five_beats_lower_kind")  # a five-card play beats one of a lower kind
    monsters: tuple[Combination, ...] = choices("monsters", by_value(MONSTER_KINDS))  # beat all but a higher one
    straights: tuple[tuple[int, ...], ...] = choices("straights", _RUNS)  # as poker ranks (A=14)
    straight_suit_card: StraightSuitCard = choice("straight_suit_card", by_value(StraightSuitCard))
    flush_order: FlushOrder = choice("flush_order", by_value(FlushOrder))
    dragons: bool = flag("dragons")  # 13 cards A to K, one of each rank, while holding all 13
    # --- the turn ---
    first_play_has_lowest_card: bool = flag("first_play_has_lowest_card")  # the game's first play holds the lowest card
    pass_locks: bool = flag("pass_locks")  # a player who passes takes no further part in the trick
    # --- scoring ---
    cards_left_tiers: tuple[CardsLeftTier, ...] = declare(
        (_LOSER, "cards_left"), array(_TIER, HAND_SIZE + 1, 1), read=_read_tiers, write=_write_tiers
    )  # highest first: 「剩餘張數的級距只取一級」, the first one reached
    two_held: int = _multiplier((_LOSER, "per_two_held"))  # per 2 a loser still holds (raised to their count)
    monster_held: int = _multiplier((_LOSER, "monster_held"))  # a loser who still holds a monster or a dragon
    grand_slam: int = _multiplier((_WINNER, "grand_slam"))  # 大滿貫
    three_of_clubs_finish: int = _multiplier((_WINNER, "three_of_clubs_finish"))  # the last play holds the 3 of clubs
    two_finish: int = _multiplier((_WINNER, "per_two_finish"))  # per 2 in the last play (raised to their count)
    monster_finish: int = _multiplier((_WINNER, "monster_finish"))  # finishing with a monster or a dragon
    green_dragon_finish: int = _multiplier((_WINNER, "green_dragon_finish"))  # 「以 ×20 取代怪物收尾的 ×2」
    digest: str = field(init=False)  # what GET /v1/games lists beside ``describe()``, as for OfcRules
    ladder: Ladder = field(init=False, repr=False, compare=False)  # the plays and their values, built once
    kept: dict[str, Any] = field(init=False, repr=False, compare=False)  # the scoring's tables, built once (scoring.py)

    def __post_init__(self) -> None:
        problems = _inconsistencies(self)
        if problems:
            raise InvalidInputError(problems)
        object.__setattr__(self, "ladder", Ladder(self))
        object.__setattr__(self, "kept", {})
        object.__setattr__(self, "digest", digest_of(self.canonical()))

    def with_parameters(self, **changes: Any) -> BigTwoRules:
        """These rules with some parameters replaced (``InvalidInputError`` naming each inconsistent one)."""
        known = dict(declared(type(self)))
        unknown = [name for name in changes if name not in known]
        if unknown:
            raise InvalidInputError([_refused((name,), "unknown") for name in unknown])
        return replace(self, **changes) if changes else self

    def with_description(self, described: Mapping[str, Any]) -> BigTwoRules:
        """These rules with the parameters in ``described`` replaced, each written as ``describe()`` writes it
        (any of them; a multipliers' object with any of its own): how a request states its table's rules."""
        return self.with_parameters(**read_changes(type(self), described, _refused))


def _inconsistent(parameter: str, case: str) -> InputProblem:
    return _refused(place_of(BigTwoRules, parameter), case)


def _refused(place: tuple[str, ...], case: str) -> InputProblem:
    """The problem of what is written at ``place`` in a table's rules."""
    return problem(DOMAIN, ("rules", *place), ProblemCode.INCONSISTENT_RULES, case=case, parameter=".".join(place))


def largest_multiplier(rules: BigTwoRules) -> int:
    """The most a loser multiplier x the winner multiplier can be at this table (or a little more): a loser
    keeps up to four 2s and a monster; a last play holds up to four 2s with a monster (2222 and a kicker, the
    3 of clubs), or is a dragon, which holds one 2."""
    loser = max((t.multiplier for t in rules.cards_left_tiers), default=1) * rules.two_held**4 * rules.monster_held
    finish = max(
        rules.two_finish**4 * rules.monster_finish,
        rules.two_finish * max(rules.monster_finish, rules.green_dragon_finish),
    )
    return loser * rules.grand_slam * rules.three_of_clubs_finish * finish


def _inconsistencies(rules: BigTwoRules) -> list[InputProblem]:
    """Why ``rules`` cannot be played (ruling 10), each naming its parameter: none for a consistent set."""
    found = [] if sorted(rules.suit_order) == sorted(Suit) else [_inconsistent("suit_order", "suits")]
    found += _play_inconsistencies(rules)
    sequenced = {Combination.STRAIGHT, Combination.STRAIGHT_FLUSH} & set(rules.plays)
    if not _distinct(rules.straights, within=CYCLIC_RUNS) or (sequenced and not rules.straights):
        found.append(_inconsistent("straights", "straights"))
    tiers = rules.cards_left_tiers
    leasts = [t.least for t in tiers]
    descending = bool(tiers) and leasts == sorted(set(leasts), reverse=True)
    bounded = all(t.most in (None, most) for t, most in zip(tiers, [HAND_SIZE, *(least - 1 for least in leasts)]))
    if not descending or not bounded or leasts[0] > HAND_SIZE or leasts[-1] > 1 or any(t.multiplier < 1 for t in tiers):
        found.append(_inconsistent("cards_left_tiers", "tiers"))
    multipliers = [name for name, parameter in declared(BigTwoRules) if parameter.value.type == "integer"]
    found += [_inconsistent(name, "multiplier") for name in multipliers if getattr(rules, name) < 1]
    most = 0 if found else largest_multiplier(rules)
    if most <= MAX_MULTIPLIER:
        return found
    return [problem(DOMAIN, ("rules",), ProblemCode.INCONSISTENT_RULES, case="exact", most=most, limit=MAX_MULTIPLIER)]


def _play_inconsistencies(rules: BigTwoRules) -> list[InputProblem]:
    """The plays, then the five-card order against them, then the monsters against that order: each list is
    checked against the one it must agree with only when that one is consistent itself."""
    if not _distinct(rules.plays, within=SHORT_PLAYS + FIVE_CARD_PLAYS) or Combination.SINGLE not in rules.plays:
        return [_inconsistent("plays", "plays")]
    five_card_plays = [c for c in rules.plays if c in FIVE_CARD_PLAYS]
    if not _distinct(rules.five_card_order, within=five_card_plays) or len(rules.five_card_order) != len(
        five_card_plays
    ):
        return [_inconsistent("five_card_order", "five_card_plays")]
    in_order = [c for c in rules.five_card_order if c in rules.monsters]
    if not _distinct(rules.monsters, within=MONSTER_KINDS) or in_order != list(rules.monsters):
        return [_inconsistent("monsters", "monsters")]
    return []


def _distinct(items: tuple[Any, ...], within: Sequence[Any]) -> bool:
    """Whether ``items`` are all of ``within``, none twice."""
    return len(set(items)) == len(items) and set(items) <= set(within)


TAIWAN = BigTwoRules(
    id="taiwan",
    suit_order=(Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES),
    plays=(
        Combination.SINGLE,
        Combination.PAIR,
        Combination.STRAIGHT,
        Combination.FULL_HOUSE,
        Combination.FOUR_OF_A_KIND,
        Combination.STRAIGHT_FLUSH,
    ),  # fmt: skip  # the rule book's six, two lines
    five_card_order=(
        Combination.STRAIGHT,
        Combination.FULL_HOUSE,
        Combination.FOUR_OF_A_KIND,
        Combination.STRAIGHT_FLUSH,
    ),  # fmt: skip  # the four, two lines
    five_beats_lower_kind=False,  # 「一般牌型只能被同一種牌型壓過」
    monsters=(Combination.FOUR_OF_A_KIND, Combination.STRAIGHT_FLUSH),  # 「同花順 ＞ 鐵支」
    straights=STRAIGHTS,  # A2345 lowest, 23456 highest
    straight_suit_card=StraightSuitCard.HIGHEST,
    flush_order=FlushOrder.HIGHEST_CARD,  # (no flush)
    dragons=True,
    first_play_has_lowest_card=False,  # 「第一手可以出任何合法牌型，不必包含梅花 3」
    pass_locks=False,  # 「PASS 可以回頭」
    cards_left_tiers=(
        CardsLeftTier(13, 4, "13"),
        CardsLeftTier(10, 3, "10-12"),
        CardsLeftTier(8, 2, "8-9"),
        CardsLeftTier(0, 1, "0-7"),
    ),
    two_held=2,
    monster_held=2,
    grand_slam=2,
    three_of_clubs_finish=2,
    two_finish=2,
    monster_finish=2,
    green_dragon_finish=20,
)
"""The house rules (台灣大老二): every function's default."""

HONG_KONG = BigTwoRules(
    id="hong-kong",
    suit_order=(Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES),
    plays=(Combination.SINGLE, Combination.PAIR, Combination.TRIPLE, *FIVE_CARD_PLAYS),
    five_card_order=FIVE_CARD_PLAYS,
    five_beats_lower_kind=True,
    monsters=(),
    straights=(STRAIGHTS[0], STRAIGHTS[-1], *STRAIGHTS[1:-1]),  # A2345, 23456, 34567, ..., 10JQKA
    straight_suit_card=StraightSuitCard.TOP,
    flush_order=FlushOrder.HIGHEST_CARD,
    dragons=False,
    first_play_has_lowest_card=True,  # the holder of the 3 of diamonds leads with it
    pass_locks=True,
    cards_left_tiers=cards_left_tiers([(13, 4), (10, 3), (8, 2), (1, 1)]),  # 13, 10-12, 8-9, 1-7 cards left
    two_held=1,  # no factor but the cards left
    monster_held=1,
    grand_slam=1,
    three_of_clubs_finish=1,
    two_finish=1,
    monster_finish=1,
    green_dragon_finish=1,
)
"""The common game (鋤大D) as played in Hong Kong and the mainland (docs/rulings.md, "Taiwanese Big Two")."""
