"""Every answer a test gets from the app is checked against openapi.yaml: the response schema of its
operation and status (or ``Problem`` for any problem+json), and every violation and 422 error ``code`` against
the codes its route declares (``common.rule_codes``, which docs/errors.md lists). And every human text of it
(a ``title``, ``detail``, ``message``, ``label``, factor ``reason`` or games-list ``description``) is a
rendering of some catalog entry in the answer's language (``Content-Language``): no answer says anything
that did not come from a catalog (``uncatalogued``).

``ContractCheckingClient`` is Flask's test client with that check after every request; ``tests/conftest.py``
makes it every app's test client, so every API test checks the answers it gets and response drift is caught by
each test, not only by schemathesis' sampling.
"""

from __future__ import annotations

import gzip
import json
import re
import string
from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema_rs
import yaml
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.api.catalog import codes_of
from service.api.errors import INVALID, SCHEMA_ERROR_CODES, TOO_DEEP_CODE
from service.rules import messages
from tests.conftest import ROOT

SPEC: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
SCHEMA_CODES = frozenset(SCHEMA_ERROR_CODES.values()) | {INVALID, TOO_DEEP_CODE}


class ContractViolation(AssertionError):
    pass


@cache
def validator(pointer: str) -> jsonschema_rs.Draft202012Validator:
    """A validator (JSON Schema 2020-12, the dialect of OpenAPI 3.1) for the schema at ``pointer``, a JSON
    Pointer into openapi.yaml, its ``$ref``s resolved in the document. jsonschema-rs (schemathesis' own
    validator) checks an answer in microseconds, so every answer of every test can afford it."""
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#{pointer}", "paths": SPEC["paths"], "components": SPEC["components"]}
    )


def first_error(pointer: str, instance: Any) -> str | None:
    """``/where: why`` of the first way ``instance`` breaks the schema at ``pointer``, or None when it is valid."""
    check = validator(pointer)
    if check.is_valid(instance):
        return None
    error = next(iter(check.iter_errors(instance)))
    return "/" + "/".join(map(str, error.instance_path)) + ": " + error.message


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


# --- every human text is a catalog's --------------------------------------------------------------------

NESTED_ONLY = {("http", "detail.error"), ("http", "detail.error_root")}
"""Texts only ever inside another (a 422's detail lists its errors with them): ``{pointer}: {message}`` would
match almost any text, so it is not a whole answer's text."""
PREFIXES = {("http", "detail.truncated")}  # put before a detail cut at 2,000 characters


@cache
def renderings(language: str) -> re.Pattern[str]:
    """One pattern matching any rendering of any catalog entry in ``language``: each template's fixed text
    literally, each parameter as any text (a parameter is the client's data or another rendering)."""
    alternatives = []
    for catalog in dict.fromkeys(messages.CATALOGS.values()):
        for domain, key, _ in catalog.entries():
            if (domain, key) in NESTED_ONLY:
                continue
            parts = []
            for literal, name, _, _ in string.Formatter().parse(catalog.text(domain, key, language)):
                parts.append(re.escape(literal))
                if name is not None:
                    parts.append(".*?")
            alternatives.append("".join(parts) + (".*" if (domain, key) in PREFIXES else ""))
    alternatives.sort(key=len, reverse=True)
    return re.compile("|".join(f"(?:{a})" for a in alternatives), re.DOTALL)


def human_texts(node: Any, games_list: bool) -> Iterator[tuple[str, str]]:
    """(field, text) of every human text of an answer (the fields tests/test_i18n.py says change with the language)."""
    if isinstance(node, list):
        for item in node:
            yield from human_texts(item, games_list)
    elif isinstance(node, dict):
        human = {
            "label": "category" in node and "strength" in node,
            "message": "code" in node or "pointer" in node,
            "title": "status" in node and "type" in node,
            "detail": "status" in node and "type" in node,
            "reason": "factor" in node,
            "description": games_list,
        }
        for key, value in node.items():
            if human.get(key) and isinstance(value, str):
                yield key, value
            else:
                yield from human_texts(value, games_list)


def uncatalogued(body: Any, language: str, games_list: bool = False) -> list[tuple[str, str]]:
    """(field, text) of every human text of ``body`` that is no rendering of a catalog entry in ``language``."""
    pattern = renderings(language)
    return [(field, text) for field, text in human_texts(body, games_list) if not pattern.fullmatch(text)]


def check(app: Any, method: str, path: str, response: TestResponse) -> None:
    media = response.mimetype
    if response.status_code >= 400 and media != "application/problem+json":
        raise ContractViolation(f"{method} {path}: a {response.status_code} answered as {media}, not problem+json")
    if media not in ("application/json", "application/problem+json") or method == "HEAD" or method == "OPTIONS":
        return
    pointer = schema_pointer(method, path, response.status_code, media)
    if pointer is None:
        return
    if response.headers.get("Content-Encoding") == "gzip":  # the contract's documents, to a client taking gzip
        body = json.loads(gzip.decompress(response.get_data()))
    else:
        body = response.get_json()
    error = first_error(pointer, body)
    if error:
        raise ContractViolation(f"{method} {path} -> {response.status_code}: {error}")
    codes = codes_of(app, method, path)
    if codes is not None:
        check_codes(method, path, response, body, codes)
    check_texts(method, path, response, body)


def check_texts(method: str, path: str, response: TestResponse, body: Any) -> None:
    language = response.headers.get("Content-Language", messages.EN)
    foreign = [] if path.startswith("/openapi.") else uncatalogued(body, language, games_list=path == "/v1/games")
    if foreign:
        raise ContractViolation(f"{method} {path}: texts of no catalog in {language}: {foreign[:3]}")


def check_codes(method: str, path: str, response: TestResponse, body: Any, codes: Any) -> None:
    if response.status_code == 200 and isinstance(body, dict):
        answered = {v["code"] for v in body.get("violations") or []}
        if answered - set(codes.violations):
            raise ContractViolation(
                f"{method} {path}: violation codes {answered - set(codes.violations)} not declared (rule_codes)"
            )
    if response.status_code == 422:
        answered = {e["code"] for e in body["errors"]}
        if answered - set(codes.errors) - SCHEMA_CODES:
            raise ContractViolation(
                f"{method} {path}: error codes {answered - set(codes.errors) - SCHEMA_CODES} not declared (rule_codes)"
            )


class ContractCheckingClient(FlaskClient):
    """Flask's test client; every answer is checked against the contract (``check``)."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:  # type: ignore[override]
        response = super().open(*args, **kwargs)
        request = response.request
        check(self.application, request.method, request.path, response)
        return response
