"""What every game's HTTP layer shares: the card field, body parsing and the shapes of common answers."""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from flask import Response, request
from marshmallow import Schema, ValidationError, fields, validate

from service.api.errors import ApiProblem
from service.rules.cards import Card, parse_card
from service.rules.errors import CardNotationError, Violation
from service.rules.hand_value import HandValue


class CardField(fields.Field):
    """A card string in any accepted notation, loaded as a ``Card`` (``jokers`` allows ``JK``)."""

    def __init__(self, *, jokers: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self.jokers = jokers

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Card:
        try:
            return parse_card(value, jokers=self.jokers)
        except CardNotationError as error:
            raise ValidationError(error.problems[0].message) from None


def card_list(min_items: int, max_items: int, *, jokers: bool = False, **kwargs: Any) -> fields.List:
    return fields.List(CardField(jokers=jokers), validate=validate.Length(min=min_items, max=max_items), **kwargs)


class StrictSchema(Schema):
    """Unknown fields are errors (the marshmallow default, stated here so no schema relaxes it)."""

    class Meta:
        unknown = "raise"


def load_body(schema: Schema) -> Any:
    """The request's JSON body loaded by ``schema``: 415 when not JSON, 400 when unparseable,
    422 (via the error handler) when it does not match."""
    if not request.is_json:
        raise ApiProblem(415, "Send the request body as JSON with Content-Type: application/json.")
    try:
        body = json.loads(request.get_data(cache=False))
    except ValueError as error:
        raise ApiProblem(400, f"The body is not valid JSON: {error}") from None
    return schema.load(body)


def answer(body: Any, status: int = 200) -> Response:
    return Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")), status=status, mimetype="application/json")


def card_texts(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def hand_value(hand: HandValue) -> dict[str, Any]:
    body: dict[str, Any] = {
        "category": hand.category,
        "label": hand.label,
        "strength": list(hand.strength),
        "cards": card_texts(hand.cards),
    }
    if hand.resolved is not None:
        body["resolved"] = card_texts(hand.resolved)
    return body


def violation(v: Violation) -> dict[str, Any]:
    body: dict[str, Any] = {"code": v.code, "message": v.message}
    if v.cards:
        body["cards"] = card_texts(v.cards)
    if v.index is not None:
        body["index"] = v.index
    return body


class StrictBoolean(fields.Boolean):
    """JSON ``true``/``false`` only: no "yes", no 1, so a client's type mistake is reported, not guessed."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictInteger(fields.Integer):
    """A JSON integer: no strings, no booleans, no fractions."""

    def __init__(self, **kwargs: Any):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)
