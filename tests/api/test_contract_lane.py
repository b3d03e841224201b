"""``meta.ContractLane``: the documents served in front of Flask give the same answers as Flask's routes.

The lane answers a plain ``GET`` or ``HEAD`` of ``/openapi.json`` or ``/openapi.yaml`` from header lists
built once; Flask's views (``meta.serve``) stay the reference. Each request below is answered both ways, by
the whole WSGI app (the observability middleware included), and the status lines, header lists (all but
the request ID, which is new per request) and bodies must be equal.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder

from service.api import create_app, meta, observability
from service.api.tracing import TRACEPARENT_HEADER


def wsgi_answer(app: Any, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes]:
    started: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        started[:] = [status, headers]

    body = app.wsgi_app(dict(environ), start_response)
    try:
        data = b"".join(body)
    finally:
        body.close()
    status, headers = started
    return status, [(n, v) for n, v in headers if n != TRACEPARENT_HEADER], data  # a new span id each time


def both_ways(app: Any, environ: dict[str, Any]) -> tuple[Any, Any]:
    """The answer with the lane, and Flask's answer to the same request (the lane taken out)."""
    lane = app.wsgi_app.wsgi_app
    assert isinstance(lane, meta.ContractLane)
    with_lane = wsgi_answer(app, environ)
    app.wsgi_app.wsgi_app = lane.app
    try:
        by_flask = wsgi_answer(app, environ)
    finally:
        app.wsgi_app.wsgi_app = lane
    return with_lane, by_flask


def environ_of(
    method: str, path: str, headers: dict[str, str], query: str = "", body: bytes | None = None
) -> dict[str, Any]:
    """The environ of a request, with a request id and a trace of its own: its two answers name the same ones."""
    headers = {"X-Request-ID": "lane", "traceparent": f"00-{'1' * 32}-{'2' * 16}-01", **headers}
    environ = EnvironBuilder(path=path, method=method, headers=headers, query_string=query, data=body).get_environ()
    if body is None:
        environ.pop("CONTENT_LENGTH", None)
    environ["wsgi.input"] = io.BytesIO(body or b"")
    return environ


@pytest.fixture(scope="module")
def lane_app():
    return create_app({"TESTING": True})


def tags(app: Any) -> list[str]:
    found = app.extensions[meta.CONTRACT_KEY]
    return [d.etag for d in (found.json, found.yaml)] + [d.gzip_etag for d in (found.json, found.yaml)]


ENCODINGS = ["", "gzip", "x-gzip", "br", "gzip;q=0", "*", "*;q=0", "identity", "deflate, gzip;q=0.5", "GZIP", "a" * 300]
LANGUAGES = ["", "zh-TW", "zh-CN;q=0.9, en;q=0.8", "xx", "*"]


def if_none_match_values(app: Any) -> list[str]:
    quoted = [f'"{tag}"' for tag in tags(app)]
    return ["", "*", "W/" + quoted[0], quoted[0], quoted[1], quoted[2], quoted[3], f'"x", {quoted[2]}', "garbage", ",,"]


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("path", ["/openapi.json", "/openapi.yaml"])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_lane_answers_as_flask_for_every_encoding_and_tag(lane_app, method, path, encoding):
    for if_none_match in if_none_match_values(lane_app):
        headers = {
            name: value for name, value in (("Accept-Encoding", encoding), ("If-None-Match", if_none_match)) if value
        }
        with_lane, by_flask = both_ways(lane_app, environ_of(method, path, headers))
        assert with_lane == by_flask, (headers, with_lane[:2], by_flask[:2])


@given(
    method=st.sampled_from(["GET", "HEAD"]),
    path=st.sampled_from(["/openapi.json", "/openapi.yaml"]),
    encoding=st.sampled_from(ENCODINGS),
    language=st.sampled_from(LANGUAGES),
    tag_index=st.integers(0, 9),
    query=st.sampled_from(["", "a=1", "format=yaml"]),
)
def test_the_lane_answers_as_flask_for_any_mix_of_headers(lane_app, method, path, encoding, language, tag_index, query):
    values = {
        "Accept-Encoding": encoding,
        "Accept-Language": language,
        "If-None-Match": if_none_match_values(lane_app)[tag_index],
    }
    headers = {name: value for name, value in values.items() if value}
    with_lane, by_flask = both_ways(lane_app, environ_of(method, path, headers, query))
    assert with_lane == by_flask


def test_a_plain_get_is_answered_by_the_lane_not_by_flask(lane_app, monkeypatch):
    def flask_called(*_args: Any) -> Any:
        raise AssertionError("Flask was called")

    monkeypatch.setattr(lane_app.wsgi_app.wsgi_app, "app", flask_called)
    status, headers, body = wsgi_answer(lane_app, environ_of("GET", "/openapi.json", {}))
    assert status == "200 OK" and json.loads(body)["openapi"].startswith("3.")
    assert dict(headers)["Content-Language"] == "en" and dict(headers)["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("POST", "/openapi.json", b"{}", "405 METHOD NOT ALLOWED"),
        ("OPTIONS", "/openapi.yaml", None, "204 NO CONTENT"),
        ("GET", "/openapi.json/", None, "404 NOT FOUND"),
        ("GET", "/openapi.JSON", None, "404 NOT FOUND"),
        ("GET", "/openapi.json", b"a body", "200 OK"),  # a body: Flask's way, whatever it makes of it
    ],
)
def test_anything_but_a_plain_get_or_head_goes_to_flask(lane_app, method, path, body, status):
    with_lane, by_flask = both_ways(lane_app, environ_of(method, path, {}, body=body))
    assert with_lane == by_flask and with_lane[0] == status


def test_with_cors_on_flask_serves_the_documents_with_the_origin_headers():
    app = create_app({"TESTING": True, "CORS_ORIGINS": "https://play.example.com"})
    assert not isinstance(app.wsgi_app.wsgi_app, meta.ContractLane)
    answer = app.test_client().get("/openapi.json", headers={"Origin": "https://play.example.com"})
    assert answer.status_code == 200 and answer.headers["Access-Control-Allow-Origin"] == "https://play.example.com"
    assert "Origin" in answer.headers["Vary"]


def test_the_lane_counts_and_logs_the_documents_route(lane_app):
    def counted(status: str) -> float:
        return observability.REQUESTS.labels("GET", "/openapi.yaml", status)._value.get()

    before = counted("200"), counted("304")
    tag = f'"{lane_app.extensions[meta.CONTRACT_KEY].yaml.etag}"'
    wsgi_answer(lane_app, environ_of("GET", "/openapi.yaml", {}))
    wsgi_answer(lane_app, environ_of("GET", "/openapi.yaml", {"If-None-Match": tag}))
    assert (counted("200"), counted("304")) == (before[0] + 1, before[1] + 1)
