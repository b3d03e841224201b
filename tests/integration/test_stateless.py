"""The service is stateless, so it scales out: two gunicorn servers (two loopback ports, separate
processes) answer every operation's example identically whichever of them gets each request, in any
order; and deploy/nginx.conf in front of them spreads requests over both with the same answers, and never
sends a POST that one dropped on to the other (with an API key: it admits no request without)."""

from __future__ import annotations

import json
import socketserver
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from bench.common import LOOPBACK, GunicornServer, free_port
from tests.integration.contract import OPERATIONS, Operation
from tests.integration.nginx import NginxServer, bearer

# Answers about the serving process rather than the rules: /metrics counts the requests this server answered.
PER_PROCESS = {"/metrics"}
RULES_AND_CONTRACT = [op for op in OPERATIONS if op.path not in PER_PROCESS]


def call(base_url: str, op: Operation, headers: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    """(status, content type, body) of one request with the operation's example (and ``headers``)."""
    body = None if op.request_example is None else json.dumps(op.request_example).encode()
    request = urllib.request.Request(base_url + op.path, data=body, method=op.method, headers=headers or {})
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


@pytest.fixture(scope="module")
def two_servers() -> Iterator[tuple[GunicornServer, GunicornServer]]:
    with GunicornServer(workers=1) as a, GunicornServer(workers=1) as b:
        yield a, b


def test_two_servers_answer_every_operation_alike_whichever_gets_it(two_servers):
    a, b = two_servers
    answers: dict[str, list[tuple[int, str, bytes]]] = {op.operation_id: [] for op in RULES_AND_CONTRACT}
    # Round 1 in the contract's order, A then B; round 2 backwards, B then A: each server sees every
    # request after a different history, and consecutive requests alternate between the two servers.
    for servers, ops in (((a, b), RULES_AND_CONTRACT), ((b, a), RULES_AND_CONTRACT[::-1])):
        for op in ops:
            for server in servers:
                answers[op.operation_id].append(call(server.base_url, op))
    for op in RULES_AND_CONTRACT:
        first, *others = answers[op.operation_id]
        assert first[0] == 200, (op.operation_id, first)
        assert all(other == first for other in others), op.operation_id
    assert a.process and b.process and a.process.pid != b.process.pid and a.port != b.port


@pytest.mark.usefixtures("tools")
def test_nginx_spreads_requests_over_both_with_the_same_answers(two_servers):
    a, b = two_servers
    direct = {op.operation_id: call(a.base_url, op) for op in RULES_AND_CONTRACT}
    before = [server.log_text().count("/v1/games") for server in (a, b)]
    with NginxServer([a.port, b.port]) as proxy:
        for _ in range(2):
            for op in RULES_AND_CONTRACT:
                assert call(proxy.base_url, op, bearer()) == direct[op.operation_id], op.operation_id
        for _ in range(4):
            assert call(proxy.base_url, next(op for op in OPERATIONS if op.path == "/v1/games"), bearer())[0] == 200
    after = [server.log_text().count("/v1/games") for server in (a, b)]
    assert all(n > m for n, m in zip(after, before)), (before, after)  # round robin reached both


@pytest.mark.usefixtures("tools")
def test_nginx_answers_problem_json_when_no_replica_answers():
    with NginxServer([free_port()]) as proxy:  # nothing listens there
        status, content_type, body = call(proxy.base_url, OPERATIONS[0], bearer())
    assert (status, content_type) == (503, "application/problem+json")
    assert json.loads(body)["status"] == 503


class DroppingReplica(socketserver.TCPServer):
    """A replica whose worker dies on every request: it reads the request's head, notes its method and
    closes the connection unanswered."""

    def __init__(self) -> None:
        super().__init__((LOOPBACK, 0), DroppedRequest)
        self.port: int = self.server_address[1]
        self.methods: list[str] = []
        threading.Thread(target=self.serve_forever, args=(0.05,), daemon=True).start()

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        super().__exit__(*exc)


class DroppedRequest(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        self.request.settimeout(5)  # a connection that sends nothing does not hold the replica forever
        data = b""
        while b"\r\n\r\n" not in data and (chunk := self.request.recv(65536)):
            data += chunk
        assert isinstance(self.server, DroppingReplica)
        self.server.methods.append(data.split(b" ", 1)[0].decode())


@pytest.mark.usefixtures("tools")
def test_nginx_never_sends_a_post_again_after_a_replica_dropped_it():
    """A POST that killed a worker must not go on to kill one in the next replica: nginx answers its 503
    after the first replica, while a GET it does try on both (the retry the POST is spared)."""
    post = next(op for op in RULES_AND_CONTRACT if op.method == "POST")
    get = next(op for op in RULES_AND_CONTRACT if op.method == "GET")
    with DroppingReplica() as a, DroppingReplica() as b, NginxServer([a.port, b.port]) as proxy:
        status, content_type, body = call(proxy.base_url, post, bearer())
        assert (status, content_type) == (503, "application/problem+json")
        assert json.loads(body)["status"] == 503
        assert a.methods + b.methods == ["POST"]
        call(proxy.base_url, get, bearer())
        assert sorted(a.methods + b.methods) == ["GET", "GET", "POST"]
