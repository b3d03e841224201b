"""moves/legal: every distinct legal move of a deal, proven equal to moves/validate on every way of using
the dealt cards (each card to a row or to the discard), on boards of every round; canonical order; 422s."""

from __future__ import annotations

import random
from itertools import product

import pytest

from service.rules.cards import DECK, cards
from service.rules.errors import InvalidInputError
from service.rules.games import GAMES
from service.rules.ofc import ROWS, Board, validate_move
from service.rules.ofc import rules as ofc_rules
from service.rules.ofc.moves import PINEAPPLE, MovesProblem, Schedule, legal_moves, schedule_of

OFC_RULE_SETS = [r.rules for game in GAMES for r in game.rule_sets if isinstance(r.rules, ofc_rules.OfcRules)]

TARGETS = (*ROWS, None)  # None: the discard


def random_board(rng: random.Random, on_board: int, avoid=()) -> Board:
    """A board of ``on_board`` random cards spread at random over rows with room (rows may fill up)."""
    pool = [c for c in DECK if c not in avoid]
    rng.shuffle(pool)
    rows: dict = {r: [] for r in ROWS}
    for c in pool[:on_board]:
        r = rng.choice([r for r in ROWS if len(rows[r]) < r.size])
        rows[r].append(c)
    return Board(*(tuple(rows[r]) for r in ROWS))


def every_use(dealt):
    """Every way to send each dealt card to a row or the discard."""
    for targets in product(TARGETS, repeat=len(dealt)):
        placement = {r: tuple(c for c, t in zip(dealt, targets) if t == r) for r in ROWS}
        yield placement, tuple(c for c, t in zip(dealt, targets) if t is None)


def prove(board: Board, round_: int, dealt, rules=ofc_rules.HOUSE) -> int:
    board = Board(*(tuple(board.row(r)) for r in ROWS))
    listed = legal_moves(board, dealt, rules)
    boards = [tuple(frozenset(m.board.row(r)) for r in ROWS) for m in listed.moves]
    assert len(set(boards)) == len(boards)
    accepted = set()
    checked = 0
    for placement, discard in every_use(dealt):
        checked += 1
        verdict = validate_move(board, round_, dealt, placement, discard, (), rules)
        if verdict.legal:
            accepted.add(tuple(frozenset(verdict.board.row(r)) for r in ROWS))
    assert set(boards) == accepted
    for m in listed.moves:  # each listed move is itself accepted, making the board it says
        verdict = validate_move(board, round_, dealt, m.placement, m.discard, (), rules)
        assert verdict.legal and verdict.board == m.board
    return checked


ON_BOARD = {1: 0, 2: 5, 3: 7, 4: 9, 5: 11}


@pytest.mark.parametrize("round_", [1, 2, 3, 4, 5])
def test_listed_moves_are_exactly_what_moves_validate_accepts(round_):
    rng = random.Random(f"ofc-moves-{round_}")
    checked = 0
    for _ in range(4 if round_ == 1 else 40):
        board = random_board(rng, ON_BOARD[round_])
        dealt = rng.sample([c for c in DECK if c not in board.cards()], 5 if round_ == 1 else 3)
        checked += prove(board, round_, dealt)
    assert checked == (4 * 4**5 if round_ == 1 else 40 * 4**3)


@pytest.mark.parametrize("rules", OFC_RULE_SETS, ids=[r.id for r in OFC_RULE_SETS])
def test_every_rule_sets_moves_are_exactly_what_its_moves_validate_accepts(rules):
    """Every round of every rule set (classic: 5 cards, then 1 card eight times, nothing discarded)."""
    rng = random.Random(f"ofc-moves-{rules.id}")
    schedule = schedule_of(rules)
    before = 0
    checked = 0
    for round_, (dealt_size, placed) in enumerate(schedule.rounds, start=1):
        for _ in range(2 if round_ == 1 else 8):
            board = random_board(rng, before)
            dealt = rng.sample([c for c in DECK if c not in board.cards()], dealt_size)
            checked += prove(board, round_, dealt, rules)
        before += placed
    assert checked > 2000


def test_full_rows_take_no_more_cards():
    board = Board(cards("As Ad Ah"), cards("2c 3c 4c 5c 6c"), cards("9d Td Jd"))  # round 5: only the bottom has room
    listed = legal_moves(board, cards("Kc Kd Ks"))
    assert listed.round == 5 and len(listed.moves) == 3
    assert [(m.discard, m.placement) for m in listed.moves] == [
        ((c,), {r: tuple(x for x in cards("Kc Kd Ks") if x != c and r == "bottom") for r in ROWS})
        for c in cards("Kc Kd Ks")
    ]
    assert prove(board, 5, cards("Kc Kd Ks")) == 64


def test_round_one_places_all_five_in_232_distinct_ways():
    listed = legal_moves(Board(), cards("As Kd 7h 7c 2s"))
    assert (listed.round, listed.placed, listed.discarded, len(listed.moves)) == (
        1,
        5,
        0,
        3**5 - 11,
    )  # 11 put 4+ on top


def test_canonical_order_discard_then_row_of_each_card_in_card_order():
    listed = legal_moves(Board(cards("As"), cards("Kd 7h"), cards("2c 3c")), cards("Qh 4d 9s"))
    keys = []
    for m in listed.moves:
        kept = sorted((c for r in ROWS for c in m.placement[r]), key=lambda c: c.index)
        keys.append(
            ([c.index for c in m.discard], [next(i for i, r in enumerate(ROWS) if c in m.placement[r]) for c in kept])
        )
    assert keys == sorted(keys) and len(listed.moves) == 27


def test_classic_deals_one_card_placed_wherever_a_row_has_room():
    board = Board(tuple(cards("As Ad")), tuple(cards("2c 3c 4c 5c 6c")), tuple(cards("9d Td Jd")))
    listed = legal_moves(board, cards("Kh"), ofc_rules.CLASSIC)
    assert (listed.round, listed.discarded) == (7, 0)
    assert [m.board for m in listed.moves] == [
        board.placed({"top": cards("Kh")}),
        board.placed({"bottom": cards("Kh")}),
    ]


def codes(call):
    with pytest.raises(InvalidInputError) as raised:
        call()
    return [(p.code, p.path) for p in raised.value.problems]


def test_impossible_requests_are_refused():
    assert codes(lambda: legal_moves(Board(), cards("As Kd 7h 7c"))) == [(MovesProblem.DEAL_SIZE, ("dealt",))]
    assert (
        codes(lambda: legal_moves(Board(cards("As")), cards("As Kd 7h")))
        == [(MovesProblem.BOARD_BETWEEN_ROUNDS, ("board",)), ("duplicate_card", ("dealt", 0))][::-1]
    )
    full = Board(cards("As Ad Ah"), cards("2c 3c 4c 5c 6c"), cards("9d Td Jd Qd Kd"))
    assert codes(lambda: legal_moves(full, cards("Kc Ks 2d"))) == [(MovesProblem.BOARD_COMPLETE, ("board",))]
    assert codes(lambda: legal_moves(Board(cards("As Ad Ah Ac")), cards("Kc Ks 2d"))) == [
        (MovesProblem.ROW_TOO_FULL, ("board", "top")),
        (MovesProblem.BOARD_BETWEEN_ROUNDS, ("board",)),
    ]


def test_a_schedule_fills_exactly_13_places():
    with pytest.raises(AssertionError):
        Schedule(((5, 5), (3, 2)))
    assert [PINEAPPLE.round_at(n) for n in (0, 5, 7, 9, 11, 6, 13)] == [1, 2, 3, 4, 5, None, None]
