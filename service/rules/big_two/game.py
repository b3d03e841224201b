"""Big Two: a whole game replayed and scored at a table (tests/big_two/test_game.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from service.rules.big_two.combinations import play_value
from service.rules.big_two.common import (
    DOMAIN,
    HAND_SIZE,
    PASS,
    SEATS,
    MoveViolation,
    ProblemCode,
    _joker_problems,
)
from service.rules.big_two.moves import Action, Turn, _judge_move
from service.rules.big_two.rules import TAIWAN, BigTwoRules
from service.rules.big_two.scoring import GameScore, _base_problems, _score
from service.rules.cards import JOKER, Card, find_duplicates
from service.rules.errors import InputProblem, InvalidInputError, Violation, problem, quoted, violation
from service.rules.hand_value import HandValue


@dataclass(frozen=True, slots=True)
class GameState:
    """Where a game stands after the replayed actions."""

    turn: int | None  # the seat to act; None once the game is over
    table: HandValue | None  # the play to beat; None when the seat to act leads
    table_seat: int | None  # who made that play
    passes_in_row: int
    cards_left: tuple[int, ...]  # per seat
    hands: tuple[tuple[Card, ...], ...]  # per seat, Big Two order
    actions_replayed: int  # the legal actions applied
    first_lead: bool  # no card played yet, and the holder of the lowest card opens (no leader named)
    locked_out: tuple[int, ...]  # seats that passed in this trick and take no further part in it


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The verdict on a game record: the first illegal action, the state so far, the score if over."""

    legal: bool
    finished: bool
    violations: tuple[Violation, ...]  # all of the first illegal action's problems, each with its index
    state: GameState  # after the last legal action (the final state of a finished game)
    winner: int | None
    grand_slam: bool | None
    score: GameScore | None
    points: tuple[int, ...] | None  # per seat, summing to 0, once finished


def validate_game(
    base: int,
    hands: Sequence[Sequence[Card]],
    actions: Sequence[Action],
    rules: BigTwoRules = TAIWAN,
    leader: int | None = None,
) -> GameRecord:
    """Replay a whole game (seat s+1 acts after seat s) at a table of ``rules`` and stop at the first illegal
    action. The holder of the lowest card leads, or ``leader`` (a later game of a session: 「以後每副牌都由上副牌
    獲勝者出牌，並且第一輪牌不需要包含方塊3」), whose first play need not hold it.

    Every problem of the input (``InvalidInputError``) is refused before any action is judged. The actions'
    own problems (a seat out of 0-3, a joker) are looked for only when an action is met that the replay
    cannot apply plainly (``_Replay.replay``): one it can has a seat in turn and cards from a dealt hand."""
    dealt = [tuple(hand) for hand in hands]
    problems = _base_problems(base) + _deal_problems(dealt) + _leader_problems(leader)
    if problems:
        raise InvalidInputError(problems + _action_problems(actions))
    game = _Replay(dealt, actions, rules, leader)
    failed = game.replay()
    if failed is not None:
        index, violations = failed
        indexed = tuple(replace(v, index=index) for v in violations)
        return GameRecord(False, game.winner is not None, indexed, game.state(), game.winner, None, None, None)
    if game.winner is None:
        return GameRecord(True, False, (), game.state(), None, None, None, None)
    score = game.score(base)
    points = [0] * SEATS
    points[game.winner] = score.winner.points
    for loser in score.losers:
        assert loser.seat is not None
        points[loser.seat] = loser.points
    return GameRecord(True, True, (), game.state(), game.winner, score.winner.grand_slam, score, tuple(points))


def _leader_problems(leader: object) -> list[InputProblem]:
    if leader is None or (type(leader) is int and 0 <= leader < SEATS):
        return []
    return [problem(DOMAIN, ("leader",), ProblemCode.INVALID_SEAT, value=quoted(leader))]


def _deal_problems(dealt: list[tuple[Card, ...]]) -> list[InputProblem]:
    if len(dealt) == SEATS and all(len(hand) == HAND_SIZE for hand in dealt):
        cards = set().union(*dealt)
        if len(cards) == SEATS * HAND_SIZE and JOKER not in cards:  # the usual deal: the 52 cards, once each
            return []
    if len(dealt) != SEATS:
        return [problem(DOMAIN, ("hands",), ProblemCode.WRONG_PLAYER_COUNT, case="seats", count=len(dealt))]
    problems = [
        problem(DOMAIN, ("hands", s), ProblemCode.WRONG_CARD_COUNT, case="seat", count=len(hand))
        for s, hand in enumerate(dealt)
        if len(hand) != HAND_SIZE
    ]
    located = [(("hands", s, i), c) for s, hand in enumerate(dealt) for i, c in enumerate(hand)]
    problems += _joker_problems(located)
    # four hands of 13 different cards, none a joker, are exactly the 52-card deck
    return problems + find_duplicates([(path, c) for path, c in located if not c.is_joker])


def _action_problems(actions: Sequence[Action]) -> list[InputProblem]:
    if all(type(a.seat) is int and 0 <= a.seat < SEATS and JOKER not in a.cards for a in actions):
        return []  # the usual record, checked in one pass; otherwise each problem is named below
    problems: list[InputProblem] = []
    for i, action in enumerate(actions):
        if isinstance(action.seat, bool) or not isinstance(action.seat, int) or not 0 <= action.seat < SEATS:
            problems.append(
                problem(DOMAIN, ("actions", i, "seat"), ProblemCode.INVALID_SEAT, value=quoted(action.seat))
            )
        problems += _joker_problems([(("actions", i, "cards", j), c) for j, c in enumerate(action.cards)])
    return problems


class _Replay:
    """The mutable bookkeeping of one replay; only ever seen from outside through ``state``/``score``.

    Incremental: each seat's hand is a set, each play classified once by the tables of ``play_value``, and a
    plainly legal action (the usual case) is applied without building a ``MoveResult``. Whatever that fast
    path does not accept goes to ``_judge_move``, validate_move's own judgement, which names every problem
    (or, should it find the action legal, applies it). Both are proven to replay alike
    (tests/big_two/test_replay.py)."""

    def __init__(
        self, dealt: list[tuple[Card, ...]], actions: Sequence[Action], rules: BigTwoRules, leader: int | None
    ):
        self.actions = actions
        self.rules = rules
        self.ladder = rules.ladder
        self.hands = [set(hand) for hand in dealt]
        # the seat to act, None once the game is over: the holder of the lowest card (「持有梅花 3 的玩家先出牌」),
        # or the leader named
        lowest = self.ladder.lowest_card
        self.turn: int | None = next(s for s, hand in enumerate(dealt) if lowest in hand) if leader is None else leader
        # the game's first play must hold the lowest card, where the table says so and no leader is named
        self.opened_by_lowest_card = leader is None
        self.lowest_card_due = rules.first_play_has_lowest_card and leader is None
        self.table: HandValue | None = None
        self.table_seat: int | None = None
        self.passes = 0  # in a row, since the last play
        self.out: set[int] = set()  # seats that passed in this trick, where a pass locks
        # the seat of the last action: the seats after it, up to the seat in turn, are locked seats the turn
        # order skipped, whose turn a record may write down as a pass (``_locked_turn``)
        self.last_seat: int | None = None
        self.replayed = 0
        self.first_player: int | None = None
        self.players: set[int] = set()  # seats that have played a card
        self.winner: int | None = None
        self.last_play: HandValue | None = None
        self.checked = False  # whether the actions' own problems have been looked for

    def replay(self) -> tuple[int, list[Violation]] | None:
        """Apply the actions in turn: the index and the violations of the first illegal one, if any.

        Each action is found legal, then applied (below: the one place the game's bookkeeping is written).
        The usual action is found legal here: the turn's pass on a table, or a play from the hand that beats
        the table (``Ladder.plainly_beats``) and, where the game's first play must hold the lowest card,
        holds it. Any other is judged in full (``_judged``)."""
        rules, ladder, locks, lowest = self.rules, self.ladder, self.rules.pass_locks, self.ladder.lowest_card
        for index, action in enumerate(self.actions):
            seat, cards, play = action.seat, action.cards, None
            if type(seat) is not int or seat != self.turn:  # (a bool is no seat: _action_problems says so)
                plain = False
            elif action.type is PASS:
                plain = not cards and self.table is not None
            else:
                play = play_value(cards, rules)
                plain = (
                    play is not None
                    and (not self.lowest_card_due or lowest in cards)
                    and self.hands[seat].issuperset(cards)
                    and ladder.plainly_beats(self.table, play)
                )
            if not plain:
                if self._locked_turn(action):  # a skipped seat's turn written down: it changes nothing
                    self.replayed += 1
                    self.last_seat = seat
                    continue
                violations, play = self._judged(action)
                if violations:
                    return index, violations
            assert seat is not None  # the seat in turn: an action found legal is
            self.replayed += 1
            self.last_seat = seat
            following = (seat + 1) % SEATS  # seat s+1 after seat s: the rule book's counterclockwise
            if play is None:  # a pass
                self.passes += 1
                if locks:  # out of the trick, not only since the last play
                    self.out.add(seat)
                # 「其餘三家連續都 PASS，這一輪就結束，由最後出牌的那個人重新自由起牌」; where a pass locks, once every
                # other seat has passed in the trick
                if (len(self.out) if locks else self.passes) == SEATS - 1:
                    assert self.table_seat is not None  # a pass follows a play
                    following, self.table, self.table_seat, self.passes = self.table_seat, None, None, 0
                    self.out.clear()
            else:
                held = self.hands[seat]
                held.difference_update(cards)
                self.table, self.table_seat, self.passes, self.lowest_card_due = play, seat, 0, False
                if self.first_player is None:
                    self.first_player = seat
                self.players.add(seat)
                if not held:  # 「任何一家出完最後一張牌，該局立即結束」
                    self.winner, self.last_play, self.turn = seat, play, None
                    continue
            while locks and following in self.out:  # a seat locked out of the trick is skipped
                following = (following + 1) % SEATS
            self.turn = following
        return None

    def _check_actions(self) -> None:
        """Refuse the record's input problems, if any (``InvalidInputError``), the first time an action is not
        plainly legal."""
        if not self.checked:
            self.checked = True
            problems = _action_problems(self.actions)
            if problems:
                raise InvalidInputError(problems)

    def _skipped(self, seat: int | None) -> bool:
        """Whether ``seat``'s turn came after the last action's and the turn order skipped it, the seat having
        passed in the trick where a pass locks (possibly the trick that just ended: every seat but its last
        player had passed in it)."""
        if not self.rules.pass_locks or type(seat) is not int or self.last_seat is None or self.turn is None:
            return False
        return 0 < (seat - self.last_seat) % SEATS < (self.turn - self.last_seat) % SEATS

    def _locked_turn(self, action: Action) -> bool:
        """Whether ``action`` is a skipped seat's turn written down as a pass, as apps that pass for a locked
        player record it: legal, and it changes nothing (a record may as well leave it out)."""
        self._check_actions()
        return self.winner is None and action.type is PASS and not action.cards and self._skipped(action.seat)

    def _judged(self, action: Action) -> tuple[list[Violation], HandValue | None]:
        """One action judged in full (``_judge_move``): its violations, or none and the value of its play (None
        for a pass). The record's input problems, if any, are refused first (``InvalidInputError``)."""
        self._check_actions()
        if self.winner is not None:  # 「任何一家出完最後一張牌，該局立即結束」
            return [violation(DOMAIN, MoveViolation.ACTION_AFTER_GAME_END, seat=self.winner)], None
        if self._skipped(action.seat):  # a locked seat's turn is a pass, and only a pass
            if action.type is PASS:
                return [violation(DOMAIN, MoveViolation.CARDS_WITH_PASS, self.ladder.sort(action.cards))], None
            return [violation(DOMAIN, MoveViolation.PASSED_THIS_TRICK)], None
        if action.seat != self.turn:
            return [violation(DOMAIN, MoveViolation.NOT_YOUR_TURN, seat=self.turn, actual=action.seat)], None
        assert action.seat is not None
        held = self.ladder.sort(self.hands[action.seat])
        turn = Turn(lowest_card_due=self.lowest_card_due)
        moved = _judge_move(held, self.table is None, self.table, action, [], self.rules, turn)
        return list(moved.violations), moved.play

    def state(self) -> GameState:
        hands = tuple(self.ladder.sort(hand) for hand in self.hands)
        return GameState(
            turn=self.turn,
            table=self.table,
            table_seat=self.table_seat,
            passes_in_row=self.passes,
            cards_left=tuple(len(hand) for hand in hands),
            hands=hands,
            actions_replayed=self.replayed,
            first_lead=self.first_player is None and self.opened_by_lowest_card,
            locked_out=tuple(sorted(self.out)),
        )

    def score(self, base: int) -> GameScore:
        assert self.winner is not None and self.last_play is not None
        # 「贏家是該局第一個出牌的人，且其餘三家整局一張牌都沒出過」
        grand_slam = self.first_player == self.winner and self.players == {self.winner}
        losers = [(s, self.ladder.sort(self.hands[s])) for s in range(SEATS) if s != self.winner]
        return _score(base, self.last_play, grand_slam, self.winner, losers, self.rules)
