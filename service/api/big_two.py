"""HTTP layer of Big Two (``/v1/big-two``): request schemas beside the routes they serve.

Every operation takes the table's rules: ``rule_set`` names a declared set (absent: the house rules,
``taiwan``) and ``rules`` replaces any of its parameters, written as ``GET /v1/games`` lists them
(``BigTwoRules.with_description``). An answer to a request that names either says which rules it applied
(``rule_set`` and ``rules_digest``); an answer to one that names neither is the house rules' as before.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from service.api import i18n
from service.api.common import (
    CardList,
    OneOfShapes,
    RulesEcho,
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
from service.rules.big_two import (
    CYCLIC_RUNS,
    FIVE_CARD_PLAYS,
    HAND_SIZE,
    MONSTER_KINDS,
    SEATS,
    SHORT_PLAYS,
    Action,
    ActionType,
    BigTwoRules,
    FlushOrder,
    InvalidPlay,
    MoveViolation,
    ProblemCode,
    StraightSuitCard,
)
from service.rules.big_two import plays as big_two_plays
from service.rules.big_two.rules import MAX_BASE, MAX_MULTIPLIER, rank_text
from service.rules.cards import Card, NotationProblem, Suit, card_texts
from service.rules.games import Game, find_game
from service.rules.hand_value import HandValue

blueprint = Blueprint("big_two", __name__, url_prefix="/v1/big-two")
GAME = find_game("big-two")
RULE_SETS: dict[str, BigTwoRules] = {r.id: r.rules for r in GAME.rule_sets}
DEFAULT: BigTwoRules = GAME.default.rules  # the house rules

# A legal game has at most 193 actions: 49 plays (the winner's 13 cards one by one, each loser shedding 12)
# and at most 3 passes after each play but the last. 200 holds every legal game and a few extra actions,
# which are answered as violations (``action_after_game_end``).
MAX_ACTIONS = 200
TABLES_KEPT = 16
"""How many tables' own rules (a request's ``rules``) are kept, the most recently used: each holds its
ladder's tables (about 0.1 MiB)."""


# --- the table's rules --------------------------------------------------------------------------------


def rule_set() -> fields.String:
    return fields.String(validate=validate.OneOf(list(RULE_SETS)))


def names(choices: list[str], most: int) -> fields.List[Any]:
    """A list of up to ``most`` of ``choices`` (a parameter's plays, suits or straights)."""
    return fields.List(fields.String(validate=validate.OneOf(choices)), validate=validate.Length(max=most))


def multiplier(**kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=validate.Range(1, MAX_MULTIPLIER), **kwargs)


class BigTwoCardsLeftTier(StrictSchema):
    at_least = StrictInteger(required=True, validate=validate.Range(0, HAND_SIZE))
    multiplier = multiplier(required=True)


class BigTwoLoserMultipliers(StrictSchema):
    cards_left = fields.List(fields.Nested(BigTwoCardsLeftTier), validate=validate.Length(1, HAND_SIZE + 1))
    per_two_held = multiplier()
    monster_held = multiplier()


class BigTwoWinnerMultipliers(StrictSchema):
    grand_slam = multiplier()
    three_of_clubs_finish = multiplier()
    per_two_finish = multiplier()
    monster_finish = multiplier()
    green_dragon_finish = multiplier()


class BigTwoTableRules(StrictSchema):
    """Any of a table's parameters, as ``BigTwoRules.describe()`` writes them (each one left out: the rule
    set's own)."""

    suit_order = fields.List(
        fields.String(validate=validate.OneOf([s.value for s in Suit])), validate=validate.Length(equal=4)
    )
    plays = names([c.value for c in (*SHORT_PLAYS, *FIVE_CARD_PLAYS)], len(SHORT_PLAYS) + len(FIVE_CARD_PLAYS))
    five_card_order = names([c.value for c in FIVE_CARD_PLAYS], len(FIVE_CARD_PLAYS))
    five_beats_lower_kind = StrictBoolean()
    monsters = names([c.value for c in MONSTER_KINDS], len(MONSTER_KINDS))
    straights = names([rank_text(run) for run in CYCLIC_RUNS], len(CYCLIC_RUNS))
    straight_suit_card = fields.String(validate=validate.OneOf([c.value for c in StraightSuitCard]))
    flush_order = fields.String(validate=validate.OneOf([o.value for o in FlushOrder]))
    dragons = StrictBoolean()
    first_play_has_lowest_card = StrictBoolean()
    pass_locks = StrictBoolean()
    loser_multipliers = fields.Nested(BigTwoLoserMultipliers)
    winner_multipliers = fields.Nested(BigTwoWinnerMultipliers)


def table_rules(body: dict[str, Any]) -> BigTwoRules:
    """The rules a loaded request asks for: its rule set (the house rules when unnamed) with its ``rules``."""
    rules = RULE_SETS[body["rule_set"]] if "rule_set" in body else DEFAULT
    described = body.get("rules")
    if described:
        rules = _described(rules, json.dumps(described, sort_keys=True, separators=(",", ":")))
    return rules


@lru_cache(maxsize=TABLES_KEPT)
def _described(rules: BigTwoRules, described: str) -> BigTwoRules:
    """A table's own rules, built once per distinct description (its ladder is built then) and kept for the
    few most recently sent; an inconsistent one is refused each time it is sent (never kept)."""
    return rules.with_description(json.loads(described))


say_rules = RulesEcho(frozenset({"rule_set", "rules"}))
names_rules = say_rules.named


# --- schemas -----------------------------------------------------------------------------------------


class BigTwoClassifyRequest(StrictSchema):
    cards = card_list(1, HAND_SIZE, required=True)
    rule_set = rule_set()
    rules = fields.Nested(BigTwoTableRules)


class BigTwoPlaysTable(StrictSchema):
    cards = card_list(1, HAND_SIZE, required=True)
    seat = StrictInteger(validate=validate.Range(0, SEATS - 1), load_default=None)


def table_field(**kwargs: Any) -> OneOfShapes:
    """The play to beat, as its cards or as ``{"cards", "seat"}`` (the seat that made it)."""
    return OneOfShapes({list: card_list(1, HAND_SIZE), dict: fields.Nested(BigTwoPlaysTable)}, **kwargs)


def table_of(table: Any) -> tuple[list[Card] | None, int | None]:
    """A loaded table's cards and seat (None for a table given as its cards, and for no table)."""
    if table is None or type(table) is list:
        return table, None
    return table["cards"], table["seat"]


class BigTwoCompareRequest(StrictSchema):
    table = table_field(required=True)
    play = card_list(1, HAND_SIZE, required=True)
    rule_set = rule_set()
    rules = fields.Nested(BigTwoTableRules)


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
    table = table_field(required=True, allow_none=True)
    action = fields.Nested(BigTwoMoveAction, required=True)
    seat = StrictInteger(validate=validate.Range(0, SEATS - 1))
    first_lead = StrictBoolean()
    passed = StrictBoolean()
    rule_set = rule_set()
    rules = fields.Nested(BigTwoTableRules)


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
    rule_set = rule_set()
    rules = fields.Nested(BigTwoTableRules)


class BigTwoRecordAction(StrictSchema):
    seat = StrictInteger(required=True, validate=validate.Range(0, SEATS - 1))
    type = action_type()
    cards = action_cards(load_default=())
    build = Action


class BigTwoGameValidateRequest(StrictSchema):
    base = StrictInteger(required=True, validate=validate.Range(1, MAX_BASE))
    hands = fields.List(card_list(HAND_SIZE, HAND_SIZE), required=True, validate=validate.Length(equal=SEATS))
    actions = fields.List(fields.Nested(BigTwoRecordAction), required=True, validate=validate.Length(max=MAX_ACTIONS))
    leader = StrictInteger(validate=validate.Range(0, SEATS - 1))
    rule_set = rule_set()
    rules = fields.Nested(BigTwoTableRules)


# plays/legal -----------------------------------------------------------------------------------------


class BigTwoPlaysLegalRequest(StrictSchema):
    hand = card_list(1, HAND_SIZE, required=True)
    table = table_field(allow_none=True, load_default=None)
    seat = StrictInteger(validate=validate.Range(0, SEATS - 1), load_default=None)
    first_lead = StrictBoolean()
    passed = StrictBoolean()
    rule_set = rule_set()
    rules = fields.Nested(BigTwoTableRules)


SCHEMAS: list[type[StrictSchema]] = [
    BigTwoCardsLeftTier, BigTwoLoserMultipliers, BigTwoWinnerMultipliers, BigTwoTableRules,
    BigTwoClassifyRequest, BigTwoCompareRequest, BigTwoMoveAction, BigTwoMoveValidateRequest, BigTwoWinner,
    BigTwoLoser, BigTwoScoreRequest, BigTwoRecordAction, BigTwoGameValidateRequest,
    BigTwoPlaysTable, BigTwoPlaysLegalRequest,
]  # fmt: skip  # a few to a line, not one schema a line
"""Every request schema, for the test that compares them with openapi.yaml (a nested one before those that
hold it: apispec names a nested schema's component when it first meets it)."""

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


def game_state(state: b2.GameState, turn_state: bool) -> dict[str, Any]:
    """The state as answered; ``turn_state``: with what the next turn's questions need where a table's rules
    make it matter (answered when the request named its rules, so that the house rules' answer is unchanged)."""
    shaped = {
        "turn": state.turn,
        "table": optional_hand(state.table),
        "table_seat": state.table_seat,
        "passes_in_row": state.passes_in_row,
        "cards_left": list(state.cards_left),
        "hands": [card_texts(hand) for hand in state.hands],
        "actions_replayed": state.actions_replayed,
    }
    if turn_state:
        shaped["first_lead"] = state.first_lead
        shaped["locked_out"] = list(state.locked_out)
    return shaped


def game_record(record: b2.GameRecord, turn_state: bool = False) -> dict[str, Any]:
    return {
        "legal": record.legal,
        "finished": record.finished,
        "violations": [violation(v) for v in record.violations],
        "state": None if record.finished else game_state(record.state, turn_state),
        "score": None if record.score is None else game_score(record.score),
    }


# --- routes ------------------------------------------------------------------------------------------

ERRORS = (*NotationProblem, *ProblemCode, *InvalidPlay)  # games/score refuses a finishing play that is no play
"""The 422 ``errors`` codes of this game's operations, besides the request schema's."""
INCONSISTENT = ProblemCode.INCONSISTENT_RULES  # a request's rules that no table can play, on every operation
TURN_STATE = [ProblemCode.FIRST_LEAD_WITH_TABLE, ProblemCode.STATE_NEEDED, ProblemCode.SEAT_NEEDED]
"""The turn's state a question about one turn leaves out or gives at odds with its table."""
RECORD_ONLY = {MoveViolation.NOT_YOUR_TURN, MoveViolation.ACTION_AFTER_GAME_END}
MOVE_VIOLATIONS = [*InvalidPlay, *(v for v in MoveViolation if v not in RECORD_ONLY)]


@blueprint.post("/plays/classify")
@rule_codes(b2.DOMAIN, violations=InvalidPlay, errors=ERRORS, rules_only=[INCONSISTENT])
def plays_classify() -> Response:
    body = load_body(_classify)
    rules = table_rules(body)
    return answer(say_rules(body, rules, classification(b2.classify(body["cards"], rules))))


@blueprint.post("/plays/compare")
@rule_codes(b2.DOMAIN, violations=InvalidPlay, errors=ERRORS, rules_only=[INCONSISTENT])
def plays_compare() -> Response:
    body = load_body(_compare)
    rules = table_rules(body)
    table, _ = table_of(body["table"])  # (who made it does not change what beats it)
    assert table is not None  # a required table, never null
    return answer(say_rules(body, rules, comparison(b2.compare(table, body["play"], rules))))


@blueprint.post("/moves/validate")
@rule_codes(
    b2.DOMAIN, violations=MOVE_VIOLATIONS, errors=ERRORS, rules_only=[INCONSISTENT, *TURN_STATE, "first_lead_hand"]
)
def moves_validate() -> Response:
    body = load_body(_move_validate)
    rules = table_rules(body)
    table, table_seat = table_of(body["table"])
    result = b2.validate_move(body["hand"], table, body["action"], rules, first_lead=body.get("first_lead"),
                              passed=body.get("passed"), table_seat=table_seat, seat=body.get("seat"))  # fmt: skip  # two lines
    return answer(say_rules(body, rules, move_result(result)))


# What only the rules decide, for a request valid against the contract (RuleCodes.rules_only): a card twice
# across lists or in two spellings (3c, 3C), whether cards make a combination, a grand slam's hands, the
# game's first lead. A joker never passes the contract's card pattern.
LAST_PLAY_FAULTS = [code for code in InvalidPlay if code is not InvalidPlay.JOKER_NOT_ALLOWED]


@blueprint.post("/games/score")
@rule_codes(
    b2.DOMAIN, errors=ERRORS, rules_only=[INCONSISTENT, "duplicate_card", "grand_slam_impossible", *LAST_PLAY_FAULTS]
)
def games_score() -> Response:
    body = load_body(_score)
    rules = table_rules(body)
    winner = body["winner"]
    score = b2.score_game(body["base"], winner["last_play"], winner["grand_slam"], body["losers"], rules)
    return answer(say_rules(body, rules, game_score(score)))


@blueprint.post("/games/validate")
@rule_codes(
    b2.DOMAIN, violations=[*InvalidPlay, *MoveViolation], errors=ERRORS, rules_only=[INCONSISTENT, "duplicate_card"]
)
def games_validate() -> Response:
    body = load_body(_game_validate)
    rules = table_rules(body)
    record = b2.validate_game(body["base"], body["hands"], body["actions"], rules, body.get("leader"))
    return answer(say_rules(body, rules, game_record(record, turn_state=names_rules(body))))


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
            rules_only=[INCONSISTENT, *TURN_STATE, "duplicate_card", "table_not_a_play", "first_lead_hand"])  # fmt: skip  # not one argument a line
def plays_legal() -> Response:
    body = load_body(_plays_legal)
    rules = table_rules(body)
    table, table_seat = table_of(body["table"])
    result = big_two_plays.list_plays(body["hand"], table, table_seat=table_seat, seat=body["seat"],
                                      first_lead=body.get("first_lead"), passed=body.get("passed"), rules=rules)  # fmt: skip  # two lines
    return answer(say_rules(body, rules, play_list(result)))


# --- the registry's hooks (service/rules/games.py): create_app and the contract tests find the game here ---


def blueprint_for(game: Game) -> Blueprint:
    """The blueprint serving ``game`` (this module serves one game)."""
    assert blueprint.name == game.blueprint, game.id
    return blueprint


def schemas_for(game: Game) -> list[type[StrictSchema]]:
    """Every request schema of ``game``, for the test that compares them with openapi.yaml."""
    return SCHEMAS
