"""The service against the stack's floor: per-request cost of every operation class, side by side with a
minimal Flask app and a bare WSGI function served under the same gunicorn settings.

    .venv/bin/python bench/floor.py                   # about 6 minutes with the defaults
    .venv/bin/python bench/floor.py --write-readme    # and put the table into bench/README.md

Three gunicorns run at once on the loopback, each with the production ``gunicorn.conf.py`` (its worker
class, threads, 2 workers, access log on for the service): the service (``service.wsgi:app``) and the
two floors of ``bench/floor_apps.py``. Only one is loaded at a time. For each of ``--connections`` (8 and
64 keep-alive connections by default, over ``--processes`` client processes, new connections every
window) the endpoints are loaded in turn, ``--rounds`` times over (interleaved, so a noisy stretch of
the shared machine falls on all alike), with a ``/healthz`` window before every ``--bracket`` others and
one at the end of each round. Per endpoint:

- ``req/s``: requests answered per second over the windows (the clients share the 2 cores);
- ``CPU us/req``: the server's CPU time per request (master and workers, from /proc), the cost figure
  that does not depend on how much CPU the clients took;
- ``vs healthz``: requests/s and CPU per request as ratios of the service's ``GET /healthz``'s (higher
  is cheaper for both), each the median over the endpoint's windows of its ratio to the ``/healthz``
  windows just before and after it, and its target. On the 2 shared cores a window's
  figures move by 10-20% with what else runs; the windows around it move alike, and the median drops
  the one that stands out (a ratio of sums over the run, before, moved by 0.1-0.2x between runs);
- for every endpoint short of its target or within 0.05 of it, the lowest and highest of its windows'
  CPU ratios: how far the run's own windows scatter around the median that the verdict reads;
- the connections per worker, sampled in the middle of every window of the service (``5/3``: 5 on one
  worker, 3 on the other), and how many windows had every connection on one worker.

Before the load, each server's workers take ``--cold`` concurrent first requests for ``/openapi.json``
(the slowest of them, and the workers' memory before and after, show a first-request spike).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (
    LOOPBACK,
    ROOT,
    GunicornServer,
    MixedRequest,
    _proc_stat,
    heading,
    http_request,
    run_mixed_load,
    say,
    table,
)

README = ROOT / "bench" / "README.md"
BEGIN, END = "<!-- floor.py: begin -->", "<!-- floor.py: end -->"


def example(operation: str) -> bytes:
    return (ROOT / "examples" / f"{operation}.json").read_bytes()


def big_two_record() -> bytes:
    """The 98-action Big Two game of bench/big_two.py (its default seed): a whole 52-card deal replayed."""
    from bench.big_two import recorded_game, validate_body

    game = recorded_game(20260922, 20)
    return json.dumps(validate_body(game), separators=(",", ":")).encode()


@dataclass(frozen=True)
class Window:
    """One measured window of one endpoint: when (its place in the run's sequence of windows at its
    connection count), the server's CPU seconds, the requests answered, and requests per second."""

    seq: int
    cpu: float
    done: int
    rate: float

    @property
    def cpu_per_request(self) -> float:
        return self.cpu / self.done if self.done else float("nan")


@dataclass
class Target:
    label: str
    method: str
    path: str
    server: str  # "service", "flask" or "wsgi"
    body: bytes | None = None
    goal: float | None = None  # the target: requests/s as a share of the service's /healthz
    group: str = ""
    rates: dict[int, list[float]] = field(default_factory=dict)  # connections -> req/s per window
    cpu: dict[int, list[float]] = field(default_factory=dict)  # connections -> (server CPU s, requests) sums
    splits: dict[int, list[str]] = field(default_factory=dict)
    headers: tuple[tuple[str, str], ...] = ()  # besides Host and Accept
    windows: dict[int, list[Window]] = field(default_factory=dict)  # connections -> every measured window

    def request(self) -> bytes:
        return http_request(self.method, self.path, self.body, headers=self.headers)


def targets() -> list[Target]:
    s = "service"
    light = [
        ("ofc-pineapple rows/evaluate", "/v1/ofc-pineapple/rows/evaluate", "ofcEvaluateRow"),
        ("ofc-pineapple rows/compare", "/v1/ofc-pineapple/rows/compare", "ofcCompareRows"),
        ("joker-thirteen duns/evaluate", "/v1/joker-thirteen/duns/evaluate", "jokerThirteenEvaluateDun"),
        ("joker-thirteen duns/compare", "/v1/joker-thirteen/duns/compare", "jokerThirteenCompareDuns"),
        ("big-two plays/classify", "/v1/big-two/plays/classify", "bigTwoClassifyPlay"),
        ("big-two plays/compare", "/v1/big-two/plays/compare", "bigTwoComparePlays"),
        ("ofc-pineapple moves/validate", "/v1/ofc-pineapple/moves/validate", "ofcValidateMove"),
        ("big-two moves/validate", "/v1/big-two/moves/validate", "bigTwoValidateMove"),
        ("ofc-pineapple hands/score", "/v1/ofc-pineapple/hands/score", "ofcScoreHand"),
    ]
    middle = [
        ("joker-thirteen rounds/score", "/v1/joker-thirteen/rounds/score", "jokerThirteenScoreRound"),
        ("big-two games/score", "/v1/big-two/games/score", "bigTwoScoreGame"),
        ("joker-thirteen arrangements/validate", "/v1/joker-thirteen/arrangements/validate", "jokerThirteenValidateArrangement"),
    ]  # fmt: skip
    return [
        Target("floor: bare WSGI GET", "GET", "/healthz", "wsgi", group="floor"),
        Target("floor: Flask GET", "GET", "/healthz", "flask", group="floor"),
        Target("floor: Flask POST (JSON body)", "POST", "/echo", "flask", example("ofcEvaluateRow"), group="floor"),
        Target("GET /healthz", "GET", "/healthz", s, group="healthz"),
        *(Target(label, "POST", path, s, example(op), 0.8, "light") for label, path, op in light),
        *(Target(label, "POST", path, s, example(op), 0.7, "middle") for label, path, op in middle),
        Target(
            "ofc-pineapple hands/validate (15 actions)",
            "POST",
            "/v1/ofc-pineapple/hands/validate",
            s,
            example("ofcValidateHand"),
            0.6,
            "replay",
        ),
        Target(
            "big-two games/validate (98 actions)",
            "POST",
            "/v1/big-two/games/validate",
            s,
            big_two_record(),
            0.4,
            "replay",
        ),
        Target("GET /openapi.json", "GET", "/openapi.json", s, goal=0.95, group="contract"),
        Target(
            "GET /openapi.json (Accept-Encoding: gzip)",
            "GET",
            "/openapi.json",
            s,
            goal=0.95,
            group="contract",
            headers=(("Accept-Encoding", "gzip"),),
        ),
    ]


# --- /proc: CPU and connections per worker -----------------------------------------------------------


def cpu_by_pid(server: GunicornServer) -> dict[int, float]:
    pids = [server.process.pid, *server.worker_pids()] if server.process else []
    found = {}
    for pid in pids:
        stat = _proc_stat(pid)
        if stat is not None:
            found[pid] = stat[1]
    return found


ESTABLISHED, CLOSE_WAIT = "01", "08"  # connection states as /proc/net/tcp writes them


def server_inodes(port: int, states: tuple[str, ...] = (ESTABLISHED,)) -> set[str]:
    """Socket inodes of the TCP connections in ``states`` whose local port is ``port`` (the server side)."""
    inodes = set()
    for table_path in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table_path).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if parts[3] in states and int(parts[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(parts[9])
    return inodes


def connections_by_worker(server: GunicornServer) -> list[int]:
    inodes = server_inodes(server.port)
    counts = []
    for pid in server.worker_pids():
        held = 0
        try:
            for fd in os.scandir(f"/proc/{pid}/fd"):
                try:
                    target = os.readlink(fd.path)
                except OSError:
                    continue
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    held += 1
        except OSError:
            pass
        counts.append(held)
    return sorted(counts, reverse=True)


# --- the load ----------------------------------------------------------------------------------------


def window(
    server: GunicornServer, target: Target, connections: int, seconds: float, processes: int, seq: int = -1
) -> None:
    request = MixedRequest(target.label, (target.request(),), frozenset({200}), 1.0)
    sample: dict[str, object] = {}

    def during(start_at: float, end_at: float) -> None:
        time.sleep(max(0.0, start_at - time.monotonic()))
        sample["cpu0"] = cpu_by_pid(server)
        best: list[int] | None = None
        for share in (0.3, 0.5, 0.7):  # the fullest of three looks: connections open while it is sampled
            time.sleep(max(0.0, start_at + share * (end_at - start_at) - time.monotonic()))
            split = connections_by_worker(server)
            best = split if best is None or sum(split) > sum(best) else best
        sample["split"] = best
        time.sleep(max(0.0, end_at - time.monotonic()))
        sample["cpu1"] = cpu_by_pid(server)

    result = run_mixed_load(
        server.port, [request], seconds, connections, min(processes, connections), seed=15, during=during
    )
    _start_at, end_at = result.window
    done = [i for i, (s, t) in enumerate(zip(result.starts, result.seconds)) if s + t <= end_at]
    bad = [result.statuses[i] for i in done if result.statuses[i] != 200]
    if bad or result.failures:
        say(f"  {target.label}: {len(bad)} non-200 answers {sorted(set(bad))[:5]}, {len(result.failures)} failures")
    cpu0, cpu1 = sample["cpu0"], sample["cpu1"]
    server_cpu = sum(cpu1[p] - cpu0[p] for p in cpu1 if p in cpu0)  # type: ignore[index,union-attr]
    target.rates.setdefault(connections, []).append(len(done) / seconds)
    target.windows.setdefault(connections, []).append(Window(seq, server_cpu, len(done), len(done) / seconds))
    sums = target.cpu.setdefault(connections, [0.0, 0.0])
    sums[0] += server_cpu
    sums[1] += len(done)
    target.splits.setdefault(connections, []).append("/".join(map(str, sample["split"])))  # type: ignore[arg-type]


def cold_start(server: GunicornServer, clients: int) -> tuple[float, int]:
    """``clients`` concurrent first ``GET /openapi.json`` on fresh connections: the slowest one (ms), and
    how much the workers' resident memory grew (KiB)."""
    before = sum(server.rss_kib().values())
    latencies: list[float] = []
    request = http_request("GET", "/openapi.json")

    def one() -> None:
        started = time.monotonic()
        with socket.create_connection((LOOPBACK, server.port), timeout=30) as sock:
            sock.sendall(request.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1))
            while sock.recv(262144):
                pass
        latencies.append(time.monotonic() - started)

    threads = [threading.Thread(target=one) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return max(latencies) * 1000, sum(server.rss_kib().values()) - before


def dun_against_row(count: int = 20_000, repeats: int = 5) -> str:
    """In process: a Joker Thirteen 5-card dun (0, 1, 2 jokers) against a Pineapple OFC bottom row, per
    evaluation, best of ``repeats`` round-robin passes (the target: a dun at most 2x a row)."""
    import random

    from bench.common import Case, time_cases
    from service.rules import ofc
    from service.rules import thirteen as j13
    from service.rules.cards import DECK, JOKER

    rng = random.Random(15)
    reals = [c for c in j13.GAME_DECK if c is not JOKER]

    def duns(jokers: int) -> list[list]:
        found = []
        while len(found) < count:
            hand = rng.sample(reals, 5 - jokers) + [JOKER] * jokers
            if all(hand.count(c) <= j13.DECK_COPIES[c] for c in hand):
                rng.shuffle(hand)
                found.append(hand)
        return found

    def rows(hands, evaluate=ofc.evaluate_row, row=ofc.Row.BOTTOM) -> None:
        for hand in hands:
            evaluate(row, hand)

    def dun(hands, evaluate=j13.evaluate_dun, dun=j13.Dun.MIDDLE) -> None:
        for hand in hands:
            evaluate(dun, hand)

    cases = [Case("OFC bottom row: ofc.evaluate_row", rows, [rng.sample(DECK, 5) for _ in range(count)])]
    cases += [Case(f"Joker Thirteen middle dun, {j} joker(s): evaluate_dun", dun, duns(j)) for j in (0, 1, 2)]
    time_cases(cases, repeats)
    row_us = cases[0].micros or 1.0
    lines = [table(["in process, per evaluation", "us", "vs OFC row", "target"],
                   [[c.name, f"{c.micros:.2f}", f"{(c.micros or 0) / row_us:.2f}x", "" if i == 0 else "<= 2.00x"]
                    for i, c in enumerate(cases)])]  # fmt: skip
    return "\n".join(lines)


def bracketed(healthz: Target, others: Sequence[Target], every: int) -> list[Target]:
    """One round's order of windows: a ``/healthz`` window before every ``every`` others and one at the
    end, so that every window has a ``/healthz`` window at most ``every`` windows before and after it."""
    order: list[Target] = []
    for i, t in enumerate(others):
        if i % every == 0:
            order.append(healthz)
        order.append(t)
    return [*order, healthz]


def reference(healthz: Target, n: int, w: Window) -> tuple[float, float]:
    """/healthz's CPU per request and req/s around window ``w``: the mean of the /healthz windows just
    before and just after it (the machine's mood of those seconds)."""
    before = [h for h in healthz.windows[n] if h.seq < w.seq]
    after = [h for h in healthz.windows[n] if h.seq > w.seq]
    near = before[-1:] + after[:1] or healthz.windows[n]
    return mean([h.cpu_per_request for h in near]), mean([h.rate for h in near])


def window_ratios(healthz: Target, t: Target, n: int) -> tuple[list[float], list[float]]:
    """Per window of ``t``, its requests/s and CPU per request against the /healthz windows around it (so
    that higher is cheaper for both)."""
    if t is healthz:
        return [1.0], [1.0]
    by_rate, by_cpu = [], []
    for w in t.windows[n]:
        ref_cpu, ref_rate = reference(healthz, n, w)
        by_rate.append(w.rate / ref_rate if ref_rate else float("nan"))
        by_cpu.append(ref_cpu / w.cpu_per_request if w.done else float("nan"))
    return by_rate, by_cpu


def ratios(healthz: Target, t: Target, n: int) -> tuple[float, float]:
    """``t``'s requests/s and CPU per request against /healthz's: the median of ``window_ratios``. A noisy
    stretch of the shared machine moves one window and its neighbours alike, and the median drops a window
    that stands out."""
    by_rate, by_cpu = window_ratios(healthz, t, n)
    return statistics.median(by_rate), statistics.median(by_cpu)


NEAR_LINE = 0.05  # how close to its target an endpoint's CPU ratio is for its windows' spread to be shown


def spread_lines(found: Sequence[Target], counts: Sequence[int]) -> list[str]:
    """The lowest and highest per-window CPU ratio of every endpoint short of its target or within
    ``NEAR_LINE`` of it: how far the run's own windows scatter around the median the verdict reads (the
    same code's ratios move by up to 0.2 between runs)."""
    healthz = next(t for t in found if t.label == "GET /healthz")
    lines = []
    for t in found:
        if t.goal is None:
            continue
        by_cpu = {n: window_ratios(healthz, t, n)[1] for n in counts}
        if min(statistics.median(xs) for xs in by_cpu.values()) >= t.goal + NEAR_LINE:
            continue
        parts = [
            f"{n} conn {min(xs):.2f}-{max(xs):.2f} (median {statistics.median(xs):.2f})" for n, xs in by_cpu.items()
        ]
        lines.append(f"  {t.label}: {', '.join(parts)}; target {t.goal:.2f}x")
    return lines


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def report(found: list[Target], counts: Sequence[int], cold: dict[str, tuple[float, int]]) -> str:
    """The table: per connection count, req/s, server CPU per request, and both as ratios of /healthz's:
    by req/s (what the clients got, sharing the cores with the servers and with whatever else runs) and
    by CPU (/healthz's CPU per request over the endpoint's: what one core serves, the steadier figure on a
    shared machine). A target is met when both ratios reach it at every connection count."""
    healthz = next(t for t in found if t.label == "GET /healthz")
    flask_get = next(t for t in found if t.label == "floor: Flask GET")

    def cpu(t: Target, n: int) -> float:
        return t.cpu[n][0] / t.cpu[n][1] if t.cpu[n][1] else float("nan")

    headers = ["endpoint"]
    for n in counts:
        headers += [f"{n} conn: req/s", "CPU us/req", "vs healthz: req/s", "CPU"]
    headers += ["target", "met"]
    rows = []
    for t in found:
        row: list[object] = [t.label]
        by_rate, by_cpu = [], []
        for n in counts:
            r = mean(t.rates[n])
            ratio, cpu_ratio = ratios(healthz, t, n)
            row += [f"{r:,.0f}", f"{cpu(t, n) * 1e6:,.0f}", f"{ratio:.2f}x", f"{cpu_ratio:.2f}x"]
            by_rate.append(t.goal is not None and ratio >= t.goal)
            by_cpu.append(t.goal is not None and cpu_ratio >= t.goal)
        met = (
            ""
            if t.goal is None
            else "yes"
            if all(by_rate) and all(by_cpu)
            else "by CPU"
            if all(by_cpu)
            else "by req/s"
            if all(by_rate)
            else "NO"
        )
        row += [f">= {t.goal:.2f}x" if t.goal else "", met]
        rows.append(row)
    lines = [table(headers, rows)]
    lines.append("")
    for n in counts:
        by_rate, by_cpu = ratios(healthz, flask_get, n)  # Flask's GET against /healthz: /healthz's is the inverse
        h_f, c = 1 / by_rate, 1 / by_cpu
        lines.append(f"{n} connections: GET /healthz at {h_f:.2f}x the minimal Flask GET by req/s, {c:.2f}x by CPU per request "
                     f"(target >= 0.80x: {'met' if min(h_f, c) >= 0.8 else 'met by CPU' if c >= 0.8 else 'NOT MET'})")  # fmt: skip
    near = spread_lines(found, counts)
    if near:
        lines.append("")
        lines.append(
            f"per-window CPU ratios, lowest-highest, of the endpoints short of their target or within {NEAR_LINE:.2f} of it:"
        )
        lines += near
    lines.append("")
    lines.append("connections per worker, sampled in every window of the service (the fullest of three looks):")
    for n in counts:
        splits = [s for t in found if t.server == "service" for s in t.splits[n]]
        lopsided = sum(1 for s in splits if "/" in s and all(int(x) == 0 for x in s.split("/")[1:]))
        seen: dict[str, int] = {}
        for s in splits:
            seen[s] = seen.get(s, 0) + 1
        shown = ", ".join(f"{k} x{v}" for k, v in sorted(seen.items(), key=lambda kv: -kv[1]))
        lines.append(
            f"  {n} connections: {shown}; windows with every connection on one worker: {lopsided} of {len(splits)}"
        )
    lines.append("")
    lines.append("cold start, concurrent first GET /openapi.json: " + "; ".join(
        f"{name}: slowest {ms:,.0f} ms, workers' memory {kib / 1024:+.1f} MiB" for name, (ms, kib) in cold.items()))  # fmt: skip
    return "\n".join(lines)


def write_readme(text: str, header: str) -> None:
    readme = README.read_text(encoding="utf-8")
    block = f"{BEGIN}\n{header}\n\n```\n{text}\n```\n{END}"
    if BEGIN in readme and END in readme:
        readme = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _m: block, readme, flags=re.DOTALL)
    else:
        readme = (
            readme.rstrip("\n")
            + "\n\n## Per-request cost against the stack's floor (bench/floor.py)\n\n"
            + block
            + "\n"
        )
    README.write_text(readme, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.5, help="measured seconds per window (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=4, help="interleaved rounds (default %(default)s)")
    parser.add_argument(
        "--bracket",
        type=int,
        default=4,
        help="a /healthz window before every this many other windows, and at the end (default %(default)s)",
    )
    parser.add_argument(
        "--connections", type=int, nargs="+", default=[8, 64], help="keep-alive connections (default 8 64)"
    )
    parser.add_argument("--processes", type=int, default=2, help="client processes (default %(default)s)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server (default %(default)s)")
    parser.add_argument(
        "--cold", type=int, default=8, help="concurrent first /openapi.json requests (default %(default)s)"
    )
    parser.add_argument(
        "--only", default="", help="only the endpoints whose label contains this (floors and /healthz always)"
    )
    parser.add_argument("--write-readme", action="store_true", help="replace the floor table in bench/README.md")
    args = parser.parse_args(argv)

    found = [t for t in targets() if not args.only or t.group in ("floor", "healthz") or args.only in t.label]
    heading("Per-request cost against the stack's floor (bench/floor.py)")
    apps = {
        "service": "service.wsgi:app",
        "flask": "bench.floor_apps:flask_floor",
        "wsgi": "bench.floor_apps:wsgi_floor",
    }
    servers: dict[str, GunicornServer] = {}
    cold: dict[str, tuple[float, int]] = {}
    try:
        for name, app in apps.items():
            servers[name] = GunicornServer(app=app, workers=args.workers, startup_timeout=60)
            servers[name].start()
        for name in ("service",):
            cold[name] = cold_start(servers[name], args.cold)  # the first requests after /healthz's readiness probe
        say(f"servers: gunicorn --config gunicorn.conf.py, {servers['service'].worker_class}, {args.workers} workers each: "
            + ", ".join(f"{n} ({a}) :{servers[n].port}" for n, a in apps.items()))  # fmt: skip
        say(f"load: {' and '.join(map(str, args.connections))} keep-alive connections over {args.processes} client processes, "
            f"{args.seconds:g} s windows, {args.rounds} interleaved rounds; {os.cpu_count()} CPUs shared by servers and clients")  # fmt: skip
        for t in found:  # pre-flight, and a warm-up of every worker
            server = servers[t.server]
            window(server, t, 8, 0.3, args.processes)
            t.rates.clear(), t.cpu.clear(), t.splits.clear(), t.windows.clear()
        healthz = next(t for t in found if t.label == "GET /healthz")
        others = [t for t in found if t is not healthz]
        seq = dict.fromkeys(args.connections, 0)
        for round_ in range(args.rounds):
            for n in args.connections:
                for t in bracketed(healthz, others, args.bracket):
                    window(servers[t.server], t, n, args.seconds, args.processes, seq[n])
                    seq[n] += 1
                say(f"  round {round_ + 1}/{args.rounds}, {n} connections: healthz "
                    f"{healthz.rates[n][-1]:,.0f} req/s")  # fmt: skip
    finally:
        for server in servers.values():
            server.stop()
    text = report(found, args.connections, cold) + "\n\n" + dun_against_row()
    say()
    say(text)
    if args.write_readme:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        write_readme(text, f"`.venv/bin/python bench/floor.py --write-readme`, {stamp}, {os.cpu_count()} shared CPUs, "
                           f"{args.rounds} rounds of {args.seconds:g} s windows.")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
