"""The heavy operations: the heaviest request each allows, what it costs on one core, and the per-worker cap
on running them at once (``service/api/heavy.py``, ``CARD_RULES_HEAVY_CONCURRENCY``).

An operation is heavy when a request within the contract's limits can cost hundreds of times a light one:
its work grows with what the client sets (``limit`` and ``samples`` of ``boards/outlook``, ``alternatives``
and the card count of ``fantasyland/solve`` and ``arrangements/suggest``). Four parts, each skippable:

  1. ``candidates`` (in process, pinned to one core): every operation whose work grows with the request
     (the four heavy ones, and ``moves/legal``, ``plays/legal``, ``games/validate`` and ``hands/validate``
     at their largest), its heaviest request (``HEAVIEST``, ``LIGHTER``) through the whole app, CPU
     milliseconds: the best and the worst of ``--repeats``.
  2. ``units`` (in process, one core): ``boards/outlook``'s exact search at ``limit`` 200,000 without a
     seed, CPU microseconds per unit it reports (``examined``), over ``--boards`` seeded random boards of
     every size (random ``seen`` and Fantasyland states among them) and the boards of ``OUTLOOK_BOARDS``;
     and milliseconds per Monte Carlo sample on the empty board (the most rounds), for both OFC games.
     The worst microseconds per unit times the largest ``limit``, plus the largest ``samples`` times the
     cost of one, bounds what one outlook request costs.
  3. ``--search N`` (off by default): N steps of a hill climb (one card replaced at a time, kept when the
     solve or suggest takes longer) from a few seeded deals, for heavier hands than ``HEAVIEST``'s; it
     prints what it finds (``HEAVIEST``'s hands came from it).
  4. ``cap`` (HTTP): for each value of ``--caps``, one gunicorn with the production gunicorn.conf.py (two
     workers, four threads each) and ``CARD_RULES_HEAVY_CONCURRENCY`` set to it; ``--clients`` clients send
     the ``HEAVIEST`` requests in turn for ``--seconds``, each on a new connection, a client waiting
     ``Retry-After`` after a 503, while a probe GETs ``/healthz`` every 50 ms on a new connection (as a
     kubelet does). Per cap: heavy answers per second, the share answered 503, p50 and p99 of the 200s,
     ``/healthz`` p50, p99 and max, answers lost (a connection closed or timed out without one) and
     workers killed. A cap of ``GUNICORN_THREADS`` (4) or more is no cap.

Run: ``.venv/bin/python bench/heavy.py`` (``--help`` for the options; ``--skip-http`` for the in-process
parts alone). The machine is shared: compare figures of one run only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from math import ceil
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench.common import LOOPBACK, GunicornServer, heading, say, table

OUTLOOK = "/v1/ofc-pineapple/boards/outlook"
CLASSIC_OUTLOOK = "/v1/ofc-classic/boards/outlook"
SOLVE = "/v1/ofc-pineapple/fantasyland/solve"
SUGGEST = "/v1/joker-thirteen/arrangements/suggest"
HEALTHZ = "/healthz"


def _board(top: str, middle: str, bottom: str) -> dict[str, list[str]]:
    return {"top": top.split(), "middle": middle.split(), "bottom": bottom.split()}


HEAVIEST: dict[str, tuple[str, dict[str, Any]]] = {
    # The largest limit and sample count; a board at the start of round 2 (the simulation needs a round's
    # start) whose exact search uses the whole limit listing rows and sampling witnesses, the dearest units.
    "ofc-pineapple boards/outlook": (OUTLOOK, {
        "board": _board("", "3h", "Th Js Jd As"), "limit": 200_000, "seed": 1, "samples": 200,
    }),
    "ofc-classic boards/outlook": (CLASSIC_OUTLOOK, {
        "board": _board("6d 3d", "Ac", "9c Qd"), "limit": 200_000, "seed": 1, "samples": 200,
    }),
    # 17 cards, the most alternatives: the slowest hand the hill climb (--search) found, with staying worth
    # the default (the climb found no slower one with staying worth the most)
    "ofc-pineapple fantasyland/solve": (SOLVE, {
        "cards": "9d Js 7d Tc 6s Jh 9s 9c 9h Qd 8c 6h 5d Ts Qh 7h 8s".split(), "alternatives": 10,
    }),
    # 17 cards, the deck's 3 jokers and 14 spades (the deck holds each spade twice: flushes everywhere, so the
    # search prunes little), the most alternatives: the slowest hand the hill climb found
    "joker-thirteen arrangements/suggest": (SUGGEST, {
        "cards": "JK JK JK 2s 2s Ts 9s Js 8s 6s 5s 8s 4s 5s Ks As 4s".split(), "alternatives": 10,
    }),
}  # fmt: skip
"""The heaviest request of each heavy operation (tests/production/test_heavy.py sends them too)."""
HEAVIEST_BY_PATH = dict(HEAVIEST.values())

LIGHTER: dict[str, tuple[str, dict[str, Any] | Callable[[], dict[str, Any]]]] = {
    # round 1: all 5 cards placed, 232 moves (3^5 less those overfilling the top)
    "ofc-pineapple moves/legal": ("/v1/ofc-pineapple/moves/legal", {
        "board": _board("", "", ""), "dealt": "As Kd Qh Jc Ts".split(),
    }),
    "ofc-classic moves/legal": ("/v1/ofc-classic/moves/legal", {
        "board": _board("", "", ""), "dealt": "As Kd Qh Jc Ts".split(),
    }),
    # a lead from 13 cards of four ranks: the most pairs, full houses and four of a kinds
    "big-two plays/legal": ("/v1/big-two/plays/legal", {"hand": "3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c".split()}),
    "big-two games/validate": ("/v1/big-two/games/validate", lambda: _big_two_record()),
    "ofc-pineapple hands/validate": ("/v1/ofc-pineapple/hands/validate", lambda: _example("ofcValidateHand")),
}  # fmt: skip
"""Operations whose work grows with the request too, at their largest: they stay light."""

OUTLOOK_BOARDS = [
    # (top, middle, bottom, seen): boards built to make the search's unbudgeted steps count (a Fantasyland
    # question asked of many key combinations, none of which can hold a witness) and the dearest rows listed
    ("Qs", "2c 3d 4h 7s", "5c", ""),
    ("Ks", "2c 3d 4h 7s", "5c", ""),
    ("Qs Qh 2c", "3d 4h", "5s", ""),
    ("", "3h", "Th Js Jd As", ""),
    ("6d 3d", "Ac", "9c Qd", ""),
    ("", "", "", ""),
]


def _example(operation: str) -> dict[str, Any]:
    return json.loads((Path(__file__).resolve().parents[1] / "examples" / f"{operation}.json").read_text())


def _big_two_record() -> dict[str, Any]:
    from bench.floor import big_two_record

    return json.loads(big_two_record())


def body_of(spec: dict[str, Any] | Callable[[], dict[str, Any]]) -> dict[str, Any]:
    return spec() if callable(spec) else spec


@contextmanager
def one_core() -> Iterator[int]:
    """This process pinned to one of the cores it may use (that core's number), and unpinned after: the
    gunicorn of the HTTP part inherits the process's cores."""
    allowed = os.sched_getaffinity(0)
    core = min(allowed)
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, allowed)


# --- 1. candidates ---------------------------------------------------------------------------------------


def candidates(args: argparse.Namespace, core: int) -> None:
    from service.api import create_app

    heading(f"In process, core {core}: the heaviest request of each operation whose work grows with the request")
    client = create_app().test_client()
    rows = []
    for group, specs in (("heavy", HEAVIEST), ("light", LIGHTER)):
        for label, (path, spec) in specs.items():
            data = json.dumps(body_of(spec))
            seconds = []
            status = 0
            for _ in range(args.repeats):
                started = time.process_time()
                response = client.post(path, data=data, content_type="application/json")
                seconds.append(time.process_time() - started)
                status = response.status_code
            rows.append([label, group, status, f"{min(seconds) * 1e3:.1f}", f"{max(seconds) * 1e3:.1f}"])
    say(table(["operation", "kind", "status", "best ms", "worst ms"], rows))


# --- 2. units ----------------------------------------------------------------------------------------------


def units(args: argparse.Namespace, core: int) -> None:
    from service.rules.cards import DECK, cards
    from service.rules.games import find_game
    from service.rules.ofc import Board, Fantasyland
    from service.rules.ofc import outlook as ofc_outlook

    heading(f"In process, core {core}: boards/outlook's cost per unit of limit and per sample")
    rng = random.Random(args.seed)
    rows = []
    for game in ("ofc-pineapple", "ofc-classic"):
        rules = find_game(game).default.rules
        boards: list[tuple[str, Board, list[Any], Fantasyland]] = []
        for top, middle, bottom, seen in OUTLOOK_BOARDS:
            board = Board(tuple(cards(top)), tuple(cards(middle)), tuple(cards(bottom)))
            boards.append((f"{top}|{middle}|{bottom}", board, list(cards(seen)), Fantasyland()))
        for _ in range(args.boards):
            n = rng.randrange(13)
            dealt = rng.sample(DECK, 52)
            t = rng.randint(max(0, n - 10), min(3, n))
            m = rng.randint(max(0, n - t - 5), min(5, n - t))
            board = Board(tuple(dealt[:t]), tuple(dealt[t : t + m]), tuple(dealt[t + m : n]))
            seen = dealt[n : n + rng.randrange(52 - 13 + 1)] if rng.random() < 0.5 else []
            fantasyland = Fantasyland(True, rng.choice([14, 15, 16, 17])) if rng.random() < 0.2 else Fantasyland()
            boards.append(("random", board, seen, fantasyland))
        worst: tuple[float, str, int, float] = (0.0, "", 0, 0.0)
        slowest: tuple[float, str, int, float] = (0.0, "", 0, 0.0)
        for name, board, seen, fantasyland in boards:
            try:
                started = time.process_time()
                result = ofc_outlook.outlook(board, seen, fantasyland, limit=ofc_outlook.MAX_LIMIT, rules=rules)
                spent = time.process_time() - started
            except Exception:  # a random board the rule set refuses (a 422): not a measurement
                continue
            if result.examined >= 1000:  # per-unit figures of a few units are the fixed costs, not the units
                per_unit = spent / result.examined * 1e6
                worst = max(worst, (per_unit, name, result.examined, spent))
            slowest = max(slowest, (spent, name, result.examined, spent), key=lambda x: x[0])
        empty = Board((), (), ())
        started = time.process_time()
        ofc_outlook.monte_carlo(
            empty, list(DECK), 1, ofc_outlook.MAX_SAMPLES, ofc_outlook.outlook_rules(rules).schedule
        )
        per_sample = (time.process_time() - started) / ofc_outlook.MAX_SAMPLES * 1e3
        bound = worst[0] * ofc_outlook.MAX_LIMIT / 1e6 + per_sample * ofc_outlook.MAX_SAMPLES / 1e3
        rows.append([
            game, len(boards), f"{worst[0]:.2f}", worst[1], f"{slowest[0] * 1e3:.0f}", slowest[1],
            f"{per_sample:.2f}", f"{bound * 1e3:.0f}",
        ])  # fmt: skip
    say(table(["game", "boards", "worst us/unit", "its board", "slowest ms", "its board", "ms/sample",
               "bound ms (limit 200,000, 200 samples)"], rows))  # fmt: skip


# --- 3. search ---------------------------------------------------------------------------------------------


def search(args: argparse.Namespace, core: int) -> None:
    from service.rules import thirteen as j13
    from service.rules.cards import DECK, JOKER, Suit, card
    from service.rules.ofc import fantasyland
    from service.rules.thirteen import suggest

    heading(f"In process, core {core}: hill climb for the slowest hands ({args.search} steps from each start)")
    suggest.opponent_tables()
    rng = random.Random(args.seed)
    plain = [c for c in j13.GAME_DECK if c is not JOKER]
    spades = [c for c in plain if c.suit is Suit.SPADES]

    def cost(run: Callable[[], object]) -> float:
        best = float("inf")
        for _ in range(2):  # the better of two: a noisy moment does not make a hand look slow
            started = time.process_time()
            run()
            best = min(best, time.process_time() - started)
        return best

    def solve_cost(stay_value: int) -> Callable[[list[Any]], float]:
        return lambda hand: cost(lambda: fantasyland.solve(hand, alternatives=10, stay_value=stay_value))

    def suggest_cost(hand: list[Any]) -> float:
        return cost(lambda: suggest.suggest(hand, alternatives=10))

    def solve_step(hand: list[Any]) -> list[Any]:
        changed = list(hand)
        changed[rng.randrange(len(hand))] = rng.choice([c for c in DECK if c not in hand])
        return changed

    def suggest_step(hand: list[Any]) -> list[Any]:
        while True:  # the three jokers stay; mostly spades, of which the deck holds two each
            changed = list(hand)
            changed[rng.randrange(3, len(hand))] = rng.choice(spades if rng.random() < 0.8 else plain)
            try:
                suggest.check_hand(changed)
            except Exception:  # more copies than the deck holds: another step
                continue
            return changed

    def parsed(path: str) -> list[Any]:
        return [JOKER if text == "JK" else card(text) for text in HEAVIEST_BY_PATH[path]["cards"]]

    starts: list[tuple[str, Callable[[], list[Any]], Callable[[list[Any]], list[Any]], Callable[[list[Any]], float]]]
    starts = [
        ("fantasyland/solve", lambda: parsed(SOLVE), solve_step, solve_cost(fantasyland.DEFAULT_STAY_VALUE)),
        ("fantasyland/solve", lambda: rng.sample(DECK, 17), solve_step, solve_cost(fantasyland.DEFAULT_STAY_VALUE)),
        ("fantasyland/solve (stay 1000)", lambda: rng.sample(DECK, 17), solve_step,
         solve_cost(fantasyland.MAX_STAY_VALUE)),
        ("arrangements/suggest", lambda: parsed(SUGGEST), suggest_step, suggest_cost),
        ("arrangements/suggest", lambda: [JOKER] * 3 + rng.sample(plain, 14), suggest_step, suggest_cost),
    ]  # fmt: skip
    rows = []
    for label, start, step, measure in starts:
        hand = start()
        spent = measure(hand)
        for _ in range(args.search):
            changed = step(hand)
            changed_cost = measure(changed)
            if changed_cost > spent:
                hand, spent = changed, changed_cost
        rows.append([label, f"{spent * 1e3:.0f}", " ".join(map(str, hand))])
    say(table(["operation", "ms", "hand"], rows))


# --- 4. cap ------------------------------------------------------------------------------------------------


def _request(path: str, body: dict[str, Any] | None) -> bytes:
    if body is None:
        return f"GET {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nConnection: close\r\n\r\n".encode()
    data = json.dumps(body).encode()
    return (f"POST {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n").encode() + data  # fmt: skip


def exchange(port: int, raw: bytes, timeout: float) -> tuple[int | None, dict[str, str]]:
    """(status, headers) of the answer to ``raw`` on a new connection; status None when it closed or timed
    out without one (an answer lost)."""
    try:
        with socket.create_connection((LOOPBACK, port), timeout=timeout) as sock:
            sock.sendall(raw)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None, {}
    head = data.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    if not head[0].startswith("HTTP/1.1 "):
        return None, {}
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in head[1:])}
    return int(head[0].split()[1]), headers


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest rank; nan for no values."""
    ordered = sorted(values)
    return ordered[max(0, ceil(p / 100 * len(ordered)) - 1)] if ordered else float("nan")


def cap_run(cap: int, args: argparse.Namespace) -> list[Any]:
    requests = [_request(path, body) for path, body in HEAVIEST.values()]
    env = {"CARD_RULES_HEAVY_CONCURRENCY": str(cap)}
    with GunicornServer(workers=2, env=env) as server:
        workers = server.worker_pids()
        for raw in requests:  # warm up: each worker's first call of each (the opponent tables, caches)
            exchange(server.port, raw, 30)
        answered: list[float] = []
        statuses: dict[int | None, int] = {}
        probes: list[float] = []
        lock = threading.Lock()
        end = time.monotonic() + args.seconds

        def client(first: int) -> None:
            turn = first
            while time.monotonic() < end:
                started = time.monotonic()
                status, headers = exchange(server.port, requests[turn % len(requests)], 30)
                spent = time.monotonic() - started
                turn += 1
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    if status == 200:
                        answered.append(spent)
                if status == 503:
                    time.sleep(float(headers.get("retry-after", "1")))

        def probe() -> None:
            while time.monotonic() < end:
                started = time.monotonic()
                status, _ = exchange(server.port, _request(HEALTHZ, None), 30)
                probes.append(time.monotonic() - started if status == 200 else float("inf"))
                time.sleep(0.05)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
        threads.append(threading.Thread(target=probe))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        killed = server.log_text().count("WORKER TIMEOUT")
        replaced = len(set(workers) - set(server.worker_pids()))
    total = sum(statuses.values())
    return [
        cap, f"{statuses.get(200, 0) / args.seconds:.1f}", f"{statuses.get(503, 0) / max(total, 1):.0%}",
        f"{percentile(answered, 50) * 1e3:.0f}", f"{percentile(answered, 99) * 1e3:.0f}",
        f"{percentile(probes, 50) * 1e3:.0f}", f"{percentile(probes, 99) * 1e3:.0f}", f"{max(probes) * 1e3:.0f}",
        statuses.get(None, 0), max(killed, replaced),
    ]  # fmt: skip


def cap(args: argparse.Namespace) -> None:
    heading(f"HTTP: {args.clients} clients sending the heaviest requests for {args.seconds:.0f} s, per cap")
    rows = [cap_run(value, args) for value in args.caps]
    say(table(["cap", "200/s", "503", "200 p50 ms", "200 p99 ms", "healthz p50 ms", "p99 ms", "max ms", "lost",
               "workers killed"], rows))  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    # In process as under gunicorn: metrics in files (set before the service is imported, here and not at
    # import: the suite imports HEAVIEST, and its own in-process app must keep its own registry).
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="bench-heavy-"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-candidates", action="store_true")
    parser.add_argument("--skip-units", action="store_true")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--search", type=int, default=0, help="hill-climb steps per start (0: no search)")
    parser.add_argument("--repeats", type=int, default=3, help="requests per operation in process")
    parser.add_argument("--boards", type=int, default=300, help="random boards per game for the outlook's units")
    parser.add_argument("--seed", type=int, default=20270101)
    parser.add_argument("--caps", type=lambda text: [int(x) for x in text.split(",")], default=[1, 2, 3, 4])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args(argv)
    with one_core() as core:
        if not args.skip_candidates:
            candidates(args, core)
        if not args.skip_units:
            units(args, core)
        if args.search:
            search(args, core)
    if not args.skip_http:
        cap(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
