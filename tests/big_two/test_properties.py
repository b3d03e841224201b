"""Properties: thousands of random legal games, order-independence, antisymmetry, legal_plays == validate_move."""

import random
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.api import create_app
from service.rules.big_two import (
    Action,
    Combination,
    classify,
    compare,
    legal_plays,
    score_game,
    validate_game,
    validate_move,
)
from service.rules.cards import DECK
from tests.big_two.players import deal, play_random_game
from tests.big_two.test_ladder import RULE_SETS as LADDER_RULE_SETS

CLIENT = create_app({"TESTING": True}).test_client()


def through_http(base: int, played) -> dict:
    """The record replayed by the public operation, games/validate, as a client would send it."""
    body = {
        "base": base,
        "hands": [[c.text for c in hand] for hand in played.hands],
        "actions": [{"seat": a.seat, "type": str(a.type), "cards": [c.text for c in a.cards]} for a in played.actions],
    }
    response = CLIENT.post("/v1/big-two/games/validate", json=body)
    assert response.status_code == 200
    return response.get_json()


GAMES = 2000
CHUNKS = 8  # parallel-friendly: pytest-xdist spreads the chunks over workers
PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def deal_kind(game: int) -> str | None:
    """Mostly shuffled deals; one game in 25 rigs a dragon and one in 100 a green dragon."""
    return "green" if game % 100 == 7 else "dragon" if game % 25 == 3 else None


@pytest.mark.parametrize("rules", LADDER_RULE_SETS[1:], ids=lambda r: r.id + r.digest)
def test_random_legal_games_at_other_tables_end_legally_and_score_to_zero(rules):
    """The common game, and random consistent tables with a pass that locks now and then."""
    rng = random.Random(rules.digest)
    if rng.random() < 0.5:
        rules = rules.with_parameters(pass_locks=True, first_play_has_lowest_card=True)
    for game in range(12):
        played = play_random_game(rng, deal(rng), pass_rate=rng.choice([0.0, 0.25, 0.6]), rules=rules)
        record = validate_game(10, played.hands, played.actions, rules)
        assert (record.legal, record.finished, record.violations) == (True, True, ()), (game, record.violations)
        assert (record.winner, record.grand_slam) == (played.winner, played.grand_slam)
        assert sum(record.points) == 0 and record.points[played.winner] == record.score.winner.points > 0
        expected = score_game(
            10, played.actions[-1].cards, played.grand_slam,
            [played.remaining[s] for s in range(4) if s != played.winner], rules,
        )  # fmt: skip
        assert [loser.points for loser in record.score.losers] == [loser.points for loser in expected.losers]


@pytest.mark.parametrize("rules", LADDER_RULE_SETS, ids=lambda r: r.id + r.digest)
def test_random_games_replay_alike_with_a_locked_seats_turns_written_as_passes_or_left_out(rules):
    """Where a pass locks, a record may skip a seat that passed in the trick or write its turn down as a pass
    (docs/rulings.md B23): random games with half of those turns written replay legally to the game without
    them, whole (winner, grand slam, score) and at every cut (the state, but for the count of actions)."""
    rules = rules.with_parameters(pass_locks=True)
    rng = random.Random(rules.digest + "written")
    written = 0
    for _ in range(8):
        played = play_random_game(rng, deal(rng), pass_rate=rng.choice([0.25, 0.6]), rules=rules, write_locked=0.5)
        kept = [a for i, a in enumerate(played.actions) if i not in played.written]
        whole, without = (validate_game(10, played.hands, actions, rules) for actions in (played.actions, kept))
        assert (whole.legal, whole.finished, whole.violations) == (True, True, ()), whole.violations
        outcome = (whole.winner, whole.grand_slam, whole.score, whole.points)
        assert outcome == (without.winner, without.grand_slam, without.score, without.points)
        for cut in rng.sample(range(len(played.actions)), 6):
            state = validate_game(10, played.hands, played.actions[:cut], rules).state
            left_out = [a for i, a in enumerate(played.actions[:cut]) if i not in played.written]
            expected = validate_game(10, played.hands, left_out, rules).state
            assert replace(state, actions_replayed=expected.actions_replayed) == expected, cut
        written += len(played.written)
    assert written > 20


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_legal_games_end_legally_and_scores_sum_to_zero(chunk):
    rng = random.Random(f"big-two-{chunk}")
    for game in range(chunk, GAMES, CHUNKS):
        played = play_random_game(rng, deal(rng, deal_kind(game)), pass_rate=rng.choice([0.0, 0.25, 0.6]))
        record = validate_game(10, played.hands, played.actions)
        assert (record.legal, record.finished, record.violations) == (True, True, ()), (game, record.violations)
        assert (record.winner, record.grand_slam) == (played.winner, played.grand_slam)
        assert sum(record.points) == 0
        assert record.points[played.winner] == record.score.winner.points > 0
        assert record.state.cards_left == tuple(len(hand) for hand in played.remaining)
        expected = score_game(
            10,
            played.actions[-1].cards,
            played.grand_slam,
            [played.remaining[s] for s in range(4) if s != played.winner],
        )
        assert [loser.points for loser in record.score.losers] == [loser.points for loser in expected.losers]
        answer = through_http(10, played)
        assert (answer["legal"], answer["finished"], answer["violations"]) == (True, True, [])
        points = [answer["score"]["winner"]["points"]] + [loser["points"] for loser in answer["score"]["losers"]]
        assert sum(points) == 0 and answer["score"]["winner"]["seat"] == played.winner
        assert points[0] == record.score.winner.points
        if game % 10 == 0:
            check_prefix_and_overrun(rng, played)


def check_prefix_and_overrun(rng: random.Random, played) -> None:
    """Any prefix is an unfinished legal record; one more action after the end is the first violation."""
    cut = rng.randrange(len(played.actions))
    prefix = validate_game(10, played.hands, played.actions[:cut])
    assert (prefix.legal, prefix.finished, prefix.state.actions_replayed) == (True, False, cut)
    assert sum(prefix.state.cards_left) == 52 - sum(len(a.cards) for a in played.actions[:cut])
    extra = Action.pass_((played.winner + 1) % 4)
    over = validate_game(10, played.hands, [*played.actions, extra])
    assert [(v.code, v.index) for v in over.violations] == [("action_after_game_end", len(played.actions))]


def test_random_games_include_dragons_and_grand_slams():
    rng = random.Random("dragons")
    finishes = set()
    for game in range(200):
        played = play_random_game(rng, deal(rng, "green" if game % 2 else "dragon"), pass_rate=0.6)
        record = validate_game(1, played.hands, played.actions)
        finishes.add((record.score.winner.last_play.category, record.grand_slam))
    assert {("dragon", True), ("green_dragon", True), ("dragon", False)} <= finishes


# ---- legal_plays agrees with validate_move on every subset


def random_table(rng: random.Random, avoid) -> list | None:
    """None (leading) or a random valid play from cards outside ``avoid``."""
    if rng.random() < 0.2:
        return None
    others = [c for c in DECK if c not in avoid]
    rng.shuffle(others)
    options = [p for p in legal_plays(others[:13]) if len(p) < 13]
    return list(rng.choice(options))


@pytest.mark.parametrize("chunk", range(2))
def test_legal_plays_are_exactly_the_subsets_validate_move_accepts(chunk):
    rng = random.Random(f"subsets-{chunk}")
    for _ in range(40):
        hand = rng.sample(DECK, rng.choice([1, 2, 5, 8, 13]))
        table = random_table(rng, hand)
        accepted = {
            frozenset(subset)
            for size in (1, 2, 5, 13)
            for subset in combinations(hand, size)
            if validate_move(hand, table, Action.play(subset)).legal
        }
        assert {frozenset(p) for p in legal_plays(hand, table)} == accepted


def test_legal_plays_find_a_dealt_dragon_whatever_the_table():
    rng = random.Random("dragon-plays")
    for _ in range(20):
        hands = deal(rng, "dragon")
        dragon = next(h for h in hands if classify(h).valid)
        table = random_table(rng, dragon)
        assert frozenset(dragon) in {frozenset(p) for p in legal_plays(dragon, table)}


# ---- the order of cards never changes an answer


def shuffled(rng: random.Random, items) -> list:
    items = list(items)
    rng.shuffle(items)
    return items


@PROPERTY
@given(st.randoms(use_true_random=False), st.sampled_from([1, 2, 3, 4, 5, 13]))
def test_classification_never_depends_on_card_order(rng, size):
    played = rng.sample(DECK, size)
    assert classify(shuffled(rng, played)) == classify(played)


@PROPERTY
@given(st.randoms(use_true_random=False))
def test_compare_never_depends_on_card_order(rng):
    hand = rng.sample(DECK, 13)
    table = random_table(rng, hand) or [hand[0]]
    play = list(rng.choice(legal_plays(hand)))
    assert compare(shuffled(rng, table), shuffled(rng, play)) == compare(table, play)


@PROPERTY
@given(st.randoms(use_true_random=False), st.integers(1, 13))
def test_validate_move_never_depends_on_card_order(rng, size):
    hand = rng.sample(DECK, size)
    table = random_table(rng, hand)
    pool = hand + list(DECK[:3])  # sometimes a card the hand does not hold, sometimes one twice
    action = Action.pass_() if rng.random() < 0.2 else Action.play(rng.choices(pool, k=rng.choice([1, 2, 5])))
    again = Action(action.type, tuple(shuffled(rng, action.cards)))
    assert validate_move(shuffled(rng, hand), None if table is None else shuffled(rng, table), again) == validate_move(
        hand, table, action
    )


@PROPERTY
@given(st.randoms(use_true_random=False))
def test_score_game_never_depends_on_card_order(rng):
    deck = shuffled(rng, DECK)
    last_play = list(rng.choice([p for p in legal_plays(deck[:13]) if len(p) < 13]))
    rest = [c for c in deck if c not in last_play]
    losers = [rest[: rng.randint(1, 13)], rest[13 : 13 + rng.randint(1, 13)], rest[26 : 26 + rng.randint(1, 13)]]
    expected = score_game(3, last_play, False, losers)
    assert score_game(3, shuffled(rng, last_play), False, [shuffled(rng, loser) for loser in losers]) == expected


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_validate_game_never_depends_on_card_order(rng):
    played = play_random_game(rng, deal(rng))
    cut = rng.randrange(len(played.actions) + 1)
    actions = played.actions[:cut]
    if rng.random() < 0.5 and actions:  # sometimes end on an illegal action
        actions[-1] = Action.play(rng.sample(DECK, 2), actions[-1].seat)
    again = [Action(a.type, tuple(shuffled(rng, a.cards)), a.seat) for a in actions]
    assert validate_game(5, [shuffled(rng, h) for h in played.hands], again) == validate_game(5, played.hands, actions)


# ---- compare is antisymmetric


@PROPERTY
@given(st.randoms(use_true_random=False))
def test_compare_is_antisymmetric(rng):
    deck = shuffled(rng, DECK)
    a = list(rng.choice(legal_plays(deck[:13])))
    rest = [c for c in deck if c not in a]
    b = list(rng.choice(legal_plays(rest[:13])))
    forward, backward = compare(a, b), compare(b, a)
    assert not (forward.beats and backward.beats)
    kinds = {classify(a).combination, classify(b).combination}
    dragons = {Combination.DRAGON, Combination.GREEN_DRAGON}
    monsters = {Combination.FOUR_OF_A_KIND, Combination.STRAIGHT_FLUSH}
    comparable = len(kinds) == 1 or bool(kinds & (dragons | monsters))
    if kinds <= dragons:
        comparable = False  # a dragon ends the game: nothing beats one, not even another
    assert forward.beats != backward.beats if comparable else not (forward.beats or backward.beats)
