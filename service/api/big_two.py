"""HTTP layer of Taiwanese Big Two (``/v1/big-two``): request schemas beside the routes they serve."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from service.api import i18n
from service.api.common import (
    StrictBoolean,
    StrictInteger,
    StrictSchema,
    answer,
    card_list,
    hand_value,
    load_body,
    rule_codes,
    violation,
)  # fmt: skip
from service.rules import big_two as b2
from service.rules import big_two_plays
from service.rules.big_two import HAND_SIZE, SEATS, Action, ActionType, InvalidPlay, MoveViolation, ProblemCode
from service.rules.cards import Card, NotationProblem, card_texts
from service.rules.games import Game, find_game
from service.rules.hand_value import HandValue

blueprint = Blueprint("big_two", __name__, url_prefix="/v1/big-two")
RULES: b2.BigTwoRules = find_game("big-two").default.rules  # the registry's (its only rule set, the house rules)

ACTION_TYPES = [t.value for t in ActionType]
ACTION_TYPE_OF = {t.value: t for t in ActionType}
# A legal game has at most 193 actions: 49 plays (the winner's 13 cards one by one, each loser shedding 12)
# and at most 3 passes after each play but the last. 200 holds every legal game and a few extra actions,
# which are answered as violations (``action_after_game_end``).
MAX_ACTIONS = 200
# Points must stay exact in every JSON client (2^53): the largest payment is base x 13 cards x 128 (loser)
# x 160 (winner), three times over, under 10^6 x base.
MAX_BASE = 10**9


# --- schemas -----------------------------------------------------------------------------------------


class BigTwoClassifyRequest(StrictSchema):
    cards = card_list(1, HAND_SIZE, required=True)


class BigTwoCompareRequest(StrictSchema):
    table = card_list(1, HAND_SIZE, required=True)
    play = card_list(1, HAND_SIZE, required=True)


class BigTwoMoveAction(StrictSchema):
    type = fields.String(required=True, validate=validate.OneOf(ACTION_TYPES))
    cards = card_list(0, HAND_SIZE, load_default=list)

    def build(self, data: dict[str, Any]) -> Action:
        # Action(type, cards) by its slots' own setters (as RecordActions): its __init__ and __post_init__
        # coerce nothing here (an ActionType, a tuple) and cost more than the rest of the loading (issue 15)
        action = _new_action(Action)
        _set_type(action, ACTION_TYPE_OF[data["type"]])
        _set_cards(action, tuple(data["cards"]))
        _set_seat(action, None)
        return action


_new_action = Action.__new__
_set_type, _set_cards, _set_seat = (Action.__dict__[name].__set__ for name in ("type", "cards", "seat"))


class MoveActionField(fields.Nested):
    """moves/validate's action: a ``BigTwoMoveAction`` with its own fast path (service/api/loading.py), as
    ``RecordActions``'s entries: its type and cards read in one call, the action built by its slots'
    setters; anything unusual is declined, and ``Schema.load`` reports it."""

    def fast_reader(
        self, reader_of: Callable[[fields.Field], Any], decline: type[Exception]
    ) -> Callable[[Any, Any], Action]:
        declared = self.schema.load_fields
        assert set(declared) == {"type", "cards"} and declared["type"].required, declared
        (kinds,) = declared["type"].validators  # its OneOf
        (length,) = declared["cards"].validators  # its Length
        assert set(kinds.choices) == set(ACTION_TYPE_OF) and declared["cards"].load_default is list
        low, high, card = length.min or 0, length.max, declared["cards"].table.__getitem__

        def read(value: Any, parent: Any) -> Action:
            if type(value) is not dict:
                raise decline
            try:
                kind = ACTION_TYPE_OF[value["type"]]  # KeyError: no type, or none of the two
                if len(value) == 1:
                    cards: tuple[Card, ...] = ()
                else:
                    texts = value["cards"]  # KeyError: a key besides type and cards
                    if len(value) != 2 or type(texts) is not list or not low <= len(texts) <= high:
                        raise decline
                    cards = tuple(map(card, texts))  # KeyError: no spelling of a card
            except (KeyError, TypeError):  # an unhashable value
                raise decline from None
            action = _new_action(Action)
            _set_type(action, kind)
            _set_cards(action, cards)
            _set_seat(action, None)
            return action

        return read


class BigTwoMoveValidateRequest(StrictSchema):
    hand = card_list(1, HAND_SIZE, required=True)
    table = card_list(1, HAND_SIZE, required=True, allow_none=True)
    action = MoveActionField(BigTwoMoveAction, required=True)


class BigTwoWinner(StrictSchema):
    last_play = card_list(1, HAND_SIZE, required=True)
    grand_slam = StrictBoolean(required=True)


class BigTwoLoser(StrictSchema):
    cards = card_list(1, HAND_SIZE, required=True)

    def build(self, data: dict[str, Any]) -> list[Card]:
        return data["cards"]


class ScoredLosers(fields.List):
    """games/score's losers: a list of ``BigTwoLoser`` with its own fast path (service/api/loading.py), as
    ``RecordActions``: each loser's cards read in one loop, with the bounds and card spellings its field
    declares; anything unusual is declined, and ``Schema.load`` reports it."""

    def fast_reader(
        self, reader_of: Callable[[fields.Field], Any], decline: type[Exception]
    ) -> Callable[[Any, Any], list[list[Card]]]:
        declared = self.inner.schema.load_fields  # type: ignore[attr-defined]
        assert set(declared) == {"cards"} and declared["cards"].required, declared
        (length,) = declared["cards"].validators  # its Length
        low, high, card = length.min, length.max, declared["cards"].table.__getitem__

        def read(value: Any, parent: Any) -> list[list[Card]]:
            if type(value) is not list:  # (its length is checked before: loading._length_first)
                raise decline
            losers = []
            try:
                for entry in value:
                    if type(entry) is not dict or len(entry) != 1:
                        raise decline
                    texts = entry["cards"]  # KeyError: another key
                    if type(texts) is not list or not low <= len(texts) <= high:
                        raise decline
                    losers.append(list(map(card, texts)))  # KeyError: no spelling of a card
            except (KeyError, TypeError):  # no card, an unhashable value
                raise decline from None
            return losers

        return read


class BigTwoScoreRequest(StrictSchema):
    base = StrictInteger(required=True, validate=validate.Range(1, MAX_BASE))
    winner = fields.Nested(BigTwoWinner, required=True)
    losers = ScoredLosers(fields.Nested(BigTwoLoser), required=True, validate=validate.Length(equal=SEATS - 1))


class BigTwoRecordAction(StrictSchema):
    seat = StrictInteger(required=True, validate=validate.Range(0, SEATS - 1))
    type = fields.String(required=True, validate=validate.OneOf(ACTION_TYPES))
    cards = card_list(0, HAND_SIZE, load_default=list)

    def build(self, data: dict[str, Any]) -> Action:
        return Action(ACTION_TYPE_OF[data["type"]], tuple(data["cards"]), data["seat"])


class RecordActions(fields.List):
    """A record's actions: a list of ``BigTwoRecordAction`` with its own fast path (service/api/loading.py).

    The compiled reader costs a few microseconds per action (one generated call per object, one wrapper per
    validated field, then ``build``); a 98-action record is most of a request (issue 15). This reads the
    whole list in one loop, with the bounds and the card spellings the action's fields declare, and declines
    on anything unusual, which ``Schema.load`` then reports; a pass without cards is one shared action per
    seat (actions are frozen)."""

    def fast_reader(
        self, reader_of: Callable[[fields.Field], Any], decline: type[Exception]
    ) -> Callable[[Any, Any], list[Action]]:
        declared = self.inner.schema.load_fields  # type: ignore[attr-defined]
        assert set(declared) == {"seat", "type", "cards"}, declared
        (seats,) = declared["seat"].validators  # its Range
        (kinds,) = declared["type"].validators  # its OneOf
        (length,) = declared["cards"].validators  # its Length
        assert set(kinds.choices) == set(ACTION_TYPE_OF) and length.min in (None, 0)
        low, high, most, table = seats.min, seats.max, length.max, declared["cards"].table
        card = table.__getitem__
        passes = {seat: Action(ActionType.PASS, (), seat) for seat in range(low, high + 1)}
        play = ActionType.PLAY
        # A single, most of a game's plays, is one shared action per seat and spelling too (4 x the table's
        # spellings, built once): one look-up where an action was built per entry.
        singles = {seat: {text: Action(play, (c,), seat) for text, c in table.items()} for seat in passes}
        # An action built by its slots' own setters: the frozen dataclass's __init__ (object.__setattr__ per
        # field, then __post_init__'s coercions, which these values never need) was most of this loop.
        new, set_type, set_cards, set_seat = (Action.__new__, Action.type.__set__, Action.cards.__set__,
                                              Action.seat.__set__)  # type: ignore[attr-defined]  # fmt: skip

        def read(value: Any, parent: Any) -> list[Action]:
            if type(value) is not list:  # (its length is checked before: loading._length_first)
                raise decline
            actions = []
            append = actions.append
            try:
                for entry in value:
                    if type(entry) is not dict:
                        raise decline
                    seat, kind, texts = entry["seat"], ACTION_TYPE_OF[entry["type"]], entry.get("cards")
                    if type(seat) is not int or not low <= seat <= high:
                        raise decline
                    if texts is None:  # no cards (a null is no card list: then the entry has 3 keys)
                        if len(entry) != 2:  # a key besides seat and type
                            raise decline
                        cards: tuple[Card, ...] = ()
                    elif type(texts) is not list or len(texts) > most or len(entry) != 3:
                        raise decline
                    elif not texts:  # a pass's usual "cards": [] (a tuple of nothing, built for nothing)
                        cards = ()
                    elif len(texts) == 1:
                        if kind is play:
                            append(singles[seat][texts[0]])  # KeyError: no spelling of a card
                            continue
                        cards = (table[texts[0]],)  # a pass with a card: an action of its own (a violation)
                    else:
                        cards = tuple(map(card, texts))
                    if cards or kind is play:
                        action = new(Action)
                        set_type(action, kind)
                        set_cards(action, cards)
                        set_seat(action, seat)
                        append(action)
                    else:
                        append(passes[seat])
            except (KeyError, TypeError):  # a key missing, no action type, an unhashable value
                raise decline from None
            return actions

        return read


class BigTwoGameValidateRequest(StrictSchema):
    base = StrictInteger(required=True, validate=validate.Range(1, MAX_BASE))
    hands = fields.List(card_list(HAND_SIZE, HAND_SIZE), required=True, validate=validate.Length(equal=SEATS))
    actions = RecordActions(fields.Nested(BigTwoRecordAction), required=True, validate=validate.Length(max=MAX_ACTIONS))


# plays/legal (issue 14) -------------------------------------------------------------------------------


class BigTwoPlaysTable(StrictSchema):
    cards = card_list(1, HAND_SIZE, required=True)
    seat = StrictInteger(validate=validate.Range(0, SEATS - 1), load_default=None)


class BigTwoPlaysLegalRequest(StrictSchema):
    hand = card_list(1, HAND_SIZE, required=True)
    table = fields.Nested(BigTwoPlaysTable, allow_none=True, load_default=None)
    seat = StrictInteger(validate=validate.Range(0, SEATS - 1), load_default=None)
    first_lead = StrictBoolean(load_default=False)


SCHEMAS = [
    BigTwoClassifyRequest, BigTwoCompareRequest, BigTwoMoveAction, BigTwoMoveValidateRequest, BigTwoWinner,
    BigTwoLoser, BigTwoScoreRequest, BigTwoRecordAction, BigTwoGameValidateRequest,
    BigTwoPlaysTable, BigTwoPlaysLegalRequest,
]  # fmt: skip
"""Every request schema, for the test that compares them with openapi.yaml."""

_classify = BigTwoClassifyRequest()
_compare = BigTwoCompareRequest()
_move_validate = BigTwoMoveValidateRequest()
_score = BigTwoScoreRequest()
_game_validate = BigTwoGameValidateRequest()
_plays_legal = BigTwoPlaysLegalRequest()

# --- answers -----------------------------------------------------------------------------------------


def optional_hand(hand: Any, lang: str | None = None) -> dict[str, Any] | None:
    return None if hand is None else _hand_answer(hand, lang or i18n.language())


@lru_cache(maxsize=4096)
def _hand_answer(hand: HandValue, lang: str) -> dict[str, Any]:
    """A play's value as answered, built once per value and language and never mutated once answered
    (issue 15): a HandValue is immutable, and Big Two's plays are few (52 singles, 78 pairs, some 15,000
    five-card plays), the singles and pairs most of a game's."""
    return hand_value(hand, lang)


def classification(result: b2.Classification) -> dict[str, Any]:
    return {
        "valid": result.valid,
        "combination": None if result.combination is None else result.combination.value,
        "monster": result.monster,
        "hand": optional_hand(result.hand),
        "violations": [violation(v) for v in result.violations],
    }


def comparison(result: b2.Comparison) -> dict[str, Any]:
    lang = i18n.language()  # read once (a read costs as much as the label it picks)
    return {
        "beats": result.beats,
        "reason": result.reason.value,
        "table": optional_hand(result.table, lang),
        "play": optional_hand(result.play, lang),
        "violations": [violation(v) for v in result.violations],
    }


def move_result(result: b2.MoveResult) -> dict[str, Any]:
    return {
        "legal": result.legal,
        "violations": [violation(v) for v in result.violations],
        "hand": card_texts(result.hand_after),
        "play": optional_hand(result.play, i18n.language()),
        "wins": result.wins,
    }


def factor(f: b2.Factor, lang: str | None = None) -> dict[str, Any]:
    """A factor as answered: built once per factor and language (the rules share one object per factor they
    can give, and a factor is frozen), never mutated once answered (issue 15)."""
    return _factor_answer(f, lang or i18n.language())


@lru_cache(maxsize=1024)
def _factor_answer(f: b2.Factor, lang: str) -> dict[str, Any]:
    params = tuple((name, tuple(v) if type(v) is list else v) for name, v in f.params.items())
    try:
        reason = _reason(lang, f.factor, params)
    except TypeError:  # a parameter that cannot key the cache: rendered as it is
        reason = i18n.render(b2.DOMAIN, f"factor.{f.factor.value}", f.params, lang)
    return {"factor": f.factor.value, "value": f.value, "reason": reason, "cards": card_texts(f.cards)}


@lru_cache(maxsize=1024)
def _reason(lang: str, code: b2.FactorCode, params: tuple[tuple[str, Any], ...]) -> str:
    """A factor's text: a few dozen of them exist (a tier, a count of 2s, a monster's kinds), each rendered
    once per language rather than on every answer (issue 15)."""
    found = {name: list(v) if type(v) is tuple else v for name, v in params}
    return i18n.render(b2.DOMAIN, f"factor.{code.value}", found, lang)


def game_score(score: b2.GameScore) -> dict[str, Any]:
    """The score as answered: the language read once, each NamedTuple unpacked by position (issue 15)."""
    base, (seat, last_play, grand_slam, multiplier, factors, points), losers = score
    lang = i18n.language()
    answered = _factor_answer
    return {
        "base": base,
        "winner": {
            "seat": seat, "last_play": _hand_answer(last_play, lang), "grand_slam": grand_slam,
            "multiplier": multiplier, "factors": [answered(f, lang) for f in factors], "points": points,
        },
        "losers": [
            {
                "seat": seat, "cards": [c.text for c in cards], "cards_left": cards_left,
                "multiplier": multiplier, "factors": [answered(f, lang) for f in factors],
                "payment": payment, "points": points,
            }
            for seat, cards, cards_left, multiplier, factors, payment, points in losers
        ],
    }  # fmt: skip


def game_state(state: b2.GameState) -> dict[str, Any]:
    return {
        "turn": state.turn,
        "table": optional_hand(state.table),
        "table_seat": state.table_seat,
        "passes_in_row": state.passes_in_row,
        "cards_left": list(state.cards_left),
        "hands": [card_texts(hand) for hand in state.hands],
        "actions_replayed": state.actions_replayed,
    }


def game_record(record: b2.GameRecord) -> dict[str, Any]:
    return {
        "legal": record.legal,
        "finished": record.finished,
        "violations": [violation(v) for v in record.violations],
        "state": None if record.finished else game_state(record.state),
        "score": None if record.score is None else game_score(record.score),
    }


# --- routes ------------------------------------------------------------------------------------------

ERRORS = (*NotationProblem, *ProblemCode, *InvalidPlay)  # games/score refuses a finishing play that is no play
"""The 422 ``errors`` codes of this game's operations, besides the request schema's."""
RECORD_ONLY = {MoveViolation.NOT_YOUR_TURN, MoveViolation.ACTION_AFTER_GAME_END}
MOVE_VIOLATIONS = [*InvalidPlay, *(v for v in MoveViolation if v not in RECORD_ONLY)]


@blueprint.post("/plays/classify")
@rule_codes(b2.DOMAIN, violations=InvalidPlay, errors=ERRORS)
def plays_classify() -> Response:
    body = load_body(_classify)
    return answer(classification(b2.classify(body["cards"])))


@blueprint.post("/plays/compare")
@rule_codes(b2.DOMAIN, violations=InvalidPlay, errors=ERRORS)
def plays_compare() -> Response:
    body = load_body(_compare)
    return answer(comparison(b2.compare(body["table"], body["play"])))


@blueprint.post("/moves/validate")
@rule_codes(b2.DOMAIN, violations=MOVE_VIOLATIONS, errors=ERRORS)
def moves_validate() -> Response:
    body = load_body(_move_validate)
    return answer(move_result(b2.validate_move(body["hand"], body["table"], body["action"])))


# What only the rules decide, for a request valid against the contract (RuleCodes.rules_only): a card twice
# across lists or in two spellings (3c, 3C), whether cards make a combination, a grand slam's hands, the
# game's first lead. A joker never passes the contract's card pattern.
LAST_PLAY_FAULTS = [code for code in InvalidPlay if code is not InvalidPlay.JOKER_NOT_ALLOWED]


@blueprint.post("/games/score")
@rule_codes(b2.DOMAIN, errors=ERRORS, rules_only=["duplicate_card", "grand_slam_impossible", *LAST_PLAY_FAULTS])
def games_score() -> Response:
    body = load_body(_score)
    winner = body["winner"]
    return answer(
        game_score(b2.score_game(body["base"], winner["last_play"], winner["grand_slam"], body["losers"], RULES))
    )


@blueprint.post("/games/validate")
@rule_codes(b2.DOMAIN, violations=[*InvalidPlay, *MoveViolation], errors=ERRORS, rules_only=["duplicate_card"])
def games_validate() -> Response:
    body = load_body(_game_validate)
    return answer(game_record(b2.validate_game(body["base"], body["hands"], body["actions"], RULES)))


# --- plays/legal (issue 14) ------------------------------------------------------------------------------


def play_list(result: big_two_plays.PlayList) -> dict[str, Any]:
    return {
        "leading": result.leading,
        "may_pass": result.may_pass,
        "table": optional_hand(result.table),
        "count": result.count,
        "groups": [
            {
                "combination": group.combination.value,
                "plays": [
                    {"cards": card_texts(p.cards), "monster": p.monster, "hand": hand_value(p.hand)}
                    for p in group.plays
                ],
            }
            for group in result.groups
        ],
    }


@blueprint.post("/plays/legal")
@rule_codes(b2.DOMAIN, errors=(*ERRORS, *big_two_plays.PlaysProblem),
            rules_only=["duplicate_card", "table_not_a_play", "first_lead_with_table", "first_lead_hand", "seat_needed"])  # fmt: skip
def plays_legal() -> Response:
    body = load_body(_plays_legal)
    table = body["table"]
    result = big_two_plays.list_plays(
        body["hand"],
        None if table is None else table["cards"],
        table_seat=None if table is None else table["seat"],
        seat=body["seat"],
        first_lead=body["first_lead"],
    )
    return answer(play_list(result))


# --- the registry's hooks (service/rules/games.py): create_app and the contract tests find the game here ---


def blueprint_for(game: Game) -> Blueprint:
    """The blueprint serving ``game`` (this module serves one game)."""
    assert blueprint.name == game.blueprint, game.id
    return blueprint


def schemas_for(game: Game) -> list[type]:
    """Every request schema of ``game``, for the test that compares them with openapi.yaml."""
    return SCHEMAS
