"""One fast path for every request schema, derived from its marshmallow declarations.

marshmallow reports every fault of a request precisely, and costs for it: a 15-action OFC record spent
765 us in ``Schema.load``, 29 us per action (issue 15). Most requests are plainly valid, so each schema is
compiled once into a loader that reads exactly the declared fields, checks each value's JSON type exactly,
runs the fields' own validators and the schema's ``build`` (which makes the rules core's arguments), and
gives up (``None``) on anything else: an unknown key, a missing required field, a type marshmallow would
coerce or refuse, a failing validator. ``load_body`` then runs ``Schema.load``, which finds and reports
every fault. So the fast path never answers differently from ``load``, only sooner
(``tests/api/test_loading.py`` holds it to ``load``'s answers on every operation's examples, mutated).

A field class the compiler does not know (a game's own field, such as a rule-set-dependent list) is read by
its own ``deserialize``: still right, only not inlined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate
from marshmallow.utils import missing

from service.api.schema import CardField, CardList, StrictBoolean, StrictInteger
from service.rules.cards import CARD_BY_TEXT, CARD_OR_JOKER_BY_TEXT

Reader = Callable[[Any, dict[str, Any]], Any]
"""Reads one field's JSON value (its object given for context); raises ``Decline`` when unsure."""


class Decline(Exception):
    """The fast path gives the request to ``Schema.load``.

    Always raised as the class (``raise Decline``), a new instance each time: an instance raised again keeps
    every earlier raise's frames in its ``__traceback__``, and with them each request's parsed body."""


def fast_load(schema: Schema, data: Any) -> Any | None:
    """What ``schema.load(data)`` answers, when ``data`` is plainly valid; otherwise None."""
    try:
        return fast_reader(schema)(data, {})
    except Decline:
        return None


_LOADERS: dict[type[Schema], Reader] = {}


def _compile(schema: Schema) -> Reader:
    """A reader for a whole object of ``schema``: its declared fields only, then ``schema.build``.

    Generated as Python source, one statement per declared field, because this is the inner loop of every
    request: a generic loop over the fields cost twice the hand-written readers it replaced."""
    names: dict[str, Any] = {"Decline": Decline, "missing": missing, "ValidationError": ValidationError,
                             "build": schema.build}  # type: ignore[attr-defined]  # fmt: skip
    known = []
    body = ["def read_object(value, _parent):",
            "    if type(value) is not dict or not value.keys() <= known:",
            "        raise Decline",
            "    loaded = {}"]  # fmt: skip
    for i, (name, field) in enumerate(schema.load_fields.items()):
        key, attribute = field.data_key or name, field.attribute or name
        known.append(key)
        names[f"read{i}"], names[f"default{i}"] = _field_reader(field), field.load_default
        body += [f"    item = value.get({key!r}, missing)", "    if item is not missing:"]
        if field.allow_none:
            body.append(f"        loaded[{attribute!r}] = None if item is None else read{i}(item, value)")
        else:
            body += [
                "        if item is None:",
                "            raise Decline",
                f"        loaded[{attribute!r}] = read{i}(item, value)",
            ]
        if field.required:
            body += ["    else:", "        raise Decline"]
        elif field.load_default is not missing:
            body += [
                "    else:",
                f"        loaded[{attribute!r}] = default{i}{'()' if callable(field.load_default) else ''}",
            ]
    body += [
        "    try:",
        "        return build(loaded)",
        "    except ValidationError:",
        "        raise Decline from None",
    ]
    names["known"] = frozenset(known)
    exec("\n".join(body), names)  # noqa: S102 - source built above from the schema's own declarations
    return names["read_object"]  # type: ignore[no-any-return]


def _validated(reader: Reader, field: fields.Field) -> Reader:
    """``reader`` followed by the field's validators: the common ones (a length, a range, a choice) as
    plain comparisons, any other called as marshmallow would call it. A list's lengths are also checked
    before any item is read (``_length_first``)."""
    if isinstance(field, fields.List):
        lengths = [_check_of(v) for v in field.validators if type(v) is validate.Length]
        if lengths:
            reader = _length_first(reader, lengths)
    checks = [_check_of(validator) for validator in field.validators]
    if not checks:
        return reader
    if len(checks) == 1:
        check = checks[0]

        def read_one(value: Any, parent: dict[str, Any]) -> Any:
            loaded = reader(value, parent)
            if not check(loaded):
                raise Decline
            return loaded

        return read_one

    def read(value: Any, parent: dict[str, Any]) -> Any:
        loaded = reader(value, parent)
        for check in checks:
            if not check(loaded):
                raise Decline
        return loaded

    return read


def _length_first(reader: Reader, lengths: list[Callable[[Any], bool]]) -> Reader:
    """``reader`` behind the list's length checks on the JSON array itself (a list's items are read one to
    one), so that a list past its maxItems is declined before a single item is read: ``load_body`` tries
    the fast path before ``check_list_lengths``, and a hostile body must not make it read a long list."""

    def read(value: Any, parent: dict[str, Any]) -> Any:
        if type(value) is list:
            for length in lengths:
                if not length(value):
                    raise Decline
        return reader(value, parent)

    return read


def _check_of(validator: Callable[[Any], Any]) -> Callable[[Any], bool]:
    """A predicate that holds exactly when ``validator`` passes."""
    kind = type(validator)
    if kind is validate.Length:
        low, high, equal = validator.min, validator.max, validator.equal  # type: ignore[attr-defined]
        if equal is not None:
            return lambda value: len(value) == equal
        low = 0 if low is None else low
        high = float("inf") if high is None else high
        return lambda value: low <= len(value) <= high
    if kind is validate.Range and validator.min_inclusive and validator.max_inclusive:  # type: ignore[attr-defined]
        low, high = validator.min, validator.max  # type: ignore[attr-defined]
        low = float("-inf") if low is None else low
        high = float("inf") if high is None else high
        return lambda value: low <= value <= high
    if kind is validate.OneOf:
        try:
            choices = frozenset(validator.choices)  # type: ignore[attr-defined]
        except TypeError:  # unhashable choices: ask the validator
            pass
        else:

            def chosen(value: Any) -> bool:
                try:
                    return value in choices
                except TypeError:  # unhashable: not one of them
                    return False

            return chosen

    def passes(value: Any) -> bool:
        try:
            return validator(value) is not False
        except ValidationError:
            return False

    return passes


def _field_reader(field: fields.Field) -> Reader:
    kind = type(field)
    if kind is StrictInteger:
        reader: Reader = _exact(int)
    elif kind is StrictBoolean:
        reader = _exact(bool)
    elif kind is fields.String:
        reader = _exact(str)
    elif kind is CardField:
        reader = _card(field.jokers)  # type: ignore[attr-defined]
    elif kind is CardList:
        lengths = [v for v in field.validators if type(v) is validate.Length]
        if len(lengths) == len(field.validators) == 1:  # the usual card list: its length checked in the same call
            return _cards(field.table, _check_of(lengths[0]))  # type: ignore[attr-defined]
        reader = _cards(field.table, None)  # type: ignore[attr-defined]
    elif kind is fields.List:
        reader = _list(_field_reader(field.inner))  # type: ignore[attr-defined]
    elif kind is fields.Nested and isinstance(field.schema, Schema) and not field.many:  # type: ignore[attr-defined]
        reader = fast_reader(field.schema)  # type: ignore[attr-defined]
    elif hasattr(field, "fast_reader"):  # a game's own field that declares its fast path
        reader = field.fast_reader(_field_reader, Decline)  # type: ignore[attr-defined]
        if getattr(field, "fast_reader_validates", False):  # it checks the field's validators itself
            return reader
    else:
        return _own(field)
    return _validated(reader, field)


def fast_reader(schema: Schema) -> Reader:
    reader = _LOADERS.get(type(schema))
    if reader is None:
        reader = _LOADERS[type(schema)] = _compile(schema)
    return reader


def _exact(kind: type) -> Reader:
    def read(value: Any, _parent: dict[str, Any]) -> Any:
        if type(value) is not kind:  # exactly: no bool for int, no coercion marshmallow would do or refuse
            raise Decline
        return value

    return read


def _card(jokers: bool) -> Reader:
    table = CARD_OR_JOKER_BY_TEXT if jokers else CARD_BY_TEXT

    def read(value: Any, _parent: dict[str, Any]) -> Any:
        try:
            return table[value]
        except (KeyError, TypeError):
            raise Decline from None

    return read


def _cards(table: dict[str, Any], length: Callable[[Any], bool] | None) -> Reader:
    card = table.__getitem__

    def read(value: Any, _parent: dict[str, Any]) -> Any:
        if type(value) is not list or (length is not None and not length(value)):
            raise Decline
        try:
            return list(map(card, value))
        except (KeyError, TypeError):
            raise Decline from None

    return read


def _list(item: Reader) -> Reader:
    def read(value: Any, parent: dict[str, Any]) -> Any:
        if type(value) is not list:
            raise Decline
        return [item(element, parent) for element in value]

    return read


def _own(field: fields.Field) -> Reader:
    """A field class of a game's own: its ``deserialize`` (with its validators), declining on any error."""

    def read(value: Any, parent: dict[str, Any]) -> Any:
        try:
            return field.deserialize(value, None, parent)
        except ValidationError:
            raise Decline from None

    return read
