"""The heavy operations under the production gunicorn.conf.py (two workers): the heaviest request each
allows (bench/heavy.py's ``HEAVIEST``), sixteen at a time, loses no answer and leaves /healthz quick.

Every one of the sixteen gets an HTTP answer: the 200 the app gives that request in process, byte for byte
the same JSON, or the cap's 503 problem+json with ``Retry-After`` (service/api/heavy.py); a connection
closed without an answer fails. No worker is killed, and /healthz, probed on a new connection every
50 ms meanwhile (as a kubelet does), answers each probe 200 with p99 under 1 s."""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bench.common import GunicornServer
from bench.heavy import HEAVIEST
from service.api import create_app
from tests.production.server import LOOPBACK, exchange, get

pytestmark = pytest.mark.xdist_group("production-processes")

AT_ONCE = 16
PROBE_EVERY = 0.05  # seconds between two /healthz probes
PROBE_P99 = 1.0  # seconds: under the Kubernetes probes' time-outs
OVERLOADED = "urn:card-rules:problem:overloaded"


@pytest.fixture(scope="module")
def server() -> Iterator[GunicornServer]:
    with GunicornServer(workers=2) as running:
        yield running


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    """Each heaviest request's answer in process: the one every 200 under gunicorn must be."""
    client = create_app({"TESTING": True}).test_client()
    found = {}
    for label, (path, body) in HEAVIEST.items():
        response = client.post(path, json=body)
        assert response.status_code == 200, (label, response.get_json())
        found[label] = response.get_json()
    return found


def post_or_lost(port: int, path: str, body: Any) -> tuple[int, dict[str, str], bytes] | str:
    """The answer, or why there was none (the connection closed or reset first; the client waits past the
    request timeout, so a slow answer is not taken for a lost one)."""
    data = json.dumps(body).encode()
    raw = (f"POST {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nConnection: close\r\nContent-Type: application/json\r\n"
           f"Content-Length: {len(data)}\r\n\r\n").encode() + data  # fmt: skip
    try:
        return exchange(port, raw, timeout=30)
    except (ConnectionError, OSError) as error:
        return f"lost: {error!r}"


def nearest_rank(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@pytest.mark.parametrize("label", list(HEAVIEST))
def test_the_heaviest_request_sixteen_at_a_time_loses_no_answer_and_healthz_stays_quick(server, expected, label):
    path, body = HEAVIEST[label]
    workers = server.worker_pids()
    answers: list[tuple[int, dict[str, str], bytes] | str] = [""] * AT_ONCE
    probes: list[tuple[int, float]] = []
    done = threading.Event()

    def send(n: int) -> None:
        answers[n] = post_or_lost(server.port, path, body)

    def probe() -> None:
        while not done.is_set():
            started = time.monotonic()
            try:
                status = get(server.port, "/healthz", timeout=15)[0]
            except (ConnectionError, OSError):
                status = 0
            probes.append((status, time.monotonic() - started))
            time.sleep(PROBE_EVERY)

    prober = threading.Thread(target=probe)
    prober.start()
    senders = [threading.Thread(target=send, args=(n,)) for n in range(AT_ONCE)]
    try:
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
    finally:
        done.set()
        prober.join()

    lost = [a for a in answers if isinstance(a, str)]
    assert not lost, lost
    statuses = sorted(a[0] for a in answers if not isinstance(a, str))
    for status, headers, raw in (a for a in answers if not isinstance(a, str)):
        if status == 200:
            assert headers["content-type"] == "application/json"
            assert json.loads(raw) == expected[label]
        else:
            assert status == 503, statuses
            assert headers["content-type"] == "application/problem+json" and headers["retry-after"] == "1"
            problem = json.loads(raw)
            assert problem["type"] == OVERLOADED and problem["status"] == 503 and problem["errors"] == []
    assert 200 in statuses  # the cap refuses what is beyond it, never everything
    assert [status for status, _ in probes] == [200] * len(probes) and probes
    assert nearest_rank([seconds for _, seconds in probes], 99) < PROBE_P99, sorted(s for _, s in probes)[-5:]
    assert server.worker_pids() == workers and "WORKER TIMEOUT" not in server.log_text()
