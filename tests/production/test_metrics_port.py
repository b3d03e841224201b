"""`make run` starts where another program holds the metrics listener's default port (9464, also the
OpenTelemetry Prometheus exporter's): without METRICS_PORT the listener moves to a free port and the master
says where in one log line; with METRICS_PORT given, that port is kept (the image sets it: Prometheus
scrapes it there).

The tests hold 9464 on 127.0.0.2 (loopback too, on Linux), so that 127.0.0.1:9464 stays as it is for the
other tests."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.production.test_gunicorn_config import CHOSEN_HERE, GUNICORN, read_config

HOST = "127.0.0.2"
DEFAULT = 9464
# test_gunicorn_config.py reads the defaults, which a listener held here on 9464 would move (0.0.0.0)
pytestmark = pytest.mark.xdist_group("metrics-port")


def free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


@pytest.fixture
def default_port_taken() -> Iterator[None]:
    """Another program's listener on HOST:9464 (or the one already there)."""
    holder = socket.socket()
    try:
        holder.bind((HOST, DEFAULT))
        holder.listen()
    except OSError:
        holder.close()
        with socket.socket() as probe:  # taken already, by something else: as good
            assert probe.connect_ex((HOST, DEFAULT)) == 0
        yield
        return
    try:
        yield
    finally:
        holder.close()


@pytest.mark.usefixtures("default_port_taken")
def test_without_metrics_port_the_listener_moves_to_a_free_port():
    config = read_config(HOST=HOST, PORT="8000")
    service, metrics = config["bind"]
    assert service == f"{HOST}:8000"
    host, port = metrics.rsplit(":", 1)
    assert host == HOST and port != str(DEFAULT) and port != "8000"
    assert config["metrics_port"] == port  # the app answers /metrics on the port it moved to


@pytest.mark.usefixtures("default_port_taken")
def test_a_metrics_port_given_is_kept_even_when_taken():
    config = read_config(HOST=HOST, METRICS_PORT=str(DEFAULT))
    assert config["bind"] == [f"{HOST}:8000", f"{HOST}:{DEFAULT}"]  # gunicorn then refuses to start, as it should


def test_a_free_default_port_stays():
    port = free_port(HOST)
    with socket.socket() as probe:
        free = probe.connect_ex((HOST, DEFAULT)) != 0
    if not free:
        pytest.skip(f"{HOST}:{DEFAULT} is held by another program on this machine")
    assert read_config(HOST=HOST, PORT=str(port))["bind"] == [f"{HOST}:{port}", f"{HOST}:{DEFAULT}"]


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read()


@pytest.mark.usefixtures("default_port_taken")
def test_gunicorn_starts_and_one_log_line_says_where_metrics_are(tmp_path: Path):
    port = free_port(HOST)
    env = {k: v for k, v in os.environ.items() if k not in CHOSEN_HERE}
    env.update(HOST=HOST, PORT=str(port), WEB_CONCURRENCY="1")
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(GUNICORN), "--config", str(ROOT / "gunicorn.conf.py"), "service.wsgi:app"], cwd=ROOT, env=env,
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            try:
                status, body = get(f"http://{HOST}:{port}/healthz")
                break
            except OSError:
                time.sleep(0.1)
        assert (status, body) == (200, b'{"status":"ok"}')
        lines = [line for line in log.read_text().splitlines() if "metrics:" in line]
        assert len(lines) == 1, log.read_text()
        said = re.search(rf"port {DEFAULT} is in use by another program, so GET /metrics is answered on "
                         rf"(http://{re.escape(HOST)}:(\d+)/metrics) instead \(set METRICS_PORT to choose its port\)",
                         lines[0])  # fmt: skip
        assert said, lines[0]
        status, body = get(said.group(1))
        assert status == 200 and b"# TYPE card_rules_http_requests_total counter" in body
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
