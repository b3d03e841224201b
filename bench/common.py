"""Reusable benchmark pieces: in-process timing, a gunicorn server, a multi-process HTTP load generator, tables.

Every game's script (``bench/ofc_pineapple.py``, later ``bench/joker_thirteen.py``, ``bench/big_two.py``)
builds its cases and endpoints and hands them to the helpers here. Only ratios measured within one run
mean anything: the machines are shared and noisy, so absolute numbers vary from run to run.
"""

from __future__ import annotations

import argparse
import cProfile
import errno
import gc
import io
import json
import multiprocessing
import os
import pstats
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
LOOPBACK = "127.0.0.1"


# --- output ------------------------------------------------------------------------------------------


def say(*parts: object) -> None:
    print(*parts, flush=True)


def heading(title: str) -> None:
    say()
    say(title)
    say("=" * len(title))


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str | None = None) -> str:
    """A plain-text table; ``align`` is one letter per column, ``l`` or ``r`` (default: first left, rest right)."""
    align = align or "l" + "r" * (len(headers) - 1)
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(row, widths, align)).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule, *(line(r) for r in cells[1:])])


def rate(x: float | None) -> str:
    """A per-second figure with thousands separators, or n/a."""
    return "n/a" if x is None else f"{x:,.0f}"


def ratio_text(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}x"


def verdict(met: bool) -> str:
    return "MET" if met else "NOT MET"


# --- in-process timing -------------------------------------------------------------------------------


@dataclass
class Case:
    """One evaluator over one list of inputs. ``run(items)`` must process every item; ``None`` means the
    evaluator cannot do this input (``note`` says why) and the table prints n/a."""

    name: str
    run: Callable[[Sequence[Any]], object] | None
    items: Sequence[Any]
    note: str = ""
    seconds: list[float] = field(default_factory=list)

    @property
    def best(self) -> float | None:
        return min(self.seconds) if self.seconds else None

    @property
    def per_second(self) -> float | None:
        return None if self.best is None else len(self.items) / self.best

    @property
    def micros(self) -> float | None:
        return None if self.best is None else self.best / len(self.items) * 1e6


def time_cases(cases: Sequence[Case], repeats: int) -> None:
    """Time every case ``repeats`` times, round-robin (so a noisy moment hits every case alike), each pass
    with the garbage collector off as ``timeit`` does; ``Case.best`` is the best of the passes."""
    runnable = [c for c in cases if c.run is not None]
    for case in runnable:  # warm up: first-call costs, caches, lazily built tables
        case.run(case.items[: max(1, len(case.items) // 20)])  # type: ignore[misc]
    for _ in range(repeats):
        for case in runnable:
            gc.collect()
            gc.disable()
            try:
                start = time.perf_counter()
                case.run(case.items)  # type: ignore[misc]
                case.seconds.append(time.perf_counter() - start)
            finally:
                gc.enable()


def profile_text(run: Callable[[Sequence[Any]], object], items: Sequence[Any], top: int = 15) -> str:
    """cProfile of ``run(items)``: the ``top`` functions by own time (tottime), then by cumulative time.

    cProfile's per-call overhead inflates small functions; read it for where the calls go, and the
    stage timings (``time_cases`` on each step alone) for how much each step costs."""
    profiler = cProfile.Profile()
    profiler.enable()
    run(items)
    profiler.disable()
    sections = []
    for order, title in (("tottime", "by own time (tottime)"), ("cumulative", "by cumulative time")):
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.strip_dirs().sort_stats(order).print_stats(top)
        lines = out.getvalue().splitlines()
        total = next((line.strip() for line in lines if "function calls" in line), "")
        start = next((i for i, line in enumerate(lines) if line.strip().startswith("ncalls")), 0)
        body = [line for line in lines[start:] if line.strip()]
        sections.append(f"-- {title}; {total}\n" + "\n".join(body))
    return "\n".join(sections)


def wsgi_request_cases(app: Any, endpoints: Sequence[Endpoint], count: int) -> list[Case]:
    """Each endpoint served ``count`` times in process by the Flask test client (no sockets, no gunicorn):
    the application's own cost per request, for comparing endpoints without the network."""
    client = app.test_client()

    def runner(endpoint: Endpoint) -> Callable[[Sequence[Any]], object]:
        def bench_wsgi(items: Sequence[Any]) -> None:
            send = client.open
            for _ in items:
                response = send(endpoint.path, method=endpoint.method, data=endpoint.body,
                                content_type=endpoint.content_type if endpoint.body is not None else None)  # fmt: skip
                if response.status_code not in endpoint.expect:
                    raise RuntimeError(f"{endpoint.label}: status {response.status_code}")

        return bench_wsgi

    return [Case(f"{e.label} (Flask test client)", runner(e), range(count)) for e in endpoints]


# --- the server --------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def _proc_stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds user+system) of a process, from /proc; None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields_ = text[text.rindex(")") + 2 :].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields_[1]), (int(fields_[11]) + int(fields_[12])) / ticks


class GunicornServer:
    """``gunicorn --config gunicorn.conf.py APP`` on 127.0.0.1 and a free port, as a context manager.

    The project's gunicorn.conf.py is used as is (its worker class unless ``worker_class`` is given);
    PORT, HOST, METRICS_PORT and WEB_CONCURRENCY come from the environment as the config reads them:
    ``/metrics`` is answered on ``metrics_port``, another free port (set it to ``port`` before starting for
    one listener that answers it too). Its logs (the access log included, one line per request, as in
    production) go to a temporary file.
    """

    def __init__(self, app: str = "service.wsgi:app", workers: int = 2, worker_class: str | None = None,
                 startup_timeout: float = 30.0, env: dict[str, str] | None = None) -> None:  # fmt: skip
        self.app = app
        self.env = dict(env or {})  # extra environment for gunicorn (GUNICORN_TIMEOUT, CARD_RULES_..., ...)
        self.workers = workers
        self.requested_worker_class = worker_class
        self.startup_timeout = startup_timeout
        self.port = free_port()
        self.metrics_port = free_port()
        while self.metrics_port == self.port:  # free_port may give a port back twice
            self.metrics_port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._dir = Path(tempfile.mkdtemp(prefix="bench-gunicorn-"))
        self.log_path = self._dir / "gunicorn.log"

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def metrics_url(self) -> str:
        return f"http://{LOOPBACK}:{self.metrics_port}"

    def __enter__(self) -> GunicornServer:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        # No worker recycling while measuring: a replaced worker takes its CPU time with it (the CPU
        # per request would go wrong) and its warm-up would add noise. A caller's env may override it.
        env = {
            **os.environ,
            "GUNICORN_MAX_REQUESTS": "0",
            **self.env,
            "HOST": LOOPBACK,
            "PORT": str(self.port),
            "METRICS_HOST": LOOPBACK,
            "METRICS_PORT": str(self.metrics_port),
            "WEB_CONCURRENCY": str(self.workers),
        }
        command = [str(VENV_BIN / "gunicorn"), "--config", str(ROOT / "gunicorn.conf.py")]
        if self.requested_worker_class:
            command += ["--worker-class", self.requested_worker_class]
        command.append(self.app)
        log = self.log_path.open("wb")
        try:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
        finally:
            log.close()
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode} while starting:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.base_url + "/healthz", timeout=2) as response:
                    if response.status == 200 and len(self.worker_pids()) >= self.workers:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer /healthz within {self.startup_timeout:.0f} s:\n{self.log_tail()}")

    def stop(self) -> None:
        """Terminate (gunicorn's graceful shutdown), then kill the process group if it lingers."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)  # the session we started: master and its workers
                except ProcessLookupError:
                    pass
                process.wait(timeout=10)
        shutil.rmtree(self._dir, ignore_errors=True)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    @property
    def worker_class(self) -> str:
        """The worker class gunicorn reports using ("Using worker: sync")."""
        found = re.search(r"Using worker: (\S+)", self.log_text())
        return found.group(1) if found else (self.requested_worker_class or "unknown")

    def worker_pids(self) -> list[int]:
        if self.process is None:
            return []
        master = self.process.pid
        pids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                stat = _proc_stat(int(entry.name))
                if stat is not None and stat[0] == master:
                    pids.append(int(entry.name))
        return sorted(pids)

    def rss_kib(self) -> dict[int, int]:
        """Resident memory (VmRSS, KiB) of each worker, by pid."""
        sizes = {}
        for pid in self.worker_pids():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
            if found:
                sizes[pid] = int(found.group(1))
        return sizes

    def wait_for_workers(self, count: int, exclude: Sequence[int] = (), timeout: float = 30.0) -> list[int] | None:
        """Wait until ``count`` workers run, none of them in ``exclude``; their pids, or None on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pids = self.worker_pids()
            if len(pids) >= count and not set(pids) & set(exclude):
                return pids
            time.sleep(0.02)
        return None

    def terminate(self, timeout: float = 60.0) -> tuple[int | None, float]:
        """SIGTERM the master (gunicorn's graceful shutdown) and wait: (exit code or None if it did not
        exit within ``timeout``, seconds it took)."""
        assert self.process is not None
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            code: int | None = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            code = None
        return code, time.monotonic() - started

    def cpu_seconds(self) -> float | None:
        """CPU time used so far by the master and its workers (Linux /proc), None where unavailable."""
        if self.process is None or not Path("/proc/self/stat").exists():
            return None
        total = 0.0
        for pid in [self.process.pid, *self.worker_pids()]:
            stat = _proc_stat(pid)
            if stat is not None:
                total += stat[1]
        return total


# --- the load generator ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    """One request to send over and over; ``expect`` is the set of statuses that count as success."""

    label: str
    method: str
    path: str
    body: bytes | None = None
    content_type: str = "application/json"
    expect: frozenset[int] = frozenset(range(200, 300))

    @classmethod
    def post_json(cls, label: str, path: str, payload: Any, expect: Sequence[int] = (200,)) -> Endpoint:
        return cls(label, "POST", path, json.dumps(payload, separators=(",", ":")).encode(), expect=frozenset(expect))

    def raw_request(self, host: str, port: int) -> bytes:
        lines = [f"{self.method} {self.path} HTTP/1.1", f"Host: {host}:{port}", "Accept: application/json",
                 "Connection: keep-alive"]  # fmt: skip
        if self.body is not None:
            lines += [f"Content-Type: {self.content_type}", f"Content-Length: {len(self.body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + (self.body or b"")

    def check(self, base_url: str) -> tuple[int, bytes]:
        """One request with urllib (not the load generator): the status and body, for a pre-flight check."""
        request = urllib.request.Request(base_url + self.path, data=self.body, method=self.method)
        if self.body is not None:
            request.add_header("Content-Type", self.content_type)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()


class _Stale(Exception):
    """A reused keep-alive connection was closed by the server before answering: reconnect and resend."""


def _read_response(sock: socket.socket) -> tuple[int, bool]:
    """Read one HTTP/1.x response; (status, whether the server closes the connection after it)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            if data:
                raise ConnectionError("connection closed inside the response head")
            raise _Stale()
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    version, status_text = lines[0].split(b" ", 2)[:2]
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip().lower()
    connection = headers.get(b"connection", b"")
    close = connection == b"close" or (version == b"HTTP/1.0" and connection != b"keep-alive")
    if b"content-length" in headers:
        remaining = int(headers[b"content-length"]) - len(body)
        while remaining > 0:
            chunk = sock.recv(max(remaining, 65536))
            if not chunk:
                raise ConnectionError("connection closed inside the response body")
            remaining -= len(chunk)
    elif headers.get(b"transfer-encoding") == b"chunked":
        while not (body.endswith(b"\r\n0\r\n\r\n") or body == b"0\r\n\r\n"):  # enough for one unpipelined response
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed inside a chunked body")
            body += chunk
    else:
        while sock.recv(65536):
            pass
        close = True
    return int(status_text), close


def _client(host: str, port: int, request: bytes, start_at: float, end_at: float, results: Any) -> None:
    """One client process: one connection at a time, requests back to back from ``start_at`` to ``end_at``
    (both ``time.monotonic``), reconnecting whenever the server closes. Only requests that complete
    inside the window count; latency is send-to-last-byte, including the connect when one was needed."""
    latencies = array("d")
    statuses: Counter[int] = Counter()
    errors: Counter[str] = Counter()
    connects = 0
    sock: socket.socket | None = None
    while (now := time.monotonic()) < start_at:
        time.sleep(min(0.005, start_at - now))
    cpu_start = time.process_time()
    monotonic = time.monotonic
    while True:
        started = monotonic()
        if started >= end_at:
            break
        reused = sock is not None
        try:
            if sock is None:
                sock = socket.create_connection((host, port), timeout=30)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                connects += 1
            sock.sendall(request)
            status, close = _read_response(sock)
        except (_Stale, OSError) as error:
            if sock is not None:
                sock.close()
                sock = None
            if isinstance(error, _Stale) and reused:
                errors["stale keep-alive (resent)"] += 1
            else:
                errors[type(error).__name__] += 1
                time.sleep(0.01)  # do not spin on a refused or exhausted connect
            continue
        finished = monotonic()
        if finished <= end_at:
            latencies.append(finished - started)
            statuses[status] += 1
        if close:
            sock.close()
            sock = None
    if sock is not None:
        sock.close()
    results.put({
        "latencies": latencies.tobytes(), "statuses": dict(statuses), "errors": dict(errors),
        "connects": connects, "cpu": time.process_time() - cpu_start,
    })  # fmt: skip


@dataclass
class LoadResult:
    label: str
    seconds: float = 0.0
    latencies: array = field(default_factory=lambda: array("d"))
    statuses: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    connects: int = 0
    client_cpu: float = 0.0
    server_cpu: float | None = 0.0
    expect: frozenset[int] = frozenset(range(200, 300))
    rounds: list[float] = field(default_factory=list)  # requests/s of each round
    server: str = ""  # e.g. "gunicorn sync x 2 workers, 4 client processes"

    def add(self, other: LoadResult) -> None:
        self.seconds += other.seconds
        self.latencies.extend(other.latencies)
        self.statuses.update(other.statuses)
        self.errors.update(other.errors)
        self.connects += other.connects
        self.client_cpu += other.client_cpu
        self.server_cpu = (
            None if self.server_cpu is None or other.server_cpu is None else self.server_cpu + other.server_cpu
        )
        self.rounds.append(other.per_second)

    @property
    def requests(self) -> int:
        return len(self.latencies)

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def unexpected(self) -> dict[int, int]:
        return {s: n for s, n in sorted(self.statuses.items()) if s not in self.expect}

    @property
    def non_2xx(self) -> dict[int, int]:
        return {s: n for s, n in sorted(self.statuses.items()) if not 200 <= s < 300}

    def percentile_ms(self, p: float) -> float | None:
        """Nearest-rank percentile of the latencies, in milliseconds."""
        if not self.latencies:
            return None
        ordered = sorted(self.latencies)
        index = min(len(ordered) - 1, max(0, int(-(-p * len(ordered) // 100)) - 1))
        return ordered[index] * 1000

    @property
    def server_cpu_ms_per_request(self) -> float | None:
        if self.server_cpu is None or not self.requests:
            return None
        return self.server_cpu / self.requests * 1000

    @property
    def client_cpu_ms_per_request(self) -> float | None:
        return self.client_cpu / self.requests * 1000 if self.requests else None


def run_load(server: GunicornServer, endpoint: Endpoint, seconds: float, clients: int) -> LoadResult:
    """``clients`` processes hammer ``endpoint`` for ``seconds``; their results merged."""
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    results = context.Queue()
    request = endpoint.raw_request(LOOPBACK, server.port)
    start_at = time.monotonic() + 0.5  # every process forked and waiting before the window opens
    end_at = start_at + seconds
    processes = [context.Process(target=_client, args=(LOOPBACK, server.port, request, start_at, end_at, results), daemon=True)
                 for _ in range(clients)]  # fmt: skip
    for process in processes:
        process.start()
    while time.monotonic() < start_at:
        time.sleep(0.001)
    cpu_before = server.cpu_seconds()
    result = LoadResult(endpoint.label, seconds=seconds, expect=endpoint.expect)
    try:
        parts = [results.get(timeout=seconds + 60) for _ in processes]
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    cpu_after = server.cpu_seconds()
    result.server_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    for part in parts:
        result.latencies.frombytes(part["latencies"])
        result.statuses.update({int(s): n for s, n in part["statuses"].items()})
        result.errors.update(part["errors"])
        result.connects += part["connects"]
        result.client_cpu += part["cpu"]
    return result


def compare_endpoints(server: GunicornServer, endpoints: Sequence[Endpoint], seconds: float, rounds: int, clients: int,
                      warmup: float) -> list[LoadResult]:  # fmt: skip
    """Load each endpoint in turn, ``rounds`` times, ``seconds / rounds`` each time (alternating, so a noisy
    stretch of the shared machine falls on every endpoint), after a ``warmup`` per endpoint."""
    for endpoint in endpoints:
        if warmup > 0:
            run_load(server, endpoint, warmup, clients)
    totals = [LoadResult(e.label, expect=e.expect) for e in endpoints]
    slice_ = seconds / rounds
    for round_ in range(rounds):
        for endpoint, total in zip(endpoints, totals):
            part = run_load(server, endpoint, slice_, clients)
            total.add(part)
            say(f"  round {round_ + 1}/{rounds}  {endpoint.label:<40} {rate(part.per_second):>8} req/s")
    return totals


def load_table(results: Sequence[LoadResult]) -> str:
    def ms(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.2f}"

    rows = []
    for r in results:
        spread = f"{min(r.rounds):,.0f}-{max(r.rounds):,.0f}" if r.rounds else "n/a"
        rows.append([
            r.label, f"{r.requests:,}", rate(r.per_second), spread, ms(r.percentile_ms(50)), ms(r.percentile_ms(99)),
            sum(r.non_2xx.values()), sum(r.unexpected.values()), sum(r.errors.values()),
            f"{r.requests / r.connects:.1f}" if r.connects else "n/a",
            ms(r.server_cpu_ms_per_request), ms(r.client_cpu_ms_per_request),
        ])  # fmt: skip
    headers = ["endpoint", "requests", "req/s", "req/s by round", "p50 ms", "p99 ms", "non-2xx", "unexpected",
               "errors", "req/conn", "server CPU ms/req", "client CPU ms/req"]  # fmt: skip
    return table(headers, rows)


def describe_problems(results: Sequence[LoadResult]) -> list[str]:
    lines = []
    for r in results:
        if r.non_2xx:
            lines.append(f"  {r.label}: non-2xx statuses {r.non_2xx}")
        if r.unexpected and r.unexpected != r.non_2xx:
            lines.append(f"  {r.label}: statuses other than {sorted(r.expect)}: {r.unexpected}")
        if r.errors:
            lines.append(f"  {r.label}: client-side errors {dict(r.errors)}")
    return lines


# --- command line ------------------------------------------------------------------------------------


def add_inprocess_arguments(parser: argparse.ArgumentParser, hands: int = 20_000, repeats: int = 7) -> None:
    group = parser.add_argument_group("in-process")
    group.add_argument("--hands", type=int, default=hands, help="random hands per row size (default %(default)s)")
    group.add_argument(
        "--repeats", type=int, default=repeats, help="timed passes per evaluator; best counts (default %(default)s)"
    )
    group.add_argument("--seed", type=int, default=20260922, help="seed of the random hands (default %(default)s)")
    group.add_argument("--profile", choices=("auto", "always", "never"), default="auto",
                       help="profile our public path: auto = only when it misses its target (default)")  # fmt: skip
    group.add_argument("--skip-inprocess", action="store_true", help="skip the in-process part")


def add_http_arguments(
    parser: argparse.ArgumentParser, seconds: float = 20.0, rounds: int = 4, clients: int = 4
) -> None:
    group = parser.add_argument_group("HTTP")
    group.add_argument("--duration", type=float, default=seconds,
                       help="measured seconds per endpoint, split over the rounds (default %(default)s)")  # fmt: skip
    group.add_argument(
        "--rounds", type=int, default=rounds, help="alternating rounds per endpoint (default %(default)s)"
    )
    group.add_argument(
        "--warmup", type=float, default=1.0, help="unmeasured seconds per endpoint first (default %(default)s)"
    )
    group.add_argument("--clients", type=int, default=clients,
                       help="client processes, one connection each (default %(default)s)")  # fmt: skip
    group.add_argument("--workers", type=int, default=2, help="gunicorn WEB_CONCURRENCY (default %(default)s)")
    group.add_argument("--worker-class", default=None,
                       help="gunicorn worker class (default: gunicorn.conf.py's)")  # fmt: skip
    group.add_argument("--skip-http", action="store_true", help="skip the HTTP part")


def http_benchmark(endpoints: Sequence[Endpoint], args: argparse.Namespace,
                   check: Callable[[Endpoint, int, bytes], str | None] | None = None) -> list[LoadResult] | None:  # fmt: skip
    """Start gunicorn, pre-flight every endpoint (``check`` may reject a body: it returns a problem or
    None), load them, print the table; the server is stopped whatever happens. None if pre-flight fails."""
    heading("HTTP: gunicorn on the loopback")
    with GunicornServer(workers=args.workers, worker_class=args.worker_class) as server:
        say(f"server: gunicorn --config gunicorn.conf.py service.wsgi:app on {server.base_url}; "
            f"worker class {server.worker_class}, {len(server.worker_pids())} workers (WEB_CONCURRENCY={args.workers}); "
            f"access log on, as configured")  # fmt: skip
        say(f"load: {args.clients} client processes x 1 connection each, back to back, no think time; "
            f"{args.duration:g} s measured per endpoint in {args.rounds} alternating rounds after {args.warmup:g} s warm-up; "
            f"{os.cpu_count()} CPUs shared by server and clients")  # fmt: skip
        for endpoint in endpoints:
            status, body = endpoint.check(server.base_url)
            problem = None if status in endpoint.expect else f"status {status}: {body[:300]!r}"
            if problem is None and check is not None:
                problem = check(endpoint, status, body)
            if problem:
                say(f"PRE-FLIGHT FAILED for {endpoint.label}: {problem}")
                return None
            say(f"pre-flight {endpoint.label}: {status} OK")
        results = compare_endpoints(server, endpoints, args.duration, args.rounds, args.clients, args.warmup)
        for r in results:
            r.server = (
                f"gunicorn {server.worker_class} x {len(server.worker_pids())} workers, {args.clients} client processes"
            )
        say()
        say(load_table(results))
        problems = describe_problems(results)
        say("\n".join(problems) if problems else "every response had an expected status; no client-side errors")
        if server.worker_class == "sync":
            say("note: the sync worker answers with 'Connection: close', so every request opens a new TCP connection "
                "(req/conn = 1.0); the connect is inside the latency and in both endpoints alike.")  # fmt: skip
    return results


# --- mixed load over many connections ----------------------------------------------------------------
# ``run_load`` above keeps one connection per client process, for measuring one endpoint. ``run_mixed_load``
# drives many connections per process (non-blocking sockets and a selector), each sending a random mix of
# requests back to back, and records every request: its kind, status, start and end, or how it failed.


@dataclass(frozen=True)
class MixedRequest:
    """One kind of request in a mix: ``variants`` are complete HTTP/1.1 requests (one is picked at random
    each time), ``expect`` the statuses that count as a right answer, ``weight`` its share of the mix."""

    label: str
    variants: tuple[bytes, ...]
    expect: frozenset[int]
    weight: float
    group: str = "operation"


def http_request(method: str, path: str, body: bytes | None = None, content_type: str = "application/json",
                 headers: Sequence[tuple[str, str]] = (), chunked: bool = False) -> bytes:  # fmt: skip
    """A keep-alive HTTP/1.1 request as bytes; a body is sent with Content-Length, or in 8 KiB chunks."""
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: {LOOPBACK}",
        "Accept: application/json",
        *(f"{k}: {v}" for k, v in headers),
    ]
    payload = b""
    if body is not None:
        lines.append(f"Content-Type: {content_type}")
        if chunked:
            lines.append("Transfer-Encoding: chunked")
            parts = [body[i : i + 8192] for i in range(0, len(body), 8192)]
            payload = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"
        else:
            lines.append(f"Content-Length: {len(body)}")
            payload = body
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload


# failure reasons
CONNECT_FAILED = "connect failed"  # refused or reset before a request was sent: nothing was lost
NO_ANSWER = "no answer"  # request sent, connection closed or reset before any answer
CUT_ANSWER = "answer cut off"  # connection closed inside the answer
TIMED_OUT = "timed out"


class _MixedConn:
    __slots__ = ("sock", "state", "out", "inbuf", "index", "started", "reused", "head_end", "length", "chunked",
                 "close_after", "status", "retry_at")  # fmt: skip

    def __init__(self) -> None:
        self.sock: socket.socket | None = None
        self.state = "idle"
        self.retry_at = 0.0
        self.reset_answer()

    def reset_answer(self) -> None:
        self.inbuf = bytearray()
        self.head_end = -1
        self.length: int | None = None
        self.chunked = False
        self.close_after = False
        self.status = 0

    def answer_complete(self, eof: bool) -> bool:
        """Whether ``inbuf`` holds one whole answer (parsing its head once it has arrived)."""
        if self.head_end < 0:
            end = self.inbuf.find(b"\r\n\r\n")
            if end < 0:
                return False
            self.head_end = end + 4
            lines = bytes(self.inbuf[:end]).split(b"\r\n")
            parts = lines[0].split(b" ", 2)
            self.status = int(parts[1])
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                headers[name.strip().lower()] = value.strip().lower()
            if b"content-length" in headers:
                self.length = int(headers[b"content-length"])
            self.chunked = headers.get(b"transfer-encoding") == b"chunked"
            connection = headers.get(b"connection", b"")
            self.close_after = connection == b"close" or (parts[0] == b"HTTP/1.0" and connection != b"keep-alive")
            if self.length is None and not self.chunked:
                self.close_after = True
        body = len(self.inbuf) - self.head_end
        if self.length is not None:
            return body >= self.length
        if self.chunked:
            return self.inbuf.endswith(b"0\r\n\r\n")
        return eof


def _mixed_client(host: str, port: int, requests: Sequence[MixedRequest], connections: int, start_at: float,
                  end_at: float, seed: int, results: Any, request_timeout: float = 30.0) -> None:  # fmt: skip
    """One client process: ``connections`` connections, each sending requests back to back from
    ``start_at`` until ``end_at`` (``time.monotonic``); requests still in flight then are waited for.
    Sends back every completed request (kind, status, start, seconds) and every failure."""
    import random
    import selectors

    rng = random.Random(seed)
    population = list(range(len(requests)))
    weights = [r.weight for r in requests]
    picks: list[int] = []
    kinds, statuses, starts, seconds = array("H"), array("H"), array("d"), array("d")
    failures: list[tuple[float, float, int, str, bool]] = []  # (when, request start, kind, reason, reused)
    connects = 0
    selector = selectors.DefaultSelector()
    conns = [_MixedConn() for _ in range(connections)]
    monotonic = time.monotonic

    def close(conn: _MixedConn) -> None:
        if conn.sock is not None:
            try:
                selector.unregister(conn.sock)
            except (KeyError, ValueError):
                pass
            conn.sock.close()
            conn.sock = None

    def begin(conn: _MixedConn, now: float) -> None:
        nonlocal connects, picks
        if now >= end_at:
            close(conn)
            conn.state = "done"
            return
        if not picks:
            picks = rng.choices(population, weights, k=1024)
        conn.index = picks.pop()
        variants = requests[conn.index].variants
        conn.out = memoryview(variants[rng.randrange(len(variants))] if len(variants) > 1 else variants[0])
        conn.reset_answer()
        conn.started = now
        if conn.sock is None:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setblocking(False)
            conn.sock = sock
            conn.reused = False
            connects += 1
            error = sock.connect_ex((host, port))
            if error not in (0, errno.EINPROGRESS):
                fail_connect(conn, now)
                return
            conn.state = "connecting"
            selector.register(sock, selectors.EVENT_WRITE, conn)
        else:
            conn.reused = True
            conn.state = "sending"
            selector.modify(conn.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, conn)

    def fail_connect(conn: _MixedConn, now: float) -> None:
        failures.append((now, conn.started, conn.index, CONNECT_FAILED, False))
        close(conn)
        conn.state = "retry"
        conn.retry_at = now + 0.01  # do not spin on a refused connect

    def finish(conn: _MixedConn, now: float) -> None:
        kinds.append(conn.index)
        statuses.append(conn.status)
        starts.append(conn.started)
        seconds.append(now - conn.started)
        if (
            conn.close_after or conn.state == "sending"
        ):  # answered before the whole body went out: the rest is unsendable
            close(conn)
        begin(conn, now)

    def fail(conn: _MixedConn, now: float, reason: str) -> None:
        failures.append((now, conn.started, conn.index, reason, conn.reused))
        close(conn)
        begin(conn, now)

    def receive(conn: _MixedConn, now: float) -> None:
        try:
            data = conn.sock.recv(262144)  # type: ignore[union-attr]
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = None
        if data:
            conn.inbuf += data
            if conn.answer_complete(eof=False):
                finish(conn, now)
            return
        if conn.head_end >= 0 and conn.answer_complete(eof=True):
            finish(conn, now)
        else:
            fail(conn, now, CUT_ANSWER if conn.inbuf else NO_ANSWER)

    while (now := monotonic()) < start_at:
        time.sleep(min(0.005, start_at - now))
    cpu_start = time.process_time()
    for conn in conns:
        begin(conn, monotonic())
    while True:
        active = [c for c in conns if c.state != "done"]
        if not active:
            break
        now = monotonic()
        for conn in active:
            if conn.state == "retry" and now >= conn.retry_at:
                begin(conn, now)
            elif conn.state in ("connecting", "sending", "reading") and now - conn.started > request_timeout:
                fail(conn, now, TIMED_OUT)
        for key, events in selector.select(timeout=0.01):
            conn = key.data
            now = monotonic()
            if conn.sock is None or key.fileobj is not conn.sock:
                continue
            if conn.state == "connecting":
                error = conn.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if error:
                    fail_connect(conn, now)
                    continue
                conn.state = "sending"
                selector.modify(conn.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, conn)
                events = selectors.EVENT_WRITE
            if conn.state == "sending" and events & selectors.EVENT_READ:
                receive(conn, now)  # an early answer (413 before the whole body), or the connection closed
                continue
            if conn.state == "sending" and events & selectors.EVENT_WRITE:
                try:
                    sent = conn.sock.send(conn.out)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    receive(conn, now)  # the server may have answered, then closed
                    continue
                conn.out = conn.out[sent:]
                if not conn.out:
                    conn.state = "reading"
                    selector.modify(conn.sock, selectors.EVENT_READ, conn)
            elif conn.state == "reading" and events & selectors.EVENT_READ:
                receive(conn, now)
    selector.close()
    results.put({
        "kinds": kinds.tobytes(), "statuses": statuses.tobytes(), "starts": starts.tobytes(),
        "seconds": seconds.tobytes(), "failures": failures, "connects": connects, "cpu": time.process_time() - cpu_start,
    })  # fmt: skip


@dataclass
class MixedResult:
    """Every request of a mixed load: parallel arrays of completed requests, and the failures."""

    requests: Sequence[MixedRequest]
    kinds: array = field(default_factory=lambda: array("H"))
    statuses: array = field(default_factory=lambda: array("H"))
    starts: array = field(default_factory=lambda: array("d"))
    seconds: array = field(default_factory=lambda: array("d"))
    failures: list[tuple[float, float, int, str, bool]] = field(default_factory=list)
    connects: int = 0
    client_cpu: float = 0.0
    window: tuple[float, float] = (0.0, 0.0)

    @property
    def fives(self) -> int:
        return sum(1 for s in self.statuses if s >= 500)

    def per_kind(self) -> list[dict[str, Any]]:
        by_kind: list[dict[str, Any]] = [{"latencies": [], "statuses": Counter()} for _ in self.requests]
        for kind, status, elapsed in zip(self.kinds, self.statuses, self.seconds):
            entry = by_kind[kind]
            entry["latencies"].append(elapsed)
            entry["statuses"][status] += 1
        return by_kind


def nearest_rank_ms(latencies: Sequence[float], p: float) -> float | None:
    if not latencies:
        return None
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, max(0, int(-(-p * len(ordered) // 100)) - 1))] * 1000


def run_mixed_load(port: int, requests: Sequence[MixedRequest], seconds: float, connections: int, processes: int,
                   seed: int, during: Callable[[float, float], None] | None = None) -> MixedResult:  # fmt: skip
    """``connections`` connections spread over ``processes`` client processes send the mix for ``seconds``.
    ``during(start_at, end_at)`` runs in this process meanwhile (to kill a worker, stop the server...)."""
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    results = context.Queue()
    start_at = time.monotonic() + 0.5
    end_at = start_at + seconds
    shares = [connections // processes + (1 if i < connections % processes else 0) for i in range(processes)]
    workers = [context.Process(target=_mixed_client, args=(LOOPBACK, port, requests, share, start_at, end_at, seed + i, results),
                               daemon=True) for i, share in enumerate(shares) if share]  # fmt: skip
    for process in workers:
        process.start()
    result = MixedResult(requests, window=(start_at, end_at))
    try:
        if during is not None:
            during(start_at, end_at)
        parts = [results.get(timeout=seconds + 120) for _ in workers]
    finally:
        for process in workers:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    for part in parts:
        result.kinds.frombytes(part["kinds"])
        result.statuses.frombytes(part["statuses"])
        result.starts.frombytes(part["starts"])
        result.seconds.frombytes(part["seconds"])
        result.failures.extend(part["failures"])
        result.connects += part["connects"]
        result.client_cpu += part["cpu"]
    result.failures.sort()
    return result
