"""Instructions per whole request, in process, counted by valgrind's callgrind: the one figure
of a request's cost that a shared, noisy machine does not move, for telling a change to the request path
apart from the noise that scatters ``floor.py``'s windows by 0.1-0.4.

    .venv/bin/python bench/instructions.py [--only LABEL] [--count N] [--rule-set ID] [--layer parse [--gunicorn-body]]

Each endpoint (``floor.py``'s, served by the service) runs ``--count`` whole WSGI requests, built as
``request_cost.py`` builds them, in a Python of its own under ``valgrind --tool=callgrind``, and a baseline
process runs none: every process first makes the same warm-up requests (each endpoint's five times, so
every cache a request fills is full before counting), and an endpoint's instructions per request are
its process's total minus the baseline's, over the count. Hash randomisation is off (``PYTHONHASHSEED``)
so the same code gives the same count; what still varies (a request id's random bytes) is a small share of
a request's count.

``thirteen_targets`` counts ordinary 十三支 at ``ordinary`` (the documented requests), at ``shisanshui`` and
at a table of its own on the same cards, labelled so that each pair reads side by side (``--only thirteen``).

``--rule-set hong-kong`` adds each Big Two endpoint again at that rule set (its label says so; the same
body naming it, with the turn's state the rule set needs, and for the record a game played at that table),
so that two rule sets are counted side by side in one run.

``--layer parse`` counts the server's side of the same requests instead: what a worker thread does before
the app (``service/gunicorn_worker.py``: gunicorn's parser over the buffered request, the body handed over
and read, the previous request's body drained), and ``--gunicorn-body`` the same with gunicorn's own body
reader instead of the worker's hand-over.

Instructions are not time: inside a whole request the same code costs more than its tight-loop time
(caches shared with the rest of the request), so a change that cuts instructions cuts time by less than
its share, and the counts of one endpoint move a little from run to run (allocation and the request id's
random bytes); figures in bench/README.md. About 2 minutes per process on 2 CPUs; ``--jobs`` run at once.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import LOOPBACK, table
from bench.floor import Target, example, targets

BASELINE = "(baseline)"
WARM_UP = 5  # requests of every endpoint before counting, in every process alike
_COLLECTED = re.compile(rb"^==\d+== Collected : (\d+)$", re.MULTILINE)


def service_targets(rule_set: str | None = None) -> list[Target]:
    """The service's endpoints of floor.py, Big Two's ``plays/legal`` besides, and each Big Two endpoint again
    at ``rule_set`` when one is named."""
    found = [t for t in targets() if t.server == "service"]
    found.append(
        Target("big-two plays/legal", "POST", "/v1/big-two/plays/legal", "service", example("bigTwoListLegalPlays"))
    )
    found += thirteen_targets()
    if rule_set:
        found += [at_rule_set(t, rule_set) for t in found if t.path.startswith("/v1/big-two/")]
    return found


def thirteen_targets() -> list[Target]:
    """Ordinary 十三支's dun and round operations on their documented requests, and Joker Thirteen's on the
    same cards (52 distinct cards, no joker: requests Joker Thirteen answers too), side by side; then ordinary
    十三支 at other tables on the same cards (``thirteen_table_targets``)."""
    found = []
    for operation, name in (("duns/evaluate", "EvaluateDun"), ("duns/compare", "CompareDuns"),
                            ("arrangements/validate", "ValidateArrangement"), ("rounds/score", "ScoreRound")):  # fmt: skip
        body = example(f"thirteen{name}")
        for game in ("thirteen", "joker-thirteen"):
            label = f"{game} {operation}" + (" (thirteen's cards)" if game == "joker-thirteen" else "")
            found.append(Target(label, "POST", f"/v1/{game}/{operation}", "service", body))
    return found + thirteen_table_targets()


TABLE_RULES = {"dun_points": 2, "sweep_points": 1, "sweep_multiplier": 3, "specials": {"dragon": 50, "six_pairs": 5}}
"""A table of its own: shisanshui with a few of its scoring parameters replaced."""


def thirteen_table_targets() -> list[Target]:
    """Ordinary 十三支 at any table, on the cards of the documented requests: ``rounds/score`` at ``shisanshui``
    and at shisanshui with ``rules`` of its own (``TABLE_RULES``), each beside the documented request
    (``ordinary``, "thirteen rounds/score"); ``hands/specials`` on seat 0's 13 cards of that round; and
    ``arrangements/validate`` at ``shisanshui`` beside the documented one."""
    score = json.loads(example("thirteenScoreRound"))
    seat = score["players"][0]
    specials = {"cards": [*seat["head"], *seat["middle"], *seat["tail"]]}
    validate = json.loads(example("thirteenValidateArrangement"))
    bodies = {
        "thirteen rounds/score [shisanshui]": ("rounds/score", {**score, "rule_set": "shisanshui"}),
        "thirteen rounds/score [shisanshui, own rules]": (
            "rounds/score", {**score, "rule_set": "shisanshui", "rules": TABLE_RULES}),
        "thirteen hands/specials (seat 0 of rounds/score)": ("hands/specials", specials),
        "thirteen arrangements/validate [shisanshui]": ("arrangements/validate", {**validate, "rule_set": "shisanshui"}),
    }  # fmt: skip
    return [
        Target(label, "POST", f"/v1/thirteen/{operation}", "service", json.dumps(body, separators=(",", ":")).encode())
        for label, (operation, body) in bodies.items()
    ]


def at_rule_set(target: Target, rule_set: str) -> Target:
    """``target``'s request naming ``rule_set``: its record a game played at that table, a question about one
    turn with the turn's state (neither the game's first lead nor after a pass)."""
    from bench.big_two import recorded_game, validate_body
    from service.rules.games import find_game

    assert target.body is not None
    body, label = json.loads(target.body), target.label
    if target.path.endswith("/games/validate"):
        body = validate_body(recorded_game(20260922, 20, find_game("big-two").rule_set(rule_set).rules))
        label = re.sub(r"\(\d+ actions\)", f"({len(body['actions'])} actions)", label)
    if target.path.endswith(("/moves/validate", "/plays/legal")):
        body.update(first_lead=False, passed=False)
    body["rule_set"] = rule_set
    encoded = json.dumps(body, separators=(",", ":")).encode()
    return Target(f"{label} [{rule_set}]", target.method, target.path, target.server, encoded)


def measured(only: str, rule_set: str | None = None) -> list[Target]:
    """The endpoints that ``--only`` picks, /healthz always first."""
    found = [t for t in service_targets(rule_set) if t.group == "healthz" or only in t.label]
    return sorted(found, key=lambda t: t.group != "healthz")


def collected(stderr: bytes) -> int:
    """callgrind's total instruction count from its summary on stderr."""
    found = _COLLECTED.findall(stderr)
    if len(found) != 1:
        raise ValueError(f"no single callgrind summary in: {stderr[-2000:]!r}")
    return int(found[0])


def per_request(totals: dict[str, int], count: int) -> dict[str, float]:
    """Each endpoint's instructions per request: its process's total less the baseline's, over ``count``."""
    base = totals[BASELINE]
    return {label: (total - base) / count for label, total in totals.items() if label != BASELINE}


def rows(figures: dict[str, float]) -> list[list[str]]:
    healthz = figures["GET /healthz"]
    return [[label, f"{n:,.0f}", f"{n - healthz:+,.0f}", f"{healthz / n:.2f}x"] for label, n in figures.items()]


def app_requests(rule_set: str | None = None) -> Callable[[Target], None]:
    """A whole WSGI request of the app, in process."""
    from bench.request_cost import environ_for
    from service.api import create_app

    app = create_app()
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the access log, as under gunicorn, kept out of the pipe
    environs = {t.label: environ_for(t) for t in service_targets(rule_set)}  # werkzeug's builder: once

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> None:
        return None

    def request(t: Target) -> None:
        environ = dict(environs[t.label])
        environ["wsgi.input"] = io.BytesIO(t.body or b"")
        answer = app(environ, start_response)
        for _chunk in answer:
            pass
        answer.close()  # type: ignore[attr-defined]

    return request


def parsed_requests(gunicorn_body: bool, rule_set: str | None = None) -> Callable[[Target], bytes]:
    """A worker thread's part before the app: the request parsed from the buffer the main loop filled, its
    body handed over (unless ``gunicorn_body``) and read whole as ``load_body`` reads it; the parser drains
    the previous request's body first, as it does on a kept-alive connection."""
    from gunicorn import http
    from gunicorn.config import Config

    from service.gunicorn_worker import _Buffered, _hand_over_body

    parser = http.get_parser(Config(), [], (LOOPBACK, 40000))
    raw = {t.label: t.request() for t in service_targets(rule_set)}

    def request(t: Target) -> bytes:
        parser.unreader = _Buffered(raw[t.label])
        req = next(parser)
        if not gunicorn_body:
            _hand_over_body(req, parser.unreader)
        return req.body.read(len(t.body)) if t.body else b""

    return request


def phase(label: str, count: int, layer: str = "app", gunicorn_body: bool = False, rule_set: str | None = None) -> None:
    """Inside valgrind: the warm-up, then ``count`` requests of ``label`` (none for the baseline)."""
    request: Callable[[Target], object] = (
        app_requests(rule_set) if layer == "app" else parsed_requests(gunicorn_body, rule_set)
    )
    every = {t.label: t for t in service_targets(rule_set)}
    for t in every.values():
        for _ in range(WARM_UP):
            request(t)
    if label != BASELINE:
        for _ in range(count):
            request(every[label])


def count_in_valgrind(
    label: str, count: int, layer: str = "app", gunicorn_body: bool = False, rule_set: str | None = None
) -> int:
    options = ["--layer", layer, *(["--gunicorn-body"] if gunicorn_body else []),
               *(["--rule-set", rule_set] if rule_set else [])]  # fmt: skip
    return callgrind_total(__file__, label, count, options)


def callgrind_total(script: str, phase: str, count: int, options: Sequence[str] = ()) -> int:
    """The instructions ``script --phase phase --count count *options`` executes under callgrind, hash
    randomisation off."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="bench-instructions-"))
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, script,
         "--phase", phase, "--count", str(count), *options],
        env=env, capture_output=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{phase}: valgrind exited {done.returncode}: {done.stderr[-2000:]!r}")
    return collected(done.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="only the endpoints whose label contains this (and /healthz)")
    parser.add_argument("--count", type=int, default=200, help="requests counted per endpoint (default %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="valgrind processes at once")
    parser.add_argument(
        "--layer",
        choices=["app", "parse"],
        default="app",
        help="app: whole WSGI requests (default); parse: the worker thread's part before the app",
    )
    parser.add_argument("--gunicorn-body", action="store_true", help="with --layer parse: gunicorn's body reader")
    parser.add_argument("--rule-set", help="each Big Two endpoint again at this rule set (hong-kong)")
    parser.add_argument("--phase", help=argparse.SUPPRESS)  # the process inside valgrind
    args = parser.parse_args(argv)
    if args.phase:
        phase(args.phase, args.count, args.layer, args.gunicorn_body, args.rule_set)
        return 0
    labels = [BASELINE, *(t.label for t in measured(args.only, args.rule_set))]
    with ThreadPoolExecutor(args.jobs) as pool:
        totals = dict(zip(labels, pool.map(
            lambda label: count_in_valgrind(label, args.count, args.layer, args.gunicorn_body, args.rule_set),
            labels)))  # fmt: skip
    what = {"app": "whole request in process", "parse": "request parsed and its body read in a worker thread"}
    body = " (gunicorn's body reader)" if args.gunicorn_body else ""
    print(f"instructions per {what[args.layer]}{body} (callgrind, {args.count} requests each)")
    print(table(["endpoint", "instructions", "over healthz", "healthz / it"], rows(per_request(totals, args.count))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
