"""What operators see: a request ID on every answer, one structured JSON log line per request, and
Prometheus metrics at ``GET /metrics``.

All three come from one WSGI middleware around the Flask app, so they cover every answer the app gives
(404, 405, 413 and 500 included) under any WSGI server. The log line and the metrics are written when
the server closes the response, so ``duration_ms`` includes sending it (under the service's gunicorn
worker the line is then held for the worker's main loop to write: ``hold_access_lines``).

* Request ID: a client's ``X-Request-ID`` is kept when it is 1-128 characters of ``A-Z a-z 0-9 . _ : + / = ~ -``
  (UUIDs, hex and base64 ids fit); anything else is replaced by a new random id. Either way it is echoed.
* Trace context: a caller's W3C ``traceparent`` is continued, or a trace starts here; the answer's
  ``traceparent`` names this service's span (``tracing.py``).
* Log line: ``time, level, logger, message, method, path, route, status, duration_ms, request_id, trace_id,
  span_id, pid`` on stdout, at INFO (``LOG_LEVEL=warning`` silences it). Never a request body, a query
  string or a card.
* Metrics: requests per ``method``, ``route`` and ``status``, and latency per ``route``. ``route`` is the URL
  rule such as ``/v1/ofc-pineapple/hands/score`` or ``unmatched``, never the raw path; ``method`` is one the
  route serves or ``OTHER`` (a 405's, or an unknown path's method outside HTTP's seven), so whatever clients
  send, the series stay a few per route. Under gunicorn, ``gunicorn.conf.py`` sets ``PROMETHEUS_MULTIPROC_DIR``
  before the app is imported and every worker writes there; ``/metrics`` adds all workers up, exited ones
  included, and is answered only on the metrics listener (``METRICS_PORT``), never on the service's port.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import glob
import json
import logging
import os
import re
import struct
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from flask import Blueprint, Flask, Response, current_app, request
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound

from service.api.tracing import TRACE_KEY, TRACEPARENT_HEADER, Trace, trace_from

if TYPE_CHECKING:
    from service.api.otel import SpanExport

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9._:+/=~-]{1,128}")
REQUEST_ID_KEY = "card_rules.request_id"  # WSGI environ keys
ROUTE_KEY = "card_rules.route"
FOREIGN_METHOD_KEY = "card_rules.foreign_method"  # set on a 405: the route does not serve the method
UNMATCHED = "unmatched"
OTHER = "OTHER"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
MAX_LOGGED_PATH = 256

access_log = logging.getLogger("service.access")

REQUESTS = Counter(
    "card_rules_http_requests", "HTTP requests answered, by method, route template and status.",
    ["method", "route", "status"],
)  # fmt: skip  # the name and the help on one line, the labels on the next
# Per route only: a histogram is 15 series per label set, and per method and status it made most of the
# metrics text, and of the time to render it.
LATENCY = Histogram(
    "card_rules_http_request_duration_seconds",
    "Time from receiving a request to having sent its answer, by route template, for the methods it serves.",
    ["route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0),
)
# The connection layer (service/gunicorn_worker.py, gunicorn.conf.py): what never reaches the app
CONNECTIONS_CLOSED = Counter(
    "card_rules_connections_closed",
    "Connections the server closed before the app saw a request, or requests it refused unrun, by reason:"
    " idle_timeout, header_timeout (408), body_timeout (408), head_too_large (431), incomplete (the client"
    " left mid-request), expired (503: queued past the timeout), malformed (gunicorn's own 4xx/5xx).",
    ["reason"],
)
WORKER_TIMEOUTS = Counter("card_rules_worker_timeouts", "Workers killed for a request past the timeout.")
REQUESTS_LOST = Counter("card_rules_requests_lost", "Requests in the application when their worker was killed.")
WORKER_EXITS = Counter(
    "card_rules_worker_exits", "Worker processes that exited (timeouts, crashes, recycling); each is replaced."
)


def request_id_from(environ: dict[str, Any]) -> str:
    given: str | None = environ.get("HTTP_X_REQUEST_ID")
    if given and REQUEST_ID_PATTERN.fullmatch(given):
        return given
    return os.urandom(16).hex()  # 32 random hex digits, a tenth of uuid4()'s cost


# --- logging -----------------------------------------------------------------------------------------


_second: tuple[int, str] = (-1, "")


def utc_time(created: float) -> str:
    """``2026-11-30T19:53:46.123Z`` (UTC, milliseconds); the part up to the second is made once a second."""
    global _second
    second = int(created)
    if _second[0] != second:
        _second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{_second[1]}.{int((created - second) * 1000):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ms), level, logger, message, the record's ``fields``, and
    the exception's traceback as one string when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": utc_time(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            line["exception"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return _LINE_ENCODER.encode(line)


_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False, default=str)
"""One encoder for every line (``json.dumps`` with arguments builds a new one each call)."""


class AccessRecord(logging.LogRecord):
    """The access line's log record, made without ``LogRecord.__init__``'s work that this line never
    uses (the caller's frame, thread and process names): a third of the cost. Handlers and formatters
    see every attribute a ``LogRecord`` has."""

    _start = time.time()

    def __init__(self, fields: dict[str, Any]) -> None:  # no super().__init__(): on purpose, see above
        now = time.time()
        self.__dict__.update(_ACCESS_RECORD)
        self.created = now
        self.msecs = int(now * 1000) % 1000
        self.relativeCreated = (now - self._start) * 1000
        self.thread = threading.get_ident()
        self.process = fields["pid"]
        self.fields = fields


_ACCESS_RECORD: dict[str, Any] = {
    "name": "service.access", "msg": "request", "args": (), "levelname": "INFO", "levelno": logging.INFO,
    "pathname": __file__, "filename": os.path.basename(__file__), "module": __name__.rsplit(".", 1)[1],
    "exc_info": None, "exc_text": None, "stack_info": None, "lineno": 0, "funcName": "record",
    "threadName": None, "processName": None, "taskName": None,
}  # fmt: skip  # a table of the record's attributes, a few to a line


class StdoutHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stdout`` is at the time (test runners swap it)."""

    def __init__(self) -> None:
        super().__init__()

    @property
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
    """WSGI middleware: request ID and trace context in and out, then a log line and the metrics for every
    answer, and its span to ``export`` when there is one (``tracing.py``)."""

    def __init__(
        self,
        wsgi_app: Callable[..., Iterable[bytes]],
        headers: Callable[[dict[str, Any], int, list[tuple[str, str]]], None] | None = None,
        export: SpanExport | None = None,
    ) -> None:
        self.wsgi_app = wsgi_app
        self.headers = headers  # adds the headers every answer has (service/api/__init__.py)
        self.export = export

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.perf_counter()
        request_id = environ[REQUEST_ID_KEY] = request_id_from(environ)
        trace = environ[TRACE_KEY] = trace_from(environ, sample_new=self.export is not None)
        status = [500]
        add_headers = self.headers

        def _start_response(status_line: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            status[0] = code = int(status_line[:3])
            if add_headers is not None:
                add_headers(environ, code, headers)
            headers.append((REQUEST_ID_HEADER, request_id))
            headers.append((TRACEPARENT_HEADER, trace.traceparent))
            return start_response(status_line, headers, exc_info)

        try:
            body = self.wsgi_app(environ, _start_response)
        except BaseException:
            self.record(environ, 500, started, request_id, trace)
            raise
        return _Answer(body, lambda: self.record(environ, status[0], started, request_id, trace))

    def record(self, environ: dict[str, Any], status: int, started: float, request_id: str, trace: Trace) -> None:
        seconds = time.perf_counter() - started
        method = environ.get("REQUEST_METHOD", "")
        method = method if method in METHODS else OTHER
        route = environ.get(ROUTE_KEY)
        key = (method, route, status, FOREIGN_METHOD_KEY in environ)
        counted = _metric_children.get(key)
        if counted is None:  # bounded: methods x route templates x statuses
            counted = _metric_children[key] = _children(*key)
        counted[0].inc()
        if counted[1] is not None:
            counted[1].observe(seconds)
        path = environ.get("PATH_INFO", "")[:MAX_LOGGED_PATH]
        if access_log.isEnabledFor(logging.INFO):
            fields = {
                "method": method,
                "path": path,
                "route": route or UNMATCHED,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
                "request_id": request_id,
                "trace_id": trace.trace_id,
                "span_id": trace.span_id,
                "pid": os.getpid(),
            }
            if not _write_access_line(fields):
                access_log.handle(AccessRecord(fields))
        if self.export is not None and trace.sampled:
            end = time.time_ns()
            self.export.record(trace, method, route, path, status, end - int(seconds * 1e9), end)


def _write_access_line(fields: dict[str, Any]) -> bool:
    """The production set-up's access line, written straight to stdout: the text ``JsonFormatter`` makes of
    it (a test holds the two equal), without the logging module's record, filters and handler calls, which
    cost more than the line (bench/README.md). False when logging is set up otherwise (a handler
    added, a test's capture): then the line goes through ``logging`` as any record does."""
    handlers = _SERVICE_LOG.handlers
    if access_log.handlers or len(handlers) != 1 or type(handlers[0]) is not StdoutHandler or access_log.filters:
        return False
    handler = handlers[0]
    if handler.filters or type(handler.formatter) is not JsonFormatter:
        return False
    line = access_line(time.time(), fields)
    if _held is not None:
        with _held_lock:
            if len(_held) < MAX_HELD:
                _held.append(line)
                return True
    # threads of one worker share stdout
    with handler.lock:  # type: ignore[union-attr]  # Handler.__init__ always makes it; typeshed allows None
        stream = sys.stdout
        try:
            stream.write(line)
            stream.flush()
        except Exception:  # as logging does: a failed write never fails the request
            handler.handleError(AccessRecord(fields))
    return True


# Under the service's gunicorn worker the access lines are held and written by the worker's main loop, a
# batch per turn of it (``hold_access_lines``, ``write_held_lines``). A write is a system call, and a thread
# that makes one gives up the GIL to the threads waiting for it and then waits to get it back: with four
# threads and the main loop, one write per request cost more than everything else the service adds to a
# request (bench/floor.py: /healthz fell well behind the minimal Flask GET with the line written by each
# thread, and was level with it without the line; figures in bench/README.md). A line waits at most one turn
# of the main loop, which runs as each answer is done; MAX_HELD bounds the memory should it ever lag.
MAX_HELD = 1000
_held: list[str] | None = None
_held_lock = threading.Lock()


def hold_access_lines() -> None:
    """From now on, this process's access lines wait for ``write_held_lines`` (and for its exit)."""
    global _held
    if _held is None:
        _held = []
        atexit.register(write_held_lines)


def write_held_lines() -> None:
    """Write the access lines held so far, in one write."""
    global _held
    if not _held:
        return
    with _held_lock:
        lines, _held = _held, []
    handlers = _SERVICE_LOG.handlers
    handler = handlers[0] if handlers else None
    if handler is None:
        return
    with handler.lock:  # type: ignore[union-attr]  # Handler.__init__ always makes it; typeshed allows None
        try:
            sys.stdout.write("".join(lines))
            sys.stdout.flush()
        except Exception:  # as logging does: a failed write never fails the worker
            pass


_encode_text = json.encoder.encode_basestring  # what JSONEncoder(ensure_ascii=False) uses


def access_line(created: float, fields: dict[str, Any]) -> str:
    """``JsonFormatter``'s line for an access record made at ``created`` with ``fields``, and its newline."""
    return (
        f'{{"time": "{utc_time(created)}", "level": "info", "logger": "service.access", "message": "request", '
        f'"method": {_encode_text(fields["method"])}, "path": {_encode_text(fields["path"])}, '
        f'"route": {_encode_text(fields["route"])}, "status": {fields["status"]!r}, '
        f'"duration_ms": {fields["duration_ms"]!r}, "request_id": {_encode_text(fields["request_id"])}, '
        f'"trace_id": "{fields["trace_id"]}", "span_id": "{fields["span_id"]}", "pid": {fields["pid"]!r}}}\n'
    )


_SERVICE_LOG = logging.getLogger("service")

_metric_children: dict[tuple[str, str | None, int, bool], tuple[Any, Any]] = {}
"""Each kind of answer's counter and histogram, looked up once (``labels()`` takes a lock and builds a key)."""


def _children(method: str, route: str | None, status: int, foreign: bool) -> tuple[Any, Any]:
    """The counter of an answer with ``method``, ``route`` (None: no route matched) and ``status`` and, when
    its route served it, that route's histogram. A method the route does not serve (a 405) is ``OTHER``: a
    route's label sets are its own methods' and one more, whatever methods clients try. A 405 or an unknown
    path is counted but not timed, so that a flood of them does not move a route's latency."""
    if route is None:
        return REQUESTS.labels(method, UNMATCHED, str(status)), None
    if foreign:
        return REQUESTS.labels(OTHER, route, str(status)), None
    return REQUESTS.labels(method, route, str(status)), LATENCY.labels(route)


# --- /metrics ----------------------------------------------------------------------------------------
# Several workers: each writes its own files in PROMETHEUS_MULTIPROC_DIR; /metrics reads them all, under a
# shared lock. When a worker exits, gunicorn.conf.py's child_exit hook calls ``archive_dead_worker``: its
# counts are added to one archive file per metric type, under the exclusive lock, so the directory holds
# (live workers + 1) files however many workers max_requests has recycled.
#
# A render reads and merges every file and writes a line per series: it is made at most once per
# CACHE_SECONDS, counted from its end, however many requests ask. One thread of one worker renders at a
# time (a thread lock, then a lock file in the directory) and leaves the text in a file there, which every
# worker takes while it is current. A request that comes during a render gets the previous text at once
# or, when its worker has none yet, waits for that render; none starts another.

blueprint = Blueprint("observability", __name__)
CACHE_SECONDS = 1.0
READ_ATTEMPTS = 5
LOCK_FILE = "metrics.lock"
RENDER_LOCK_FILE = "metrics-render.lock"
TEXT_FILE = "metrics.txt"
_cache: tuple[float, bytes] = (0.0, b"")
"""This worker's text, and until when it is current (``time.monotonic``, one clock for the whole machine)."""
_rendering = threading.Lock()


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def _locked(directory: str, mode: int) -> Any:
    lock = open(os.path.join(directory, LOCK_FILE), "a")  # noqa: SIM115 - closed by the caller
    fcntl.flock(lock, mode)
    return lock


def render(directory: str) -> bytes:
    """The text of the metrics of every worker, live or exited, from their files in ``directory``."""
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=directory)
    for attempt in range(READ_ATTEMPTS):
        try:
            with _locked(directory, fcntl.LOCK_SH):
                text = generate_latest(registry)
            break
        except struct.error:
            # A worker's first metric creates its file (prometheus-client's MmapedDict): between the file's
            # creation and its first bytes a reader finds it empty. It is only ever a moment: read again.
            if attempt == READ_ATTEMPTS - 1:
                raise
            time.sleep(0.01)
    return text


def multiprocess_text(directory: str) -> bytes:
    """The current text: this worker's, another worker's, or a new render (above)."""
    global _cache
    expires, text = _cache
    if time.monotonic() < expires:
        return text
    if not _rendering.acquire(blocking=not text):
        return text  # another thread of this worker is rendering
    try:
        expires, text = _cache
        if time.monotonic() < expires:
            return text  # rendered while this thread waited
        with open(os.path.join(directory, RENDER_LOCK_FILE), "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if text:
                    return text  # another worker is rendering
                fcntl.flock(lock, fcntl.LOCK_EX)
            _cache = _shared_text(directory) or _render_and_share(directory)
        return _cache[1]
    finally:
        _rendering.release()


def _shared_text(directory: str) -> tuple[float, bytes] | None:
    """The text a worker left in the directory and its expiry, while it is current."""
    try:
        with open(os.path.join(directory, TEXT_FILE), "rb") as file:
            head, _, text = file.read().partition(b"\n")
        expires = float(head)
    except (OSError, ValueError):
        return None
    now = time.monotonic()
    # An expiry more than one interval ahead was written before the machine's clock last started: stale.
    return (expires, text) if now < expires <= now + CACHE_SECONDS else None


def _render_and_share(directory: str) -> tuple[float, bytes]:
    text = render(directory)
    expires = time.monotonic() + CACHE_SECONDS
    path = os.path.join(directory, TEXT_FILE)
    written = f"{path}.{os.getpid()}"
    try:
        with open(written, "wb") as file:
            file.write(f"{expires!r}\n".encode() + text)
        os.replace(written, path)  # whole or not at all, for the next reader
    except OSError:  # a full disk: this worker still has the text, the others render their own
        with contextlib.suppress(OSError):
            os.remove(written)
    return expires, text


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


def arrival_port(environ: dict[str, Any]) -> str:
    """The local port of the connection a request came on: read from gunicorn's socket when there is one,
    so that no Host header (which gunicorn uses for a Unix socket's SERVER_PORT) decides it; else the
    server's SERVER_PORT. Empty for a Unix socket."""
    sock = environ.get("gunicorn.socket")
    if sock is None:
        return str(environ.get("SERVER_PORT", ""))
    try:
        address = sock.getsockname()
    except OSError:
        return ""
    return str(address[1]) if isinstance(address, tuple) else ""


@blueprint.get("/metrics")
def metrics() -> Response:
    """Answered on the metrics listener only (``METRICS_PORT``, set by gunicorn.conf.py), which no proxy or
    Service in front of the service's port routes; elsewhere a 404, as for an unknown path. Without
    ``METRICS_PORT`` (a server that does not read gunicorn.conf.py) on every port."""
    port = current_app.config.get("METRICS_PORT")
    if port and arrival_port(request.environ) != port:
        raise NotFound()
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


def install(
    app: Flask,
    headers: Callable[[dict[str, Any], int, list[tuple[str, str]]], None] | None = None,
    note: Callable[[dict[str, Any], Any], None] | None = None,
    export: SpanExport | None = None,
) -> None:
    """Wrap ``app`` with the middleware, note each request's route template, serve ``/metrics``.
    ``headers(environ, status, headers)`` adds the headers of every answer; ``note(environ, rule)`` notes
    more about the matched URL rule, in the same hook (one hook: Flask calls each hook on every request);
    ``export`` records each sampled request's span (``tracing.export_from_environment``)."""
    configure_logging(app.config["LOG_LEVEL"])
    app.register_blueprint(blueprint)

    @app.before_request
    def _note_route() -> None:
        rule = request.url_rule
        environ = request.environ
        if rule is None and isinstance(request.routing_exception, MethodNotAllowed):
            rule = _rule_for_other_methods(request.routing_exception)  # a 405 on a real route is that route
            environ[FOREIGN_METHOD_KEY] = True
        if rule is not None:
            environ[ROUTE_KEY] = rule.rule
            if note is not None:
                note(environ, rule)

    app.wsgi_app = Observed(app.wsgi_app, headers, export)  # type: ignore[method-assign]  # Flask documents wrapping wsgi_app
