"""A random legal Big Two player, for property tests.

It keeps its own minimal table (whose turn, the play to beat, the seats that passed) so that ``validate_game``
is checked against an independent bookkeeping, and it chooses among ``legal_plays`` (the module's own
enumeration, itself checked against ``validate_move`` on every subset in test_properties.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from service.rules.big_two import HAND_SIZE, SEATS, TAIWAN, Action, BigTwoRules, legal_plays
from service.rules.big_two.moves import Turn
from service.rules.cards import DECK, Card, Suit


@dataclass
class PlayedGame:
    hands: list[list[Card]]  # as dealt, in a shuffled order
    actions: list[Action] = field(default_factory=list)
    winner: int | None = None
    first_player: int | None = None
    players: set[int] = field(default_factory=set)
    remaining: list[list[Card]] = field(default_factory=list)  # per seat at the end
    written: list[int] = field(default_factory=list)  # the indexes of locked seats' turns written as passes

    @property
    def grand_slam(self) -> bool:
        return self.winner == self.first_player and self.players == {self.winner}


def deal(rng: random.Random, dragon: str | None = None) -> list[list[Card]]:
    """Four shuffled hands of 13; ``dragon`` "dragon" or "green" rigs one seat's hand into one."""
    deck = list(DECK)
    rng.shuffle(deck)
    if dragon is None:
        return [deck[s * HAND_SIZE : (s + 1) * HAND_SIZE] for s in range(SEATS)]
    if dragon == "green":
        suit = rng.choice(list(Suit))
        special = [c for c in DECK if c.suit == suit]
    else:
        special = [rng.choice([c for c in DECK if c.rank == rank]) for rank in range(2, 15)]
    rest = [c for c in deck if c not in special]
    hands = [rest[s * HAND_SIZE : (s + 1) * HAND_SIZE] for s in range(SEATS - 1)]
    hands.insert(rng.randrange(SEATS), special)
    for hand in hands:
        rng.shuffle(hand)
    return hands


def play_random_game(
    rng: random.Random,
    hands: list[list[Card]],
    pass_rate: float = 0.25,
    rules: BigTwoRules = TAIWAN,
    write_locked: float = 0.0,
) -> PlayedGame:
    """Play legal moves at random at a table of ``rules`` until someone empties a hand; a follower passes at
    ``pass_rate``. Its own bookkeeping of the turn: the holder of the lowest card leads (with it, where the
    table says so); the trick ends when every other seat has passed since the last play, or in the trick
    where a pass locks, and a locked seat is skipped, its turn written down as a pass at ``write_locked``
    (as apps that pass for a locked player write it, also when the trick has just ended)."""
    game = PlayedGame(hands=[list(h) for h in hands])
    held = [list(h) for h in hands]
    turn = next(s for s, hand in enumerate(held) if rules.ladder.lowest_card in hand)
    table: tuple[Card, ...] | None = None
    last = turn
    out: set[int] = set()

    def skip(seat: int) -> int:
        """The seat after ``seat``, a locked seat's turn written down now and then."""
        if write_locked and rng.random() < write_locked:
            game.written.append(len(game.actions))
            game.actions.append(Action.pass_(seat))
        return (seat + 1) % SEATS

    while game.winner is None:
        first = rules.first_play_has_lowest_card and game.first_player is None
        options = legal_plays(held[turn], table, rules, Turn(lowest_card_due=first))
        if table is not None and (not options or rng.random() < pass_rate):
            game.actions.append(Action.pass_(turn))
            out.add(turn)
            if len(out) == SEATS - 1:
                between = (turn + 1) % SEATS
                while between != last:  # every seat but the last player's is locked
                    between = skip(between)
                table, out, turn = None, set(), last
                continue
        else:
            chosen = list(rng.choice(options))
            rng.shuffle(chosen)  # the order of an action's cards must not matter
            game.actions.append(Action.play(chosen, turn))
            held[turn] = [c for c in held[turn] if c not in chosen]
            table, last = tuple(chosen), turn
            if not rules.pass_locks:
                out = set()
            if game.first_player is None:
                game.first_player = turn
            game.players.add(turn)
            if not held[turn]:
                game.winner = turn
        turn = (turn + 1) % SEATS
        while rules.pass_locks and turn in out and game.winner is None:
            turn = skip(turn)
    game.remaining = held
    return game
