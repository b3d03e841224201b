"""What every game's HTTP layer shares: the card field, body parsing and the shapes of common answers."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import jiter
import orjson
from flask import Request, Response, request
from marshmallow import Schema, ValidationError, fields, validate
from werkzeug.local import LocalProxy

from service.api import i18n, texts
from service.api.errors import ApiProblem
from service.api.limits import check_json_depth, read_body, too_deep
from service.api.loading import fast_load
from service.api.response import ServiceResponse
from service.api.schema import CardField, CardList, OneOfShapes, StrictBoolean, StrictInteger, StrictSchema, card_list  # noqa: F401 - re-exported
from service.rules.cards import Card, card_texts  # noqa: F401 - card_texts re-exported for the games' answers
from service.rules.errors import Violation, quoted
from service.rules.hand_value import HandValue
from service.rules.messages import Message

# --- arrays over their maxItems: refused before a single item is read ------------------------------------
# marshmallow deserializes a List's items first and checks its Length after: a small body holding a long list
# cost CPU (and a problem) per item before its 422 (bench/attack.py measures the refusal today). Each schema's
# declared bounds are gathered once into a plan; ``check_list_lengths`` walks the body along it and refuses the
# first list longer than its maximum with that field's own Length message, in time independent of its length.

# A plan entry: ("list", its Length or None, the entry of its items or None), ("object", {data key: entry}) or
# ("shapes", {JSON type: entry or None}).
Plan = dict[str, Any]


def _most(length: validate.Length) -> int | None:
    return length.equal if length.equal is not None else length.max


def _maximum(length: validate.Length) -> int:
    """The most items ``length`` allows: a plan holds only the Lengths that have a maximum (``_field_plan``)."""
    return cast(int, _most(length))


def _field_plan(field: fields.Field[Any]) -> tuple[Any, ...] | None:
    if isinstance(field, OneOfShapes):
        return "shapes", {kind: _field_plan(shape) for kind, shape in field.shapes.items()}
    if isinstance(field, fields.List):
        lengths = [v for v in field.validators if isinstance(v, validate.Length) and _most(v) is not None]
        return "list", (lengths[0] if lengths else None), _field_plan(field.inner)
    if isinstance(field, fields.Nested) and isinstance(field.schema, Schema):
        return "object", length_plan(field.schema)
    return None


def length_plan(schema: Schema) -> Plan:
    plan = getattr(schema, "_length_plan", None)
    if plan is None:
        plan = {}
        for name, field in schema.fields.items():
            entry = _field_plan(field)
            if entry is not None:
                plan[field.data_key or name] = entry
        schema._length_plan = plan  # type: ignore[attr-defined]  # a cache on the schema, which declares no such field
    return plan


def _check(value: Any, entry: tuple[Any, ...], found: dict[Any, Any], key: Any) -> None:
    if entry[0] == "shapes":
        shape = entry[1].get(type(value))
        if shape is not None:
            _check(value, shape, found, key)
        return
    inner: dict[Any, Any] = {}
    if entry[0] == "list" and type(value) is list:
        _, length, item = entry
        if length is not None and len(value) > _maximum(length):
            try:
                length(value)  # its own message; it only takes len()
            except ValidationError as error:
                found[key] = error.messages
            return
        if item is not None:
            for index, element in enumerate(value):
                _check(element, item, inner, index)
    elif entry[0] == "object" and type(value) is dict:
        for name, child in entry[1].items():
            if name in value:
                _check(value[name], child, inner, name)
    if inner:
        found[key] = inner


def _pruned(value: Any, entry: tuple[Any, ...]) -> Any:
    """``value`` with every list beyond its maximum emptied (a copy along the plan only): that list's own
    error replaces whatever its items would give (``_merged``), so its items are not loaded at all, and the
    schema still reports every other field."""
    if entry[0] == "shapes":
        shape = entry[1].get(type(value))
        return value if shape is None else _pruned(value, shape)
    if entry[0] == "list" and type(value) is list:
        _, length, item = entry
        if length is not None and len(value) > _maximum(length):
            return []
        return value if item is None else [_pruned(element, item) for element in value]
    if entry[0] == "object" and type(value) is dict:
        plan = entry[1]
        return {name: _pruned(child, plan[name]) if name in plan else child for name, child in value.items()}
    return value


def _merged(first: Any, second: Any) -> Any:
    if not (isinstance(first, dict) and isinstance(second, dict)):
        return second
    merged = dict(first)
    for key, value in second.items():
        merged[key] = _merged(merged[key], value) if key in merged else value
    if all(type(key) is int for key in merged):
        merged = dict(sorted(merged.items()))
    return merged


def check_list_lengths(schema: Schema, body: Any) -> None:
    """When ``body`` holds a list longer than ``schema`` allows: a ValidationError naming each such list
    with its Length message, plus whatever else the schema finds in the rest of the body. No item of such
    a list is read."""
    if type(body) is not dict:
        return
    found: dict[Any, Any] = {}
    _check(body, ("object", length_plan(schema)), found, "")
    if not found:
        return
    try:
        schema.load(_pruned(body, ("object", length_plan(schema))))
        messages_found: Any = {}
    except ValidationError as error:
        messages_found = error.messages
    raise ValidationError(_merged(messages_found, found[""]))


# --- JSON as RFC 8259 defines it, nothing more (docs/rulings.md, "Parsing") ----------------------------
# Two readers, each refusing a repeated key and NaN or Infinity by its documented options: jiter reads every
# body first (``read_json``: ``catch_duplicate_keys``, ``allow_inf_nan=False``), and what it refuses the
# standard library's decoder reads again (``decode_json``: ``object_pairs_hook`` gets each object's members
# as (key, value) pairs in their order, so a key given twice is seen; ``parse_constant`` gets NaN and
# Infinity), which says why in the words the answers are made of, or reads what jiter does not take.


class _NotJson(ValueError):
    """A JSON text this service refuses although Python's decoder would take it (400): the detail's key and
    parameters."""

    def __init__(self, detail: str, params: dict[str, Any]):
        super().__init__(detail)
        self.detail, self.params = detail, params


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _NotJson("detail.duplicate_key", {"key": quoted(key)})
            seen.add(key)
    return obj


def _no_constant(name: str) -> Any:
    raise _NotJson("detail.not_a_number", {"constant": name})


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_no_constant)
MANY_OBJECTS = 64  # more objects than this in a body: its lists' lengths are checked before its keys


_JSON_WHITESPACE = " \t\n\r"  # RFC 8259, section 2


def decode_json(raw: bytes) -> Any:
    """The JSON value of ``raw``: 400 unless it is UTF-8 JSON text without ``NaN`` or ``Infinity``, a
    number too long to read or a repeated key; 422 when nested too deep to decode."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiProblem(400, "detail.not_utf8") from None
    if text.startswith("\ufeff") or "\x00" in text[:4]:  # a byte order mark, or UTF-16/32 seen as UTF-8
        raise ApiProblem(400, "detail.not_utf8")
    if not text.strip(_JSON_WHITESPACE):
        raise ApiProblem(400, "detail.empty_body")  # said as such, not as the decoder's "Expecting value"
    try:
        return _DECODER.decode(text)
    except _NotJson as error:
        raise ApiProblem(400, error.detail, error.params) from None
    except json.JSONDecodeError as error:
        raise malformed_json(error) from None
    except ValueError:  # the only other: an integer beyond Python's digit limit for int()
        raise ApiProblem(400, "detail.number_too_long") from None
    except RecursionError:
        raise too_deep() from None


def read_json(raw: bytes) -> Any:
    """The JSON value of ``raw``, or the problem ``decode_json`` answers for it.

    jiter reads it, refusing a repeated key and NaN or Infinity. What it takes, ``decode_json`` takes too,
    with an equal value of the same types (tests/api/test_json_reading.py): both read UTF-8 only, and
    integers as ``int``. Anything it refuses is read again by ``decode_json``: a fault, which that says in
    its own words; or what jiter leaves to it (a lone surrogate escape, a number of thousands of digits,
    nesting deeper than jiter goes), which that reads."""
    try:
        return jiter.from_json(raw, allow_inf_nan=False, catch_duplicate_keys=True)
    except ValueError:
        return decode_json(raw)


def malformed_json(error: json.JSONDecodeError) -> ApiProblem:
    """The 400 of a body the decoder refuses, from the error's fields: its ``msg`` (a key of ``texts.JSON``),
    line, column and position."""
    found = texts.decoder_message(error.msg)
    if found is None:  # a message of a future decoder: shown as it is, inside a catalog text
        return ApiProblem(400, "detail.malformed_json", {"case": "other", "error": str(error)})
    return ApiProblem(
        400,
        "detail.malformed_json",
        {
            "case": "decode",
            "message": found,
            "line": error.lineno,
            "column": error.colno,
            "char": error.pos,
        },
    )


LARGE_BODY = 16 * 1024  # bytes; the contract's largest valid requests (a whole game record) are a few KiB


def refuse_long_lists(schema: Schema, raw: bytes) -> None:
    """A 422 now if ``raw`` holds a list longer than ``schema`` allows (``check_list_lengths``). The body is
    read by ``orjson.loads`` here, not by ``decode_json``: this check comes before the body's JSON faults
    (``load_body``), and orjson keeps the last of a repeated key where ``decode_json`` refuses it. Anything
    orjson cannot read is left to ``decode_json``, which says why (400)."""
    try:
        quick = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return
    check_list_lengths(schema, quick)


def _large(raw: bytes) -> bool:
    """Whether a body is large or holds many objects: its lists' lengths are then checked before its keys."""
    return len(raw) > LARGE_BODY or raw.count(b"{") > MANY_OBJECTS


# Flask types its request proxy as the Request it stands for; the proxy's own method gives the object once
_REQUEST = cast("LocalProxy[Request]", request)


def load_body(schema: Schema) -> Any:
    """The request's JSON body loaded by ``schema``: 415 when not JSON, 400 when unparseable,
    422 when nested too deep (``limits``) or (via the error handler) when it does not match.

    A large body (``_large``) with a list past its maximum is answered that list's 422, whatever else is
    wrong with it: a repeated key, ``NaN``, its depth. So its lists' lengths are checked before its JSON
    fault is answered, and, when the fast path declines it, before anything else."""
    req = _REQUEST._get_current_object()  # one proxy look-up for the reads below (Flask's documented way)
    if req.environ.get("CONTENT_TYPE") != "application/json":  # the usual header, or parse it
        if not req.is_json:
            raise ApiProblem(415, "detail.not_json")
        if req.mimetype_params.get("charset", "utf-8").lower() not in ("utf-8", "utf8"):  # docs/rulings.md
            raise ApiProblem(415, "detail.charset")
    raw = read_body(req)
    try:
        body = read_json(raw)
    except ApiProblem:
        if _large(raw):
            refuse_long_lists(schema, raw)
        raise
    # When the fast path answers, it answers what ``schema.load`` would (tests/api/test_loading.py): no list
    # is past its maximum, and there is nothing to check first.
    loaded = fast_load(schema, body)
    if loaded is not None:  # shaped as the schema: never nested deeper than it (tests/api/test_loading.py)
        return loaded
    if _large(raw):  # its lists' lengths before its depth
        check_list_lengths(schema, body)
        check_json_depth(raw, body)
    else:
        check_json_depth(raw, body)
        check_list_lengths(schema, body)
    try:
        return schema.load(body)
    except ValidationError as error:
        name_near_fields(schema, error.messages)
        raise


NEAR_FIELD_CUTOFF = 0.6  # difflib's ratio, compared in lower case: "Row" is row, "plyers" is players
NEAR_FIELD_LENGTH = 40  # characters of an unknown name compared: no field of ours is half as long
NEAR_FIELDS_NAMED = 100  # unknown names given a suggestion per request: as many as a problem lists errors


def name_near_fields(schema: Schema, messages: Any, budget: list[int] | None = None) -> None:
    """Each unknown field of a refused request whose name is close to one of its object's fields gets the
    text that names it ("did you mean row?"), in place in marshmallow's ``messages``, nested objects and
    lists of them included; at most ``NEAR_FIELDS_NAMED`` names are compared, each by its first
    ``NEAR_FIELD_LENGTH`` characters, so a body of thousands of unknown keys costs what a hundred do."""
    budget = [NEAR_FIELDS_NAMED] if budget is None else budget
    if not isinstance(messages, dict):
        return
    known = {field.data_key or name: field for name, field in schema.fields.items()}
    for key, found in messages.items():
        field = known.get(key)
        if field is not None:
            inner = field.inner if isinstance(field, fields.List) else field
            if isinstance(inner, fields.Nested) and isinstance(inner.schema, Schema) and isinstance(found, dict):
                items = found.values() if isinstance(field, fields.List) else [found]
                for item in items:
                    name_near_fields(inner.schema, item, budget)
        elif isinstance(key, str) and key != "_schema" and budget[0] > 0:
            budget[0] -= 1
            near = _near(key, list(known))
            if near is not None:
                messages[key] = [texts.SchemaMessage.of(Message("schema", "unknown_near", {"near": near}))]


def _near(name: str, names: list[str]) -> str | None:
    by_lower = {n.lower(): n for n in names}
    found = difflib.get_close_matches(name[:NEAR_FIELD_LENGTH].lower(), list(by_lower), n=1, cutoff=NEAR_FIELD_CUTOFF)
    return by_lower[found[0]] if found else None


def answer(body: Any, status: int = 200) -> Response:
    """A 200 (or ``status``) JSON answer, UTF-8.

    orjson encodes these answers several times faster than the standard library (bench/encoding.py; the
    figures are in bench/README.md), and faster again when every key is a plain ``str`` (its
    ``OPT_NON_STR_KEYS`` checks each key's type), so that is tried first."""
    try:
        data = orjson.dumps(body)
    except orjson.JSONEncodeError:
        data = _encoded_otherwise(body)
    return ServiceResponse(data, status=status, content_type="application/json")


def _encoded_otherwise(body: Any) -> bytes:
    """An answer orjson's plain call refuses: a key that is a ``str`` subclass (a row, a str enum) is written
    as its value by ``OPT_NON_STR_KEYS``; a str that is not valid UTF-8 (a lone surrogate that a client's
    JSON escape smuggled in, should an answer ever echo one) is escaped by the standard encoder instead."""
    try:
        return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(body, separators=(",", ":")).encode()


def hand_value(hand: HandValue, lang: str | None = None) -> dict[str, Any]:
    """A hand value as answered; ``lang`` (the request's by default) when the caller has read it already."""
    body: dict[str, Any] = {
        "category": hand.category,
        "label": i18n.label(hand, lang),
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
    rules_only: tuple[str, ...] = ()
    """The ``errors`` a request valid against the contract can still get: what only the rules can decide
    (a size that depends on another field, a card twice across lists or in two spellings, the game's state)."""
    lengths_by_rule_set: tuple[str, ...] = ()
    """Pointers of lists whose length the rule set named decides: the contract gives the widest bounds of
    the game's rule sets, so a request valid against it can get the schema's ``wrong_length`` there."""


def rule_codes(
    domain: str,
    *,
    violations: Iterable[str] = (),
    errors: Iterable[str] = (),
    rules_only: Iterable[str] = (),
    lengths_by_rule_set: Iterable[str] = (),
) -> Callable[[View], View]:
    """Declare, on a route, the codes it answers (``service/api/catalog.py`` lists them; the test client
    checks every answer against them, and the contract fuzzing checks that a request valid against the
    contract is refused only for a reason in ``rules_only`` or ``lengths_by_rule_set``)."""
    codes = RuleCodes(domain, _codes(violations), _codes(errors), _codes(rules_only), tuple(lengths_by_rule_set))
    if not set(codes.rules_only) <= set(codes.errors):
        raise ValueError(
            f"rules_only codes that are not errors of the route: {set(codes.rules_only) - set(codes.errors)}"
        )

    def declare(view: View) -> View:
        view.rule_codes = codes  # type: ignore[attr-defined]  # read back by catalog.py; a function takes any attribute
        return view

    return declare


def _codes(codes: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(map(str, codes)))
