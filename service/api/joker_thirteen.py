"""HTTP layer of Joker Thirteen (``/v1/joker-thirteen``): request schemas beside the routes they serve.

Cards here include the joker ``JK`` (any letter case); the deck holds every spade twice and 3 jokers, so
"a card twice" is not a problem by itself: the rules core counts copies against ``DECK_COPIES``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from service.api import i18n
from service.api.common import (
    CardField,
    CardList,
    StrictInteger,
    StrictSchema,
    answer,
    hand_value,
    load_body,
    rule_codes,
    violation,
)
from service.api.heavy import heavy
from service.rules import thirteen as j13
from service.rules.cards import NotationProblem, card_texts
from service.rules.games import Game, find_game
from service.rules.hand_value import HandValue
from service.rules.messages import Message
from service.rules.thirteen import (
    DUNS,
    HEAD,
    MIDDLE,
    TAIL,
    Arrangement,
    ArrangementViolation,
    Dun,
    ProblemCode,
    suggest,
)

blueprint = Blueprint("joker_thirteen", __name__, url_prefix="/v1/joker-thirteen")
RULES: j13.ThirteenRules = find_game("joker-thirteen").default.rules  # the registry's (its only rule set)

DUN_NAMES = [d.value for d in DUNS]
MAX_DUN = j13.HAND_SIZE  # arrangements/validate: a dun of the wrong size is a violation; none holds more than a hand
MAX_HAND = len(j13.GAME_DECK)  # a hand of the wrong size is a violation; no hand holds more than the deck


# --- the card lists: jokers allowed ------------------------------------------------------------------


def joker_cards(min_items: int, max_items: int, **kwargs: Any) -> CardList:
    length = (
        validate.Length(equal=min_items) if min_items == max_items else validate.Length(min=min_items, max=max_items)
    )
    return CardList(CardField(jokers=True), validate=length, **kwargs)


def dun_field() -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(DUN_NAMES))


# --- schemas -----------------------------------------------------------------------------------------


class JokerThirteenDunEvaluateRequest(StrictSchema):
    dun = dun_field()
    cards = joker_cards(3, 5, required=True)


class JokerThirteenDunCompareRequest(StrictSchema):
    dun = dun_field()
    a = joker_cards(3, 5, required=True)
    b = joker_cards(3, 5, required=True)


class JokerThirteenArrangementValidateRequest(StrictSchema):
    hand = joker_cards(0, MAX_HAND, load_default=None)
    head = joker_cards(0, MAX_DUN, required=True)
    middle = joker_cards(0, MAX_DUN, required=True)
    tail = joker_cards(0, MAX_DUN, required=True)


class JokerThirteenScoredPlayer(StrictSchema):
    head = joker_cards(Dun.HEAD.size, Dun.HEAD.size, required=True)
    middle = joker_cards(Dun.MIDDLE.size, Dun.MIDDLE.size, required=True)
    tail = joker_cards(Dun.TAIL.size, Dun.TAIL.size, required=True)
    hand = joker_cards(j13.HAND_SIZE, j13.HAND_SIZE, load_default=None)

    build = Arrangement


class JokerThirteenRoundScoreRequest(StrictSchema):
    players = fields.List(
        fields.Nested(JokerThirteenScoredPlayer), required=True, validate=validate.Length(equal=j13.PLAYERS)
    )


# --- arrangements/suggest ---


class JokerThirteenSuggestRequest(StrictSchema):
    cards = joker_cards(min(suggest.HAND_SIZES), max(suggest.HAND_SIZES), required=True)
    alternatives = StrictInteger(
        load_default=suggest.DEFAULT_ALTERNATIVES, validate=validate.Range(0, suggest.MAX_ALTERNATIVES)
    )


# --- end arrangements/suggest ---

SCHEMAS: list[type[StrictSchema]] = [
    JokerThirteenDunEvaluateRequest, JokerThirteenDunCompareRequest, JokerThirteenArrangementValidateRequest,
    JokerThirteenScoredPlayer, JokerThirteenRoundScoreRequest, JokerThirteenSuggestRequest,
]  # fmt: skip  # two lines, not one schema a line
"""Every request schema, for the test that compares them with openapi.yaml."""

_dun_evaluate = JokerThirteenDunEvaluateRequest()
_dun_compare = JokerThirteenDunCompareRequest()
_arrangement_validate = JokerThirteenArrangementValidateRequest()
_round_score = JokerThirteenRoundScoreRequest()
_suggest = JokerThirteenSuggestRequest()

# --- answers -----------------------------------------------------------------------------------------


# ``lang``: the request's language, read once per answer by the callers that answer several hands (a
# read costs more than the label it picks).


def dun_value(dun: Dun, hand: HandValue, lang: str | None = None) -> dict[str, Any]:
    """A dun's hand value (with ``resolved``: what each joker stands for) and its bonus per opponent beaten."""
    lang = lang or i18n.language()
    return {"hand": _hand_answer(hand, _LABELS.setdefault(lang, {}), lang), "bonus": j13.bonus(dun, hand, RULES)}


def _dun_answers(duns: Any, lang: str) -> dict[str, Any]:
    """``dun_hands`` of the rules' own dun values (``_hand_answer``)."""
    labels = _LABELS.setdefault(lang, {})
    return {"head": _hand_answer(duns[HEAD], labels, lang), "middle": _hand_answer(duns[MIDDLE], labels, lang),
            "tail": _hand_answer(duns[TAIL], labels, lang)}  # fmt: skip  # the three duns on two lines


def dun_hands(duns: Any, lang: str | None = None) -> dict[str, Any]:
    return {"head": hand_value(duns[HEAD], lang), "middle": hand_value(duns[MIDDLE], lang),
            "tail": hand_value(duns[TAIL], lang)}  # fmt: skip  # the three duns on two lines


def arrangement_result(result: j13.ArrangementResult) -> dict[str, Any]:
    return {
        "legal": result.legal,
        "violations": [violation(v) for v in result.violations],
        "duns": None if result.duns is None else _dun_answers(result.duns, i18n.language()),
        "discarded": None if result.discarded is None else card_texts(result.discarded),
    }


_LABELS: dict[str, dict[Message, str]] = {}
"""Per language, each label's text, filled as asked (the game's 14 labels)."""


def _hand_answer(hand: HandValue, labels: dict[Message, str], lang: str) -> dict[str, Any]:
    """``hand_value(hand, lang)`` for a dun's value (its ``resolved`` never None), built in one expression
    (``labels``: ``_LABELS[lang]``): the strength tuple goes to orjson as it is (written as an array)."""
    category, label, strength, cards, resolved = hand
    if resolved is None:  # never from this game's rules; hand_value leaves the key out
        return hand_value(hand, lang)
    text = labels.get(label)
    if text is None:
        text = labels[label] = i18n.label(hand, lang)
    # The duns' sizes spelled out: a list display costs a quarter of a comprehension over five cards.
    if len(cards) == 5:
        a, b, c, d, e = cards
        texts = [a.text, b.text, c.text, d.text, e.text]
    elif len(cards) == 3:
        a, b, c = cards
        texts = [a.text, b.text, c.text]
    else:
        texts = [c.text for c in cards]
    return {"category": category, "label": text, "strength": strength, "cards": texts,
            "resolved": [c.text for c in resolved] if resolved else []}  # fmt: skip  # five fields on two lines


def round_score(score: j13.RoundScore) -> dict[str, Any]:
    """Every player's score and every pair's matchup, each unpacked in one loop (no call per player or
    pair, each NamedTuple read by position; a matchup's ``duns`` is answered as the rules built it: head,
    middle, tail)."""
    lang = i18n.language()
    labels = _LABELS.setdefault(lang, {})
    value = _hand_answer
    players = [
        {
            "seat": seat, "total": total, "shots": shots, "home_run": home_run, "bonus": bonus,
            "duns": {"head": value(duns[HEAD], labels, lang), "middle": value(duns[MIDDLE], labels, lang),
                     "tail": value(duns[TAIL], labels, lang)},
        }
        for seat, total, shots, home_run, bonus, duns in score.players
    ]  # fmt: skip  # a player's fields on one line, its three duns on two
    matchups = [
        {
            "a": a, "b": b, "duns": duns, "shot": shot, "bonus_a": bonus_a, "bonus_b": bonus_b,
            "points_a": points_a,
        }
        for a, b, duns, shot, bonus_a, bonus_b, points_a in score.matchups
    ]  # fmt: skip  # a matchup's seven fields on two lines, not one a line
    return {"players": players, "matchups": matchups}


# --- routes ------------------------------------------------------------------------------------------

ERRORS = (*NotationProblem, *ProblemCode, *ArrangementViolation)  # rounds/score refuses what validate answers
"""The 422 ``errors`` codes of this game's operations, besides the request schema's."""


# What only the rules decide, for a request valid against the contract (RuleCodes.rules_only): a dun's size
# depends on the dun named, and the deck holds some cards more than once (the spades twice, three jokers),
# so no list can be a set in the contract; where the cards come from (the hand) and 相公 are rules.
@blueprint.post("/duns/evaluate")
@rule_codes(
    j13.DOMAIN, errors=ERRORS, rules_only=["duplicate_card", "wrong_head_size", "wrong_middle_size", "wrong_tail_size"]
)
def duns_evaluate() -> Response:
    body = load_body(_dun_evaluate)
    dun = Dun(body["dun"])
    return answer(dun_value(dun, j13.evaluate_dun(dun, body["cards"])))


@blueprint.post("/duns/compare")
@rule_codes(
    j13.DOMAIN, errors=ERRORS, rules_only=["duplicate_card", "wrong_head_size", "wrong_middle_size", "wrong_tail_size"]
)
def duns_compare() -> Response:
    body = load_body(_dun_compare)
    dun = Dun(body["dun"])
    result, a, b = j13.compare_duns(dun, body["a"], body["b"])
    lang = i18n.language()
    return answer({"winner": result, "a": dun_value(dun, a, lang), "b": dun_value(dun, b, lang)})


@blueprint.post("/arrangements/validate")
@rule_codes(j13.DOMAIN, violations=ArrangementViolation, errors=ERRORS)
def arrangements_validate() -> Response:
    body = load_body(_arrangement_validate)
    return answer(
        arrangement_result(j13.validate_arrangement(body["head"], body["middle"], body["tail"], body["hand"]))
    )


@blueprint.post("/rounds/score")
@rule_codes(j13.DOMAIN, errors=ERRORS, rules_only=["too_many_copies", "card_not_in_hand", "card_used_twice", "head_not_below_middle",
                                                   "middle_above_tail"])  # fmt: skip  # not one argument a line
def rounds_score() -> Response:
    body = load_body(_round_score)
    return answer(round_score(j13.score_round(body["players"], RULES)))


# --- the registry's hooks (service/rules/games.py): create_app and the contract tests find the game here ---


def blueprint_for(game: Game) -> Blueprint:
    """The blueprint serving ``game`` (this module serves one game)."""
    assert blueprint.name == game.blueprint, game.id
    return blueprint


def schemas_for(game: Game) -> list[type[StrictSchema]]:
    """Every request schema of ``game``, for the test that compares them with openapi.yaml."""
    return SCHEMAS


# --- arrangements/suggest ---


def _probability(x: float) -> float:
    return round(x, 6)


def suggestion(s: suggest.Suggestion) -> dict[str, Any]:
    return {
        "head": card_texts(s.head), "middle": card_texts(s.middle), "tail": card_texts(s.tail),
        "discarded": card_texts(s.discarded),
        "duns": dun_hands(s.duns),
        "expected_value": round(s.expected_value, 6),
        "win": {d.value: _probability(s.win[d]) for d in DUNS},
        "tie": {d.value: _probability(s.tie[d]) for d in DUNS},
        "expected_bonus": {d.value: round(s.expected_bonus[d], 6) for d in DUNS},
        "shoot": _probability(s.shoot),
        "shot": _probability(s.shot),
    }  # fmt: skip  # the three duns' cards on one line


@blueprint.post("/arrangements/suggest")
@rule_codes(j13.DOMAIN, errors=(*ERRORS, *suggest.SuggestProblem), rules_only=["duplicate_card", "suggest_hand_size"])
@heavy
def arrangements_suggest() -> Response:
    body = load_body(_suggest)
    suggest.check_hand(body["cards"])
    result = suggest.suggest(body["cards"], body["alternatives"])
    return answer({
        "proven_optimal": True,
        "opponent": {"deals": result.deals, "seed": suggest.opponent_tables().seed},
        "best": suggestion(result.best),
        "alternatives": [suggestion(a) for a in result.alternatives],
    })  # fmt: skip  # the answer's fields one a line, without another level of brackets


# --- end arrangements/suggest ---
