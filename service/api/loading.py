"""One fast path for every request schema, compiled from its marshmallow declarations.

marshmallow reports every fault of a request precisely, and costs for it: ``Schema.load`` spends on every
field of every item, so a long OFC record costs it more per action than the rules that score it (figures:
bench/README.md, ``loading.py``). Most requests are plainly valid, so each schema is compiled
once into a reader that reads exactly the declared fields, checks each value's JSON type exactly, runs the
fields' validators and each object's ``build`` (which makes the rules core's arguments), and declines
(``Decline``) anything else: an unknown key, a missing required field, a type marshmallow would coerce or
refuse, a failing validator. ``load_body`` then runs ``Schema.load``, which finds and reports every fault.
So the fast path never answers differently from ``load``, only sooner (``tests/api/test_loading.py`` holds
it to ``load``'s answers on every operation's examples, mutated).

The reader is one Python function generated per schema, every nested object and list read inline (a list
is a loop), so that reading a request costs no call per field or per item, only each object's ``build``.
It reads inline what it knows how a field class reads (its ``_deserialize``, ``_INLINED``):

- a JSON scalar of the exact type (``StrictInteger``, ``StrictBoolean``, ``fields.String``), a card
  (``CardField``), a card list (``CardList``: a list or a tuple, as it declares);
- any ``fields.List`` (a subclass too) of what it reads, its lengths checked before any item is read (a
  hostile body must not make it read a long list), and the bound a sibling field decides
  (``ListBoundBy.bounds_by``);
- any ``fields.Nested`` of one object;
- a value among declared ones (``ExactValues``), an enum's member by its value or its name (``fields.Enum``);
- a value of one of a few JSON shapes, each read as its own field reads it (``OneOfShapes``);
- the common validators as comparisons (Length, an inclusive Range, OneOf), any other called.

A field of another class (or a subclass that reads otherwise) is read by its own ``deserialize``: still
right, only not inlined.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate
from marshmallow.utils import missing

from service.api.schema import CardField, CardList, ExactValues, ListBoundBy, OneOfShapes, StrictBoolean, StrictInteger

Reader = Callable[[Any], Any]
"""Reads a whole request body: what ``Schema.load`` answers, or ``Decline``."""


class Decline(Exception):
    """The fast path gives the request to ``Schema.load``.

    Always raised as the class (``raise Decline``), a new instance each time: an instance raised again keeps
    every earlier raise's frames in its ``__traceback__``, and with them each request's parsed body."""


def fast_load(schema: Schema, data: Any) -> Any | None:
    """What ``schema.load(data)`` answers, when ``data`` is plainly valid; otherwise None."""
    try:
        return compiled_reader(schema)(data)
    except Decline:
        return None


_READERS: dict[type[Schema], Reader] = {}


def compiled_reader(schema: Schema) -> Reader:
    """The reader of ``schema``'s requests, compiled on first use."""
    reader = _READERS.get(type(schema))
    if reader is None:
        reader = _READERS[type(schema)] = _compile(schema)
    return reader


# What each known field class reads: the exact JSON type of a scalar, or how a value is read inline.
_SCALARS: dict[Callable[..., Any], type] = {
    StrictInteger._deserialize: int,
    StrictBoolean._deserialize: bool,
    fields.String._deserialize: str,
}
_INLINED = {
    *_SCALARS,
    CardField._deserialize,
    CardList._deserialize,
    fields.List._deserialize,
    ListBoundBy._deserialize,
    fields.Nested._deserialize,
    ExactValues._deserialize,
    fields.Enum._deserialize,
    OneOfShapes._deserialize,
}


class _Source:
    """A reader's Python text as it is written: its lines, and the objects it refers to (tables,
    validators, builds, defaults), each bound to a name of its own."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[str, Any] = {"Decline": Decline, "missing": missing, "ValidationError": ValidationError}
        self.bound: dict[int, str] = {}  # id of an object bound -> its name
        self.count = 0

    def new(self, hint: str) -> str:
        """A name not used yet."""
        self.count += 1
        return f"{hint}{self.count}"

    def bind(self, value: Any, hint: str) -> str:
        """A name for ``value`` (the same for the same object); an int or a string is written as itself."""
        if type(value) in (int, str):
            return repr(value)
        name = self.bound.get(id(value))
        if name is None:
            name = self.bound[id(value)] = self.new(hint)
            self.names[name] = value
        return name

    def add(self, depth: int, *lines: str) -> None:
        self.lines += ["    " * depth + line for line in lines]

    def decline_if(self, depth: int, condition: str) -> None:
        self.add(depth, f"if {condition}:", "    raise Decline")


def _compile(schema: Schema) -> Reader:
    """One function reading a whole request of ``schema``. A key missing or a value no table holds
    (``KeyError``), an unhashable value (``TypeError``) and a ``build`` or a validator refusing
    (``ValidationError``) are all a decline."""
    source = _Source()
    source.add(0, "def read(value):", "    try:")
    made = _object(source, schema, "value", 2)
    source.add(2, f"return {made}")
    source.add(1, "except (KeyError, TypeError, ValidationError):", "    raise Decline from None")
    exec("\n".join(source.lines), source.names)  # source built above from the schema's declarations
    reader: Reader = source.names["read"]  # the function the text above defines
    return reader


def _object(source: _Source, schema: Schema, var: str, depth: int) -> str:
    """Reads the object in ``var`` by ``schema``: its declared keys only, each field, then its ``build``.
    Gives the expression of what it makes."""
    declared = list(schema.load_fields.items())
    # No key but the declared ones: every required key is read (a KeyError if absent), so the object holds
    # no other key when it has as many keys as required fields plus optional fields present.
    required = sum(field.required for _, field in declared)
    optional = [repr(field.data_key or name) for name, field in declared if not field.required]
    keys = " + ".join([str(required), *(f"({key} in {var})" for key in optional)])
    source.decline_if(depth, f"type({var}) is not dict or len({var}) != {keys}")
    members = [
        (
            field.attribute or name,
            _member(source, field, var, field.data_key or name, depth),
            field.required or field.load_default is not missing,
        )
        for name, field in declared
    ]
    build = getattr(schema, "build", None)
    if build is None:  # the dict of the fields, as loaded
        return _loaded(source, members, depth)
    name = source.bind(build, "build")
    given = {attribute: item for attribute, item, present in members if present}
    leading = (_parameters(build) or [])[: len(members)]
    if len(given) == len(members) and set(leading) == set(given):  # by position, in the build's order
        return f"{name}({', '.join(given[parameter] for parameter in leading)})"
    return f"{name}(**{_loaded(source, members, depth)})"


def _parameters(build: Callable[..., Any]) -> list[str] | None:
    """The names of ``build``'s parameters, when it takes each by position or by name; else None."""
    try:
        parameters = inspect.signature(build).parameters.values()
    except (TypeError, ValueError):  # no signature to read
        return None
    if any(p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters):
        return None
    return [p.name for p in parameters]


def _member(source: _Source, field: fields.Field[Any], var: str, key: str, depth: int) -> str:
    """Reads ``var[key]`` by ``field``, required, defaulted or optional as declared. Gives the variable
    that holds it (``missing`` when optional and absent)."""
    item = source.new("item")
    if field.required:
        source.add(depth, f"{item} = {var}[{key!r}]")
        _value(source, field, item, var, depth)
        return item
    source.add(depth, f"{item} = {var}.get({key!r}, missing)")
    if field.load_default is missing:
        source.add(depth, f"if {item} is not missing:")
    else:  # the default as declared: not read, not validated (as marshmallow)
        default = source.bind(field.load_default, "default")
        call = "()" if callable(field.load_default) else ""
        source.add(depth, f"if {item} is missing:", f"    {item} = {default}{call}", "else:")
    _value(source, field, item, var, depth + 1)
    return item


def _loaded(source: _Source, members: list[tuple[str, str, bool]], depth: int) -> str:
    """The dict marshmallow loads: each field under its attribute (a ``Row`` too), in declared order, an
    optional field absent left out. Gives its expression: a dict display while every field is there."""
    keyed = [(source.bind(attribute, "key"), item, present) for attribute, item, present in members]
    always = 0
    while always < len(keyed) and keyed[always][2]:
        always += 1
    display = "{" + ", ".join(f"{key}: {item}" for key, item, _ in keyed[:always]) + "}"
    if always == len(keyed):
        return display
    loaded = source.new("loaded")
    source.add(depth, f"{loaded} = {display}")
    for key, item, present in keyed[always:]:
        if present:
            source.add(depth, f"{loaded}[{key}] = {item}")
        else:
            source.add(depth, f"if {item} is not missing:", f"    {loaded}[{key}] = {item}")
    return loaded


def _value(source: _Source, field: fields.Field[Any], var: str, parent: str, depth: int) -> None:
    """Reads the JSON value in ``var`` (of the object in ``parent``, ``None`` for a list's item) by
    ``field`` into what it loads, in place. Every way of reading a value refuses a null by itself (a type
    checked, a table without it, ``deserialize``), so only a field that allows one says so."""
    if field.allow_none:
        source.add(depth, f"if {var} is not None:")
        depth += 1
    reads = type(field)._deserialize
    if not inlined(field):
        own = source.bind(field.deserialize, "deserialize")  # its validators too
        source.add(depth, f"{var} = {own}({var}, None, {parent})")
        return
    checked = []
    if reads in _SCALARS:
        source.decline_if(depth, f"type({var}) is not {_SCALARS[reads].__name__}")
    elif isinstance(field, CardField):
        source.add(depth, f"{var} = {source.bind(field.table, 'cards')}[{var}]")
    elif isinstance(field, fields.List):
        checked = _list(source, field, var, parent, depth)
    elif isinstance(field, fields.Nested):
        source.add(depth, f"{var} = {_object(source, field.schema, var, depth)}")
    elif isinstance(field, ExactValues):
        source.decline_if(depth, f"{var} not in {source.bind(field.values, 'values')}.get(type({var}), ())")
    elif isinstance(field, OneOfShapes):  # each shape by its JSON type, read as its field reads it
        for i, (kind, shape) in enumerate(field.shapes.items()):
            source.add(depth, f"{'if' if i == 0 else 'elif'} type({var}) is {source.bind(kind, 'kind')}:")
            _value(source, shape, var, parent, depth + 1)
        source.add(depth, "else:", "    raise Decline")
    elif isinstance(field, fields.Enum):  # a member by its value (a string), or by its name
        members = {m.value: m for m in field.enum} if field.by_value else dict(field.enum.__members__)
        source.add(depth, f"{var} = {source.bind(members, 'members')}[{var}]")
    for validator in field.validators:
        if validator not in checked:
            _check(source, validator, var, depth)


def inlined(field: fields.Field[Any]) -> bool:
    """Whether the compiled reader reads ``field`` itself (else by the field's own ``deserialize``): a class
    it knows how reads a value, and a Nested field holds one object of a schema."""
    if type(field)._deserialize not in _INLINED:
        return False
    if isinstance(field, fields.Enum):  # read as a string: a name, or a value through a String field
        return type(field.field) is fields.String and (
            not field.by_value or all(type(m.value) is str for m in field.enum)
        )
    if isinstance(field, OneOfShapes):
        return all(inlined(shape) and not shape.allow_none for shape in field.shapes.values())
    return not isinstance(field, fields.Nested) or (not field.many and isinstance(field.schema, Schema))


def _list(source: _Source, field: fields.List[Any], var: str, parent: str, depth: int) -> list[Any]:
    """Reads the JSON array in ``var``: its lengths first (the Length validators, a sibling's bound), then
    its items, in one loop (a card list: one look-up per card). Gives the validators it checked."""
    lengths = [v for v in field.validators if type(v) is validate.Length]
    source.decline_if(depth, " or ".join([f"type({var}) is not list", *(_outside(source, v, var) for v in lengths)]))
    if isinstance(field, ListBoundBy):
        _bound_by(source, field, var, parent, depth)
    if isinstance(field, CardList):
        source.add(depth, f"{var} = {_cards(source, field, lengths, var, depth)}")
        return lengths
    items, item, append = source.new("items"), source.new("item"), source.new("append")
    source.add(depth, f"{items} = []", f"{append} = {items}.append", f"for {item} in {var}:")
    _value(source, field.inner, item, "None", depth + 1)  # (marshmallow gives a list's items no parent)
    source.add(depth + 1, f"{append}({item})")
    source.add(depth, f"{var} = {items}")
    return lengths


# A list of cards is read by map over its table, whose fixed cost is that of several look-ups: a list of a
# fixed size up to _WRITTEN_OUT cards (a row, a hand) is read by one look-up per card, written out, and one of
# a varying size too when it holds up to _FEW (the usual deal, discard or row placed), else by map.
_WRITTEN_OUT = 13
_FEW = 3


def _cards(source: _Source, field: CardList, lengths: list[validate.Length], var: str, depth: int) -> str:
    """The expression of the cards of the JSON array in ``var``, its length already checked."""
    table = source.bind(field.table, "cards")
    low, high = 0, None  # the fewest and most cards it may hold
    for length in lengths:
        fewest, most = (length.min or 0, length.max) if length.equal is None else (length.equal, length.equal)
        low, high = max(low, fewest), most if high is None else high if most is None else min(high, most)

    def written_out(size: int) -> str:
        cards = ", ".join(f"{table}[{var}[{i}]]" for i in range(size))
        return f"[{cards}]" if field.container is list else f"({cards}{',' if size == 1 else ''})"

    if low == high and high <= _WRITTEN_OUT:
        return written_out(low)
    mapped = f"{field.container.__name__}(map({source.bind(field.table.__getitem__, 'card')}, {var}))"
    few = range(low, _FEW + 1 if high is None else min(high, _FEW) + 1)
    if not few:
        return mapped
    size = source.new("size")
    source.add(depth, f"{size} = len({var})")
    return " ".join(f"{written_out(n)} if {size} == {n} else" for n in few) + f" {mapped}"


def _bound_by(source: _Source, field: ListBoundBy, var: str, parent: str, depth: int) -> None:
    """The bound of the list in ``var`` that its sibling in ``parent`` decides (``ListBoundBy``)."""
    key, bounds, default = field.bounds_by
    bounds_name, default_name, low, high = (
        source.bind(bounds, "bounds"),
        source.bind(default, "bound"),
        source.new("low"),
        source.new("high"),
    )
    if parent == "None":  # an item of a list: no sibling
        source.add(depth, f"{low}, {high} = {default_name}")
    else:
        named = source.new("named")
        source.add(depth, f"{named} = {parent}.get({key!r})")
        source.add(depth, f"{low}, {high} = {bounds_name}.get({named}, {default_name}) "
                          f"if type({named}) is str else {default_name}")  # fmt: skip  # the two halves of one generated line, aligned
    source.decline_if(depth, f"not {low} <= len({var}) <= {high}")


def _check(source: _Source, validator: Callable[[Any], Any], var: str, depth: int) -> None:
    """``validator`` on the loaded value in ``var``: the common ones as comparisons, any other called (a
    ``ValidationError`` it raises is a decline; a plain function refuses by answering False)."""
    if type(validator) is validate.Length or (
        type(validator) is validate.Range and validator.min_inclusive and validator.max_inclusive
    ):
        source.decline_if(depth, _outside(source, validator, var))
    elif type(validator) is validate.OneOf and _hashable(validator.choices):
        choices = source.bind(frozenset(validator.choices), "choices")
        source.decline_if(depth, f"{var} not in {choices}")  # an unhashable value: TypeError, a decline
    elif isinstance(validator, validate.Validator):
        source.add(depth, f"{source.bind(validator, 'validator')}({var})")
    else:
        source.decline_if(depth, f"{source.bind(validator, 'validator')}({var}) is False")


def _outside(source: _Source, validator: Any, var: str) -> str:
    """The condition on which a Length or an inclusive Range refuses the value in ``var``."""
    low, high = validator.min, validator.max
    value = var
    if type(validator) is validate.Length:
        value, low = f"len({var})", low or None  # (a length is never below 0)
        if validator.equal is not None:
            low = high = validator.equal
    if low is not None and low == high:
        return f"{value} != {source.bind(low, 'size')}"
    refused = [f"{value} < {source.bind(low, 'low')}"] if low is not None else []
    refused += [f"{value} > {source.bind(high, 'high')}"] if high is not None else []
    return " or ".join(refused) or "False"


def _hashable(choices: Any) -> bool:
    try:
        frozenset(choices)
    except TypeError:
        return False
    return True
