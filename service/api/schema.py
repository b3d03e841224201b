"""The base of every request schema and the field types the games share: where JSON becomes the rules
core's arguments. A schema declares its fields and, in ``build``, the domain object it makes of them; both
``Schema.load`` (every fault reported) and the compiled fast path (``service/api/loading.py``) go through
these declarations, so there is one description of each request shape besides ``openapi.yaml``."""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, pre_load, validate

from service.api import texts
from service.api.errors import MAX_ERRORS, UNLISTED, Unlisted
from service.rules.cards import CARD_BY_TEXT, CARD_OR_JOKER_BY_TEXT, Card, parse_card, read_cards
from service.rules.errors import CardNotationError

texts.install_schema_messages()  # before any schema is built: marshmallow's messages keep their keys


CARD_PATTERN = "^(?:[2-9TJQKAtjqka]|10)[cdhsCDHS♣♦♥♠♧♢♡♤]$"
CARD_OR_JOKER_PATTERN = "^(?:(?:[2-9TJQKAtjqka]|10)[cdhsCDHS♣♦♥♠♧♢♡♤]|[jJ][kK])$"
"""The contract's patterns of a card (openapi.yaml's ``Card``, and ``JokerThirteenCard`` with the joker):
tests/api/test_spec.py holds them to the contract and to the spellings the tables above accept."""


class CardField(fields.Field[Card]):
    """A card string in any accepted notation, loaded as a ``Card`` (``jokers`` allows ``JK``)."""

    def __init__(self, *, jokers: bool = False, **kwargs: Any):
        pattern = CARD_OR_JOKER_PATTERN if jokers else CARD_PATTERN
        super().__init__(metadata={"pattern": pattern}, **kwargs)
        self.jokers = jokers
        self.table = CARD_OR_JOKER_BY_TEXT if jokers else CARD_BY_TEXT  # every spelling it takes, and its card

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Card:
        try:
            return parse_card(value, jokers=self.jokers)
        except CardNotationError as error:
            raise ValidationError(texts.SchemaMessage.of(error.problems[0].text)) from None


class CardList(fields.List[Card]):
    """A list of cards, loaded as a list or, with ``container=tuple``, as a tuple (a board's row, an
    action's cards: what the rules core's value objects hold). Valid lists (the common case) are read with
    one dictionary look-up per card (``cards.read_cards``); any problem falls back to the item-by-item
    path, which reports each bad entry at its index."""

    inner: CardField  # the only item field it is made with

    def __init__(self, inner: CardField, *, container: type = list, **kwargs: Any):
        super().__init__(inner, **kwargs)
        self.table = inner.table
        self.container = container

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        cards: Sequence[Card | None] | None = read_cards(value, jokers=self.inner.jokers)
        if cards is None:
            cards = super()._deserialize(value, attr, data, **kwargs)
        return cards if self.container is list else self.container(cards)


def card_list(min_items: int, max_items: int, *, jokers: bool = False, **kwargs: Any) -> CardList:
    return CardList(CardField(jokers=jokers), validate=validate.Length(min=min_items, max=max_items), **kwargs)


def length(low: int, high: int) -> validate.Length:
    """A Length validator of ``low`` to ``high`` items (exactly ``low`` when they are equal)."""
    return validate.Length(equal=low) if low == high else validate.Length(min=low, max=high)


class ListBoundBy(fields.List[Any]):
    """A list whose bounds depend on a sibling field: ``bounds_by`` is (the sibling's key, {its value:
    (fewest, most)}, the bounds when it is absent or names none of them), as the players of a hand depend on
    the rule set the request names. Checked once the list has loaded, with a Length validator's message;
    the declared Length validator (the widest bounds, the contract's) is checked as any field's."""

    def __init__(
        self,
        inner: fields.Field[Any],
        bounds_by: tuple[str, dict[str, tuple[int, int]], tuple[int, int]],
        **kwargs: Any,
    ):
        super().__init__(inner, **kwargs)
        self.bounds_by = bounds_by
        _, bounds, default = bounds_by
        self._lengths = {value: length(*bound) for value, bound in bounds.items()}
        self._default_length = length(*default)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        loaded = super()._deserialize(value, attr, data, **kwargs)
        named = data.get(self.bounds_by[0]) if isinstance(data, dict) else None
        check = self._lengths.get(named, self._default_length) if type(named) is str else self._default_length
        check(loaded)
        return loaded


class ExactValues(fields.Field[Any]):
    """A JSON value among declared ones, by exact type: ``values`` maps a type to the values of it taken
    (``{int: range(1, 6), str: {"fantasyland"}}``: no ``true`` for 1, no ``1.0``); anything else is refused
    with ``message``."""

    def __init__(self, values: Mapping[type, Container[Any]], message: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.values = values
        self.message = message

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value in self.values.get(type(value), ()):
            return value
        raise ValidationError(self.message)


class OneOfShapes(fields.Field[Any]):
    """A value written in one of a few JSON shapes, each read by a field of its own: ``shapes`` maps a JSON
    type (``list``, ``dict``) to that field (a Big Two table, as its cards or as ``{"cards", "seat"}``). Any
    other type is refused as a Nested field refuses a non-object."""

    default_error_messages = {"type": fields.Nested.default_error_messages["type"]}

    def __init__(self, shapes: Mapping[type, fields.Field[Any]], **kwargs: Any):
        super().__init__(**kwargs)
        self.shapes = dict(shapes)

    def _bind_to_schema(self, field_name: str, parent: Any) -> None:
        super()._bind_to_schema(field_name, parent)
        for shape in self.shapes.values():  # a Nested shape finds its schema's context through its parent
            shape._bind_to_schema(field_name, parent)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        shape = self.shapes.get(type(value))
        if shape is None:
            raise self.make_error("type")
        return shape.deserialize(value, attr, data, **kwargs)


class StrictSchema(Schema):
    """Unknown fields are errors (the marshmallow default, stated here so no schema relaxes it).

    ``build`` turns the loaded fields into what the rules core takes (a ``Board``, a ``Seat``, an
    ``Action``); it is the only hook a request schema has, so that the fast path, which calls it too,
    answers exactly as ``load`` does (``tests/api/test_loading.py``)."""

    class Meta:
        unknown = "raise"

    error_messages = texts.schema_errors()  # "Unknown field.", "Invalid input type.", with their keys

    build: Callable[..., Any] | None = None
    """What the loaded fields make, given each by its name: a value object's own constructor, whose
    parameters are the fields (``build = Board``), or a static function of them; None (the default) leaves
    the dict of the fields as loaded."""

    @pre_load
    def _refuse_far_too_many_keys(self, data: Any, **kwargs: Any) -> Any:
        """An object holding more than ``MAX_ERRORS`` keys beyond the fields it declares is refused here,
        before marshmallow reads its keys one by one (a small body can hold thousands): the first
        ``MAX_ERRORS`` unknown keys, in the body's order, each "Unknown field.", and under ``UNLISTED`` how
        many more there are, which a problem counts without listing them. Its fields are not read."""
        if type(data) is not dict or len(data) <= len(self.load_fields) + MAX_ERRORS:
            return data
        declared = {field.data_key or name for name, field in self.load_fields.items()}
        unknown = self.error_messages["unknown"]
        listed: dict[Any, Any] = {}
        for key in data:  # at most MAX_ERRORS keys past the declared ones
            if key not in declared:
                listed[key] = [unknown]
                if len(listed) == MAX_ERRORS:
                    break
        listed[UNLISTED] = Unlisted(len(data) - sum(key in data for key in declared) - MAX_ERRORS)
        raise ValidationError(listed)

    @post_load
    def _build(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return data if self.build is None else self.build(**data)


class StrictBoolean(fields.Boolean):
    """JSON ``true``/``false`` only: no "yes", no 1, so a client's type mistake is reported, not guessed."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictInteger(fields.Integer):
    """A JSON integer: no strings, no booleans, no fractions. A whole-valued number such as ``10.0`` is
    that integer, as JSON Schema 2020-12 (OpenAPI 3.1's ``type: integer``) says (docs/rulings.md)."""

    def __init__(self, **kwargs: Any):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        if type(value) is float and value.is_integer():
            value = int(value)
        return super()._deserialize(value, attr, data, **kwargs)
