"""The fast paths proven equal to the algorithms they replaced (tests/big_two/reference.py):

* ``play_value``'s tables give exactly ``classify``'s value (``_classify_in_full``, the rule book's
  definitions) on every single and pair, every five-card play of the rule book (each straight, full
  house and four of a kind, in every suit), and thousands of random cards of every size, with jokers
  and cards twice; ``classify`` answers exactly as before on all of them;
* ``Ladder.plainly_beats`` says what ``judge`` says on every pair of a spread of plays, on every rule set,
  and leaves dragons to it;
* the incremental replay answers exactly as the previous replay (the whole ``GameRecord``: violations,
  state, score) on random legal games and on thousands of records broken at a random action;
* ``monsters_left`` by rank bits finds what the card-by-card search found.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations, product

import pytest

from service.rules.big_two import HONG_KONG, STRAIGHTS, TAIWAN, Action, ActionType, judge, monsters_left, validate_game
from service.rules.big_two.combinations import _classify_in_full, classify, play_value
from service.rules.big_two.scoring import _monsters_card_by_card
from service.rules.cards import DECK, JOKER, Card, Suit
from service.rules.errors import InvalidInputError
from tests.big_two import reference
from tests.big_two.players import deal, play_random_game
from tests.big_two.test_ladder import RULE_SETS as LADDER_RULE_SETS

BY_RANK = {rank: [c for c in DECK if c.rank == rank] for rank in range(2, 15)}
RANDOM_RULES = LADDER_RULE_SETS[2:5]


def same_as_in_full(cards) -> None:
    played = tuple(cards)
    expected = _classify_in_full(played)
    assert play_value(played) == (expected.hand if len(played) in (1, 2, 5) else None), played
    assert classify(played) == expected, played


# ---- play_value and classify


def test_every_single_and_every_two_cards_in_either_order():
    for a in (*DECK, JOKER):
        same_as_in_full([a])
        for b in (*DECK, JOKER):
            same_as_in_full([a, b])


def test_every_straight_and_straight_flush_of_the_rule_book_in_any_order():
    rng = random.Random("straights")
    count = 0
    for ranks in STRAIGHTS:
        for pick in product(*(BY_RANK[r] for r in ranks)):
            cards = list(pick)
            rng.shuffle(cards)
            same_as_in_full(cards)
            count += 1
    assert count == 10 * 4**5


def test_every_full_house_and_four_of_a_kind_in_any_order():
    rng = random.Random("houses")
    count = 0
    for three, two in permutations(BY_RANK, 2):
        for triple in combinations(BY_RANK[three], 3):
            for pair in combinations(BY_RANK[two], 2):
                cards = [*triple, *pair]
                rng.shuffle(cards)
                same_as_in_full(cards)
                count += 1
        for kicker in BY_RANK[two]:
            cards = [*BY_RANK[three], kicker]
            rng.shuffle(cards)
            same_as_in_full(cards)
            count += 1
    assert count == 13 * 12 * (4 * 6 + 4)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6, 13, 14])
def test_random_cards_of_every_size_with_jokers_and_cards_twice(size):
    rng = random.Random(f"cards-{size}")
    pool = [*DECK, JOKER]
    for case in range(4000 if size == 5 else 500):
        if case % 4 == 0:  # with replacement: cards twice, several jokers
            cards = [rng.choice(pool) for _ in range(size)]
        elif case % 4 == 1:  # few ranks: pairs, triples, fours, houses
            ranks = rng.sample(range(2, 15), rng.choice([1, 2, 3]))
            cards = rng.sample([c for c in DECK if c.rank in ranks], min(size, 4 * len(ranks)))
        elif case % 4 == 2:  # one suit: flushes and straight flushes
            suit = rng.choice(list(Suit))
            cards = rng.sample([c for c in DECK if c.suit is suit], min(size, 13))
        else:
            cards = rng.sample(pool, size)
        same_as_in_full(cards)


# ---- plainly_beats and judge


def spread_of_plays(rules=TAIWAN) -> list:
    """Plays of every combination the table allows, dragons included, from random hands."""
    rng = random.Random("spread")
    values = set()
    for _ in range(60):
        hand = rng.sample(DECK, 13)
        for size in (1, 2, 3, 5):
            subsets = list(combinations(hand, size))
            for cards in rng.sample(subsets, min(60, len(subsets))):
                hand_value = classify(cards, rules).hand
                if hand_value is not None:
                    values.add(hand_value)
    for ranks in rules.straights[::3]:
        for suit in Suit:
            values.add(classify([next(c for c in BY_RANK[r] if c.suit is suit) for r in ranks], rules).hand)
    for rank in (3, 9, 2):
        values.add(classify([*BY_RANK[rank], BY_RANK[7 if rank != 7 else 8][0]], rules).hand)
    values.add(classify([BY_RANK[r][r % 4] for r in range(2, 15)], rules).hand)  # a dragon
    values.add(classify([c for c in DECK if c.suit is Suit.HEARTS], rules).hand)  # a green dragon
    values.discard(None)
    return sorted(values, key=lambda v: (v.strength, [c.index for c in v.cards]))


@pytest.mark.parametrize("rules", [TAIWAN, HONG_KONG, *RANDOM_RULES], ids=lambda r: r.id + r.digest)
def test_plainly_beats_is_judges_verdict_and_leaves_the_dragons_to_it(rules):
    plays = spread_of_plays(rules)
    assert {"single"} < {p.category for p in plays} <= {c.value for c in rules.ladder.allowed}
    dragons = {"dragon", "green_dragon"}
    for play in plays:
        assert rules.ladder.plainly_beats(None, play) is (play.category not in dragons)
        for table in plays:
            if set(play.cards) & set(table.cards):
                continue
            expected = judge(table, play, rules)[0] and not {play.category, table.category} & dragons
            assert rules.ladder.plainly_beats(table, play) is expected, (table, play)


# ---- the replay


def both(base, hands, actions):
    """The record judged by the replay and by the reference: the same answer or the same problems."""
    try:
        new = validate_game(base, hands, actions)
    except InvalidInputError as error:
        with pytest.raises(InvalidInputError) as raised:
            reference.validate_game(base, hands, actions)
        assert raised.value.problems == error.problems
        return None
    assert new == reference.validate_game(base, hands, actions)
    return new


def broken(rng: random.Random, played) -> list[Action]:
    """The record with one action replaced by another, plausible or not, or cut, or run on."""
    actions = list(played.actions)
    i = rng.randrange(len(actions))
    seat = actions[i].seat
    held = set(played.hands[seat]) - {c for a in actions[:i] if a.seat == seat for c in a.cards}
    own = sorted(held, key=lambda c: c.index)
    choice = rng.randrange(10)
    if choice == 0:
        new = Action.pass_(seat)
    elif choice == 1:
        new = Action.pass_((seat + rng.choice([1, 2, 3])) % 4)
    elif choice == 2:
        new = Action.play(rng.sample(own, min(len(own), rng.choice([1, 2, 5]))), seat)
    elif choice == 3:
        new = Action.play(rng.sample(DECK, rng.choice([1, 2, 5])), seat)
    elif choice == 4:
        new = Action.play([], seat)
    elif choice == 5:
        new = Action(ActionType.PASS, tuple(rng.sample(own, 1)), seat)
    elif choice == 6:
        new = Action.play(own + own[:1], seat)
    elif choice == 7:
        new = Action.play(played.hands[seat], seat)  # the dealt hand whole: a dragon only if the hand is one
    elif choice == 8:
        return actions[:i] + actions[i + 1 :]
    else:
        return actions + [Action.pass_(rng.randrange(4)), Action.play(own[:1], seat)]
    actions[i] = new
    return actions


def deal_kind(game: int) -> str | None:
    return "green" if game % 40 == 7 else "dragon" if game % 10 == 3 else None


@pytest.mark.parametrize("chunk", range(4))
def test_the_replay_answers_as_the_previous_replay_on_random_and_broken_records(chunk):
    rng = random.Random(f"replay-{chunk}")
    outcomes = set()
    for game in range(chunk, 1200, 4):
        played = play_random_game(rng, deal(rng, deal_kind(game)), pass_rate=rng.choice([0.0, 0.25, 0.6]))
        record = both(10, played.hands, played.actions)
        assert record is not None and record.legal and record.finished
        cut = rng.randrange(len(played.actions))
        both(3, played.hands, played.actions[:cut])
        for _ in range(3):
            record = both(7, played.hands, broken(rng, played))
            if record is not None:
                outcomes.add((record.legal, record.finished, tuple(v.code for v in record.violations)))
    codes = {code for _, _, violations in outcomes for code in violations}
    assert {"not_your_turn", "card_not_in_hand", "leader_cannot_pass", "empty_play", "cards_with_pass",
            "action_after_game_end", "duplicate_card"} <= codes  # fmt: skip


def test_the_replay_refuses_impossible_input_as_the_previous_replay():
    rng = random.Random("impossible")
    for _ in range(100):
        played = play_random_game(rng, deal(rng))
        hands = [list(h) for h in played.hands]
        actions = list(played.actions)
        case = rng.randrange(6)
        if case == 0:
            hands[rng.randrange(4)][rng.randrange(13)] = JOKER
        elif case == 1:
            hands[1][0] = hands[0][0]
        elif case == 2:
            hands = hands[:3]
        elif case == 3:
            hands[2] = hands[2][:12]
        elif case == 4:
            i = rng.randrange(len(actions))
            actions[i] = Action.play([JOKER], actions[i].seat)
        else:
            i = rng.randrange(len(actions))
            actions[i] = Action(actions[i].type, actions[i].cards, rng.choice([4, -1, True, "1"]))
        assert both(rng.choice([0, 5]), hands, actions) is None


# ---- monsters_left


def test_monsters_left_finds_what_the_card_by_card_search_found():
    rng = random.Random("monsters")
    for case in range(6000):
        size = rng.randint(1, 13)
        if case % 3 == 0:  # rigged: a straight flush or two, a four of a kind
            suit = rng.choice(list(Suit))
            ranks = rng.choice(STRAIGHTS)
            cards: list[Card] = [c for c in DECK if c.suit is suit and c.rank in ranks]
            if case % 2:
                cards += BY_RANK[rng.choice([r for r in BY_RANK if r not in ranks])]
            rest = [c for c in DECK if c not in cards]
            cards += rng.sample(rest, max(0, size - len(cards)))
        elif case % 3 == 1:
            suit = rng.choice(list(Suit))
            cards = rng.sample([c for c in DECK if c.suit is suit], rng.randint(5, 13))
        else:
            cards = rng.sample(DECK, size)
        rng.shuffle(cards)
        assert monsters_left(cards) == reference.monsters_left(cards), cards


@pytest.mark.parametrize("seed", [20260922, 1, 2, 3])
def test_the_benchmarks_records_replay_as_before_whole_and_cut(seed):
    """bench/big_two.py's recorded game (floor.py's 98-action record at its default seed) and others."""
    from bench.big_two import recorded_game

    played = recorded_game(seed, 20)
    record = both(10, played.hands, played.actions)
    assert record is not None and record.legal and record.finished
    for cut in range(0, len(played.actions), 7):
        both(10, played.hands, played.actions[:cut])


def test_monsters_left_by_card_bits_as_the_card_by_card_search_it_replaced():
    """The bit masks against the card-by-card search they replaced, kept as the
    fallback for cards given twice or a joker: on random cards of every size, rigged monsters, and odd cards."""
    rng = random.Random("monsters-bits")
    for case in range(6000):
        if case % 4 == 0:  # four of a kind, maybe a straight flush beside it
            rank = rng.randint(2, 14)
            cards = [*BY_RANK[rank], *rng.sample([c for c in DECK if c.rank != rank], rng.randint(0, 9))]
        elif case % 4 == 1:  # one suit: straight flushes, a green dragon at 13
            suit = rng.choice(list(Suit))
            cards = rng.sample([c for c in DECK if c.suit is suit], rng.randint(4, 13))
        elif case % 4 == 2:  # a dragon or nearly
            cards = [rng.choice(BY_RANK[rank]) for rank in range(2, 15)][: rng.choice([12, 13, 13])]
        else:
            cards = rng.sample(DECK, rng.randint(1, 13))
        if case % 10 == 0:  # a joker or a card twice: the card-by-card search itself
            cards += rng.choice([[JOKER], cards[:1]])
        rng.shuffle(cards)
        assert outcome(monsters_left, cards) == outcome(_monsters_card_by_card, tuple(cards)), cards


def outcome(function, cards):
    """What ``function`` answers, or the type of what it raises (a joker in a dragon: no Big Two order)."""
    try:
        return function(cards)
    except KeyError as error:
        return type(error)
