"""The per-worker cap on heavy requests (service/api/heavy.py), in process and deterministic: the cap's slots
are taken by the test itself, so a heavy request finds them full without any load.

A heavy request beyond the cap is a 503 problem+json of type ``overloaded`` with ``Retry-After``, in the
answer's language; light operations are never refused; a slot comes back after every heavy request,
answered or failed; the heavy operations are exactly those whose 503 openapi.yaml documents; the cap comes
from ``CARD_RULES_HEAVY_CONCURRENCY``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from flask import Flask
from werkzeug.exceptions import HTTPException

from service.api import create_app, heavy
from service.rules.ofc import outlook as ofc_outlook
from tests.conftest import ROOT

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
HEAVY_OPERATIONS = {
    "/v1/ofc-pineapple/boards/outlook": "ofcBoardOutlook",
    "/v1/ofc-classic/boards/outlook": "ofcClassicBoardOutlook",
    "/v1/ofc-pineapple/fantasyland/solve": "ofcSolveFantasyland",
    "/v1/joker-thirteen/arrangements/suggest": "jokerThirteenSuggestArrangement",
    "/v1/thirteen/arrangements/suggest": "thirteenSuggestArrangement",
}
OVERLOADED = {
    "type": "urn:card-rules:problem:overloaded",
    "title": "Overloaded",
    "status": 503,
    "detail": "This server is already computing as many heavy requests as it runs at once (1); retry after 1 s.",
    "errors": [],
}


def request_named(answer: Any) -> dict[str, str]:
    """The members of a problem that name its request: its id as a URN and its trace."""
    trace_id = answer.headers["traceparent"].split("-")[1]
    return {"instance": "urn:card-rules:request:" + answer.headers["X-Request-ID"], "trace_id": trace_id}


def example(operation: str) -> dict:
    return json.loads((ROOT / "examples" / f"{operation}.json").read_text(encoding="utf-8"))


@pytest.fixture()
def app() -> Flask:
    """An app of its own with a cap of 1 (the session's app keeps its cap free for the other tests)."""
    return create_app({"TESTING": True, "HEAVY_CONCURRENCY": 1})


@pytest.fixture()
def full(app: Flask) -> Iterator[heavy.HeavyCap]:
    """The app's cap with its one slot taken, as by a heavy request running."""
    cap = heavy.cap_of(app)
    assert cap.try_enter()
    yield cap
    cap.leave()


@pytest.mark.parametrize(("path", "operation"), HEAVY_OPERATIONS.items(), ids=list(HEAVY_OPERATIONS))
def test_a_heavy_request_beyond_the_cap_is_a_503_with_retry_after_and_runs_once_a_slot_is_free(app, path, operation):
    client = app.test_client()
    cap = heavy.cap_of(app)
    assert cap.try_enter()
    try:
        refused = client.post(path, json=example(operation))
    finally:
        cap.leave()
    assert refused.status_code == 503 and refused.mimetype == "application/problem+json"
    assert refused.headers["Retry-After"] == "1" and refused.headers["Content-Language"] == "en"
    assert refused.get_json() == {**OVERLOADED, **request_named(refused)}
    answered = client.post(path, json=example(operation))
    assert answered.status_code == 200 and answered.mimetype == "application/json"


def test_the_503_is_in_the_answers_language(app, full):
    answer = app.test_client().post(
        "/v1/ofc-pineapple/boards/outlook", json=example("ofcBoardOutlook"), headers={"Accept-Language": "zh-TW"}
    )
    assert answer.status_code == 503 and answer.headers["Content-Language"] == "zh-TW"
    assert answer.headers["Retry-After"] == "1"
    assert answer.get_json() == {
        **OVERLOADED,
        **request_named(answer),
        "title": "服務忙碌",
        "detail": "這台伺服器正在計算的繁重請求已達同時執行的上限（1 個）；請在 1 秒後重試。",
    }


@pytest.mark.parametrize(("path", "operation"), [
    ("/v1/ofc-pineapple/moves/legal", "ofcListLegalMoves"),
    ("/v1/big-two/plays/legal", "bigTwoListLegalPlays"),
    ("/v1/joker-thirteen/rounds/score", "jokerThirteenScoreRound"),
])  # fmt: skip
def test_light_operations_answer_while_the_cap_is_full(app, full, path, operation):
    assert app.test_client().post(path, json=example(operation)).status_code == 200
    assert app.test_client().get("/healthz").status_code == 200


def test_a_slot_comes_back_after_a_refused_input_and_after_a_failure(app, monkeypatch):
    client = app.test_client()
    invalid = client.post("/v1/ofc-pineapple/boards/outlook", json={"board": {"top": ["As", "As"]}})
    assert invalid.status_code == 422

    def fail(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a fault of the rules core")

    monkeypatch.setattr(ofc_outlook, "outlook", fail)
    failed = client.post("/v1/ofc-pineapple/boards/outlook", json=example("ofcBoardOutlook"))
    assert failed.status_code == 500
    monkeypatch.undo()
    cap = heavy.cap_of(app)
    assert cap.try_enter()  # the one slot is free again
    cap.leave()
    assert client.post("/v1/ofc-pineapple/boards/outlook", json=example("ofcBoardOutlook")).status_code == 200


def test_the_cap_takes_as_many_as_its_limit_and_no_more():
    cap = heavy.HeavyCap(2)
    assert cap.try_enter() and cap.try_enter()
    assert not cap.try_enter()
    cap.leave()
    assert cap.try_enter()
    cap.leave()
    cap.leave()
    with pytest.raises(ValueError):
        cap.leave()  # more releases than entries: a bug, never a larger cap


def test_the_heavy_operations_are_exactly_those_that_document_the_503(app):
    adapter = app.url_map.bind("localhost")
    found = {}
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            try:
                endpoint, _ = adapter.match(path, method=method.upper())
            except HTTPException:
                continue
            documented = op["responses"].get("503")
            if op["operationId"] == "readyz":  # its own 503: the process is stopping (tests/api/test_readiness.py)
                continue
            assert heavy.is_heavy(app.view_functions[endpoint]) == (documented is not None), (method, path)
            if documented is not None:
                assert documented == {"$ref": "#/components/responses/Overloaded"}
                found[path] = op["operationId"]
    assert found == HEAVY_OPERATIONS
    overloaded = SPEC["components"]["responses"]["Overloaded"]
    assert overloaded["headers"]["Retry-After"] == {"$ref": "#/components/headers/Retry-After"}
    assert overloaded["content"]["application/problem+json"]["example"]["type"] == OVERLOADED["type"]


@pytest.mark.parametrize(("value", "limit"), [(None, heavy.DEFAULT_CONCURRENCY), ("", heavy.DEFAULT_CONCURRENCY),
                                              ("1", 1), (" 3 ", 3)])  # fmt: skip
def test_the_cap_comes_from_the_environment(monkeypatch, value, limit):
    if value is None:
        monkeypatch.delenv(heavy.ENVIRONMENT, raising=False)
    else:
        monkeypatch.setenv(heavy.ENVIRONMENT, value)
    assert heavy.cap_of(create_app({"TESTING": True})).limit == limit


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5"])
def test_a_cap_that_is_not_a_whole_number_of_at_least_one_stops_the_start(monkeypatch, value):
    monkeypatch.setenv(heavy.ENVIRONMENT, value)
    with pytest.raises(ValueError, match=heavy.ENVIRONMENT):
        create_app({"TESTING": True})
