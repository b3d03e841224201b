"""A Thirteen table of its own against its rule set alone, whole requests in process, side by side: each
round sends the same operation three ways, in turn, so that the machine's drift hits all of them alike.

    .venv/bin/python bench/thirteen_tables.py [--count N] [--operation suggest|score]

* ``rule set``: the body at ``rule_set: shisanshui``, nothing else (the game's rule set, built once);
* ``new rules``: the same body with a ``rules`` object new for each request (attack.py's ``thirteen_table``:
  the table's rules are built for it, its kept tables never hit);
* ``new bonuses``: the same body with a ``bonuses`` table new for each request (attack.py's
  ``thirteen_bonuses``): for ``suggest``, the opponent tables are built again for those bonuses.

``suggest`` is ``/v1/thirteen/arrangements/suggest`` on attack.py's 13 cards (no alternatives), ``score``
``/v1/thirteen/rounds/score`` on the documented round. Each request's wall time (``perf_counter``) is taken
around the WSGI call, its answer read and closed; every answer must be a 200. Figures in bench/README.md,
"Thirteen at any table".
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="bench-thirteen-tables-"))

from bench.attack import thirteen_bonuses, thirteen_table, thirteen_table_suggest
from bench.common import table
from bench.floor import Target, example

FIRST = 1000  # the first table's number: none of them sent before


def bodies(operation: str) -> tuple[str, dict[str, Callable[[int], dict[str, Any]]]]:
    """The operation's path and, by way, the i-th request's body."""
    if operation == "suggest":
        base = {k: v for k, v in thirteen_table_suggest(0).items() if k != "rules"}
        path = "/v1/thirteen/arrangements/suggest"
    else:
        base = {**json.loads(example("thirteenScoreRound")), "rule_set": "shisanshui"}
        path = "/v1/thirteen/rounds/score"
    return path, {
        "rule set": lambda i: base,
        "new rules": lambda i: {**base, "rules": thirteen_table(i)},
        "new bonuses": lambda i: {**base, "bonuses": thirteen_bonuses(i)["bonuses"]},
    }


def timed(app: Any, path: str) -> Callable[[dict[str, Any]], float]:
    """One whole WSGI request of ``body`` to ``path``: its wall seconds (AssertionError unless a 200)."""
    from bench.request_cost import environ_for

    base = environ_for(Target("", "POST", path, "service", b"{}"))
    statuses: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> None:
        statuses.append(status)

    def request(body: dict[str, Any]) -> float:
        encoded = json.dumps(body, separators=(",", ":")).encode()
        environ = dict(base)
        environ["CONTENT_LENGTH"] = str(len(encoded))
        environ["wsgi.input"] = io.BytesIO(encoded)
        started = time.perf_counter()
        answer = app(environ, start_response)
        for _chunk in answer:
            pass
        answer.close()
        elapsed = time.perf_counter() - started
        assert statuses.pop().startswith("200"), f"{path}: not a 200"
        return elapsed

    return request


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=300, help="requests of each way (default %(default)s)")
    parser.add_argument("--operation", choices=["suggest", "score"], default="suggest")
    args = parser.parse_args(argv)

    from service.api import create_app

    app = create_app()
    path, ways = bodies(args.operation)
    request = timed(app, path)
    log = open(Path(tempfile.mkdtemp(prefix="bench-thirteen-tables-")) / "access.log", "w")  # noqa: SIM115
    stdout, sys.stdout = sys.stdout, log
    times: dict[str, list[float]] = {way: [] for way in ways}
    try:
        for make in ways.values():  # warm-up: the rule set's opponent tables and every shared cache
            for i in range(5):
                request(make(i))
        for i in range(FIRST, FIRST + args.count):
            for way, make in ways.items():
                times[way].append(request(make(i)))
    finally:
        sys.stdout = stdout
    alone = statistics.median(times["rule set"])
    rows = []
    for way, found in times.items():
        ordered = sorted(found)
        median = statistics.median(ordered)
        rows.append([way, len(found), f"{median * 1000:.2f}", f"{statistics.fmean(ordered) * 1000:.2f}",
                     f"{ordered[int(len(ordered) * 0.9)] * 1000:.2f}", f"{ordered[-1] * 1000:.2f}",
                     f"{(median - alone) * 1000:+.2f}", f"{median / alone:.2f}x"])  # fmt: skip
    print(f"{path} at shisanshui, whole requests in process, {args.count} of each way in turn")
    print(table(["way", "requests", "median ms", "mean ms", "p90 ms", "max ms", "median over rule set ms",
                 "of rule set"], rows))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
