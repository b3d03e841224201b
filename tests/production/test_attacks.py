"""Hostile clients at a small scale, against gunicorn with the production gunicorn.conf.py (deadlines
shortened through the environment so the suite stays quick): slow and idle connections cost neither a
thread nor /healthz, each is closed within its deadline (408 where a request began) and counted;
oversized declarations are 413 before the body; a request past the timeout leaves no late answer and is
logged and counted. bench/attack.py runs the same attacks at full scale."""

from __future__ import annotations

import json
import re
import socket
import time

import pytest

from bench.common import GunicornServer
from tests.production.server import LOOPBACK, exchange, get, post_json, read_answer, read_answers

pytestmark = pytest.mark.xdist_group("production-processes")

DEADLINE = 1.0  # header, body and keep-alive deadlines of the server below, in seconds
ENV = {"CARD_RULES_HEADER_TIMEOUT": "1", "CARD_RULES_BODY_TIMEOUT": "1", "GUNICORN_KEEPALIVE": "1"}
PARTIAL = b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\n"
SLOW_BODY = (b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: 100\r\n\r\n" + b'{"cards": ["3C", ')  # fmt: skip


@pytest.fixture(scope="module")
def server():
    with GunicornServer(workers=2, env=ENV) as running:
        yield running


def hold(port: int, count: int, first: bytes) -> list[socket.socket]:
    socks = []
    for _ in range(count):
        sock = socket.create_connection((LOOPBACK, port), timeout=10)
        if first:
            sock.sendall(first)
        socks.append(sock)
    return socks


def healthz_seconds(port: int) -> float:
    started = time.monotonic()
    status, _, _ = get(port, "/healthz", timeout=5)
    assert status == 200
    return time.monotonic() - started


def closed_with(sock: socket.socket) -> tuple[bytes, float]:
    """Everything the server sends until it closes ``sock``, and when it closed (monotonic)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data, time.monotonic()


def metric(port: int, reason: str) -> float:
    time.sleep(1.1)  # /metrics keeps its text for 1 s
    _, _, body = get(port, "/metrics")
    found = re.search(rb'^card_rules_connections_closed_total\{reason="' + reason.encode() + rb'"\} (\S+)$', body, re.M)
    return float(found.group(1)) if found else 0.0


@pytest.mark.parametrize("first, answer, reason", [
    (PARTIAL, b"HTTP/1.1 408 Request Timeout", "header_timeout"),
    (b"", b"", "idle_timeout"),
    (SLOW_BODY, b"HTTP/1.1 408 Request Timeout", "body_timeout"),
], ids=["partial-headers", "idle", "slow-body"])  # fmt: skip
def test_held_connections_cost_no_thread_and_close_at_their_deadline(server, first, answer, reason):
    before = metric(server.metrics_port, reason)
    workers = server.worker_pids()
    opened = time.monotonic()
    socks = hold(server.port, 50, first)  # 50 connections: 6 times the 8 threads of the two workers
    try:
        for _ in range(5):
            assert healthz_seconds(server.port) < 1.0
        status, _, body = post_json(server.port, "/v1/big-two/plays/classify", {"cards": ["3C"]})
        assert status == 200 and json.loads(body)["combination"] == "single"
        for sock in socks:
            data, closed = closed_with(sock)
            assert data.startswith(answer) if answer else data == b""
            assert closed - opened < DEADLINE + 1.5  # the deadline, a sweep and a loaded machine's slack
    finally:
        for sock in socks:
            sock.close()
    assert server.worker_pids() == workers and "WORKER TIMEOUT" not in server.log_text()
    assert metric(server.metrics_port, reason) >= before + 50


def test_a_connection_is_refused_within_a_sweep_of_its_deadline_on_a_quiet_server():
    """The main loop looks at the deadlines every sweep even when nothing happens, not only when its wait
    for events (a second) ends: a head not finished 1.5 s after its first byte gets its 408 then, not at
    the next whole second."""
    with GunicornServer(workers=1, env={"CARD_RULES_HEADER_TIMEOUT": "1.5"}) as quiet:
        time.sleep(0.5)  # the start's own connections gone
        opened = time.monotonic()
        [sock] = hold(quiet.port, 1, PARTIAL)
        with sock:
            data, closed = closed_with(sock)
    assert data.startswith(b"HTTP/1.1 408 Request Timeout") and 1.5 <= closed - opened < 1.5 + 0.3


def test_a_408_is_problem_json_with_the_services_headers(server):
    [sock] = hold(server.port, 1, PARTIAL)
    with sock:
        status, headers, body = read_answer(sock)
    assert status == 408 and headers["content-type"] == "application/problem+json"
    assert headers["x-request-id"] and headers["content-language"] == "en" and headers["vary"] == "Accept-Language"
    assert b"urn:card-rules:problem:request-timeout" in body


def test_a_trickled_head_is_still_cut_at_its_deadline(server):
    """Slowloris: a byte every 0.3 s keeps every single read short; the deadline is for the whole head."""
    with socket.create_connection((LOOPBACK, server.port), timeout=10) as sock:
        sock.sendall(PARTIAL)
        started = time.monotonic()
        sock.settimeout(0.3)
        data = b""
        while time.monotonic() - started < DEADLINE + 3:
            try:
                sock.send(b"X")
                data += sock.recv(65536)
                if data:
                    break
            except TimeoutError:
                continue
            except OSError:
                break
        assert data.startswith(b"HTTP/1.1 408") and time.monotonic() - started < DEADLINE + 1.5


@pytest.mark.parametrize("framing", [b"Content-Length: 999999999\r\n", b"Transfer-Encoding: chunked\r\n"])
def test_a_declared_size_over_the_limit_is_413_before_any_body_byte(server, framing):
    head = (
        b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framing + b"\r\n"
    )
    if b"chunked" in framing:
        head += b"ffffffffffffffffffff\r\n"  # a chunk size: the body would follow
    with socket.create_connection((LOOPBACK, server.port), timeout=5) as sock:
        sock.sendall(head)  # and not a byte of the body
        status, headers, _ = read_answer(sock)
    assert status == 413 and headers["connection"] == "close"


def test_trailers_past_the_body_limit_are_413_before_they_end(server):
    """The trailer section counts in the body: a client cannot grow the worker's buffer with it."""
    body = b"17\r\n" + b'{"cards": ["3C", "3D"]}' + b"\r\n0\r\n" + (b"X-T: " + b"a" * 1000 + b"\r\n") * 70
    head = b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    with socket.create_connection((LOOPBACK, server.port), timeout=5) as sock:
        sock.sendall(head + b"Transfer-Encoding: chunked\r\n\r\n" + body)  # and never the empty line that ends it
        status, headers, payload = read_answer(sock)
    assert (status, headers["connection"]) == (413, "close")
    assert json.loads(payload)["type"] == "urn:card-rules:problem:body-too-large"


def test_keep_alive_and_pipelined_requests_still_work(server):
    one = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection((LOOPBACK, server.port), timeout=5) as sock:
        sock.sendall(one + one)  # pipelined
        data = b""
        while not (data.count(b"HTTP/1.1 200 OK\r\n") == 2 and data.endswith(b"}")):
            chunk = sock.recv(65536)
            assert chunk, data
            data += chunk
        assert data.count(b"HTTP/1.1 ") == 2
        sock.sendall(one[:10])
        time.sleep(0.2)
        sock.sendall(one[10:])  # a request in two pieces
        assert read_answer(sock)[0] == 200


def test_pipelined_requests_with_bodies_each_get_their_own_body(server):
    def post(path: str, body: bytes) -> bytes:
        return (b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                % (path.encode(), len(body))) + body  # fmt: skip

    pair, straight = b'{"cards": ["3C", "3D"]}', b'{"cards": ["3C", "4D", "5H", "6S", "7C"]}'
    with socket.create_connection((LOOPBACK, server.port), timeout=5) as sock:
        sock.sendall(
            post("/v1/big-two/plays/classify", pair)
            + post("/healthz", b'{"not": "read"}')  # a body the app never reads (405): skipped, not parsed
            + post("/v1/big-two/plays/classify", straight)
            + b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        answers = read_answers(sock, 4)
    assert [status for status, _ in answers] == [200, 405, 200, 200]
    assert json.loads(answers[0][1])["combination"] == "pair"
    assert json.loads(answers[2][1])["combination"] == "straight"
    assert json.loads(answers[3][1]) == {"status": "ok"}


def test_expect_100_continue_is_answered_before_the_body(server):
    body = b'{"cards":["3C"]}'
    with socket.create_connection((LOOPBACK, server.port), timeout=5) as sock:
        sock.sendall(b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(body))  # fmt: skip
        assert sock.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body)
        assert read_answer(sock)[0] == 200


@pytest.mark.parametrize("framing, status, problem_type", [
    (b"Content-Length: 999999999\r\n", 413, "body-too-large"),
    (b"Transfer-Encoding: gzip, chunked\r\n", 501, "not-implemented"),
])  # fmt: skip
def test_expect_100_continue_for_a_body_that_will_be_refused_gets_the_refusal_alone(
    server, framing, status, problem_type
):
    with socket.create_connection((LOOPBACK, server.port), timeout=5) as sock:
        sock.sendall(b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Expect: 100-continue\r\n" + framing + b"\r\n")  # fmt: skip
        data, _ = closed_with(sock)  # the client waits for a 100 Continue that must not come
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 %d " % status) and b"100 Continue" not in data
    assert json.loads(body)["type"] == "urn:card-rules:problem:" + problem_type


@pytest.mark.parametrize("chunks", [
    b"00000000000000000000017\r\n" + b'{"cards": ["3C", "3D"]}' + b"\r\n0\r\n\r\n",  # leading zeros: still 0x17
    b"17 ;name=value;quoted=\"a b\"\r\n" + b'{"cards": ["3C", "3D"]}' + b"\r\n0\r\n\r\n",  # chunk extensions
    b"7\r\n" + b'{"cards' + b"\r\n10\r\n" + b'": ["3C", "3D"]}' + b"\r\n0\r\nX-Trailer: 1\r\nX-Other: 2\r\n\r\n",
])  # fmt: skip
def test_a_well_formed_chunked_body_is_read_by_its_framing(server, chunks):
    head = b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    status, _, body = exchange(server.port, head + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks)
    assert status == 200 and json.loads(body)["combination"] == "pair"


def test_a_request_past_the_timeout_gets_no_late_answer_and_is_logged_and_counted(tmp_path):
    env = {"GUNICORN_TIMEOUT": "2", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    with GunicornServer(app="tests.production.slow_app:app", workers=1, env=env) as server:
        started = time.monotonic()
        with pytest.raises((ConnectionError, OSError)):
            get(server.port, "/test/sleep/30.0", timeout=15)
        assert time.monotonic() - started < 2 + 1 + 1  # the timeout, the master's check, slack
        assert server.wait_for_workers(1) is not None
        time.sleep(1.1)
        _, _, body = get(server.metrics_port, "/metrics")
        log = server.log_text()
    assert re.search(rb"^card_rules_worker_timeouts_total 1\.0$", body, re.M)
    assert re.search(rb"^card_rules_requests_lost_total 1\.0$", body, re.M)
    assert re.search(rb"^card_rules_worker_exits_total [1-9]", body, re.M)
    assert '"message": "request lost: its worker was killed after the timeout"' in log and "GET /test/sleep/30.0" in log


def test_a_client_script_name_header_is_ignored(server):
    status, _, body = exchange(
        server.port, b"GET /docs HTTP/1.1\r\nHost: x\r\nSCRIPT_NAME: /evil\r\nConnection: close\r\n\r\n"
    )
    assert status == 200 and b"/evil" not in body
    status, _, _ = exchange(
        server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nSCRIPT_NAME: /nothing-like-it\r\nConnection: close\r\n\r\n"
    )
    assert status == 200  # a prefix the path does not start with was a 500


CHUNKED = (b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n")  # fmt: skip
PAIR = b'{"cards": ["3C", "3D"]}'  # 0x17 bytes


@pytest.mark.parametrize("raw, status, problem_type", [
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n", 501, "not-implemented"),
    (CHUNKED.replace(b"chunked", b"gzip, chunked") + b"17\r\n" + PAIR + b"\r\n0\r\n\r\n", 501, "not-implemented"),
    (CHUNKED.replace(b"chunked", b"identity, chunked") + b"17\r\n" + PAIR + b"\r\n0\r\n\r\n", 501, "not-implemented"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n", 417, "expectation-failed"),
    (b"GET /healthz HTTP/1.1\r\n\r\n", 400, "malformed-request"),  # no Host (RFC 9112, 3.2)
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400, "malformed-request"),
    (CHUNKED + b"17\n" + PAIR + b"\r\n0\r\n\r\n", 400, "malformed-request"),  # chunk-size line ended by a bare LF
    (CHUNKED + b"17\r\n" + PAIR + b"\r\n0\n\n", 400, "malformed-request"),  # last chunk and its end, bare LFs
    (CHUNKED + b"17\r\n" + PAIR + b"\r\n0\r\nX-T: 1\n\r\n", 400, "malformed-request"),  # a trailer, bare LF
    (CHUNKED + b"+17\r\n" + PAIR + b"\r\n0\r\n\r\n", 400, "malformed-request"),  # a size is hex digits only
    (CHUNKED + b"17\r\n" + PAIR + b"XX0\r\n\r\n", 400, "malformed-request"),  # no CRLF after the chunk's data
    (CHUNKED + b"1" * 2000, 400, "malformed-request"),  # a chunk-size line that never ends
    (b"GET /" + b"a" * 3000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "request-line-too-long"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-A%d: b\r\n" % i for i in range(60)) + b"\r\n", 431,
     "headers-too-large"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + (b"X-A: " + b"b" * 4000 + b"\r\n") * 9 + b"\r\n", 431,
     "headers-too-large"),  # 36 KiB head
])  # fmt: skip
def test_refusals_before_the_app_are_problem_json_with_matching_reasons(server, raw, status, problem_type):
    from http import HTTPStatus

    with socket.create_connection((LOOPBACK, server.port), timeout=5) as sock:
        sock.sendall(raw)
        data, _ = closed_with(sock)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode()
    problem = json.loads(body)
    assert problem["status"] == status and problem["type"] == "urn:card-rules:problem:" + problem_type
    for header in (b"X-Request-ID: ", b"Content-Language: en", b"Vary: Accept-Language", b"Cache-Control: no-store"):
        assert header in head


def test_http_1_2_is_answered_as_http_1_1(server):
    data = exchange(server.port, b"GET /healthz HTTP/1.2\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert data[0] == 200
    with socket.create_connection((LOOPBACK, server.port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.2\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert sock.recv(12) == b"HTTP/1.1 200"


def test_a_request_queued_past_the_timeout_is_503_with_retry_after():
    """The worker's check before running a request (a thread took it ``timeout`` s after it arrived)."""
    from types import SimpleNamespace

    from service.gunicorn_worker import ThreadWorker

    sent = []
    worker = SimpleNamespace(cfg=SimpleNamespace(timeout=10))
    conn = SimpleNamespace(arrived=time.monotonic() - 10.5, sock=SimpleNamespace(sendall=sent.append))
    req = SimpleNamespace(method="POST", path="/v1/big-two/plays/classify", version=(1, 1), headers=[("HOST", "x")])
    assert ThreadWorker.handle_request(worker, req, conn) is False
    head, _, body = sent[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 Service Unavailable\r\n") and b"\r\nRetry-After: 1\r\n" in head
    assert json.loads(body)["type"] == "urn:card-rules:problem:overloaded"


def test_the_overdue_warning_is_logged_once_per_request_not_once_per_worker(tmp_path):
    import threading
    from types import SimpleNamespace

    from service.gunicorn_worker import ThreadWorker

    lines: list[str] = []
    heartbeat = (tmp_path / "heartbeat").open("w")
    worker = SimpleNamespace(cfg=SimpleNamespace(timeout=10), tmp=heartbeat, _running_lock=threading.Lock(),
                             _running={}, _overdue_logged=set(), log=SimpleNamespace(error=lambda *a: lines.append(a[1])))  # fmt: skip
    now = time.monotonic()
    worker._running[1] = (now - 6, "POST /first")
    ThreadWorker.notify(worker)
    ThreadWorker.notify(worker)  # the same request: not again
    del worker._running[1]
    ThreadWorker.notify(worker)
    worker._running[2] = (now - 7, "POST /second")  # a later request of the same worker: logged too
    ThreadWorker.notify(worker)
    heartbeat.close()
    assert lines == ["POST /first", "POST /second"]


def test_sigterm_is_not_held_up_by_partial_requests():
    with GunicornServer(workers=2) as server:  # the production deadlines: 5 s for a head
        socks = hold(server.port, 20, PARTIAL)
        try:
            code, took = server.terminate(timeout=30)
        finally:
            for sock in socks:
                sock.close()
    assert code == 0 and took < 8  # 2 s for a request to complete, then closed: not the 20 s graceful_timeout


def test_a_body_of_thousands_of_unknown_keys_costs_a_few_valid_requests(server):
    """bench/attack.py's unknown-key rows at a small scale: a 64 KiB object of thousands of unknown keys, short
    or long, is refused 422 within tens of a valid request's time, side by side on one connection, medians of
    15 (the short keys once took hundreds: every unknown field was rendered, twice)."""
    from bench.attack import timed_posts, unknown_key_bodies

    for label, (path, valid, unknown) in unknown_key_bodies().items():
        valid_s, valid_status = timed_posts(server.port, path, valid, "en", 15)
        refused_s, refused_status = timed_posts(server.port, path, unknown, "en", 15)
        assert (valid_status, refused_status) == (200, 422), label
        assert refused_s < 40 * valid_s, (label, refused_s, valid_s)
