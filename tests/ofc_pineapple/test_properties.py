"""Invariants of OFC, by hypothesis: zero-sum scores, a well-behaved order, order- and notation-blind answers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from service.api import create_app
from service.rules import poker
from service.rules.cards import DECK, Card
from service.rules.ofc import ROWS, Board, Fantasyland, Row, Seat, compare_rows, score_hand

shuffled = st.permutations(DECK)
fantasyland = st.one_of(st.just(Fantasyland()), st.sampled_from([14, 15, 16, 17]).map(lambda n: Fantasyland(True, n)))


def deal_boards(deck: list[Card]) -> list[Board]:
    return [Board(tuple(deck[i : i + 3]), tuple(deck[i + 3 : i + 8]), tuple(deck[i + 8 : i + 13])) for i in (0, 13, 26)]


@given(shuffled, st.lists(fantasyland, min_size=3, max_size=3))
def test_scores_sum_to_zero(deck, states):
    score = score_hand([Seat(b, f) for b, f in zip(deal_boards(deck), states)])
    assert sum(p.total for p in score.players) == 0
    for p in score.players:
        won = sum(m.points_a for m in score.matchups if m.a == p.seat) - sum(
            m.points_a for m in score.matchups if m.b == p.seat
        )
        assert won == p.total


@given(shuffled, st.permutations(range(3)))
def test_order_of_players_never_changes_a_players_result(deck, order):
    boards = deal_boards(deck)
    base = score_hand([Seat(b) for b in boards])
    permuted = score_hand([Seat(boards[i]) for i in order])
    for new_seat, old_seat in enumerate(order):
        assert permuted.players[new_seat].total == base.players[old_seat].total
        assert permuted.players[new_seat].value == base.players[old_seat].value


@given(shuffled, st.randoms(use_true_random=False))
def test_order_of_cards_in_rows_never_changes_an_answer(deck, rng):
    boards = deal_boards(deck)
    shuffled_boards = []
    for b in boards:
        rows = [list(b.row(r)) for r in ROWS]
        for row in rows:
            rng.shuffle(row)
        shuffled_boards.append(Board(*(tuple(r) for r in rows)))
    assert score_hand([Seat(b) for b in boards]) == score_hand([Seat(b) for b in shuffled_boards])


five = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
three = st.lists(st.sampled_from(DECK), min_size=3, max_size=3, unique=True)


@given(five, five)
def test_compare_is_antisymmetric(a, b):
    forward, _, _ = compare_rows(Row.MIDDLE, a, b)
    backward, _, _ = compare_rows(Row.MIDDLE, b, a)
    assert {"a": "b", "b": "a", "tie": "tie"}[forward] == backward


@given(five, five, five)
def test_compare_is_transitive(a, b, c):
    sa, sb, sc = (poker.hand_value(h).strength for h in (a, b, c))
    if sa >= sb and sb >= sc:
        assert sa >= sc
    assert (compare_rows(Row.BOTTOM, a, a)[0]) == "tie"


@given(three, five)
def test_three_and_five_card_strengths_share_one_order(top, middle):
    # The foul check compares them directly: the rungs must mean the same category in both sizes.
    t, m = poker.hand_value(top), poker.hand_value(middle)
    if t.category == m.category:
        assert t.strength[0] == m.strength[0]


CLIENT = create_app({"TESTING": True}).test_client()


@given(five, st.data())
def test_any_card_notation_variant_gives_the_same_answer(hand, data):
    client = CLIENT

    def spell(c: Card) -> str:
        rank = str(c)[0]
        rank = (
            data.draw(st.sampled_from(["10", "T", "t"]))
            if rank == "T"
            else data.draw(st.sampled_from([rank, rank.lower()]))
        )
        suit = data.draw(
            st.sampled_from(
                {
                    "c": ["c", "C", "♣", "♧"],
                    "d": ["d", "D", "♦", "♢"],
                    "h": ["h", "H", "♥", "♡"],
                    "s": ["s", "S", "♠", "♤"],
                }[c.suit.value]
            )
        )
        return rank + suit

    canonical = client.post(
        "/v1/ofc-pineapple/rows/evaluate", json={"row": "bottom", "cards": [str(c) for c in hand]}
    ).get_json()
    variant = client.post(
        "/v1/ofc-pineapple/rows/evaluate", json={"row": "bottom", "cards": [spell(c) for c in hand]}
    ).get_json()
    assert variant == canonical
