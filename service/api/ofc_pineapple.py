"""HTTP layer of the Open-Face Chinese games of the registry (``/v1/ofc-pineapple``, ``/v1/ofc-classic``): each
game's request schemas (``request_schemas``, built from its rule sets), the answers' shapes and its routes
(``make_blueprint``), in the shape of every game's module (``service/api/games.py``).

A request may name its rule set (``"rule_set"``, absent = the game's default, the first it lists) and, where
it scores or evaluates, replace royalty tables (``"royalties"``). An answer to a request that named either
says which rules it applied: ``rule_set`` and ``rules_digest`` (``OfcRules.digest``). An answer to a request
that named neither is exactly what it was before rule sets existed.
"""

from __future__ import annotations

from typing import Any, cast

from flask import Blueprint
from marshmallow import fields, validate

from service.api import texts
from service.api.common import (
    StrictBoolean,
    StrictInteger,
    card_list,
    hand_value,
    rule_codes,
    violation,
)
from service.api.games import Operations, RuleChoice, Schemas, rule_set_field
from service.api.schema import CardList, ExactValues, ListBoundBy
from service.rules import ofc
from service.rules.cards import DECK, NotationProblem, card_texts
from service.rules.games import GAMES, Game
from service.rules.hand_value import HandValue
from service.rules.messages import Message
from service.rules.ofc import BOTTOM, MIDDLE, ROWS, TOP, Board, Fantasyland, MoveViolation, ProblemCode, fantasyland
from service.rules.ofc import moves as ofc_moves
from service.rules.ofc import outlook as ofc_outlook
from service.rules.ofc.rules import FIVE_CARD_CATEGORIES, ROYALTY_MAX, TOP_HANDS, OfcRules

ROW_NAMES = [r.value for r in ROWS]
ROW_BY_NAME = {r.value: r for r in ROWS}  # a dict look-up: Row(name) goes through the Enum machinery, slower
OFC_RULES = [r.rules for game in GAMES for r in game.rule_sets if isinstance(r.rules, OfcRules)]
FANTASYLAND_SIZES = sorted({size for rules in OFC_RULES for size in rules.fantasyland_sizes})
MAX_DEALT = max(FANTASYLAND_SIZES)
MAX_ACTIONS = 64  # a hand has at most 36 actions (4 players, 9 rounds); more is still answered, as a violation


# --- schemas: every OFC game's, its rule sets bounding the rest ------------------------------------------


def card_row(low: int, high: int, **kwargs: Any) -> CardList:
    """A row of a board or a placement: its cards as a tuple, as ``Board`` and ``Action`` hold them."""
    return card_list(low, high, container=tuple, **kwargs)


def round_field(game: Game, **kwargs: Any) -> ExactValues:
    """A round of a normal hand (1 to the game's number of rounds) or, in a game with Fantasyland,
    ``"fantasyland"`` for a Fantasyland player's single set."""
    rounds = max(r.rules.rounds for r in game.rule_sets)
    values = {int: range(1, rounds + 1), str: frozenset([ofc.FANTASYLAND_ROUND] if has_fantasyland(game) else [])}
    refused = texts.SchemaMessage.of(Message(ofc.DOMAIN, "invalid_round", ofc.round_case(game.default.rules)))
    return ExactValues(values, refused, **kwargs)


def players_field(game: Game, inner: fields.Field[Any]) -> ListBoundBy:
    """The players of a hand: as many as the rule set the request names allows (the default's when it names
    none or one the game lacks); the declared bound is the widest of the game's rule sets (the contract's)."""
    bounds = {r.id: r.rules.players for r in game.rule_sets}
    widest = validate.Length(min=min(low for low, _ in bounds.values()), max=max(high for _, high in bounds.values()))
    return ListBoundBy(inner, ("rule_set", bounds, game.default.rules.players), validate=widest, required=True)


def has_fantasyland(game: Game) -> bool:
    return any(r.rules.has_fantasyland for r in game.rule_sets)


def shared_schemas(schemas: Schemas) -> None:
    """The components both OFC games' requests hold (named without a game's prefix in the contract)."""

    def rows(low: int, high: int, **kwargs: Any) -> dict[str, CardList]:
        return {row.value: card_row(min(low, row.size), min(high, row.size), **kwargs) for row in ROWS}

    schemas.add_shared("CompleteBoard", Board, **rows(5, 5, required=True))
    schemas.add_shared("PartialBoard", Board, **rows(0, 5, load_default=()))
    # The board of moves/legal and boards/outlook: the same rows, each a set in the contract (``uniqueItems``),
    # since these operations refuse a card listed twice (422) where moves/validate answers it as a violation.
    schemas.add_shared("BoardInPlay", Board, **rows(0, 5, load_default=()))
    # Each row of a placement holds at most what a deal can (17 cards), not what the row can: a row placed too
    # full is a rule broken (``row_overflow``, a 200 violation), not a malformed request (ruling S2). Loaded as
    # the rules core takes a placement: a dict of each ``Row`` (its ``attribute``) to its cards.
    placement = {row.value: card_row(0, MAX_DEALT, load_default=(), attribute=row) for row in ROWS}
    schemas.add_shared("Placement", **placement)
    sizes = validate.OneOf(FANTASYLAND_SIZES)
    schemas.add_shared(
        "FantasylandState",
        Fantasyland,
        active=StrictBoolean(required=True),
        cards=StrictInteger(allow_none=True, load_default=None, validate=sizes),
    )
    points = validate.Range(0, ROYALTY_MAX)  # a whole replacement table: every key of its row, nothing else
    top = schemas.add_shared(
        "TopRoyalties", **{key: StrictInteger(required=True, validate=points) for key in TOP_HANDS}
    )
    five = schemas.add_shared(
        "FiveCardRoyalties", **{key: StrictInteger(required=True, validate=points) for key in FIVE_CARD_CATEGORIES}
    )
    # House royalties: any of the rule set's three tables, each replaced whole.
    schemas.add_shared("RoyaltyTables", top=fields.Nested(top), middle=fields.Nested(five), bottom=fields.Nested(five))
    schemas.add_shared(
        "ScoredPlayer",
        ofc.Seat,
        board=fields.Nested(schemas["CompleteBoard"], required=True),
        fantasyland=fantasyland_field(schemas),
    )
    schemas.add_shared("RecordPlayer", fantasyland=fantasyland_field(schemas))


def fantasyland_field(schemas: Schemas) -> fields.Nested:
    return fields.Nested(schemas["FantasylandState"], load_default=lambda: _NOT_IN_FANTASYLAND)


def request_schemas(game: Game) -> Schemas:
    """Every request schema of ``game``: the shared ones, then its own (named with its prefix), each with its
    rules: ``rule_set`` and, where the rules score or value a row, ``royalties``."""
    schemas = Schemas(game)
    shared_schemas(schemas)
    most = max(r.rules.players[1] for r in game.rule_sets)
    most_dealt = max(deal.dealt for r in game.rule_sets for deal in r.rules.deals)
    seat = validate.Range(0, most - 1)

    def rules(royalties: bool = True) -> dict[str, Any]:
        return {
            "rule_set": rule_set_field(game),
            **({"royalties": fields.Nested(schemas["RoyaltyTables"])} if royalties else {}),
        }

    def row() -> fields.String:
        return fields.String(required=True, validate=validate.OneOf(ROW_NAMES))

    def board(name: str) -> fields.Nested:
        return fields.Nested(schemas[name], required=True)

    schemas.add("RowEvaluateRequest", row=row(), cards=card_list(3, 5, required=True), **rules())
    schemas.add(
        "RowCompareRequest", row=row(), a=card_list(3, 5, required=True), b=card_list(3, 5, required=True), **rules()
    )
    schemas.add("BoardEvaluateRequest", board=board("CompleteBoard"), fantasyland=fantasyland_field(schemas), **rules())
    schemas.add(
        "MoveValidateRequest",
        board=board("PartialBoard"),
        round=round_field(game, required=True),
        dealt=card_list(1, MAX_DEALT, required=True),
        placement=fields.Nested(schemas["Placement"], required=True),
        discard=card_list(0, MAX_DEALT, load_default=list),
        seen=card_list(0, 52, load_default=list),
        **rules(royalties=False),
    )
    schemas.add("HandScoreRequest", players=players_field(game, fields.Nested(schemas["ScoredPlayer"])), **rules())
    record_action = schemas.add(
        "RecordAction",
        ofc.Action,
        seat=StrictInteger(required=True, validate=seat),
        dealt=card_row(1, MAX_DEALT, required=True),
        placement=fields.Nested(schemas["Placement"], required=True),
        discard=card_row(0, MAX_DEALT, load_default=()),
    )
    schemas.add(
        "HandValidateRequest",
        dealer=StrictInteger(required=True, validate=seat),
        players=players_field(game, fields.Nested(schemas["RecordPlayer"])),
        actions=fields.List(fields.Nested(record_action), required=True, validate=validate.Length(max=MAX_ACTIONS)),
        **rules(),
    )
    schemas.add(
        "MovesLegalRequest",
        board=board("BoardInPlay"),
        dealt=card_list(1, most_dealt, required=True),
        **rules(royalties=False),
    )
    schemas.add(
        "OutlookRequest",
        board=board("BoardInPlay"),
        seen=card_list(0, 52, load_default=list),
        fantasyland=fantasyland_field(schemas),
        limit=StrictInteger(validate=validate.Range(1, ofc_outlook.MAX_LIMIT), load_default=ofc_outlook.DEFAULT_LIMIT),
        seed=StrictInteger(validate=validate.Range(0, 2**53 - 1), allow_none=True, load_default=None),
        samples=StrictInteger(
            validate=validate.Range(1, ofc_outlook.MAX_SAMPLES), load_default=ofc_outlook.DEFAULT_SAMPLES
        ),
        **rules(),
    )
    if has_fantasyland(game):
        least = min(ofc.FANTASYLAND_SIZES)
        schemas.add(
            "FantasylandSolveRequest",
            cards=card_list(least, MAX_DEALT, required=True),
            seen=card_list(0, len(DECK) - least, load_default=list),
            stay_value=StrictInteger(
                load_default=fantasyland.DEFAULT_STAY_VALUE, validate=validate.Range(0, fantasyland.MAX_STAY_VALUE)
            ),
            alternatives=StrictInteger(
                load_default=fantasyland.DEFAULT_ALTERNATIVES, validate=validate.Range(0, fantasyland.MAX_ALTERNATIVES)
            ),
            **rules(),
        )
    return schemas


_NOT_IN_FANTASYLAND = Fantasyland()


# --- answers -----------------------------------------------------------------------------------------


def row_value(value: ofc.RowValue) -> dict[str, Any]:
    # A row evaluated with its cards, as every caller here evaluates: only a showdown asked for categories
    # (score_hand(cards=False), shaped by player_score) holds a poker.Ranking instead of a HandValue.
    return {"hand": hand_value(cast(HandValue, value.hand)), "royalty": value.royalty}


def board_cards(board: Board) -> dict[str, list[str]]:
    return {
        "top": [c.text for c in board.top],
        "middle": [c.text for c in board.middle],
        "bottom": [c.text for c in board.bottom],
    }


def fantasyland_next(value: ofc.FantasylandNext) -> dict[str, Any]:
    return {"qualifies": value.qualifies, "cards": value.cards, "reason": value.reason}


def board_value(value: ofc.BoardValue) -> dict[str, Any]:
    return {
        "fouled": value.fouled,
        "foul_reasons": list(value.foul_reasons),  # StrEnums: JSON strings as they are
        "rows": {r: row_value(value.rows[r]) for r in ROWS},
        "royalties": value.royalties,
        "fantasyland_next": fantasyland_next(value.fantasyland_next),
    }


def player_score(p: ofc.PlayerScore) -> dict[str, Any]:
    """A showdown seat: the score and each row's category and royalty (boards/evaluate has full hands)."""
    seat, total, (rows, fouled, reasons, royalties, (qualifies, cards, reason)) = p  # NamedTuples: unpacked
    (top, top_royalty), (middle, middle_royalty), (bottom, bottom_royalty) = rows[TOP], rows[MIDDLE], rows[BOTTOM]
    return {
        "seat": seat, "total": total, "fouled": fouled, "foul_reasons": list(reasons),
        "rows": {"top": {"category": top.category, "royalty": top_royalty},
                 "middle": {"category": middle.category, "royalty": middle_royalty},
                 "bottom": {"category": bottom.category, "royalty": bottom_royalty}},
        "royalties": royalties, "fantasyland_next": {"qualifies": qualifies, "cards": cards, "reason": reason},
    }  # fmt: skip  # the answer's shape at a glance: the three rows one a line


def hand_score(score: ofc.HandScore) -> dict[str, Any]:
    return {
        "players": [player_score(p) for p in score.players],
        "matchups": [
            {
                "a": a, "b": b, "rows": {"top": rows[TOP], "middle": rows[MIDDLE], "bottom": rows[BOTTOM]}, "lines": lines,
                "scoop": scoop, "royalty_diff": royalty_diff, "points_a": points_a,
            }
            for a, b, rows, lines, scoop, royalty_diff, points_a in score.matchups
        ],
        "button_moves": score.button_moves,
    }  # fmt: skip  # a matchup's seven fields on two lines, not one a line


def move_list(result: ofc_moves.MoveList) -> dict[str, Any]:
    return {
        "round": result.round,
        "placed": result.placed,
        "discarded": result.discarded,
        "count": len(result.moves),
        "moves": [
            {
                "discard": card_texts(m.discard),
                "placement": board_cards(Board(*(m.placement.get(r, ()) for r in ROWS))),
                "board": board_cards(m.board),
            }
            for m in result.moves
        ],
    }


def outlook_answer(result: ofc_outlook.Outlook) -> dict[str, Any]:
    carlo = result.monte_carlo
    return {
        "empty": {r.value: result.empty[r] for r in ROWS},
        "unseen": result.unseen,
        "foul_certain": result.foul_certain,
        "royalties": [
            {"row": x.level.row.value, "category": x.level.category, "rank": x.level.rank, "royalty": x.level.royalty, "reachable": x.reachable}
            for x in result.levels
        ],
        "fantasyland": [{"cards": f.cards, "reachable": f.reachable} for f in result.fantasyland],
        "complete": result.complete,
        "examined": result.examined,
        "limit": result.limit,
        "monte_carlo": None if carlo is None else {
            "seed": carlo.seed, "samples": carlo.samples, "fouls": carlo.fouls,
            "foul_probability": carlo.foul_probability, "standard_error": carlo.standard_error,
        },
    }  # fmt: skip  # a royalty level and the Monte Carlo figures a few fields to a line


def fantasyland_setting(setting: fantasyland.Setting, dealt: int, rules: OfcRules) -> dict[str, Any]:
    """A solver's setting: the board, the discards, its value and the evaluator's view of the board."""
    value = ofc.evaluate_board(setting.board, Fantasyland(True, dealt), (), rules)
    return {
        "board": board_cards(setting.board),
        "discard": card_texts(setting.discard),
        "value": setting.value,
        "royalties": setting.royalties,
        "stays": setting.stays,
        "rows": {r: row_value(value.rows[r]) for r in ROWS},
        "fantasyland_next": fantasyland_next(value.fantasyland_next),
    }


# --- routes: one blueprint per OFC game of the registry -------------------------------------------------

ERRORS = tuple(dict.fromkeys((*NotationProblem, *ProblemCode, "invalid_round")))
"""The 422 ``errors`` codes of the OFC operations, besides the request schema's."""
RECORD_ONLY = {
    MoveViolation.RECORD_INCOMPLETE,
    MoveViolation.ACTION_AFTER_HAND_END,
    MoveViolation.OUT_OF_TURN,
    MoveViolation.CARD_DEALT_TWICE,
}
MOVE_VIOLATIONS = [v for v in MoveViolation if v not in RECORD_ONLY]
# What each operation answers besides its schema's own 422s (docs/errors.md is generated from these). What
# only the rules decide, for a request valid against the contract (RuleCodes.rules_only): a row's size depends
# on the row named, a card can be listed twice in two spellings (As, AS), the round and the Fantasyland deals on
# the rule set named, the dealer's seat on the number of players.
ROW_CODES = rule_codes(ofc.DOMAIN, errors=ERRORS, rules_only=["duplicate_card", "wrong_row_size"])
BOARD_CODES = rule_codes(ofc.DOMAIN, errors=ERRORS, rules_only=["duplicate_card"])
MOVE_CODES = rule_codes(ofc.DOMAIN, violations=MOVE_VIOLATIONS, errors=ERRORS, rules_only=["invalid_round"])
LEGAL_CODES = rule_codes(
    ofc.DOMAIN,
    errors=(*ERRORS, *ofc_moves.MovesProblem),
    rules_only=["duplicate_card", "deal_size", "board_between_rounds", "board_complete"],
)
OUTLOOK_CODES = rule_codes(
    ofc.DOMAIN,
    errors=(*ERRORS, *ofc_moves.MovesProblem, *ofc_outlook.OutlookProblem),
    rules_only=["duplicate_card", "board_between_rounds", "fantasyland_cards", "not_enough_cards"],
)
SOLVE_CODES = rule_codes(
    ofc.DOMAIN, errors=(*ERRORS, *fantasyland.SolveProblem), rules_only=["duplicate_card", "fantasyland_deal_size"]
)


def _table_rules(rules: OfcRules, own: dict[str, Any]) -> OfcRules:
    """The rule set with a request's ``royalties`` (its table's royalty tables)."""
    return rules.with_royalties(own["royalties"])


def make_blueprint(game: Game, schemas: Schemas) -> Blueprint:
    """The operations of ``game`` under its base path, each applying the rules a request names:
    fantasyland/solve where the game has Fantasyland."""
    bp = Blueprint(game.blueprint, __name__, url_prefix=game.base_path)
    operation = Operations(bp, RuleChoice(game, ("royalties",), _table_rules))
    players_by_rule_set = ("/players",) if len({r.rules.players for r in game.rule_sets}) > 1 else ()
    by_players = {"errors": ERRORS, "lengths_by_rule_set": players_by_rule_set}
    score_codes = rule_codes(ofc.DOMAIN, rules_only=["duplicate_card"], **by_players)
    record_codes = rule_codes(
        ofc.DOMAIN, violations=MoveViolation, rules_only=["fantasyland_cards", "bad_seat"], **by_players
    )

    @operation("/rows/evaluate", schemas["RowEvaluateRequest"], ROW_CODES)
    def rows_evaluate(body: dict[str, Any], rules: OfcRules) -> dict[str, Any]:
        return row_value(ofc.evaluate_row(ROW_BY_NAME[body["row"]], body["cards"], ("cards",), rules))

    @operation("/rows/compare", schemas["RowCompareRequest"], ROW_CODES)
    def rows_compare(body: dict[str, Any], rules: OfcRules) -> dict[str, Any]:
        result, a, b = ofc.compare_rows(ROW_BY_NAME[body["row"]], body["a"], body["b"], rules)
        return {"winner": result, "a": row_value(a), "b": row_value(b)}

    @operation("/boards/evaluate", schemas["BoardEvaluateRequest"], BOARD_CODES)
    def boards_evaluate(body: dict[str, Any], rules: OfcRules) -> dict[str, Any]:
        return board_value(ofc.evaluate_board(body["board"], body["fantasyland"], (), rules))

    @operation("/moves/validate", schemas["MoveValidateRequest"], MOVE_CODES)
    def moves_validate(body: dict[str, Any], rules: OfcRules) -> dict[str, Any]:
        board, round_, dealt, placement = body["board"], body["round"], body["dealt"], body["placement"]
        result = ofc.validate_move(board, round_, dealt, placement, body["discard"], body["seen"], rules)
        return {
            "legal": result.legal,
            "violations": [violation(v) for v in result.violations],
            "board": board_cards(result.board),
        }

    @operation("/hands/score", schemas["HandScoreRequest"], score_codes)
    def hands_score(body: dict[str, Any], rules: OfcRules) -> dict[str, Any]:
        return hand_score(ofc.score_hand(body["players"], rules, cards=False))  # the answer names categories, not cards

    @operation("/hands/validate", schemas["HandValidateRequest"], record_codes)
    def hands_validate(body: dict[str, Any], rules: OfcRules) -> dict[str, Any]:
        fantasyland_states = [p["fantasyland"] for p in body["players"]]
        result = ofc.validate_hand(body["dealer"], fantasyland_states, body["actions"], rules, cards=False)
        return {
            "legal": result.legal,
            "violations": [violation(v) for v in result.violations],
            "boards": [board_cards(b) for b in result.boards],
            "score": hand_score(result.score) if result.score else None,
            "discards": [{"seat": seat, "card": card.text, "action": index} for seat, card, index in result.discards],
        }

    @operation("/moves/legal", schemas["MovesLegalRequest"], LEGAL_CODES)
    def moves_legal(body: dict[str, Any], rules: OfcRules) -> dict[str, Any]:
        return move_list(ofc_moves.legal_moves(body["board"], body["dealt"], rules))

    @operation("/boards/outlook", schemas["OutlookRequest"], OUTLOOK_CODES, heavy=True)
    def boards_outlook(body: dict[str, Any], rules: OfcRules) -> dict[str, Any]:
        options = {name: body[name] for name in ("limit", "seed", "samples")}
        return outlook_answer(
            ofc_outlook.outlook(body["board"], body["seen"], body["fantasyland"], rules=rules, **options)
        )

    if "FantasylandSolveRequest" in schemas:  # a game with Fantasyland

        @operation("/fantasyland/solve", schemas["FantasylandSolveRequest"], SOLVE_CODES, heavy=True)
        def fantasyland_solve(body: dict[str, Any], rules: OfcRules) -> dict[str, Any]:
            dealt, stay_value = body["cards"], body["stay_value"]
            fantasyland.check_deal(dealt, body["seen"], rules.fantasyland_sizes)
            solution = fantasyland.solve(
                dealt, fantasyland.terms_of(rules), stay_value=stay_value, alternatives=body["alternatives"]
            )
            return {
                "proven_optimal": True,
                "stay_value": stay_value,
                "best": fantasyland_setting(solution.best, len(dealt), rules),
                "alternatives": [fantasyland_setting(s, len(dealt), rules) for s in solution.alternatives],
            }

    return bp
