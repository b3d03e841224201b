"""HTTP layer of Big Two (``/v1/big-two``): its request schemas (``request_schemas``), the answers' shapes and
its routes (``make_blueprint``), in the shape of every game's module (``service/api/games.py``).

Every operation takes the table's rules: ``rule_set`` names a declared set (absent: the house rules,
``taiwan``) and ``rules`` replaces any of its parameters, written as ``GET /v1/games`` lists them
(``BigTwoRules.with_description``). An answer to a request that names either says which rules it applied
(``rule_set`` and ``rules_digest``); an answer to one that names neither is the house rules' as before.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import Blueprint
from marshmallow import fields, validate

from service.api import i18n
from service.api.common import (
    CardList,
    OneOfShapes,
    StrictBoolean,
    StrictInteger,
    card_list,
    hand_value,
    rule_codes,
    violation,
)
from service.api.games import Operations, RuleChoice, Schemas, rule_set_field, table_rules_schema
from service.rules import big_two as b2
from service.rules.big_two import (
    HAND_SIZE,
    SEATS,
    Action,
    ActionType,
    BigTwoRules,
    InvalidPlay,
    MoveViolation,
    ProblemCode,
)
from service.rules.big_two import plays as big_two_plays
from service.rules.big_two.rules import MAX_BASE
from service.rules.cards import Card, NotationProblem, card_texts
from service.rules.games import Game
from service.rules.hand_value import HandValue

# A legal game has at most 193 actions: 49 plays (the winner's 13 cards one by one, each loser shedding 12)
# and at most 3 passes after each play but the last. 200 holds every legal game and a few extra actions,
# which are answered as violations (``action_after_game_end``).
MAX_ACTIONS = 200


# --- schemas -----------------------------------------------------------------------------------------


def table_field(schemas: Schemas, **kwargs: Any) -> OneOfShapes:
    """The play to beat, as its cards or as ``{"cards", "seat"}`` (the seat that made it)."""
    return OneOfShapes({list: card_list(1, HAND_SIZE), dict: fields.Nested(schemas["PlaysTable"])}, **kwargs)


def table_of(table: Any) -> tuple[list[Card] | None, int | None]:
    """A loaded table's cards and seat (None for a table given as its cards, and for no table)."""
    if table is None or type(table) is list:
        return table, None
    return table["cards"], table["seat"]


def action_cards(**kwargs: Any) -> CardList:
    """An action's cards, as a tuple (as ``Action`` holds them)."""
    return card_list(0, HAND_SIZE, container=tuple, **kwargs)


def action_type() -> fields.Enum[ActionType]:
    """An action's type, "play" or "pass", read as its ``ActionType``."""
    return fields.Enum(ActionType, by_value=fields.String, required=True)


def _loser_cards(cards: list[Card]) -> list[Card]:
    """A loser as the rules take it: its cards."""
    return cards


def request_schemas(game: Game) -> Schemas:
    """Every request schema of Big Two, each with the table's rules: ``rule_set`` and ``rules``."""
    schemas = Schemas(game)
    table_rules = table_rules_schema(schemas, BigTwoRules)

    def rules() -> dict[str, Any]:
        return {"rule_set": rule_set_field(game), "rules": fields.Nested(table_rules)}

    seat = validate.Range(0, SEATS - 1)
    base = validate.Range(1, MAX_BASE)
    schemas.add("ClassifyRequest", cards=card_list(1, HAND_SIZE, required=True), **rules())
    schemas.add(
        "PlaysTable", cards=card_list(1, HAND_SIZE, required=True), seat=StrictInteger(validate=seat, load_default=None)
    )
    schemas.add(
        "CompareRequest",
        table=table_field(schemas, required=True),
        play=card_list(1, HAND_SIZE, required=True),
        **rules(),
    )
    move_action = schemas.add("MoveAction", Action, type=action_type(), cards=action_cards(load_default=()))
    schemas.add(
        "MoveValidateRequest",
        hand=card_list(1, HAND_SIZE, required=True),
        table=table_field(schemas, required=True, allow_none=True),
        action=fields.Nested(move_action, required=True),
        seat=StrictInteger(validate=seat),
        first_lead=StrictBoolean(),
        passed=StrictBoolean(),
        **rules(),
    )
    winner = schemas.add(
        "Winner", last_play=card_list(1, HAND_SIZE, required=True), grand_slam=StrictBoolean(required=True)
    )
    loser = schemas.add("Loser", _loser_cards, cards=card_list(1, HAND_SIZE, required=True))
    schemas.add(
        "ScoreRequest",
        base=StrictInteger(required=True, validate=base),
        winner=fields.Nested(winner, required=True),
        losers=fields.List(fields.Nested(loser), required=True, validate=validate.Length(equal=SEATS - 1)),
        **rules(),
    )
    record_action = schemas.add(
        "RecordAction",
        Action,
        seat=StrictInteger(required=True, validate=seat),
        type=action_type(),
        cards=action_cards(load_default=()),
    )
    schemas.add(
        "GameValidateRequest",
        base=StrictInteger(required=True, validate=base),
        hands=fields.List(card_list(HAND_SIZE, HAND_SIZE), required=True, validate=validate.Length(equal=SEATS)),
        actions=fields.List(fields.Nested(record_action), required=True, validate=validate.Length(max=MAX_ACTIONS)),
        leader=StrictInteger(validate=seat),
        **rules(),
    )
    schemas.add(
        "PlaysLegalRequest",
        hand=card_list(1, HAND_SIZE, required=True),
        table=table_field(schemas, allow_none=True, load_default=None),
        seat=StrictInteger(validate=seat, load_default=None),
        first_lead=StrictBoolean(),
        passed=StrictBoolean(),
        **rules(),
    )
    return schemas


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


# What only the rules decide, for a request valid against the contract (RuleCodes.rules_only): a card twice
# across lists or in two spellings (3c, 3C), whether cards make a combination, a grand slam's hands, the
# game's first lead. A joker never passes the contract's card pattern.
LAST_PLAY_FAULTS = [code for code in InvalidPlay if code is not InvalidPlay.JOKER_NOT_ALLOWED]
# What each operation answers besides its schema's own 422s (docs/errors.md is generated from these).
PLAY_CODES = rule_codes(b2.DOMAIN, violations=InvalidPlay, errors=ERRORS, rules_only=[INCONSISTENT])
MOVE_CODES = rule_codes(
    b2.DOMAIN, violations=MOVE_VIOLATIONS, errors=ERRORS, rules_only=[INCONSISTENT, *TURN_STATE, "first_lead_hand"]
)
SCORE_CODES = rule_codes(
    b2.DOMAIN, errors=ERRORS, rules_only=[INCONSISTENT, "duplicate_card", "grand_slam_impossible", *LAST_PLAY_FAULTS]
)
RECORD_CODES = rule_codes(
    b2.DOMAIN, violations=[*InvalidPlay, *MoveViolation], errors=ERRORS, rules_only=[INCONSISTENT, "duplicate_card"]
)
LEGAL_CODES = rule_codes(
    b2.DOMAIN,
    errors=(*ERRORS, *big_two_plays.PlaysProblem),
    rules_only=[INCONSISTENT, *TURN_STATE, "duplicate_card", "table_not_a_play", "first_lead_hand"],
)


def turn(body: dict[str, Any]) -> dict[str, Any]:
    """What a question about one turn says of it (each left out: None)."""
    return {"seat": body.get("seat"), "first_lead": body.get("first_lead"), "passed": body.get("passed")}


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


def _table_rules(rules: BigTwoRules, own: dict[str, Any]) -> BigTwoRules:
    """The rule set with a request's ``rules`` (its table's parameters)."""
    return rules.with_description(own["rules"])


def make_blueprint(game: Game, schemas: Schemas) -> Blueprint:
    """The six operations of Big Two, each at the table's rules a request names."""
    bp = Blueprint(game.blueprint, __name__, url_prefix=game.base_path)
    choice = RuleChoice(game, ("rules",), _table_rules)
    operation = Operations(bp, choice)

    @operation("/plays/classify", schemas["ClassifyRequest"], PLAY_CODES)
    def plays_classify(body: dict[str, Any], rules: BigTwoRules) -> dict[str, Any]:
        return classification(b2.classify(body["cards"], rules))

    @operation("/plays/compare", schemas["CompareRequest"], PLAY_CODES)
    def plays_compare(body: dict[str, Any], rules: BigTwoRules) -> dict[str, Any]:
        table, _ = table_of(body["table"])  # (who made it does not change what beats it)
        assert table is not None  # a required table, never null
        return comparison(b2.compare(table, body["play"], rules))

    @operation("/moves/validate", schemas["MoveValidateRequest"], MOVE_CODES)
    def moves_validate(body: dict[str, Any], rules: BigTwoRules) -> dict[str, Any]:
        table, table_seat = table_of(body["table"])
        result = b2.validate_move(body["hand"], table, body["action"], rules, table_seat=table_seat, **turn(body))
        return move_result(result)

    @operation("/games/score", schemas["ScoreRequest"], SCORE_CODES)
    def games_score(body: dict[str, Any], rules: BigTwoRules) -> dict[str, Any]:
        winner = body["winner"]
        return game_score(b2.score_game(body["base"], winner["last_play"], winner["grand_slam"], body["losers"], rules))

    @operation("/games/validate", schemas["GameValidateRequest"], RECORD_CODES)
    def games_validate(body: dict[str, Any], rules: BigTwoRules) -> dict[str, Any]:
        record = b2.validate_game(body["base"], body["hands"], body["actions"], rules, body.get("leader"))
        return game_record(record, turn_state=choice.named(body))

    @operation("/plays/legal", schemas["PlaysLegalRequest"], LEGAL_CODES)
    def plays_legal(body: dict[str, Any], rules: BigTwoRules) -> dict[str, Any]:
        table, table_seat = table_of(body["table"])
        return play_list(
            big_two_plays.list_plays(body["hand"], table, table_seat=table_seat, rules=rules, **turn(body))
        )

    return bp
