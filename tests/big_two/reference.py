"""The Big Two algorithms as they were before their fast paths, kept as the reference the fast ones
are proven equal to (tests/big_two/test_replay.py): the replay that judged every action through
``validate_move``'s ``_judge_move`` on sorted tuples, the deal and action checks that built every problem's
path, and ``monsters_left`` that tried each straight flush card by card. Classification's reference is
``combinations._classify_in_full``, which ``classify`` still uses for whatever its tables do not answer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from service.rules.big_two.common import (
    DOMAIN,
    HAND_SIZE,
    SEATS,
    STRAIGHTS,
    THREE_OF_CLUBS,
    ActionType,
    Combination,
    MoveViolation,
    ProblemCode,
    _joker_problems,
    sort_cards,
)
from service.rules.big_two.game import GameRecord, GameState
from service.rules.big_two.moves import Action, MoveResult, _judge_move
from service.rules.big_two.rules import TAIWAN, BigTwoRules
from service.rules.big_two.scoring import GameScore, _base_problems, _score
from service.rules.cards import Card, Suit, find_duplicates
from service.rules.errors import InputProblem, InvalidInputError, Violation, problem, quoted, violation
from service.rules.hand_value import HandValue


def validate_game(
    base: int, hands: Sequence[Sequence[Card]], actions: Sequence[Action], rules: BigTwoRules = TAIWAN
) -> GameRecord:
    dealt = [tuple(hand) for hand in hands]
    problems = _base_problems(base) + _deal_problems(dealt) + _action_problems(actions)
    if problems:
        raise InvalidInputError(problems)
    game = _Replay(dealt)
    for index, action in enumerate(actions):
        violations = game.apply(action)
        if violations:
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
    if len(dealt) != SEATS:
        return [problem(DOMAIN, ("hands",), ProblemCode.WRONG_PLAYER_COUNT, case="seats", count=len(dealt))]
    problems = [
        problem(DOMAIN, ("hands", s), ProblemCode.WRONG_CARD_COUNT, case="seat", count=len(hand))
        for s, hand in enumerate(dealt)
        if len(hand) != HAND_SIZE
    ]
    located = [(("hands", s, i), c) for s, hand in enumerate(dealt) for i, c in enumerate(hand)]
    problems += _joker_problems(located)
    return problems + find_duplicates([(path, c) for path, c in located if not c.is_joker])


def _action_problems(actions: Sequence[Action]) -> list[InputProblem]:
    problems: list[InputProblem] = []
    for i, action in enumerate(actions):
        if isinstance(action.seat, bool) or not isinstance(action.seat, int) or not 0 <= action.seat < SEATS:
            problems.append(
                problem(DOMAIN, ("actions", i, "seat"), ProblemCode.INVALID_SEAT, value=quoted(action.seat))
            )
        problems += _joker_problems([(("actions", i, "cards", j), c) for j, c in enumerate(action.cards)])
    return problems


class _Replay:
    def __init__(self, dealt: list[tuple[Card, ...]]):
        self.hands = [sort_cards(hand) for hand in dealt]
        self.turn = next(s for s, hand in enumerate(dealt) if THREE_OF_CLUBS in hand)
        self.table: HandValue | None = None
        self.table_seat: int | None = None
        self.passes = 0
        self.replayed = 0
        self.first_player: int | None = None
        self.players: set[int] = set()
        self.winner: int | None = None
        self.last_play: HandValue | None = None

    def apply(self, action: Action) -> list[Violation]:
        if self.winner is not None:
            return [violation(DOMAIN, MoveViolation.ACTION_AFTER_GAME_END, seat=self.winner)]
        assert action.seat is not None
        if action.seat != self.turn:
            return [violation(DOMAIN, MoveViolation.NOT_YOUR_TURN, seat=self.turn, actual=action.seat)]
        moved = _judge_move(self.hands[action.seat], self.table is None, self.table, action, [])
        if not moved.legal:
            return list(moved.violations)
        self.replayed += 1
        if action.type is ActionType.PLAY:
            self._play(action.seat, moved)
        else:
            self._pass(action.seat)
        return []

    def _play(self, seat: int, moved: MoveResult) -> None:
        assert moved.play is not None
        self.hands[seat] = moved.hand_after
        self.table = moved.play
        self.table_seat = seat
        self.passes = 0
        if self.first_player is None:
            self.first_player = seat
        self.players.add(seat)
        self.turn = (seat + 1) % SEATS
        if moved.wins:
            self.winner, self.last_play = seat, moved.play

    def _pass(self, seat: int) -> None:
        self.passes += 1
        self.turn = (seat + 1) % SEATS
        if self.passes == SEATS - 1:
            assert self.turn == self.table_seat
            self.table, self.table_seat, self.passes = None, None, 0

    def state(self) -> GameState:
        return GameState(
            turn=None if self.winner is not None else self.turn,
            table=self.table,
            table_seat=self.table_seat,
            passes_in_row=self.passes,
            cards_left=tuple(len(hand) for hand in self.hands),
            hands=tuple(self.hands),
            actions_replayed=self.replayed,
            first_lead=self.first_player is None,
            locked_out=(),
        )

    def score(self, base: int, rules: BigTwoRules = TAIWAN) -> GameScore:
        assert self.winner is not None and self.last_play is not None
        grand_slam = self.first_player == self.winner and self.players == {self.winner}
        losers = [(s, self.hands[s]) for s in range(SEATS) if s != self.winner]
        return _score(base, self.last_play, grand_slam, self.winner, losers, rules)


def monsters_left(cards: Sequence[Card]) -> tuple[tuple[Combination, ...], tuple[Card, ...]]:
    held = tuple(cards)
    kinds: list[Combination] = []
    involved: set[Card] = set()
    counts = Counter(c.rank for c in held)
    fours = [c for c in held if counts[c.rank] == 4]
    if fours and len(held) >= 5:
        kinds.append(Combination.FOUR_OF_A_KIND)
        involved.update(fours)
    suited = {(c.rank, c.suit) for c in held}
    for suit in Suit:
        for ranks in STRAIGHTS:
            if all((r, suit) in suited for r in ranks):
                if Combination.STRAIGHT_FLUSH not in kinds:
                    kinds.append(Combination.STRAIGHT_FLUSH)
                involved.update(c for c in held if c.suit == suit and c.rank in ranks)
    if len(held) == HAND_SIZE and len(counts) == HAND_SIZE:
        kinds.append(Combination.GREEN_DRAGON if len({c.suit for c in held}) == 1 else Combination.DRAGON)
        involved.update(held)
    return tuple(kinds), sort_cards(involved)
