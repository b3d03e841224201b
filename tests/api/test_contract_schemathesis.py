"""Schemathesis fuzzes every operation of openapi.yaml against the app, positive and negative data,
all default checks. The spec cannot say "no card twice on one table" or "a top row has 3 cards", so a
422 is accepted as the answer to positive data only for a refusal the route documents as one only the
rules can decide (``RuleCodes.rules_only``, listed per operation in docs/errors.md; each has its own tests
in the game's test_api module): any other 422 code for schema-valid data is a gap in the contract.
``make fuzz`` runs the long version against gunicorn.

One pytest item per (operation, mode), each with its own id: ``schema.parametrize()`` gives every item
the same node id, and pytest-xdist, scheduling by node id, would then run only one of them.

Every language is fuzzed: each case is sent with the ``Accept-Language`` schemathesis generated or with one
of ``LANGUAGE_HEADERS`` (each of ``messages.LANGUAGES`` and ranges that choose it), and its
``Content-Language`` must be the negotiated language (English for the contract, the docs and the metrics)."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from service.api import create_app, i18n
from service.api.catalog import codes_of
from service.rules import messages

pytestmark = pytest.mark.xdist_group("schemathesis")

# A body the generator grows past the 64 KiB limit is refused with 413 before its schema is read: a rejection too.
# A 304 accepts valid data too: the contract's documents answer it to an If-None-Match naming them (or "*").
config = SchemathesisConfig.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {"expected-statuses": ["2xx", "304", "422"]},
            "negative_data_rejection": {
                "expected-statuses": [
                    "400",
                    "401",
                    "403",
                    "404",
                    "405",
                    "406",
                    "409",
                    "413",
                    "415",
                    "422",
                    "428",
                    "429",
                    "5xx",
                ]
            },
        }
    }
)
APP = create_app({"TESTING": True})


def decoding(app: Any) -> Any:
    """``app`` seen through an HTTP client: a gzip-encoded answer (the contract's documents, to an
    ``Accept-Encoding`` that takes it) is decoded, as clients do; schemathesis's WSGI transport does not."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        answer: dict[str, Any] = {}

        def keep(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer.update(status=status, headers=headers)
            return lambda data: None

        iterable = app(environ, keep)
        try:
            body = b"".join(iterable)
        finally:
            iterable.close()  # the app's answer is always closable (service/api/observability.py)
        headers = answer["headers"]
        if ("Content-Encoding", "gzip") in headers:
            body = gzip.decompress(body)
            headers = [(k, v) for k, v in headers if k not in ("Content-Encoding", "Content-Length")]
            headers.append(("Content-Length", str(len(body))))
        start_response(answer["status"], headers)
        return [body]

    return wsgi


schema = schemathesis.openapi.from_wsgi("/openapi.json", decoding(APP), config=config)
OPERATIONS = {result.ok().label: result.ok() for result in schema.get_all_operations()}
CASES = [(label, mode) for label, operation in OPERATIONS.items()
         for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE) if mode is GenerationMode.POSITIVE or operation.body]  # fmt: skip
LANGUAGE_HEADERS = [None, *messages.LANGUAGES, "zh-Hans-SG", "zh-HK, en;q=0.5", "en;q=0.2, zh-SG;q=0.9"]
"""None keeps the header schemathesis generated; the others name each language."""
ENGLISH_ONLY = ("/openapi.yaml", "/openapi.json", "/docs", "/metrics")  # their 2xx content is the contract's English


def header(headers: dict[str, Any], name: str) -> str:
    """One header of a schemathesis response (its names are lower case, its values lists)."""
    value = {k.lower(): v for k, v in headers.items()}[name.lower()]
    return value[0] if isinstance(value, list) else value


def refusals_beyond_the_rules(operation: Any, problem: dict[str, Any]) -> list[dict[str, Any]]:
    """The entries of a 422 to schema-valid data that the route does not document as decided by the rules."""
    codes = codes_of(APP, operation.method.upper(), operation.path)
    allowed = set(codes.rules_only) if codes else set()
    by_rule_set = set(codes.lengths_by_rule_set) if codes else set()
    return [e for e in problem.get("errors", [])
            if e["code"] not in allowed and not (e["code"] == "wrong_length" and e["pointer"] in by_rule_set)]  # fmt: skip


def test_a_refusal_outside_the_rules_list_is_caught():
    """The check above is not vacuous: a schema code, or a rule code the route does not list, is reported."""
    operation = OPERATIONS["POST /v1/ofc-pineapple/rows/evaluate"]
    entry = {"pointer": "/cards", "code": "wrong_row_size", "message": "-"}
    assert refusals_beyond_the_rules(operation, {"errors": [entry]}) == []
    for code in ("wrong_length", "not_a_card", "bad_seat"):
        assert refusals_beyond_the_rules(operation, {"errors": [{**entry, "code": code}]}) == [{**entry, "code": code}]
    hands = OPERATIONS["POST /v1/ofc-pineapple/hands/score"]
    players = {"pointer": "/players", "code": "wrong_length", "message": "-"}
    assert refusals_beyond_the_rules(hands, {"errors": [players]}) == []
    assert refusals_beyond_the_rules(OPERATIONS["POST /v1/ofc-classic/hands/score"], {"errors": [players]}) == [players]


def test_every_operation_of_the_spec_is_fuzzed():
    spec = schema.raw_schema["paths"]
    labels = {f"{method.upper()} {path}" for path, item in spec.items() for method in item if method != "parameters"}
    # Schemathesis leaves out the document it was loaded from (/openapi.json); tests/api/test_spec.py covers it.
    assert set(OPERATIONS) == labels - {"GET /openapi.json"}
    assert {label for label, mode in CASES if mode is GenerationMode.NEGATIVE} == {
        label for label in OPERATIONS if label.startswith("POST")
    }


@pytest.mark.parametrize(("label", "mode"), CASES, ids=[f"{label} {mode.value}" for label, mode in CASES])
def test_every_operation_conforms_to_the_contract(label, mode):
    operation = OPERATIONS[label]

    @given(case=operation.as_strategy(generation_mode=mode), language=st.sampled_from(LANGUAGE_HEADERS))
    @seed(20261129)
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def conforms(case, language):
        if language is not None:
            case.headers = {**(case.headers or {}), "Accept-Language": language}
        response = case.call_and_validate()
        if mode is GenerationMode.POSITIVE and response.status_code == 422:
            assert not refusals_beyond_the_rules(operation, response.json()), (case.body, response.json())
        asked = (case.headers or {}).get("Accept-Language")
        expected = (
            "en" if response.status_code < 400 and operation.path.startswith(ENGLISH_ONLY) else i18n.negotiate(asked)
        )
        assert header(response.headers, "Content-Language") == expected, (asked, response.status_code)

    conforms()
