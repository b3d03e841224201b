"""Big Two: the score of a finished game at a table (tests/big_two/test_scoring.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any, NamedTuple

from service.rules import messages
from service.rules.big_two.combinations import classify, play_value
from service.rules.big_two.common import (
    _COMBINATION_OF,
    DOMAIN,
    HAND_SIZE,
    SEATS,
    STRAIGHTS,
    THREE_OF_CLUBS,
    Combination,
    FactorCode,
    ProblemCode,
    _joker_problems,
    sort_cards,
)
from service.rules.big_two.rules import TAIWAN, BigTwoRules
from service.rules.cards import DECK, JOKER, Card, Suit, find_duplicates
from service.rules.errors import InputProblem, InvalidInputError, Path, problem, quoted
from service.rules.hand_value import HandValue


@dataclass(frozen=True, slots=True)
class Factor:
    """One factor of a multiplier: its code, its value (already raised to its count) and why.

    Its reason is the catalog's text ``factor.<code>`` with ``params`` (the HTTP layer renders it in the
    client's language; ``reason`` is the English text, on demand)."""

    factor: FactorCode
    value: int
    cards: tuple[Card, ...] = ()  # the cards that earn it (the 2s, the 3 of clubs, the monster)
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def reason(self) -> str:
        return messages.render(DOMAIN, f"factor.{self.factor.value}", self.params)


def _factor(code: FactorCode, value: int, cards: tuple[Card, ...] = (), **params: Any) -> Factor:
    """``Factor(code, value, cards, params)``, its text's parameters given by name."""
    return Factor(code, value, cards, params)


class LoserScore(NamedTuple):
    """A loser's score (NamedTuples, as ``WinnerScore`` and ``GameScore``: a scored game builds five of
    these objects, and a NamedTuple is the cheapest immutable value to build)."""

    seat: int | None  # None from score_game, which knows no seats
    cards: tuple[Card, ...]
    cards_left: int
    multiplier: int  # the loser multiplier: product of ``factors``
    factors: tuple[Factor, ...]
    payment: int  # base x cards left x loser multiplier x winner multiplier
    points: int  # -payment


class WinnerScore(NamedTuple):
    seat: int | None
    last_play: HandValue
    grand_slam: bool
    multiplier: int  # the winner multiplier applied to every loser: product of ``factors``
    factors: tuple[Factor, ...]
    points: int  # the sum of the payments


class GameScore(NamedTuple):
    base: int
    winner: WinnerScore
    losers: tuple[LoserScore, ...]


def score_game(
    base: int,
    last_play: Sequence[Card],
    grand_slam: bool,
    losers: Sequence[Sequence[Card]],
    rules: BigTwoRules = TAIWAN,
) -> GameScore:
    """Score a finished game from the winner's last play and the three losers' remaining cards."""
    played = tuple(last_play)
    left = [tuple(cards) for cards in losers]
    problems = _base_problems(base) + _score_problems(played, grand_slam, left, rules)
    if problems:
        raise InvalidInputError(problems)
    finish = play_value(played, rules) or classify(played, rules).hand  # (a 13-card play: classify's)
    assert finish is not None
    return _score(base, finish, grand_slam, None, [(None, cards) for cards in left], rules)


def _base_problems(base: object) -> list[InputProblem]:
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        return [problem(DOMAIN, ("base",), ProblemCode.INVALID_BASE, value=quoted(base))]
    return []


def _score_problems(
    played: tuple[Card, ...], grand_slam: object, left: list[tuple[Card, ...]], rules: BigTwoRules = TAIWAN
) -> list[InputProblem]:
    problems: list[InputProblem] = []
    if not isinstance(grand_slam, bool):
        problems.append(problem(DOMAIN, ("winner", "grand_slam"), ProblemCode.INVALID_GRAND_SLAM))
    if len(left) != SEATS - 1:
        problems.append(problem(DOMAIN, ("losers",), ProblemCode.WRONG_PLAYER_COUNT, case="losers", count=len(left)))
    for i, cards in enumerate(left):
        if not 1 <= len(cards) <= HAND_SIZE:
            problems.append(
                problem(DOMAIN, ("losers", i, "cards"), ProblemCode.WRONG_CARD_COUNT, case="loser", count=len(cards))
            )
    distinct = set(played).union(*left)
    if len(distinct) != len(played) + sum(map(len, left)) or JOKER in distinct:  # else nothing to name here
        located: list[tuple[Path, Card]] = [(("winner", "last_play", i), c) for i, c in enumerate(played)]
        for i, cards in enumerate(left):
            located += [(("losers", i, "cards", j), c) for j, c in enumerate(cards)]
        problems += _joker_problems(located)
        problems += find_duplicates([(path, c) for path, c in located if not c.is_joker])
    if problems:
        return problems
    if play_value(played, rules) is None:  # not a play of the tables: classify says whether it is one
        finish = classify(played, rules)
        if not finish.valid:
            problems += [v.as_problem("winner", "last_play") for v in finish.violations]
    if grand_slam is True and any(len(cards) != HAND_SIZE for cards in left):
        # 「其餘三家整局一張牌都沒出過」: every loser of a grand slam still holds 13 cards
        problems.append(problem(DOMAIN, ("winner", "grand_slam"), ProblemCode.GRAND_SLAM_IMPOSSIBLE))
    return problems


def _score(
    base: int,
    finish: HandValue,
    grand_slam: bool,
    winner_seat: int | None,
    losers: Sequence[tuple[int | None, tuple[Card, ...]]],
    rules: BigTwoRules = TAIWAN,
) -> GameScore:
    winner_factors = winner_multiplier_factors(finish, grand_slam, rules)
    winner_multiplier = _product(winner_factors)
    scored = []
    total = 0
    for seat, cards in losers:
        factors = loser_multiplier_factors(cards, rules)
        multiplier = _product(factors)
        payment = base * len(cards) * multiplier * winner_multiplier
        total += payment
        scored.append(LoserScore(seat, rules.ladder.sort(cards), len(cards), multiplier, factors, payment, -payment))
    winner = WinnerScore(winner_seat, finish, grand_slam, winner_multiplier, winner_factors, total)
    return GameScore(base, winner, tuple(scored))


def _product(factors: Iterable[Factor]) -> int:
    result = 1
    for f in factors:
        result *= f.value
    return result


def loser_multiplier_factors(cards: Sequence[Card], rules: BigTwoRules = TAIWAN) -> tuple[Factor, ...]:
    """The loser multiplier's factors: the one cards-left tier (always listed), the 2s, a monster (each only
    where the table's multiplier for it is not 1)."""
    tiers, twos_held, twos_by_bits = _loser_factors(rules)
    count = len(cards)
    tier = tiers[count] if count < len(tiers) else None
    factors = [_tier_factor(count, rules) if tier is None else tier]
    mask = sum(map(_BIT.__getitem__, cards))
    if mask.bit_count() == count and not mask >> _JOKER_BIT:  # the usual cards, each once: read as bits
        # the 2s are the four lowest bits (Card.index 0-3), and the monsters read off the same sum
        if mask & _TWOS_BITS and rules.two_held != 1:
            held_twos = twos_by_bits[mask & _TWOS_BITS]
            assert held_twos is not None  # every set of 2s but none has its factor
            factors.append(held_twos)
        if count >= _FEWEST_FOR_A_MONSTER and rules.monster_held != 1:
            kinds, monster_cards = _monsters_of_bits(tuple(cards), mask, rules)
            if kinds:
                factors.append(
                    _factor(FactorCode.MONSTER_HELD, rules.monster_held, monster_cards, kinds=[k.value for k in kinds])
                )
        return tuple(factors)
    twos = [c for c in cards if c.rank == 2]
    if twos and rules.two_held != 1:
        held = sort_cards(twos)
        two_factor = twos_held.get(held)
        if two_factor is None:  # never for a lawful hand (four 2s at most, each once)
            two_factor = _factor(FactorCode.TWOS_HELD, rules.two_held ** len(held), held, count=len(held))
        factors.append(two_factor)
    if len(cards) < _FEWEST_FOR_A_MONSTER or rules.monster_held == 1:
        return tuple(factors)
    kinds, monster_cards = monsters_left(cards, rules)
    if kinds:
        factors.append(
            _factor(FactorCode.MONSTER_HELD, rules.monster_held, monster_cards, kinds=[k.value for k in kinds])
        )
    return tuple(factors)


def _tier_factor(count: int, rules: BigTwoRules) -> Factor:
    # 「剩餘張數的級距只取一級」: the first tier whose least count the loser reaches, and only that one.
    tier = next(tier for tier in rules.cards_left_tiers if count >= tier.least)
    if tier.most is None:  # a tier of a declared rule set, named in the catalog
        return _factor(FactorCode.CARDS_LEFT_TIER, tier.multiplier, case=tier.case)
    return _factor(FactorCode.CARDS_LEFT_TIER, tier.multiplier, case=tier.case, least=tier.least, most=tier.most)


_TWOS: tuple[Card, ...] = tuple(c for c in DECK if c.rank == 2)  # in suit order, as DECK is
_TWOS_BITS = sum(1 << c.index for c in _TWOS)
assert _TWOS_BITS == 0b1111  # the 2s are Card.index 0-3


LoserFactors = tuple[tuple[Factor | None, ...], dict[tuple[Card, ...], Factor], list[Factor | None]]
WinnerFactors = tuple[Factor, Factor, dict[tuple[Card, ...], Factor]]


def _loser_factors(rules: BigTwoRules) -> LoserFactors:
    """The factors a loser's cards can earn under ``rules``, built once per rule set: the tier's
    factor by count of cards (0-13), the 2s' by the 2s held (in Big Two order, and by their bits ``1 <<
    Card.index``: the 2s are indexes 0-3). Factors are frozen, so one object serves every answer. Kept on
    the rule set (``BigTwoRules.kept``), as its ladder is: a table's own rules live as long as the API keeps
    them."""
    found: LoserFactors | None = rules.kept.get("loser_factors")
    if found is None:
        least = min((tier.least for tier in rules.cards_left_tiers), default=HAND_SIZE + 1)
        tiers = tuple(_tier_factor(count, rules) if count >= least else None for count in range(HAND_SIZE + 1))
        twos = {
            held: _factor(FactorCode.TWOS_HELD, rules.two_held ** len(held), held, count=len(held))
            for held in (tuple(c for c, chosen in zip(_TWOS, bits) if chosen) for bits in product((0, 1), repeat=4))
            if held
        }
        by_bits: list[Factor | None] = [None] * (_TWOS_BITS + 1)
        for held, held_factor in twos.items():
            by_bits[sum(1 << c.index for c in held)] = held_factor
        found = rules.kept["loser_factors"] = (tiers, twos, by_bits)
    return found


# No monster in fewer cards: four of a kind needs a fifth card, a straight flush five, a dragon thirteen.
_FEWEST_FOR_A_MONSTER = 5


def monsters_left(
    cards: Sequence[Card], rules: BigTwoRules = TAIWAN
) -> tuple[tuple[Combination, ...], tuple[Card, ...]]:
    """Which monsters the cards can still form, and the cards that form them: 「剩餘手牌中還組得出鐵支、同花順、
    一條龍或一條青龍」, the shapes by what the cards are, each where the table lets it be played (four of a
    kind, a straight flush of its straights, a dragon), whatever beats what there (``rules.monsters``).

    「若剩餘手牌恰好只有四張同點數、沒有第五張可帶，依鐵支的定義不成牌型」: four of a kind counts only
    when there is a fifth card to go with it.

    Read off the cards as bits (``1 << Card.index``: four bits per rank, clubs to spades): a rank's
    four bits all set is its four of a kind, a straight flush is one of the table's straights' masks in a
    suit's lane, a dragon thirteen ranks. Cards given twice or a joker go to ``_monsters_card_by_card`` (never
    from the rules' own callers)."""
    held = tuple(cards)
    if len(held) < 5:  # no fifth card for a four of a kind, too few for a straight flush or a dragon
        return (), ()
    mask = sum(map(_BIT.__getitem__, held))  # a card twice carries: fewer bits than cards
    if mask.bit_count() != len(held) or mask >> _JOKER_BIT:
        return _monsters_card_by_card(held, rules)
    return _monsters_of_bits(held, mask, rules)


def _monsters_of_bits(
    held: tuple[Card, ...], mask: int, rules: BigTwoRules = TAIWAN
) -> tuple[tuple[Combination, ...], tuple[Card, ...]]:
    """``monsters_left`` of five or more cards, each once, no joker, whose bits are ``mask``."""
    kinds: list[Combination] = []
    involved = 0
    allowed = rules.ladder.allowed
    quads = mask & mask >> 1 & mask >> 2 & mask >> 3 & _RANK_LOW_BITS  # a rank's lowest bit, when all four are set
    if quads and Combination.FOUR_OF_A_KIND in allowed:
        kinds.append(Combination.FOUR_OF_A_KIND)
        involved = quads * 0b1111
    if Combination.STRAIGHT_FLUSH in allowed:
        masks = _STRAIGHT_FLUSH_MASKS if rules.straights == STRAIGHTS else _straight_flush_masks(rules.straights)
        for lane in _SUIT_LANES:
            if (mask & lane).bit_count() >= 5:
                for straight in masks[lane]:
                    if mask & straight == straight:
                        if Combination.STRAIGHT_FLUSH not in kinds:
                            kinds.append(Combination.STRAIGHT_FLUSH)
                        involved |= straight
    if (
        len(held) == HAND_SIZE
        and rules.dragons
        and (mask | mask >> 1 | mask >> 2 | mask >> 3) & _RANK_LOW_BITS == _RANK_LOW_BITS
    ):
        kinds.append(
            Combination.GREEN_DRAGON if any(mask & lane == mask for lane in _SUIT_LANES) else Combination.DRAGON
        )
        involved = mask
    if not involved:
        return tuple(kinds), ()
    return tuple(kinds), rules.ladder.sort(c for c in held if involved >> c.index & 1)


_JOKER_BIT = 52
_BIT = {c: 1 << c.index for c in (*DECK, JOKER)}  # a card's bit: 1 << Card.index
_RANK_LOW_BITS = sum(1 << 4 * rank for rank in range(13))  # each rank's clubs bit
_SUIT_LANES = tuple(_RANK_LOW_BITS << suit for suit in range(4))  # a suit's thirteen bits (Card.index order c d h s)


def _straight_flush_masks(straights: Sequence[tuple[int, ...]]) -> dict[int, tuple[int, ...]]:
    """Each suit's lane: the masks of its straight flushes of ``straights``."""
    return {
        lane: tuple(sum(1 << (4 * (rank - 2) + suit) for rank in ranks) for ranks in straights)
        for suit, lane in enumerate(_SUIT_LANES)
    }


_STRAIGHT_FLUSH_MASKS = _straight_flush_masks(STRAIGHTS)  # the house rules' ten


def _monsters_card_by_card(
    held: tuple[Card, ...], rules: BigTwoRules = TAIWAN
) -> tuple[tuple[Combination, ...], tuple[Card, ...]]:
    allowed = rules.ladder.allowed
    kinds: list[Combination] = []
    involved: set[Card] = set()
    ranks = [c.rank for c in held]
    distinct = len(set(ranks))
    if len(held) >= 5 and len(held) - distinct >= 3:  # else no rank is there four times
        fours = [c for c, rank in zip(held, ranks) if ranks.count(rank) == 4]
        if fours and Combination.FOUR_OF_A_KIND in allowed:
            kinds.append(Combination.FOUR_OF_A_KIND)
            involved.update(fours)
    suits = [c.suit for c in held]
    for suit in _SUITS if Combination.STRAIGHT_FLUSH in allowed else ():
        if suits.count(suit) < 5:  # too few for a straight flush
            continue
        suited = 0  # the suit's ranks as bits (1 << rank): a straight flush is a subset
        for c in held:
            if c.suit is suit:
                suited |= 1 << c.rank
        for straight, straight_ranks in _straight_bits(rules.straights):
            if suited & straight == straight:
                if Combination.STRAIGHT_FLUSH not in kinds:
                    kinds.append(Combination.STRAIGHT_FLUSH)
                involved.update(c for c in held if c.suit == suit and c.rank in straight_ranks)
    if len(held) == HAND_SIZE and distinct == HAND_SIZE and rules.dragons:
        kinds.append(Combination.GREEN_DRAGON if len({c.suit for c in held}) == 1 else Combination.DRAGON)
        involved.update(held)
    return tuple(kinds), rules.ladder.sort(involved)


_SUITS = tuple(Suit)


def _straight_bits(straights: Sequence[tuple[int, ...]]) -> list[tuple[int, frozenset[int]]]:
    return [(sum(1 << r for r in ranks), frozenset(ranks)) for ranks in straights]


def winner_multiplier_factors(finish: HandValue, grand_slam: bool, rules: BigTwoRules = TAIWAN) -> tuple[Factor, ...]:
    """The winner multiplier's factors, from the last play and whether the game was a grand slam; a factor
    whose multiplier the table sets to 1 is not listed. 「怪物收尾：贏家最後一手牌是鐵支、同花順或一條龍」 counts
    the last play's shape, whatever beats what at the table; a green dragon is a dragon, its own factor
    replacing that one where the table sets it."""
    slam, three, twos_finish = _winner_factors(rules)
    factors = [slam] if grand_slam and rules.grand_slam != 1 else []
    cards = finish.cards
    if THREE_OF_CLUBS in cards and rules.three_of_clubs_finish != 1:
        factors.append(three)
    twos = sort_cards(c for c in cards if c.rank == 2) if rules.two_finish != 1 else ()
    if twos:
        two_factor = twos_finish.get(twos)
        if two_factor is None:  # never for a lawful play (four 2s at most, each once)
            two_factor = _factor(FactorCode.TWOS_FINISH, rules.two_finish ** len(twos), twos, count=len(twos))
        factors.append(two_factor)
    kind = _COMBINATION_OF[finish.category]
    if kind is Combination.GREEN_DRAGON and rules.green_dragon_finish != 1:  # 「以 ×20 取代怪物收尾的 ×2」
        factors.append(_factor(FactorCode.GREEN_DRAGON_FINISH, rules.green_dragon_finish, cards))
    elif kind in _MONSTER_SHAPES and rules.monster_finish != 1:
        factors.append(_factor(FactorCode.MONSTER_FINISH, rules.monster_finish, cards, kind=kind.value))
    return tuple(factors)


_MONSTER_SHAPES = frozenset(
    (Combination.FOUR_OF_A_KIND, Combination.STRAIGHT_FLUSH, Combination.DRAGON, Combination.GREEN_DRAGON)
)
"""The last plays that finish with a monster (「鐵支、同花順或一條龍」; a green dragon is one of the dragons)."""


def _winner_factors(rules: BigTwoRules) -> WinnerFactors:
    """The winner's factors that do not depend on the last play's other cards, built once per rule set as
    ``_loser_factors``: the grand slam's, the 3 of clubs finish's, the 2s finish's by the 2s
    played (in Big Two order)."""
    found: WinnerFactors | None = rules.kept.get("winner_factors")
    if found is None:
        twos = {
            held: _factor(FactorCode.TWOS_FINISH, rules.two_finish ** len(held), held, count=len(held))
            for held in (tuple(c for c, chosen in zip(_TWOS, bits) if chosen) for bits in product((0, 1), repeat=4))
            if held
        }
        slam = _factor(FactorCode.GRAND_SLAM, rules.grand_slam)
        three = _factor(FactorCode.THREE_OF_CLUBS_FINISH, rules.three_of_clubs_finish, (THREE_OF_CLUBS,))
        found = rules.kept["winner_factors"] = (slam, three, twos)
    return found
