"""What ``GET /metrics`` costs once a day of varied and hostile traffic has made its series, and what clients
fetching it in a loop do to the rest of the service. Run: ``.venv/bin/python bench/metrics.py`` (about a
minute). Figures: bench/README.md (timings live there only).

1. gunicorn with the project's gunicorn.conf.py (``--workers``) gets ``--requests`` requests, one connection
   each (``varied_requests``): every path of the contract with every method below (HTTP's seven and four
   others), every POST operation with a body of each wrong kind (not JSON, not sent as JSON, invalid, over
   the limit) and unknown paths of many shapes.
2. The text /metrics then answers: its sample lines, the label sets of the request counter and of the
   latency histogram, its size, the files in the metrics directory; and the render in this process, as
   the service makes it (prometheus-client's ``MultiProcessCollector`` over that directory, then
   ``generate_latest``): best and median of ``--renders``, and the part spent reading and merging the files.
3. ``GET /healthz`` from one client process (keep-alive) for ``--seconds``, alone and while 8 and then 16
   client processes fetch ``/metrics`` in a loop: its p50 and p99, and how many /metrics answers they got.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import socket
import statistics
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml

from bench.common import LOOPBACK, ROOT, Endpoint, GunicornServer, _client, heading, say, table

METHODS_SENT = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "BREW", "PROPFIND", "M-SEARCH")
# Unknown paths: made of a real path, a prefix of one, a trailing segment, escapes and dot segments.
UNKNOWN_PATHS = ("/v1/ofc-pineapple/rows/{}", "/{}", "/metrics/{}", "/healthz/{}", "/v1/{}/hands/score", "/static/{}",
                 "/docs/assets/{}", "/%7B{}%7D", "/v1/big-two/plays/classify/../{}")  # fmt: skip
SAMPLE = re.compile(r"^(\w+)(?:\{([^}]*)\})? \S+$")


def contract_operations() -> list[tuple[str, str, bytes]]:
    """(method, path, the request example's JSON or b"") of every operation of openapi.yaml."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    found = []
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            example = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("example")
            found.append((method.upper(), path, b"" if example is None else json.dumps(example).encode()))
    return found


def raw_request(method: str, path: str, body: bytes = b"", content_type: str = "application/json",
                length: int | None = None) -> bytes:  # fmt: skip
    """One request that closes its connection; ``length`` announces a body that is not sent."""
    head = f"{method} {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nConnection: close\r\n"
    if body or length is not None:
        head += f"Content-Type: {content_type}\r\nContent-Length: {len(body) if length is None else length}\r\n"
    return head.encode() + b"\r\n" + body


def varied_requests(count: int = 1000) -> list[bytes]:
    """``count`` requests (at least the contract's part, about 500): every operation's path with every method
    of ``METHODS_SENT`` (its example as the body of a POST), every POST operation with a malformed body, a
    body not sent as JSON, an invalid one and one announced over the limit; then unknown paths, each
    ``hostile-N`` somewhere, with those methods in turn, a third of them with a body."""
    sent = []
    for operation_method, path, example in contract_operations():
        sent += [raw_request(method, path, example if method == "POST" else b"") for method in METHODS_SENT]
        if operation_method == "POST":
            sent += [raw_request("POST", path, b"{not json"), raw_request("POST", path, b"[]", "text/plain"),
                     raw_request("POST", path, b'{"unknown": 1}'), raw_request("POST", path, length=10**6)]  # fmt: skip
    for i in range(count - len(sent)):
        path = UNKNOWN_PATHS[i % len(UNKNOWN_PATHS)].format(f"hostile-{i}")
        sent.append(raw_request(METHODS_SENT[i % len(METHODS_SENT)], path, b"{}" if i % 3 == 0 else b""))
    return sent


def send(port: int, request: bytes) -> int | str:
    """The status of the answer to ``request`` on a new connection, read until the server closes it (or the
    name of the error that ended it first: a refused body's connection may close early)."""
    try:
        with socket.create_connection((LOOPBACK, port), timeout=10) as sock:
            sock.sendall(request)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError as error:
        return type(error).__name__
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else "no answer"


def fetch_metrics(port: int) -> bytes:
    with socket.create_connection((LOOPBACK, port), timeout=30) as sock:
        sock.sendall(raw_request("GET", "/metrics"))
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.split(b" ", 2)[1] == b"200", head
    return body


def label_sets(text: str) -> dict[str, set[tuple[tuple[str, str], ...]]]:
    """Each metric's label sets (without ``le``), by sample name."""
    found: dict[str, set[tuple[tuple[str, str], ...]]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            match = SAMPLE.match(line)
            assert match, line
            labels = tuple(sorted((k, v) for k, v in re.findall(r'(\w+)="([^"]*)"', match[2] or "") if k != "le"))
            found.setdefault(match[1], set()).add(labels)
    return found


def render_times(directory: str, renders: int) -> tuple[list[float], list[float]]:
    """Seconds of each whole render of ``directory`` and of its reading and merging part alone."""
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    whole, reading = [], []
    for _ in range(renders):
        registry = CollectorRegistry()
        collector = MultiProcessCollector(registry, path=directory)
        started = time.perf_counter()
        list(collector.collect())
        reading.append(time.perf_counter() - started)
        started = time.perf_counter()
        generate_latest(registry)
        whole.append(time.perf_counter() - started)
    return whole, reading


def healthz_beside_metrics(server: GunicornServer, metrics_port: int, clients: int,
                           seconds: float) -> tuple[array[float], int]:  # fmt: skip
    """/healthz latencies (seconds) of one keep-alive client while ``clients`` processes fetch /metrics in a
    loop, and how many /metrics answers they got."""
    context = multiprocessing.get_context("fork")
    probed, scraped = context.Queue(), context.Queue()
    start_at = time.monotonic() + 0.5
    end_at = start_at + seconds
    probe = Endpoint("healthz", "GET", "/healthz").raw_request(LOOPBACK, server.port)
    scrape = Endpoint("metrics", "GET", "/metrics").raw_request(LOOPBACK, metrics_port)
    processes = [context.Process(target=_client, args=(LOOPBACK, server.port, probe, start_at, end_at, probed))]
    processes += [context.Process(target=_client, args=(LOOPBACK, metrics_port, scrape, start_at, end_at, scraped))
                  for _ in range(clients)]  # fmt: skip
    for process in processes:
        process.start()
    healthz = array("d", probed.get(timeout=seconds + 60)["latencies"])
    answered = sum(len(array("d", scraped.get(timeout=seconds + 60)["latencies"])) for _ in range(clients))
    for process in processes:
        process.join(timeout=10)
    return healthz, answered


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000, help="varied requests sent first (default %(default)s)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default %(default)s)")
    parser.add_argument("--renders", type=int, default=20, help="renders timed in process (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=5.0, help="each /healthz row (default %(default)s)")
    args = parser.parse_args(argv)

    directory = tempfile.mkdtemp(prefix="bench-metrics-")
    env = {"PROMETHEUS_MULTIPROC_DIR": directory, "LOG_LEVEL": "warning"}
    with GunicornServer(workers=args.workers, env=env) as server:
        metrics_port = server.metrics_port
        statuses = Counter(send(server.port, request) for request in varied_requests(args.requests))
        heading(f"{args.requests} varied requests, {args.workers} workers")
        say("answers: " + ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items(), key=str)))
        time.sleep(1.1)
        text = fetch_metrics(metrics_port).decode()
        sets = label_sets(text)
        samples = sum(1 for line in text.splitlines() if line and not line.startswith("#"))
        files = sorted(p.name for p in Path(directory).glob("*.db"))
        whole, reading = render_times(directory, args.renders)
        say(table(["what", "value"], [
            ("sample lines", samples),
            ("label sets: card_rules_http_requests_total", len(sets.get("card_rules_http_requests_total", ()))),
            ("label sets: card_rules_http_request_duration_seconds",
             len(sets.get("card_rules_http_request_duration_seconds_count", ()))),
            ("bytes", f"{len(text.encode()):,}"),
            (f"files read ({', '.join(files)})", len(files)),
            ("render ms, best", ms(min(whole))),
            ("render ms, median", ms(statistics.median(whole))),
            ("  of which reading and merging the files, median", ms(statistics.median(reading))),
        ]))  # fmt: skip

        heading(f"GET /healthz (one keep-alive client) beside clients looping GET /metrics, {args.seconds:.0f} s each")
        rows = []
        for clients in (0, 8, 16):
            healthz, answered = healthz_beside_metrics(server, metrics_port, clients, args.seconds)
            ordered = sorted(healthz)
            rows.append((clients, len(ordered), ms(ordered[len(ordered) // 2]) if ordered else "n/a",
                         ms(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]) if ordered else "n/a",
                         answered))  # fmt: skip
        say(table(["/metrics clients", "/healthz answers", "p50 ms", "p99 ms", "/metrics answers"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
