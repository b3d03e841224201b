"""Production load test: every operation of openapi.yaml plus malformed and oversized requests, on many
concurrent connections, against gunicorn started here with the project's gunicorn.conf.py. Run:
``.venv/bin/python bench/load.py`` (60 s) or ``.venv/bin/python bench/load.py --kill-worker``.

The mix: 80% well-formed requests, one kind per operation of the spec in equal shares, each sending the
operation's request example (so a new operation joins the mix by being in the spec); 20% malformed ones
in equal shares, each built from every POST operation's example: bad JSON (400), wrong content type (415),
an unknown field (422), a body over the limit with Content-Length and chunked (413), nesting deeper
than the limit (422, at several depths up to thousands of levels).

Requirements checked (exit status 1 when one fails):
  * no 5xx answer and no dropped connection (a request sent and never answered) during the load;
  * every answer has the status its kind expects (the pre-flight status for operations);
  * with ``--kill-worker``: one worker is SIGKILLed during the load; the master replaces it; only the
    requests that worker held may fail (sent before the kill, failed within seconds after it);
  * at the end, while the load still runs: SIGTERM to the master. The requests in flight are answered,
    new connections are refused (not dropped), and the master exits 0 within graceful_timeout.

Prints a table per kind of request (count, p50/p99, statuses), the failures, and each worker's resident
memory (RSS) after a warm-up and after the load.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

import yaml

from bench.common import (
    CONNECT_FAILED,
    ROOT,
    GunicornServer,
    MixedRequest,
    MixedResult,
    heading,
    http_request,
    nearest_rank_ms,
    run_mixed_load,
    say,
    table,
)  # fmt: skip

MAX_BODY = int(os.environ.get("CARD_RULES_MAX_BODY_BYTES", 64 * 1024))
DEPTH_LIMIT = 32
METHODS = ("get", "post", "put", "patch", "delete")


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def spec_operations(spec: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """(METHOD, path, request example or None) for every operation of the spec, in its order."""
    operations = []
    for path, item in spec["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            example = None
            if "requestBody" in operation:
                media = operation["requestBody"]["content"]["application/json"]
                example = media["example"] if "example" in media else next(iter(media["examples"].values()))["value"]
            operations.append((method.upper(), path, example))
    return operations


def build_mix(spec: dict[str, Any], malformed_share: float) -> list[MixedRequest]:
    operations = spec_operations(spec)
    posts = [(path, example) for method, path, example in operations if method == "POST"]
    mix = [
        MixedRequest(f"{method} {path}", (http_request(method, path, None if example is None else compact(example)),),
                     frozenset(), (1 - malformed_share) / len(operations))
        for method, path, example in operations
    ]  # fmt: skip
    oversized = lambda body: body + b" " * (MAX_BODY + 1024 - len(body))  # noqa: E731 - valid JSON, too long

    def deep(depth: int) -> bytes:
        return b'{"nested":' + b"[" * depth + b"]" * depth + b"}"

    malformed = {
        "malformed: bad JSON": (400, [http_request("POST", p, compact(e)[:-1]) for p, e in posts]),
        "malformed: wrong content type": (
            415,
            [http_request("POST", p, compact(e), content_type="text/plain") for p, e in posts],
        ),
        "malformed: unknown field": (
            422,
            [
                http_request("POST", p, compact({**e, "unexpected_field": [1, 2]}))
                for p, e in posts
                if isinstance(e, dict)
            ],
        ),  # fmt: skip
        "oversized: Content-Length": (413, [http_request("POST", p, oversized(compact(e))) for p, e in posts]),
        "oversized: chunked": (413, [http_request("POST", p, oversized(compact(e)), chunked=True) for p, e in posts]),
        "deep nesting (33 to 30,000 levels)": (
            422,
            [http_request("POST", p, deep(depth)) for p, _ in posts for depth in (DEPTH_LIMIT, 200, 5000, 30000)],
        ),  # fmt: skip
    }
    share = malformed_share / len(malformed)
    mix += [MixedRequest(label, tuple(variants), frozenset({status}), share, group="malformed")
            for label, (status, variants) in malformed.items()]  # fmt: skip
    return mix


def preflight(port: int, mix: list[MixedRequest]) -> list[MixedRequest] | None:
    """Send each variant once; an operation expects the status its example got (a 2xx), a malformed kind
    its documented status. None (and a message) if anything is off."""
    import socket

    from bench.common import _MixedConn

    checked = []
    for request in mix:
        seen = Counter()
        for raw in request.variants:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(raw)
                conn = _MixedConn()
                while True:
                    data = sock.recv(262144)
                    conn.inbuf += data
                    if conn.answer_complete(eof=not data) or not data:
                        break
                seen[conn.status] += 1
        if request.group == "operation":
            statuses = set(seen)
            if len(statuses) != 1 or not 200 <= min(statuses) < 300:
                say(f"PRE-FLIGHT FAILED: {request.label}: the spec's request example answered {dict(seen)}")
                return None
            request = MixedRequest(request.label, request.variants, frozenset(statuses), request.weight, request.group)
        elif set(seen) != set(request.expect):
            say(f"PRE-FLIGHT FAILED: {request.label}: expected {sorted(request.expect)}, got {dict(seen)}")
            return None
        checked.append(request)
    return checked


def ms(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1f}"


def kinds_table(result: MixedResult) -> tuple[str, int]:
    rows, wrong = [], 0
    for request, entry in zip(result.requests, result.per_kind()):
        statuses = entry["statuses"]
        unexpected = sum(n for s, n in statuses.items() if s not in request.expect)
        wrong += unexpected
        rows.append([
            request.label, f"{len(entry['latencies']):,}", ms(nearest_rank_ms(entry["latencies"], 50)),
            ms(nearest_rank_ms(entry["latencies"], 99)), " ".join(f"{s}:{n:,}" for s, n in sorted(statuses.items())),
            sum(n for s, n in statuses.items() if s >= 500), unexpected,
        ])  # fmt: skip
    everything = list(result.seconds)
    rows.append(["all", f"{len(everything):,}", ms(nearest_rank_ms(everything, 50)), ms(nearest_rank_ms(everything, 99)),
                 " ".join(f"{s}:{n:,}" for s, n in sorted(Counter(result.statuses).items())), result.fives, wrong])  # fmt: skip
    return table(["request", "count", "p50 ms", "p99 ms", "statuses", "5xx", "unexpected"], rows), wrong


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load (default %(default)s)")
    parser.add_argument("--connections", type=int, default=64, help="concurrent connections (default %(default)s)")
    parser.add_argument("--processes", type=int, default=4, help="client processes sharing them (default %(default)s)")
    parser.add_argument(
        "--malformed", type=float, default=0.2, help="share of malformed requests (default %(default)s)"
    )
    parser.add_argument(
        "--workers", type=int, default=cores(), help="WEB_CONCURRENCY (default: the cores, %(default)s)"
    )
    parser.add_argument("--worker-class", default=None, help="override gunicorn.conf.py's worker class")
    parser.add_argument("--threads", type=int, default=None, help="GUNICORN_THREADS (default: gunicorn.conf.py's)")
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="unmeasured seconds of the same load first (default %(default)s)"
    )
    parser.add_argument("--kill-worker", action="store_true", help="SIGKILL one worker during the load")
    parser.add_argument(
        "--kill-at", type=float, default=0.4, help="when, as a fraction of the duration (default %(default)s)"
    )
    parser.add_argument("--drain-lead", type=float, default=1.0,
                        help="SIGTERM the master this many seconds before the load ends (default %(default)s)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=20260922, help="seed of the mix (default %(default)s)")
    args = parser.parse_args(argv)

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    mix = build_mix(spec, args.malformed)
    env = {"GUNICORN_THREADS": str(args.threads)} if args.threads else {}
    heading("Mixed load against gunicorn on the loopback")
    with GunicornServer(workers=args.workers, worker_class=args.worker_class, env=env) as server:
        graceful = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", 20))
        say(f"server: gunicorn --config gunicorn.conf.py service.wsgi:app on {server.base_url}; worker class "
            f"{server.worker_class}{f' ({args.threads} threads)' if args.threads else ''}, {args.workers} workers; {cores()} CPUs shared with the clients")  # fmt: skip
        say(f"load: {args.connections} connections over {args.processes} client processes, back to back, for {args.duration:g} s "
            f"after {args.warmup:g} s of warm-up; {len([m for m in mix if m.group == 'operation'])} operations from openapi.yaml "
            f"({1 - args.malformed:.0%}), {len([m for m in mix if m.group != 'operation'])} kinds of malformed request ({args.malformed:.0%})")  # fmt: skip
        checked = preflight(server.port, mix)
        if checked is None:
            return 1
        say("pre-flight: every request example answers 2xx; every malformed kind its expected status")
        if args.warmup > 0:
            run_mixed_load(server.port, checked, args.warmup, args.connections, args.processes, args.seed + 1000)
        memory_before = server.rss_kib()
        events: dict[str, Any] = {}

        def during(start_at: float, end_at: float) -> None:
            if args.kill_worker:
                time.sleep(max(0.0, start_at + args.duration * args.kill_at - time.monotonic()))
                pids = server.worker_pids()
                victim = pids[0]
                events["kill"] = time.monotonic()
                os.kill(victim, signal.SIGKILL)
                events["victim"] = victim
                replaced = server.wait_for_workers(len(pids), exclude=[victim])
                events["replaced"] = None if replaced is None else time.monotonic() - events["kill"]
                events["new pid"] = None if replaced is None else sorted(set(replaced) - set(pids))
            time.sleep(max(0.0, end_at - args.drain_lead - time.monotonic()))
            events["memory after"] = server.rss_kib()
            events["sigterm"] = time.monotonic()
            code, took = server.terminate(timeout=graceful + 30)
            events["exit"], events["drain"] = code, took

        result = run_mixed_load(
            server.port, checked, args.duration, args.connections, args.processes, args.seed, during
        )
    return report(result, events, memory_before, args, graceful)


def report(result: MixedResult, events: dict[str, Any], memory_before: dict[int, int], args: argparse.Namespace,
           graceful: int) -> int:  # fmt: skip
    start_at, end_at = result.window
    sigterm = events.get("sigterm", end_at)
    kill = events.get("kill")
    ok = True

    before_term = [f for f in result.failures if f[0] < sigterm]
    held = [f for f in before_term if kill is not None and f[1] < kill <= f[0] < kill + 5.0 and f[3] != CONNECT_FAILED]
    dropped = [f for f in before_term if f not in held]
    after_term = [f for f in result.failures if f[0] >= sigterm]
    refused = [f for f in after_term if f[3] == CONNECT_FAILED]
    lost_in_drain = [f for f in after_term if f[3] != CONNECT_FAILED]
    drained = [
        (k, s)
        for k, s, t, d in zip(result.kinds, result.statuses, result.starts, result.seconds)
        if t < sigterm <= t + d
    ]

    heading("Results")
    text, wrong = kinds_table(result)
    say(text)
    served = sum(1 for t, d in zip(result.starts, result.seconds) if t + d <= sigterm)
    say(
        f"\n{len(result.seconds):,} answers, {served / (sigterm - start_at):,.0f} req/s before SIGTERM; "
        f"{result.connects:,} connections opened; client CPU {result.client_cpu:.1f} s"
    )
    say(f"5xx answers: {result.fives}; answers with an unexpected status: {wrong}")
    say(f"dropped connections (request sent, no answer) outside the killed worker: {len(dropped)}")
    for (label, reason, reused), n in Counter((result.requests[f[2]].label, f[3], f[4]) for f in dropped).most_common(
        12
    ):
        say(f"  {n:,} x {label}: {reason}{' (reused connection)' if reused else ''}")
    ok &= result.fives == 0 and wrong == 0 and not dropped

    if args.kill_worker:
        replaced = events.get("replaced")
        say(f"\nkill-worker: worker {events['victim']} SIGKILLed at {kill - start_at:.2f} s; the master started "
            + (f"worker {events['new pid']} {replaced * 1000:.0f} ms later" if replaced is not None else "NO replacement within 30 s"))  # fmt: skip
        reasons = Counter(f[3] for f in held)
        say(f"  requests the killed worker held that failed: {len(held)} {dict(reasons) if reasons else ''}".rstrip())
        ok &= replaced is not None

    exit_code, drain = events.get("exit"), events.get("drain")
    statuses = Counter(s for _, s in drained)
    say(f"\ndrain: SIGTERM to the master at {sigterm - start_at:.2f} s, {args.drain_lead:g} s before the load ended; "
        f"master exited with {exit_code} after {drain:.2f} s (graceful_timeout {graceful} s)")  # fmt: skip
    say(f"  requests in flight at SIGTERM and answered: {len(drained)} {dict(statuses)}")
    say(
        f"  requests in flight at SIGTERM and lost: {len(lost_in_drain)} {dict(Counter(f[3] for f in lost_in_drain)) or ''}".rstrip()
    )
    for when, started, kind, reason, reused in lost_in_drain[:10]:
        say(f"    {result.requests[kind].label}: sent {started - sigterm:+.3f} s from SIGTERM, {reason} at {when - sigterm:+.3f} s"
            f"{' (reused connection)' if reused else ' (new connection)'}")  # fmt: skip
    say(f"  connection attempts refused after SIGTERM (expected: nothing was sent): {len(refused):,}")
    ok &= (
        exit_code == 0
        and drain is not None
        and drain < graceful
        and not lost_in_drain
        and all(s < 500 for s in statuses)
    )

    after = events.get("memory after", {})
    say("\nworker memory (RSS, MiB): after the warm-up -> at the end of the load")
    rows = [[pid, f"{memory_before[pid] / 1024:.1f}" if pid in memory_before else "-", f"{after[pid] / 1024:.1f}" if pid in after else "-"]
            for pid in sorted(set(memory_before) | set(after))]  # fmt: skip
    say(table(["worker pid", "before", "after"], rows))
    say("\n" + ("ALL REQUIREMENTS MET" if ok else "REQUIREMENTS NOT MET"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
