"""The showdown by categories: ``score_hand(cards=False)`` and ``validate_hand(cards=False)`` value
each row as the table's ``Ranking`` instead of a full ``HandValue``; everything else they answer (totals,
matchups, fouls, royalties, Fantasyland, refusals) is the full showdown's, and each row's category and
strength are the full hand's. ``poker.ranking_if_distinct`` is ``value_if_distinct`` without the cards, on
every 3-card hand and on random 5-card hands, repeats included."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from service.rules import poker
from service.rules.cards import DECK
from service.rules.errors import InvalidInputError
from service.rules.ofc import ROWS, Board, HandScore, Seat, score_hand, validate_hand
from service.rules.ofc.rules import HOUSE
from tests.ofc_pineapple.test_replay import legal_record, mutate, showdown_seats
from tests.ofc_pineapple.test_rule_set_properties import SEATINGS, ids


def test_a_ranking_is_the_full_values_category_and_strength():
    hands = [*combinations(DECK, 3)]
    rng = random.Random("rankings")
    hands += [tuple(rng.sample(DECK, 5)) for _ in range(30000)]
    hands += [(c, c, *rng.sample(DECK, size - 2)) for size in (3, 5) for c in DECK for _ in range(3)]  # repeats
    hands = [tuple(rng.sample(h, len(h))) for h in hands]  # any order
    repeated = 0
    for hand in hands:
        full, ranking = poker.value_if_distinct(hand), poker.ranking_if_distinct(hand)
        if full is None:
            assert ranking is None, hand
            repeated += 1
        else:
            assert ranking is not None and (ranking.category, ranking.strength) == (full.category, full.strength)
            assert type(ranking.category) is poker.Category
    assert repeated > 50
    for size in (0, 1, 2, 4, 6):
        with pytest.raises(ValueError):
            poker.ranking_if_distinct(DECK[:size])


def by_category(score: HandScore) -> object:
    """A score with each row's hand as its category (a plain str) and strength: what both ways share."""
    players = [
        (p.seat, p.total, {r: (str(v.hand.category), v.hand.strength, v.royalty) for r, v in p.value.rows.items()},
         p.value[1:])
        for p in score.players
    ]  # fmt: skip
    return players, score.matchups, score.button_moves


def outcome(call):
    try:
        return call()
    except InvalidInputError as error:
        return ("refused", error.problems)


@pytest.mark.parametrize(("rules", "players"), SEATINGS, ids=ids)
def test_the_showdown_by_categories_is_the_full_showdown(rules, players):
    rng = random.Random(f"categories {rules.id} {players}")
    scored = 0
    for _ in range(300):
        seats = showdown_seats(rng, rules, players)
        full = outcome(lambda: score_hand(seats, rules))  # noqa: B023
        lean = outcome(lambda: score_hand(seats, rules, cards=False))  # noqa: B023
        if isinstance(full, tuple) and full[0] == "refused":
            assert lean == full
            continue
        scored += 1
        assert by_category(lean) == by_category(full)
        assert all(type(v.hand) is poker.Ranking for p in lean.players for v in p.value.rows.values())
    assert scored > 100


@pytest.mark.parametrize(("rules", "players"), SEATINGS, ids=ids)
def test_a_record_scored_by_categories_is_the_full_replay(rules, players):
    rng = random.Random(f"record categories {rules.id} {players}")
    legal = 0
    for _ in range(200):
        dealer, fantasyland, actions = legal_record(rng, rules, players)
        if rng.random() < 0.3:
            actions = mutate(rng, actions, players) or actions
        full = outcome(lambda: validate_hand(dealer, fantasyland, actions, rules))  # noqa: B023
        lean = outcome(lambda: validate_hand(dealer, fantasyland, actions, rules, cards=False))  # noqa: B023
        if isinstance(full, tuple) or full.score is None:
            assert lean == full
            continue
        legal += 1
        assert (lean.legal, lean.violations, lean.boards, lean.discards) == (
            full.legal, full.violations, full.boards, full.discards
        )  # fmt: skip
        assert by_category(lean.score) == by_category(full.score)
    assert legal > 100


def test_a_board_ranked_at_once_is_each_row_ranked_and_its_cards_bits():
    """``poker.rank_board``: each row's ranking as ``ranking_if_distinct``, the board's cards as one
    bit each; None exactly when a card repeats on the board (in a row or across rows)."""
    rng = random.Random("rank_board")
    boards = [rng.sample(DECK, 13) for _ in range(20000)]
    for board in boards[:8000]:  # a card again, in its own row or another
        board[rng.randrange(13)] = board[rng.randrange(13)]
    repeated = 0
    for board in boards:
        top, middle, bottom = tuple(board[:3]), tuple(board[3:8]), tuple(board[8:])
        found = poker.rank_board(top, middle, bottom)
        if len(set(board)) < 13:
            assert found is None, board
            repeated += 1
            continue
        assert found is not None
        assert found[:3] == tuple(poker.ranking_if_distinct(row) for row in (top, middle, bottom))
        assert found[3] == sum(1 << c.index for c in board)
    assert repeated > 5000


@pytest.mark.parametrize(("rules", "players"), SEATINGS, ids=ids)
def test_the_table_checked_by_card_bits_refuses_what_the_set_refuses(rules, players):
    """score_hand(cards=False) checks a table for repeats by the boards' card bits added up: a card on two
    boards, or twice on one, is refused as the full showdown's set of cards refuses it, with the same
    problems; otherwise it scores as the full showdown."""
    rng = random.Random(f"card bits {rules.id} {players}")
    refused = 0
    for _ in range(400):
        deck = rng.sample(DECK, 13 * players)
        boards = [deck[13 * s : 13 * s + 13] for s in range(players)]
        for _ in range(rng.choice([0, 1, 1, 2])):  # a card of any board, again, anywhere
            board = rng.choice(boards)
            board[rng.randrange(13)] = rng.choice(rng.choice(boards))
        seats = [Seat(Board(tuple(b[:3]), tuple(b[3:8]), tuple(b[8:]))) for b in boards]
        full = outcome(lambda: score_hand(seats, rules))  # noqa: B023
        lean = outcome(lambda: score_hand(seats, rules, cards=False))  # noqa: B023
        if isinstance(full, tuple) and full[0] == "refused":
            assert lean == full
            refused += 1
        else:
            assert by_category(lean) == by_category(full)
    assert refused > 100


def test_the_rows_values_cached_per_rule_set_are_the_royalty_tables():
    """A rule set's cache of row values (``OfcRules.ranked_rows``) holds each ranking with the royalty its
    table gives; a rule set with a request's royalties has none, and scores by its own tables."""
    rng = random.Random("ranked rows")
    for _ in range(300):
        deck = rng.sample(DECK, 39)
        seats = [Seat(Board(tuple(deck[s:s + 3]), tuple(deck[s + 3:s + 8]), tuple(deck[s + 8:s + 13]))) for s in (0, 13, 26)]  # fmt: skip
        score_hand(seats, HOUSE, cards=False)
    assert HOUSE.ranked_rows is not None and all(HOUSE.ranked_rows)
    for row, cache in zip(ROWS, HOUSE.ranked_rows):
        for strength, value in cache.items():
            assert value.hand.strength == strength and value.royalty == HOUSE.royalty_by_row[row][strength]
    doubled = HOUSE.with_royalties({"bottom": {k: 2 * v for k, v in HOUSE.royalties["bottom"].items()}})
    assert doubled.ranked_rows is None
    for _ in range(200):
        deck = rng.sample(DECK, 39)
        seats = [Seat(Board(tuple(deck[s:s + 3]), tuple(deck[s + 3:s + 8]), tuple(deck[s + 8:s + 13]))) for s in (0, 13, 26)]  # fmt: skip
        assert by_category(score_hand(seats, doubled, cards=False)) == by_category(score_hand(seats, doubled))
