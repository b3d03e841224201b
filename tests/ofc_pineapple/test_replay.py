"""The incremental hand-record replay (``ofc.validate_hand``) answers exactly what the
replay it replaced answers (``replay_reference.validate_hand``: every action validated whole by
``validate_move``, the complete record scored by ``score_hand``): the same legality, violations (codes,
cards, indexes, parameters), boards, score and discards, on many random records of every OFC rule set and
seating, legal ones (fouls, Fantasyland entry and staying among them) and ones broken in every way an action
can be (out of turn, cards dealt twice, repeated, not dealt, wrong counts, rows overflowing, missing or extra
actions)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules import poker
from service.rules.cards import DECK, Card
from service.rules.errors import InvalidInputError
from service.rules.ofc import (
    BOTTOM,
    MIDDLE,
    ROWS,
    TOP,
    Action,
    Board,
    Fantasyland,
    Row,
    Seat,
    evaluate_board,
    foul_reasons,
    score_hand,
    turn_order,
    validate_hand,
    validate_move,
)
from service.rules.ofc.rules import OfcRules
from tests.ofc_pineapple import replay_reference
from tests.ofc_pineapple.test_rule_set_properties import RULE_SETS, SEATINGS, ids

# --- legal records ------------------------------------------------------------------------------------


def final_board(rng: random.Random, deck: list[Card], aim: str) -> dict[Row, list[Card]]:
    """13 cards off ``deck``: dealt at random ("any", mostly fouls), or kept from fouling, with a top pair of
    queens or better or trips as often as the deck allows ("fantasyland")."""
    if aim == "any":
        cards = [deck.pop() for _ in range(13)]
        return {TOP: cards[:3], MIDDLE: cards[3:8], BOTTOM: cards[8:]}
    for _ in range(40 if len(deck) > 20 else 1):
        rng.shuffle(deck)
        top = deck[:3]
        if aim == "fantasyland":
            by_rank: dict[int, list[Card]] = {}
            for c in deck:
                by_rank.setdefault(c.rank, []).append(c)
            ranks = [r for r, cs in by_rank.items() if (r >= 12 and len(cs) >= 2) or len(cs) >= 3]
            if ranks:
                rank = rng.choice(ranks)
                group = by_rank[rank][: 3 if len(by_rank[rank]) >= 3 and rng.random() < 0.5 else 2]
                rest = [c for c in deck if c not in group]
                top = group + rest[: 3 - len(group)]
        rest = [c for c in deck if c not in top]
        floor = poker.hand_value(top).strength
        # the best of a few middles and bottoms drawn from the rest, so that strong tops need not foul
        fives = [rng.sample(rest, 5) for _ in range(150 if aim == "fantasyland" else 1)]
        fives = [h for h in fives if poker.hand_value(h).strength >= floor] or [rest[:5]]
        middle = fives[0]
        bottom = next((h for h in fives[1:] if not set(h) & set(middle)), None)
        if bottom is None:
            bottom = [c for c in rest if c not in middle][:5]
        middle, bottom = sorted([middle, bottom], key=lambda h: poker.hand_value(h).strength)
        values = [poker.hand_value(h) for h in (top, middle, bottom)]
        if not foul_reasons(*values):
            for c in (*top, *middle, *bottom):
                deck.remove(c)
            return {TOP: list(top), MIDDLE: list(middle), BOTTOM: list(bottom)}
    cards = [deck.pop() for _ in range(13)]
    return {TOP: cards[:3], MIDDLE: cards[3:8], BOTTOM: cards[8:]}


def legal_record(rng: random.Random, rules: OfcRules, players: int) -> tuple[int, list[Fantasyland], list[Action]]:
    """A legal, complete record: random seating, Fantasyland states, boards, placing order and discards."""
    dealer = rng.randrange(players)
    fantasyland = [
        Fantasyland(True, rng.choice(rules.fantasyland_sizes))
        if rules.fantasyland_sizes and rng.random() < 0.25
        else Fantasyland()
        for _ in range(players)
    ]
    deck = list(DECK)
    rng.shuffle(deck)
    aims = [["any", "any", "keep", "fantasyland"], ["any", "fantasyland", "fantasyland"]]
    boards = [final_board(rng, deck, rng.choice(aims[fl.active])) for fl in fantasyland]
    queues = []
    for board in boards:
        placing = [(row, c) for row in ROWS for c in board[row]]
        rng.shuffle(placing)
        queues.append(placing)
    actions = []
    for seat, round_ in turn_order(dealer, fantasyland, rules):
        if round_ == "fantasyland":
            take, extra = queues[seat], fantasyland[seat].cards - 13  # type: ignore[operator]
            queues[seat] = []
        else:
            deal = rules.deals[int(round_) - 1]
            take, queues[seat] = queues[seat][: deal.placed], queues[seat][deal.placed :]
            extra = deal.dealt - deal.placed
        discard = [deck.pop() for _ in range(extra)]
        placement: dict[Row, tuple[Card, ...]] = {}
        for row, c in take:
            placement[row] = (*placement.get(row, ()), c)
        if rng.random() < 0.5:  # every row named, the empty ones too, as the HTTP layer passes them
            placement = {row: placement.get(row, ()) for row in ROWS}
        dealt = [c for _, c in take] + discard
        rng.shuffle(dealt)
        actions.append(Action(seat, tuple(dealt), placement, tuple(discard)))
    return dealer, fantasyland, actions


# --- broken records -----------------------------------------------------------------------------------


def _dealt_before(rng: random.Random, actions: list[Action], i: int) -> Card | None:
    earlier = [c for a in actions[:i] for c in a.dealt]
    return rng.choice(earlier) if earlier else None


def mutate(rng: random.Random, actions: list[Action], players: int) -> list[Action]:
    """The record with one thing changed at a random action (the change may happen to leave it legal)."""
    actions = list(actions)
    i = rng.randrange(len(actions))
    a = actions[i]
    placed = [(row, c) for row in ROWS for c in a.placement.get(row, ())]
    unused = [c for c in DECK if all(c not in b.dealt for b in actions)]
    kind = rng.randrange(17) if a.dealt else 2
    if kind == 0:  # swap two actions
        j = rng.randrange(len(actions))
        actions[i], actions[j] = actions[j], actions[i]
    elif kind == 1:  # stop early
        del actions[i:]
    elif kind == 2:  # one more action
        actions.append(rng.choice(actions))
    elif kind == 3:  # another seat acts
        actions[i] = Action(rng.randrange(players), a.dealt, a.placement, a.discard)
    elif kind == 4:  # a card dealt before dealt again, where a card of the deal was
        old = _dealt_before(rng, actions, i)
        if old is not None:
            actions[i] = _replace_card(a, rng.choice(a.dealt), old)
    elif kind == 5:  # a card of the deal repeated in it
        actions[i] = Action(a.seat, (*a.dealt, rng.choice(a.dealt)), a.placement, a.discard)
    elif kind == 6 and placed:  # a placed card discarded instead
        row, c = rng.choice(placed)
        placement = {r: tuple(x for x in cs if x != c) for r, cs in a.placement.items()}
        actions[i] = Action(a.seat, a.dealt, placement, (*a.discard, c))
    elif kind == 7 and a.discard:  # a discard placed instead
        c, row = rng.choice(a.discard), rng.choice(ROWS)
        placement = {**a.placement, row: (*a.placement.get(row, ()), c)}
        actions[i] = Action(a.seat, a.dealt, placement, tuple(x for x in a.discard if x != c))
    elif kind == 8 and placed:  # a card moved to another row (may overflow it)
        row, c = rng.choice(placed)
        to = rng.choice(ROWS)
        placement = {r: tuple(x for x in cs if x != c) for r, cs in a.placement.items()}
        placement[to] = (*placement.get(to, ()), c)
        actions[i] = Action(a.seat, a.dealt, placement, a.discard)
    elif kind == 9 and unused:  # a card never dealt placed
        row = rng.choice(ROWS)
        actions[i] = Action(a.seat, a.dealt, {**a.placement, row: (*a.placement.get(row, ()), rng.choice(unused))},
                            a.discard)  # fmt: skip
    elif kind == 10:  # a card dropped from the deal
        c = rng.choice(a.dealt)
        actions[i] = Action(a.seat, tuple(x for x in a.dealt if x != c), a.placement, a.discard)
    elif kind == 11 and unused:  # a card more dealt, and discarded or not
        c = rng.choice(unused)
        actions[i] = Action(a.seat, (*a.dealt, c), a.placement, (*a.discard, c) if rng.random() < 0.5 else a.discard)
    elif kind == 12 and placed:  # one card placed in two rows
        row, c = rng.choice(placed)
        other = rng.choice([r for r in ROWS if r != row])
        actions[i] = Action(a.seat, a.dealt, {**a.placement, other: (*a.placement.get(other, ()), c)}, a.discard)
    elif kind == 13 and placed:  # a card discarded as well as placed
        actions[i] = Action(a.seat, a.dealt, a.placement, (*a.discard, rng.choice(placed)[1]))
    elif kind == 14 and placed and unused:  # a placed card swapped for one never dealt: the counts still right
        actions[i] = _replace_card(Action(a.seat, (), a.placement, ()), rng.choice(placed)[1], rng.choice(unused))
        actions[i] = Action(a.seat, a.dealt, actions[i].placement, a.discard)
    elif kind == 15 and placed and a.discard:  # a discard swapped for a placed card: that card used twice
        gone, twice = rng.choice(a.discard), rng.choice(placed)[1]
        actions[i] = Action(a.seat, a.dealt, a.placement, tuple(twice if c == gone else c for c in a.discard))
    elif kind == 16 and placed and a.discard:  # a discard swapped for a placed card in the deal too: dealt twice
        actions[i] = _replace_card(a, rng.choice(a.discard), rng.choice(placed)[1])
    return actions


def _replace_card(a: Action, old: Card, new: Card) -> Action:
    def swap(cs: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(new if c == old else c for c in cs)

    return Action(a.seat, swap(a.dealt), {r: swap(tuple(cs)) for r, cs in a.placement.items()}, swap(a.discard))


# --- the proof ----------------------------------------------------------------------------------------


def outcome(replay: Callable, dealer: int, fantasyland: list[Fantasyland], actions: list[Action], rules: OfcRules):
    try:
        return replay(dealer, fantasyland, actions, rules)
    except InvalidInputError as error:
        return ("refused", error.problems)


def assert_same(rules: OfcRules, dealer: int, fantasyland: list[Fantasyland], actions: list[Action]) -> object:
    new = outcome(validate_hand, dealer, fantasyland, actions, rules)
    old = outcome(replay_reference.validate_hand, dealer, fantasyland, actions, rules)
    assert new == old, (rules.id, dealer, fantasyland, actions)
    # every violation's text parameters too (Violation's params take no part in its equality)
    if not isinstance(new, tuple):
        assert [(v.params, v.message) for v in new.violations] == [(v.params, v.message) for v in old.violations]
    return new


@pytest.mark.parametrize(("rules", "players"), SEATINGS, ids=ids)
def test_the_replay_of_legal_records_is_the_reference(rules, players):
    rng = random.Random(f"legal {rules.id} {players}")
    fouled = entered = stayed = 0
    for _ in range(300):
        result = assert_same(rules, *legal_record(rng, rules, players))
        assert result.legal
        for p in result.score.players:
            fouled += p.value.fouled
            entered += p.value.fantasyland_next.qualifies and p.value.fantasyland_next.reason.startswith("enter")
            stayed += p.value.fantasyland_next.qualifies and p.value.fantasyland_next.reason.startswith("stay")
    assert fouled > 50  # the sweep covers fouls, and Fantasyland where the rule set has it
    if rules.has_fantasyland:
        assert entered > 20 and stayed > 5


@pytest.mark.parametrize(("rules", "players"), SEATINGS, ids=ids)
def test_the_replay_of_broken_records_is_the_reference(rules, players):
    rng = random.Random(f"broken {rules.id} {players}")
    codes: set[str] = set()
    for _ in range(400):
        dealer, fantasyland, actions = legal_record(rng, rules, players)
        for _ in range(rng.choice([1, 1, 2, 3])):
            actions = mutate(rng, actions, players) or actions
        result = assert_same(rules, dealer, fantasyland, actions)
        codes |= {v.code for v in result.violations}
    expected = {
        "out_of_turn", "card_dealt_twice", "duplicate_in_deal", "card_not_dealt", "card_used_twice",
        "wrong_deal_size", "wrong_placement_size", "wrong_discard_size", "row_overflow", "record_incomplete",
        "action_after_hand_end",
    }  # fmt: skip
    assert expected <= codes, expected - codes


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SEATINGS), st.randoms(use_true_random=False), st.integers(0, 3))
def test_any_record_replays_as_the_reference(seating, rng, mutations):
    rules, players = seating
    dealer, fantasyland, actions = legal_record(rng, rules, players)
    for _ in range(mutations):
        actions = mutate(rng, actions, players) or actions
    assert_same(rules, dealer, fantasyland, actions)


def test_a_refused_fantasyland_state_is_refused_alike():
    rules = RULE_SETS[0]
    dealer, fantasyland, actions = legal_record(random.Random(7), rules, 3)
    for bad in (Fantasyland(True, 13), Fantasyland(False, 14), Fantasyland(True, None)):
        result = assert_same(rules, dealer, [bad, *fantasyland[1:]], actions)
        assert result[0] == "refused"
    assert assert_same(rules, 3, fantasyland, actions)[0] == "refused"  # no such dealer


# --- the showdown: score_hand and evaluate_board, checks and all ---------------------------------------


def showdown_seats(rng: random.Random, rules: OfcRules, players: int) -> list[Seat]:
    """Random seats to score: mostly complete, distinct boards (fouls, Fantasyland); sometimes a row of the
    wrong size, a card twice (on one board or two), a Fantasyland state the rule set refuses, or a player
    too many or too few."""
    count = players + (rng.choice([-1, 1]) if rng.random() < 0.05 else 0)
    deck = list(DECK)
    rng.shuffle(deck)
    boards = [final_board(rng, deck, rng.choice(["any", "keep", "fantasyland"])) for _ in range(min(count, 4))]
    boards += [{row: list(cards) for row, cards in boards[0].items()} for _ in range(count - len(boards))]
    sizes = [*rules.fantasyland_sizes, 13, 18] if rng.random() < 0.1 else rules.fantasyland_sizes
    states = [Fantasyland(True, rng.choice(sizes)) if sizes and rng.random() < 0.3 else Fantasyland() for _ in boards]
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        board = rng.choice(boards)
        row = rng.choice(ROWS)
        kind = rng.randrange(4)
        if kind == 0 and board[row]:  # a card short
            board[row].pop(rng.randrange(len(board[row])))
        elif kind == 1:  # a card more, from the deck
            board[row].append(deck.pop() if deck else DECK[0])
        elif kind == 2:  # a card of any board, again
            other = rng.choice(boards)
            board[row][rng.randrange(len(board[row]))] = rng.choice([c for r in ROWS for c in other[r]])
        elif kind == 3:  # Fantasyland without a count, or a count while not in it
            i = rng.randrange(len(states))
            states[i] = rng.choice([Fantasyland(True, None), Fantasyland(False, 14)])
    return [Seat(Board(tuple(b[TOP]), tuple(b[MIDDLE]), tuple(b[BOTTOM])), fl) for b, fl in zip(boards, states)]


def same_outcome(call: Callable[[], object], reference: Callable[[], object]) -> object:
    def run(f: Callable[[], object]) -> object:
        try:
            return f()
        except InvalidInputError as error:
            return ("refused", error.problems)

    new, old = run(call), run(reference)
    assert new == old
    return new


@pytest.mark.parametrize(("rules", "players"), SEATINGS, ids=ids)
def test_the_showdown_is_the_reference(rules, players):
    rng = random.Random(f"showdown {rules.id} {players}")
    refused = scored = 0
    for _ in range(400):
        seats = showdown_seats(rng, rules, players)
        result = same_outcome(lambda: score_hand(seats, rules), lambda: replay_reference.score_hand(seats, rules))  # noqa: B023
        refused += isinstance(result, tuple) and result[0] == "refused"
        scored += not isinstance(result, tuple) or result[0] != "refused"
        for s, seat in enumerate(seats):
            same_outcome(
                lambda: evaluate_board(seat.board, seat.fantasyland, ("players", s), rules),  # noqa: B023
                lambda: replay_reference.evaluate_board(seat.board, seat.fantasyland, ("players", s), rules),  # noqa: B023
            )
    assert refused > 20 and scored > 100


# --- one move: validate_move's quick path ---------------------------------------------------------------


def move_case(rng: random.Random, rules: OfcRules, players: int) -> tuple:
    """A move from a random legal record (the seat's board before it, its round), then often broken: the
    action as ``mutate`` breaks it, a card of the deal or a repeat on the board, another round, cards seen
    elsewhere (some of them the deal's or the board's), a round the rule set lacks."""
    dealer, fantasyland, actions = legal_record(rng, rules, players)
    order = turn_order(dealer, fantasyland, rules)
    i = rng.randrange(len(actions))
    seat, round_ = order[i]
    board = Board()
    for a, (s, _) in zip(actions[:i], order):
        if s == seat:
            board = board.placed(a.placement)
    action = (mutate(rng, [actions[i]], players) if rng.random() < 0.5 else [actions[i]]) or [actions[i]]
    action = action[0]
    rows = {row: list(board.row(row)) for row in ROWS}
    on_board = [c for row in ROWS for c in rows[row]]
    kind = rng.randrange(10)
    if kind == 0 and action.dealt:  # a card of the deal already on the board
        rng.choice(list(rows.values())).append(rng.choice(action.dealt))
    elif kind == 1 and on_board:  # a card twice on the board
        rng.choice(list(rows.values())).append(rng.choice(on_board))
    elif kind == 2:  # another round
        round_ = rng.choice([*range(1, rules.rounds + 1), *(["fantasyland"] if rules.has_fantasyland else [])])
    elif kind == 3:  # a round the rule set lacks (refused)
        round_ = rng.choice([0, rules.rounds + 1, "fantasyland", "six"])
    elif kind in (4, 5) and on_board and action.dealt:  # a board card turned into a deal's or another board card
        row = rng.choice([r for r in ROWS if rows[r]])
        rows[row][rng.randrange(len(rows[row]))] = rng.choice(action.dealt if kind == 4 else on_board)
    used = {*action.dealt, *on_board}
    seen: list[Card] = []
    if rng.random() < 0.5:
        seen = rng.sample([c for c in DECK if c not in used], rng.randrange(1, 10))
        if rng.random() < 0.3 and used:
            seen.append(rng.choice(sorted(used, key=lambda c: c.index)))
    board = Board(tuple(rows[TOP]), tuple(rows[MIDDLE]), tuple(rows[BOTTOM]))
    return board, round_, action.dealt, action.placement, action.discard, tuple(seen)


@pytest.mark.parametrize(("rules", "players"), SEATINGS, ids=ids)
def test_a_move_is_validated_as_the_reference(rules, players):
    rng = random.Random(f"move {rules.id} {players}")
    legal = 0
    codes: set[str] = set()
    for _ in range(250):
        case = move_case(rng, rules, players)
        result = same_outcome(
            lambda: validate_move(*case, rules=rules),  # noqa: B023
            lambda: replay_reference.validate_move(*case, rules=rules),  # noqa: B023
        )
        if not isinstance(result, tuple):
            legal += result.legal
            codes |= {v.code for v in result.violations}
            assert [v.params for v in result.violations] == [
                v.params for v in replay_reference.validate_move(*case, rules=rules).violations
            ]
    assert legal > 40
    assert {"board_not_at_round", "duplicate_on_board", "card_already_on_board", "card_seen_elsewhere",
            "row_overflow", "card_not_dealt", "wrong_deal_size"} <= codes, codes  # fmt: skip
