"""Every example in openapi.yaml is valid against its own schema, and every documented 200 answer is the
live answer to its documented request, for every operation of every game (a new operation is covered by
being in the contract)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.response_contract import SPEC, escape, first_error

EXCERPTS = {"getOpenApiJson"}
"""Operations whose 200 example is an excerpt by nature (the contract itself), not a whole answer."""


def examples(node: Any, pointer: str = "") -> Iterator[tuple[str, str, Any]]:
    """(where, schema pointer, example) for every example of the document: a media type's, a parameter's or
    a header's (``example`` and each of ``examples``, against its ``schema``), and a schema's own."""
    if isinstance(node, dict):
        if "schema" in node and isinstance(node["schema"], dict):
            if "example" in node:
                yield pointer + "/example", pointer + "/schema", node["example"]
            for name, item in node.get("examples", {}).items():
                if isinstance(item, dict) and "value" in item:
                    yield f"{pointer}/examples/{escape(name)}", pointer + "/schema", item["value"]
        elif "example" in node:
            yield pointer + "/example", pointer, node["example"]
        for key, value in node.items():
            if key not in ("example", "examples"):
                yield from examples(value, f"{pointer}/{escape(str(key))}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from examples(value, f"{pointer}/{i}")


EXAMPLES = list(examples(SPEC))


def test_the_walk_finds_examples_of_every_kind():
    wheres = [where for where, _, _ in EXAMPLES]
    assert any(w.startswith("/components/schemas/") for w in wheres)
    assert any("/requestBody/content/application~1json/example" in w for w in wheres)
    assert any("/responses/200/content/application~1json/example" in w for w in wheres)
    assert any(w.startswith("/components/responses/") for w in wheres)
    assert len(EXAMPLES) > 100


@pytest.mark.parametrize(("where", "schema", "example"), EXAMPLES, ids=[where for where, _, _ in EXAMPLES])
def test_every_example_is_valid_against_its_schema(where, schema, example):
    error = first_error(schema, example)
    assert error is None, f"{where}: {error}"


def documented_answers() -> Iterator[tuple[str, str, str, Any, Any]]:
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            media = op["responses"].get("200", {}).get("content", {}).get("application/json", {})
            if "example" not in media or op["operationId"] in EXCERPTS:
                continue
            request = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            yield op["operationId"], method, path, request.get("example"), media["example"]


ANSWERS = list(documented_answers())


def test_every_game_operation_has_a_documented_answer_checked():
    checked = {path for _, _, path, _, _ in ANSWERS}
    for tag in ("ofc-pineapple", "joker-thirteen", "big-two"):
        assert any(p.startswith(f"/v1/{tag}/") for p in checked), tag
    posts = {path for path, item in SPEC["paths"].items() if "post" in item}
    assert posts <= checked


@pytest.mark.parametrize(
    ("operation_id", "method", "path", "request_example", "answer"), ANSWERS, ids=[a[0] for a in ANSWERS]
)
def test_documented_200_example_is_the_live_answer_to_the_documented_request(
    client, operation_id, method, path, request_example, answer
):
    response = client.post(path, json=request_example) if method == "post" else client.get(path)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json() == answer, (
        f"{operation_id}: make the 200 example of openapi.yaml the live answer to its request example"
    )
