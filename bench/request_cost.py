"""Every operation of ``bench/floor.py``, whole requests in process: what a change to the request path or
to the rules moves, without a server. One WSGI call loop per endpoint, the process's CPU time,
best of ``--repeats``; the access log goes to a file, as under gunicorn.

    .venv/bin/python bench/request_cost.py [--only LABEL] [--count N]

``over healthz`` is what the endpoint costs above ``GET /healthz`` in process. ``budget`` is what it may
cost above it for floor.py's ratio to hold over HTTP, where each request also pays the server and the
kernel: with ``/healthz`` at ``--healthz-http`` microseconds of server CPU (floor.py's figure) and a
POST's body costing ``--post-extra`` more than a GET (floor.py's Flask POST against its GET), an endpoint
with target ``r`` may add ``healthz_http / r - healthz_http - post_extra`` over HTTP. A microsecond
measured here, in a hot loop, costs about ``--under-load`` microseconds of server CPU under floor.py's
load. Most of that is not the code's own: inside a whole request the same parts cost more than their
tight-loop time (caches shared with the rest of the request), and a loop on one CPU costs more while the
other CPU is busy. So the budget in process is the HTTP one divided by it. Figures in bench/README.md.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="bench-request-cost-"))

from bench.common import table
from bench.floor import Target, targets


def environ_for(t: Target) -> dict[str, object]:
    from werkzeug.test import EnvironBuilder

    builder = EnvironBuilder(path=t.path, method=t.method, data=t.body, headers=list(t.headers),
                             content_type="application/json" if t.body else None)  # fmt: skip
    return builder.get_environ()


def cost(app: object, t: Target, count: int, repeats: int) -> float:
    """Best CPU microseconds per whole request (the answer read and closed, as a server does)."""
    base = environ_for(t)
    body = t.body or b""

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> None:
        return None

    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        for _ in range(count):
            environ = dict(base)
            environ["wsgi.input"] = io.BytesIO(body)
            answer = app(environ, start_response)  # type: ignore[operator]
            for _chunk in answer:
                pass
            answer.close()
        best = min(best, (time.process_time() - started) / count * 1e6)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="only the endpoints whose label contains this (and /healthz)")
    parser.add_argument("--count", type=int, default=2000, help="requests per repeat (default %(default)s)")
    parser.add_argument("--repeats", type=int, default=5, help="best of (default %(default)s)")
    parser.add_argument("--healthz-http", type=float, default=450.0, help="floor.py's /healthz CPU us/req")
    parser.add_argument("--post-extra", type=float, default=50.0, help="floor.py's Flask POST over its GET, us")
    parser.add_argument("--under-load", type=float, default=2.5,
                        help="server CPU under floor.py's load per microsecond measured here (default %(default)s)")  # fmt: skip
    args = parser.parse_args(argv)

    from service.api import create_app

    app = create_app()
    log = open(Path(tempfile.mkdtemp(prefix="bench-request-cost-")) / "access.log", "w")  # noqa: SIM115
    found = [t for t in targets() if t.server == "service" and (t.group == "healthz" or args.only in t.label)]
    stdout, sys.stdout = sys.stdout, log
    try:
        figures = [(t, cost(app, t, max(50, args.count // (20 if t.group == "replay" else 1)), args.repeats))
                   for t in found]  # fmt: skip
    finally:
        sys.stdout = stdout
    healthz = next(us for t, us in figures if t.group == "healthz")
    rows = []
    for t, us in figures:
        over = us - healthz
        post = args.post_extra if t.method == "POST" else 0.0
        budget = (args.healthz_http / t.goal - args.healthz_http - post) / args.under_load if t.goal else None
        rows.append([t.label, f"{us:,.1f}", f"{over:+,.1f}", "" if budget is None else f"{budget:,.0f}",
                     "" if budget is None else ("yes" if over <= budget else "NO")])  # fmt: skip
    print(table(["endpoint", "us/request", "over healthz", "budget", "within"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
