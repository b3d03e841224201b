"""What one request may ask: nesting depth, body size with and without Content-Length, and every array
bounded by the schemas that enforce the spec."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
import yaml
from marshmallow import Schema, fields, validate

from service.api import create_app
from service.api.games import schemas_for
from service.api.limits import MAX_JSON_DEPTH, nesting_depth_exceeds
from service.rules.games import GAMES
from tests.conftest import ROOT

ROW = "/v1/ofc-pineapple/rows/evaluate"
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
POSTS = [(path, item["post"]) for path, item in SPEC["paths"].items() if "post" in item]


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def depth_of(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    return 0


# --- nesting depth -----------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 100, 999, 1000, 5000, 30_000])
def test_a_body_nested_too_deep_is_422_with_a_clear_detail(client, depth):
    response = client.post(ROW, data=nested(depth), content_type="application/json")
    assert response.status_code == 422, response.get_data(as_text=True)[:200]
    body = response.get_json()
    assert f"deeper than {MAX_JSON_DEPTH} levels" in body["detail"] and body["errors"][0]["pointer"] == ""


def test_an_object_nested_too_deep_inside_a_field(client):
    deep = {"row": "top", "cards": ["Kh", "Kd", "As"], "x": json.loads(nested(MAX_JSON_DEPTH))}
    assert client.post(ROW, json=deep).status_code == 422
    assert "deeper than" in client.post(ROW, json=deep).get_json()["detail"]


def test_nesting_up_to_the_limit_reaches_the_schema(client):
    response = client.post(ROW, data=nested(MAX_JSON_DEPTH), content_type="application/json")
    assert response.status_code == 422 and "deeper than" not in response.get_json()["detail"]


def test_depth_check_matches_a_plain_count():
    for text in (
        "[]",
        "{}",
        nested(32),
        nested(33),
        '{"a": [[1, {"b": []}]], "c": "[[[["}',
        "[" + ",".join(["[]"] * 40) + "]",
    ):
        value = json.loads(text)
        assert nesting_depth_exceeds(text.encode(), value) is (depth_of(value) > MAX_JSON_DEPTH), text


@pytest.mark.parametrize(("path", "operation"), POSTS, ids=[p for p, _ in POSTS])
def test_every_request_example_is_far_within_the_depth_limit(path, operation):
    assert depth_of(operation["requestBody"]["content"]["application/json"]["example"]) <= MAX_JSON_DEPTH // 4


def test_the_recursion_limit_is_not_what_stops_it():
    assert sys.getrecursionlimit() < 30_000  # the 30,000-level case above would otherwise be a RecursionError


# --- body size ---------------------------------------------------------------------------------------


def chunked_post(client, body: bytes):
    """A body with no Content-Length, as a server hands over a chunked one (``wsgi.input_terminated``)."""
    return client.post(ROW, input_stream=io.BytesIO(body), content_type="application/json",
                       headers={"Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})  # fmt: skip


def test_a_chunked_body_over_the_limit_is_413(client, app):
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = b'{"row": "top", "cards": ["Kh", "Kd", "As"]}'
    assert chunked_post(client, body + b" " * (limit + 1 - len(body))).status_code == 413
    assert chunked_post(client, body + b" " * (limit - len(body))).status_code == 200
    assert chunked_post(client, body).get_json()["royalty"] == 8


def test_the_body_limit_is_configurable():
    client = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 100}).test_client()
    assert client.post(ROW, json={"row": "top", "cards": ["Kh", "Kd", "As"], "pad": " " * 100}).status_code == 413


# --- arrays bounded by the schemas --------------------------------------------------------------------


def request_schemas() -> list[type[Schema]]:
    """Every request schema of every game, as the registry's hook builds them for the app."""
    return [schema for game in GAMES for schema in schemas_for(game).values()]


def unbounded_lists(schema: Schema, where: str, seen: set[int]) -> list[str]:
    if id(type(schema)) in seen:
        return []
    seen.add(id(type(schema)))
    found = []
    for name, field in schema.fields.items():
        found += unbounded_fields(field, f"{where}.{name}", seen)
    return found


def unbounded_fields(field: fields.Field, where: str, seen: set[int]) -> list[str]:
    if isinstance(field, fields.List):
        lengths = [v for v in (field.validators or []) if isinstance(v, validate.Length)]
        bounded = any(v.max is not None or v.equal is not None for v in lengths)
        return ([] if bounded else [where]) + unbounded_fields(field.inner, where + "[]", seen)
    if isinstance(field, fields.Nested):
        return unbounded_lists(field.schema, where, seen)
    if isinstance(field, (fields.Dict, fields.Mapping, fields.Raw)) and type(field) in (
        fields.Dict,
        fields.Mapping,
        fields.Raw,
    ):
        return [where + " (free-form)"]
    return []


def test_every_array_of_every_request_schema_has_a_maximum():
    schemas = request_schemas()
    assert len(schemas) >= 10
    unbounded = [where for schema in schemas for where in unbounded_lists(schema(), schema.__name__, set())]
    assert not unbounded
