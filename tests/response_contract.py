"""Every answer a test gets from the app is checked against openapi.yaml: the response schema of its
operation and status (or ``Problem`` for any problem+json), and every violation and 422 error ``code`` against
the codes its route declares (``common.rule_codes``, which docs/errors.md lists).

``ContractCheckingClient`` is Flask's test client with that check after every request; ``tests/conftest.py``
makes it every app's test client, so every API test checks the answers it gets and response drift is caught by
each test, not only by schemathesis' sampling.
"""
from __future__ import annotations

from functools import cache
from typing import Any

import yaml
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from werkzeug.test import TestResponse

from service.api.catalog import codes_of
from service.api.errors import INVALID, SCHEMA_ERROR_CODES, TOO_DEEP_CODE
from tests.conftest import ROOT

SPEC: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
SPEC_URI = "urn:card-rules:openapi"
REGISTRY = Registry().with_resource(SPEC_URI, Resource.from_contents(SPEC, default_specification=DRAFT202012))
SCHEMA_CODES = frozenset(SCHEMA_ERROR_CODES.values()) | {INVALID, TOO_DEEP_CODE}


class ContractViolation(AssertionError):
    pass


@cache
def validator(pointer: str) -> Draft202012Validator:
    """A validator for the schema at ``pointer`` (a JSON Pointer into openapi.yaml), refs resolved in it."""
    return Draft202012Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=REGISTRY)


def escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def resolve(node: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """A ``$ref``'d component and its pointer, or the node itself."""
    ref = node.get("$ref")
    if ref is None:
        return node, None
    found: Any = SPEC
    for part in ref.removeprefix("#/").split("/"):
        found = found[part.replace("~1", "/").replace("~0", "~")]
    return found, ref.removeprefix("#")


def schema_pointer(method: str, path: str, status: int, media: str) -> str | None:
    """Where in openapi.yaml the schema of this answer is, or None when the contract has none for it."""
    if media == "application/problem+json":
        return "/components/schemas/Problem"
    op = SPEC["paths"].get(path, {}).get(method.lower())
    if op is None:
        return None
    key = str(status) if str(status) in op["responses"] else "default" if "default" in op["responses"] else None
    if key is None:
        raise ContractViolation(f"{method} {path} answered {status}, which the contract does not declare")
    response, ref = resolve(op["responses"][key])
    base = ref or f"/paths/{escape(path)}/{method.lower()}/responses/{key}"
    if media not in response.get("content", {}):
        raise ContractViolation(f"{method} {path} answered {status} as {media}, which the contract does not declare")
    return f"{base}/content/{escape(media)}/schema"


def check(app: Any, method: str, path: str, response: TestResponse) -> None:
    media = response.mimetype
    if response.status_code >= 400 and media != "application/problem+json":
        raise ContractViolation(f"{method} {path}: a {response.status_code} answered as {media}, not problem+json")
    if media not in ("application/json", "application/problem+json") or method == "HEAD" or method == "OPTIONS":
        return
    pointer = schema_pointer(method, path, response.status_code, media)
    if pointer is None:
        return
    body = response.get_json()
    errors = sorted(validator(pointer).iter_errors(body), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(map(str, errors[0].absolute_path))
        raise ContractViolation(f"{method} {path} -> {response.status_code}: /{where}: {errors[0].message}")
    codes = codes_of(app, method, path)
    if codes is None:
        return
    if response.status_code == 200 and isinstance(body, dict):
        answered = {v["code"] for v in body.get("violations") or []}
        if answered - set(codes.violations):
            raise ContractViolation(f"{method} {path}: violation codes {answered - set(codes.violations)} not declared (rule_codes)")
    if response.status_code == 422:
        answered = {e["code"] for e in body["errors"]}
        if answered - set(codes.errors) - SCHEMA_CODES:
            raise ContractViolation(f"{method} {path}: error codes {answered - set(codes.errors) - SCHEMA_CODES} not declared (rule_codes)")


class ContractCheckingClient(FlaskClient):
    """Flask's test client; every answer is checked against the contract (``check``)."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:  # type: ignore[override]
        response = super().open(*args, **kwargs)
        request = response.request
        check(self.application, request.method, request.path, response)
        return response
