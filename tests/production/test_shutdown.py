"""Process life under gunicorn.conf.py: SIGTERM drains (requests in flight answered, new connections
refused, exit 0 within graceful_timeout); a request past ``timeout`` is cut off and its worker replaced;
a killed worker is replaced. Each test starts its own server on the loopback and always stops it."""

from __future__ import annotations

import os
import re
import signal
import socket
import threading
import time

import pytest

from bench.common import GunicornServer
from tests.production.server import LOOPBACK, get, wait_until

pytestmark = pytest.mark.xdist_group("production-processes")

SLOW_APP = "tests.production.slow_app:app"


def test_sigterm_finishes_requests_in_flight_refuses_new_ones_and_exits_0():
    graceful = 10
    with GunicornServer(app=SLOW_APP, workers=2, env={"GUNICORN_GRACEFUL_TIMEOUT": str(graceful)}) as server:
        answers: list[object] = []

        def slow_request() -> None:
            try:
                answers.append(get(server.port, "/test/sleep/1.5", timeout=20)[0])
            except OSError as error:
                answers.append(error)

        threads = [threading.Thread(target=slow_request) for _ in range(6)]  # 2 workers x 4 threads hold them all
        for thread in threads:
            thread.start()
            time.sleep(0.05)  # a stream of requests, not one burst
        time.sleep(0.4)  # every one of them is in the application now
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((LOOPBACK, server.port), timeout=5).close()
        code = server.process.wait(timeout=graceful + 5)
        took = time.monotonic() - started
        for thread in threads:
            thread.join(timeout=10)
    assert answers == [200] * 6
    assert code == 0 and took < graceful


def test_a_request_past_the_timeout_is_cut_off_and_its_worker_replaced():
    with GunicornServer(app=SLOW_APP, workers=1, env={"GUNICORN_TIMEOUT": "2"}) as server:
        [worker] = server.worker_pids()
        started = time.monotonic()
        with pytest.raises((ConnectionError, OSError)):
            get(server.port, "/test/sleep/30.0", timeout=15)
        assert time.monotonic() - started < 8
        assert server.wait_for_workers(1, exclude=[worker]) is not None
        assert get(server.port, "/healthz")[0] == 200
        log = server.log_text()
    assert "WORKER TIMEOUT" in log and "GET /test/sleep/30.0" in log


def test_a_killed_worker_is_replaced_and_the_service_answers():
    with GunicornServer(workers=2) as server:
        workers = server.worker_pids()
        os.kill(workers[0], signal.SIGKILL)
        replaced = server.wait_for_workers(2, exclude=[workers[0]])
        assert replaced is not None and workers[1] in replaced
        assert wait_until(lambda: all(get(server.port, "/healthz")[0] == 200 for _ in range(5)))


def test_recycled_workers_lose_no_request_and_no_count(tmp_path):
    env = {
        "GUNICORN_MAX_REQUESTS": "15",
        "GUNICORN_MAX_REQUESTS_JITTER": "0",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
    }
    with GunicornServer(workers=2, env=env) as server:
        first = set(server.worker_pids())
        statuses = [get(server.port, "/v1/games")[0] for _ in range(100)]
        assert statuses == [200] * 100
        assert wait_until(lambda: not first & set(server.worker_pids()))  # every first worker recycled
        time.sleep(1.1)  # /metrics keeps its text for 1 s
        _, _, body = get(server.metrics_port, "/metrics")
        found = re.search(
            rb'^card_rules_http_requests_total\{method="GET",route="/v1/games",status="200"\} (\S+)$', body, re.M
        )
        assert found and float(found.group(1)) == 100
        live = set(server.worker_pids())
        pids = {name.rsplit("_", 1)[1][:-3] for name in os.listdir(tmp_path) if name.endswith(".db")}
        # files of live workers, one archive, and the master's (it counts worker exits: gunicorn.conf.py)
        assert pids <= {str(pid) for pid in live} | {"archive", str(server.process.pid)}
