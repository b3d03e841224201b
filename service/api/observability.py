"""What operators see: a request ID on every answer, one structured JSON log line per request, and
Prometheus metrics at ``GET /metrics``.

All three come from one WSGI middleware around the Flask app, so they cover every answer the app gives
(404, 405, 413 and 500 included) under any WSGI server. The log line and the metrics are written when
the server closes the response, so ``duration_ms`` includes sending it.

* Request ID: a client's ``X-Request-ID`` is kept when it is 1-128 characters of ``A-Z a-z 0-9 . _ : + / = ~ -``
  (UUIDs, hex and base64 ids fit); anything else is replaced by a new random id. Either way it is echoed.
* Log line: ``time, level, logger, message, method, path, route, status, duration_ms, request_id, pid``
  on stdout, at INFO (``LOG_LEVEL=warning`` silences it). Never a request body, a query string or a card.
* Metrics: requests and latency per ``method``, ``route`` (the URL rule such as
  ``/v1/ofc-pineapple/hands/score``, or ``unmatched``: never the raw path, so the label set is bounded)
  and ``status``. Under gunicorn, ``gunicorn.conf.py`` sets ``PROMETHEUS_MULTIPROC_DIR`` before the app is
  imported and every worker writes there; ``/metrics`` adds all workers up, exited ones included.
"""
from __future__ import annotations

import fcntl
import glob
import json
import logging
import os
import re
import sys
import time
import traceback
import uuid
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timezone
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from werkzeug.exceptions import HTTPException, MethodNotAllowed

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9._:+/=~-]{1,128}")
REQUEST_ID_KEY = "card_rules.request_id"  # WSGI environ keys
ROUTE_KEY = "card_rules.route"
UNMATCHED = "unmatched"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
MAX_LOGGED_PATH = 256

access_log = logging.getLogger("service.access")

REQUESTS = Counter(
    "card_rules_http_requests", "HTTP requests answered, by method, route template and status.",
    ["method", "route", "status"],
)  # fmt: skip
LATENCY = Histogram(
    "card_rules_http_request_duration_seconds",
    "Time from receiving a request to having sent its answer, by method, route template and status.",
    ["method", "route", "status"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0),
)
# The connection layer (service/gunicorn_worker.py, gunicorn.conf.py): what never reaches the app
CONNECTIONS_CLOSED = Counter(
    "card_rules_connections_closed",
    "Connections the server closed before the app saw a request, or requests it refused unrun, by reason:"
    " idle_timeout, header_timeout (408), body_timeout (408), head_too_large (431), incomplete (the client"
    " left mid-request), expired (503: queued past the timeout), malformed (gunicorn's own 4xx/5xx).",
    ["reason"],
)  # fmt: skip
WORKER_TIMEOUTS = Counter("card_rules_worker_timeouts", "Workers killed for a request past the timeout.")
REQUESTS_LOST = Counter("card_rules_requests_lost", "Requests in the application when their worker was killed.")
WORKER_EXITS = Counter("card_rules_worker_exits", "Worker processes that exited (timeouts, crashes, recycling); each is replaced.")


def request_id_from(environ: dict[str, Any]) -> str:
    given = environ.get("HTTP_X_REQUEST_ID")
    if given and REQUEST_ID_PATTERN.fullmatch(given):
        return given
    return uuid.uuid4().hex


# --- logging -----------------------------------------------------------------------------------------


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ms), level, logger, message, the record's ``fields``, and
    the exception's traceback as one string when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            line["exception"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return json.dumps(line, ensure_ascii=False, default=str)


class StdoutHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stdout`` is at the time (test runners swap it)."""

    def __init__(self) -> None:
        super().__init__()

    @property  # type: ignore[override]
    def stream(self) -> Any:
        return sys.stdout

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def configure_logging(level: str) -> None:
    """The ``service`` loggers write JSON lines to stdout at ``level``; idempotent."""
    logger = logging.getLogger("service")
    logger.setLevel(level)
    if not any(isinstance(h, StdoutHandler) for h in logger.handlers):
        handler = StdoutHandler()
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
    logger.propagate = False


# --- the middleware ----------------------------------------------------------------------------------


class _Answer:
    """The app's response iterable, calling ``done`` once when the server closes it."""

    __slots__ = ("_body", "_done")

    def __init__(self, body: Iterable[bytes], done: Callable[[], None]) -> None:
        self._body = body
        self._done = done

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._body)

    def close(self) -> None:
        try:
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
        finally:
            self._done()


class Observed:
    """WSGI middleware: request ID in and out, then a log line and the metrics for every answer."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.perf_counter()
        request_id = environ[REQUEST_ID_KEY] = request_id_from(environ)
        status = [500]

        def _start_response(status_line: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            status[0] = int(status_line[:3])
            headers.append((REQUEST_ID_HEADER, request_id))
            return start_response(status_line, headers, exc_info)

        try:
            body = self.wsgi_app(environ, _start_response)
        except BaseException:
            self.record(environ, 500, started, request_id)
            raise
        return _Answer(body, lambda: self.record(environ, status[0], started, request_id))

    @staticmethod
    def record(environ: dict[str, Any], status: int, started: float, request_id: str) -> None:
        seconds = time.perf_counter() - started
        method = environ.get("REQUEST_METHOD", "")
        route = environ.get(ROUTE_KEY, UNMATCHED)
        labels = (method if method in METHODS else "OTHER", route, str(status))
        REQUESTS.labels(*labels).inc()
        LATENCY.labels(*labels).observe(seconds)
        if access_log.isEnabledFor(logging.INFO):
            access_log.info("request", extra={"fields": {
                "method": labels[0],
                "path": environ.get("PATH_INFO", "")[:MAX_LOGGED_PATH],
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
                "request_id": request_id,
                "pid": os.getpid(),
            }})  # fmt: skip


# --- /metrics ----------------------------------------------------------------------------------------
# Several workers: each writes its own files in PROMETHEUS_MULTIPROC_DIR; /metrics reads them all, under a
# shared lock, and keeps the text for CACHE_SECONDS (a scrape every few seconds is plenty, and /metrics
# called in a loop costs little). When a worker exits, gunicorn.conf.py's child_exit hook calls
# ``archive_dead_worker``: its counts are added to one archive file per metric type, under the exclusive
# lock, so the directory holds (live workers + 1) files however many workers max_requests has recycled.

blueprint = Blueprint("observability", __name__)
CACHE_SECONDS = 1.0
LOCK_FILE = "metrics.lock"
_cache: tuple[float, bytes] = (0.0, b"")


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def _locked(directory: str, mode: int) -> Any:
    lock = open(os.path.join(directory, LOCK_FILE), "a")  # noqa: SIM115 - closed by the caller
    fcntl.flock(lock, mode)
    return lock


def multiprocess_text(directory: str) -> bytes:
    global _cache
    now = time.monotonic()
    if now < _cache[0]:
        return _cache[1]
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=directory)
    with _locked(directory, fcntl.LOCK_SH):
        text = generate_latest(registry)
    _cache = (now + CACHE_SECONDS, text)
    return text


def archive_dead_worker(pid: int, directory: str) -> None:
    """Add the counters and histograms of the exited worker ``pid`` to the archive files and remove its
    files (gauges, which this service does not use, are prometheus-client's ``mark_process_dead``'s)."""
    from prometheus_client.mmap_dict import MmapedDict

    with _locked(directory, fcntl.LOCK_EX):
        for path in glob.glob(os.path.join(directory, f"*_{pid}.db")):
            kind = os.path.basename(path).split("_")[0]
            if kind not in ("counter", "histogram", "summary"):
                continue
            archive = MmapedDict(os.path.join(directory, f"{kind}_archive.db"))
            try:
                for key, value, timestamp, _ in MmapedDict.read_all_values_from_file(path):
                    archive.write_value(key, archive.read_value(key)[0] + value, timestamp)
            finally:
                archive.close()
            os.remove(path)


@blueprint.get("/metrics")
def metrics() -> Response:
    directory = multiprocess_dir()
    text = multiprocess_text(directory) if directory else generate_latest(REGISTRY)
    return Response(text, content_type=CONTENT_TYPE_PLAIN_0_0_4)


def _rule_for_other_methods(error: MethodNotAllowed) -> Any:
    """The URL rule the request's path matches with a method it allows (for a 405's route label)."""
    try:
        adapter = current_app.url_map.bind_to_environ(request.environ)
        for method in error.valid_methods or ():
            try:
                return adapter.match(method=method, return_rule=True)[0]
            except HTTPException:
                continue
    except HTTPException:
        pass
    return None


def install(app: Flask) -> None:
    """Wrap ``app`` with the middleware, note each request's route template, serve ``/metrics``."""
    configure_logging(app.config["LOG_LEVEL"])
    app.register_blueprint(blueprint)

    @app.before_request
    def _note_route() -> None:
        rule = request.url_rule
        if rule is None and isinstance(request.routing_exception, MethodNotAllowed):
            rule = _rule_for_other_methods(request.routing_exception)  # a 405 on a real route is that route
        if rule is not None:
            request.environ[ROUTE_KEY] = rule.rule

    app.wsgi_app = Observed(app.wsgi_app)  # type: ignore[method-assign]
