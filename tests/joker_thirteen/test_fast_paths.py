"""The round's fast path (``thirteen.scoring._lawful_round``: duns from their sums, the table's copies from
the sums' card fields) against the full checks it skips: for seeded random rounds, lawful and not (a
card beyond the deck's copies in a dun, across a player's duns or across the table, 相公, a hand given,
a wrong size), ``score_round`` answers exactly what it answers with the fast path switched off: the same
score, or the same problems in the same order."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.rules import thirteen as j13
from service.rules.cards import JOKER
from service.rules.errors import InvalidInputError
from service.rules.thirteen import GAME_DECK, Arrangement, score_round
from service.rules.thirteen import arrangements as j13_arrangements
from service.rules.thirteen import duns as j13_duns
from service.rules.thirteen import scoring as j13_scoring

REALS = [c for c in GAME_DECK if c.suit is not None]


def deal(rng: random.Random) -> list[Arrangement]:
    """Four arrangements from one shuffled deck, each the first in order of up to 20 random splits."""
    deck = list(GAME_DECK)
    rng.shuffle(deck)
    players = []
    for seat in range(4):
        cards = deck[13 * seat : 13 * seat + 13]
        for _ in range(20):
            rng.shuffle(cards)
            head, middle, tail = cards[:3], cards[3:8], cards[8:]
            if j13_duns._evaluate(5, middle).strength > j13_duns._evaluate(5, tail).strength:
                middle, tail = tail, middle
            if j13.validate_arrangement(head, middle, tail).legal:
                break
        players.append(Arrangement(head, middle, tail))
    return players


def spoil(rng: random.Random, players: list[Arrangement]) -> list[Arrangement]:
    """One way a round can be wrong, or none."""
    kind = rng.randrange(7)
    seat = rng.randrange(4)
    p = players[seat]
    duns = {"head": list(p.head), "middle": list(p.middle), "tail": list(p.tail)}
    if kind == 1:  # a card copied from elsewhere on the table (sometimes still within the deck: a spade)
        other = players[rng.randrange(4)]
        name = rng.choice(list(duns))
        duns[name][rng.randrange(len(duns[name]))] = rng.choice([*other.head, *other.middle, *other.tail])
    elif kind == 2:  # a card repeated inside one dun
        name = rng.choice(["middle", "tail"])
        duns[name][0] = duns[name][1]
    elif kind == 3:  # head and middle swapped cards: often 相公
        duns["head"][0], duns["middle"][0] = duns["middle"][0], duns["head"][0]
    elif kind == 4:  # a dun of the wrong size
        duns["tail"] = duns["tail"][:4]
    elif kind == 5:  # the hand given (the placed cards and the four discarded, or others)
        hand = [*p.head, *p.middle, *p.tail, *rng.sample(REALS, 4)]
        return [*players[:seat], Arrangement(p.head, p.middle, p.tail, hand), *players[seat + 1 :]]
    elif kind == 6:  # many jokers and spades: copies at the deck's limit
        duns["middle"] = [JOKER, JOKER, *rng.sample([c for c in REALS if c.suit.value == "s"], 3)]
    spoiled = Arrangement(duns["head"], duns["middle"], duns["tail"])
    return [*players[:seat], spoiled, *players[seat + 1 :]]


def answer(players):
    try:
        return score_round(players)
    except InvalidInputError as error:
        return [(p.path, p.code, p.params) for p in error.problems]


@pytest.mark.parametrize("seed", range(4))
def test_the_fast_path_answers_what_the_full_checks_answer(seed, monkeypatch):
    rng = random.Random(seed)
    rounds = [spoil(rng, deal(rng)) for _ in range(1500)]
    fast = [answer(players) for players in rounds]
    monkeypatch.setattr(j13_scoring, "_lawful_round", lambda players, deck: None)
    full = [answer(players) for players in rounds]
    assert fast == full
    scored = sum(1 for a in fast if not isinstance(a, list))
    assert 300 < scored < 1400  # both kinds of answer, many of each


def with_hand(rng: random.Random, p: Arrangement) -> Arrangement:
    """The arrangement with a hand: its cards and four more, sometimes one of them swapped out for another
    card (a placed card then not in the hand), sometimes 16 or 18 cards."""
    hand = [*p.head, *p.middle, *p.tail, *rng.sample(REALS, 4)]
    kind = rng.randrange(4)
    if kind == 1:
        hand[rng.randrange(13)] = rng.choice(GAME_DECK)
    elif kind == 2:
        hand = hand[: rng.choice([16, 18])] + ([rng.choice(REALS)] if len(hand) < 18 else [])
    return Arrangement(p.head, p.middle, p.tail, hand)


def validation(p: Arrangement):
    return j13.validate_arrangement(p.head, p.middle, p.tail, p.hand)


@pytest.mark.parametrize("seed", range(4))
def test_a_legal_arrangement_answers_what_the_full_checks_answer(seed, monkeypatch):
    rng = random.Random(100 + seed)
    arrangements = []
    for _ in range(800):
        players = spoil(rng, deal(rng))
        arrangements += [p if rng.randrange(2) else with_hand(rng, p) for p in players]
    fast = [validation(p) for p in arrangements]
    monkeypatch.setattr(j13_arrangements, "_lawful_arrangement", lambda arrangement, deck: None)
    full = [validation(p) for p in arrangements]
    assert fast == full
    legal = sum(1 for a in fast if a.legal)
    assert len(arrangements) // 4 < legal < len(arrangements) * 9 // 10  # both kinds of answer, many of each


# --- the round settled in one pass against the rule book, pair by pair ------------------------------


def settled_pair_by_pair(values, rules):
    """The matchups and the players' (total, shots, home run, bonus), straight from the rule book: per pair,
    per dun, 打槍 when not losing any dun (平手也算不輸), 額外加分 for duns strictly won, 全壘打 for shooting
    all three others (+9, 3 from each)."""
    matchups, shots, bonuses, shot = [], [0] * 4, [0] * 4, [set() for _ in range(4)]
    for a in range(4):
        for b in range(a + 1, 4):
            duns, bonus = {}, {a: 0, b: 0}
            for dun in ("head", "middle", "tail"):
                hand_a, hand_b = values[a][dun], values[b][dun]
                if hand_a.strength == hand_b.strength:
                    duns[dun] = "tie"
                    continue
                won = a if hand_a.strength > hand_b.strength else b
                duns[dun] = "a" if won == a else "b"
                bonus[won] += rules.bonus.get((j13.Dun(dun), j13.Category(values[won][dun].category)), 0)
            a_shoots, b_shoots = "b" not in duns.values(), "a" not in duns.values()
            if a_shoots:
                shot[a].add(b)
            if b_shoots:
                shot[b].add(a)
            net = (int(a_shoots) - int(b_shoots)) * rules.shot
            shots[a] += net
            shots[b] -= net
            bonuses[a] += bonus[a] - bonus[b]
            bonuses[b] += bonus[b] - bonus[a]
            by = "both" if a_shoots and b_shoots else "a" if a_shoots else "b" if b_shoots else None
            matchups.append((a, b, duns, by, bonus[a], bonus[b], net + bonus[a] - bonus[b]))
    home_runs = [0] * 4
    for seat in range(4):
        if len(shot[seat]) == 3:
            for other in range(4):
                home_runs[other] += rules.home_run if other == seat else -rules.home_run // 3
    players = [(s, shots[s] + home_runs[s] + bonuses[s], shots[s], home_runs[s], bonuses[s]) for s in range(4)]
    return matchups, players


@pytest.mark.parametrize("seed", range(2))
def test_the_round_settles_as_the_rule_book_pair_by_pair(seed):
    """Random tables of evaluated duns (legal or not: settling only compares), often with a player's duns
    repeated at another seat (every dun tied: mutual shots) or one dun shared (ties), under the house rules
    and a rule set with other points."""
    rng = random.Random(200 + seed)
    doubled = replace(
        j13.GSCAS, id="doubled", sweep_points=2, home_run_points=6, bonus={k: 2 * v for k, v in j13.BONUS.items()}
    )
    pool = [j13_arrangements._evaluate_all(p, j13.JOKER_DECK) for _ in range(150) for p in deal(rng)]
    strong = [j13.Arrangement(*(rng.sample(GAME_DECK, n) for n in (3, 5, 5))) for _ in range(400)]
    pool += [j13_arrangements._evaluate_all(p, j13.JOKER_DECK) for p in strong]
    kinds = set()
    for _ in range(3000):
        values = [rng.choice(pool) for _ in range(4)]
        if rng.randrange(3) == 0:
            values[rng.randrange(4)] = values[rng.randrange(4)]
        if rng.randrange(3) == 0:
            seat, other, dun = rng.randrange(4), rng.randrange(4), rng.choice(j13.DUNS)
            values[seat] = {**values[seat], dun: values[other][dun]}
        rules = doubled if rng.randrange(4) == 0 else j13.GSCAS
        orders = [tuple(j13_duns._order(duns[d].strength) for d in j13.DUNS) for duns in values]
        score = j13_scoring._settled(values, orders, j13_scoring._NOBODY, j13_scoring._NOBODY, rules)
        matchups, players = settled_pair_by_pair(values, rules)
        assert [tuple(m)[:7] for m in score.matchups] == matchups
        assert [tuple(p)[:5] for p in score.players] == players
        assert all(p.duns is values[p.seat] for p in score.players)
        assert sum(p.total for p in score.players) == 0
        kinds |= {m[3] for m in matchups} | {bool(p[3]) for p in players}
    assert kinds == {"a", "b", "both", None, True, False}  # every kind of shot, home runs and none


# --- rounds/score's players read by the compiled reader (service/api/loading.py) against Schema.load -----


def odd_player(rng: random.Random, player: dict) -> dict:
    """A player's JSON as a client might send it, often wrong: a key dropped, added or null, a card list
    cut, grown or not a list, a card respelled, unknown or not a string, a hand of 17, 16 or null."""
    player = {k: list(v) if isinstance(v, list) else v for k, v in player.items()}
    kind = rng.randrange(12)
    name = rng.choice(["head", "middle", "tail", "hand"])
    if kind == 1:
        player.pop(name, None)
    elif kind == 2:
        player[rng.choice(["extra", "Head", name])] = rng.choice([None, [], "As", 3])
    elif kind == 3 and name in player:
        player[name] = player[name][:-1] if rng.randrange(2) else [*player[name], "2c"]
    elif kind == 4 and name in player and player[name]:
        player[name][rng.randrange(len(player[name]))] = rng.choice(["jk", "AS", "ah", "10h", "1x", 7, None, ["As"]])
    elif kind == 5:
        player[name] = rng.choice([None, "As", {"0": "As"}, 5, True])
    elif kind == 6:
        player["hand"] = rng.choice(
            [None, [*player["head"], *player["middle"], *player["tail"], "2c", "3c", "4c", "5c"]]
        )
    return player


def test_the_players_reader_answers_as_the_schema():
    from service.api.games import schemas_for
    from service.api.loading import fast_load
    from service.rules.games import find_game

    rng = random.Random(300)
    schema = schemas_for(find_game("joker-thirteen"))["RoundScoreRequest"]()
    answered = declined = 0
    for _ in range(3000):
        players = [
            {"head": [c.text for c in p.head], "middle": [c.text for c in p.middle], "tail": [c.text for c in p.tail]}
            for p in deal(rng)
        ]
        body = {"players": [odd_player(rng, p) if rng.randrange(3) == 0 else p for p in players]}
        if rng.randrange(10) == 0:
            body["players"] = body["players"][: rng.randrange(6)] + body["players"][: rng.randrange(2)]
        fast = fast_load(schema, body)
        try:
            loaded = schema.load(body)
        except Exception:  # marshmallow's ValidationError: the fast path must have declined
            assert fast is None, body
            declined += 1
            continue
        assert fast is not None, body  # nothing load answers is left to it
        assert fast == loaded and all(type(p) is Arrangement for p in fast["players"])
        assert [[type(p.head), type(p.middle), type(p.tail)] for p in fast["players"]] == [[list] * 3] * 4
        answered += 1
    assert answered > 1000 and declined > 500  # both, many of each


# --- strengths compared as ints (thirteen.duns._order) and bonuses by rung --------------------------------


def test_orders_compare_as_the_strengths_on_every_shape():
    """Every shape's strength (heads and five-card duns together: a head's is often a prefix of a
    middle's) and the plan's ``_order``: the plan carries ``_order(strength)``, and sorting by order is
    sorting by strength, equal exactly when equal."""
    j13.plan_every_shape()
    plans = [*j13_duns._HEADS.values(), *j13_duns._FIVES.values()]
    assert len(plans) == j13.SHAPES
    assert all(plan[-1] == j13_duns._order(plan[2]) for plan in plans)
    strengths = sorted({plan[2] for plan in plans})
    orders = [j13_duns._order(s) for s in strengths]
    assert all(x < y for x, y in zip(orders, orders[1:], strict=False))  # strictly rising: no two strengths equal
    assert len(strengths) > 5000 and any(len(s) == 6 for s in strengths) and any(len(s) == 2 for s in strengths)
    rng = random.Random(400)
    for _ in range(20000):  # and pair by pair, as the settlement compares them
        a, b = rng.choice(strengths), rng.choice(strengths)
        assert (a < b, a == b, a > b) == (j13_duns._order(a) < j13_duns._order(b), j13_duns._order(a) == j13_duns._order(b),
                                          j13_duns._order(a) > j13_duns._order(b))  # fmt: skip


def test_bonuses_by_rung_are_the_rule_sets_bonuses():
    doubled = replace(
        j13.GSCAS, id="doubled", sweep_points=2, home_run_points=6, bonus={k: 2 * v for k, v in j13.BONUS.items()}
    )
    for rules in (j13.GSCAS, doubled):
        for d, table in zip(j13.DUNS, rules.bonus_by_rung, strict=True):
            for category, rung in j13.RUNG.items():
                order = j13_duns._order((rung, 14, 14))
                assert table[order >> j13_duns._RUNG_SHIFT] == rules.bonus.get((d, category), 0), (d, category)
