"""The solvers: ``POST /v1/ofc-pineapple/fantasyland/solve`` and ``POST /v1/joker-thirteen/arrangements/suggest``.

Three parts, each skippable:
  * in process: the rules core's time per answer (p50, p99, max) on seeded random deals: Fantasyland with
    14, 15, 16 and 17 cards, Joker Thirteen with 13 and 17 cards (0-3 jokers as the deal gives them);
    targets 14 cards p99 < 250 ms, 17 cards p99 < 1 s; 13 cards p99 < 100 ms, 17 cards p99 < 1 s;
  * HTTP: requests per second of both operations beside ``GET /healthz`` on one gunicorn;
  * ``--naive-deals`` (default 10,000): Joker Thirteen deals of 4 x 17 cards from the 68-card deck (seeded);
    seat 0 arranges by ``suggest``, seats 1-3 by the naive arranger (strongest tail, then strongest middle),
    and ``score_round`` scores the round; the same deal is scored again with seat 0 naive too. The mean of
    seat 0's score, and of the difference, with standard errors, says whether suggest beats naive.

Run: ``.venv/bin/python bench/solvers.py`` (``--help`` for the options).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench import common  # noqa: E402
from bench.common import Endpoint, heading, rate, ratio_text, say, table  # noqa: E402
from service.rules import thirteen as j13  # noqa: E402
from service.rules.cards import DECK  # noqa: E402
from service.rules.ofc import fantasyland  # noqa: E402
from service.rules.thirteen import suggest  # noqa: E402

SOLVE_PATH = "/v1/ofc-pineapple/fantasyland/solve"
SUGGEST_PATH = "/v1/joker-thirteen/arrangements/suggest"
SOLVE_BODY = {"cards": ["As", "Ks", "Qs", "Js", "Ts", "9h", "9d", "9c", "4s", "4h", "2d", "3c", "5h", "7d"]}
SUGGEST_BODY = {"cards": ["As", "As", "Ks", "Qd", "Qc", "9h", "9d", "8c", "7s", "5h", "4d", "3c", "JK"]}


def percentile(sorted_ms: Sequence[float], p: float) -> float:
    """Nearest rank."""
    return sorted_ms[max(0, math.ceil(p / 100 * len(sorted_ms)) - 1)]


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1e3


def inprocess(args: argparse.Namespace) -> None:
    heading("In process: the rules core's time per answer (ms)")
    rows = []
    rng = random.Random(args.seed)
    for size, target in ((14, 250), (15, None), (16, None), (17, 1000)):
        deals = [rng.sample(DECK, size) for _ in range(args.deals)]
        ms = sorted(timed(lambda d=d: fantasyland.solve(d)) for d in deals)
        rows.append(
            [
                f"fantasyland/solve {size} cards",
                len(ms),
                f"{percentile(ms, 50):.1f}",
                f"{percentile(ms, 99):.1f}",
                f"{ms[-1]:.1f}",
                _target(ms, target),
            ]
        )
    suggest.opponent_tables()  # loaded once per process, as the service does at its first request
    for size, target in ((13, 100), (17, 1000)):
        hands = [rng.sample(j13.GAME_DECK, size) for _ in range(args.deals)]
        ms = sorted(timed(lambda h=h: suggest.suggest(h)) for h in hands)
        rows.append(
            [
                f"arrangements/suggest {size} cards",
                len(ms),
                f"{percentile(ms, 50):.1f}",
                f"{percentile(ms, 99):.1f}",
                f"{ms[-1]:.1f}",
                _target(ms, target),
            ]
        )
    say(f"seed {args.seed}; {args.deals} random deals per row; Joker Thirteen hands drawn from the 68-card deck")
    say(table(["operation", "deals", "p50", "p99", "max", "target p99"], rows))


def _target(ms: Sequence[float], target: float | None) -> str:
    if target is None:
        return "-"
    return f"< {target:.0f}: {'met' if percentile(ms, 99) < target else 'NOT met'}"


def http(args: argparse.Namespace) -> None:
    endpoints = [
        Endpoint("GET /healthz", "GET", "/healthz"),
        Endpoint.post_json(f"POST {SOLVE_PATH}", SOLVE_PATH, SOLVE_BODY, expect=(200,)),
        Endpoint.post_json(f"POST {SUGGEST_PATH}", SUGGEST_PATH, SUGGEST_BODY, expect=(200,)),
    ]
    results = common.http_benchmark(endpoints, args)
    if results is None:
        say("NOT MEASURED: pre-flight failed")
        return
    healthz = results[0]
    say()
    say("requests/s as a share of GET /healthz's on the same server in the same run:")
    rows = [
        [r.label, rate(r.per_second), ratio_text(r.per_second / healthz.per_second if healthz.per_second else None)]
        for r in results
    ]
    say(table(["endpoint", "req/s", "vs healthz"], rows))


def _naive_deal(seed: int) -> tuple[int, int]:
    """One deal: seat 0's score with suggest and with naive, seats 1-3 naive."""
    rng = random.Random(seed)
    deck = list(j13.GAME_DECK)
    rng.shuffle(deck)
    hands = [deck[17 * s : 17 * (s + 1)] for s in range(j13.PLAYERS)]
    others = [j13.Arrangement(*suggest.naive_arrangement(h)) for h in hands[1:]]
    best = suggest.suggest(hands[0], alternatives=0).best
    ours = j13.score_round([j13.Arrangement(best.head, best.middle, best.tail), *others]).players[0].total
    naive = j13.score_round([j13.Arrangement(*suggest.naive_arrangement(hands[0])), *others]).players[0].total
    return ours, naive


def naive(args: argparse.Namespace) -> None:
    heading(f"Joker Thirteen: suggest against the naive arranger, {args.naive_deals:,} seeded deals")
    seeds = [args.seed * 1_000_003 + i for i in range(args.naive_deals)]
    start = time.perf_counter()
    with Pool(args.naive_workers) as pool:
        scores = pool.map(_naive_deal, seeds, chunksize=50)
    ours = [a for a, _ in scores]
    theirs = [b for _, b in scores]
    diff = [a - b for a, b in scores]

    def mean_se(xs: Sequence[int]) -> str:
        return f"{statistics.fmean(xs):+.3f} ± {statistics.stdev(xs) / math.sqrt(len(xs)):.3f}"

    say(
        f"seat 0 against three naive seats, scored by score_round (道 per deal, mean ± standard error); {time.perf_counter() - start:.0f} s"
    )
    say(
        table(
            ["seat 0 arranges by", "mean score"],
            [["suggest", mean_se(ours)], ["naive", mean_se(theirs)], ["suggest - naive (same deals)", mean_se(diff)]],
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--deals", type=int, default=200, help="random deals per in-process row (default %(default)s)")
    parser.add_argument(
        "--naive-deals", type=int, default=10_000, help="deals of the naive comparison, 0 to skip (default %(default)s)"
    )
    parser.add_argument(
        "--naive-workers", type=int, default=2, help="processes for the naive comparison (default %(default)s)"
    )
    parser.add_argument("--skip-inprocess", action="store_true")
    common.add_http_arguments(parser)
    args = parser.parse_args(argv)
    if not args.skip_inprocess:
        inprocess(args)
    if not args.skip_http:
        http(args)
    if args.naive_deals:
        naive(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
