"""games/validate's actions read by the compiled fast path (``service/api/loading.py``): whenever it
answers, ``Schema.load`` answers the same, on random records and on records with one entry made odd in
every way a client can; it answers the usual records (and the other spellings of a card) itself."""

from __future__ import annotations

import copy
import random

from marshmallow import ValidationError

from service.api.games import schemas_for
from service.api.loading import fast_load
from service.rules.cards import DECK
from service.rules.games import find_game
from tests.big_two.players import deal, play_random_game

_SCHEMAS = schemas_for(find_game("big-two"))
BigTwoGameValidateRequest = _SCHEMAS["GameValidateRequest"]
BigTwoMoveValidateRequest = _SCHEMAS["MoveValidateRequest"]
BigTwoScoreRequest = _SCHEMAS["ScoreRequest"]

SCHEMA = BigTwoGameValidateRequest()

ODD_VALUES = {
    "seat": ["1", 1.0, True, False, -1, 4, None, [1], {"seat": 1}],
    "type": ["PLAY", "Pass", None, 1, ["play"], {"type": "play"}, ""],
    "cards": [None, "3c", [1], ["JK"], ["3c"] * 14, ["3c", None], ["Zz"], [["3c"]], {"3c": 1}, True],
}


def body_of(played) -> dict:
    return {
        "base": 10,
        "hands": [[c.text for c in hand] for hand in played.hands],
        "actions": [{"seat": a.seat, "type": a.type.value, "cards": [c.text for c in a.cards]} for a in played.actions],
    }


def load_or_none(body):
    try:
        return SCHEMA.load(body)
    except ValidationError:
        return None


def test_the_fast_path_reads_random_records_as_load_does():
    rng = random.Random("record-loading")
    for _ in range(60):
        body = body_of(play_random_game(rng, deal(rng)))
        for entry in body["actions"]:
            if not entry["cards"] and rng.random() < 0.5:
                del entry["cards"]  # a pass need not say it has no cards
            elif entry["cards"] and rng.random() < 0.2:
                entry["cards"] = [rng.choice([text.upper(), text.lower(), text]) for text in entry["cards"]]
        fast = fast_load(SCHEMA, body)
        assert fast is not None
        assert fast == SCHEMA.load(body)


def test_the_fast_path_declines_or_agrees_with_load_on_every_odd_entry():
    rng = random.Random("odd-entries")
    answered = declined = 0
    for _ in range(40):
        body = body_of(play_random_game(rng, deal(rng)))
        for _ in range(20):
            odd = copy.deepcopy(body)
            i = rng.randrange(len(odd["actions"]))
            choice = rng.randrange(5)
            if choice == 0:
                key = rng.choice(list(ODD_VALUES))
                odd["actions"][i][key] = rng.choice(ODD_VALUES[key])
            elif choice == 1:
                del odd["actions"][i][rng.choice(["seat", "type", "cards"])]
            elif choice == 2:
                odd["actions"][i]["extra"] = rng.choice([None, 1, "x"])
            elif choice == 3:
                odd["actions"][i] = rng.choice([None, [], "pass", 3, [odd["actions"][i]]])
            else:
                odd["actions"] = rng.choice([None, {}, "actions", odd["actions"] * 3])
            fast = fast_load(SCHEMA, odd)
            if fast is None:
                declined += 1
            else:
                answered += 1
                assert fast == load_or_none(odd), odd["actions"][i]
    assert declined > 300 and answered > 50


def test_single_plays_and_empty_passes_read_as_load_reads_them():
    """The shared actions: a single play is one action per seat and spelling, built
    once, and a pass's ``"cards": []`` reads as no card; on 3000 records of singles, pairs, passes with and
    without a card, every seat (and some that are none), every spelling and some that are none, the fast
    path answers exactly what ``Schema.load`` answers, or declines what it refuses."""
    rng = random.Random("singles")
    spellings = [t for c in DECK for t in {c.text, c.text.lower(), c.text.upper(), c.text.replace("T", "10")}]
    answered = declined = 0
    for _ in range(3000):
        actions = []
        for _ in range(rng.randrange(1, 30)):
            seat = rng.randrange(4) if rng.random() > 0.01 else rng.choice([4, -1, True, 1.0])
            entry = {"seat": seat, "type": rng.choice(["play", "pass"])}
            cards = rng.choice([[], [], [rng.choice(spellings)], [rng.choice(spellings)], rng.sample(spellings, 2)])
            if rng.random() < 0.01:
                cards = [rng.choice(["Zz", "JK", 3, None, ["3c"]])]
            if cards or rng.random() < 0.5:
                entry["cards"] = cards
            actions.append(entry)
        body = {"base": 1, "hands": [[c.text for c in DECK[i::4]] for i in range(4)], "actions": actions}
        fast = fast_load(SCHEMA, body)
        if fast is None:
            declined += 1
            continue
        answered += 1
        loaded = load_or_none(body)
        assert fast == loaded, actions
        assert [(a.type.value, [c.text for c in a.cards], a.seat) for a in fast["actions"]] == [
            (e["type"], [c.text for c in action.cards], e["seat"])
            for e, action in zip(actions, loaded["actions"], strict=True)
        ]
    assert answered > 500 and declined > 500


def test_the_fast_path_declines_a_record_past_its_maximum_without_reading_an_entry():
    """load_body tries the fast path before ``check_list_lengths``: a hostile list must not make it
    read, so every list's maxItems is checked on the JSON array first (``service/api/loading.py``)."""

    class Untouchable:
        def __getattribute__(self, name):
            raise AssertionError("an entry was read")

    hands = [["3c"] * 13] * 4
    assert fast_load(SCHEMA, {"base": 1, "hands": hands, "actions": [Untouchable()] * 201}) is None
    assert fast_load(SCHEMA, {"base": 1, "hands": [Untouchable()] * 5, "actions": []}) is None


# --- games/score's losers read by the fast path ------------------------------------------------------------

SCORE_SCHEMA = BigTwoScoreRequest()


def test_the_losers_reader_answers_as_load_does():
    """Random games' scores, often with one loser made odd (a key dropped, added or null, no list, a card
    respelled, unknown or not a string, 0 or 14 cards, a loser more or less): whenever the fast path
    answers, load answers the same; whatever load answers, the fast path answers too."""
    rng = random.Random("losers")
    answered = declined = 0
    odd_cards = [None, "3c", [], ["3c"] * 14, [1], ["JK"], ["Zz"], [["3c"]], {"3c": 1}, True]
    for _ in range(3000):
        played = play_random_game(rng, deal(rng))
        losers = [{"cards": [c.text for c in played.remaining[s]]} for s in range(4) if s != played.winner]
        for loser in losers:
            if rng.random() < 0.2:
                loser["cards"] = [rng.choice([text.upper(), text.lower(), text]) for text in loser["cards"]]
        if rng.random() < 0.5:
            loser = rng.choice(losers)
            kind = rng.randrange(5)
            if kind == 0:
                del loser["cards"]
            elif kind == 1:
                loser[rng.choice(["Cards", "seat", "extra"])] = rng.choice([1, None, ["3c"]])
            elif kind == 2:
                loser["cards"] = rng.choice(odd_cards)
            elif kind == 3 and loser["cards"]:
                loser["cards"][rng.randrange(len(loser["cards"]))] = rng.choice(["10h", "3C", "jk", 3, None, "3c "])
            else:
                losers = rng.choice([losers[:2], [*losers, losers[0]], [*losers[:2], "3c"], [*losers[:2], None]])
        body = {"base": 10, "winner": {"last_play": ["3c"], "grand_slam": False}, "losers": losers}
        fast, loaded = fast_load(SCORE_SCHEMA, body), load_or_none_of(SCORE_SCHEMA, body)
        assert fast == loaded, body
        answered += fast is not None
        declined += fast is None
    assert answered > 1000 and declined > 500  # both, many of each


def load_or_none_of(schema, body):
    try:
        return schema.load(body)
    except ValidationError:
        return None


# --- moves/validate's action read by the fast path --------------------------------------------------------

MOVE_SCHEMA = BigTwoMoveValidateRequest()


def test_the_move_action_reader_answers_as_load_does():
    """Random moves, often with the action made odd (a key dropped, added or null, an unknown type, no
    list, a card respelled, unknown or not a string, 14 cards): whenever the fast path answers, load
    answers the same; whatever load answers, the fast path answers too."""
    rng = random.Random("move-action")
    answered = declined = 0
    for _ in range(4000):
        hand = rng.sample(DECK, rng.randint(1, 13))
        action = {"type": rng.choice(["play", "pass"])}
        if action["type"] == "play" or rng.random() < 0.3:
            action["cards"] = [c.text for c in rng.sample(hand, rng.randint(0, min(5, len(hand))))]
        if rng.random() < 0.5:
            kind = rng.randrange(5)
            if kind == 0:
                action.pop(rng.choice(["type", "cards"]), None)
            elif kind == 1:
                action[rng.choice(["seat", "Type", "extra"])] = rng.choice([1, None, "play"])
            elif kind == 2:
                action[rng.choice(["type", "cards"])] = rng.choice(
                    [None, "3c", [], 1, True, ["3c"] * 14, {"a": 1}, ["x"]]
                )
            elif kind == 3 and action.get("cards"):
                action["cards"][0] = rng.choice(["10h", "3C", "jk", 3, None, ["3c"]])
            else:
                action = rng.choice([None, [], "play", {}])
        body = {"hand": [c.text for c in hand], "table": None, "action": action}
        fast, loaded = fast_load(MOVE_SCHEMA, body), load_or_none_of(MOVE_SCHEMA, body)
        assert fast == loaded, body
        answered += fast is not None
        declined += fast is None
    assert answered > 1500 and declined > 500  # both, many of each
