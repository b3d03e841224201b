"""docs/errors.md, the catalog of every problem type, error code and violation code, is generated from the
code's registries and current; every type the service can send is in it and in openapi.yaml; every code the
rules cores define is declared by an operation; and the test client's contract check itself bites."""

from __future__ import annotations

import importlib
import pkgutil
from enum import StrEnum

import pytest
import yaml

import service.rules
from service.api import catalog, errors, texts
from service.rules.messages import EN, ZH_TW
from tests.conftest import ROOT
from tests.response_contract import ContractViolation, check

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


def test_the_catalog_document_is_current(app):
    assert catalog.DOCUMENT.read_text(encoding="utf-8") == catalog.document(app), (
        "run: .venv/bin/python -m service.api.catalog"
    )


def test_check_mode_agrees():
    assert catalog.main(["catalog", "--check"]) == 0


def test_every_problem_type_is_in_the_contract_and_the_catalog(app):
    described = SPEC["components"]["schemas"]["Problem"]["properties"]["type"]["description"]
    document = catalog.DOCUMENT.read_text(encoding="utf-8")
    types = catalog.problem_types()
    assert set(errors.PROBLEM_TYPES.values()) <= set(types)
    for urn, status in types.items():
        assert f"`{urn}` ({status})" in described, f"list {urn} ({status}) in openapi.yaml's Problem.type description"
        assert f"| `{urn}` | {status} |" in document, urn
        key = f"problem.{urn.removeprefix(errors.PROBLEM_URN)}"
        assert key in texts.HTTP, f"give {urn} its meaning in both languages: texts.HTTP[{key!r}]"
        text = texts.HTTP[key]
        assert text[EN] and text[ZH_TW] and text[EN] != text[ZH_TW]


@pytest.mark.parametrize(("method", "path", "status"), [("get", "/nowhere", 404), ("get", "/v1/big-two/plays/classify", 405),
                                                        ("post", "/v1/big-two/plays/classify", 415)])  # fmt: skip
def test_the_types_sent_are_the_registered_ones(client, method, path, status):
    body = getattr(client, method)(path, data="x").get_json()
    assert body["status"] == status and body["type"] == errors.PROBLEM_TYPES[status]


def test_every_request_schema_message_has_a_code_with_a_meaning():
    assert set(errors.SCHEMA_ERROR_CODES) == set(texts.SCHEMA)
    for code in {*errors.SCHEMA_ERROR_CODES.values(), errors.INVALID, errors.TOO_DEEP_CODE}:
        text = texts.HTTP[f"error.{code}"]
        assert text[EN] != text[ZH_TW]


GAME_OPERATIONS = [op for op in catalog.operations(__import__("service.api", fromlist=["create_app"]).create_app({"TESTING": True}))
                   if op.path.startswith("/v1/") and op.method == "POST"]  # fmt: skip


@pytest.mark.parametrize("op", GAME_OPERATIONS, ids=[op.operation_id for op in GAME_OPERATIONS])
def test_every_game_operation_declares_its_codes_and_validate_ones_their_violations(op):
    assert op.codes is not None, (
        f"{op.operation_id}: put @rule_codes(DOMAIN, violations=..., errors=...) on its route "
        "(service/api/common.py), then run .venv/bin/python -m service.api.catalog"
    )
    answer = SPEC["paths"][op.path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    name = answer["$ref"].rsplit("/", 1)[1]
    if "violations" in SPEC["components"]["schemas"][name].get("properties", {}):
        assert op.codes.violations, f"{op.operation_id} answers violations but declares none"
    for code in (*op.codes.violations, *op.codes.errors):
        assert catalog.variants(op.codes.domain, code), code  # a text in both languages (KeyError otherwise)


def core_enums() -> list[type[StrEnum]]:
    found = []
    for module_info in pkgutil.walk_packages(service.rules.__path__, "service.rules."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, StrEnum) and value.__module__ == module.__name__:
                found.append(value)
    return found


def test_every_violation_and_problem_code_of_the_cores_is_declared_by_an_operation(app):
    ops = [op for op in catalog.operations(app) if op.codes is not None]
    violations = {code for op in ops for code in op.codes.violations}
    problems = {code for op in ops for code in op.codes.errors}
    checked = 0
    for enum in core_enums():
        if enum.__name__.endswith("Violation") or enum.__name__ == "InvalidPlay":
            assert {str(m) for m in enum} <= violations, enum
            checked += 1
        elif enum.__name__.endswith(("Problem", "ProblemCode")):
            assert {str(m) for m in enum} <= problems, enum
            checked += 1
    assert checked >= 7  # ofc, joker thirteen, big two: violations and problems; card notation


# --- the contract check of every test client bites -------------------------------------------------------


class FakeResponse:
    def __init__(self, status: int, body: object, mimetype: str = "application/json", language: str = "en"):
        self.status_code, self._body, self.mimetype = status, body, mimetype
        self.headers = {"Content-Language": language}

    def get_json(self) -> object:
        return self._body


def test_contract_check_refuses_an_answer_off_its_schema(app):
    with pytest.raises(ContractViolation, match="required property"):
        check(app, "POST", "/v1/ofc-pineapple/rows/evaluate", FakeResponse(200, {"hand": None}))
    with pytest.raises(ContractViolation, match="does not declare"):
        check(app, "POST", "/v1/ofc-pineapple/rows/evaluate", FakeResponse(201, {}))
    with pytest.raises(ContractViolation, match="not problem"):
        check(app, "GET", "/nowhere", FakeResponse(404, "<html>", "text/html"))
    with pytest.raises(ContractViolation):
        check(app, "GET", "/nowhere", FakeResponse(404, {"type": "x", "status": 404}, "application/problem+json"))


INSTANCE = errors.REQUEST_URN + "a-request-id"


def test_contract_check_refuses_undeclared_codes(app):
    valid = {
        "legal": False,
        "violations": [{"code": "no_such_rule", "message": "x"}],
        "board": {"top": [], "middle": [], "bottom": []},
    }
    with pytest.raises(ContractViolation, match="no_such_rule"):
        check(app, "POST", "/v1/ofc-pineapple/moves/validate", FakeResponse(200, valid))
    problem = {"type": errors.PROBLEM_TYPES[422], "title": "t", "status": 422, "detail": "d", "instance": INSTANCE,
               "errors": [{"pointer": "", "code": "no_such_error", "message": "m"}]}  # fmt: skip
    with pytest.raises(ContractViolation, match="no_such_error"):
        check(app, "POST", "/v1/ofc-pineapple/rows/evaluate", FakeResponse(422, problem, "application/problem+json"))


def test_contract_check_refuses_a_text_of_no_catalog(app):
    """Every human text of an answer is a rendering of a catalog entry in the answer's language."""
    board = {"top": [], "middle": [], "bottom": []}
    ours = {
        "legal": False,
        "violations": [{"code": "row_overflow", "message": "the top row holds only 3 cards"}],
        "board": board,
    }
    check(app, "POST", "/v1/ofc-pineapple/moves/validate", FakeResponse(200, ours))
    zh = {
        "legal": False,
        "violations": [{"code": "row_overflow", "message": "頭道只能放 3 張，已經擺滿"}],
        "board": board,
    }
    check(app, "POST", "/v1/ofc-pineapple/moves/validate", FakeResponse(200, zh, language="zh-TW"))
    with pytest.raises(ContractViolation, match="no catalog in zh-TW"):  # English in a zh-TW answer
        check(app, "POST", "/v1/ofc-pineapple/moves/validate", FakeResponse(200, ours, language="zh-TW"))
    made_up = {"legal": False, "violations": [{"code": "row_overflow", "message": "that row is full"}], "board": board}
    with pytest.raises(ContractViolation, match="that row is full"):
        check(app, "POST", "/v1/ofc-pineapple/moves/validate", FakeResponse(200, made_up))
    decoder = {"type": errors.PROBLEM_TYPES[400], "title": "Malformed JSON", "status": 400, "errors": [],
               "detail": "The body is not valid JSON: Expecting value: line 1 column 1 (char 0)", "instance": INSTANCE}  # fmt: skip
    check(app, "POST", "/v1/ofc-pineapple/rows/evaluate", FakeResponse(400, decoder, "application/problem+json"))
    with pytest.raises(ContractViolation, match="Bad Request"):  # werkzeug's own title, not ours
        check(
            app,
            "POST",
            "/v1/ofc-pineapple/rows/evaluate",
            FakeResponse(400, {**decoder, "title": "Bad Request"}, "application/problem+json"),
        )
