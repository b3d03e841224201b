"""Joker Thirteen benchmark: dun evaluation in process with 0, 1, 2 and 3 jokers beside the brute-force
reference, then the HTTP service's rounds/score against /healthz on one gunicorn, in one run.
Run: ``.venv/bin/python bench/joker_thirteen.py``.

Target (checked within this one run; only ratios count on a shared machine):
  * jokers cost little: a dun evaluation with the slowest number of jokers (1, 2 or 3) takes at most 5x
    the time of one without jokers (``evaluate_dun`` reads jokers directly, never by trying substitutions;
    the brute-force reference, which tries every joker as each of the 52 cards, shows what that avoids).
rounds/score has no target of its own: the script reports requests/s, p50/p99 and the ratio to /healthz.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench import common
from bench.common import Case, Endpoint, heading, rate, ratio_text, say, table, verdict
from service.rules import thirteen as j13
from service.rules.cards import JOKER, Card
from tests.joker_thirteen.reference import brute_force, brute_force_grouped
from tests.joker_thirteen.test_scoring import worked_hands

JOKER_TARGET = 5.0  # slowest joker count / no joker, time per evaluation
SCORE_PATH = "/v1/joker-thirteen/rounds/score"
WORKED_TOTALS = [18, -5, -7, -6]
JOKER_COUNTS = (0, 1, 2, 3)
REAL_CARDS = [c for c in j13.GAME_DECK if c is not JOKER]  # the 65 real cards, both spade copies
DUN_BY_SIZE = {5: j13.Dun.MIDDLE, 3: j13.Dun.HEAD}

# The reference is exponential in the jokers (3 jokers: 24,804 substitutions per dun), so it gets a share
# of the sample: the number of hands is ``--hands`` divided by this, at least 5.
REFERENCE_SHARE = {
    "brute_force": {0: 1, 1: 10, 2: 200, 3: 4000},
    "brute_force_grouped": {0: 1, 1: 10, 2: 20, 3: 400},
}
OURS = "ours: evaluate_dun (cards)"
OURS_TEXT = "ours: HTTP card look-up + evaluate_dun"
BRUTE = "reference: brute_force"
GROUPED = "reference: brute_force_grouped"
EVALUATORS = (OURS, OURS_TEXT, BRUTE, GROUPED)


def random_duns(seed: int, size: int, jokers: int, count: int) -> list[list[Card]]:
    """``count`` lawful duns of ``size`` cards holding exactly ``jokers`` jokers, the real cards drawn from
    the 65 real cards of the 68-card deck (a spade may come twice), in random order."""
    rng = random.Random(seed * 100 + size * 10 + jokers)
    duns = []
    for _ in range(count):
        dun = rng.sample(REAL_CARDS, size - jokers) + [JOKER] * jokers
        rng.shuffle(dun)
        duns.append(dun)
    return duns


# --- the evaluators, each a loop over the duns with everything it calls bound locally -------------------


def ours(dun: j13.Dun) -> Callable[[Sequence[Sequence[Card]]], None]:
    def bench_ours(hands: Sequence[Sequence[Card]], evaluate=j13.evaluate_dun, dun=dun) -> None:
        for hand in hands:
            evaluate(dun, hand)

    return bench_ours


def ours_from_text(dun: j13.Dun) -> Callable[[Sequence[Sequence[str]]], None]:
    from service.rules.cards import CARD_OR_JOKER_BY_TEXT as CARD_OR_JOKER  # the HTTP layer's one look-up per card

    def bench_ours_text(
        hands: Sequence[Sequence[str]], table=CARD_OR_JOKER, evaluate=j13.evaluate_dun, dun=dun
    ) -> None:
        for hand in hands:
            evaluate(dun, [table[text] for text in hand])

    return bench_ours_text


def reference(function: Callable[[Sequence[Card]], object]) -> Callable[[Sequence[Sequence[Card]]], None]:
    def bench_reference(hands: Sequence[Sequence[Card]], function=function) -> None:
        for hand in hands:
            function(hand)

    return bench_reference


def agreement(duns: dict[tuple[int, int], list[list[Card]]], limit: int) -> list[str]:
    """Before timing: ours must give the reference's category and strength (a fast wrong answer is no result)."""
    problems = []
    for (size, jokers), hands in duns.items():
        dun = DUN_BY_SIZE[size]
        grouped_n = limit if jokers < 3 else max(5, limit // 20)
        brute_n = {0: limit, 1: limit, 2: max(5, limit // 20), 3: 5}[jokers]
        for name, function, sample in (
            ("brute_force_grouped", brute_force_grouped, hands[:grouped_n]),
            ("brute_force", brute_force, hands[:brute_n]),
        ):
            wrong = 0
            for hand in sample:
                value = j13.evaluate_dun(dun, hand)
                wrong += (value.category, value.strength) != function(hand)
            if wrong:
                problems.append(f"{wrong} of {len(sample)} {size}-card duns with {jokers} jokers differ from {name}")
    return problems


def inprocess(args: argparse.Namespace) -> dict[str, Any]:
    heading("In process: duns evaluated, by number of jokers")
    duns = {(size, j): random_duns(args.seed, size, j, args.hands) for size in (5, 3) for j in JOKER_COUNTS}
    texts = {key: [[c.text for c in hand] for hand in hands] for key, hands in duns.items()}
    say(f"{args.hands:,} random lawful duns per dun size and joker count (seed {args.seed}; real cards from the 65 of "
        f"the 68-card deck); the reference gets a share of them (sample column); best of {args.repeats} passes, "
        f"round-robin, GC off while timing; Python {sys.version.split()[0]}")  # fmt: skip
    problems = agreement(duns, limit=min(args.hands, 2000))
    say(
        "agreement check: "
        + (
            "; ".join(problems)
            if problems
            else "evaluate_dun gives the reference's category and strength on every sampled dun"
        )
    )

    cases: dict[tuple[str, int, int], Case] = {}
    for (size, j), hands in duns.items():
        dun = DUN_BY_SIZE[size]
        cases[OURS, size, j] = Case(OURS, ours(dun), hands)
        cases[OURS_TEXT, size, j] = Case(OURS_TEXT, ours_from_text(dun), texts[size, j])
        for name, function in ((BRUTE, brute_force), (GROUPED, brute_force_grouped)):
            share = REFERENCE_SHARE[name.removeprefix("reference: ")][j]
            cases[name, size, j] = Case(name, reference(function), hands[: max(5, args.hands // share)])
    common.time_cases(list(cases.values()), args.repeats)

    def us(x: float | None) -> str:
        return "n/a" if x is None else f"{x:,.2f}"

    rows = []
    slowdown: dict[tuple[str, int], float] = {}
    for size in (5, 3):
        for name in EVALUATORS:
            row_cases = [cases[name, size, j] for j in JOKER_COUNTS]
            base = row_cases[0].micros
            worst = max(c.micros for c in row_cases[1:])  # type: ignore[type-var]
            slowdown[name, size] = worst / base if base else float("inf")  # type: ignore[operator]
            rows.append([
                name, f"{DUN_BY_SIZE[size].value} ({size})",
                *(rate(c.per_second) for c in row_cases), *(us(c.micros) for c in row_cases),
                ratio_text(row_cases[3].micros / base if base else None),  # type: ignore[operator]
                ratio_text(slowdown[name, size]), "/".join(f"{len(c.items):,}" for c in row_cases),
            ])  # fmt: skip
    say()
    headers = ["evaluator", "dun", *(f"{j} JK/s" for j in JOKER_COUNTS), *(f"{j} JK us" for j in JOKER_COUNTS),
               "3 JK / 0 JK", "worst / 0 JK", "sample (0/1/2/3 JK)"]  # fmt: skip
    say(table(headers, rows))
    say("  'N JK/s' = duns evaluated per second with N jokers (best pass); 'N JK us' = microseconds per dun.")
    say("  '3 JK / 0 JK' = time per dun with 3 jokers divided by time without; 'worst / 0 JK' = the slowest of")
    say("  1, 2, 3 jokers divided by no joker. ours: full HandValue (category, label, strength, cards in order,")
    say("  resolved) after the size and deck-copies check. HTTP look-up: the API's one dict look-up per card string")
    say("  (JK in any case) first. References (tests/joker_thirteen/reference.py): every joker tried as each of the")
    say("  52 cards, no third copy; grouped = the same search, evaluated once per set of ranks and flush flag.")

    ours5, ours3 = slowdown[OURS, 5], slowdown[OURS, 3]
    speedup = cases[OURS, 5, 3].per_second / cases[BRUTE, 5, 3].per_second  # type: ignore[operator]
    met = max(ours5, ours3) <= JOKER_TARGET
    say()
    say(
        f"TARGET slowest joker count within {JOKER_TARGET:g}x of no joker (time per dun): {verdict(met)} "
        f"(5-card {ratio_text(ours5)}, head {ratio_text(ours3)})"
    )
    say(f"  with 3 jokers in a 5-card dun, evaluate_dun is {speedup:,.0f}x the brute-force reference's rate")
    if args.profile == "always" or (args.profile == "auto" and not met):
        heading("Profile of evaluate_dun, 5-card duns with 3 jokers")
        say(common.profile_text(ours(j13.Dun.MIDDLE), duns[5, 3]))
    return {"slowdown5": ours5, "slowdown3": ours3, "joker_met": met, "agreement": problems}


# --- HTTP --------------------------------------------------------------------------------------------


def score_payload() -> dict[str, Any]:
    """The rule book's worked example as whole deals: every player's 17-card hand (the 68 cards, the 3 jokers
    among the discards) and its three duns."""
    return {
        "players": [
            {
                "head": [c.text for c in p.head],
                "middle": [c.text for c in p.middle],
                "tail": [c.text for c in p.tail],
                "hand": [c.text for c in p.hand or ()],
            }
            for p in worked_hands()
        ]
    }


def check_score(endpoint: Endpoint, status: int, body: bytes) -> str | None:
    if endpoint.path != SCORE_PATH:
        return None
    try:
        totals = [p["total"] for p in json.loads(body)["players"]]
    except (ValueError, KeyError, TypeError) as error:
        return f"unexpected body ({error}): {body[:300]!r}"
    if status != 200 or totals != WORKED_TOTALS:
        return f"status {status}, totals {totals} (expected {WORKED_TOTALS})"
    say(f"  score totals for the worked example: {totals}")
    return None


def endpoints() -> tuple[Endpoint, Endpoint]:
    healthz = Endpoint("GET /healthz", "GET", "/healthz")
    score = Endpoint.post_json(f"POST {SCORE_PATH}", SCORE_PATH, score_payload(), expect=(200,))
    return healthz, score


def profile_http(args: argparse.Namespace, requests: int = 1000) -> None:
    """Where a rounds/score request's time goes, in process (Flask test client, no sockets)."""
    heading("Where a POST rounds/score request's time goes, in process (Flask test client)")
    from service.api import create_app
    from service.api import thirteen as api
    from service.api.games import schemas_for
    from service.api.loading import fast_load
    from service.rules.games import find_game

    healthz, score = endpoints()
    payload = score_payload()
    body = score.body or b""
    schema = schemas_for(find_game("joker-thirteen"))["RoundScoreRequest"]()
    loaded = schema.load(payload)
    players = loaded["players"]  # the request schema loads each player as its Arrangement
    result = j13.score_round(players)
    shaped = api.round_score(result, j13.GSCAS, detailed=False)

    def loop(step: Callable[[], object]) -> Callable[[Sequence[Any]], None]:
        def run(items: Sequence[Any]) -> None:
            for _ in items:
                step()

        return run

    items = range(requests)
    cases = common.wsgi_request_cases(create_app(), [healthz, score], requests)
    cases += [
        Case("json.loads(request body)", loop(lambda: json.loads(body)), items),
        Case("fast_load (68 hand + 52 placed cards)", loop(lambda: fast_load(schema, payload)), items),
        Case("schema.load (marshmallow, the fallback)", loop(lambda: schema.load(payload)), items),
        Case("j13.score_round (4 arrangements checked, 6 matchups)", loop(lambda: j13.score_round(players)), items),
        Case(
            "api.round_score (answer to dicts, 12 hand values)",
            loop(lambda: api.round_score(result, j13.GSCAS, detailed=False)),
            items,
        ),
        Case("json.dumps(answer)", loop(lambda: json.dumps(shaped, separators=(",", ":"))), items),
    ]
    common.time_cases(cases, max(3, args.repeats // 2))
    whole = cases[1].best or 1.0
    rows = [[c.name, f"{c.micros:.1f}", f"{(c.best or 0) / whole * 100:.0f}%"] for c in cases]
    say("Each step timed alone (best of passes); % of the whole rounds/score request through the test client.")
    say(table(["step", "us/request", "% of score request"], rows))


def http(args: argparse.Namespace) -> dict[str, Any]:
    healthz, score = endpoints()
    results = common.http_benchmark([healthz, score], args, check=check_score)
    if results is None:
        say("rounds/score vs /healthz: NOT MEASURED (pre-flight failed)")
        return {"http_ratio": None}
    h, s = results
    ratio = s.per_second / h.per_second if h.per_second else None
    cpu_ratio = (h.server_cpu_ms_per_request / s.server_cpu_ms_per_request
                 if h.server_cpu_ms_per_request and s.server_cpu_ms_per_request else None)  # fmt: skip
    say()
    say(f"rounds/score / healthz requests/s: {ratio_text(ratio)}")
    per_round = [b / a for a, b in zip(h.rounds, s.rounds) if a]
    if per_round:
        say(f"  per round: {', '.join(f'{r:.2f}' for r in per_round)}")
    if cpu_ratio is not None:
        say(f"  server-side view: healthz CPU/request / score CPU/request = {cpu_ratio:.2f}")
    if args.profile != "never":
        profile_http(args)
    return {"http_ratio": ratio, "cpu_ratio": cpu_ratio, "server": s.server,
            "p50": s.percentile_ms(50), "p99": s.percentile_ms(99), "clean": not s.unexpected and not h.non_2xx}  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common.add_inprocess_arguments(parser)
    common.add_http_arguments(parser)
    args = parser.parse_args(argv)
    summary: dict[str, Any] = {}
    if not args.skip_inprocess:
        summary |= inprocess(args)
    if not args.skip_http:
        summary |= http(args)
    heading("Summary")
    if "slowdown5" in summary:
        say(f"duns with jokers vs without (slowest joker count / none): 5-card {ratio_text(summary['slowdown5'])}, "
            f"head {ratio_text(summary['slowdown3'])} (target <= {JOKER_TARGET:g}x) -> {verdict(summary['joker_met'])}")  # fmt: skip
    if summary.get("agreement"):
        say(f"WARNING: evaluate_dun disagrees with the reference: {summary['agreement']}")
    if summary.get("http_ratio") is not None:
        say(f"rounds/score vs /healthz req/s: {summary['http_ratio']:.0%}; rounds/score p50 {summary['p50']:.2f} ms, "
            f"p99 {summary['p99']:.2f} ms; {summary['server']}"
            + ("" if summary["clean"] else "; RESPONSES WITH UNEXPECTED STATUSES, see above"))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
