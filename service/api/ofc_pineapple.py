"""HTTP layer of Pineapple OFC (``/v1/ofc-pineapple``): request schemas beside the routes they serve."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response
from marshmallow import ValidationError, fields, post_load, validate

from service.api import i18n
from service.api.common import (
    FastNested, fast_cards, StrictBoolean, StrictInteger, StrictSchema, answer, card_list, card_texts, hand_value, load_body, rule_codes, violation,
)  # fmt: skip
from service.rules import ofc_pineapple as ofc
from service.rules.cards import NotationProblem
from service.rules.ofc_pineapple import ROWS, Board, Fantasyland, MoveViolation, ProblemCode, Row

blueprint = Blueprint("ofc_pineapple", __name__, url_prefix="/v1/ofc-pineapple")

ROW_NAMES = [r.value for r in ROWS]
MAX_DEALT = max(ofc.FANTASYLAND_SIZES)
MAX_ACTIONS = 64  # a hand has at most 15 actions; more is still answered, as a violation


# --- schemas -----------------------------------------------------------------------------------------


class RowEvaluateRequest(StrictSchema):
    row = fields.String(required=True, validate=validate.OneOf(ROW_NAMES))
    cards = card_list(3, 5, required=True)


class RowCompareRequest(StrictSchema):
    row = fields.String(required=True, validate=validate.OneOf(ROW_NAMES))
    a = card_list(3, 5, required=True)
    b = card_list(3, 5, required=True)


class CompleteBoard(StrictSchema):
    top = card_list(3, 3, required=True)
    middle = card_list(5, 5, required=True)
    bottom = card_list(5, 5, required=True)

    @post_load
    def _board(self, data: dict[str, Any], **kwargs: Any) -> Board:
        return Board.of(data)

    @staticmethod
    def fast_load(data: Any) -> Board | None:
        if type(data) is not dict or data.keys() != _ROW_KEYS:
            return None
        top, middle, bottom = fast_cards(data["top"], 3), fast_cards(data["middle"], 5), fast_cards(data["bottom"], 5)
        if top is None or middle is None or bottom is None:
            return None
        return Board(top, middle, bottom)


class PartialBoard(StrictSchema):
    top = card_list(0, 3, load_default=list)
    middle = card_list(0, 5, load_default=list)
    bottom = card_list(0, 5, load_default=list)

    @post_load
    def _board(self, data: dict[str, Any], **kwargs: Any) -> Board:
        return Board.of(data)


class Placement(StrictSchema):
    """Each row holds at most what a deal can (17 cards), not what the row can: a row placed too full is a
    rule broken (``row_overflow``, a 200 violation), not a malformed request (ruling S2)."""

    top = card_list(0, MAX_DEALT, load_default=list)
    middle = card_list(0, MAX_DEALT, load_default=list)
    bottom = card_list(0, MAX_DEALT, load_default=list)

    @post_load
    def _rows(self, data: dict[str, Any], **kwargs: Any) -> dict[Row, tuple]:
        return {Row(name): tuple(cards) for name, cards in data.items()}


class FantasylandState(StrictSchema):
    active = StrictBoolean(required=True)
    cards = StrictInteger(allow_none=True, load_default=None, validate=validate.OneOf(ofc.FANTASYLAND_SIZES))

    @post_load
    def _state(self, data: dict[str, Any], **kwargs: Any) -> Fantasyland:
        return Fantasyland(data["active"], data["cards"])

    @staticmethod
    def fast_load(data: Any) -> Fantasyland | None:
        if type(data) is not dict or type(data.get("active")) is not bool or not data.keys() <= _FANTASYLAND_KEYS:
            return None
        cards = data.get("cards")
        if cards is not None and (type(cards) is not int or cards not in ofc.FANTASYLAND_SIZES):
            return None
        return Fantasyland(data["active"], cards)


_ROW_KEYS = {"top", "middle", "bottom"}
_FANTASYLAND_KEYS = {"active", "cards"}
_NOT_IN_FANTASYLAND = Fantasyland()


def fantasyland_field() -> fields.Nested:
    return FastNested(FantasylandState, load_default=lambda: _NOT_IN_FANTASYLAND)


class BoardEvaluateRequest(StrictSchema):
    board = FastNested(CompleteBoard, required=True)
    fantasyland = fantasyland_field()


class RoundField(fields.Field):
    """A round of a normal hand (1-5) or ``"fantasyland"`` for a Fantasyland player's single set."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int | str:
        if value == ofc.FANTASYLAND_ROUND or (type(value) is int and 1 <= value <= 5):
            return value
        raise ValidationError(i18n.LocalizedMessage.text(ofc.DOMAIN, "invalid_round"))


class MoveValidateRequest(StrictSchema):
    board = fields.Nested(PartialBoard, required=True)
    round = RoundField(required=True)
    dealt = card_list(1, MAX_DEALT, required=True)
    placement = fields.Nested(Placement, required=True)
    discard = card_list(0, MAX_DEALT, load_default=list)
    seen = card_list(0, 52, load_default=list)


class ScoredPlayer(StrictSchema):
    board = FastNested(CompleteBoard, required=True)
    fantasyland = fantasyland_field()

    @staticmethod
    def fast_load(data: Any) -> dict[str, Any] | None:
        if type(data) is not dict or not 1 <= len(data) <= 2:
            return None
        board = CompleteBoard.fast_load(data.get("board"))
        if board is None:
            return None
        if len(data) == 1:
            return {"board": board, "fantasyland": _NOT_IN_FANTASYLAND}
        fantasyland = FantasylandState.fast_load(data.get("fantasyland"))
        return None if fantasyland is None else {"board": board, "fantasyland": fantasyland}


class HandScoreRequest(StrictSchema):
    players = fields.List(FastNested(ScoredPlayer), required=True, validate=validate.Length(equal=ofc.PLAYERS))

    @staticmethod
    def fast_load(data: Any) -> dict[str, Any] | None:
        if type(data) is not dict or len(data) != 1 or type(data.get("players")) is not list or len(data["players"]) != ofc.PLAYERS:
            return None
        players = [ScoredPlayer.fast_load(p) for p in data["players"]]
        return None if None in players else {"players": players}


class RecordPlayer(StrictSchema):
    fantasyland = fantasyland_field()


class RecordAction(StrictSchema):
    seat = StrictInteger(required=True, validate=validate.Range(0, ofc.PLAYERS - 1))
    dealt = card_list(1, MAX_DEALT, required=True)
    placement = fields.Nested(Placement, required=True)
    discard = card_list(0, MAX_DEALT, load_default=list)


class HandValidateRequest(StrictSchema):
    dealer = StrictInteger(required=True, validate=validate.Range(0, ofc.PLAYERS - 1))
    players = fields.List(fields.Nested(RecordPlayer), required=True, validate=validate.Length(equal=ofc.PLAYERS))
    actions = fields.List(fields.Nested(RecordAction), required=True, validate=validate.Length(max=MAX_ACTIONS))


SCHEMAS = [
    RowEvaluateRequest, RowCompareRequest, CompleteBoard, PartialBoard, Placement, FantasylandState,
    BoardEvaluateRequest, MoveValidateRequest, ScoredPlayer, HandScoreRequest, RecordPlayer, RecordAction,
    HandValidateRequest,
]  # fmt: skip
"""Every request schema, for the test that compares them with openapi.yaml."""

_row_evaluate = RowEvaluateRequest()
_row_compare = RowCompareRequest()
_board_evaluate = BoardEvaluateRequest()
_move_validate = MoveValidateRequest()
_hand_score = HandScoreRequest()
_hand_validate = HandValidateRequest()

# --- answers -----------------------------------------------------------------------------------------


def row_value(value: ofc.RowValue) -> dict[str, Any]:
    return {"hand": hand_value(value.hand), "royalty": value.royalty}


def board_cards(board: Board) -> dict[str, list[str]]:
    return {r.value: card_texts(board.row(r)) for r in ROWS}


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
    value = p.value
    return {
        "seat": p.seat, "total": p.total, "fouled": value.fouled, "foul_reasons": list(value.foul_reasons),
        "rows": {r: {"category": value.rows[r].hand.category, "royalty": value.rows[r].royalty} for r in ROWS},
        "royalties": value.royalties, "fantasyland_next": fantasyland_next(value.fantasyland_next),
    }  # fmt: skip


def hand_score(score: ofc.HandScore) -> dict[str, Any]:
    return {
        "players": [player_score(p) for p in score.players],
        "matchups": [
            {
                "a": m.a, "b": m.b, "rows": {r: m.rows[r] for r in ROWS}, "lines": m.lines,
                "scoop": m.scoop, "royalty_diff": m.royalty_diff, "points_a": m.points_a,
            }
            for m in score.matchups
        ],
        "button_moves": score.button_moves,
    }  # fmt: skip


# --- routes ------------------------------------------------------------------------------------------

ERRORS = (*NotationProblem, *ProblemCode, "invalid_round")
"""The 422 ``errors`` codes of this game's operations, besides the request schema's."""
RECORD_ONLY = {MoveViolation.RECORD_INCOMPLETE, MoveViolation.ACTION_AFTER_HAND_END, MoveViolation.OUT_OF_TURN, MoveViolation.CARD_DEALT_TWICE}
MOVE_VIOLATIONS = [v for v in MoveViolation if v not in RECORD_ONLY]


@blueprint.post("/rows/evaluate")
@rule_codes(ofc.DOMAIN, errors=ERRORS)
def rows_evaluate() -> Response:
    body = load_body(_row_evaluate)
    return answer(row_value(ofc.evaluate_row(Row(body["row"]), body["cards"])))


@blueprint.post("/rows/compare")
@rule_codes(ofc.DOMAIN, errors=ERRORS)
def rows_compare() -> Response:
    body = load_body(_row_compare)
    result, a, b = ofc.compare_rows(Row(body["row"]), body["a"], body["b"])
    return answer({"winner": result, "a": row_value(a), "b": row_value(b)})


@blueprint.post("/boards/evaluate")
@rule_codes(ofc.DOMAIN, errors=ERRORS)
def boards_evaluate() -> Response:
    body = load_body(_board_evaluate)
    return answer(board_value(ofc.evaluate_board(body["board"], body["fantasyland"])))


@blueprint.post("/moves/validate")
@rule_codes(ofc.DOMAIN, violations=MOVE_VIOLATIONS, errors=ERRORS)
def moves_validate() -> Response:
    body = load_body(_move_validate)
    result = ofc.validate_move(body["board"], body["round"], body["dealt"], body["placement"], body["discard"], body["seen"])
    return answer({
        "legal": result.legal,
        "violations": [violation(v) for v in result.violations],
        "board": board_cards(result.board),
    })  # fmt: skip


@blueprint.post("/hands/score")
@rule_codes(ofc.DOMAIN, errors=ERRORS)
def hands_score() -> Response:
    body = load_body(_hand_score)
    return answer(hand_score(ofc.score_hand([ofc.Seat(p["board"], p["fantasyland"]) for p in body["players"]])))


@blueprint.post("/hands/validate")
@rule_codes(ofc.DOMAIN, violations=MoveViolation, errors=ERRORS)
def hands_validate() -> Response:
    body = load_body(_hand_validate)
    actions = [ofc.Action(a["seat"], tuple(a["dealt"]), a["placement"], tuple(a["discard"])) for a in body["actions"]]
    result = ofc.validate_hand(body["dealer"], [p["fantasyland"] for p in body["players"]], actions)
    return answer({
        "legal": result.legal,
        "violations": [violation(v) for v in result.violations],
        "boards": [board_cards(b) for b in result.boards],
        "score": hand_score(result.score) if result.score else None,
        "discards": [{"seat": d.seat, "card": str(d.card), "action": d.action} for d in result.discards],
    })  # fmt: skip


# --- moves/legal, boards/outlook (issue 14) ----------------------------------------------------------------
# Kept in one block, apart from the operations above, so parallel additions to this module merge cleanly.

from service.rules import ofc_moves, ofc_outlook  # noqa: E402

MAX_NORMAL_DEAL = max(dealt for dealt, _ in ofc_moves.PINEAPPLE.rounds)


class MovesLegalRequest(StrictSchema):
    board = fields.Nested(PartialBoard, required=True)
    dealt = card_list(1, MAX_NORMAL_DEAL, required=True)


class OutlookRequest(StrictSchema):
    board = fields.Nested(PartialBoard, required=True)
    seen = card_list(0, 52, load_default=list)
    fantasyland = fantasyland_field()
    limit = StrictInteger(validate=validate.Range(1, ofc_outlook.MAX_LIMIT), load_default=ofc_outlook.DEFAULT_LIMIT)
    seed = StrictInteger(validate=validate.Range(0, 2**53 - 1), allow_none=True, load_default=None)
    samples = StrictInteger(validate=validate.Range(1, ofc_outlook.MAX_SAMPLES), load_default=ofc_outlook.DEFAULT_SAMPLES)


SCHEMAS += [MovesLegalRequest, OutlookRequest]

_moves_legal = MovesLegalRequest()
_outlook = OutlookRequest()


def move_list(result: ofc_moves.MoveList) -> dict[str, Any]:
    return {
        "round": result.round,
        "placed": result.placed,
        "discarded": result.discarded,
        "count": len(result.moves),
        "moves": [
            {"discard": card_texts(m.discard), "placement": board_cards(Board.of(m.placement)), "board": board_cards(m.board)}
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
    }  # fmt: skip


@blueprint.post("/moves/legal")
@rule_codes(ofc.DOMAIN, errors=(*ERRORS, *ofc_moves.MovesProblem))
def moves_legal() -> Response:
    body = load_body(_moves_legal)
    return answer(move_list(ofc_moves.legal_moves(body["board"], body["dealt"])))


@blueprint.post("/boards/outlook")
@rule_codes(ofc.DOMAIN, errors=(*ERRORS, *ofc_moves.MovesProblem, *ofc_outlook.OutlookProblem))
def boards_outlook() -> Response:
    body = load_body(_outlook)
    result = ofc_outlook.outlook(
        body["board"], body["seen"], body["fantasyland"], limit=body["limit"], seed=body["seed"], samples=body["samples"]
    )
    return answer(outlook_answer(result))
