"""A rule parameter, declared once: on its field of the game's frozen rules object.

A rules object (``OfcRules``, ``BigTwoRules``, ``ThirteenRules``) declares each parameter on its dataclass
field (``flag``, ``count``, ``choice``, ``choices``, ``listed``): where a description writes it (its place: a
name, or a group and a name), the JSON it is written as (a ``Value``) and how it is read from and written to
that JSON. What lists, reads or refuses a parameter derives from that one declaration: ``describe`` (what
``GET /v1/games`` lists and the digest hashes), ``read_changes`` (a request's ``rules``, each refusal naming
the parameter's place) and the ``rules`` request schema (``table_rules_schema`` in ``service/api/games.py``),
which a drift test holds to the contract.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from service.rules.errors import InputProblem, InvalidInputError

DIGEST_LENGTH = 16  # hex digits of SHA-256: 64 bits, plenty to tell rule sets apart


@dataclass(frozen=True, slots=True)
class Value:
    """The JSON a parameter is written as: the part of JSON Schema the contract says of it."""

    type: str  # "boolean", "integer", "string", "array" or "object"
    null: bool = False  # null is written too
    enum: tuple[str, ...] = ()  # a string's values (none: any string)
    minimum: int | None = None
    maximum: int | None = None
    items: Value | None = None  # an array's items
    min_items: int = 0
    max_items: int | None = None
    properties: tuple[tuple[str, Value], ...] = ()  # an object's members
    name: str = ""  # an object's component name in the contract, after the game's prefix
    optional: bool = False  # an object's members may be left out (else every one is required)


def integer(least: int | None = None, most: int | None = None, *, null: bool = False) -> Value:
    return Value("integer", null, minimum=least, maximum=most)


def one_of(values: Iterable[str]) -> Value:
    return Value("string", enum=tuple(values))


def array(items: Value, most: int | None = None, least: int = 0) -> Value:
    return Value("array", items=items, min_items=least, max_items=most)


def record(name: str = "", **members: Value) -> Value:
    """An object of exactly ``members`` (a component of its own when ``name`` is given)."""
    return Value("object", properties=tuple(members.items()), name=name)


def _same(value: Any) -> Any:
    return value


Place = str | tuple[str, ...]
"""Where a description writes a parameter: a name, or a group and a name."""
Convert = Callable[[Any], Any]
"""How a parameter is read from JSON, or written to it."""


_ABSENT = object()


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of a rule set: its place in a description, the JSON it is written as, how it is read
    (None: listed only, a value derived from others or a fact no table changes) and written, and the value
    it ``implied`` before it was declared (every table's, then), if it was declared after its game was served."""

    place: tuple[str, ...]
    value: Value
    read: Convert | None
    write: Convert
    implied: Any = _ABSENT


def declare(
    place: Place,
    value: Value,
    *,
    read: Convert | None = _same,
    write: Convert = _same,
    implied: Any = _ABSENT,
    **options: Any,
) -> Any:
    """A dataclass field that is a parameter (``options``: the field's own, ``default`` or ``init``).

    ``implied``: for a parameter declared after its game was served, the value every table had until then.
    A table keeping it hashes as it did (``canonical``), so a ``rules_digest`` a client pinned stays the
    digest of the same rules."""
    at = (place,) if isinstance(place, str) else place
    return field(metadata={"parameter": Parameter(at, value, read, write, implied)}, **options)


def flag(place: Place, **options: Any) -> Any:
    """A yes-or-no parameter."""
    return declare(place, Value("boolean"), **options)


def count(place: Place, least: int, most: int, **options: Any) -> Any:
    """A whole number from ``least`` to ``most``."""
    return declare(place, integer(least, most), **options)


def choice(place: Place, by_text: Mapping[str, Any], *, null: bool = False, **options: Any) -> Any:
    """One of ``by_text``'s values, written as its text (``null``: or None, written as null, where the
    parameter does not apply)."""
    text_of = {value: text for text, value in by_text.items()}
    if not null:
        return declare(place, one_of(by_text), read=by_text.__getitem__, write=text_of.__getitem__, **options)
    return declare(
        place,
        Value("string", null=True, enum=tuple(by_text)),
        read=lambda text: None if text is None else by_text[text],
        write=lambda value: None if value is None else text_of[value],
        **options,
    )


def choices(place: Place, by_text: Mapping[str, Any], least: int = 0, **options: Any) -> Any:
    """A list of ``by_text``'s values (a tuple of them), each written as its text: at most each of them once."""
    text_of = {value: text for text, value in by_text.items()}
    return declare(
        place,
        array(one_of(by_text), len(by_text), least),
        read=lambda texts: tuple(map(by_text.__getitem__, texts)),
        write=lambda values: [text_of[v] for v in values],
        **options,
    )


def listed(place: Place, value: Value, write: Convert = _same, **options: Any) -> Any:
    """A parameter ``GET /v1/games`` lists that no request sets: derived from others, or a fact of the game."""
    return declare(place, value, read=None, write=write, **options)


def by_value(members: Iterable[Any]) -> dict[str, Any]:
    """StrEnum members by their text: what ``choice`` and ``choices`` take."""
    return {member.value: member for member in members}


_DECLARED: dict[type, tuple[tuple[str, Parameter], ...]] = {}


def declared(rules_class: type) -> tuple[tuple[str, Parameter], ...]:
    """Every parameter of a rules class, by field name, in the order its fields are declared (read once)."""
    found = _DECLARED.get(rules_class)
    if found is None:
        found = _DECLARED[rules_class] = tuple(
            (f.name, f.metadata["parameter"]) for f in fields(rules_class) if "parameter" in f.metadata
        )
    return found


def place_of(rules_class: type, name: str) -> tuple[str, ...]:
    """Where a description writes the parameter of field ``name`` (and where a refusal names it)."""
    return dict(declared(rules_class))[name].place


class DeclaredRules:
    """What every game's rules object has from its declared parameters."""

    __slots__ = ()
    id: str

    def describe(self, *, hashed: bool = False) -> dict[str, Any]:
        """Every parameter, as JSON: what ``GET /v1/games`` lists. ``hashed``: what the digest hashes, every
        parameter but those a table keeps at the value they implied before they were declared."""
        described: dict[str, Any] = {"id": self.id}
        for name, parameter in declared(type(self)):
            value = getattr(self, name)
            if hashed and parameter.implied is not _ABSENT and value == parameter.implied:
                continue
            *groups, key = parameter.place
            into = described
            for group in groups:
                into = into.setdefault(group, {})
            into[key] = parameter.write(value)
        return described

    def as_served(self) -> bool:
        """Whether every parameter declared after its game was served keeps the value it implied: rules a
        game could always play, answered as the game always answered them."""
        return all(
            getattr(self, name) == parameter.implied
            for name, parameter in declared(type(self))
            if parameter.implied is not _ABSENT
        )

    def canonical(self) -> str:
        """What the digest hashes (``describe(hashed=True)``) as canonical JSON (sorted keys, no spaces, ASCII)."""
        return json.dumps(self.describe(hashed=True), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest_of(canonical: str) -> str:
    """What answers name rules by (``rules_digest``): the start of the SHA-256 of their canonical JSON."""
    return hashlib.sha256(canonical.encode()).hexdigest()[:DIGEST_LENGTH]


def _written(described: Mapping[str, Any], place: tuple[str, ...]) -> Any:
    """The value written at ``place`` (a name, or a group and a name), or ``_ABSENT``."""
    found: Any = described
    for name in place:
        found = found.get(name, _ABSENT)
        if found is _ABSENT:
            break
    return found


def read_changes(
    rules_class: type, described: Mapping[str, Any], refused: Callable[[tuple[str, ...], str], InputProblem]
) -> dict[str, Any]:
    """The fields a description writes (any of the parameters a request may set, each written as
    ``describe()`` writes it; a group with any of its own), read back. ``InvalidInputError`` with
    ``refused(place, case)`` for each value that cannot be read (``"value"``) and each place that is no such
    parameter (``"unknown"``)."""
    settable = {name: (p.place, p.read) for name, p in declared(rules_class) if p.read is not None}
    places = {place for place, _ in settable.values()}
    groups = dict.fromkeys(place[0] for place in places if len(place) > 1)  # in declared order
    unknown: list[tuple[str, ...]] = [(key,) for key in described if (key,) not in places and key not in groups]
    for group in groups:
        unknown += [(group, key) for key in described.get(group, {}) if (group, key) not in places]
    changes: dict[str, Any] = {}
    problems: list[InputProblem] = []
    for name, (place, read) in settable.items():
        found = _written(described, place)
        if found is _ABSENT:
            continue
        try:
            changes[name] = read(found)
        except (ValueError, KeyError, TypeError):
            problems.append(refused(place, "value"))
    problems += [refused(place, "unknown") for place in unknown]
    if problems:
        raise InvalidInputError(problems)
    return changes
