"""HTTP layer of Taiwanese Big Two (``/v1/big-two``): request schemas beside the routes they serve."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from service.api import i18n
from service.api.common import (
    CardList,
    StrictBoolean,
    StrictInteger,
    StrictSchema,
    answer,
    card_list,
    hand_value,
    load_body,
    rule_codes,
    violation,
)
from service.rules import big_two as b2
from service.rules.big_two import HAND_SIZE, SEATS, Action, ActionType, InvalidPlay, MoveViolation, ProblemCode
from service.rules.big_two import plays as big_two_plays
from service.rules.cards import Card, NotationProblem, card_texts
from service.rules.games import Game, find_game
from service.rules.hand_value import HandValue

blueprint = Blueprint("big_two", __name__, url_prefix="/v1/big-two")
RULES: b2.BigTwoRules = find_game("big-two").default.rules  # the registry's (its only rule set, the house rules)

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


def action_cards(**kwargs: Any) -> CardList:
    """An action's cards, as a tuple (as ``Action`` holds them)."""
    return card_list(0, HAND_SIZE, container=tuple, **kwargs)


def action_type() -> fields.Enum[ActionType]:
    """An action's type, "play" or "pass", read as its ``ActionType``."""
    return fields.Enum(ActionType, by_value=fields.String, required=True)


class BigTwoMoveAction(StrictSchema):
    type = action_type()
    cards = action_cards(load_default=())
    build = Action


class BigTwoMoveValidateRequest(StrictSchema):
    hand = card_list(1, HAND_SIZE, required=True)
    table = card_list(1, HAND_SIZE, required=True, allow_none=True)
    action = fields.Nested(BigTwoMoveAction, required=True)


class BigTwoWinner(StrictSchema):
    last_play = card_list(1, HAND_SIZE, required=True)
    grand_slam = StrictBoolean(required=True)


class BigTwoLoser(StrictSchema):
    cards = card_list(1, HAND_SIZE, required=True)

    @staticmethod
    def build(cards: list[Card]) -> list[Card]:
        return cards


class BigTwoScoreRequest(StrictSchema):
    base = StrictInteger(required=True, validate=validate.Range(1, MAX_BASE))
    winner = fields.Nested(BigTwoWinner, required=True)
    losers = fields.List(fields.Nested(BigTwoLoser), required=True, validate=validate.Length(equal=SEATS - 1))


class BigTwoRecordAction(StrictSchema):
    seat = StrictInteger(required=True, validate=validate.Range(0, SEATS - 1))
    type = action_type()
    cards = action_cards(load_default=())
    build = Action


class BigTwoGameValidateRequest(StrictSchema):
    base = StrictInteger(required=True, validate=validate.Range(1, MAX_BASE))
    hands = fields.List(card_list(HAND_SIZE, HAND_SIZE), required=True, validate=validate.Length(equal=SEATS))
    actions = fields.List(fields.Nested(BigTwoRecordAction), required=True, validate=validate.Length(max=MAX_ACTIONS))


# plays/legal -----------------------------------------------------------------------------------------


class BigTwoPlaysTable(StrictSchema):
    cards = card_list(1, HAND_SIZE, required=True)
    seat = StrictInteger(validate=validate.Range(0, SEATS - 1), load_default=None)


class BigTwoPlaysLegalRequest(StrictSchema):
    hand = card_list(1, HAND_SIZE, required=True)
    table = fields.Nested(BigTwoPlaysTable, allow_none=True, load_default=None)
    seat = StrictInteger(validate=validate.Range(0, SEATS - 1), load_default=None)
    first_lead = StrictBoolean(load_default=False)


SCHEMAS: list[type[StrictSchema]] = [
    BigTwoClassifyRequest, BigTwoCompareRequest, BigTwoMoveAction, BigTwoMoveValidateRequest, BigTwoWinner,
    BigTwoLoser, BigTwoScoreRequest, BigTwoRecordAction, BigTwoGameValidateRequest,
    BigTwoPlaysTable, BigTwoPlaysLegalRequest,
]  # fmt: skip  # a few to a line, not one schema a line
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
    """A play's value as answered, built once per value and language and never mutated once answered: a
    HandValue is immutable, and Big Two's plays are few (52 singles, 78 pairs, some 15,000 five-card plays),
    the singles and pairs most of a game's."""
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
    can give, and a factor is frozen), never mutated once answered."""
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
    once per language rather than on every answer."""
    found = {name: list(v) if type(v) is tuple else v for name, v in params}
    return i18n.render(b2.DOMAIN, f"factor.{code.value}", found, lang)


def game_score(score: b2.GameScore) -> dict[str, Any]:
    """The score as answered: the language read once, each NamedTuple unpacked by position, no call per
    player."""
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
    }  # fmt: skip  # the winner's and each loser's fields a few to a line, not one a line


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


# --- plays/legal -------------------------------------------------------------------------------------


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
            rules_only=["duplicate_card", "table_not_a_play", "first_lead_with_table", "first_lead_hand", "seat_needed"])  # fmt: skip  # not one argument a line
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


def schemas_for(game: Game) -> list[type[StrictSchema]]:
    """Every request schema of ``game``, for the test that compares them with openapi.yaml."""
    return SCHEMAS
