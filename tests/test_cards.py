"""The shared card notation: every accepted spelling, canonical output, precise errors."""

from __future__ import annotations

import pytest

from service.rules.cards import (
    CARD_BY_TEXT,
    CARD_OR_JOKER_BY_TEXT,
    DECK,
    JOKER,
    JOKER_SPELLINGS,
    Card,
    Suit,
    card_texts,
    cards,
    extra_copies,
    find_duplicates,
    parse_card,
    parse_cards,
    read_cards,
    repeated,
)
from service.rules.errors import CardNotationError

RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


def test_the_deck_has_52_distinct_canonical_cards():
    assert len(DECK) == len(set(DECK)) == 52
    assert [str(c) for c in DECK[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    assert str(DECK[-1]) == "As"


@pytest.mark.parametrize("rank", [*RANKS, "10", "t", "j", "q", "k", "a"])
@pytest.mark.parametrize(
    ("suit", "expected"),
    [
        ("c", Suit.CLUBS),
        ("D", Suit.DIAMONDS),
        ("♥", Suit.HEARTS),
        ("♤", Suit.SPADES),
        ("♣", Suit.CLUBS),
        ("♢", Suit.DIAMONDS),
        ("H", Suit.HEARTS),
        ("s", Suit.SPADES),
    ],
)
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


def test_extra_copies_names_each_first_copy_beyond_the_allowance_with_its_place():
    hand = cards("As Kd As As Kd 2c")
    assert extra_copies(enumerate(hand)) == [(2, parse_card("As"), 1), (4, parse_card("Kd"), 1)]
    assert extra_copies(enumerate(hand), {parse_card("As"): 2}) == [(3, parse_card("As"), 2), (4, parse_card("Kd"), 1)]
    assert extra_copies(enumerate(hand), {parse_card("Kd"): 2}, default_copies=0) == [
        (0, parse_card("As"), 0),
        (5, parse_card("2c"), 0),
    ]


def test_repeated_lists_each_repeated_card_once():
    assert repeated(cards("As Kd As As Kd 2c")) == cards("As Kd")
    assert repeated(cards("As Kd 2c")) == []


def test_one_joker_spelling_table():
    assert sorted(JOKER_SPELLINGS) == ["JK", "Jk", "jK", "jk"]
    assert all(CARD_OR_JOKER_BY_TEXT[text] is JOKER for text in JOKER_SPELLINGS)
    assert CARD_OR_JOKER_BY_TEXT.items() >= CARD_BY_TEXT.items() and len(CARD_OR_JOKER_BY_TEXT) == len(CARD_BY_TEXT) + 4


@pytest.mark.parametrize(
    ("texts", "jokers", "size"),
    [(["As", "10♠", "kd"], False, None), (["As", "jk"], True, None), (["As", "Kd", "Qh"], False, 3), ([], False, None)],
)
def test_read_cards_is_parse_cards_on_plain_lists(texts, jokers, size):
    assert read_cards(texts, jokers=jokers, size=size) == parse_cards(texts, jokers=jokers)


@pytest.mark.parametrize(
    ("texts", "jokers", "size"),
    [
        (["As", "JK"], False, None),
        (["As", "Zz"], True, None),
        (["As", None], False, None),
        (["As", ["Kd"]], False, None),
        (("As", "Kd"), False, None),
        ("As", False, None),
        (["As", "Kd"], False, 3),
        (None, False, None),
    ],
)
def test_read_cards_declines_anything_else(texts, jokers, size):
    assert read_cards(texts, jokers=jokers, size=size) is None


def test_card_texts_is_canonical():
    assert card_texts(cards("as 10♠ jk")) == ["As", "Ts", "JK"]
