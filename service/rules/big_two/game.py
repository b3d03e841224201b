"""Taiwanese Big Two: a whole game replayed and scored (tests/big_two/test_game.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from service.rules.big_two.combinations import play_value
from service.rules.big_two.common import (
    DOMAIN,
    HAND_SIZE,
    SEATS,
    THREE_OF_CLUBS,
    ActionType,
    MoveViolation,
    ProblemCode,
    _joker_problems,
    sort_cards,
)
from service.rules.big_two.moves import Action, _judge_move
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
    base: int, hands: Sequence[Sequence[Card]], actions: Sequence[Action], rules: BigTwoRules = TAIWAN
) -> GameRecord:
    """Replay a whole game (seat s+1 acts after seat s) and stop at the first illegal action."""
    dealt = [tuple(hand) for hand in hands]
    problems = _base_problems(base) + _deal_problems(dealt) + _action_problems(actions)
    if problems:
        raise InvalidInputError(problems)
    game = _Replay(dealt)
    failed = game.replay(actions)
    if failed is not None:
        index, violations = failed
        indexed = tuple(replace(v, index=index) for v in violations)
        return GameRecord(False, game.winner is not None, indexed, game.state(), game.winner, None, None, None)
    if game.winner is None:
        return GameRecord(True, False, (), game.state(), None, None, None, None)
    score = game.score(base, rules)
    points = [0] * SEATS
    points[game.winner] = score.winner.points
    for loser in score.losers:
        assert loser.seat is not None
        points[loser.seat] = loser.points
    return GameRecord(True, True, (), game.state(), game.winner, score.winner.grand_slam, score, tuple(points))


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

    def __init__(self, dealt: list[tuple[Card, ...]]):
        self.hands = [set(hand) for hand in dealt]
        self.turn = next(s for s, hand in enumerate(dealt) if THREE_OF_CLUBS in hand)  # 「持有梅花 3 的玩家先出牌」
        self.table: HandValue | None = None
        self.table_seat: int | None = None
        self.passes = 0
        self.replayed = 0
        self.first_player: int | None = None
        self.players: set[int] = set()  # seats that have played a card
        self.winner: int | None = None
        self.last_play: HandValue | None = None

    def replay(self, actions: Sequence[Action]) -> tuple[int, list[Violation]] | None:
        """Apply ``actions`` in turn: the index and the violations of the first illegal one, if any.

        The usual action is applied here: the turn's pass on a table, or a play of a single, a pair or a
        five-card play from the hand that beats the table (``_plainly_beats``). Any other goes to ``apply``."""
        for index, action in enumerate(actions):
            seat, cards = action.seat, action.cards
            if seat == self.turn and self.winner is None:
                assert seat is not None
                if action.type is ActionType.PASS:
                    if not cards and self.table is not None:
                        self._pass(seat)
                        continue
                else:
                    held = self.hands[seat]
                    play = play_value(cards)
                    if play is not None and held.issuperset(cards) and _plainly_beats(self.table, play):
                        held.difference_update(cards)
                        self._play(seat, play, not held)
                        continue
            violations = self.apply(action)
            if violations:
                return index, violations
        return None

    def apply(self, action: Action) -> list[Violation]:
        """One action judged in full (``_judge_move``): its violations, or (legal) applied."""
        if self.winner is not None:  # 「任何一家出完最後一張牌，該局立即結束」
            return [violation(DOMAIN, MoveViolation.ACTION_AFTER_GAME_END, seat=self.winner)]
        assert action.seat is not None
        if action.seat != self.turn:
            return [violation(DOMAIN, MoveViolation.NOT_YOUR_TURN, seat=self.turn, actual=action.seat)]
        return self._judged(action)

    def _judged(self, action: Action) -> list[Violation]:
        """The action judged by ``_judge_move``: its violations, or (legal after all) applied."""
        assert action.seat is not None
        seat = action.seat
        moved = _judge_move(sort_cards(self.hands[seat]), self.table is None, self.table, action, [])
        if not moved.legal:
            return list(moved.violations)
        if action.type is ActionType.PLAY:
            assert moved.play is not None
            self.hands[seat] = set(moved.hand_after)
            self._play(seat, moved.play, moved.wins)
        else:
            self._pass(seat)
        return []

    def _play(self, seat: int, play: HandValue, wins: bool) -> None:
        self.replayed += 1
        self.table = play
        self.table_seat = seat
        self.passes = 0
        if self.first_player is None:
            self.first_player = seat
        self.players.add(seat)
        self.turn = (seat + 1) % SEATS  # seat s+1 after seat s: the rule book's counterclockwise
        if wins:
            self.winner, self.last_play = seat, play

    def _pass(self, seat: int) -> None:
        self.replayed += 1
        self.passes += 1
        self.turn = (seat + 1) % SEATS
        if self.passes == SEATS - 1:  # 「其餘三家連續都 PASS，這一輪就結束，由最後出牌的那個人重新自由起牌」
            assert self.turn == self.table_seat
            self.table, self.table_seat, self.passes = None, None, 0

    def state(self) -> GameState:
        hands = tuple(sort_cards(hand) for hand in self.hands)
        return GameState(
            turn=None if self.winner is not None else self.turn,
            table=self.table,
            table_seat=self.table_seat,
            passes_in_row=self.passes,
            cards_left=tuple(len(hand) for hand in hands),
            hands=hands,
            actions_replayed=self.replayed,
        )

    def score(self, base: int, rules: BigTwoRules = TAIWAN) -> GameScore:
        assert self.winner is not None and self.last_play is not None
        # 「贏家是該局第一個出牌的人，且其餘三家整局一張牌都沒出過」
        grand_slam = self.first_player == self.winner and self.players == {self.winner}
        losers = [(s, sort_cards(self.hands[s])) for s in range(SEATS) if s != self.winner]
        return _score(base, self.last_play, grand_slam, self.winner, losers, rules)


_DRAGON_RUNG = 7  # dragons (rungs 7-8) and the tables they leave go to the full judgement


def _plainly_beats(table: HandValue | None, play: HandValue) -> bool:
    """Whether ``play`` (no dragon) may go on ``table``: ``judge``'s verdict read off the strengths, whose first
    number is the rung (single 1 ... straight flush 6). False for a dragon on either side: the full
    judgement decides those. Proven equal to ``judge`` in tests/big_two/test_replay.py."""
    rung = play.strength[0]
    if rung >= _DRAGON_RUNG:
        return False
    if table is None:
        return True
    on_table = table.strength[0]
    if on_table >= _DRAGON_RUNG:
        return False
    if rung == on_table:  # one combination: the larger strength beats (「比桌面更大」: equal is not bigger)
        return play.strength > table.strength
    return rung >= _MONSTER_RUNG and rung > on_table  # a monster over a normal play; 同花順 over 鐵支


_MONSTER_RUNG = 5  # four of a kind; straight flush is 6
