"""What each step of a round scored at 十三水 costs, in instructions per whole request, counted as
``instructions.py`` counts them (callgrind, whole WSGI requests in process, a baseline process subtracted):
the documented ``rounds/score`` at ``shisanshui`` as served, then with its specials check switched off (every
player scored by its duns: ``scoring._specials`` answers nobody), then with the answer's why switched off too
(``round_score`` shapes the house answer), beside the same body at ``ordinary``. A step's cost is the
difference between two rows.

    .venv/bin/python bench/thirteen_steps.py [--count N] [--jobs N]

Every process makes the same warm-up requests with the service as it is, and only then switches its step
off, so the rows differ by the counted requests alone. Figures in bench/README.md ("Thirteen at any table").
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import table
from bench.instructions import BASELINE, WARM_UP, app_requests, callgrind_total, per_request, service_targets

ORDINARY = "thirteen rounds/score"
SHISANSHUI = "thirteen rounds/score [shisanshui]"
WAYS = {
    "ordinary, as served": (ORDINARY, ()),
    "shisanshui, as served": (SHISANSHUI, ()),
    "shisanshui, no specials check": (SHISANSHUI, ("specials",)),
    "shisanshui, no specials check, no why": (SHISANSHUI, ("specials", "why")),
}
"""Each row: the request counted and the steps switched off."""


def switch_off(steps: Sequence[str]) -> None:
    """Switch ``steps`` off in this process: ``specials`` (nobody scored by a special) and ``why`` (the
    answer a house table gets)."""
    from service.api import thirteen as api
    from service.rules.thirteen import scoring

    if "specials" in steps:
        scoring._specials = lambda players, rules, shapes=None: scoring._NOBODY  # type: ignore[assignment]  # a step switched off
    if "why" in steps:
        shaped = api.round_score

        def house_answer(score: Any, rules: Any, detailed: bool) -> dict[str, Any]:
            return shaped(score, rules, False)

        api.round_score = house_answer


def phase(way: str, count: int) -> None:
    """Inside valgrind: the warm-up, then ``count`` requests of ``way`` (none for the baseline)."""
    request = app_requests()
    every = {t.label: t for t in service_targets()}
    for label in (ORDINARY, SHISANSHUI):
        for _ in range(WARM_UP):
            request(every[label])
    if way == BASELINE:
        return
    label, steps = WAYS[way]
    switch_off(steps)
    for _ in range(count):
        request(every[label])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="requests counted per row (default %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="valgrind processes at once")
    parser.add_argument("--phase", help=argparse.SUPPRESS)  # the process inside valgrind
    args = parser.parse_args(argv)
    if args.phase:
        phase(args.phase, args.count)
        return 0
    ways = [BASELINE, *WAYS]
    with ThreadPoolExecutor(args.jobs) as pool:
        totals = dict(zip(ways, pool.map(lambda way: callgrind_total(__file__, way, args.count), ways), strict=True))
    figures = per_request(totals, args.count)
    served = figures["shisanshui, as served"]
    ordinary = figures["ordinary, as served"]
    rows = [[way, f"{n:,.0f}", f"{n - served:+,.0f}", f"{n / ordinary:.3f}"] for way, n in figures.items()]
    print(f"instructions per whole request in process (callgrind, {args.count} requests each)")
    print(table(["rounds/score", "instructions", "over shisanshui as served", "of ordinary"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
