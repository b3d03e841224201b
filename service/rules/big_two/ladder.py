"""What some cards are worth as a play at one Big Two table: its ladder of combinations and the order within
each, read off the table's parameters (``BigTwoRules`` builds one ``Ladder`` and keeps it).

``Ladder.classify`` is the rule book's definitions, naming why cards are no play; its tables (``singles``,
``short``, ``five_value``) give a valid play's value, and leave everything else to ``classify``. Both are
proven equal on every rule set (tests/big_two/test_ladder.py). ``combinations.classify`` is the public door.

``HandValue.strength`` is ``(rung, ...)``: the rung is the combination's step on the table's ladder (its
plays of one, two and three cards, then its five-card order, then the dragons), the rest by combination:

==================  =====================================================================================
single              rank, suit
pair                rank, suit of the higher card
triple              rank
straight            sequence (the table's straights, 0 = the lowest), suit of the card that decides
flush               rank and suit of the highest card, or every rank from the highest, then its suit
full_house          rank of the triple
four_of_a_kind      rank of the four
straight_flush      as a straight
dragon, green       (nothing)
==================  =====================================================================================

Ranks are Big Two ranks (0 = 3 ... 11 = A, 12 = 2); a suit is its place in the table's suit order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from operator import itemgetter
from typing import Any

from service.rules.big_two.common import (
    _DRAGONS,
    COMBINATION_LABELS,
    DOMAIN,
    HAND_SIZE,
    Combination,
    CompareReason,
    InvalidPlay,
    big_two_rank,
)
from service.rules.cards import DECK, Card, Suit, card_texts, repeated
from service.rules.errors import Violation, violation
from service.rules.hand_value import HandValue

C = Combination
# The plays, their sizes and the number of straights of the house rules: where a table has the same, a refusal's
# text may say so as the house book does ("no flush in Taiwanese Big Two", "a play has 1, 2, 5 or 13 cards", "not
# one of the ten straights"); elsewhere it says "at this table".
_HOUSE_PLAYS = frozenset({C.SINGLE, C.PAIR, C.STRAIGHT, C.FULL_HOUSE, C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH})
_HOUSE_SIZES = frozenset({1, 2, 5, 13})
_HOUSE_STRAIGHT_COUNT = 10
# 「J-Q-K-A-2、Q-K-A-2-3、K-A-2-3-4這類跨過 2 的組合不成順」: named so the reason can say so (when a table does
# not allow them).
_CROSSING_TWO = frozenset({frozenset({11, 12, 13, 14, 2}), frozenset({12, 13, 14, 2, 3}), frozenset({13, 14, 2, 3, 4})})


_Run = tuple[int, Callable[[tuple[Card, ...]], tuple[Card, ...]] | None, Combination | None, Combination | None]


@dataclass(slots=True)
class Classification:
    """What some cards are as a play: a combination with its value, or the reasons they are none."""

    valid: bool
    combination: Combination | None
    monster: bool  # a monster of the table's; the dragons are not "monsters" in the rule book
    hand: HandValue | None
    violations: tuple[Violation, ...] = ()


class Ladder:
    """One table's plays and their values (module docstring). Built once per rule set; read only."""

    def __init__(
        self,
        suit_order: Sequence[Suit],
        plays: Sequence[Combination],
        five_card_order: Sequence[Combination],
        monsters: Sequence[Combination],
        straights: Sequence[tuple[int, ...]],
        straight_suit_is_top: bool,
        flush_rank_by_rank: bool,
        dragons: bool,
        five_beats_lower_kind: bool,
    ):
        suit_place = {suit: place for place, suit in enumerate(suit_order)}
        self.key: dict[Card, int] = {c: big_two_rank(c) * 4 + suit_place[c.suit] for c in DECK}
        self.by_key = tuple(sorted(DECK, key=self.key.__getitem__))  # 0 = the lowest card ... 51 = the highest
        self.lowest_card = self.by_key[0]
        kinds = [c for c in (C.SINGLE, C.PAIR, C.TRIPLE) if c in plays] + list(five_card_order)
        kinds += [C.DRAGON, C.GREEN_DRAGON] if dragons else []
        self.allowed = frozenset(kinds)
        self.rung = {kind: rung for rung, kind in enumerate(kinds, start=1)}
        self.parts = {kind: (kind.value, COMBINATION_LABELS[kind], rung) for kind, rung in self.rung.items()}
        self.five_card_place = {kind: place for place, kind in enumerate(five_card_order)}
        self.monsters = frozenset(monsters)
        self.monster_place = {kind: place for place, kind in enumerate(monsters)}
        self.straights = tuple(straights)
        self.sequence_of = {frozenset(ranks): index for index, ranks in enumerate(straights)}
        self.straight_suit_is_top = straight_suit_is_top
        self.flush_rank_by_rank = flush_rank_by_rank
        self.sizes = frozenset(_SIZES[kind] for kind in kinds)
        # which of the rule book's refusals are true at this table as the house book words them
        self.house_plays = set(plays) == _HOUSE_PLAYS
        self.house_sizes = self.sizes == _HOUSE_SIZES
        self.ten_straights = len(straights) == _HOUSE_STRAIGHT_COUNT
        # the tables of combinations.play_value: every single, pair and triple in every order, and the
        # straights by the Big Two ranks of their cards, highest first
        self.singles: dict[Card, HandValue | None] = dict.fromkeys(DECK)
        self.short: dict[tuple[Card, ...], HandValue | None] = {}
        for rank in range(2, 15):
            group = [c for c in DECK if c.rank == rank]
            if C.SINGLE in self.allowed:
                self.singles.update((c, self._short_value(C.SINGLE, (c,))) for c in group)
            for size, kind in ((2, C.PAIR), (3, C.TRIPLE)):
                for chosen in combinations(group, size):
                    value = self._short_value(kind, chosen) if kind in self.allowed else None
                    self.short.update(dict.fromkeys(permutations(chosen), value))
        # per straight: its sequence, what orders its cards (None: highest first) and the play it makes in
        # one suit and in several (None: none this table allows)
        self.runs: dict[tuple[int, ...], _Run] = {}
        for index, ranks in enumerate(straights):
            desc = sorted(((r - 3) % 13 for r in ranks), reverse=True)  # Big Two ranks, highest first
            top_down = [(r - 3) % 13 for r in reversed(ranks)]
            order = itemgetter(*(desc.index(r) for r in top_down)) if straight_suit_is_top else None
            self.runs[tuple(desc)] = (index, order, self._made(one_suit=True), self._made(one_suit=False))
        self.has_flush = C.FLUSH in self.allowed
        self.has_quads = C.FOUR_OF_A_KIND in self.allowed
        self.has_full_house = C.FULL_HOUSE in self.allowed
        self.kinds = {kind.value: (kind, kind in self.monsters) for kind in kinds}  # a value's category: its play
        self.five_beats_lower_kind = five_beats_lower_kind
        # the replay's plain check (game._Replay): the rungs of every play that beats a play of another kind
        # (``across``), and the first rung it leaves to the full judgement (the dragons')
        self.beats_other_kind = frozenset(
            (self.rung[table], self.rung[play])
            for table in self.rung
            for play in self.rung
            if table is not play and table not in _DRAGONS and play not in _DRAGONS and self.across(table, play)[0]
        )
        self.dragon_rung = self.rung.get(C.DRAGON, len(self.rung) + 1)

    def plainly_beats(self, table: HandValue | None, play: HandValue) -> bool:
        """Whether ``play`` (no dragon) may go on ``table``: ``judge``'s verdict read off the strengths, whose
        first number is the rung. False for a dragon on either side: the full judgement decides those.
        Proven equal to ``judge`` in tests/big_two/test_replay.py."""
        rung = play.strength[0]
        if rung >= self.dragon_rung:
            return False
        if table is None:
            return True
        on_table = table.strength[0]
        if on_table >= self.dragon_rung:
            return False
        if rung == on_table:  # one combination: the larger strength beats (「比桌面更大」: equal is not bigger)
            return play.strength > table.strength
        return (on_table, rung) in self.beats_other_kind

    def across(self, table: Combination, play: Combination) -> tuple[bool, CompareReason]:
        """Whether a play beats a play of another kind (no dragon), and why: a monster beats any play but a
        higher monster; a five-card play beats one of a lower kind where the table says so; else none."""
        monsters = self.monster_place
        table_monster, play_monster = table in monsters, play in monsters
        if play_monster and not table_monster:
            return True, CompareReason.MONSTER_BEATS_NORMAL  # 「不受張數限制」
        if table_monster and not play_monster:
            return False, CompareReason.NORMAL_CANNOT_BEAT_MONSTER
        if play_monster:  # two different monsters: 「同花順 ＞ 鐵支」, or the table's own order of the two
            higher = monsters[play] > monsters[table]
            if play is C.STRAIGHT_FLUSH:
                return higher, CompareReason.STRAIGHT_FLUSH_BEATS_QUADS if higher else CompareReason.LOWER_COMBINATION
            return (
                higher,
                CompareReason.HIGHER_COMBINATION if higher else CompareReason.QUADS_CANNOT_BEAT_STRAIGHT_FLUSH,
            )
        five = self.five_card_place
        if self.five_beats_lower_kind and table in five and play in five:
            if five[play] > five[table]:
                return True, CompareReason.HIGHER_COMBINATION
            return False, CompareReason.LOWER_COMBINATION
        return False, CompareReason.DIFFERENT_COMBINATION  # 「一般牌型只能被同一種牌型壓過」

    def _made(self, one_suit: bool) -> Combination | None:
        """The play a straight's five cards make at this table: the highest it allows of what they are."""
        made = [C.STRAIGHT_FLUSH, C.FLUSH, C.STRAIGHT] if one_suit else [C.STRAIGHT]
        allowed = [kind for kind in made if kind in self.allowed]
        return max(allowed, key=self.five_card_place.__getitem__) if allowed else None

    # --- the values, by the rule book's definitions

    def hand(self, kind: Combination, strength: tuple[int, ...], ordered: tuple[Card, ...]) -> HandValue:
        code, label, rung = self.parts[kind]
        return HandValue(code, label, (rung, *strength), ordered)

    def desc(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        """Highest first, in this table's order."""
        return tuple(sorted(cards, key=self.key.__getitem__, reverse=True))

    def sort(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        """Lowest first, in this table's order."""
        return tuple(sorted(cards, key=self.key.__getitem__))

    def _short_value(self, kind: Combination, played: tuple[Card, ...]) -> HandValue:
        """A single, a pair or a triple: its rank, and the suit of its highest card but for a triple."""
        ordered = self.desc(played)  # the highest suit decides between two pairs of one rank
        rank = big_two_rank(ordered[0])
        return self.hand(kind, (rank,) if kind is C.TRIPLE else (rank, self._suit(ordered[0])), ordered)

    def _value(self, kind: Combination, strength: tuple[int, ...], ordered: tuple[Card, ...]) -> Classification:
        return Classification(True, kind, kind in self.monsters, self.hand(kind, strength, ordered))

    def _invalid(self, code: InvalidPlay, involved: Iterable[Card], **params: Any) -> Classification:
        return Classification(False, None, False, None, (violation(DOMAIN, code, self.sort(involved), **params),))

    def _suit(self, c: Card) -> int:
        return self.key[c] & 3

    def classify(self, cards: Iterable[Card]) -> Classification:
        """The play ``cards`` make at this table, or why they make none; the order of ``cards`` never matters."""
        played = tuple(cards)
        if any(c.is_joker for c in played):
            return Classification(
                False, None, False, None, (violation(DOMAIN, InvalidPlay.JOKER_NOT_ALLOWED, case="big_two"),)
            )
        if len(set(played)) != len(played):
            doubled = self.sort(repeated(played))
            return self._invalid(InvalidPlay.DUPLICATE_CARD, doubled, case="play", these=" ".join(card_texts(doubled)))
        counts = Counter(c.rank for c in played)
        size = len(played)
        if size == 5:
            return self._classify_five(played, counts)
        if size == HAND_SIZE and C.DRAGON in self.allowed:
            return self._classify_thirteen(played, counts)
        if size in (1, 2, 3) and len(counts) == 1 and _SHORT[size] in self.allowed:
            kind = _SHORT[size]
            return Classification(True, kind, kind in self.monsters, self._short_value(kind, played))
        if size == 2 and _SHORT[2] in self.allowed:
            return self._invalid(InvalidPlay.NOT_A_COMBINATION, played, case="two")
        return self._classify_other(played, counts)

    def _classify_five(self, played: tuple[Card, ...], counts: Counter[int]) -> Classification:
        shape = sorted(counts.values(), reverse=True)
        if shape == [4, 1] and C.FOUR_OF_A_KIND in self.allowed:
            four = max(counts, key=counts.__getitem__)
            ordered = self.desc(c for c in played if c.rank == four) + tuple(c for c in played if c.rank != four)
            return self._value(C.FOUR_OF_A_KIND, (big_two_rank(ordered[0]),), ordered)
        if shape == [3, 2] and C.FULL_HOUSE in self.allowed:
            three = max(counts, key=counts.__getitem__)
            ordered = self.desc(c for c in played if c.rank == three) + self.desc(c for c in played if c.rank != three)
            return self._value(C.FULL_HOUSE, (big_two_rank(ordered[0]),), ordered)
        if shape == [3, 1, 1]:
            return self._invalid(InvalidPlay.TRIPLE_NOT_A_COMBINATION, played, case="five")
        if shape == [2, 2, 1]:
            return self._invalid(InvalidPlay.TWO_PAIR_NOT_A_COMBINATION, played)
        if shape == [1, 1, 1, 1, 1]:
            return self._classify_run(played, frozenset(counts))
        if shape in ([4, 1], [3, 2]):  # a four of a kind or a full house, not played at this table
            return self._invalid(InvalidPlay.NOT_A_COMBINATION, played, case="table")
        return self._invalid(InvalidPlay.NOT_A_COMBINATION, played, case="pair_and_singles")

    def _classify_run(self, played: tuple[Card, ...], ranks: frozenset[int]) -> Classification:
        """Five different ranks: the highest play of this table they make (a straight flush, a flush or a
        straight), or why they make none."""
        one_suit = len({c.suit for c in played}) == 1
        sequence = self.sequence_of.get(ranks)
        made = [C.STRAIGHT_FLUSH, C.FLUSH, C.STRAIGHT] if one_suit else [C.STRAIGHT]
        if sequence is None:
            made = [C.FLUSH] if one_suit else []
        allowed = [kind for kind in made if kind in self.allowed]
        if allowed:
            kind = max(allowed, key=self.five_card_place.__getitem__)
            if kind is C.FLUSH:
                return self._flush(played)
            assert sequence is not None
            ordered = self._run_order(played, self.straights[sequence])
            return self._value(kind, (sequence, self._suit(ordered[0])), ordered)
        if ranks in _CROSSING_TWO:
            return self._invalid(InvalidPlay.STRAIGHT_CROSSES_TWO, played)
        if one_suit:
            case = "house" if self.house_plays else "table"
            return self._invalid(InvalidPlay.FLUSH_NOT_A_COMBINATION, played, case=case)
        if sequence is not None:  # a straight this table does not play
            return self._invalid(InvalidPlay.NOT_A_COMBINATION, played, case="table")
        return self._invalid(InvalidPlay.NOT_A_COMBINATION, played, case="five" if self.ten_straights else "five_table")

    def _run_order(self, played: tuple[Card, ...], ranks: tuple[int, ...]) -> tuple[Card, ...]:
        """A straight's cards, the card that decides its suit first: the highest-ranked card and down (2 > A
        > K), or the top of the sequence and down (the 5 of A2345)."""
        if not self.straight_suit_is_top:
            return self.desc(played)
        by_rank = {c.rank: c for c in played}
        return tuple(by_rank[r] for r in reversed(ranks))

    def _flush(self, played: tuple[Card, ...]) -> Classification:
        ordered = self.desc(played)
        ranks = tuple(big_two_rank(c) for c in ordered)
        strength = (*ranks, self._suit(ordered[0])) if self.flush_rank_by_rank else (ranks[0], self._suit(ordered[0]))
        return self._value(C.FLUSH, strength, ordered)

    def _classify_thirteen(self, played: tuple[Card, ...], counts: Counter[int]) -> Classification:
        if len(counts) != HAND_SIZE:
            return self._invalid(InvalidPlay.NOT_A_COMBINATION, played, case="thirteen")
        ordered = self.desc(played)
        if len({c.suit for c in played}) == 1:
            return self._value(C.GREEN_DRAGON, (), ordered)
        return self._value(C.DRAGON, (), ordered)

    def _classify_other(self, played: tuple[Card, ...], counts: Counter[int]) -> Classification:
        """Sizes no play of this table has, naming the near misses the rule book names."""
        shape = sorted(counts.values(), reverse=True)
        if shape == [4]:
            return self._invalid(InvalidPlay.FOUR_WITHOUT_KICKER, played)
        if shape == [2, 2]:
            return self._invalid(InvalidPlay.TWO_PAIR_NOT_A_COMBINATION, played)
        if len(played) in (3, 4) and shape[0] == 3 and C.TRIPLE not in self.allowed:
            return self._invalid(InvalidPlay.TRIPLE_NOT_A_COMBINATION, played, case="short")
        if len(played) == 3 and C.TRIPLE in self.allowed:
            return self._invalid(InvalidPlay.NOT_A_COMBINATION, played, case="three")
        if len(played) in self.sizes:  # a size this table plays, not these cards (a play it does not allow)
            return self._invalid(InvalidPlay.NOT_A_COMBINATION, played, case="table")
        case = "play" if self.house_sizes else "table"
        return self._invalid(InvalidPlay.WRONG_CARD_COUNT, played, case=case, count=len(played))

    # --- the values, from the tables

    def five_value(self, played: tuple[Card, ...]) -> HandValue | None:
        """``classify(played).hand`` for five cards that make a play; None for any other five (a joker, a card
        twice, no play), where ``classify`` answers in full."""
        v, w, x, y, z = played  # five keys by a tuple display: a comprehension cost more than the sort
        key = self.key
        try:
            k0, k1, k2, k3, k4 = sorted((key[v], key[w], key[x], key[y], key[z]), reverse=True)
        except KeyError:  # a joker
            return None
        if not k0 > k1 > k2 > k3 > k4:  # a card twice
            return None
        r0, r1, r2, r3, r4 = k0 >> 2, k1 >> 2, k2 >> 2, k3 >> 2, k4 >> 2  # the key is rank * 4 + suit
        c = self.by_key
        if r0 == r3 or r1 == r4:  # r4 (r0) differs: two cards of one key are impossible
            if not self.has_quads:
                return None
            if r0 == r3:
                return self.hand(C.FOUR_OF_A_KIND, (r0,), (c[k0], c[k1], c[k2], c[k3], c[k4]))
            return self.hand(C.FOUR_OF_A_KIND, (r1,), (c[k1], c[k2], c[k3], c[k4], c[k0]))
        if (r0 == r2 and r3 == r4) or (r0 == r1 and r2 == r4):
            if not self.has_full_house:
                return None
            if r0 == r2:
                return self.hand(C.FULL_HOUSE, (r0,), (c[k0], c[k1], c[k2], c[k3], c[k4]))
            return self.hand(C.FULL_HOUSE, (r2,), (c[k2], c[k3], c[k4], c[k0], c[k1]))
        suit = k0 & 3
        one_suit = (k1 & 3) == (k2 & 3) == (k3 & 3) == (k4 & 3) == suit
        run = self.runs.get((r0, r1, r2, r3, r4))  # (a pair among the five is no run)
        kind = C.FLUSH if self.has_flush and one_suit else None
        if run is not None:
            kind = run[2] if one_suit else run[3]
        if kind is None:
            return None
        if kind is C.FLUSH:
            strength = (r0, r1, r2, r3, r4, suit) if self.flush_rank_by_rank else (r0, suit)
            return self.hand(C.FLUSH, strength, (c[k0], c[k1], c[k2], c[k3], c[k4]))
        assert run is not None
        sequence, order = run[0], run[1]
        highest_first = (c[k0], c[k1], c[k2], c[k3], c[k4])
        if order is None:  # the highest-ranked card decides
            return self.hand(kind, (sequence, suit), highest_first)
        ordered = order(highest_first)  # from the top of the sequence down
        return self.hand(kind, (sequence, self.key[ordered[0]] & 3), ordered)


_SIZES = {C.SINGLE: 1, C.PAIR: 2, C.TRIPLE: 3, C.DRAGON: 13, C.GREEN_DRAGON: 13} | dict.fromkeys(
    (C.STRAIGHT, C.FLUSH, C.FULL_HOUSE, C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH), 5
)
_SHORT = {1: C.SINGLE, 2: C.PAIR, 3: C.TRIPLE}
