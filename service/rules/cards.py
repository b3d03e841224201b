"""Card notation shared by every game.

Canonical form: rank ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A`` then suit ``c`` ``d`` ``h`` ``s``
(``As``, ``Td``, ``2c``); the joker is ``JK``. Input also accepts ``10`` for ``T``, any letter case and
the suit symbols (``♣♦♥♠`` and their outline forms ``♧♢♡♤``). Every card is a singleton, so parsing is
one dictionary look-up and cards compare by identity.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import ClassVar, TypeVar

from service.rules.errors import CardNotationError, InputProblem, Path, problem, quoted

DOMAIN = "cards"  # the catalog domain of the texts of card notation (service/rules/messages.json)


class NotationProblem(StrEnum):
    """Codes of the input problems this module raises (422 causes in every game)."""

    NOT_A_CARD = "not_a_card"
    JOKER_NOT_ALLOWED = "joker_not_allowed"
    DUPLICATE_CARD = "duplicate_card"


class Suit(StrEnum):
    """The four suits, in canonical letters. Order c < d < h < s is Big Two's; the pokers ignore suits."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def order(self) -> int:
        return _SUIT_ORDER[self]


_SUIT_ORDER = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}


RANK_SYMBOLS = "23456789TJQKA"
JOKER_TEXT = "JK"


class Card:
    """One playing card, or the joker (``rank`` 0, ``suit`` None). Build with ``parse_card``/``card``.

    Cards are interned: ``Card(14, Suit.SPADES)`` always returns the same object, so equality and hashing
    are by identity, which keeps them at C speed on the evaluation hot paths. Immutable.
    """

    __slots__ = ("rank", "suit", "index", "text")
    _interned: ClassVar[dict[tuple[int, Suit | None], Card]] = {}
    rank: int
    suit: Suit | None
    index: int  # 0-51 for the 52 cards (rank-major, suits c d h s), 52 for the joker
    text: str  # canonical notation: "As", "Td", "JK"

    def __new__(cls, rank: int, suit: Suit | None) -> Card:
        key = (rank, suit)
        found = cls._interned.get(key)
        if found is None:
            if (suit is None) != (rank == 0) or not (rank == 0 or 2 <= rank <= 14):
                raise ValueError(f"no card has rank {rank!r} and suit {suit!r}")
            found = object.__new__(Card if suit is None else SuitedCard)
            index = 52 if suit is None else (rank - 2) * 4 + _SUIT_ORDER[suit]
            text = JOKER_TEXT if suit is None else RANK_SYMBOLS[rank - 2] + suit.value
            for name, value in (("rank", rank), ("suit", suit), ("index", index), ("text", text)):
                object.__setattr__(found, name, value)
            cls._interned[key] = found
        return found

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type, tuple[int, Suit | None]]:
        return (Card, (self.rank, self.suit))

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"


class SuitedCard(Card):
    """One of the 52 cards: every card but the joker is one, and its suit is set."""

    __slots__ = ()
    suit: Suit


def suited(rank: int, suit: Suit) -> SuitedCard:
    """The card of ``rank`` and ``suit``, typed as one of the 52."""
    card = Card(rank, suit)
    assert isinstance(card, SuitedCard)
    return card


JOKER = Card(0, None)
DECK: tuple[SuitedCard, ...] = tuple(suited(rank, suit) for rank in range(2, 15) for suit in Suit)
"""The 52 cards, ordered by ``Card.index``."""

_RANK_SPELLINGS = {symbol: rank for rank, symbol in enumerate(RANK_SYMBOLS, start=2)} | {"10": 10}
_SUIT_SPELLINGS = {
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "s": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}  # fmt: skip  # one suit's spellings a line


def _case_variants(text: str) -> set[str]:
    variants = {""}
    for char in text:
        variants = {v + c for v in variants for c in {char.lower(), char.upper()}}
    return variants


def _spellings() -> dict[str, Card]:
    by_text: dict[str, Card] = {}
    for rank_text, rank in _RANK_SPELLINGS.items():
        for suit_text, suit in _SUIT_SPELLINGS.items():
            for variant in _case_variants(rank_text + suit_text):
                by_text[variant] = DECK[(rank - 2) * 4 + _SUIT_ORDER[suit]]
    return by_text


CARD_BY_TEXT: dict[str, Card] = _spellings()
"""Every accepted spelling of the 52 cards (not the joker) to its card: parsing is one look-up."""
JOKER_SPELLINGS = frozenset(_case_variants(JOKER_TEXT))
"""Every accepted spelling of the joker (any letter case of ``JK``)."""
CARD_OR_JOKER_BY_TEXT: dict[str, Card] = CARD_BY_TEXT | dict.fromkeys(JOKER_SPELLINGS, JOKER)
"""``CARD_BY_TEXT`` and the joker's spellings: where jokers are allowed, parsing is one look-up too."""
card_of_text = CARD_BY_TEXT.__getitem__
"""The card an accepted spelling names (``KeyError`` otherwise): ``map`` it over a list at C speed."""
_card_or_joker_of_text = CARD_OR_JOKER_BY_TEXT.__getitem__


def read_cards(texts: object, *, jokers: bool = False, size: int | None = None) -> list[Card] | None:
    """The fast path of every card list: the cards of a list of plainly valid spellings (of ``size`` cards
    when given), else None, and the caller takes its precise path, which names each bad entry.

    ``map`` over a dictionary look-up runs at C speed; an unknown spelling is a ``KeyError`` and a value
    that is no string (unhashable) a ``TypeError``, both simply a "no" here.
    """
    if type(texts) is not list or (size is not None and len(texts) != size):
        return None
    try:
        return list(map(_card_or_joker_of_text if jokers else card_of_text, texts))
    except (KeyError, TypeError):
        return None


def parse_card(text: object, *, jokers: bool = False, path: Path = ()) -> Card:
    """The card ``text`` names; ``CardNotationError`` (at ``path``) if it names none.

    ``jokers`` allows ``JK``: only Joker Thirteen has jokers, so elsewhere ``JK`` is not a card.
    """
    if isinstance(text, str):
        found = CARD_BY_TEXT.get(text)
        if found is not None:
            return found
        if text in JOKER_SPELLINGS:
            if jokers:
                return JOKER
            raise CardNotationError(problem(DOMAIN, path, NotationProblem.JOKER_NOT_ALLOWED))
    raise CardNotationError(problem(DOMAIN, path, NotationProblem.NOT_A_CARD, text=quoted(text)))


def parse_cards(texts: Iterable[object], *, jokers: bool = False, path: Path = ()) -> list[Card]:
    """Parse a list of card strings, reporting every bad one (with its index) at once."""
    if type(texts) is not list:  # a list is read twice below at most; anything else is copied first
        texts = list(texts)
    try:  # the common case: read_cards' look-up, inlined because this is the hottest caller (rows scored)
        return list(map(_card_or_joker_of_text if jokers else card_of_text, texts))
    except (KeyError, TypeError):  # a typo, a joker where none is allowed, not a string: report each
        pass
    cards: list[Card] = []
    problems: list[InputProblem] = []
    for i, text in enumerate(texts):
        try:
            cards.append(parse_card(text, jokers=jokers, path=path + (i,)))
        except CardNotationError as error:
            problems.extend(error.problems)
    if problems:
        raise CardNotationError(problems)
    return cards


def card(text: str) -> Card:
    """A card from its text, jokers allowed: a short constructor for code and tests."""
    return parse_card(text, jokers=True)


def cards(texts: str) -> list[Card]:
    """Cards from one space-separated string: ``cards("As Kd JK")``."""
    return [card(text) for text in texts.split()]


def card_texts(hand: Iterable[Card]) -> list[str]:
    """The canonical notation of each card (``["As", "Td", "JK"]``): how every answer writes cards."""
    return [c.text for c in hand]


def by_rank_desc(hand: Iterable[Card]) -> list[Card]:
    """Cards high to low by rank, ties by suit (s > h > d > c), jokers last: a stable display order."""
    return sorted(hand, key=lambda c: (c.rank, c.index), reverse=True)


Where = TypeVar("Where")


def extra_copies(
    located: Iterable[tuple[Where, Card]], copies: Mapping[Card, int] | None = None, default_copies: int = 1
) -> list[tuple[Where, Card, int]]:
    """Each card's first copy beyond what the deck (or a hand) holds, in order of appearance: where it is
    (``located`` pairs each card with its place, a request path or an index: ``enumerate(cards)``), the
    card, and how many copies are allowed (``copies`` for a card, else ``default_copies``).

    The one duplicate finder of every game: one pass, one dictionary.
    """
    seen: dict[Card, int] = {}
    found: list[tuple[Where, Card, int]] = []
    for where, c in located:
        count = seen[c] = seen.get(c, 0) + 1
        allowed = default_copies if copies is None else copies.get(c, default_copies)
        if count == allowed + 1:
            found.append((where, c, allowed))
    return found


def repeated(hand: Iterable[Card]) -> list[Card]:
    """The cards that appear more than once in ``hand``, each once, in order of first repetition."""
    return [c for _, c, _ in extra_copies(enumerate(hand))]


def find_duplicates(
    located: Iterable[tuple[Path, Card]], *, copies: Mapping[Card, int] | None = None, default_copies: int = 1
) -> list[InputProblem]:
    """Problems for every card that appears more often than the deck holds it.

    ``located`` pairs each card with its path in the request; ``copies`` gives a card's count in the
    deck when it is not ``default_copies`` (Joker Thirteen's doubled spades, its 3 jokers). The problem
    points at the first copy too many, so a client sees exactly which entry to fix.
    """
    return [duplicate_card(path, c, allowed) for path, c, allowed in extra_copies(located, copies, default_copies)]


def duplicate_card(path: Path, c: Card, allowed: int = 1) -> InputProblem:
    """The problem of ``c`` at ``path`` being one copy more than the deck's ``allowed``."""
    return problem(
        DOMAIN,
        path,
        NotationProblem.DUPLICATE_CARD,
        case="once" if allowed == 1 else "many",
        card=c.text,
        copies=allowed,
    )
