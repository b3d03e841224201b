"""gunicorn.conf.py: every setting the brief asks for, read the way gunicorn reads the file (executed in a
fresh interpreter, since it sets environment variables), and ``--check-config``."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

CONF = ROOT / "gunicorn.conf.py"
GUNICORN = Path(sys.executable).parent / "gunicorn"
SETTINGS = [
    "bind", "workers", "worker_class", "threads", "backlog", "preload_app", "timeout", "graceful_timeout", "keepalive",
    "max_requests", "max_requests_jitter", "limit_request_line", "limit_request_fields", "limit_request_field_size",
    "worker_tmp_dir", "control_socket_disable", "loglevel", "accesslog", "errorlog",
]  # fmt: skip
READ = f"""
import json, os, runpy, sys
ns = runpy.run_path({str(CONF)!r})
import gunicorn, gunicorn.http.wsgi, gunicorn.util
out = {{k: ns[k] for k in {SETTINGS!r}}}
out["metrics_dir"] = os.environ["PROMETHEUS_MULTIPROC_DIR"]
out["metrics_dir_exists"] = os.path.isdir(out["metrics_dir"])
out["metrics_port"] = os.environ["METRICS_PORT"]
out["gunicorn_as_shipped"] = (
    gunicorn.http.wsgi.SERVER == gunicorn.SERVER == "gunicorn" and gunicorn.util.write_error.__module__ == "gunicorn.util"
)
out["hooks"] = sorted(k for k in ("child_exit", "pre_request") if callable(ns.get(k)))
print(json.dumps(out))
"""


CHOSEN_HERE = ("WEB_CONCURRENCY", "HOST", "PORT", "METRICS_HOST", "METRICS_PORT", "PROMETHEUS_MULTIPROC_DIR")

# tests/production/test_metrics_port.py holds the metrics listener's default port: not at the same time
pytestmark = pytest.mark.xdist_group("metrics-port")


def default_metrics_address(host: str) -> str:
    """``host:9464``, the default metrics listener, unless another program on this machine holds that port:
    then the listener moves to a free one (tests/production/test_metrics_port.py), matched here by pattern."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, 9464))
        except OSError:
            return rf"{re.escape(host)}:\d+"
    return re.escape(f"{host}:9464")


def read_config(**env: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if k not in CHOSEN_HERE}
    environment.update(env)
    result = subprocess.run(
        [sys.executable, "-c", READ], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def defaults() -> dict:
    return read_config()


def test_check_config_passes():
    result = subprocess.run([str(GUNICORN), "--config", str(CONF), "--check-config", "service.wsgi:app"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_bind_and_workers_come_from_the_environment(defaults):
    service, metrics = defaults["bind"]  # the service, then /metrics
    assert service == "127.0.0.1:8000" and re.fullmatch(default_metrics_address("127.0.0.1"), metrics)
    assert defaults["workers"] == len(os.sched_getaffinity(0))
    custom = read_config(HOST="0.0.0.0", PORT="9123", WEB_CONCURRENCY="3")
    service, metrics = custom["bind"]
    assert (service, custom["workers"]) == ("0.0.0.0:9123", 3)
    assert re.fullmatch(default_metrics_address("0.0.0.0"), metrics)


def test_the_metrics_listener_comes_from_the_environment_and_the_app_learns_its_port(defaults):
    assert defaults["bind"][1] == f"127.0.0.1:{defaults['metrics_port']}"
    custom = read_config(HOST="0.0.0.0", METRICS_HOST="10.0.0.7", METRICS_PORT="9100")
    assert (custom["bind"], custom["metrics_port"]) == (["0.0.0.0:8000", "10.0.0.7:9100"], "9100")
    one = read_config(PORT="8080", METRICS_PORT="8080")  # one listener, which answers /metrics too
    assert (one["bind"], one["metrics_port"]) == (["127.0.0.1:8080"], "8080")


def test_worker_class_and_process_settings(defaults):
    assert defaults["worker_class"] == "service.gunicorn_worker.ThreadWorker" and defaults["threads"] >= 2
    assert defaults["preload_app"] is True
    assert defaults["worker_tmp_dir"] == "/dev/shm"
    assert defaults["control_socket_disable"] is True
    assert 0 < defaults["backlog"] <= 1024


def test_time_limits_and_recycling(defaults):
    assert 0 < defaults["timeout"] <= 30 and 0 < defaults["graceful_timeout"] < 30
    assert defaults["max_requests"] > 0 and 0 < defaults["max_requests_jitter"] < defaults["max_requests"]


def test_request_limits(defaults):
    assert defaults["limit_request_line"] == 2048
    assert defaults["limit_request_fields"] == 50
    assert defaults["limit_request_field_size"] == 4096


def test_one_access_line_per_request_is_the_services_own(defaults):
    assert defaults["accesslog"] is None and defaults["errorlog"] == "-"
    assert read_config(LOG_LEVEL="WARNING")["loglevel"] == "warning"


def test_hooks_and_gunicorn_left_as_shipped(defaults):
    """The Server header and gunicorn's problem+json refusals are the worker class's (tests/production/
    test_worker_errors.py, test_server.py): the file changes nothing in gunicorn's modules."""
    assert defaults["hooks"] == ["child_exit", "pre_request"]
    assert defaults["gunicorn_as_shipped"] is True


def test_metrics_directory_fresh_when_not_given_and_removed_at_exit(defaults):
    assert defaults["metrics_dir_exists"]
    assert not Path(defaults["metrics_dir"]).exists()  # the interpreter that read the file has exited


def test_metrics_directory_given_is_cleaned(tmp_path):
    stale = tmp_path / "counter_12345.db"
    stale.write_bytes(b"old")
    text = tmp_path / "metrics.txt"  # the last text of /metrics, which a new run must not serve
    text.write_bytes(b"1e9\nold")
    keep = tmp_path / "notes.txt"
    keep.write_text("not a metrics file")
    read_config(PROMETHEUS_MULTIPROC_DIR=str(tmp_path))
    assert not stale.exists() and not text.exists() and keep.exists()
