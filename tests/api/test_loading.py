"""The fast path compiled from each request schema (``service/api/loading.py``) is only a shortcut: whenever
it answers, ``Schema.load`` answers the same, and it answers every operation's documented requests."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields

from service.api.games import schemas_for
from service.api.limits import MAX_JSON_DEPTH
from service.api.loading import fast_load, inlined
from service.api.schema import CardField, ExactValues, OneOfShapes
from service.rules.games import GAMES
from tests.conftest import ROOT

SPEC: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
SCHEMA_BY_NAME: dict[str, type[Schema]] = {
    name: schema for game in GAMES
    for name, schema in ((s.__name__, s) for s in schemas_for(game).values())
}  # fmt: skip


def requests() -> list[tuple[str, str, Any]]:
    """(operation, request schema name, body) for every documented request body of the contract."""
    found = []
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            content = op.get("requestBody", {}).get("content", {}).get("application/json")
            if content is None:
                continue
            name = content["schema"]["$ref"].rsplit("/", 1)[1]
            bodies = (
                [content["example"]]
                if "example" in content
                else [e["value"] for e in content.get("examples", {}).values()]
            )
            found += [(f"{method.upper()} {path}", name, body) for body in bodies]
    return found


REQUESTS = requests()
IDS = [f"{operation} #{i}" for i, (operation, _, _) in enumerate(REQUESTS)]

# Values that break a body in the ways the fast path must notice: wrong types, aliases, nulls, extra keys.
odd = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 20), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=3),
    st.sampled_from(["As", "10♠", "jk", "JKR", "Zz", "as", "top", "play", "pass", "standard", "fantasyland"]),
    st.lists(st.sampled_from(["As", "Kd", "kd", "2c", "x", "JK", "jK"]), max_size=18),
    st.dictionaries(st.sampled_from(["top", "head", "hand", "active", "cards", "x"]), st.none() | st.booleans(), max_size=2),
)  # fmt: skip


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += paths(value, (*prefix, i))
    return found


def mutate(body: Any, path: tuple[Any, ...], value: Any, add_key: bool) -> Any:
    body = copy.deepcopy(body)
    if not path:
        return value
    parent = body
    for part in path[:-1]:
        parent = parent[part]
    if add_key and isinstance(parent, dict):
        parent["extra"] = value
    elif isinstance(parent, list) and add_key:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return body


def test_every_request_schema_of_the_contract_is_covered():
    assert {name for _, name, _ in REQUESTS} <= set(SCHEMA_BY_NAME)
    assert len({operation for operation, _, _ in REQUESTS}) == sum(
        1 for item in SPEC["paths"].values() for op in item.values() if "requestBody" in op
    )


@pytest.mark.parametrize(("operation", "name", "body"), REQUESTS, ids=IDS)
def test_the_fast_path_answers_every_documented_request_as_load_does(operation, name, body):
    schema = SCHEMA_BY_NAME[name]()
    fast = fast_load(schema, body)
    assert fast is not None, f"{operation}: the fast path declines its own documented request"
    assert fast == schema.load(body)


@pytest.mark.parametrize(("operation", "name", "body"), REQUESTS, ids=IDS)
@given(data=st.data())
def test_the_fast_path_never_answers_otherwise_than_load(operation, name, body, data):
    body = mutate(body, data.draw(st.sampled_from(paths(body))), data.draw(odd), data.draw(st.booleans()))
    schema = SCHEMA_BY_NAME[name]()
    fast = fast_load(schema, body)
    if fast is None:
        return
    try:
        loaded = schema.load(body)
    except ValidationError as error:
        raise AssertionError(f"the fast path accepted {body!r}, load refuses it: {error.messages}") from None
    assert loaded == fast


def test_the_fast_path_declines_what_it_cannot_vouch_for():
    schema = SCHEMA_BY_NAME["HandScoreRequest"]()
    body = next(b for _, name, b in REQUESTS if name == "HandScoreRequest")
    assert fast_load(schema, body) is not None
    for broken in (mutate(body, ("players",), body["players"][:2], False),  # 2 players: the house rules seat 3
                   mutate(body, ("players", 0, "board", "top", 0), "Zz", False),
                   mutate(body, ("players", 0, "board"), 1, True),
                   {**body, "rule_set": "nonesuch"}, {**body, "players": None}, [], "x"):  # fmt: skip
        assert fast_load(schema, broken) is None, broken


def test_an_unknown_key_in_place_of_an_absent_optional_field_is_declined():
    """The reader counts an object's keys (the required ones, plus each optional one present), so a key it
    does not know is noticed whether or not the optional fields are there."""
    schema = SCHEMA_BY_NAME["BigTwoGameValidateRequest"]()
    body = next(b for _, name, b in REQUESTS if name == "BigTwoGameValidateRequest")
    passing = {"seat": 0, "type": "pass"}
    assert fast_load(schema, {**body, "actions": [passing]}) == schema.load({**body, "actions": [passing]})
    for entry in ({**passing, "card": []}, {**passing, "cards": [], "x": 1}, {"seat": 0, "cards": [], "x": "pass"}):
        assert fast_load(schema, {**body, "actions": [entry]}) is None, entry


def test_build_is_the_only_hook_of_a_request_schema():
    """The fast path calls ``build`` and nothing else a schema could hook into ``load`` (``pre_load``,
    ``validates_schema``, another ``post_load``): a schema that added one would make the two disagree."""
    for name, schema_class in SCHEMA_BY_NAME.items():
        hooks = {(tag, hook[0]) for tag, entries in schema_class._hooks.items() for hook in entries}
        assert hooks == {("post_load", "_build")}, name


def fields_within(schema: Schema) -> list[fields.Field]:
    """Every field of ``schema``, of the schemas it nests and of their lists' items."""
    found = []
    for field in schema.load_fields.values():
        found += fields_of(field)
    return found


def fields_of(field: fields.Field) -> list[fields.Field]:
    """``field``, its list's items, each of its shapes and the fields of the schemas they nest."""
    found = [field]
    if isinstance(field, fields.List):
        found += fields_of(field.inner)
    elif isinstance(field, OneOfShapes):
        found += [f for shape in field.shapes.values() for f in fields_of(shape)]
    elif isinstance(field, fields.Nested):
        found += fields_within(field.schema)
    return found


def test_the_compiled_reader_reads_every_field_of_every_request_schema_itself():
    """It is the only fast path: no field is left to its own ``deserialize`` (a shape it was not taught)."""
    for name, schema_class in SCHEMA_BY_NAME.items():
        for field in fields_within(schema_class()):
            assert inlined(field), f"{name}: {field!r}"


SCALAR_FIELDS = (CardField, fields.String, fields.Integer, fields.Boolean, fields.Float, ExactValues, fields.Enum)


def declared_depth(node: Any) -> int:
    """How deep a value ``node`` (a schema or a field) takes nests arrays and objects, at most."""
    if isinstance(node, Schema):
        return 1 + max((declared_depth(field) for field in node.fields.values()), default=0)
    if isinstance(node, fields.Nested):
        return declared_depth(node.schema)
    if isinstance(node, fields.List):
        return 1 + declared_depth(node.inner)
    if isinstance(node, OneOfShapes):
        return max(declared_depth(shape) for shape in node.shapes.values())
    if isinstance(node, SCALAR_FIELDS):  # (ExactValues: the OFC round, an int or "fantasyland")
        return 0
    raise AssertionError(f"{type(node).__name__}: say how deep a value of this field may nest")


def test_what_a_request_schema_takes_is_never_nested_too_deep():
    """``load_body`` skips the depth check when the fast path takes a body: shaped as its schema, it nests
    no deeper than the schema does, which is far within the limit."""
    depths = {name: declared_depth(schema_class()) for name, schema_class in SCHEMA_BY_NAME.items()}
    assert max(depths.values()) <= 8 < MAX_JSON_DEPTH, depths
