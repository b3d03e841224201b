"""Request IDs, the structured log line and the Prometheus metrics, in process (the multi-worker side is in
test_server.py)."""

from __future__ import annotations

import io
import json
import logging
import re
import socket
import struct
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.api import create_app, observability
from service.api.observability import JsonFormatter, StdoutHandler, request_id_from

ROW = "/v1/ofc-pineapple/rows/evaluate"


@pytest.fixture
def access_lines():
    """The JSON lines the access logger writes while the test runs."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("service.access")
    logger.addHandler(handler)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        logger.removeHandler(handler)


@pytest.mark.parametrize(
    "given", ["abc", "0f8fad5b-d9cb-469f-a165-70867728950e", "Zm9v+YmFy/ZA==", "a.b_c:d~e", "x" * 128]
)
def test_a_reasonable_request_id_is_kept(given):
    assert request_id_from({"HTTP_X_REQUEST_ID": given}) == given


@pytest.mark.parametrize("given", [None, "", "x" * 129, "has space", "new\nline", 'quote"', "<script>", "ünï"])
def test_anything_else_gets_a_new_id(given):
    environ = {} if given is None else {"HTTP_X_REQUEST_ID": given}
    generated = request_id_from(environ)
    assert re.fullmatch(r"[0-9a-f]{32}", generated) and generated != request_id_from(environ)


def test_one_log_line_per_request_with_the_fields_and_no_body(client, access_lines):
    response = client.post(
        ROW, json={"row": "top", "cards": ["Qh", "Qd", "7c"]}, headers={"X-Request-ID": "req-1"}, buffered=True
    )
    assert response.headers["X-Request-ID"] == "req-1"
    client.get("/v1/nowhere/42", headers={"X-Request-ID": "req-2"}, buffered=True)
    first, second = access_lines()
    assert set(first) == {
        "time",
        "level",
        "logger",
        "message",
        "method",
        "path",
        "route",
        "status",
        "duration_ms",
        "request_id",
        "trace_id",
        "span_id",
        "pid",
    }
    assert (first["trace_id"], first["span_id"]) == tuple(response.headers["traceparent"].split("-")[1:3])
    assert (first["method"], first["path"], first["route"], first["status"], first["request_id"]) == (
        "POST",
        ROW,
        ROW,
        200,
        "req-1",
    )
    assert (second["path"], second["route"], second["status"], second["request_id"]) == (
        "/v1/nowhere/42",
        "unmatched",
        404,
        "req-2",
    )
    assert "Qh" not in json.dumps(first)


def test_log_level_from_the_environment(monkeypatch, access_lines):
    monkeypatch.setenv("LOG_LEVEL", "warning")
    quiet = create_app({"TESTING": True}).test_client()
    try:
        quiet.get("/healthz", buffered=True)
        assert access_lines() == []
    finally:
        create_app({"TESTING": True, "LOG_LEVEL": "INFO"})  # the level is per process: restore it


def test_an_exception_is_one_json_line_with_its_trace():
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord(
            "service.api.errors", logging.ERROR, __file__, 1, "unhandled error", None, __import__("sys").exc_info()
        )
    line = JsonFormatter().format(record)
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["level"] == "error" and "ValueError: boom" in parsed["exception"]


def test_metrics_are_prometheus_text_by_route_template_and_status(client):
    client.post(ROW, json={"row": "top", "cards": ["Kh", "Kd", "As"]}, buffered=True)
    client.post(ROW, json={"row": "top"}, buffered=True)
    client.get("/v1/ofc-pineapple/rows/no-such-thing-123", buffered=True)
    response = client.get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert "# TYPE card_rules_http_requests_total counter" in text
    assert "# TYPE card_rules_http_request_duration_seconds histogram" in text
    assert re.search(
        r'card_rules_http_requests_total\{method="POST",route="/v1/ofc-pineapple/rows/evaluate",status="200"\} [1-9]',
        text,
    )
    assert re.search(
        r'card_rules_http_requests_total\{method="POST",route="/v1/ofc-pineapple/rows/evaluate",status="422"\} [1-9]',
        text,
    )
    assert re.search(r'card_rules_http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]', text)
    assert re.search(
        r'card_rules_http_request_duration_seconds_count\{route="/v1/ofc-pineapple/rows/evaluate"\} [1-9]', text
    )
    assert 'card_rules_http_request_duration_seconds_count{route="unmatched"}' not in text  # counted, not timed
    assert "no-such-thing-123" not in text


def test_an_odd_method_is_one_label():
    from service.api.observability import REQUESTS

    client = create_app({"TESTING": True}).test_client()
    client.open("/healthz", method="BREW", buffered=True)
    assert REQUESTS.labels("OTHER", "/healthz", "405")._value.get() >= 1


def test_a_405_on_a_real_route_is_labelled_with_that_route_and_other():
    """Whatever methods clients try on a route, its label sets are its own methods' and one more."""
    from service.api.observability import LATENCY, REQUESTS

    client = create_app({"TESTING": True}).test_client()
    before = REQUESTS.labels("OTHER", "/v1/big-two/plays/classify", "405")._value.get()
    timed = LATENCY.labels("/v1/big-two/plays/classify")._sum.get()
    for method in ("GET", "PUT", "DELETE"):
        assert client.open("/v1/big-two/plays/classify", method=method, buffered=True).status_code == 405
    assert REQUESTS.labels("OTHER", "/v1/big-two/plays/classify", "405")._value.get() == before + 3
    assert LATENCY.labels("/v1/big-two/plays/classify")._sum.get() == timed  # counted, not timed
    client.get("/no-such-route", buffered=True)
    assert REQUESTS.labels("GET", "unmatched", "404")._value.get() >= 1


def test_with_a_metrics_port_only_that_port_answers_metrics():
    client = create_app({"TESTING": True, "METRICS_PORT": "9464"}).test_client()
    elsewhere = client.get("/metrics", base_url="http://localhost:8000", buffered=True)
    assert (elsewhere.status_code, elsewhere.mimetype) == (404, "application/problem+json")
    assert elsewhere.get_json()["type"] == "urn:card-rules:problem:not-found"  # as an unknown path
    assert client.get("/metrics", base_url="http://localhost:9464", buffered=True).status_code == 200


def test_the_arrival_port_is_the_connections_never_the_host_header():
    with socket.socket() as tcp:
        tcp.bind(("127.0.0.1", 0))
        port = str(tcp.getsockname()[1])
        assert observability.arrival_port({"gunicorn.socket": tcp, "SERVER_PORT": "9464"}) == port
    unix, peer = socket.socketpair(socket.AF_UNIX)
    with unix, peer:  # gunicorn on a Unix socket makes SERVER_PORT of the Host header: no port at all
        assert observability.arrival_port({"gunicorn.socket": unix, "SERVER_PORT": "9464"}) == ""
    assert observability.arrival_port({"SERVER_PORT": "9464"}) == "9464"  # another server's own SERVER_PORT


ACCESS_FIELDS = {
    "method": st.sampled_from(sorted(observability.METHODS | {"OTHER"})),
    "path": st.text(max_size=300).map(lambda p: p[: observability.MAX_LOGGED_PATH]),
    "route": st.sampled_from(["/healthz", ROW, observability.UNMATCHED]),
    "status": st.integers(100, 599),
    "duration_ms": st.floats(0, 1e6, allow_nan=False).map(lambda ms: round(ms, 3)),
    "request_id": st.from_regex(observability.REQUEST_ID_PATTERN, fullmatch=True),
    "trace_id": st.binary(min_size=16, max_size=16).map(bytes.hex),
    "span_id": st.binary(min_size=8, max_size=8).map(bytes.hex),
    "pid": st.integers(1, 2**22),
}


@settings(max_examples=300, deadline=None)
@given(created=st.floats(0, 4e9, allow_nan=False), fields=st.fixed_dictionaries(ACCESS_FIELDS))
def test_the_access_line_written_straight_is_the_formatters_line(created, fields):
    fields = {name: fields[name] for name in ACCESS_FIELDS}  # the middleware's order
    record = observability.AccessRecord(dict(fields))
    record.created = created
    assert observability.access_line(created, fields) == JsonFormatter().format(record) + "\n"


def test_in_production_the_access_line_skips_the_logging_calls(client, capsys, monkeypatch):
    handled = []
    monkeypatch.setattr(observability.access_log, "handle", handled.append)
    service_log = logging.getLogger("service")  # as under gunicorn: only the JSON lines to stdout (no pytest capture)
    monkeypatch.setattr(service_log, "handlers", [h for h in service_log.handlers if type(h) is StdoutHandler])
    capsys.readouterr()
    client.get("/healthz", headers={"X-Request-ID": "straight-1"}, buffered=True)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert handled == []
    assert [(line["logger"], line["path"], line["status"], line["request_id"]) for line in lines] == [
        ("service.access", "/healthz", 200, "straight-1")
    ]


def test_metrics_read_again_when_a_new_workers_file_is_still_empty(tmp_path, monkeypatch):
    from prometheus_client.mmap_dict import MmapedDict

    monkeypatch.setattr(observability, "_cache", (0.0, b""))
    path = tmp_path / "counter_4242.db"
    path.write_bytes(b"")  # created, not yet written: what a reader meets in the moment after a worker's first metric
    threading.Timer(0.015, lambda: MmapedDict(str(path)).close()).start()
    text = observability.multiprocess_text(str(tmp_path))
    assert isinstance(text, bytes)


def test_metrics_do_not_hide_a_file_that_stays_broken(tmp_path, monkeypatch):
    monkeypatch.setattr(observability, "_cache", (0.0, b""))
    (tmp_path / "counter_4242.db").write_bytes(b"")
    with pytest.raises(struct.error):
        observability.multiprocess_text(str(tmp_path))


def write_a_counter(directory, value: float = 1.0) -> None:
    """A worker's counter file in ``directory``, as prometheus-client's multiprocess mode writes it."""
    from prometheus_client.mmap_dict import MmapedDict, mmap_key

    values = MmapedDict(str(directory / "counter_4242.db"))
    try:
        values.write_value(mmap_key("card_rules_probe", "card_rules_probe_total", [], [], "A probe."), value, 0.0)
    finally:
        values.close()


class Renders:
    """The renders of the metrics text (calls of prometheus-client's ``generate_latest``): when each began.
    Each takes ``seconds`` longer than its own work, so that other callers ask while it runs."""

    def __init__(self) -> None:
        self.began: list[float] = []
        self.seconds = 0.05


@pytest.fixture
def renders(monkeypatch) -> Renders:
    made = Renders()
    real = observability.generate_latest

    def counted(*args, **kwargs):
        made.began.append(time.monotonic())
        time.sleep(made.seconds)
        return real(*args, **kwargs)

    monkeypatch.setattr(observability, "generate_latest", counted)
    monkeypatch.setattr(observability, "_cache", (0.0, b""))  # this process has no text yet
    return made


def ask_at_once(directory, count: int) -> list[bytes]:
    """``count`` threads ask for the metrics text at the same moment; their answers."""
    start = threading.Barrier(count)
    texts: list[bytes] = []

    def ask() -> None:
        start.wait()
        texts.append(observability.multiprocess_text(str(directory)))

    threads = [threading.Thread(target=ask) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return texts


def test_metrics_are_rendered_once_however_many_ask_at_once(tmp_path, renders, monkeypatch):
    monkeypatch.setattr(observability, "CACHE_SECONDS", 0.5)
    write_a_counter(tmp_path, 1.0)
    first = ask_at_once(tmp_path, 16)
    assert len(renders.began) == 1  # one renderer; the other 15 waited for its text
    assert len(first) == 16 and set(first) == {first[0]} and b"card_rules_probe_total 1.0" in first[0]

    time.sleep(0.6)  # the interval is over: the next ask renders again
    write_a_counter(tmp_path, 2.0)
    second = ask_at_once(tmp_path, 16)
    assert len(renders.began) == 2  # one renderer again; the others had the previous text meanwhile
    assert len(second) == 16 and set(second) <= {first[0], observability._cache[1]}
    assert b"card_rules_probe_total 2.0" in observability._cache[1]


def test_metrics_are_kept_an_interval_from_the_end_of_their_render(tmp_path, renders, monkeypatch):
    monkeypatch.setattr(observability, "CACHE_SECONDS", 0.5)
    renders.seconds = 0.6  # a render longer than the interval: counted from its start, it would be stale at once
    write_a_counter(tmp_path)
    observability.multiprocess_text(str(tmp_path))
    ended = time.monotonic()
    observability.multiprocess_text(str(tmp_path))
    assert len(renders.began) == 1
    assert observability._cache[0] >= ended + 0.5 - 0.05


def test_a_second_worker_takes_the_text_the_first_rendered(tmp_path, renders):
    write_a_counter(tmp_path)
    text = observability.multiprocess_text(str(tmp_path))
    observability._cache = (0.0, b"")  # another worker: its own memory has no text yet
    assert observability.multiprocess_text(str(tmp_path)) == text
    assert len(renders.began) == 1


def test_held_access_lines_wait_for_the_main_loop_and_are_written_together(client, capsys, monkeypatch):
    """Under the service's gunicorn worker a thread only holds its line; the main loop writes the batch."""
    service_log = logging.getLogger("service")
    monkeypatch.setattr(service_log, "handlers", [h for h in service_log.handlers if type(h) is StdoutHandler])
    monkeypatch.setattr(observability, "_held", [])
    capsys.readouterr()
    for request_id in ("held-1", "held-2"):
        client.get("/healthz", headers={"X-Request-ID": request_id}, buffered=True)
    assert capsys.readouterr().out == ""
    observability.write_held_lines()
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["path"], line["request_id"]) for line in lines] == [("/healthz", "held-1"), ("/healthz", "held-2")]
    observability.write_held_lines()  # nothing held: nothing written
    assert capsys.readouterr().out == ""


def test_held_access_lines_are_bounded(client, capsys, monkeypatch):
    service_log = logging.getLogger("service")
    monkeypatch.setattr(service_log, "handlers", [h for h in service_log.handlers if type(h) is StdoutHandler])
    monkeypatch.setattr(observability, "_held", ["x\n"] * observability.MAX_HELD)
    capsys.readouterr()
    client.get("/healthz", headers={"X-Request-ID": "over-1"}, buffered=True)
    assert json.loads(capsys.readouterr().out)["request_id"] == "over-1"  # written at once, not held
