"""Legal moves and outlooks: Big Two ``plays/legal``, Pineapple OFC ``moves/legal`` and
``boards/outlook``. Run: ``.venv/bin/python bench/legal_moves.py``.

In process, each operation's own cost on a set of fixed-seed requests: p50 and p99 of one call of the rules
core (what a bot embedding the library pays), and of one whole request through the Flask test client (body
parsing, the core, the answer's JSON; no sockets), in CPU time of the process (the machine is shared; time
spent waiting for a core is not the operation's); calls/s is calls over their total CPU time. Target: a 13-card Big Two lead listed at least 500 times
a second in process (core p50 under 2 ms). Then over HTTP on one gunicorn: requests/s next to
``GET /healthz`` in the same run (only ratios mean anything on a shared machine).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench import common
from bench.common import Endpoint, heading, rate, ratio_text, say, table
from service.rules.cards import DECK


@dataclass
class Operation:
    name: str
    path: str
    bodies: list[dict[str, Any]]  # the requests, as JSON
    core: Callable[[dict[str, Any]], object]  # one call of the rules core for one body
    target_per_second: float | None = None


def big_two_leads(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [{"hand": [c.text for c in rng.sample(DECK, 13)]} for _ in range(count)]


def operations(count: int, seed: int) -> list[Operation]:
    from service.rules.big_two.plays import list_plays
    from service.rules.cards import parse_cards

    ops = [
        Operation(
            "big-two plays/legal (13-card lead)", "/v1/big-two/plays/legal", big_two_leads(count, seed),
            lambda body: list_plays(parse_cards(body["hand"])), target_per_second=500,
        ),
    ]  # fmt: skip
    ops += ofc_operations(count, seed)
    return ops


def ofc_boards(count: int, seed: int, on_board: int) -> list[tuple[dict[str, list[str]], list[str]]]:
    """Random boards of ``on_board`` cards (rows filled at random) and the rest of the deck, shuffled."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        rows: dict[str, list[str]] = {"top": [], "middle": [], "bottom": []}
        for c in deck[:on_board]:
            row = rng.choice([r for r, size in (("top", 3), ("middle", 5), ("bottom", 5)) if len(rows[r]) < size])
            rows[row].append(c.text)
        found.append((rows, [c.text for c in deck[on_board:]]))
    return found


def ofc_operations(count: int, seed: int) -> list[Operation]:
    from service.rules.cards import parse_cards
    from service.rules.ofc import Board
    from service.rules.ofc import moves as ofc_moves
    from service.rules.ofc import outlook as ofc_outlook

    def board(rows: dict[str, list[str]]) -> Board:
        return Board(*(tuple(parse_cards(rows[r])) for r in ("top", "middle", "bottom")))

    first = [{"board": rows, "dealt": rest[:5]} for rows, rest in ofc_boards(count, seed, 0)]
    later = [{"board": rows, "dealt": rest[:3]} for rows, rest in ofc_boards(count, seed, 7)]
    # round 4 (9 cards placed) with 6 cards seen elsewhere: small enough to settle exactly within the default limit
    late = [{"board": rows, "seen": rest[:6]} for rows, rest in ofc_boards(count // 4, seed, 9)]
    seeded = [
        {"board": rows, "seen": rest[:6], "seed": 1, "samples": 100} for rows, rest in ofc_boards(count // 10, seed, 9)
    ]
    return [
        Operation("ofc moves/legal (round 1, 5 cards)", "/v1/ofc-pineapple/moves/legal", first,
                  lambda body: ofc_moves.legal_moves(board(body["board"]), parse_cards(body["dealt"]))),
        Operation("ofc moves/legal (round 3, 3 cards)", "/v1/ofc-pineapple/moves/legal", later,
                  lambda body: ofc_moves.legal_moves(board(body["board"]), parse_cards(body["dealt"]))),
        Operation("ofc boards/outlook (9 placed, exact)", "/v1/ofc-pineapple/boards/outlook", late,
                  lambda body: ofc_outlook.outlook(board(body["board"]), parse_cards(body["seen"]))),
        Operation("ofc boards/outlook (+100 MC samples)", "/v1/ofc-pineapple/boards/outlook", seeded,
                  lambda body: ofc_outlook.outlook(board(body["board"]), parse_cards(body["seen"]), seed=1, samples=100)),
    ]  # fmt: skip


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def time_each(run: Callable[[dict[str, Any]], object], bodies: Sequence[dict[str, Any]], repeats: int) -> list[float]:
    """CPU seconds of this process per call (``time.process_time``: on a shared machine, time spent
    waiting for a core is not the operation's), each body ``repeats`` times, GC off while timing."""
    samples = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            for body in bodies:
                start = time.process_time()
                run(body)
                samples.append(time.process_time() - start)
    finally:
        gc.enable()
    return samples


def inprocess(ops: Sequence[Operation], args: argparse.Namespace) -> None:
    heading("In process: one call of the rules core, one request through the Flask test client (no sockets)")
    from service.api import create_app

    client = create_app().test_client()
    rows = []
    for op in ops:
        repeats = args.repeats if len(op.bodies) >= args.count else 1  # the slow operations run on fewer bodies, once
        for body in op.bodies[:3]:  # pre-flight: the operation answers 200
            response = client.post(op.path, json=body)
            assert response.status_code == 200, (op.path, response.status_code, response.get_data()[:300])
        core = time_each(op.core, op.bodies, repeats)
        whole = time_each(lambda body, path=op.path: client.post(path, json=body), op.bodies, repeats)
        c50, c99 = percentiles(core)
        w50, w99 = percentiles(whole)
        per_second = len(core) / sum(core)
        verdict = (
            ""
            if op.target_per_second is None
            else f"{common.verdict(per_second >= op.target_per_second)} (>= {op.target_per_second:g}/s)"
        )
        rows.append(
            [
                op.name,
                f"{c50 * 1e3:.2f}",
                f"{c99 * 1e3:.2f}",
                rate(per_second),
                f"{w50 * 1e3:.2f}",
                f"{w99 * 1e3:.2f}",
                verdict,
            ]
        )
    say(
        f"fixed-seed requests (seed {args.seed}): {args.count} per operation, each timed {args.repeats} times; "
        f"the outlook on {args.count // 4} boards (and {args.count // 10} seeded), each once"
    )
    say(
        table(
            ["operation", "core p50 ms", "core p99 ms", "core calls/s", "request p50 ms", "request p99 ms", "target"],
            rows,
            "lrrrrrl",
        )
    )


def http(ops: Sequence[Operation], args: argparse.Namespace) -> None:
    endpoints = [Endpoint("GET /healthz", "GET", "/healthz")]
    endpoints += [Endpoint.post_json(op.name, op.path, op.bodies[0], expect=(200,)) for op in ops]
    results = common.http_benchmark(endpoints, args)
    if results is None:
        say("NOT MEASURED: pre-flight failed")
        return
    healthz = results[0]
    rows = []
    for r in results[1:]:
        ratio = r.per_second / healthz.per_second if healthz.per_second else None
        rows.append(
            [
                r.label,
                rate(r.per_second),
                ratio_text(ratio),
                f"{r.percentile_ms(50) or 0:.2f}",
                f"{r.percentile_ms(99) or 0:.2f}",
            ]
        )
    say()
    say(f"GET /healthz: {rate(healthz.per_second)} req/s; each operation on its first request body:")
    say(table(["endpoint", "req/s", "vs healthz", "p50 ms", "p99 ms"], rows))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = parser.add_argument_group("in-process")
    group.add_argument("--count", type=int, default=200, help="fixed-seed requests per operation (default %(default)s)")
    group.add_argument("--seed", type=int, default=20261130, help="seed of the requests (default %(default)s)")
    group.add_argument("--repeats", type=int, default=5, help="times each request is timed (default %(default)s)")
    group.add_argument("--skip-inprocess", action="store_true", help="skip the in-process part")
    common.add_http_arguments(parser, seconds=8.0, rounds=2)
    args = parser.parse_args(argv)
    ops = operations(args.count, args.seed)
    if not args.skip_inprocess:
        inprocess(ops, args)
    if not args.skip_http:
        http(ops, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
