"""``GET /readyz``: ready while the process serves and is not stopping; 503 ``not-ready`` (problem+json, in
the answer's language) once the worker has been told to stop, while ``/healthz`` stays 200."""

from __future__ import annotations

import logging
import os
import signal

import pytest
from gunicorn.config import Config

from service.api import meta
from service.gunicorn_worker import SPREAD, ThreadWorker


@pytest.fixture()
def draining():
    meta.DRAINING.set()
    try:
        yield
    finally:
        meta.DRAINING.clear()


def test_a_serving_process_is_ready(client):
    response = client.get("/readyz")
    assert (response.status_code, response.get_json()) == (200, {"status": "ready"})


@pytest.mark.usefixtures("draining")
@pytest.mark.parametrize(
    ("language", "title", "detail"),
    [
        ("en", "Not ready", "This server process is stopping: it finishes the requests it holds and takes no new ones; send them to another replica."),
        ("zh-TW", "尚未就緒", "這個伺服器程序正在停止：它會做完手上的請求，不再接受新的；請把請求送往其他副本。"),
        ("zh-CN", "尚未就绪", "这个服务器进程正在停止：它会做完手上的请求，不再接受新的；请把请求送往其他副本。"),
    ],
)  # fmt: skip
def test_a_stopping_process_is_not_ready_but_alive(client, language, title, detail):
    response = client.get("/readyz", headers={"Accept-Language": language, "X-Request-ID": "probe-1"})
    assert (response.status_code, response.mimetype, response.headers["Content-Language"]) == (
        503,
        "application/problem+json",
        language,
    )
    body = response.get_json()
    assert body == {
        "type": "urn:card-rules:problem:not-ready",
        "title": title,
        "status": 503,
        "detail": detail,
        "instance": "urn:card-rules:request:probe-1",
        "trace_id": response.headers["traceparent"].split("-")[1],
        "errors": [],
    }
    assert client.get("/healthz").get_json() == {"status": "ok"}


def test_the_worker_s_sigterm_makes_the_process_not_ready():
    worker = ThreadWorker(1, os.getpid(), [], None, 30, Config(), logging.getLogger("test"))
    worker.method_queue.init()  # the queue its SIGTERM handler wakes the main loop with (init_process makes it)
    try:
        assert worker.alive and not meta.DRAINING.is_set()
        worker.handle_exit(signal.SIGTERM, None)
        assert not worker.alive and meta.DRAINING.is_set()
    finally:
        meta.DRAINING.clear()
        SPREAD.release(worker.slot)
        worker.tmp.close()
        worker.method_queue.close()
