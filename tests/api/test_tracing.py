"""W3C Trace Context: a caller's ``traceparent`` is continued, anything else starts a trace; every answer
names this service's span; the trace id is in the log line and in problem bodies; ``tracestate`` is kept
only when well formed; and, when the operator turns it on, each sampled request's span goes to
OpenTelemetry with the ids the answer named (off, nothing of OpenTelemetry is loaded)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from service.api import create_app, tracing
from service.api.otel import SpanExport
from tests.conftest import ROOT

TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT = "00f067aa0ba902b7"
ROW = "/v1/ofc-pineapple/rows/evaluate"
OWN_TRACEPARENT = re.compile(r"00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])")


def answered_trace(response) -> tuple[str, str, str]:
    """(trace id, span id, flags) of an answer's ``traceparent``."""
    found = OWN_TRACEPARENT.fullmatch(response.headers["traceparent"])
    assert found is not None, response.headers["traceparent"]
    trace_id, span_id, flags = found.groups()
    assert trace_id.strip("0") and span_id.strip("0")
    return trace_id, span_id, flags


# --- the header's rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "parent"),
    [
        (f"00-{TRACE}-{PARENT}-01", (TRACE, PARENT, 1)),
        (f"00-{TRACE}-{PARENT}-00", (TRACE, PARENT, 0)),
        (f"  00-{TRACE}-{PARENT}-01\t", (TRACE, PARENT, 1)),  # optional white space around a header value
        (f"00-{TRACE}-{PARENT}-09", (TRACE, PARENT, 1)),  # flags this version does not define are not passed on
        (f"00-{TRACE}-{PARENT}-02", (TRACE, PARENT, 0)),
        (f"01-{TRACE}-{PARENT}-01", (TRACE, PARENT, 1)),  # a later version: its first four fields
        (f"cc-{TRACE}-{PARENT}-01-what-comes-next", (TRACE, PARENT, 1)),
    ],
)
def test_a_valid_traceparent_is_read(value, parent):
    assert tracing.parent_of(value) == parent


@pytest.mark.parametrize(
    "value",
    [
        "",
        f"ff-{TRACE}-{PARENT}-01",  # version ff is invalid
        f"00-{TRACE}-{PARENT}-01-more",  # version 00 has exactly four fields
        f"00-{'0' * 32}-{PARENT}-01",  # all-zero trace id
        f"00-{TRACE}-{'0' * 16}-01",  # all-zero parent id
        f"00-{TRACE.upper()}-{PARENT}-01",  # upper-case hex
        f"00-{TRACE[:-1]}-{PARENT}-01",
        f"00-{TRACE}-{PARENT}-1",
        f"00-{TRACE}-{PARENT}-01, 00-{TRACE}-{PARENT}-01",  # two headers, joined by the server
        f"00_{TRACE}_{PARENT}_01",
        f"01-{TRACE}-{PARENT}-01x",  # a later version's next field begins with a dash
    ],
)
def test_anything_else_is_not_a_traceparent(value):
    assert tracing.parent_of(value) is None


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("congo=t61rcWkgMzE", "congo=t61rcWkgMzE"),
        ("rojo=00f067aa0ba902b7, congo=t61rcWkgMzE", "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"),
        ("tenant@system=1,,a=b", "tenant@system=1,a=b"),  # empty members are allowed and dropped
        ("Upper=1", ""),  # keys are lower case
        ("a=b=c", ""),  # "=" is not a value character
        ("a=", ""),  # a value has at least one character
        (",".join(f"k{i}=v" for i in range(33)), ""),  # 33 members: over the 32 allowed
        ("a=" + "x" * 511, ""),  # over 512 characters: dropped whole, never cut
        (None, ""),
    ],
)
def test_tracestate_is_kept_only_when_well_formed(value, kept):
    assert tracing.state_of(value) == kept


@given(st.text(max_size=80))
def test_no_header_value_breaks_the_reading(value):
    parent = tracing.parent_of(value)
    assert parent is None or (len(parent[0]), len(parent[1]), parent[2] in (0, 1)) == (32, 16, True)
    tracing.state_of(value)


# --- over HTTP -------------------------------------------------------------------------------------------


def test_a_caller_s_trace_is_continued_by_a_span_of_ours(client):
    response = client.get("/healthz", headers={"traceparent": f"00-{TRACE}-{PARENT}-01"})
    trace_id, span_id, flags = answered_trace(response)
    assert (trace_id, flags) == (TRACE, "01") and span_id != PARENT


def test_an_unsampled_caller_stays_unsampled(client):
    assert answered_trace(client.get("/healthz", headers={"traceparent": f"00-{TRACE}-{PARENT}-00"}))[::2] == (
        TRACE,
        "00",
    )


@pytest.mark.parametrize("headers", [{}, {"traceparent": f"00-{TRACE}-{'0' * 16}-01"}, {"traceparent": "garbage"}])
def test_without_a_valid_traceparent_a_new_trace_starts_here(client, headers):
    first, second = (answered_trace(client.get("/healthz", headers=headers)) for _ in range(2))
    assert first[0] != TRACE and first[0] != second[0] and first[1] != second[1]
    assert first[2] == second[2] == "00"  # recorded by no one: no export is on


def test_every_span_is_new(client):
    spans = {
        answered_trace(client.get("/healthz", headers={"traceparent": f"00-{TRACE}-{PARENT}-01"}))[1] for _ in range(20)
    }
    assert len(spans) == 20


def test_a_problem_names_the_request_and_its_trace(client):
    response = client.post(
        ROW,
        json={"row": "side", "cards": []},
        headers={"X-Request-ID": "req-7", "traceparent": f"00-{TRACE}-{PARENT}-01"},
    )
    body = response.get_json()
    assert (response.status_code, body["instance"], body["trace_id"]) == (422, "urn:card-rules:request:req-7", TRACE)
    assert list(body) == ["type", "title", "status", "detail", "instance", "trace_id", "errors"]


def test_cors_lets_a_browser_send_and_read_the_trace_headers():
    cors = create_app({"TESTING": True, "CORS_ORIGINS": "https://play.example"}).test_client()
    origin = {"Origin": "https://play.example"}
    preflight = cors.options(
        "/healthz",
        headers={**origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "traceparent"},
    )
    assert preflight.headers["Access-Control-Allow-Headers"] == "Content-Type, X-Request-ID, traceparent, tracestate"
    answer = cors.get("/healthz", headers=origin)
    assert answer.headers["Access-Control-Expose-Headers"] == "X-Request-ID, traceparent"


# --- OpenTelemetry ----------------------------------------------------------------------------------------


@pytest.fixture()
def exported():
    """An app whose spans go to memory, and the spans it exported so far."""
    memory = InMemorySpanExporter()
    app = create_app({"TESTING": True, "SPAN_EXPORT": SpanExport(SimpleSpanProcessor(memory))})
    return app.test_client(), memory.get_finished_spans


def test_the_exported_span_is_the_one_the_answer_names(exported):
    client, spans = exported
    headers = {"traceparent": f"00-{TRACE}-{PARENT}-01", "tracestate": "congo=t61rcWkgMzE"}
    response = client.post(ROW, json={"row": "top", "cards": ["Qh", "Qd", "7c"]}, headers=headers, buffered=True)
    _, span_id, _ = answered_trace(response)  # buffered: the answer is closed, so its span is done
    (span,) = spans()
    assert (f"{span.context.trace_id:032x}", f"{span.context.span_id:016x}") == (TRACE, span_id)
    assert (f"{span.parent.span_id:016x}", span.parent.is_remote) == (PARENT, True)
    assert span.context.trace_state.to_header() == "congo=t61rcWkgMzE"
    assert (span.name, span.kind, span.status.status_code) == (f"POST {ROW}", SpanKind.SERVER, StatusCode.UNSET)
    assert dict(span.attributes) == {
        "http.request.method": "POST",
        "http.route": ROW,
        "url.path": ROW,
        "http.response.status_code": 200,
    }
    assert span.resource.attributes["service.name"] == "card-rules-service"
    assert 0 < span.end_time - span.start_time < 10**10


def test_with_export_on_a_trace_that_starts_here_is_sampled_and_exported(exported):
    client, spans = exported
    trace_id, span_id, flags = answered_trace(client.get("/v1/nowhere", buffered=True))
    (span,) = spans()
    assert flags == "01" and span.parent is None
    assert (f"{span.context.trace_id:032x}", f"{span.context.span_id:016x}", span.name) == (trace_id, span_id, "GET")
    assert dict(span.attributes) == {
        "http.request.method": "GET",
        "url.path": "/v1/nowhere",
        "http.response.status_code": 404,
    }


def test_a_trace_the_caller_did_not_sample_is_not_exported(exported):
    client, spans = exported
    client.get("/healthz", headers={"traceparent": f"00-{TRACE}-{PARENT}-00"}, buffered=True)
    client.get("/healthz", headers={"traceparent": f"00-{TRACE}-{PARENT}-01"}, buffered=True)
    assert [f"{span.context.trace_id:032x}" for span in spans()] == [TRACE]  # the sampled one only


@pytest.mark.parametrize(
    ("value", "reason"), [("otlpp", "the exports are otlp, or off"), ("yes", "the exports are otlp")]
)
def test_a_misspelt_export_stops_the_start(monkeypatch, value, reason):
    monkeypatch.setenv(tracing.OTEL_ENVIRONMENT, value)
    with pytest.raises(RuntimeError, match=reason):
        create_app({"TESTING": True})


@pytest.mark.parametrize("value", [None, "", "off", " OFF "])
def test_export_is_off_unless_asked_for(monkeypatch, value):
    if value is None:
        monkeypatch.delenv(tracing.OTEL_ENVIRONMENT, raising=False)
    else:
        monkeypatch.setenv(tracing.OTEL_ENVIRONMENT, value)
    assert tracing.export_from_environment() is None


def test_off_nothing_of_opentelemetry_is_imported():
    program = (
        "import sys; from service.api import create_app; create_app().test_client().get('/healthz');"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith('opentelemetry')}))"
    )
    result = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={"PATH": "/usr/bin:/bin"})  # fmt: skip  # CARD_RULES_OTEL unset
    assert (result.returncode, result.stdout.strip()) == (0, "[]"), result.stderr


def test_otlp_export_is_built_from_the_sdk_s_own_settings(monkeypatch):
    monkeypatch.setenv(tracing.OTEL_ENVIRONMENT, "otlp")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    export = tracing.export_from_environment()
    try:
        assert type(export).__name__ == "SpanExport"
        assert type(export.processor).__name__ == "BatchSpanProcessor"
    finally:
        export.processor.shutdown()


# --- the README ---------------------------------------------------------------------------------------------


def test_the_readme_s_traced_request_answers_and_logs_what_it_shows(client, caplog):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Request IDs, traces and logs") :]
    command = re.search(r"```sh\n(curl .*?)```", section, re.S).group(1)
    headers = dict(re.findall(r"-H '([\w-]+): ([^']*)'", command))
    body = re.search(r"-d '([^']*)'", command).group(1)
    shown = dict(re.findall(r"^# ([\w-]+): (\S+)", command, re.M))
    logged = json.loads(re.search(r"```json\n(.*?)\n```", section, re.S).group(1))
    with caplog.at_level("INFO", logger="service.access"):
        response = client.post("/v1/big-two/plays/classify", data=body, headers=headers, buffered=True)
    assert response.headers["X-Request-ID"] == shown["X-Request-ID"]
    assert response.headers["traceparent"].split("-")[::3] == shown["traceparent"].split("-")[::3]  # version, flags
    assert response.headers["traceparent"].split("-")[1] == shown["traceparent"].split("-")[1] == logged["trace_id"]
    (record,) = [r for r in caplog.records if r.name == "service.access"]
    line = record.fields
    assert list(line) == [k for k in logged if k not in ("time", "level", "logger", "message")]
    for key in ("method", "path", "route", "status", "request_id", "trace_id"):
        assert line[key] == logged[key], key
    assert line["span_id"] == response.headers["traceparent"].split("-")[2]
