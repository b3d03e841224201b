"""HTTP layer of the Thirteen games (``/v1/joker-thirteen``, ``/v1/thirteen``): each game's request schemas
(``request_schemas``, built from its deck and its rule sets), the answers' shapes and its routes
(``make_blueprint``), in the shape of every game's module (``service/api/games.py``).

Joker Thirteen's cards include the joker ``JK`` (any letter case) and its deck holds every spade twice and 3
jokers, so "a card twice" is not a problem by itself: the rules core counts copies against the deck. Ordinary
十三支 is dealt from one 52-card deck: its lists that must be sets are marked so in the contract, and a card
twice there is the 52-card games' ``duplicate_card``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from marshmallow import fields, validate

from service.api import i18n
from service.api.common import (
    CardField,
    CardList,
    StrictInteger,
    StrictSchema,
    hand_value,
    rule_codes,
    violation,
)
from service.api.games import Operations, RuleChoice, Schemas, rule_set_field, table_rules_schema
from service.api.schema import length
from service.rules import thirteen as j13
from service.rules.cards import NotationProblem, card_texts
from service.rules.errors import InvalidInputError
from service.rules.games import Game
from service.rules.hand_value import HandValue
from service.rules.messages import Message
from service.rules.thirteen import (
    DUNS,
    HEAD,
    MIDDLE,
    SPECIAL_LABELS,
    SPECIALS,
    TAIL,
    Arrangement,
    ArrangementViolation,
    Dun,
    ProblemCode,
    Special,
    ThirteenDeck,
    ThirteenRules,
    specials_of,
    suggest,
)
from service.rules.thirteen.scoring import Parts

DUN_NAMES = [d.value for d in DUNS]

# --- schemas of one game: its deck bounds the card lists ---------------------------------------------


def dun_field() -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(DUN_NAMES))


def _bonus_keys(game: Game, *duns: Dun) -> list[str]:
    """The bonuses of ``duns`` a request may set: every category the game's rule sets pay in any of them, in
    the order they list them."""
    keys = [c.value for r in game.rule_sets for d, c in r.rules.bonus if d in duns]
    return list(dict.fromkeys(keys))


def bonus_schemas(game: Game, schemas: Schemas) -> type[StrictSchema]:
    """The game's bonus tables: each dun's table replaced whole (a category it leaves out pays nothing), each
    bonus an integer 0-100, as OFC's royalties; a dun left out keeps the rule set's. The categories are those
    any of the game's rule sets pays in the dun (the middle and the tail share one table's shape)."""

    def table(name: str, *duns: Dun) -> type[StrictSchema]:
        points = validate.Range(0, j13.BONUS_MAX)
        return schemas.add(name, **{key: StrictInteger(validate=points) for key in _bonus_keys(game, *duns)})

    head, five = table("HeadBonuses", HEAD), table("FiveCardBonuses", MIDDLE, TAIL)
    return schemas.add("Bonuses", head=fields.Nested(head), middle=fields.Nested(five), tail=fields.Nested(five))


def request_schemas(game: Game) -> Schemas:
    """Every request schema of ``game``, its deck bounding the card lists, each with its rules: ``rule_set``,
    ``rules`` (the table's scoring, compiled from ``ThirteenRules``' declarations) and, where the rules score
    or value a dun, ``bonuses``. Where the deck can make special hands (one 52-card deck), a scored player may
    declare one, and a hand's specials may be asked for."""
    schemas = Schemas(game)
    deck: ThirteenDeck = game.default.rules.deck
    jokers = game.deck.jokers > 0

    def cards(low: int, high: int, **kwargs: Any) -> CardList:
        return CardList(CardField(jokers=jokers), validate=length(low, high), **kwargs)

    bonuses = bonus_schemas(game, schemas)
    table = table_rules_schema(schemas, ThirteenRules)

    def rules(*, scored: bool = True) -> dict[str, Any]:
        named = {"rule_set": rule_set_field(game), "rules": fields.Nested(table)}
        return named | {"bonuses": fields.Nested(bonuses)} if scored else named

    sizes = suggest.hand_sizes(deck)
    head, middle, tail = Dun.HEAD.size, Dun.MIDDLE.size, Dun.TAIL.size
    schemas.add("DunEvaluateRequest", dun=dun_field(), cards=cards(3, 5, required=True), **rules())
    schemas.add(
        "DunCompareRequest", dun=dun_field(), a=cards(3, 5, required=True), b=cards(3, 5, required=True), **rules()
    )
    # a dun or a hand of the wrong size is a violation: no dun holds more than a deal, no hand more than the deck
    schemas.add(
        "ArrangementValidateRequest",
        hand=cards(0, len(deck.cards), load_default=None),
        head=cards(0, deck.hand_size, required=True),
        middle=cards(0, deck.hand_size, required=True),
        tail=cards(0, deck.hand_size, required=True),
        **rules(scored=False),
    )
    declare = {"declare": fields.String(validate=validate.OneOf(SPECIALS))} if deck.distinct else {}
    scored_player = schemas.add(
        "ScoredPlayer",
        Arrangement,
        head=cards(head, head, required=True),
        middle=cards(middle, middle, required=True),
        tail=cards(tail, tail, required=True),
        hand=cards(deck.hand_size, deck.hand_size, load_default=None),
        **declare,
    )
    players = fields.List(fields.Nested(scored_player), required=True, validate=validate.Length(equal=j13.PLAYERS))
    schemas.add("RoundScoreRequest", players=players, **rules())
    alternatives = StrictInteger(
        load_default=suggest.DEFAULT_ALTERNATIVES, validate=validate.Range(0, suggest.MAX_ALTERNATIVES)
    )
    schemas.add(
        "SuggestRequest", cards=cards(min(sizes), max(sizes), required=True), alternatives=alternatives, **rules()
    )
    if deck.distinct:
        schemas.add("SpecialsRequest", cards=cards(j13.SET_CARDS, j13.SET_CARDS, required=True), **rules(scored=False))
    return schemas


# --- answers -----------------------------------------------------------------------------------------


# ``lang``: the request's language, read once per answer by the callers that answer several hands (a
# read costs more than the label it picks).


def dun_value(dun: Dun, hand: HandValue, rules: ThirteenRules, lang: str | None = None) -> dict[str, Any]:
    """A dun's hand value (with ``resolved``: what each joker stands for) and its bonus per opponent beaten."""
    lang = lang or i18n.language()
    return {"hand": _hand_answer(hand, _LABELS.setdefault(lang, {}), lang), "bonus": j13.bonus(dun, hand, rules)}


def dun_hands(duns: Any, lang: str) -> dict[str, Any]:
    """The three duns' hand values (``_hand_answer``), by dun."""
    labels = _LABELS.setdefault(lang, {})
    return {
        "head": _hand_answer(duns[HEAD], labels, lang),
        "middle": _hand_answer(duns[MIDDLE], labels, lang),
        "tail": _hand_answer(duns[TAIL], labels, lang),
    }


def arrangement_result(result: j13.ArrangementResult) -> dict[str, Any]:
    return {
        "legal": result.legal,
        "violations": [violation(v) for v in result.violations],
        "duns": None if result.duns is None else dun_hands(result.duns, i18n.language()),
        "discarded": None if result.discarded is None else card_texts(result.discarded),
    }


def special_hand(special: Special, rules: ThirteenRules, lang: str) -> dict[str, Any]:
    """A special hand: its code, its name and what the table pays for it (null: nothing)."""
    return {
        "special": special.value,
        "name": i18n.message(SPECIAL_LABELS[special], lang),
        "points": rules.specials.get(special),
    }


def paid_specials(cards: list[Any], rules: ThirteenRules) -> list[dict[str, Any]] | None:
    """The specials 13 placed cards make that the table pays, highest first; None unless they are 13
    distinct cards of the 52 (a special is a property of exactly those)."""
    try:
        made = specials_of(cards)
    except InvalidInputError:
        return None
    lang = i18n.language()
    return [special_hand(s, rules, lang) for s in made if s in rules.specials]


def specials_answer(cards: list[Any], rules: ThirteenRules) -> dict[str, Any]:
    """Every special the 13 cards make, highest first, each with what the table pays, and the one the table
    scores them by (its highest paid one: what ``automatic`` scores, the best a player may declare)."""
    made = specials_of(cards)
    lang = i18n.language()
    scored = j13.scored_special(made, rules.specials)
    return {
        "specials": [special_hand(s, rules, lang) for s in made],
        "scored_by": None if scored is None else special_hand(scored, rules, lang),
    }


_LABELS: dict[str, dict[Message, str]] = {}
"""Per language, each label's text, filled as asked (the games' 14 labels)."""


def _hand_answer(hand: HandValue, labels: dict[Message, str], lang: str) -> dict[str, Any]:
    """``hand_value(hand, lang)`` for a dun's value (its ``resolved`` never None), built in one expression
    (``labels``: ``_LABELS[lang]``): the strength tuple goes to orjson as it is (written as an array)."""
    category, label, strength, cards, resolved = hand
    if resolved is None:  # never from these games' rules; hand_value leaves the key out
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
    return {
        "category": category,
        "label": text,
        "strength": strength,
        "cards": texts,
        "resolved": [c.text for c in resolved] if resolved else [],
    }


def round_score(score: j13.RoundScore, rules: ThirteenRules, detailed: bool) -> dict[str, Any]:
    """Every player's score and every pair's matchup, each answer built in one display (no call per player
    or pair but its duns' values; a matchup's ``duns`` is answered as the rules built it: head, middle,
    tail). A house table's answer is the answer it always was; ``detailed`` (a table scoring beyond the
    house book's) adds why: each player's special, foul, sweeps (a tuple: orjson writes it as an array), home
    run and parts, and each pair's parts."""
    lang = i18n.language()
    labels = _LABELS.setdefault(lang, {})
    value = _hand_answer
    players: list[dict[str, Any]]
    matchups: list[dict[str, Any]]
    if not detailed:
        players = [
            {"seat": p.seat, "total": p.total, "shots": p.shots, "home_run": p.home_run, "bonus": p.bonus,
             "duns": {"head": value(p.duns[HEAD], labels, lang), "middle": value(p.duns[MIDDLE], labels, lang),
                      "tail": value(p.duns[TAIL], labels, lang)}}
            for p in score.players
        ]  # fmt: skip  # a player's fields on one line, its three duns on two (as below)
        matchups = [
            {"a": m.a, "b": m.b, "duns": m.duns, "shot": m.shot, "bonus_a": m.bonus_a, "bonus_b": m.bonus_b,
             "points_a": m.points_a}
            for m in score.matchups
        ]  # fmt: skip  # a matchup's seven fields on two lines (as below)
        return {"players": players, "matchups": matchups}
    players = [
        {"seat": p.seat, "total": p.total, "shots": p.shots, "home_run": p.home_run, "bonus": p.bonus,
         "duns": {"head": value(p.duns[HEAD], labels, lang), "middle": value(p.duns[MIDDLE], labels, lang),
                  "tail": value(p.duns[TAIL], labels, lang)},
         "special": None if p.special is None else special_hand(p.special, rules, lang), "fouled": p.fouled,
         "swept": p.swept, "made_home_run": p.made_home_run, "parts": parts(p.parts)}
        for p in score.players
    ]  # fmt: skip  # the house answer's lines (above), then why
    matchups = [
        {"a": m.a, "b": m.b, "duns": m.duns, "shot": m.shot, "bonus_a": m.bonus_a, "bonus_b": m.bonus_b,
         "points_a": m.points_a, "parts_a": parts(m.parts_a), "total_a": sum(m.parts_a)}
        for m in score.matchups
    ]  # fmt: skip  # the house answer's lines (above), then why
    return {"players": players, "matchups": matchups}


def parts(found: Parts) -> dict[str, int]:
    """The parts of a total, as an answer names them."""
    duns, bonuses, majority, sweep, home_run, specials = found
    return {"duns": duns, "bonuses": bonuses, "majority": majority, "sweep": sweep, "home_run": home_run,
            "specials": specials}  # fmt: skip  # ``Parts``' six, in its order


def _probability(x: float) -> float:
    return round(x, 6)


def suggestion(s: suggest.Suggestion) -> dict[str, Any]:
    return {
        "head": card_texts(s.head),
        "middle": card_texts(s.middle),
        "tail": card_texts(s.tail),
        "discarded": card_texts(s.discarded),
        "duns": dun_hands(s.duns, i18n.language()),
        "expected_value": round(s.expected_value, 6),
        "win": {d.value: _probability(s.win[d]) for d in DUNS},
        "tie": {d.value: _probability(s.tie[d]) for d in DUNS},
        "expected_bonus": {d.value: round(s.expected_bonus[d], 6) for d in DUNS},
        "shoot": _probability(s.shoot),
        "shot": _probability(s.shot),
    }


def special_suggestion(choice: suggest.SpecialChoice, rules: ThirteenRules) -> dict[str, Any]:
    """The special a suggested hand is scored by, or may declare, with its expected value beside the best
    arrangement's, and whether it is the better choice."""
    return special_hand(choice.special, rules, i18n.language()) | {
        "expected_value": round(choice.expected_value, 6),
        "declared_by": choice.declared_by,
        "recommended": choice.recommended,
    }


# --- routes ------------------------------------------------------------------------------------------

ERRORS = (*NotationProblem, *ProblemCode, *ArrangementViolation)  # rounds/score refuses what validate answers
"""The 422 ``errors`` codes of these games' operations, besides the request schema's."""
# What only the rules decide, for a request valid against the contract (``RuleCodes.rules_only``): a dun's
# size depends on the dun named; a card beyond the deck's copies (a deck holding some cards more than once has
# no list that is a set in the contract; a set of strings may spell one card twice, ``As`` and ``A♠``; and
# across a table's players no list holds them all); where the cards come from (the hand) and 相公 are rules;
# so is a table's scoring that cannot be played (ruling 13) and a declaration the table does not take.
INCONSISTENT = ProblemCode.INCONSISTENT_RULES.value
DUN_SIZES = ["wrong_head_size", "wrong_middle_size", "wrong_tail_size"]
DUN_CODES = rule_codes(j13.DOMAIN, errors=ERRORS, rules_only=[INCONSISTENT, "duplicate_card", *DUN_SIZES])
ARRANGEMENT_CODES = rule_codes(j13.DOMAIN, violations=ArrangementViolation, errors=ERRORS, rules_only=[INCONSISTENT])
ROUND_ONLY = [INCONSISTENT, "card_not_in_hand", "head_not_below_middle", "middle_above_tail", "declaration"]
COPIES_ONLY = ["too_many_copies", "card_used_twice"]  # a deck holding some cards more than once: named as copies
SPECIALS_CODES = rule_codes(j13.DOMAIN, errors=ERRORS, rules_only=[INCONSISTENT, "duplicate_card"])
SUGGEST_CODES = rule_codes(
    j13.DOMAIN,
    errors=(*ERRORS, *suggest.SuggestProblem),
    rules_only=[INCONSISTENT, "duplicate_card", "suggest_hand_size"],
)


def table_rules(rules: ThirteenRules, own: dict[str, Any]) -> ThirteenRules:
    """The rule set with a request's ``rules`` (its table's scoring) and ``bonuses`` (its bonus tables)."""
    return rules.with_description(own.get("rules", {})).with_bonuses(own.get("bonuses", {}))


def make_blueprint(game: Game, schemas: Schemas) -> Blueprint:
    """The five operations of a Thirteen game, under its base path."""
    bp = Blueprint(game.blueprint, __name__, url_prefix=game.base_path)
    choice = RuleChoice(game, ("rules", "bonuses"), table_rules)
    operation = Operations(bp, choice)
    copies = [] if game.default.rules.deck.distinct else COPIES_ONLY  # else each is a duplicate_card
    round_codes = rule_codes(j13.DOMAIN, errors=ERRORS, rules_only=["duplicate_card", *copies, *ROUND_ONLY])

    @operation("/duns/evaluate", schemas["DunEvaluateRequest"], DUN_CODES)
    def duns_evaluate(body: dict[str, Any], rules: ThirteenRules) -> dict[str, Any]:
        dun = Dun(body["dun"])
        return dun_value(dun, j13.evaluate_dun(dun, body["cards"], deck=rules.deck), rules)

    @operation("/duns/compare", schemas["DunCompareRequest"], DUN_CODES)
    def duns_compare(body: dict[str, Any], rules: ThirteenRules) -> dict[str, Any]:
        dun = Dun(body["dun"])
        result, a, b = j13.compare_duns(dun, body["a"], body["b"], rules.deck)
        lang = i18n.language()
        return {"winner": result, "a": dun_value(dun, a, rules, lang), "b": dun_value(dun, b, rules, lang)}

    @operation("/arrangements/validate", schemas["ArrangementValidateRequest"], ARRANGEMENT_CODES)
    def arrangements_validate(body: dict[str, Any], rules: ThirteenRules) -> dict[str, Any]:
        head, middle, tail = body["head"], body["middle"], body["tail"]
        answer = arrangement_result(j13.validate_arrangement(head, middle, tail, body["hand"], rules.deck))
        if not rules.house_scored and rules.deck.distinct:  # the specials it makes that the table pays
            answer["specials"] = paid_specials([*head, *middle, *tail], rules)
        return answer

    @operation("/rounds/score", schemas["RoundScoreRequest"], round_codes)
    def rounds_score(body: dict[str, Any], rules: ThirteenRules) -> dict[str, Any]:
        return round_score(j13.score_round(body["players"], rules), rules, not rules.house_scored)

    if "SpecialsRequest" in schemas:

        @operation("/hands/specials", schemas["SpecialsRequest"], SPECIALS_CODES)
        def hands_specials(body: dict[str, Any], rules: ThirteenRules) -> dict[str, Any]:
            return specials_answer(body["cards"], rules)

    @operation("/arrangements/suggest", schemas["SuggestRequest"], SUGGEST_CODES, heavy=True)
    def arrangements_suggest(body: dict[str, Any], rules: ThirteenRules) -> dict[str, Any]:
        suggest.check_hand(body["cards"], rules.deck)
        result = suggest.suggest(body["cards"], body["alternatives"], rules=rules)
        answer = {
            "proven_optimal": True,
            "opponent": {"deals": result.deals, "seed": suggest.opponent_tables(rules).seed},
            "best": suggestion(result.best),
            "alternatives": [suggestion(a) for a in result.alternatives],
        }
        if rules.specials:  # a table paying special hands: whether this one is scored, or worth declaring, as one
            answer["special"] = None if result.special is None else special_suggestion(result.special, rules)
        return answer

    return bp
