"""The gateway, end to end: deploy/nginx.conf run by nginx in front of a real gunicorn, with a keys file and
a limits file written beside it as compose and Kubernetes mount them. A request without a key, or with a key
not in the file, is nginx's own 401 problem and never reaches the service; a good key (Authorization: Bearer
or X-API-Key) gets the service's own answer, on every path but /metrics, which stays a 404 problem; each key
has its own rate limit, whose refusals are 429 problems with Retry-After; nginx's answers carry the request
id; the W3C trace context passes unchanged and the key never reaches the service; the access log names the
client, never its key."""

from __future__ import annotations

import http.client
import json
import re
import select
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from bench.common import LOOPBACK, GunicornServer, free_port
from tests.integration import nginx
from tests.integration.nginx import CLIENT, KEY, NginxServer, bearer, service_log_after

OTHER_KEY = "b" * 64  # a second client's key (any 32-256 characters of the key's alphabet)
WRONG_KEY = "c" * 64  # of the right form, in no keys file
# The example file's line, as an operator who copied it as is would mount it: its key is too short to count.
EXAMPLE = nginx.KEYS_EXAMPLE.read_text(encoding="utf-8")
((EXAMPLE_KEY, EXAMPLE_CLIENT),) = re.findall(r'^"([^"]+)" ([\w-]+);$', EXAMPLE, re.M)
KEYS = {KEY: CLIENT, OTHER_KEY: "other", EXAMPLE_KEY: EXAMPLE_CLIENT}

FOUR_NINES = {"cards": ["9s", "9h", "9d", "9c", "3h"]}
TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
TRACESTATE = "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"

NO_KEY_DETAIL = "This gateway needs an API key: send it as Authorization: Bearer <key> or X-API-Key: <key>."
WRONG_KEY_DETAIL = (
    "The API key is not valid: send one of this gateway's keys as Authorization: Bearer <key> or X-API-Key: <key>."
)


def ask(port: int, method: str, path: str, headers: dict[str, str] | None = None,
        body: Any = None) -> tuple[int, dict[str, str], bytes]:  # fmt: skip  # the parameters on two lines
    """(status, headers with lower-case names, body) of one request on its own connection; a ``body`` is
    sent as JSON."""
    headers = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=10)
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def problem(kind: str, title: str, status: int, detail: str, request_id: str) -> dict[str, Any]:
    """The problem body nginx answers with: the service's shape, its request id as the instance."""
    return {
        "type": f"urn:card-rules:problem:{kind}",
        "title": title,
        "status": status,
        "detail": detail,
        "instance": f"urn:card-rules:request:{request_id}",
        "errors": [],
    }


def assert_unauthorized(
    answer: tuple[int, dict[str, str], bytes], challenge: str, detail: str, request_id: str
) -> None:
    """``answer`` is nginx's 401: problem+json with ``WWW-Authenticate: challenge``, the request id in the
    header and the body's instance, and ``detail``."""
    status, headers, body = answer
    assert (status, headers["content-type"]) == (401, "application/problem+json")
    assert headers["www-authenticate"] == challenge
    assert headers["x-request-id"] == request_id
    assert json.loads(body) == problem("unauthorized", "Unauthorized", 401, detail, request_id)


@pytest.fixture(scope="module")
def backend() -> Iterator[GunicornServer]:
    with GunicornServer(workers=1) as server:
        yield server


@pytest.fixture(scope="module")
def proxy(backend: GunicornServer) -> Iterator[NginxServer]:
    """The gateway with three keys and limits no test here reaches (the limit's own test has its own)."""
    with NginxServer([backend.port], keys=KEYS) as server:
        yield server


@pytest.mark.usefixtures("tools")
def test_no_key_is_a_401_problem_with_www_authenticate(proxy):
    answer = ask(proxy.port, "GET", "/v1/games", {"X-Request-ID": "no-key-1"})
    assert_unauthorized(answer, 'Bearer realm="card-rules"', NO_KEY_DETAIL, "no-key-1")


@pytest.mark.usefixtures("tools")
@pytest.mark.parametrize(
    "header",
    [
        {"Authorization": f"Bearer {WRONG_KEY}"},
        {"X-API-Key": WRONG_KEY},
        {"Authorization": f"Basic {KEY}"},  # the right key under another scheme
        {"X-API-Key": EXAMPLE_KEY},  # in the keys file, copied from the example: too short to be a key
    ],
    ids=["bearer", "x-api-key", "basic", "example"],
)
def test_a_wrong_key_is_a_401_problem_saying_invalid_token(proxy, header):
    answer = ask(proxy.port, "GET", "/v1/games", {**header, "X-Request-ID": "wrong-key-1"})
    assert_unauthorized(answer, 'Bearer realm="card-rules", error="invalid_token"', WRONG_KEY_DETAIL, "wrong-key-1")


@pytest.mark.usefixtures("tools")
@pytest.mark.parametrize(
    "header",
    [bearer(), bearer(OTHER_KEY), {"Authorization": f"bearer {KEY}"}, {"X-API-Key": KEY}],
    ids=["bearer", "other-client", "scheme-in-lower-case", "x-api-key"],
)
def test_a_good_key_gets_the_services_own_answer(proxy, backend, header):
    games = ask(proxy.port, "GET", "/v1/games", header)
    assert games[0] == 200 and games[1]["content-type"] == "application/json"
    assert games[2] == ask(backend.port, "GET", "/v1/games")[2]
    status, headers, body = ask(proxy.port, "POST", "/v1/big-two/plays/classify", header, FOUR_NINES)
    assert (status, headers["content-type"]) == (200, "application/json")
    assert json.loads(body)["combination"] == "four_of_a_kind"
    assert body == ask(backend.port, "POST", "/v1/big-two/plays/classify", body=FOUR_NINES)[2]


@pytest.mark.usefixtures("tools")
@pytest.mark.parametrize("path", ["/healthz", "/docs", "/openapi.json", "/openapi.yaml", "/v1/games", "/nowhere"])
def test_every_path_needs_a_key(proxy, path):
    status, headers, body = ask(proxy.port, "GET", path, {"X-Request-ID": "every-path"})
    assert (status, headers["content-type"], headers["www-authenticate"]) == (
        401,
        "application/problem+json",
        'Bearer realm="card-rules"',
    )
    assert json.loads(body) == problem("unauthorized", "Unauthorized", 401, NO_KEY_DETAIL, "every-path")


@pytest.mark.usefixtures("tools")
def test_healthz_answers_with_a_key(proxy):
    assert ask(proxy.port, "GET", "/healthz", bearer())[::2] == (200, b'{"status":"ok"}')


@pytest.mark.usefixtures("tools")
def test_metrics_is_a_404_problem_with_a_key_and_a_401_without(proxy):
    status, headers, body = ask(proxy.port, "GET", "/metrics", {**bearer(), "X-Request-ID": "metrics-1"})
    assert (status, headers["content-type"], headers["x-request-id"]) == (404, "application/problem+json", "metrics-1")
    detail = (
        "There is no operation at /metrics. GET /v1/games lists the games and their base paths; every operation is"
        " in /openapi.json."
    )
    assert json.loads(body) == problem("not-found", "Not found", 404, detail, "metrics-1")
    assert ask(proxy.port, "GET", "/metrics")[0] == 401


@pytest.mark.usefixtures("tools")
def test_a_refused_request_never_reaches_the_service(proxy, backend):
    for n, header in enumerate([{}, bearer(WRONG_KEY), {"X-API-Key": WRONG_KEY}]):
        assert ask(proxy.port, "POST", "/v1/big-two/plays/classify", {**header, "X-Request-ID": f"refused-{n}"},
                   FOUR_NINES)[0] == 401  # fmt: skip  # the request on two lines
    assert ask(proxy.port, "GET", "/healthz", {**bearer(), "X-Request-ID": "admitted-0"})[0] == 200
    log = service_log_after(backend, "admitted-0")  # the service logs every request it sees, with its id
    assert [n for n in range(3) if f'"request_id": "refused-{n}"' in log] == []


@pytest.mark.usefixtures("tools")
def test_without_a_service_behind_a_refused_request_is_still_a_401():
    """Nothing listens behind this gateway: a request without a key is answered 401 all the same, and one
    with a key is nginx's 503 problem, with the request id."""
    with NginxServer([free_port()]) as proxy:
        status, headers, body = ask(proxy.port, "GET", "/v1/games", {"X-Request-ID": "nothing-behind"})
        assert (status, json.loads(body)["status"]) == (401, 401)
        status, headers, body = ask(proxy.port, "GET", "/v1/games", {**bearer(), "X-Request-ID": "nothing-behind"})
    assert (status, headers["content-type"], headers["retry-after"], headers["x-request-id"]) == (
        503,
        "application/problem+json",
        "1",
        "nothing-behind",
    )
    assert json.loads(body) == {
        "type": "about:blank",
        "title": "Service unavailable",
        "status": 503,
        "detail": "No replica of the rules service answered.",
        "instance": "urn:card-rules:request:nothing-behind",
        "errors": [],
    }


@pytest.mark.usefixtures("tools")
def test_a_body_above_the_proxys_limit_is_a_413_problem_with_the_request_id(proxy):
    # Only the head, announcing 2 MB: nginx answers from the Content-Length.
    headers = {**bearer(), "X-Request-ID": "too-large-1", "Content-Length": "2000000"}
    status, answer_headers, body = ask(proxy.port, "POST", "/v1/big-two/plays/classify", headers)
    assert (status, answer_headers["content-type"], answer_headers["x-request-id"]) == (
        413,
        "application/problem+json",
        "too-large-1",
    )
    detail = "The request body is larger than the proxy accepts."
    assert json.loads(body) == problem("body-too-large", "Request body too large", 413, detail, "too-large-1")


@pytest.mark.usefixtures("tools")
def test_a_burst_past_a_keys_limit_is_a_429_problem_and_other_keys_go_on(backend):
    # One request a minute and a burst of 2: a key's first 3 requests pass at once, the next are refused.
    with NginxServer([backend.port], keys=KEYS, rate="1r/m", burst=2, retry_after=60) as proxy:
        # Refused keys count for no one: five requests without a key and five with a wrong one first.
        refused = [ask(proxy.port, "GET", "/v1/games", header)[0] for header in [{}] * 5 + [bearer(WRONG_KEY)] * 5]
        assert refused == [401] * 10
        answers = [ask(proxy.port, "GET", "/healthz", {**bearer(), "X-Request-ID": f"burst-{n}"}) for n in range(5)]
        assert [status for status, _, _ in answers] == [200, 200, 200, 429, 429]
        assert [body for _, _, body in answers[:3]] == [b'{"status":"ok"}'] * 3
        status, headers, body = answers[3]
        assert (headers["content-type"], headers["retry-after"], headers["x-request-id"]) == (
            "application/problem+json",
            "60",
            "burst-3",
        )
        detail = "This API key sent more requests than its rate limit allows; retry after the seconds in Retry-After."
        assert json.loads(body) == problem("rate-limited", "Too many requests", 429, detail, "burst-3")
        # The other key has its own limit, untouched by the first key's burst.
        assert [ask(proxy.port, "GET", "/healthz", bearer(OTHER_KEY))[0] for _ in range(4)] == [200, 200, 200, 429]
        # /metrics is nginx's own answer, before the limit: still a 404 for the exhausted key.
        assert ask(proxy.port, "GET", "/metrics", bearer())[0] == 404


@pytest.mark.usefixtures("tools")
def test_the_request_id_sent_is_echoed_and_reaches_the_service(proxy, backend):
    status, headers, _ = ask(proxy.port, "GET", "/v1/games", {**bearer(), "X-Request-ID": "echoed-1"})
    assert (status, headers["x-request-id"]) == (200, "echoed-1")
    assert service_log_after(backend, "echoed-1")


@pytest.mark.usefixtures("tools")
def test_the_service_continues_the_callers_trace_through_the_gateway(proxy):
    status, headers, _ = ask(proxy.port, "POST", "/v1/big-two/plays/classify", {**bearer(), "traceparent": TRACEPARENT},
                             FOUR_NINES)  # fmt: skip  # the call on two lines
    version, trace_id, span_id, flags = headers["traceparent"].split("-")
    assert (status, version, trace_id, flags) == (200, "00", TRACEPARENT.split("-")[1], "01")
    assert span_id != TRACEPARENT.split("-")[2]  # the service's own span, a child of the caller's


@pytest.mark.usefixtures("tools")
def test_a_request_id_the_service_would_not_keep_is_replaced_in_the_header_and_the_instance(proxy):
    status, headers, body = ask(proxy.port, "GET", "/v1/games", {"X-Request-ID": 'not "a" request id'})
    assert status == 401 and re.fullmatch(r"[0-9a-f]{32}", headers["x-request-id"])
    assert json.loads(body)["instance"] == f"urn:card-rules:request:{headers['x-request-id']}"


class HeadersEcho(BaseHTTPRequestHandler):
    """A stand-in replica that answers every GET with the request headers it received, as JSON."""

    def do_GET(self) -> None:  # http.server's name
        body = json.dumps({name.lower(): value for name, value in self.headers.items()}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:  # quiet
        pass


@pytest.mark.usefixtures("tools")
def test_trace_context_passes_through_unchanged_and_the_key_does_not():
    echo = ThreadingHTTPServer((LOOPBACK, 0), HeadersEcho)
    threading.Thread(target=echo.serve_forever, args=(0.05,), daemon=True).start()
    try:
        with NginxServer([echo.server_address[1]]) as proxy:
            sent = {"X-API-Key": KEY, "traceparent": TRACEPARENT, "tracestate": TRACESTATE, "X-Request-ID": "trace-1"}
            for header in (bearer(), {}):  # Authorization: Bearer, then X-API-Key alone
                status, _, body = ask(proxy.port, "GET", "/v1/games", {**sent, **header})
                received = json.loads(body)
                assert status == 200
                assert (received["traceparent"], received["tracestate"]) == (TRACEPARENT, TRACESTATE)
                assert received["x-request-id"] == "trace-1"
                assert "authorization" not in received and "x-api-key" not in received
    finally:
        echo.shutdown()
        echo.server_close()


@pytest.mark.usefixtures("tools")
def test_the_access_log_names_the_client_and_never_the_key(proxy):
    ask(proxy.port, "GET", "/v1/games", {**bearer(OTHER_KEY), "X-Request-ID": "logged-1"})
    ask(proxy.port, "GET", "/v1/games", {"X-API-Key": WRONG_KEY, "X-Request-ID": "logged-2"})
    service_log_after(proxy, "logged-1")  # nginx logs a request once its answer is sent
    text = service_log_after(proxy, "logged-2")
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    [admitted] = [line for line in lines if line["request_id"] == "logged-1"]
    [refused] = [line for line in lines if line["request_id"] == "logged-2"]
    assert (admitted["client"], admitted["method"], admitted["path"], admitted["status"]) == (
        "other",
        "GET",
        "/v1/games",
        200,
    )
    assert (refused["client"], refused["status"], refused["upstream"]) == ("", 401, "")
    assert [key for key in (KEY, OTHER_KEY, WRONG_KEY) if key in text] == []


def exchange(port: int, data: bytes, timeout: float = 10) -> bytes:
    """What the gateway answers to ``data`` sent as is on a connection of its own, up to its close."""
    with socket.create_connection((LOOPBACK, port), timeout=timeout) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


# nginx's own refusals, before any key is read: request id made by nginx, problem+json of the status.
REFUSALS = {
    "bad header": (b"GET /healthz HTTP/1.1\r\nHost: x\r\nNo colon\r\n\r\n", 400, "malformed-request", "Bad Request"),
    "bad request line": (b"\x16\x03\x01 not HTTP\r\n\r\n", 400, "malformed-request", "Bad Request"),
    "TRACE": (b"TRACE /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method-not-allowed", "Method Not Allowed"),
    "long request line": (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "request-line-too-long",
                          "Request-URI Too Long"),
    "long header": (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 9000 + b"\r\n\r\n", 431,
                    "headers-too-large", "Request Header Fields Too Large"),
    "HTTP/2.0 as text": (b"GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 505, None, "HTTP Version Not Supported"),
}  # fmt: skip


@pytest.mark.usefixtures("tools")
@pytest.mark.parametrize("sent", list(REFUSALS))
def test_nginxs_own_refusals_are_problems_never_html(proxy, sent):
    data, status, kind, title = REFUSALS[sent]
    head, _, body = exchange(proxy.port, data).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines[1:])}
    assert lines[0].startswith(f"HTTP/1.1 {status}") and headers["content-type"] == "application/problem+json"
    found = json.loads(body)
    request_id = headers["x-request-id"]
    assert found == {
        "type": f"urn:card-rules:problem:{kind}" if kind else "about:blank",
        "title": title,
        "status": status,
        "detail": found["detail"],
        "instance": f"urn:card-rules:request:{request_id}",
        "errors": [],
    }
    assert found["detail"].endswith(".") and "<" not in found["detail"]


@pytest.mark.usefixtures("tools")
def test_an_address_past_its_concurrent_requests_is_a_429_problem_and_frees_them_on_close(backend):
    """65 requests of one address held open (their heads sent, their bodies not): one is refused 429, saying
    why, and so is the next request while the 64 others are held; once they close, the address is served
    again."""
    head = (f"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\n"
            "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n").encode()  # fmt: skip
    with NginxServer([backend.port]) as gateway:
        held = [socket.create_connection((LOOPBACK, gateway.port), timeout=10) for _ in range(65)]
        try:
            for sock in held:
                sock.sendall(head)
            refused, _, _ = select.select(held, [], [], 10)  # the one past the 64 others, answered at once
            assert len(refused) == 1 and refused[0].recv(65536).startswith(b"HTTP/1.1 429 ")
            answer = ask(gateway.port, "GET", "/healthz", {**bearer(), "X-Request-ID": "past"})
        finally:
            for sock in held:
                sock.close()
        status, headers, body = answer
        assert (status, headers["content-type"], headers["retry-after"]) == (429, "application/problem+json", "1")
        assert json.loads(body) == problem(
            "rate-limited", "Too many requests", 429,
            "This address holds more concurrent requests than the gateway allows one address; retry after the "
            "seconds in Retry-After.", "past",
        )  # fmt: skip
        deadline = time.monotonic() + 5
        while (status := ask(gateway.port, "GET", "/healthz", bearer())[0]) != 200:
            assert status == 429 and time.monotonic() < deadline
            time.sleep(0.05)


PARTIAL_HEADS = 2100  # more than nginx's default of 1,024 connections a worker, on 2 workers, once held


@pytest.mark.usefixtures("tools")
def test_partial_heads_without_a_key_are_reset_in_seconds_while_a_keyed_client_goes_on(backend):
    """2,100 connections that each send one line of a request head and no key: nginx resets each at its
    head's deadline (5 s), and meanwhile a keyed client's requests, each on a new connection, are answered
    as if nothing happened. (The bench/attack.py --gateway rows measure the same at length.)"""
    with NginxServer([backend.port]) as gateway:
        held = []
        try:
            for _ in range(PARTIAL_HEADS):
                sock = socket.create_connection((LOOPBACK, gateway.port), timeout=10)
                sock.sendall(b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\n")
                held.append(sock)
            opened = time.monotonic()
            slowest = 0.0
            answered = []
            while time.monotonic() < opened + 4:  # all held: within their deadline
                started = time.monotonic()
                answered.append(ask(gateway.port, "POST", "/v1/big-two/plays/classify", bearer(), FOUR_NINES)[:3:2])
                slowest = max(slowest, time.monotonic() - started)
            assert set(answered) == {(200, ask(backend.port, "POST", "/v1/big-two/plays/classify", body=FOUR_NINES)[2])}
            assert len(answered) > 20 and slowest < 1.0
            for sock in held:  # each reset by the head's deadline (5 s from its connect), with margin
                sock.settimeout(max(0.1, opened + 5 + 3 - time.monotonic()))
                with pytest.raises(ConnectionResetError):
                    assert sock.recv(1) == b"", "closed without a reset"
        finally:
            for sock in held:
                sock.close()
        assert '"status": 408' in gateway.log_text()
