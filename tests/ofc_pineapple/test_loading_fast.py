"""The OFC requests' fast readers, compiled from their schemas (``service/api/loading.py``): whenever they
answer, ``Schema.load`` answers the same, on random requests of every OFC game (hands/score, hands/validate,
moves/validate, boards/evaluate) written in every spelling of a card, and on the same requests with one
value made odd in every way a client can; they answer the usual requests themselves."""

from __future__ import annotations

import copy
import random
from typing import Any

from marshmallow import ValidationError

from service.api.games import schemas_for
from service.api.loading import fast_load
from service.rules.cards import CARD_BY_TEXT, Card
from service.rules.games import GAMES, find_game
from service.rules.ofc import ROWS, Board, Fantasyland
from tests.api.test_loading import paths
from tests.ofc_pineapple.test_replay import legal_record, move_case, showdown_seats

SPELLINGS: dict[Card, list[str]] = {}
for _text, _card in CARD_BY_TEXT.items():
    SPELLINGS.setdefault(_card, []).append(_text)

OFC_GAMES = [game for game in GAMES if game.api_module == "ofc_pineapple"]
ODD = [None, True, False, 0, 1, -1, 3, 99, 1.0, 2.5, "", "x", "As", "top", "fantasyland", [], [None], ["As"],
       ["Zz"], [["As"]], ["As"] * 18, {}, {"top": []}, {"x": 1}, {"active": True}]  # fmt: skip


def spelled(rng: random.Random, cards: Any) -> list[str]:
    return [c.text if rng.random() < 0.7 else rng.choice(SPELLINGS[c]) for c in cards]


def rows_of(rng: random.Random, board: Board, drop_empty: bool) -> dict[str, list[str]]:
    rows = {r.value: spelled(rng, board.row(r)) for r in ROWS}
    return {k: v for k, v in rows.items() if v or not drop_empty or rng.random() < 0.5}


def state_of(rng: random.Random, fantasyland: Fantasyland) -> dict[str, Any] | None:
    if not fantasyland.active and fantasyland.cards is None and rng.random() < 0.5:
        return None
    state: dict[str, Any] = {"active": fantasyland.active}
    if fantasyland.cards is not None or rng.random() < 0.3:
        state["cards"] = fantasyland.cards
    return state


def requests(rng: random.Random, count: int) -> list[tuple[str, str, dict[str, Any]]]:
    """(game id, schema name, body): random requests of each OFC game's rule sets and seatings."""
    found = []
    for game in OFC_GAMES:
        for rule_set in game.rule_sets:
            rules = rule_set.rules
            named = {"rule_set": rule_set.id} if rule_set is not game.default or rng.random() < 0.3 else {}
            for _ in range(count):
                players = rng.randint(*rules.players)
                seats = showdown_seats(rng, rules, players)
                score: dict[str, Any] = {"players": [], **named}
                for seat in seats:
                    entry: dict[str, Any] = {"board": rows_of(rng, seat.board, False)}
                    if (state := state_of(rng, seat.fantasyland)) is not None:
                        entry["fantasyland"] = state
                    score["players"].append(entry)
                found.append((game.id, "HandScoreRequest", score))
                board: dict[str, Any] = {"board": rows_of(rng, seats[0].board, False), **named}
                if (state := state_of(rng, seats[0].fantasyland)) is not None:
                    board["fantasyland"] = state
                found.append((game.id, "BoardEvaluateRequest", board))
                dealer, fantasyland, actions = legal_record(rng, rules, players)
                record: dict[str, Any] = {"dealer": dealer, "players": [], "actions": [], **named}
                for state_now in fantasyland:
                    state = state_of(rng, state_now)
                    record["players"].append({} if state is None else {"fantasyland": state})
                for a in actions:
                    action: dict[str, Any] = {"seat": a.seat, "dealt": spelled(rng, a.dealt), "placement": {
                        r.value: spelled(rng, cards) for r, cards in a.placement.items() if cards or rng.random() < 0.5
                    }}  # fmt: skip
                    if a.discard or rng.random() < 0.5:
                        action["discard"] = spelled(rng, a.discard)
                    record["actions"].append(action)
                found.append((game.id, "HandValidateRequest", record))
                on, round_, dealt, placement, discard, seen = move_case(rng, rules, players)
                move: dict[str, Any] = {"board": rows_of(rng, on, True), "round": round_, "dealt": spelled(rng, dealt),
                                        "placement": {r.value: spelled(rng, c) for r, c in placement.items()}, **named}  # fmt: skip
                if discard or rng.random() < 0.5:
                    move["discard"] = spelled(rng, discard)
                if seen or rng.random() < 0.5:
                    move["seen"] = spelled(rng, seen)
                found.append((game.id, "MoveValidateRequest", move))
    return found


def schema_of(game_id: str, name: str) -> Any:
    return schemas_for(find_game(game_id))[name]()


def load_or_none(schema: Any, body: Any) -> Any:
    try:
        return schema.load(body)
    except ValidationError:
        return None


def made_odd(rng: random.Random, body: Any) -> Any:
    """``body`` with one thing changed: a value replaced by an odd one, removed, or a key added beside it."""
    odd = copy.deepcopy(body)
    where = rng.choice(paths(odd)[1:])
    parent = odd
    for step in where[:-1]:
        parent = parent[step]
    last = where[-1]
    choice = rng.randrange(4)
    if choice == 0 and isinstance(parent, dict):
        del parent[last]
    elif choice == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "top", "seat", "discard", "fantasyland", "cards", "placement"])] = rng.choice(ODD)
    elif choice == 2 and isinstance(parent, list):
        parent.append(rng.choice([*ODD, parent[last]]))
    else:
        parent[last] = rng.choice(ODD)
    return odd


def test_the_fast_readers_read_random_requests_as_load_does():
    rng = random.Random("ofc-loading")
    read = refused = 0
    for game_id, name, body in requests(rng, 25):
        schema = schema_of(game_id, name)
        loaded = load_or_none(schema, body)
        fast = fast_load(schema, body)
        if loaded is None:  # a row of the wrong size, a round the rule set lacks: the schema's to report
            assert fast is None, body
            refused += 1
            continue
        assert fast is not None, (game_id, name, body)
        assert fast == loaded
        read += 1
    assert read >= 300 and refused >= 20, (read, refused)


def test_the_fast_readers_decline_or_agree_with_load_on_every_odd_value():
    rng = random.Random("ofc-odd-values")
    answered = declined = 0
    for game_id, name, body in requests(rng, 6):
        schema = schema_of(game_id, name)
        for _ in range(15):
            odd = made_odd(rng, body)
            fast = fast_load(schema, odd)
            if fast is None:
                declined += 1
            else:
                answered += 1
                assert fast == load_or_none(schema, odd), odd
    assert declined > 800 and answered > 50, (declined, answered)
