"""The solvers: ``POST /v1/ofc-pineapple/fantasyland/solve`` and ``POST /v1/joker-thirteen/arrangements/suggest``.

Four parts, each skippable:
  * in process: the rules core's time per answer (p50, p99, max) on seeded random deals: Fantasyland with
    14, 15, 16 and 17 cards, arrange for me with each hand size the Thirteen rule set takes (``--rule-set``:
    Joker Thirteen 13 and 17 cards, 0-3 jokers as the deal gives them; ordinary 十三支 13 of the 52);
    targets 14 cards p99 < 250 ms, 17 cards p99 < 1 s; 13 cards p99 < 100 ms, 17 cards p99 < 1 s;
  * ``--table-deals`` (default 0): arrange for me at other tables' scoring, in process (p50, p95, p99, max):
    13 cards at 十三水 (``SHISANSHUI``), the 1-6 and the 2-4 scorings, and Joker Thirteen at a table of its
    own (a won dun 1, the sweep all three duns won and doubled), 13 and 17 cards; targets as above;
  * HTTP: requests per second of both operations beside ``GET /healthz`` on one gunicorn (Joker Thirteen's
    route whatever ``--rule-set``);
  * ``--ev-deals`` (default 0): seeded deals of the rule set's deck, one hand each, arranged by ``suggest``
    (timed in this process, one call each: p50, p99, max) and by the naive arranger; both valued by the
    objective ``suggest`` maximises (the expected score against one simulated opponent, under the same
    tables). The mean of the difference, with its standard error, says what arrange for me adds by its own
    measure; it is never negative, as ``suggest`` is exact and the naive arrangement legal;
  * ``--naive-deals`` (default 10,000): deals of 4 hands of the rule set's deal (4 x 17 of Joker Thirteen's
    68 cards, or the whole 52 of ordinary 十三支, seeded); seat 0 arranges by ``suggest``, seats 1-3 by the
    naive arranger (strongest tail, then strongest middle), and ``score_round`` scores the round; the same
    deal is scored again with seat 0 naive too. The mean of seat 0's score, and of the difference, with
    standard errors, says whether suggest beats naive.

Run: ``.venv/bin/python bench/solvers.py`` (``--help`` for the options); ordinary 十三支:
``.venv/bin/python bench/solvers.py --rule-set ordinary --ev-deals 10000 --skip-http``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench import common
from bench.common import Endpoint, heading, rate, ratio_text, say, table
from service.rules import thirteen as j13
from service.rules.cards import DECK, Card
from service.rules.ofc import fantasyland
from service.rules.thirteen import suggest
from service.rules.thirteen.rules import Sweep
from tests.thirteen.tables import ONE_SIX, TWO_FOUR

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


RULE_SETS = {rules.id: rules for rules in (j13.GSCAS, j13.ORDINARY)}
GAME = {j13.GSCAS.id: "Joker Thirteen", j13.ORDINARY.id: "Ordinary 十三支"}
SUGGEST_TARGET_MS = {13: 100, 17: 1000}  # p99 of arrange for me, by hand size


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
    rules = RULE_SETS[args.rule_set]
    suggest.opponent_tables(rules)  # loaded once per process, as the service does at its first request
    for size in suggest.hand_sizes(rules.deck):
        target = SUGGEST_TARGET_MS[size]
        hands = [rng.sample(rules.deck.cards, size) for _ in range(args.deals)]
        ms = sorted(timed(lambda h=h: suggest.suggest(h, rules=rules)) for h in hands)
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
    say(
        f"seed {args.seed}; {args.deals} random deals per row; {GAME[rules.id]} hands drawn from its "
        f"{len(rules.deck.cards)}-card deck"
    )
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


def objective_value(rules: j13.ThirteenRules, duns: Sequence[Sequence[Card]]) -> int:
    """The expected score ``suggest`` maximises, of any legal (head, middle, tail), under ``rules``' tables,
    times deals**3 (``Suggestion.exact_value``'s unit): P(not losing a dun) - P(the opponent not losing one)
    + the expected bonuses (suggest.py's docstring)."""
    tables = suggest.opponent_tables(rules)
    n = tables.deals
    (ha, hw, hb), (ma, mw, mb), (ta, tw, tb) = (
        tables.duns[d].terms(suggest.strength(cards)) for d, cards in zip(j13.DUNS, duns)
    )
    return ta * ma * ha - (n - tw) * (n - mw) * (n - hw) + n * n * (tb + mb + hb)


def objective(args: argparse.Namespace) -> None:
    rules = RULE_SETS[args.rule_set]
    deck = rules.deck
    heading(
        f"{GAME[rules.id]}: arrange for me against the naive arranger by the objective, {args.ev_deals:,} seeded deals"
    )
    cube = suggest.opponent_tables(rules).deals ** 3  # loaded once per process, as the service does at first
    start = time.perf_counter()
    ms: list[float] = []
    ours: list[int] = []
    theirs: list[int] = []
    for i in range(args.ev_deals):
        hand = random.Random(args.seed * 1_000_003 + i).sample(deck.cards, deck.hand_size)
        began = time.perf_counter()
        best = suggest.suggest(hand, rules=rules).best  # the service's call: 3 alternatives by default
        ms.append((time.perf_counter() - began) * 1e3)
        ours.append(best.exact_value)
        theirs.append(objective_value(rules, suggest.naive_arrangement(hand)))
    diff = [a - b for a, b in zip(ours, theirs)]  # exact integers: "never below" is checked without rounding
    ms.sort()
    size = deck.hand_size
    say(
        f"one hand of {size} per deal, random.Random(seed x 1,000,003 + i).sample of the {len(deck.cards)} cards, "
        f"seed {args.seed}; EV in 道 against one opponent of the rule set's table ({suggest.opponent_tables(rules).deals:,} "
        f"deals); {time.perf_counter() - start:.0f} s"
    )
    better, below = sum(d > 0 for d in diff), sum(d < 0 for d in diff)
    say(
        table(
            ["arranged by", "mean EV ± SE"],
            [
                ["suggest", _mean_se([x / cube for x in ours])],
                ["naive", _mean_se([x / cube for x in theirs])],
                ["suggest - naive (same hands)", _mean_se([x / cube for x in diff])],
            ],
        )
    )
    say(
        f"suggest above naive on {better:,} hands ({better / len(diff):.1%}), equal on {len(diff) - better - below:,}, "
        f"below on {below} (never, if exact); largest difference {max(diff) / cube:+.3f}"
    )
    say(
        table(
            ["in process, one call per hand (ms)", "hands", "p50", "p99", "max", "target p99"],
            [
                [
                    f"arrangements/suggest {size} cards",
                    len(ms),
                    f"{percentile(ms, 50):.1f}",
                    f"{percentile(ms, 99):.1f}",
                    f"{ms[-1]:.1f}",
                    _target(ms, SUGGEST_TARGET_MS[size]),
                ]
            ],
        )
    )


def _mean_se(xs: Sequence[float]) -> str:
    return f"{statistics.fmean(xs):+.3f} ± {statistics.stdev(xs) / math.sqrt(len(xs)):.3f}"


def _naive_deal(job: tuple[str, int]) -> tuple[int, int]:
    """One deal: seat 0's score with suggest and with naive, seats 1-3 naive."""
    rule_set, seed = job
    rules = RULE_SETS[rule_set]
    size = rules.deck.hand_size
    rng = random.Random(seed)
    deck = list(rules.deck.cards)
    rng.shuffle(deck)
    hands = [deck[size * s : size * (s + 1)] for s in range(j13.PLAYERS)]
    others = [j13.Arrangement(*suggest.naive_arrangement(h)) for h in hands[1:]]
    best = suggest.suggest(hands[0], alternatives=0, rules=rules).best
    ours = j13.score_round([j13.Arrangement(best.head, best.middle, best.tail), *others], rules).players[0].total
    naive = j13.score_round([j13.Arrangement(*suggest.naive_arrangement(hands[0])), *others], rules).players[0].total
    return ours, naive


def naive(args: argparse.Namespace) -> None:
    rules = RULE_SETS[args.rule_set]
    heading(f"{GAME[rules.id]}: suggest against the naive arranger, {args.naive_deals:,} seeded deals")
    jobs = [(rules.id, args.seed * 1_000_003 + i) for i in range(args.naive_deals)]
    start = time.perf_counter()
    with Pool(args.naive_workers) as pool:
        scores = pool.map(_naive_deal, jobs, chunksize=50)
    ours = [a for a, _ in scores]
    theirs = [b for _, b in scores]
    diff = [a - b for a, b in scores]
    say(
        f"seat 0 against three naive seats, scored by score_round (道 per deal, mean ± standard error); {time.perf_counter() - start:.0f} s"
    )
    say(
        table(
            ["seat 0 arranges by", "mean score"],
            [
                ["suggest", _mean_se(ours)],
                ["naive", _mean_se(theirs)],
                ["suggest - naive (same deals)", _mean_se(diff)],
            ],
        )
    )


JOKER_TABLE = replace(
    j13.GSCAS, id="joker-own", dun_points=1, sweep=Sweep.ALL_DUNS_WON, sweep_points=0, sweep_multiplier=2
)
TABLES = (j13.SHISANSHUI, ONE_SIX, TWO_FOUR, JOKER_TABLE)


def at_tables(args: argparse.Namespace) -> None:
    """``suggest`` at tables that score won duns and sweeps otherwise than the house (``table_search``)."""
    heading("In process: arrange for me at other tables' scoring (ms)")
    rng = random.Random(args.seed)
    rows = []
    for rules in TABLES:
        suggest.opponent_tables(rules)  # loaded once per process
        for size in suggest.hand_sizes(rules.deck):
            hands = [rng.sample(rules.deck.cards, size) for _ in range(args.table_deals)]
            ms = sorted(timed(lambda h=h, r=rules: suggest.suggest(h, rules=r)) for h in hands)
            cells = [f"{percentile(ms, p):.1f}" for p in (50, 95, 99)]
            rows.append(
                [f"{rules.id} {size} cards", len(ms), *cells, f"{ms[-1]:.1f}", _target(ms, SUGGEST_TARGET_MS[size])]
            )
    say(f"seed {args.seed}; {args.table_deals} random deals per row")
    say(table(["table", "deals", "p50", "p95", "p99", "max", "target p99"], rows))


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
    parser.add_argument(
        "--rule-set",
        choices=sorted(RULE_SETS),
        default=j13.GSCAS.id,
        help="the Thirteen rule set of the suggest rows, --ev-deals and --naive-deals (default %(default)s)",
    )
    parser.add_argument(
        "--ev-deals",
        type=int,
        default=0,
        help="hands valued by the objective, suggest against naive, with suggest's latency; 0 to skip (default %(default)s)",
    )
    parser.add_argument(
        "--table-deals",
        type=int,
        default=0,
        help="deals per row of suggest at other tables; 0 to skip (default %(default)s)",
    )
    parser.add_argument("--skip-inprocess", action="store_true")
    common.add_http_arguments(parser)
    args = parser.parse_args(argv)
    if not args.skip_inprocess:
        inprocess(args)
    if args.table_deals:
        at_tables(args)
    if not args.skip_http:
        http(args)
    if args.ev_deals:
        objective(args)
    if args.naive_deals:
        naive(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
