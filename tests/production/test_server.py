"""The service under the production gunicorn.conf.py on the loopback (two workers): headers, limits, request
IDs, the log line and the metrics as a client and an operator see them."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.common import GunicornServer
from bench.metrics import send, varied_requests
from tests.production.server import LOOPBACK, exchange, get, post_json, read_answer, wait_until

pytestmark = pytest.mark.xdist_group("production-server")

ROW = "/v1/ofc-pineapple/rows/evaluate"
PROBLEM_KEYS = {"type", "title", "status", "detail", "instance", "errors"}  # and the app's: trace_id


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("home")


@pytest.fixture(scope="module")
def metrics_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("metrics")
    (directory / "counter_999999.db").write_bytes(b"left by an earlier run")
    return directory


@pytest.fixture(scope="module")
def server(home, metrics_dir) -> Iterator[GunicornServer]:
    env = {"HOME": str(home), "XDG_RUNTIME_DIR": "", "LOG_LEVEL": "info", "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    with GunicornServer(app="tests.production.slow_app:app", workers=2, env=env) as running:
        yield running


def post_raw(path: str, body: bytes, headers: str = "", content_type: str = "application/json") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n{headers}\r\n").encode() + body  # fmt: skip


def chunked_raw(path: str, body: bytes, keep_alive: bool = False) -> bytes:
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(body[i : i + 4096]), body[i : i + 4096]) for i in range(0, len(body), 4096)
    )
    connection = "" if keep_alive else "Connection: close\r\n"
    return (f"POST {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nContent-Type: application/json\r\n{connection}"
            "Transfer-Encoding: chunked\r\n\r\n").encode() + chunks + b"0\r\n\r\n"  # fmt: skip


def assert_safe_headers(headers: dict[str, str]) -> None:
    assert headers["server"] == "card-rules"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["cache-control"] == "no-store"


# --- headers: no server version, no HTML, the same safety headers on every answer ------------------------


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200),
        (b"GET /no/such/path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
        (b"DELETE /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405),
        (post_raw(ROW, b"{not json", "Connection: close\r\n"), 400),
        (post_raw(ROW, b"[]", "Connection: close\r\n", content_type="text/plain"), 415),
        (post_raw(ROW, b'{"row": "top"}', "Connection: close\r\n"), 422),
    ],
    ids=["200", "404", "405", "400", "415", "422"],
)
def test_app_answers_carry_neutral_server_and_safety_headers(server, raw, status):
    got, headers, body = exchange(server.port, raw)
    assert got == status
    assert_safe_headers(headers)
    assert "gunicorn" not in body.decode().lower() and "traceback" not in body.decode().lower()
    if status >= 400:
        problem = json.loads(body)
        assert headers["content-type"] == "application/problem+json" and set(problem) == PROBLEM_KEYS | {"trace_id"}
        assert problem["instance"] == "urn:card-rules:request:" + headers["x-request-id"]
        assert problem["trace_id"] == headers["traceparent"].split("-")[1]


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"GET /" + b"a" * 3000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET /healthz HTTP/1.1\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(60)) + b"\r\n", 431),
        (b"GET /healthz HTTP/1.1\r\nX-Big: " + b"v" * 5000 + b"\r\n\r\n", 431),
        (b"NOT A REQUEST\r\n\r\n", 400),
    ],
    ids=["request-line-too-long", "too-many-headers", "header-too-large", "malformed-http"],
)
def test_gunicorn_rejections_are_problem_json_without_version(server, raw, status):
    got, headers, body = exchange(server.port, raw)
    assert got == status
    assert_safe_headers(headers)
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert set(problem) == PROBLEM_KEYS and problem["status"] == status
    assert problem["instance"] == "urn:card-rules:request:" + headers["x-request-id"]
    assert "gunicorn" not in body.decode().lower() and "<html" not in body.decode().lower()


def test_no_control_socket_in_home(server, home):
    assert not (home / ".gunicorn").exists()


# --- limits --------------------------------------------------------------------------------------------


def test_body_over_the_limit_is_413_and_the_connection_closes(server):
    body = b'{"row": "top", "cards": []}' + b" " * (64 * 1024)
    status, headers, _ = exchange(server.port, post_raw(ROW, body))
    assert status == 413 and headers["connection"] == "close"
    assert_safe_headers(headers)


def test_chunked_body_over_the_limit_is_413(server):
    body = b'{"row": "top", "cards": ["Kh", "Kd", "As"]}'
    status, headers, payload = exchange(server.port, chunked_raw(ROW, body + b" " * (64 * 1024 + 1 - len(body))))
    assert status == 413 and json.loads(payload)["status"] == 413
    assert headers["connection"] == "close"


def test_chunked_body_within_the_limit_is_served(server):
    body = b'{"row": "top", "cards": ["Kh", "Kd", "As"]}'
    status, _, payload = exchange(server.port, chunked_raw(ROW, body + b" " * (64 * 1024 - len(body))))
    assert status == 200 and json.loads(payload)["royalty"] == 8


def test_keep_alive_connection_survives_a_refused_small_body(server):
    with socket.create_connection((LOOPBACK, server.port), timeout=10) as sock:
        sock.sendall(post_raw(ROW, b"{not json"))
        assert read_answer(sock)[0] == 400
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_answer(sock)[0] == 200


def test_deeply_nested_body_is_422_not_500(server):
    for depth in (33, 30_000):  # 60,000 bytes: within the body limit, far beyond Python's recursion limit
        body = b"[" * depth + b"]" * depth
        status, _, payload = exchange(server.port, post_raw(ROW, body, "Connection: close\r\n"))
        assert status == 422 and "deeper than 32 levels" in json.loads(payload)["detail"]


# --- request IDs and the log line -------------------------------------------------------------------


def log_lines(server: GunicornServer, request_id: str) -> list[dict]:
    return [json.loads(line) for line in server.log_text().splitlines() if line.startswith("{") and request_id in line]


def test_request_id_is_echoed_and_logged_once_without_the_body(server):
    request_id = f"test-{uuid.uuid4()}"
    status, headers, _ = post_json(
        server.port, ROW, {"row": "top", "cards": ["Qh", "Qd", "7c"]}, {"X-Request-ID": request_id}
    )
    assert status == 200 and headers["x-request-id"] == request_id
    assert wait_until(lambda: log_lines(server, request_id))
    [line] = log_lines(server, request_id)
    assert {k: line[k] for k in ("level", "logger", "method", "path", "route", "status", "request_id")} == {
        "level": "info", "logger": "service.access", "method": "POST", "path": ROW, "route": ROW, "status": 200,
        "request_id": request_id,
    }  # fmt: skip
    assert line["pid"] in server.worker_pids() and line["duration_ms"] > 0
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    assert "Qh" not in json.dumps(line) and "cards" not in json.dumps(line)


@pytest.mark.parametrize("given", ["", "x" * 129, "bad id with spaces", 'quote"s', "é"])
def test_an_unusable_request_id_is_replaced(server, given):
    status, headers, _ = get(server.port, "/healthz", {"X-Request-ID": given} if given else None)
    assert status == 200 and re.fullmatch(r"[0-9a-f]{32}", headers["x-request-id"])


def test_request_id_on_errors(server):
    request_id = "err-" + uuid.uuid4().hex
    for raw in (post_raw(ROW, b"[", f"X-Request-ID: {request_id}\r\nConnection: close\r\n"),
                f"GET /nowhere HTTP/1.1\r\nHost: x\r\nX-Request-ID: {request_id}\r\nConnection: close\r\n\r\n".encode()):  # fmt: skip
        assert exchange(server.port, raw)[1]["x-request-id"] == request_id
    assert wait_until(lambda: len(log_lines(server, request_id)) == 2)
    assert sorted(line["status"] for line in log_lines(server, request_id)) == [400, 404]


# --- metrics across workers ------------------------------------------------------------------------


def metrics_text(server: GunicornServer) -> str:
    _, headers, body = get(server.metrics_port, "/metrics")
    assert headers["content-type"].startswith("text/plain")
    return body.decode()


def games_count(server: GunicornServer) -> float:
    games = r'^card_rules_http_requests_total\{method="GET",route="/v1/games",status="200"\} (\S+)$'
    found = re.search(games, metrics_text(server), re.M)
    return float(found.group(1)) if found else 0.0


def test_metrics_add_up_every_worker_and_survive_a_killed_one(server, metrics_dir):
    assert not (metrics_dir / "counter_999999.db").exists()  # a given directory is cleaned on start
    before = games_count(server)
    for _ in range(40):
        assert get(server.port, "/v1/games")[0] == 200
    assert wait_until(lambda: games_count(server) == before + 40)  # counted once sent; /metrics keeps 1 s
    workers = server.worker_pids()
    os.kill(workers[0], signal.SIGKILL)
    assert server.wait_for_workers(len(workers), exclude=[workers[0]]) is not None
    assert wait_until(lambda: not list(metrics_dir.glob(f"*_{workers[0]}.db")))  # moved to the archive
    assert (metrics_dir / "counter_archive.db").exists() and (metrics_dir / "histogram_archive.db").exists()
    time.sleep(1.1)
    assert games_count(server) == before + 40  # the dead worker's counts stay
    text = metrics_text(server)
    assert (
        'route="/v1/games"' in text and "/nowhere" not in text and "/no/such/path" not in text
    )  # templates, not raw paths
    assert 'card_rules_http_request_duration_seconds_bucket{le="0.005",route="/v1/games"}' in text


@pytest.mark.parametrize("host", [LOOPBACK, "{metrics}", "127.0.0.1:{metrics}", "localhost:{metrics}"])
def test_metrics_are_a_404_on_the_service_port_whatever_the_host(server, host):
    raw = f"GET /metrics HTTP/1.1\r\nHost: {host.format(metrics=server.metrics_port)}\r\nConnection: close\r\n\r\n"
    status, headers, body = exchange(server.port, raw.encode())
    assert (status, headers["content-type"]) == (404, "application/problem+json")
    assert json.loads(body)["type"] == "urn:card-rules:problem:not-found" and b"card_rules_" not in body
    assert get(server.metrics_port, "/metrics")[0] == 200


# --- what a day of traffic makes of /metrics: bounded, whatever clients send --------------------------

SAMPLE = re.compile(r"^(\w+)(?:\{([^}]*)\})? \S+$")


def test_a_day_of_varied_and_hostile_requests_keeps_metrics_small(server, metrics_dir):
    for request in varied_requests(1000):  # bench/metrics.py: every path and method, bad bodies, unknown paths
        send(server.port, request)
    time.sleep(1.1)  # the text of an earlier test expires
    text = metrics_text(server)
    samples = [SAMPLE.match(line) for line in text.splitlines() if line and not line.startswith("#")]
    assert all(samples)
    labels = [(found[1], dict(re.findall(r'(\w+)="([^"]*)"', found[2] or ""))) for found in samples]
    from tests.production.slow_app import app as served

    routes = {rule.rule: rule.methods for rule in served.url_map.iter_rules()}
    answered = [found for name, found in labels if name == "card_rules_http_requests_total"]
    timed = [found for name, found in labels if name == "card_rules_http_request_duration_seconds_count"]
    assert len(answered) >= 100  # the requests did make series
    for found in answered:  # a route's own methods, or OTHER: never one label set per method a client tries
        assert found["route"] == "unmatched" or found["method"] in routes[found["route"]] | {"OTHER"}, found
    assert all(set(found) == {"route"} and found["route"] in routes for found in timed)  # latency per route only
    # The whole text, one line per series: what a render reads, merges and writes. It grew with every method
    # and status tried on every route; now it is the routes' histograms and a few label sets per route.
    assert len(samples) <= 22 * len(routes) and len(text) <= 2_400 * len(routes), (len(samples), len(text), len(routes))
    assert "hostile-" not in text and "BREW" not in text and "PROPFIND" not in text
    assert len(list(metrics_dir.glob("*.db"))) <= 2 * server.workers + 3  # live workers', archives, the master's
