"""Sizing: requests per second per core for every operation, and memory per worker, under gunicorn.

    .venv/bin/python bench/sizing.py                  # about 1.5 minutes with the defaults
    .venv/bin/python bench/sizing.py --duration 6     # longer windows, steadier figures

One gunicorn (``gunicorn.conf.py`` as deployed, its worker class, ``--workers`` workers, 1 by default) on the loopback,
loaded by ``--clients`` client processes (``bench.common.run_load``), each operation in turn with its
request example from ``examples/`` (so every figure is for a real request of the contract), ``/healthz``
first as the floor. Two figures per operation:

- ``req/s measured``: what this server answered on this shared 2-core machine, clients included;
- ``req/s per core``: 1000 / server CPU ms per request (master and workers, from /proc), i.e. what one
  fully busy core serves. This is the figure for capacity planning: it does not depend on how many cores
  the load generator took from the server here. Plan on ~70 % of it (a core is never 100 % usable, and
  the HPA in deploy/kubernetes scales out at 70 %).

Memory: proportional set size (PSS: shared pages split among the processes sharing them; the rules tables
are loaded once in the master and shared copy-on-write) of the master and each worker after the load.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

import yaml

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import ROOT, Endpoint, GunicornServer, heading, rate, run_load, say, table


def pss_kib(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    found = re.search(r"^Pss:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else None


def endpoints() -> list[Endpoint]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    found = [Endpoint("GET /healthz", "GET", "/healthz")]
    for path, item in spec["paths"].items():
        for method, op in item.items():
            example = ROOT / "examples" / f"{op['operationId']}.json"
            if method == "post" and example.exists():
                found.append(
                    Endpoint.post_json(op["operationId"], path, json.loads(example.read_text(encoding="utf-8")))
                )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--duration", type=float, default=4.0, help="measured seconds per operation (default %(default)s)"
    )
    parser.add_argument(
        "--warmup", type=float, default=0.5, help="unmeasured seconds per operation first (default %(default)s)"
    )
    parser.add_argument(
        "--clients", type=int, default=2, help="client processes, one connection each (default %(default)s)"
    )
    parser.add_argument("--workers", type=int, default=1, help="gunicorn WEB_CONCURRENCY (default %(default)s)")
    args = parser.parse_args()

    # Worker recycling (gunicorn's max_requests) would replace a worker inside a window; not while measuring.
    os.environ.setdefault("GUNICORN_MAX_REQUESTS", "0")
    heading("Sizing: gunicorn on the loopback, every operation's request example")
    rows = []
    with GunicornServer(workers=args.workers) as server:
        say(f"server: gunicorn --config gunicorn.conf.py service.wsgi:app, {server.worker_class} worker class, "
            f"{len(server.worker_pids())} worker(s); load: {args.clients} client processes, one connection each, "
            f"{args.duration:g} s per operation after {args.warmup:g} s warm-up; {os.cpu_count()} CPUs shared by server and clients")  # fmt: skip
        for endpoint in endpoints():
            status, body = endpoint.check(server.base_url)
            if status != 200:
                say(f"PRE-FLIGHT FAILED for {endpoint.label}: {status} {body[:200]!r}")
                return 1
            if args.warmup > 0:
                run_load(server, endpoint, args.warmup, args.clients)
            for _attempt in range(3):  # a worker replaced inside the window takes its CPU time with it: measure again
                pids = server.worker_pids()
                result = run_load(server, endpoint, args.duration, args.clients)
                if server.worker_pids() == pids:
                    break
            else:
                result.server_cpu = None
            cpu_ms = result.server_cpu_ms_per_request
            unexpected = sum(result.unexpected.values()) + sum(result.errors.values())
            rows.append([
                endpoint.label, endpoint.path, rate(result.per_second),
                "n/a" if cpu_ms is None else f"{cpu_ms:.2f}", "n/a" if not cpu_ms else rate(1000 / cpu_ms),
                f"{result.percentile_ms(50):.2f}", f"{result.percentile_ms(99):.2f}", unexpected,
            ])  # fmt: skip
            say(f"  {endpoint.label:<36} {rows[-1][2]:>7} req/s measured, {rows[-1][4]:>7} req/s per core")
        master = server.process.pid if server.process else None
        memory = {"master": pss_kib(master) if master else None}
        for i, pid in enumerate(server.worker_pids()):
            memory[f"worker {i + 1}"] = pss_kib(pid)
    say()
    say(table(["operation", "path", "req/s measured", "server CPU ms/req", "req/s per core", "p50 ms", "p99 ms", "non-200/errors"],
              rows, "llrrrrrr"))  # fmt: skip
    say()
    say(
        "memory (PSS) after the load: "
        + ", ".join(f"{k} {v / 1024:.1f} MiB" if v else f"{k} n/a" for k, v in memory.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
