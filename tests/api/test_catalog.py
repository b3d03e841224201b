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
from service.api import catalog, errors
from service.rules import messages
from tests.conftest import ROOT
from tests.response_contract import ContractViolation, check

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


def test_the_catalog_document_is_current(app):
    assert catalog.DOCUMENT.read_text(encoding="utf-8") == catalog.document(app), "run: .venv/bin/python -m service.api.catalog"


def test_check_mode_agrees():
    assert catalog.main(["catalog", "--check"]) == 0


def test_every_problem_type_is_in_the_contract_and_the_catalog(app):
    described = SPEC["components"]["schemas"]["Problem"]["properties"]["type"]["description"]
    document = catalog.DOCUMENT.read_text(encoding="utf-8")
    types = catalog.problem_types()
    assert set(errors.PROBLEM_TYPES.values()) <= set(types)
    for urn, status in types.items():
        assert f"`{urn}` ({status})" in described, urn
        assert f"| `{urn}` | {status} |" in document, urn
        text = messages.CATALOG["http"][f"problem.{urn.removeprefix(errors.PROBLEM_URN)}"]
        assert text.en and text.zh_tw and text.en != text.zh_tw


@pytest.mark.parametrize(("method", "path", "status"), [("get", "/nowhere", 404), ("get", "/v1/big-two/plays/classify", 405),
                                                        ("post", "/v1/big-two/plays/classify", 415)])  # fmt: skip
def test_the_types_sent_are_the_registered_ones(client, method, path, status):
    body = getattr(client, method)(path, data="x").get_json()
    assert body["status"] == status and body["type"] == errors.PROBLEM_TYPES[status]


def test_every_request_schema_message_has_a_code_with_a_meaning():
    assert set(errors.SCHEMA_ERROR_CODES) == set(messages.SCHEMA)
    for code in {*errors.SCHEMA_ERROR_CODES.values(), errors.INVALID, errors.TOO_DEEP_CODE}:
        text = messages.CATALOG["http"][f"error.{code}"]
        assert text.en != text.zh_tw


GAME_OPERATIONS = [op for op in catalog.operations(__import__("service.api", fromlist=["create_app"]).create_app({"TESTING": True}))
                   if op.path.startswith("/v1/") and op.method == "POST"]  # fmt: skip


@pytest.mark.parametrize("op", GAME_OPERATIONS, ids=[op.operation_id for op in GAME_OPERATIONS])
def test_every_game_operation_declares_its_codes_and_validate_ones_their_violations(op):
    assert op.codes is not None, f"{op.operation_id}: no rule_codes on its route"
    answer = SPEC["paths"][op.path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    name = answer["$ref"].rsplit("/", 1)[1]
    if "violations" in SPEC["components"]["schemas"][name].get("properties", {}):
        assert op.codes.violations, f"{op.operation_id} answers violations but declares none"
    for code in (*op.codes.violations, *op.codes.errors):
        assert catalog.variants(op.codes.domain, code), code  # a text in both languages (KeyError otherwise)


def core_enums() -> list[type[StrEnum]]:
    found = []
    for module_info in pkgutil.iter_modules(service.rules.__path__):
        module = importlib.import_module(f"service.rules.{module_info.name}")
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
    def __init__(self, status: int, body: object, mimetype: str = "application/json"):
        self.status_code, self._body, self.mimetype = status, body, mimetype

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


def test_contract_check_refuses_undeclared_codes(app):
    valid = {"legal": False, "violations": [{"code": "no_such_rule", "message": "x"}], "board": {"top": [], "middle": [], "bottom": []}}
    with pytest.raises(ContractViolation, match="no_such_rule"):
        check(app, "POST", "/v1/ofc-pineapple/moves/validate", FakeResponse(200, valid))
    problem = {"type": errors.PROBLEM_TYPES[422], "title": "t", "status": 422, "detail": "d",
               "errors": [{"pointer": "", "code": "no_such_error", "message": "m"}]}  # fmt: skip
    with pytest.raises(ContractViolation, match="no_such_error"):
        check(app, "POST", "/v1/ofc-pineapple/rows/evaluate", FakeResponse(422, problem, "application/problem+json"))
