"""gunicorn settings for production; each has an environment override (README, "Production").

``gunicorn --config gunicorn.conf.py service.wsgi:app`` (``make run``). ``--check-config`` passes.
"""

import atexit
import errno
import glob
import os
import shutil
import socket
import tempfile


def _env_int(name, default):
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def _cores():
    try:
        return len(os.sched_getaffinity(0))  # the cores this process may run on (containers, taskset)
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# --- serving -----------------------------------------------------------------------------------------

_host = os.environ.get("HOST", "127.0.0.1")
_port = os.environ.get("PORT", "8000")
# GET /metrics is answered only on a second listener, METRICS_HOST:METRICS_PORT (default: HOST and 9464),
# which neither deploy/nginx.conf nor the Kubernetes Service routes; on PORT it is a 404 like any unknown
# path. The app reads METRICS_PORT, so it is set here, before the app is imported. METRICS_PORT equal to
# PORT: one listener, which answers /metrics too. A --bind on the command line replaces both addresses: list
# the metrics address in it as well, or /metrics answers nowhere.
#
# 9464 is also the OpenTelemetry Prometheus exporter's default port, so on a developer's machine something
# else often holds it. METRICS_PORT not given (`make run`): the listener then moves aside to a free port
# the system picks, and the master logs one line naming it (when_ready, below), so that the service starts
# anyway. METRICS_PORT given (the image sets it): that port or no start, since Prometheus scrapes it there.
_DEFAULT_METRICS_PORT = "9464"


def _port_taken(host, port):
    """Whether a listener could not bind host:port now (as gunicorn binds: SO_REUSEADDR, so a port left in
    TIME_WAIT is free). Another program may still take it before gunicorn binds; then gunicorn says so."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)[0]
    except (OSError, ValueError):  # an address gunicorn will refuse with its own message
        return False
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            return error.errno == errno.EADDRINUSE
    return False


def _free_port(host):
    family, kind, proto, _, address = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as probe:
        probe.bind(address)
        return str(probe.getsockname()[1])


_metrics_host = os.environ.get("METRICS_HOST", "").strip() or _host
_metrics_port = os.environ.get("METRICS_PORT", "").strip()
_metrics_moved_from = None
if not _metrics_port:
    _metrics_port = _DEFAULT_METRICS_PORT
    if _metrics_port != _port and _port_taken(_metrics_host, _metrics_port):
        _metrics_moved_from, _metrics_port = _metrics_port, _free_port(_metrics_host)
os.environ["METRICS_PORT"] = _metrics_port  # a reload (SIGHUP) reads it back as given: the port stays
bind = [f"{_host}:{_port}"]
if _metrics_port != _port:
    bind.append(f"{_metrics_host}:{_metrics_port}")


def when_ready(server):
    """The one line that says where /metrics went when its default port was taken."""
    if _metrics_moved_from:
        server.log.warning(
            "metrics: port %s is in use by another program, so GET /metrics is answered on http://%s:%s/metrics"
            " instead (set METRICS_PORT to choose its port)",
            _metrics_moved_from,
            _metrics_host,
            _metrics_port,
        )


workers = _env_int("WEB_CONCURRENCY", _cores())
# WORKER CLASS, chosen by measurement on this 2-core machine: bench/load.py (64 connections, every
# operation of the spec plus 20% malformed requests, 2 workers, 30 s per row, the clients on the same
# 2 cores; the machine is shared and noisy, +-10% from run to run):
#
#   worker class                      req/s   p50 ms   p99 ms   connections opened
#   sync                                890     62.5    209.0   28,882 (one per request: "Connection: close")
#   gthread, 1 thread                 1,155     41.5    212.0    7,459 (keep-alive)
#   gthread, 2 threads                1,652     31.1    148.3
#   gthread, 4 threads                1,467     32.2    233.9
#   gthread, 8 threads                1,759     30.8    147.2
#   ThreadWorker below, 4 threads     1,618     31.7    185.1
#
# and bench/ofc_pineapple.py (4 client connections, hands/score, 20 s): sync 868 req/s (p50 4.0 ms),
# gthread 1 thread 1,648 (1.9 ms), gthread 4 threads 2,232 (1.4 ms); the server's CPU per request is
# the same for all (~0.7 ms): sync spends the difference on a TCP handshake and teardown per request, on
# both sides. So gthread: 1.6-2x sync's throughput, half its p50 latency. 2 to 8 threads are
# within the noise; 4 lets one thread parse or write while another computes, and keeps what a killed
# worker takes down small. Run as the subclass in service/gunicorn_worker.py, which restores what sync
# does better: a request running past `timeout` is cut off, and SIGTERM refuses new connections at once.
#
# Hostile clients (bench/attack.py, figures in bench/README.md): gunicorn's gthread reads a
# request on a thread, blocking, with no deadline for the headers or the body, so 500 partial-header, 500
# idle or 50 slow-body connections held open took the normal workload to 0 req/s and /healthz to its 5 s
# probe time-out. The worker below reads every request whole in its main loop, without blocking, under
# header and body deadlines, before a thread sees it: the same attacks leave the workload and /healthz
# as they were, at the same normal-load throughput, with no new dependency and no second process in the
# unit (a buffering nginx in front would also have to be in the image, compose and Kubernetes).
worker_class = "service.gunicorn_worker.ThreadWorker"
threads = _env_int("GUNICORN_THREADS", 4)
# Connections the kernel holds until a worker accepts them. The worker's main loop accepts as soon as a
# connection is queued (up to worker_connections, 1,000 per worker, idle keep-alive ones included) and
# reads its request under deadlines that count from then, so this queue holds bursts of connects, not
# requests waiting for a thread. It must hold a whole burst: with 64 per worker, 500-1,000 clients
# connecting at once overflowed it and the kernel dropped their handshakes, which the clients only
# repeated a second later (bench/attack.py's "closed late"). The workers share one listening socket, so
# this is the whole queue: 1,024 holds such bursts.
backlog = _env_int("GUNICORN_BACKLOG", 1024)
preload_app = True  # load the rules tables once in the master; workers share them copy-on-write

# --- time limits -------------------------------------------------------------------------------------

# A request still in the application after `timeout` seconds is cut off: its worker is killed and
# replaced (service/gunicorn_worker.py), and the clients of that worker's requests in flight see their
# connections close without an answer. No request within the contract's limits comes near it: the light
# operations take milliseconds, and the heavy ones (service/api/heavy.py) bound their work per request and
# run at most CARD_RULES_HEAVY_CONCURRENCY at once per worker (keep it below the threads), the rest
# answered 503 at once (bench/heavy.py measures both). 10 s leaves room for a loaded machine.
timeout = _env_int("GUNICORN_TIMEOUT", 10)
# On SIGTERM: stop accepting, let in-flight requests finish for up to this long, then kill. Keep it
# below the orchestrator's own grace period (Kubernetes: 30 s).
graceful_timeout = _env_int("GUNICORN_GRACEFUL_TIMEOUT", 20)
keepalive = _env_int("GUNICORN_KEEPALIVE", 5)  # seconds an idle connection stays open (not the sync worker)

# Recycle each worker after this many requests (a guard against slow growth, none measured: see
# bench/load.py's memory columns); the jitter keeps the workers from restarting together.
max_requests = _env_int("GUNICORN_MAX_REQUESTS", 50_000)
max_requests_jitter = _env_int("GUNICORN_MAX_REQUESTS_JITTER", 5_000)

# --- request limits (the body limit is the app's: CARD_RULES_MAX_BODY_BYTES, 413) ---------------------

limit_request_line = 2048  # method, path and version: the longest path of the contract is ~40 bytes (414 beyond)
limit_request_fields = 50  # header count: a browser sends ~15 (431 beyond)
limit_request_field_size = 4096  # one header line (431 beyond)

# --- files, sockets, logs ----------------------------------------------------------------------------

worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # heartbeat file in memory, not on disk
control_socket_disable = True  # gunicorn 25.1+ would create a control socket in $HOME/.gunicorn
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
errorlog = "-"  # gunicorn's own messages: stderr
# The service writes its own access line (one JSON object per request, stdout: service/api/observability.py);
# gunicorn's would be a second line for the same request.
accesslog = None

# --- Prometheus metrics from every worker ------------------------------------------------------------
# prometheus-client's multiprocess mode: each worker writes its counters to files in one directory and
# GET /metrics adds them up. The variable must be set before the app (and prometheus_client) is imported,
# so here. Given: its old files are removed on start (one gunicorn per directory). Not given: a fresh
# temporary directory, removed when the master exits. A config reload (SIGHUP) in the same master keeps it.

_METRICS_OWNER = "CARD_RULES_METRICS_DIR_OWNER"

if os.environ.get(_METRICS_OWNER) != str(os.getpid()):
    _metrics_dir = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip()
    if _metrics_dir:
        os.makedirs(_metrics_dir, exist_ok=True)
        for _pattern in ("*.db", "metrics.txt*"):  # an earlier run's counts, and its last text of /metrics
            for _stale in glob.glob(os.path.join(_metrics_dir, _pattern)):
                os.remove(_stale)
    else:
        _metrics_dir = tempfile.mkdtemp(prefix="card-rules-metrics-")
        _creator = os.getpid()

        def _remove_metrics_dir(path=_metrics_dir, creator=_creator):
            if os.getpid() == creator:  # workers inherit atexit handlers: only the master removes it
                shutil.rmtree(path, ignore_errors=True)

        atexit.register(_remove_metrics_dir)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _metrics_dir
    os.environ[_METRICS_OWNER] = str(os.getpid())


def child_exit(server, worker):
    """A worker is gone (exit, crash, kill, recycling): its live gauges are dropped, and its counts are
    moved into the archive files, so that recycled workers do not pile up files for /metrics to read."""
    from prometheus_client import multiprocess

    from service.api.observability import WORKER_EXITS, archive_dead_worker
    from service.gunicorn_worker import SPREAD

    SPREAD.release(getattr(worker, "slot", None))  # no worker waits for it to take connections
    WORKER_EXITS.inc()
    try:
        multiprocess.mark_process_dead(worker.pid)
        archive_dead_worker(worker.pid, os.environ["PROMETHEUS_MULTIPROC_DIR"])
    except Exception:  # noqa: BLE001 - metrics bookkeeping must never take the master down
        server.log.exception("could not archive the metrics of worker %s", worker.pid)


# --- connections after a refused body ----------------------------------------------------------------
# The app answers 413 to a body over CARD_RULES_MAX_BODY_BYTES without reading it. gunicorn would then
# announce keep-alive, fail to skip the unread body (it drains at most 64 KiB) and close the connection,
# so the client's next request on it would go unanswered. Such a request is answered with
# "Connection: close" instead; so is a chunked one, whose size is unknown until it is read.

_MAX_BODY = _env_int("CARD_RULES_MAX_BODY_BYTES", 64 * 1024)


def pre_request(worker, req):
    for name, value in req.headers:
        if (name == "CONTENT-LENGTH" and value.strip().isdigit() and int(value) > _MAX_BODY) or (
            name == "TRANSFER-ENCODING" and "chunked" in value.lower()
        ):
            req.must_close = True
            break


# --- answers gunicorn gives itself -------------------------------------------------------------------
# No product name or version in the Server header (gunicorn sends "gunicorn"), and gunicorn's own
# refusals (400 malformed HTTP, 403, 414 request line too long, 417, 431 headers too large, 500 on its
# own configuration problem, 501 unsupported transfer coding) as problem+json with the headers of every
# answer of the service (X-Request-ID, Content-Language, Vary, nosniff, no-store) and a reason phrase
# that matches the status (gunicorn sends "501 Bad Request"), counted in /metrics: both are the worker
# class's (service/gunicorn_worker.py: its Response and handle_error), not settings of this file.
