"""What every game's HTTP layer shares: the card field, body parsing and the shapes of common answers."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
from flask import Response, request
from marshmallow import Schema, ValidationError, fields, validate

from service.api import i18n
from service.api.errors import ApiProblem
from service.api.limits import check_json_depth, read_body, too_deep
from service.rules import messages
from service.rules.cards import Card, card_of_text, parse_card
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
            raise ValidationError(i18n.LocalizedMessage.of(error.problems[0], "cards")) from None


class CardList(fields.List):
    """A list of cards. Valid lists (the common case) are read with one dictionary look-up per card; any
    problem falls back to the item-by-item path, which reports each bad entry at its index."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Card]:
        if type(value) is list and not self.inner.jokers:  # type: ignore[attr-defined]
            try:
                return list(map(card_of_text, value))
            except (KeyError, TypeError):
                pass
        return super()._deserialize(value, attr, data, **kwargs)


def card_list(min_items: int, max_items: int, *, jokers: bool = False, **kwargs: Any) -> fields.List:
    return CardList(CardField(jokers=jokers), validate=validate.Length(min=min_items, max=max_items), **kwargs)


class StrictSchema(Schema):
    """Unknown fields are errors (the marshmallow default, stated here so no schema relaxes it).

    A schema on a hot path may define ``fast_load(data)``: it returns exactly what ``load`` would for
    plainly valid input, or ``None`` to decline, and then ``load`` runs and reports every error precisely.
    ``tests/api/test_fast_load.py`` holds each ``fast_load`` to ``load``'s answers.
    """

    class Meta:
        unknown = "raise"

    fast_load: Any = None


class FastNested(fields.Nested):
    """``Nested`` that tries the nested schema's ``fast_load`` first."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, partial: Any = None, **kwargs: Any) -> Any:
        fast = getattr(self.schema, "fast_load", None)
        if fast is not None:
            loaded = fast(value)
            if loaded is not None:
                return loaded
        return super()._deserialize(value, attr, data, partial=partial, **kwargs)


def fast_cards(value: Any, size: int) -> tuple[Card, ...] | None:
    """``size`` cards from a list of canonical or alias spellings, or None to leave it to the schema."""
    if type(value) is not list or len(value) != size:
        return None
    try:
        return tuple(map(card_of_text, value))
    except (KeyError, TypeError):
        return None


def load_body(schema: Schema) -> Any:
    """The request's JSON body loaded by ``schema``: 415 when not JSON, 400 when unparseable,
    422 when nested too deep (``limits``) or (via the error handler) when it does not match."""
    req = request._get_current_object()  # one proxy look-up for the reads below (Flask's documented way)
    if req.environ.get("CONTENT_TYPE") != "application/json" and not req.is_json:  # the usual header, or parse it
        raise ApiProblem(415, messages.text("http", "detail.not_json"))
    raw = read_body(req)
    try:
        body = json.loads(raw)
    except ValueError as error:
        raise ApiProblem(400, f"The body is not valid JSON: {error}") from None
    except RecursionError:
        raise too_deep() from None
    check_json_depth(raw, body)
    if schema.fast_load is not None:
        loaded = schema.fast_load(body)
        if loaded is not None:
            return loaded
    return schema.load(body)


def answer(body: Any, status: int = 200) -> Response:
    """A 200 (or ``status``) JSON answer, UTF-8.

    orjson encodes these answers 7x faster than the standard library (hands/score: 3 us against 21 us, a
    tenth of that operation's time in the application). ``OPT_NON_STR_KEYS`` lets rows (a str enum) key
    objects. orjson refuses a str that is not valid UTF-8, a lone surrogate that a client's JSON escape
    smuggled in: should an answer ever echo one, the standard encoder escapes it instead."""
    try:
        data = orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        data = json.dumps(body, separators=(",", ":")).encode()
    return Response(data, status=status, mimetype="application/json")


def card_texts(cards: Iterable[Card]) -> list[str]:
    return [c.text for c in cards]


def hand_value(hand: HandValue) -> dict[str, Any]:
    body: dict[str, Any] = {
        "category": hand.category,
        "label": i18n.label(hand),
        "strength": list(hand.strength),
        "cards": card_texts(hand.cards),
    }
    if hand.resolved is not None:
        body["resolved"] = card_texts(hand.resolved)
    return body


def violation(v: Violation) -> dict[str, Any]:
    body: dict[str, Any] = {"code": v.code, "message": i18n.violation_message(v)}
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


# --- the codes an operation answers (docs/errors.md is generated from these) ----------------------------

View = TypeVar("View", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class RuleCodes:
    """What one operation may answer besides the request schema's own 422 codes: the ``code``s of its
    ``violations`` (a 200 saying ``legal: false``) and of its 422 ``errors`` entries; ``domain`` is the
    message catalog's domain that holds their texts (the game's)."""

    domain: str
    violations: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()


def rule_codes(domain: str, *, violations: Iterable[str] = (), errors: Iterable[str] = ()) -> Callable[[View], View]:
    """Declare, on a route, the codes it answers (``service/api/catalog.py`` lists them; the test client
    checks every answer against them)."""

    def declare(view: View) -> View:
        view.rule_codes = RuleCodes(domain, tuple(dict.fromkeys(map(str, violations))), tuple(dict.fromkeys(map(str, errors))))  # type: ignore[attr-defined]
        return view

    return declare
