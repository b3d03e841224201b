"""Hostile clients against gunicorn with the project's gunicorn.conf.py, each row beside an
unattacked baseline measured in the same run. Run: ``.venv/bin/python bench/attack.py`` (about 4 min;
``--seconds`` per row, ``--worker-class gthread`` for gunicorn's stock worker: the "before").

Rows: a normal workload (16 client processes, keep-alive, ``POST /v1/ofc-pineapple/hands/score`` with the
contract's example) and a ``/healthz`` probe (a new connection every 50 ms, 5 s time-out) while each
attack holds its connections open, reopening each one the server closes:

* partial headers: 500 connections that send ``POST ... HTTP/1.1\\r\\nHost: x\\r\\n`` and then one more
  header byte a second (slowloris);
* idle: 500 connections that send nothing;
* slow body: 50 connections with ``Content-Length: 100``, 17 bytes of body, then a byte a second;
* all three at once.

Targets (exit status 1 when one is missed): the workload keeps >= 80% of its baseline requests per
second, ``/healthz`` p99 < 1 s, no worker killed, every attacking connection closed by the server within
its deadline (+1 s) and a 408 for the partial ones. Then oversized lists: a 64 KiB body holding the
longest list it can (``players``, ``cards``, ``actions``) answers 422 within 5x of a valid request's
time, in English and in zh-TW, and 16 clients sending them leave ``/healthz`` p99 under 1 s. Worker
memory (RSS) after everything is within 20 MiB of its baseline; the peak is what deploy/ sizes from.

Last, the memory rows (``memory``; alone with ``--memory-only``): 16 clients flood each kind of request
that once left memory behind (oversized lists, a 422 of each code, whole-valued numbers, a new royalty
table, a new Thirteen table on ``rounds/score`` and on ``arrangements/suggest``, ``Accept-Encoding`` or
``Accept-Language`` each time); no worker may grow by more than 20 MiB over a row (``--memory-rows WORD
...``: only the rows whose label holds one). The suite runs them at a small scale
(tests/production/test_memory.py).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import selectors
import socket
import statistics
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

import yaml

from bench.common import LOOPBACK, ROOT, Endpoint, GunicornServer, heading, run_load, say, table

HEADER_TIMEOUT, BODY_TIMEOUT, KEEPALIVE = 5.0, 10.0, 5.0  # service/gunicorn_worker.py, gunicorn.conf.py
MAX_BODY = 64 * 1024
PARTIAL = b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\n"
SLOW_BODY = (b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: 100\r\n\r\n" + b'{"cards": ["3C", ')  # 17 bytes of the 100  # fmt: skip
ATTACKER_NICENESS = -10  # root only; see ``attacker``
ATTACKS = {  # kind: (connections, first bytes, deadline the server must close it by, after the first byte)
    "partial headers": (500, PARTIAL, HEADER_TIMEOUT),
    "idle": (500, b"", KEEPALIVE),
    "slow body": (50, SLOW_BODY, BODY_TIMEOUT),
}


def example(path: str) -> Any:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    media = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return media["example"] if "example" in media else next(iter(media["examples"].values()))["value"]


# --- attackers ---------------------------------------------------------------------------------------


def attacker(kind: str, port: int, start_at: float, end_at: float, results: Any, count: int | None = None) -> None:
    """One process holding ``ATTACKS[kind]`` connections (or ``count``) until ``end_at``, one byte a second
    each after the first bytes; every connection the server closes (or resets) is recorded and reopened."""
    usual, first, deadline = ATTACKS[kind]
    count = count or usual
    try:  # The attacker is also the clock of "max s to close": on 2 cores shared with 16 busy workload
        os.nice(ATTACKER_NICENESS)  # processes its loop ran up to a second late. It needs little CPU, so a
    except OSError:  # higher priority (where allowed) makes the clock right without taking the server's.
        pass
    selector = selectors.DefaultSelector()
    closes: list[float] = []  # seconds from the first byte (the connect, if none) to the server's close
    answers: dict[str, int] = {}
    opened = failed = 0
    state: dict[socket.socket, list[Any]] = {}

    def open_one() -> None:
        nonlocal opened, failed
        try:
            sock = socket.create_connection((LOOPBACK, port), timeout=2)
            if first:
                sock.sendall(first)
        except OSError:
            failed += 1
            time.sleep(0.01)
            return
        sock.setblocking(False)
        opened += 1
        state[sock] = [time.monotonic(), time.monotonic(), b""]
        selector.register(sock, selectors.EVENT_READ)

    while time.monotonic() < start_at:
        time.sleep(0.01)
    for _ in range(count):
        open_one()
    while (now := time.monotonic()) < end_at:
        events = selector.select(timeout=0.1)
        now = time.monotonic()  # every close of this batch happened by now: reopening comes after
        for key, _ in events:
            sock = key.fileobj
            try:
                data = sock.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data:
                state[sock][2] += data
                try:
                    data = sock.recv(4096)  # the close usually comes with the answer
                except OSError:
                    continue
                if data:
                    state[sock][2] += data
                    continue
            started, _, answer = state.pop(sock)
            selector.unregister(sock)
            sock.close()
            closes.append(now - started)
            status = answer[9:12].decode() if answer.startswith(b"HTTP/1.1 ") else "none"
            answers[status] = answers.get(status, 0) + 1
        if first:  # a byte a second: slowloris, not silence
            for sock, entry in list(state.items()):
                if now - entry[1] >= 1.0:
                    entry[1] = now
                    try:
                        sock.send(b"X" if kind == "partial headers" else b" ")
                    except OSError:
                        pass
        while len(state) < count and time.monotonic() < end_at:
            open_one()
    for sock in state:
        sock.close()
    results.put({"kind": kind, "opened": opened, "failed": failed, "closes": closes, "answers": answers,
                 "deadline": deadline})  # fmt: skip


class Prober(threading.Thread):
    """GET /healthz on a new connection every 50 ms (a load balancer's probe); a time-out counts 5 s.
    Also samples the workers' memory every 0.5 s."""

    def __init__(self, server: GunicornServer | Gateway) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.latencies: list[float] = []
        self.failures = 0
        self.peak_rss_kib = 0
        self.stop = threading.Event()

    def run(self) -> None:
        key = f"Authorization: Bearer {self.server.key}\r\n" if isinstance(self.server, Gateway) else ""
        request = f"GET /healthz HTTP/1.1\r\nHost: {LOOPBACK}\r\n{key}Connection: close\r\n\r\n".encode()
        next_rss = 0.0
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                with socket.create_connection((LOOPBACK, self.server.port), timeout=5) as sock:
                    sock.sendall(request)
                    data = b""
                    while chunk := sock.recv(4096):
                        data += chunk
                ok = data.startswith(b"HTTP/1.1 200")
            except OSError:
                ok = False
            elapsed = time.monotonic() - started
            self.latencies.append(elapsed if ok else max(elapsed, 5.0))
            self.failures += not ok
            if started >= next_rss:
                next_rss = started + 0.5
                self.peak_rss_kib = max([self.peak_rss_kib, *self.server.rss_kib().values()])
            time.sleep(max(0.0, 0.05 - elapsed))

    def p99_ms(self) -> float:
        ordered = sorted(self.latencies) or [0.0]
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


@dataclass(frozen=True)
class KeyedEndpoint(Endpoint):
    """An endpoint whose requests carry the gateway's API key."""

    key: str = ""

    def raw_request(self, host: str, port: int) -> bytes:
        head, blank, body = super().raw_request(host, port).partition(b"\r\n\r\n")
        return head + f"\r\nAuthorization: Bearer {self.key}".encode() + blank + body


class Gateway:
    """nginx on deploy/nginx.conf (as tests/integration/ runs it) in front of a gunicorn: attacked and asked on
    nginx's port; the workers' memory, CPU and log are the gunicorn's."""

    def __init__(self, server: GunicornServer, proxy: Any, key: str) -> None:
        self.server, self.proxy, self.key = server, proxy, key
        self.port, self.metrics_port = proxy.port, server.metrics_port

    def rss_kib(self) -> dict[int, int]:
        return self.server.rss_kib()

    def cpu_seconds(self) -> float | None:
        return self.server.cpu_seconds()

    def log_text(self) -> str:
        return self.server.log_text()


def worker_kills(server: GunicornServer | Gateway) -> int:
    return len(re.findall(r"WORKER TIMEOUT", server.log_text()))


def run_row(server: GunicornServer | Gateway, endpoint: Endpoint, kinds: list[str], seconds: float,
            counts: dict[str, int] | None = None) -> dict[str, Any]:  # fmt: skip
    """The workload and the probe for ``seconds`` while ``kinds`` attack (none: the baseline), each with
    ``counts[kind]`` connections when given."""
    counts = counts or {}
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    start_at = time.monotonic() + 0.5
    # The attack runs 2 s before the workload and as long as the longest deadline after it, so that the
    # workload sees the attack at full strength and every deadline can pass while the attack still runs.
    end_at = start_at + seconds + 4.0
    attackers = [
        context.Process(target=attacker, args=(k, server.port, start_at, end_at, results, counts.get(k)), daemon=True)
        for k in kinds
    ]
    for process in attackers:
        process.start()
    kills_before = worker_kills(server)
    time.sleep(2.5 if kinds else 0.5)
    prober = Prober(server)
    prober.start()
    load = run_load(server, endpoint, seconds, 16)
    prober.stop.set()
    prober.join()
    attacks = [results.get(timeout=60) for _ in attackers]
    for process in attackers:
        process.join(timeout=10)
    return {"load": load, "prober": prober, "attacks": attacks, "kills": worker_kills(server) - kills_before}


def metric(server: GunicornServer, name: str) -> dict[str, float]:
    time.sleep(1.1)  # /metrics caches its text for 1 s
    with socket.create_connection((LOOPBACK, server.metrics_port), timeout=5) as sock:
        sock.sendall(f"GET /metrics HTTP/1.1\r\nHost: {LOOPBACK}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    found = re.findall(rf'^{name}_total(?:\{{reason="(\w+)"\}})? (\S+)$', data.decode(), re.M)
    return {reason or "": float(value) for reason, value in found}


# --- oversized lists ---------------------------------------------------------------------------------


def oversized_bodies() -> dict[str, tuple[str, bytes, bytes]]:
    """label: (path, a valid request's body, a body of the same path holding as long a list as fits)."""

    def fill(prefix: bytes, item: bytes, suffix: bytes) -> bytes:
        count = (MAX_BODY - len(prefix) - len(suffix)) // (len(item) + 1)
        return prefix + b",".join([item] * count) + suffix

    compact = lambda value: json.dumps(value, separators=(",", ":")).encode()  # noqa: E731
    return {
        "joker-thirteen rounds/score, players: [{}, ...]": (
            "/v1/joker-thirteen/rounds/score", compact(example("/v1/joker-thirteen/rounds/score")),
            fill(b'{"players":[', b"{}", b"]}"),
        ),
        "big-two plays/classify, cards: [0, ...]": (
            "/v1/big-two/plays/classify", compact(example("/v1/big-two/plays/classify")),
            fill(b'{"cards":[', b"0", b"]}"),
        ),
        "big-two games/validate, actions: [{pass}, ...]": (
            "/v1/big-two/games/validate", compact(example("/v1/big-two/games/validate")),
            fill(compact({k: v for k, v in example("/v1/big-two/games/validate").items() if k != "actions"})[:-1]
                 + b',"actions":[', b'{"type":"pass"}', b"]}"),
        ),
    }  # fmt: skip


def timed_posts(port: int, path: str, body: bytes, language: str, count: int) -> tuple[float, int]:
    """Median seconds of ``count`` POSTs on one keep-alive connection, and the last status."""
    request = (f"POST {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nContent-Type: application/json\r\n"
               f"Accept-Language: {language}\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body  # fmt: skip
    times, status = [], 0
    with socket.create_connection((LOOPBACK, port), timeout=30) as sock:
        for _ in range(count):
            started = time.perf_counter()
            sock.sendall(request)
            data = b""
            while b"\r\n\r\n" not in data:
                data += sock.recv(65536)
            head, _, rest = data.partition(b"\r\n\r\n")
            length = int(re.search(rb"Content-Length: (\d+)", head, re.I).group(1))
            while len(rest) < length:
                rest += sock.recv(65536)
            times.append(time.perf_counter() - started)
            status = int(head[9:12])
    return statistics.median(times), status


def normal_load(endpoint: Endpoint, rounds: int, seconds: float) -> None:
    """The unattacked workload on this worker and on gunicorn's stock gthread (which does not read a request
    whole under deadlines before a thread takes it), both servers up, in alternating rounds so the
    machine's drift hits both alike."""
    with GunicornServer(workers=2) as ours, GunicornServer(workers=2, worker_class="gthread") as stock:
        heading(f"Normal load: {ours.worker_class} against gthread, {rounds} alternating rounds of {seconds:.0f} s")
        rows = []
        for clients in (4, 16):
            rates: dict[str, list[float]] = {"gthread": [], "ours": []}
            p99: dict[str, list[float]] = {"gthread": [], "ours": []}
            cpu: dict[str, list[float]] = {"gthread": [], "ours": []}
            for _ in range(rounds):
                for name, server in (("gthread", stock), ("ours", ours)):
                    result = run_load(server, endpoint, seconds, clients)
                    rates[name].append(result.per_second)
                    p99[name].append(result.percentile_ms(99) or 0.0)
                    cpu[name].append(result.server_cpu_ms_per_request or 0.0)
            before, after = statistics.median(rates["gthread"]), statistics.median(rates["ours"])
            cpu_before, cpu_after = statistics.median(cpu["gthread"]), statistics.median(cpu["ours"])
            rows.append([clients, f"{before:,.0f}", f"{statistics.median(p99['gthread']):.1f}", f"{cpu_before:.3f}",
                         f"{after:,.0f}", f"{statistics.median(p99['ours']):.1f}", f"{cpu_after:.3f}",
                         f"{after / before:.0%}", f"{cpu_after / cpu_before:.0%}"])  # fmt: skip
        say(table(["clients", "gthread req/s", "p99 ms", "server CPU ms/req", "this worker req/s", "p99 ms",
                   "server CPU ms/req", "req/s ratio", "CPU/req ratio"], rows))  # fmt: skip


def refusal_times(server: GunicornServer, bodies: dict[str, tuple[str, bytes, bytes]], kind: str,
                  failures: list[str]) -> None:  # fmt: skip
    """Each of ``bodies`` (label: path, a valid body, a body refused 422) in English and zh-TW: the refusal's
    median time against the valid request's, on one connection; a 422 within 5x is the target."""
    rows = []
    for label, (path, valid, refused) in bodies.items():
        for language in ("en", "zh-TW"):
            valid_s, valid_status = timed_posts(server.port, path, valid, language, 20)
            refused_s, refused_status = timed_posts(server.port, path, refused, language, 20)
            ratio = refused_s / valid_s
            rows.append([label, language, f"{valid_s * 1000:.2f} ({valid_status})",
                         f"{refused_s * 1000:.2f} ({refused_status})", f"{ratio:.1f}x"])  # fmt: skip
            if refused_status != 422 or ratio > 5:
                failures.append(f"{kind} {label} {language}: {refused_status} in {ratio:.1f}x a valid request's time")
    say(table(["body", "language", "valid ms (status)", f"{kind} ms (status)", "ratio"], rows))


def oversized_lists(server: GunicornServer, seconds: float, failures: list[str]) -> int:
    """The oversized-list rows and the flood of them; the workers' peak RSS during the flood (KiB)."""
    heading("Oversized lists (64 KiB bodies) against a valid request, median of 20, one connection")
    refusal_times(server, oversized_bodies(), "oversized", failures)
    path, _, oversized = oversized_bodies()["joker-thirteen rounds/score, players: [{}, ...]"]
    flood = Endpoint("oversized players", "POST", path, oversized, expect=frozenset({422}))
    prober = Prober(server)
    prober.start()
    load = run_load(server, flood, seconds, 16)
    prober.stop.set()
    prober.join()
    say(
        f"16 clients sending oversized players lists: {load.per_second:,.0f} answers/s "
        f"({dict(load.statuses)}), /healthz p99 {prober.p99_ms():,.0f} ms, {prober.failures} probes failed"
    )
    if prober.p99_ms() >= 1000:
        failures.append(f"oversized flood: /healthz p99 {prober.p99_ms():,.0f} ms")
    return prober.peak_rss_kib


# --- memory ------------------------------------------------------------------------------------------

RSS_BOUND_MIB = 20  # each worker's growth over its baseline that a memory row may leave


def _raw_post(path: str, body: bytes, headers: str = "") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nContent-Type: application/json\r\n{headers}"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body  # fmt: skip


def _post_json(path: str, payload: Any, headers: str = "") -> bytes:
    return _raw_post(path, json.dumps(payload, separators=(",", ":")).encode(), headers)


def _royalty_request(i: int) -> bytes:
    """A royalty table new for each ``i`` (below 10,201), to rows/evaluate or, every fourth, to the outlook."""
    from service.rules.ofc.rules import HOUSE_ROYALTIES  # the bench's one use of the rules core

    royalties = {"middle": {**HOUSE_ROYALTIES["middle"], "trips": i % 101, "straight": i // 101 % 101}}
    if i % 4:
        return _post_json("/v1/ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Kh", "Kd", "As"],
                                                             "royalties": royalties})  # fmt: skip
    board = {"top": ["Qs", "Qd", "4s"], "middle": ["7c", "7d", "4h", "8h", "8d"], "bottom": ["9d", "Td", "Jd", "2d"]}
    return _post_json("/v1/ofc-pineapple/boards/outlook", {"board": board, "royalties": royalties})


def big_two_table(i: int) -> dict[str, Any]:
    """A plays/compare body at a Big Two table of its own rules, new for each ``i`` below 28,160: multipliers
    whose product stays within the bound a table may set, and five of the table's switches."""
    switches = ("pass_locks", "first_play_has_lowest_card", "five_beats_lower_kind", "dragons")
    rules: dict[str, Any] = {name: bool(i >> bit & 1) for bit, name in enumerate(switches)}
    rules["flush_order"] = "rank_by_rank" if i >> 4 & 1 else "highest_card"
    rest = i >> 5
    rules["loser_multipliers"] = {"per_two_held": 1 + rest % 4, "monster_held": 1 + rest // 4 % 10}
    rules["winner_multipliers"] = {"grand_slam": 1 + rest // 40 % 22}
    return {"table": ["3c"], "play": ["4d"], "rule_set": "hong-kong", "rules": rules}


def thirteen_bonuses(i: int) -> dict[str, Any]:
    """An arrangements/suggest body of ordinary 十三支 under a house bonus table of its own, new for each ``i``
    below 101**3: the suggester's opponent tables are kept per bonus table (a few at a time)."""
    bonuses = {"head": {"trips": i % 101}, "tail": {"quads": i // 101 % 101, "straight_flush": i // 10_201 % 101}}
    cards = ["As", "Ks", "Qs", "Js", "9h", "9d", "9c", "7h", "7d", "5c", "4c", "3d", "2h"]
    return {"cards": cards, "alternatives": 0, "bonuses": bonuses}


def thirteen_table(i: int) -> dict[str, Any]:
    """A Thirteen table's ``rules`` on the shisanshui rule set, new for each ``i`` below 101 * 11 * 4 * 37
    (164,428): a won dun's points, the sweep's points and multiplier, and what a dragon pays among two
    specials."""
    return {
        "dun_points": i % 101,
        "sweep_points": i // 101 % 11,
        "sweep_multiplier": 1 + i // 1111 % 4,
        "specials": {"dragon": 36 + i // 4444 % 37, "six_pairs": 4},
    }


def thirteen_table_round(i: int, documented: dict[str, Any]) -> dict[str, Any]:
    """The documented ordinary 十三支 round (``documented``, read once: reading the contract takes seconds)
    scored at a table of its own (``thirteen_table``)."""
    return {**documented, "rule_set": "shisanshui", "rules": thirteen_table(i)}


def thirteen_table_suggest(i: int) -> dict[str, Any]:
    """An arrangements/suggest body of ordinary 十三支 at a shisanshui table of its own (``thirteen_table``)."""
    cards = ["As", "Ks", "Qs", "Js", "9h", "9d", "9c", "7h", "7d", "5c", "4c", "3d", "2h"]
    return {"cards": cards, "alternatives": 0, "rule_set": "shisanshui", "rules": thirteen_table(i)}


def memory_rows() -> dict[str, tuple[frozenset[int], Any]]:
    """label: (the statuses expected, the i-th request as raw bytes): every kind of request that once left
    memory behind in a worker."""
    bodies = oversized_bodies()
    players_path, _, players = bodies["joker-thirteen rounds/score, players: [{}, ...]"]
    cards_path, _, cards = bodies["big-two plays/classify, cards: [0, ...]"]
    classify, game = "/v1/big-two/plays/classify", example("/v1/big-two/games/validate")
    thirteen_round = example("/v1/thirteen/rounds/score")
    refused = [  # one of each 422 code
        _post_json(classify, {"cards": 5}),
        _post_json(classify, {"cards": ["3c"], "extra": 1}),
        _post_json(classify, {"cards": ["3c", "Zz"]}),
        _post_json("/v1/ofc-pineapple/rows/evaluate", {"row": "top", "cards": ["Kh"], "rule_set": "none"}),
        _post_json("/v1/big-two/games/validate", {**game, "actions": [{"seat": 9, "type": "pass"}]}),
    ]
    whole = [  # whole-valued numbers, taken by ruling P5: marshmallow loads them
        _post_json("/v1/big-two/games/score", {**example("/v1/big-two/games/score"), "base": 10.0}),
        _post_json("/v1/ofc-pineapple/hands/validate", {**example("/v1/ofc-pineapple/hands/validate"), "dealer": 2.0}),
    ]
    return {
        "oversized players lists": (frozenset({422}), lambda i: _raw_post(players_path, players)),
        "oversized cards lists": (frozenset({422}), lambda i: _raw_post(cards_path, cards)),
        "a 422 of each code": (frozenset({422}), lambda i: refused[i % len(refused)]),
        **{label: (frozenset({422}), lambda i, body=body: _raw_post(CLASSIFY, body))
           for label, (_, _, body) in unknown_key_bodies().items()},
        "whole-valued numbers": (frozenset({200}), lambda i: whole[i % len(whole)]),
        "a new royalty table each time": (frozenset({200, 503}), _royalty_request),  # 503: the heavy cap
        "a new Big Two table each time": (frozenset({200}), lambda i: _post_json(
            "/v1/big-two/plays/compare", big_two_table(i))),
        "a new Thirteen bonus table each time": (frozenset({200, 503}), lambda i: _post_json(  # 503: the heavy cap
            "/v1/thirteen/arrangements/suggest", thirteen_bonuses(i))),
        "a new Thirteen table each time": (frozenset({200}), lambda i: _post_json(
            "/v1/thirteen/rounds/score", thirteen_table_round(i, thirteen_round))),
        "a new Thirteen table on suggest each time": (frozenset({200, 503}), lambda i: _post_json(  # 503: the heavy cap
            "/v1/thirteen/arrangements/suggest", thirteen_table_suggest(i))),
        "a new Accept-Encoding each time": (frozenset({200}), lambda i: (
            f"GET /openapi.json HTTP/1.1\r\nHost: {LOOPBACK}\r\nAccept-Encoding: br;q=0.5, x-{i}\r\n\r\n").encode()),
        "a new Accept-Language each time": (frozenset({200}), lambda i: _post_json(
            classify, {"cards": ["3c"]}, f"Accept-Language: x-{i}, zh-TW;q=0.5\r\n")),
    }  # fmt: skip


def _flood_client(port: int, make: Any, i: int, step: int, until: float, statuses: dict[int, int],
                  stop: int | None = None) -> None:  # fmt: skip
    """Requests ``make(i)``, ``make(i + step)``, ... on keep-alive connections until ``until`` (or ``i``
    reaches ``stop``)."""
    sock: socket.socket | None = None
    while time.monotonic() < until and (stop is None or i < stop):
        try:
            if sock is None:
                sock = socket.create_connection((LOOPBACK, port), timeout=30)
            sock.sendall(make(i))
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionError("closed before an answer")
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
            while len(rest) < length:
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionError("closed inside an answer")
                rest += chunk
            status = int(head[9:12])
            statuses[status] = statuses.get(status, 0) + 1
            if re.search(rb"(?i)^connection: *close", head, re.M):
                sock.close()
                sock = None
        except OSError:
            statuses[0] = statuses.get(0, 0) + 1  # no answer
            if sock is not None:
                sock.close()
            sock = None
        i += step
    if sock is not None:
        sock.close()


WARM_UP = 200  # requests of each memory row before the baseline: more keys than any bounded cache they fill
FIRST = 1000  # the flood's first request number: keys the warm-up did not send


def flood(port: int, make: Any, seconds: float, clients: int = 16) -> dict[int, int]:
    """``clients`` threads sending ``make(i)`` for ``seconds``, each its own ``i``: the statuses answered."""
    until = time.monotonic() + seconds
    counts = [dict[int, int]() for _ in range(clients)]
    threads = [threading.Thread(target=_flood_client, args=(port, make, FIRST + n, clients, until, counts[n]))
               for n in range(clients)]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    total: dict[int, int] = {}
    for part in counts:
        for status, n in part.items():
            total[status] = total.get(status, 0) + n
    return total


def memory(server: GunicornServer, seconds: float, failures: list[str], only: list[str] | None = None) -> None:
    """Each memory row floods the server from 16 clients for ``seconds``, after a warm-up of every row (one
    request at a time, enough to fill the bounded caches each row keys); every answer is expected, no
    worker is replaced, and none grows by more than RSS_BOUND_MIB over the row: a request that kept
    anything would, thousands of times. The growth since the warm-up is shown too: it is the high-water of
    four requests at a time per worker (their bodies, the rule sets they build), reached once."""
    rows = {label: row for label, row in memory_rows().items() if only is None or label in only}
    for _, make in rows.values():  # the first requests of each kind build what a worker keeps for good, and
        for n in range(2):  # fill its bounded caches: two clients, so that both workers see them
            _flood_client(server.port, make, n, 2, time.monotonic() + 60, {}, stop=WARM_UP)
    baseline = server.rss_kib()
    heading(f"Memory: 16 clients for {seconds:.0f} s a row, each worker's RSS against its baseline")
    table_rows = []
    for label, (expected, make) in rows.items():
        before = server.rss_kib()
        statuses = flood(server.port, make, seconds)
        time.sleep(0.5)
        now = server.rss_kib()
        grown = max((now.get(pid, 0) - kib) / 1024 for pid, kib in before.items())
        since = max((now.get(pid, 0) - kib) / 1024 for pid, kib in baseline.items())
        table_rows.append([label, sum(statuses.values()), ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())),
                           f"{grown:+.1f}", f"{since:+.1f}"])  # fmt: skip
        if set(now) != set(baseline):
            failures.append(f"memory, {label}: a worker was replaced")
        if not statuses or set(statuses) - expected:
            failures.append(f"memory, {label}: answered {statuses}, expected only {sorted(expected)}")
        if grown > RSS_BOUND_MIB:
            failures.append(f"memory, {label}: a worker grew by {grown:.1f} MiB")
    say(table(["row", "requests", "statuses", "largest growth over the row MiB", "since the warm-up MiB"], table_rows))


def memory_labels(wanted: list[str] | None) -> list[str] | None:
    """The memory rows whose label contains one of ``wanted`` (None: every row); an unmatched word is an error."""
    if wanted is None:
        return None
    labels = list(memory_rows())
    unmatched = [w for w in wanted if not any(w in label for label in labels)]
    if unmatched:
        raise SystemExit(f"no memory row matches {unmatched}; the rows: {labels}")
    return [label for label in labels if any(w in label for w in wanted)]


def attack_rows(server: GunicornServer | Gateway, endpoint: Endpoint, seconds: float, wanted: list[str] | None,
                failures: list[str], counts: dict[str, int] | None = None) -> int:  # fmt: skip
    """Each attack row (``wanted``, or all) right after its own baseline, and its table; the workers' peak RSS
    (KiB). Through the gateway (``Gateway``) nginx answers the attackers itself: a partial head is reset at its
    deadline, not answered 408."""
    rows = []
    peak_rss = 0
    every_row = {
        "partial headers": ["partial headers"],
        "idle": ["idle"],
        "slow body": ["slow body"],
        "together": list(ATTACKS),
    }
    for name, kinds in every_row.items():
        if wanted is not None and name not in wanted:
            continue
        # each attack right after its own baseline: the machine's load drifts between rows
        baseline = run_row(server, endpoint, [], seconds)
        row = run_row(server, endpoint, kinds, seconds, counts)
        peak_rss = max(peak_rss, baseline["prober"].peak_rss_kib, row["prober"].peak_rss_kib)
        base_rate = baseline["load"].per_second
        load, prober = row["load"], row["prober"]
        ratio = load.per_second / base_rate if base_rate else 0.0
        closes = [c for a in row["attacks"] for c in a["closes"]]
        late_by_kind = {a["kind"]: sum(c > a["deadline"] + 1.0 for c in a["closes"]) for a in row["attacks"]}
        late = sum(late_by_kind.values())
        late_text = ", ".join(f"{k}: {n}" for k, n in late_by_kind.items() if n) or "0"
        answers: dict[str, int] = {}
        for a in row["attacks"]:
            for status, n in a["answers"].items():
                answers[status] = answers.get(status, 0) + n
        label = " + ".join(f"{kind} x {(counts or {}).get(kind, ATTACKS[kind][0]):,}" for kind in kinds)
        rows.append([label, f"{base_rate:,.0f}", f"{load.per_second:,.0f}", f"{ratio:.0%}",
                     f"{baseline['prober'].p99_ms():,.0f}", f"{prober.p99_ms():,.0f}", prober.failures,
                     row["kills"], len(closes), f"{max(closes, default=0):.1f}", late_text,
                     ", ".join(f"{s}: {n}" for s, n in sorted(answers.items())) or "-",
                     ", ".join(f"{s}: {n}" for s, n in sorted(load.statuses.items()))])  # fmt: skip
        if ratio < 0.8:
            failures.append(f"{label}: workload at {ratio:.0%} of its baseline")
        if load.unexpected:
            failures.append(f"{label}: the workload got {load.unexpected}")
        if prober.p99_ms() >= 1000:
            failures.append(f"{label}: /healthz p99 {prober.p99_ms():,.0f} ms")
        if row["kills"]:
            failures.append(f"{label}: {row['kills']} worker(s) killed")
        if late or not closes:
            failures.append(f"{label}: {late} connection(s) closed late, {len(closes)} closed")
        if "partial headers" in kinds and not isinstance(server, Gateway) and not answers.get("408"):
            failures.append(f"{label}: no 408 for partial headers")
    say(table(["attack", "baseline req/s", "attacked req/s", "of baseline", "baseline /healthz p99 ms",
               "attacked /healthz p99 ms", "probes failed", "workers killed", "attack conns closed by server",
               "max s to close", "closed late", "answers to attackers", "workload's answers"], rows))  # fmt: skip
    return peak_rss


# --- through the gateway ----------------------------------------------------------------------------

GATEWAY_COUNTS = {"partial headers": 2100}  # more than nginx's default connections (1,024 a worker, 2 workers)
GATEWAY_RATE, GATEWAY_BURST = "100000r/s", 100000  # a key's limit the workload never reaches


def gateway_attacks(endpoint: Endpoint, seconds: float, wanted: list[str] | None, failures: list[str]) -> None:
    """The attack rows through nginx on deploy/nginx.conf, in front of gunicorn as tests/integration/ runs it:
    the attackers send no key, the workload and the probe send one."""
    from tests.integration.nginx import KEY, NginxServer

    with GunicornServer(workers=2) as server, NginxServer([server.port], rate=GATEWAY_RATE,
                                                          burst=GATEWAY_BURST) as proxy:  # fmt: skip
        gateway = Gateway(server, proxy, KEY)
        keyed = KeyedEndpoint(endpoint.label, endpoint.method, endpoint.path, endpoint.body, expect=endpoint.expect,
                              key=KEY)  # fmt: skip
        heading(f"Attacks through the gateway (nginx, deploy/nginx.conf): {seconds:.0f} s per row, 16 keyed clients")
        run_row(gateway, keyed, [], 3.0)  # warm-up
        attack_rows(gateway, keyed, seconds, wanted, failures, GATEWAY_COUNTS)
        log = proxy.log_text()
        exhausted, timed_out = log.count("worker_connections are not enough"), log.count('"status": 408')
        say(f"nginx: {exhausted} 'worker_connections are not enough', {timed_out} requests timed out (408, reset)")
        if "worker_connections are not enough" in log:
            failures.append("gateway: nginx ran out of worker connections")


# --- unknown keys ------------------------------------------------------------------------------------

HIGH_WATER_MIB = 25  # README, "Memory": a worker's RSS rises once by at most this over four requests at a time
CLASSIFY = "/v1/big-two/plays/classify"


def unknown_key_bodies() -> dict[str, tuple[str, bytes, bytes]]:
    """label: (path, a valid request's body, a 64 KiB body of the same path: the valid one and as many unknown
    keys as fit, short or 36 characters long)."""
    valid = json.dumps(example(CLASSIFY), separators=(",", ":")).encode()
    bodies = {}
    for length in (5, 36):
        count = (MAX_BODY - len(valid)) // (len(f',"{0:0{length}d}":0'))
        keys = b"".join(f',"{i:0{length}d}":0'.encode() for i in range(count))
        bodies[f"{count:,} unknown keys of {length} characters"] = (CLASSIFY, valid, valid[:-1] + keys + b"}")
    return bodies


def unknown_keys(seconds: float, failures: list[str]) -> None:
    """Bodies of thousands of unknown keys on a fresh server: each refusal's time against a valid request's
    (one connection, median of 20), then 16 clients sending it: server CPU per request against 16 clients
    sending valid requests, /healthz p99, and the workers' growth over their rest (the high-water)."""
    with GunicornServer(workers=2) as server:
        bodies = unknown_key_bodies()
        valid = Endpoint("valid", "POST", CLASSIFY, next(iter(bodies.values()))[1], expect=frozenset({200}))
        run_load(server, valid, 2.0, 4)  # warm-up
        rest = max(server.rss_kib().values())
        heading("Unknown keys (64 KiB bodies) against a valid request, median of 20, one connection")
        refusal_times(server, bodies, "refused", failures)
        heading(f"16 clients for {seconds:.0f} s: server CPU per request, /healthz, worker RSS over its rest")
        rows = []
        floods = {"valid requests": valid} | {
            label: Endpoint(label, "POST", path, unknown, expect=frozenset({422}))
            for label, (path, _, unknown) in bodies.items()
        }
        valid_cpu = 0.0
        for label, endpoint in floods.items():
            prober = Prober(server)
            prober.start()
            load = run_load(server, endpoint, seconds, 16)
            prober.stop.set()
            prober.join()
            cpu = load.server_cpu_ms_per_request or 0.0
            valid_cpu = valid_cpu or cpu
            grown = (prober.peak_rss_kib - rest) / 1024
            rows.append([label, f"{load.per_second:,.0f}", ", ".join(f"{s}: {n}" for s, n in sorted(load.statuses.items())),
                         f"{cpu:.3f}", f"{cpu / valid_cpu:.1f}x", f"{prober.p99_ms():,.0f}", prober.failures,
                         f"{grown:+.1f}"])  # fmt: skip
            if load.unexpected or cpu > 5 * valid_cpu:
                failures.append(f"{label}: {load.unexpected} unexpected, {cpu / valid_cpu:.1f}x a valid request's CPU")
            if prober.p99_ms() >= 1000:
                failures.append(f"{label}: /healthz p99 {prober.p99_ms():,.0f} ms")
            if grown > HIGH_WATER_MIB:
                failures.append(f"{label}: a worker grew by {grown:.1f} MiB over its rest")
        say(table(["16 clients sending", "answers/s", "statuses", "server CPU ms/req", "of a valid one's",
                   "/healthz p99 ms", "probes failed", "peak worker RSS over rest MiB"], rows))  # fmt: skip
        say(f"worker RSS at rest {rest / 1024:.1f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="workload seconds per row (default 10)")
    parser.add_argument("--worker-class", default=None, help="gunicorn worker class (default: gunicorn.conf.py's)")
    parser.add_argument("--normal-load-only", action="store_true", help="only the unattacked comparison with gthread")
    parser.add_argument("--memory-only", action="store_true", help="only the memory rows (a fresh server)")
    parser.add_argument(
        "--memory-rows",
        nargs="+",
        metavar="LABEL",
        default=None,
        help="with --memory-only: only the memory rows whose label contains one of these (default: every row)",
    )
    parser.add_argument("--gateway", action="store_true", help="only the attack rows through nginx (deploy/nginx.conf)")
    parser.add_argument("--unknown-keys-only", action="store_true", help="only the unknown-key rows (a fresh server)")
    parser.add_argument(
        "--rows",
        nargs="*",
        choices=[*ATTACKS, "together"],
        default=None,
        help="only these attack rows (default: every row, then the oversized lists)",
    )
    args = parser.parse_args()
    endpoint = Endpoint.post_json(
        "hands/score", "/v1/ofc-pineapple/hands/score", example("/v1/ofc-pineapple/hands/score")
    )
    failures: list[str] = []
    if args.gateway or args.unknown_keys_only:
        if args.gateway:
            gateway_attacks(endpoint, args.seconds, args.rows, failures)
        else:
            unknown_keys(args.seconds, failures)
        heading("Verdict")
        say("\n".join(failures) if failures else "every target met")
        return 1 if failures else 0
    if args.memory_only:
        with GunicornServer(workers=2, worker_class=args.worker_class) as server:
            memory(server, args.seconds, failures, memory_labels(args.memory_rows))
        heading("Verdict")
        say("\n".join(failures) if failures else "every target met")
        return 1 if failures else 0
    if args.worker_class is None and args.rows is None:
        normal_load(endpoint, rounds=4, seconds=5.0)
    if args.normal_load_only:
        return 0
    with GunicornServer(workers=2, worker_class=args.worker_class) as server:
        heading(f"Attacks: {server.worker_class}, 2 workers, {args.seconds:.0f} s per row, 16 workload clients")
        run_row(server, endpoint, [], 3.0)  # warm-up
        rss_baseline = max(server.rss_kib().values())
        peak_rss = max(rss_baseline, attack_rows(server, endpoint, args.seconds, args.rows, failures))
        say("closed by the server, by reason (/metrics):", metric(server, "card_rules_connections_closed"))

        if args.rows is None:
            peak_rss = max(peak_rss, oversized_lists(server, args.seconds, failures))
        time.sleep(2.0)
        rss_after = max(server.rss_kib().values())
        say(
            f"worker RSS: baseline {rss_baseline / 1024:.1f} MiB, peak {peak_rss / 1024:.1f} MiB, "
            f"after the attacks {rss_after / 1024:.1f} MiB"
        )
        if rss_after - rss_baseline > 20 * 1024:
            failures.append(f"worker RSS grew by {(rss_after - rss_baseline) / 1024:.1f} MiB")
        if args.rows is None:
            memory(server, args.seconds, failures)
    if args.rows is None:
        unknown_keys(args.seconds, failures)
        gateway_attacks(endpoint, args.seconds, None, failures)
    heading("Verdict")
    say("\n".join(failures) if failures else "every target met")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
