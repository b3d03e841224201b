"""The shared card notation: every accepted spelling, canonical output, precise errors."""
from __future__ import annotations

import pytest

from service.rules.cards import CARD_BY_TEXT, DECK, JOKER, Card, Suit, find_duplicates, parse_card, parse_cards
from service.rules.errors import CardNotationError

RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


def test_the_deck_has_52_distinct_canonical_cards():
    assert len(DECK) == len(set(DECK)) == 52
    assert [str(c) for c in DECK[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    assert str(DECK[-1]) == "As"


@pytest.mark.parametrize("rank", [*RANKS, "10", "t", "j", "q", "k", "a"])
@pytest.mark.parametrize(("suit", "expected"), [("c", Suit.CLUBS), ("D", Suit.DIAMONDS), ("♥", Suit.HEARTS), ("♤", Suit.SPADES), ("♣", Suit.CLUBS), ("♢", Suit.DIAMONDS), ("H", Suit.HEARTS), ("s", Suit.SPADES)])
def test_every_spelling_of_every_card(rank, suit, expected):
    value = RANKS.get(rank.upper(), 10)
    assert parse_card(rank + suit) == Card(value, expected)
    assert parse_card(rank + suit) is DECK[(value - 2) * 4 + expected.order]  # singletons


def test_spellings_count():
    # 14 rank spellings (13 + "10") x 12 suit spellings, with both letter cases of each letter.
    assert len(CARD_BY_TEXT) == 304


@pytest.mark.parametrize("text", ["1s", "As ", " As", "Ax", "", "AAs", "JK", "11s", "10", "♠A", None, 14, ["As"]])
def test_what_is_not_a_card(text):
    with pytest.raises(CardNotationError):
        parse_card(text)


def test_joker_only_where_allowed():
    assert parse_card("jk", jokers=True) is JOKER and str(JOKER) == "JK" and JOKER.is_joker
    with pytest.raises(CardNotationError) as error:
        parse_card("JK")
    assert error.value.problems[0].code == "joker_not_allowed"


def test_parse_cards_reports_every_bad_entry_with_its_index():
    with pytest.raises(CardNotationError) as error:
        parse_cards(["As", "Zz", "Kd", "1c"], path=("cards",))
    assert [p.path for p in error.value.problems] == [("cards", 1), ("cards", 3)]


def test_find_duplicates_points_at_the_first_copy_too_many():
    located = [(("a", i), parse_card(t)) for i, t in enumerate(["As", "Kd", "as", "A♠"])]
    assert [p.path for p in find_duplicates(located)] == [("a", 2)]
    assert find_duplicates(located, copies={parse_card("As"): 3}) == []
