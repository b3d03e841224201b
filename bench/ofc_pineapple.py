"""Pineapple OFC benchmark: row evaluation in process against treys and phevaluator, then the HTTP
service's hands/score against /healthz on one gunicorn. Run: ``.venv/bin/python bench/ofc_pineapple.py``;
``--split`` prints only each operation's request split in process (decode, load, rules, answer).

Targets (checked within this one run; only ratios count on a shared machine):
  * rows evaluated from card strings at least as fast as treys from the same strings (Card.new + evaluate);
  * POST /v1/ofc-pineapple/hands/score at no less than 70% of GET /healthz's requests per second.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench import common
from bench.common import Case, Endpoint, heading, rate, ratio_text, say, table, verdict
from service.rules import (
    ofc,
    poker,
)
from service.rules.cards import CARD_BY_TEXT, DECK, parse_cards
from service.rules.games import GAMES
from service.rules.ofc.rules import OfcRules
from tests.ofc_pineapple.records import BING, JIA, YI

HTTP_TARGET = 0.70
SCORE_PATH = "/v1/ofc-pineapple/hands/score"

try:
    from treys import Card as TreysCard
    from treys import Evaluator as TreysEvaluator
except ImportError:  # a test-extra; the table says n/a without it
    TreysCard = TreysEvaluator = None  # type: ignore[assignment,misc]
try:
    from phevaluator import evaluate_cards as ph_evaluate_cards
except ImportError:
    ph_evaluate_cards = None  # type: ignore[assignment]


def random_hands(seed: int, size: int, count: int) -> list[list[str]]:
    """``count`` hands of ``size`` distinct cards, canonical strings ("As", "Td"), the same for every evaluator."""
    rng = random.Random(seed * 10 + size)
    texts = [str(c) for c in DECK]
    return [rng.sample(texts, size) for _ in range(count)]


# --- the evaluators, each a loop over the hands with everything it calls bound locally -----------------


def ours_public(row: ofc.Row):
    def bench_public(hands: Sequence[Sequence[str]], parse=parse_cards, evaluate=ofc.evaluate_row, row=row) -> None:
        for hand in hands:
            evaluate(row, parse(hand))

    return bench_public


def ours_public_rules(row: ofc.Row, rules: object):
    """The public path under another rule set (its royalty tables, bound when the rules were built)."""

    def bench_public(
        hands: Sequence[Sequence[str]], parse=parse_cards, evaluate=ofc.evaluate_row, row=row, rules=rules
    ) -> None:
        for hand in hands:
            evaluate(row, parse(hand), ("cards",), rules)

    return bench_public


OTHER_RULE_SETS = [
    (f"{g.id}/{r.id}", r.rules)
    for g in GAMES
    for r in g.rule_sets
    if isinstance(r.rules, OfcRules) and r.rules is not ofc.HOUSE
]
"""Every OFC rule set of the registry but the default, timed beside it (target: within 10% of the default)."""
RULE_SET_TARGET = 1.10


CODE_BY_TEXT: dict[str, int] = {text: poker.CODE_BY_CARD[c] for text, c in CARD_BY_TEXT.items()}
"""Every accepted spelling of a card straight to its code, for evaluation from strings."""


def strength_of_texts(texts: Sequence[str]) -> tuple[int, ...]:
    """Strength straight from card strings of distinct cards (KeyError for a string that is not a card):
    the floor under the public path, the tables without parsing or checks. Only this benchmark uses it
    (it was ``poker.strength_of_texts``, unchanged)."""
    key = 0
    for text in texts:
        key += CODE_BY_TEXT[text]
    return (poker.rank5_codes(key) if len(texts) == 5 else poker.rank3_codes(key)).strength


def ours_fast(hands: Sequence[Sequence[str]], strength=strength_of_texts) -> None:
    for hand in hands:
        strength(hand)


def treys_run():
    if TreysEvaluator is None:
        return None
    evaluator = TreysEvaluator()

    def bench_treys(hands: Sequence[Sequence[str]], new=TreysCard.new, evaluate=evaluator.evaluate) -> None:
        for hand in hands:
            evaluate([new(text) for text in hand], [])

    return bench_treys


def phevaluator_run():
    if ph_evaluate_cards is None:
        return None

    def bench_phevaluator(hands: Sequence[Sequence[str]], evaluate=ph_evaluate_cards) -> None:
        for hand in hands:
            evaluate(*hand)

    return bench_phevaluator


PUBLIC = "ours: parse_cards + evaluate_row"
FAST = "ours: strength_of_texts (bench)"
TREYS = "treys: Card.new + Evaluator.evaluate"
PHEVAL = "phevaluator: evaluate_cards(strings)"


def sanity_check(hands5: Sequence[Sequence[str]], hands3: Sequence[Sequence[str]], limit: int = 4000) -> list[str]:
    """Before timing anything: do the evaluators agree? (Same order of every consecutive pair of hands, and
    the public path's strength equal to the fast path's.) A benchmark of wrong answers is worthless."""
    problems = []
    hands5, hands3 = hands5[:limit], hands3[:limit]
    ours5 = [ofc.evaluate_row(ofc.Row.MIDDLE, parse_cards(h)).hand.strength for h in hands5]
    ours3 = [ofc.evaluate_row(ofc.Row.TOP, parse_cards(h)).hand.strength for h in hands3]
    if ours5 != [strength_of_texts(h) for h in hands5] or ours3 != [strength_of_texts(h) for h in hands3]:
        problems.append("evaluate_row and strength_of_texts disagree")

    def sign(x: object, y: object) -> int:
        return (x > y) - (x < y)  # type: ignore[operator]

    references = {}
    if TreysEvaluator is not None:
        evaluator = TreysEvaluator()
        references["treys"] = [-evaluator.evaluate([TreysCard.new(t) for t in h], []) for h in hands5]
    if ph_evaluate_cards is not None:
        references["phevaluator"] = [-ph_evaluate_cards(*h) for h in hands5]
    for name, theirs in references.items():
        wrong = sum(sign(ours5[i], ours5[i + 1]) != sign(theirs[i], theirs[i + 1]) for i in range(len(hands5) - 1))
        if wrong:
            problems.append(f"{wrong} of {len(hands5) - 1} pairs of 5-card hands ordered differently from {name}")
    return problems


def stage_cases(hands: Sequence[Sequence[str]], row: ofc.Row) -> list[Case]:
    """Each step of the public path alone, on the same hands, so the profile has honest costs per step."""
    cards = [parse_cards(h) for h in hands]
    values = [poker.hand_value(c) for c in cards]

    def parse(hs, parse=parse_cards):
        for h in hs:
            parse(h)

    def rank(cs, rank=poker.rank_cards):
        for c in cs:
            rank(c)

    def value(cs, value_if_distinct=poker.value_if_distinct):
        for c in cs:
            value_if_distinct(c)

    def royalty(vs, royalty=ofc.royalty, row=row):
        for v in vs:
            royalty(row, v)

    cases = [
        Case("parse_cards(strings)", parse, hands),
        Case("poker.rank_cards (table look-up only)", rank, cards),
        Case("poker.value_if_distinct (repeat check + look-up + cards in order)", value, cards),
        Case("ofc.royalty", royalty, values),
        Case("whole public path", ours_public(row), hands),
    ]
    if TreysEvaluator is not None:

        def treys_new(hs, new=TreysCard.new):
            for h in hs:
                [new(t) for t in h]

        cases.append(Case("(treys: Card.new x5 alone)", treys_new, hands))
    return cases


def inprocess(args: argparse.Namespace) -> dict[str, object]:
    heading("In process: rows evaluated from card strings")
    hands = {5: random_hands(args.seed, 5, args.hands), 3: random_hands(args.seed, 3, args.hands)}
    say(f"{args.hands:,} random hands per row size (seed {args.seed}), the same list for every evaluator; "
        f"best of {args.repeats} passes, run round-robin, GC off while timing; Python {sys.version.split()[0]}")  # fmt: skip
    problems = sanity_check(hands[5], hands[3])
    say("agreement check: " + ("; ".join(problems) if problems else "all evaluators order the hands alike"))
    no_5 = "needs 5-7 cards"
    cases = {
        (PUBLIC, 5): Case(PUBLIC, ours_public(ofc.Row.MIDDLE), hands[5]),
        (PUBLIC, 3): Case(PUBLIC, ours_public(ofc.Row.TOP), hands[3]),
        (FAST, 5): Case(FAST, ours_fast, hands[5]),
        (FAST, 3): Case(FAST, ours_fast, hands[3]),
        (TREYS, 5): Case(TREYS, treys_run(), hands[5], "" if TreysEvaluator else "treys not installed"),
        (TREYS, 3): Case(TREYS, None, hands[3], f"treys {no_5}: no 3-card evaluator"),
        (PHEVAL, 5): Case(
            PHEVAL, phevaluator_run(), hands[5], "" if ph_evaluate_cards else "phevaluator not installed"
        ),
        (PHEVAL, 3): Case(PHEVAL, None, hands[3], f"phevaluator {no_5}: no 3-card evaluator"),
    }
    for label, rules in OTHER_RULE_SETS:
        name = f"{PUBLIC} [{label}]"
        cases[(name, 5)] = Case(name, ours_public_rules(ofc.Row.MIDDLE, rules), hands[5])
        cases[(name, 3)] = Case(name, ours_public_rules(ofc.Row.TOP, rules), hands[3])
    common.time_cases(list(cases.values()), args.repeats)
    treys5 = cases[(TREYS, 5)].per_second

    def us(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.2f}"

    rows = []
    for name in (PUBLIC, *(f"{PUBLIC} [{label}]" for label, _ in OTHER_RULE_SETS), FAST, TREYS, PHEVAL):
        five, three = cases[(name, 5)], cases[(name, 3)]
        vs_treys = None if five.per_second is None or treys5 is None else five.per_second / treys5
        rows.append(
            [
                name,
                rate(five.per_second),
                us(five.micros),
                ratio_text(vs_treys),
                rate(three.per_second),
                us(three.micros),
            ]
        )
    say()
    say(table(["evaluator", "5-card rows/s", "us/row", "vs treys", "3-card rows/s", "us/row"], rows))
    say("  'vs treys' = 5-card rows/s divided by treys' 5-card rows/s (>= 1.00x meets the target).")
    say("  3-card: treys and phevaluator evaluate 5-7 cards only, so they have no 3-card figure (n/a).")
    say("  ours public: middle row for 5 cards, top row for 3; full HandValue (category, label, strength, cards in")
    say("  order) and royalty, after the size and duplicate check. Fast path: strength tuple only, no checks.")

    public5 = cases[(PUBLIC, 5)].per_second
    fast5 = cases[(FAST, 5)].per_second
    say("  [game/rule set]: the same public path under that rule set (rules passed explicitly); the default row")
    say("  is the house rules, called as before rule sets existed.")
    for label, _ in OTHER_RULE_SETS:
        slowest = max(
            (cases[(f"{PUBLIC} [{label}]", n)].micros or 0) / (cases[(PUBLIC, n)].micros or 1) for n in (5, 3)
        )
        say(
            f"TARGET {label} rows within {RULE_SET_TARGET - 1:.0%} of the default: {verdict(slowest <= RULE_SET_TARGET)} "
            f"(slowest row size {slowest:.2f}x the default's time)"
        )
    public_ratio = None if public5 is None or treys5 is None else public5 / treys5
    fast_ratio = None if fast5 is None or treys5 is None else fast5 / treys5
    say()
    if public_ratio is None:
        say("TARGET rows >= treys: cannot be judged (treys missing)")
    else:
        slower = f"; treys is {1 / public_ratio:.1f}x faster per row" if public_ratio < 1 else ""
        say(
            f"TARGET rows from strings >= treys (Card.new + evaluate): public path {verdict(public_ratio >= 1)} "
            f"({ratio_text(public_ratio)}{slower})"
        )
        say(
            f"                                                        fast path   {verdict(fast_ratio >= 1)} "
            f"({ratio_text(fast_ratio)})"
        )  # type: ignore[operator]
        if public_ratio < 1:
            say("  >>> our PUBLIC row evaluation (parse_cards + evaluate_row) is SLOWER than treys; profile below <<<")
    if args.profile == "always" or (args.profile == "auto" and public_ratio is not None and public_ratio < 1):
        profile(hands[5], args)
    return {"public_ratio": public_ratio, "fast_ratio": fast_ratio, "agreement": problems}


def profile(hands5: Sequence[Sequence[str]], args: argparse.Namespace) -> None:
    heading("Profile of our public path (5-card middle rows)")
    stages = stage_cases(hands5, ofc.Row.MIDDLE)
    common.time_cases(stages, max(3, args.repeats // 2))
    whole = next(c for c in stages if c.name == "whole public path").best
    rows = [[c.name, f"{c.micros:.2f}", f"{c.best / whole * 100:.0f}%"] for c in stages]  # type: ignore[operator]
    say("Each step timed alone on the same hands (best of passes), timed again here: compare the percentages,")
    say("not the microseconds with the table above. Steps overlap: value_if_distinct includes the look-up.")
    say(table(["step", "us/row", "% of whole"], rows))
    say()
    say(f"cProfile of parse_cards + evaluate_row over {len(hands5):,} hands (cProfile inflates small calls):")
    say(common.profile_text(ours_public(ofc.Row.MIDDLE), hands5))


def score_payload() -> dict[str, object]:
    return {"players": [{"board": board} for board in (JIA, YI, BING)]}


def check_score(endpoint: Endpoint, status: int, body: bytes) -> str | None:
    if endpoint.path != SCORE_PATH:
        return None
    try:
        answer = json.loads(body)
        totals = [p["total"] for p in answer["players"]]
    except (ValueError, KeyError, TypeError) as error:
        return f"unexpected body ({error}): {body[:300]!r}"
    if status != 200 or len(totals) != 3 or sum(totals) != 0:
        return f"status {status}, totals {totals}"
    say(f"  score totals for the test showdown (JIA, YI, BING): {totals}")
    return None


def endpoints() -> tuple[Endpoint, Endpoint]:
    healthz = Endpoint("GET /healthz", "GET", "/healthz")
    score = Endpoint.post_json(f"POST {SCORE_PATH}", SCORE_PATH, score_payload(), expect=(200,))
    return healthz, score


def profile_http(args: argparse.Namespace, requests: int = 2000) -> None:
    """Where a hands/score request's time goes, in process (Flask test client, no sockets): the whole
    request beside /healthz, then each step of the handler alone, then cProfile of the whole request."""
    heading("Profile of POST hands/score in process (Flask test client)")
    from service.api import create_app
    from service.api import ofc_pineapple as api
    from service.api.games import schemas_for
    from service.api.loading import fast_load
    from service.rules.games import find_game

    healthz, score = endpoints()
    payload = score_payload()
    body = score.body or b""
    schema = schemas_for(find_game("ofc-pineapple"))["HandScoreRequest"]()
    loaded = schema.load(payload)
    seats = loaded["players"]  # the schema builds each player's ofc.Seat
    result = ofc.score_hand(seats)
    shaped = api.hand_score(result)

    def loop(step):
        def run(items):
            for _ in items:
                step()

        return run

    items = range(requests)
    cases = common.wsgi_request_cases(create_app(), [healthz, score], requests)
    cases += [
        Case("json.loads(request body)", loop(lambda: json.loads(body)), items),
        Case(
            "fast_load(HandScoreRequest) (the compiled fast path, 39 cards)",
            loop(lambda: fast_load(schema, payload)),
            items,
        ),
        Case("HandScoreRequest().load (marshmallow, parses 39 cards)", loop(lambda: schema.load(payload)), items),
        Case("ofc.score_hand (3 boards, 3 matchups)", loop(lambda: ofc.score_hand(seats)), items),
        Case("api.hand_score (answer to dicts)", loop(lambda: api.hand_score(result)), items),
        Case("json.dumps(answer)", loop(lambda: json.dumps(shaped, ensure_ascii=False, separators=(",", ":"))), items),
    ]
    common.time_cases(cases, max(3, args.repeats // 2))
    whole = cases[1].best or 1.0
    rows = [[c.name, f"{c.micros:.1f}", f"{(c.best or 0) / whole * 100:.0f}%"] for c in cases]
    say("Each step timed alone (best of passes); % of the whole hands/score request through the test client")
    say("(no sockets, no gunicorn: the application's own cost per request).")
    say(table(["step", "us/request", "% of score request"], rows))
    say()
    say(f"cProfile of {requests // 4:,} hands/score requests through the Flask test client:")
    say(common.profile_text(cases[1].run, range(requests // 4), top=20))  # type: ignore[arg-type]


def http(args: argparse.Namespace) -> dict[str, object]:
    healthz, score = endpoints()
    results = common.http_benchmark([healthz, score], args, check=check_score)
    if results is None:
        say("TARGET hands/score >= 70% of /healthz req/s: NOT JUDGED (pre-flight failed)")
        return {"http_ratio": None}
    h, s = results
    overall = s.per_second / h.per_second if h.per_second else None
    # Judged on the median of the rounds' ratios: each round pairs the two endpoints a few seconds apart,
    # so a burst of load from a neighbour on the shared machine spoils one round's ratio, not the verdict
    # (the overall ratio is printed beside it).
    per_round = [b / a for a, b in zip(h.rounds, s.rounds) if a]
    ratio = statistics.median(per_round) if per_round else overall
    cpu_ratio = (h.server_cpu_ms_per_request / s.server_cpu_ms_per_request
                 if h.server_cpu_ms_per_request and s.server_cpu_ms_per_request else None)  # fmt: skip
    clean = not s.unexpected and not h.non_2xx
    say()
    if ratio is None or overall is None:
        say("score/healthz: n/a")
    else:
        say(f"score/healthz requests/s: median of the rounds {ratio:.2f} ({ratio * 100:.0f}%); overall {overall:.2f}")
    if per_round:
        say(f"  per round: {', '.join(f'{r:.2f}' for r in per_round)}")
    if cpu_ratio is not None:
        say(f"  server-side view: healthz CPU/request / score CPU/request = {cpu_ratio:.2f} (the ratio the server's"
            f" capacity alone would give, without the clients' share of the {os.cpu_count()} CPUs)")  # fmt: skip
    met = ratio is not None and ratio >= HTTP_TARGET and clean
    say(f"TARGET hands/score >= {HTTP_TARGET:.0%} of /healthz req/s: {verdict(met)}"
        + ("" if clean else " (responses with unexpected statuses, see above)"))  # fmt: skip
    if args.profile == "always" or (args.profile == "auto" and not met):
        profile_http(args)
    return {"http_ratio": ratio, "http_overall": overall, "http_met": met, "cpu_ratio": cpu_ratio, "server": s.server}


def request_split(repeats: int = 9) -> None:
    """Each ofc-pineapple operation of bench/floor.py split in process: decoding the body, checking its
    depth, loading it, the rules, shaping the answer, encoding it; and the rules as they were before their
    fast paths (tests/ofc_pineapple/replay_reference.py), so one run shows what the fast paths save.
    Microseconds, best of ``repeats``, garbage collector off."""
    import gc
    import timeit

    import orjson

    from service.api import ofc_pineapple as api
    from service.api.common import decode_json, violation
    from service.api.games import schemas_for
    from service.api.limits import check_json_depth
    from service.api.loading import fast_load
    from service.rules.games import find_game
    from tests.ofc_pineapple import replay_reference as before

    def example(name: str) -> bytes:
        return (Path(__file__).resolve().parents[1] / "examples" / f"{name}.json").read_bytes()

    def best(call: object, number: int) -> float:
        return min(timeit.repeat(call, number=number, repeat=repeats)) / number * 1e6  # type: ignore[arg-type]

    rows = []
    house = ofc.HOUSE
    cases: list[tuple[str, bytes, object, object, object, object, int]] = []
    raw = example("ofcValidateHand")
    schema = schemas_for(find_game("ofc-pineapple"))["HandValidateRequest"]()
    body = fast_load(schema, json.loads(raw))
    states = [p["fantasyland"] for p in body["players"]]
    result = ofc.validate_hand(body["dealer"], states, body["actions"], house)
    cases.append((
        "hands/validate (15 actions)", raw, schema,
        lambda: ofc.validate_hand(body["dealer"], states, body["actions"], house),
        lambda: before.validate_hand(body["dealer"], states, body["actions"], house),
        lambda: {"legal": result.legal, "violations": [], "boards": [api.board_cards(b) for b in result.boards],
                 "score": api.hand_score(result.score),  # type: ignore[arg-type]
                 "discards": [{"seat": d.seat, "card": d.card.text, "action": d.action} for d in result.discards]},
        200,
    ))  # fmt: skip
    raw2 = example("ofcScoreHand")
    schema2 = schemas_for(find_game("ofc-pineapple"))["HandScoreRequest"]()
    seats = fast_load(schema2, json.loads(raw2))["players"]
    score = ofc.score_hand(seats, house)
    cases.append(("hands/score", raw2, schema2, lambda: ofc.score_hand(seats, house),
                  lambda: before.score_hand(seats, house), lambda: api.hand_score(score), 2000))  # fmt: skip
    raw3 = example("ofcValidateMove")
    schema3 = schemas_for(find_game("ofc-pineapple"))["MoveValidateRequest"]()
    m = fast_load(schema3, json.loads(raw3))
    move_args = (m["board"], m["round"], m["dealt"], m["placement"], m["discard"], m["seen"])
    move = ofc.validate_move(*move_args)
    cases.append((
        "moves/validate", raw3, schema3, lambda: ofc.validate_move(*move_args),
        lambda: before.validate_move(*move_args),
        lambda: {"legal": move.legal, "violations": [violation(v) for v in move.violations],
                 "board": api.board_cards(move.board)},
        2000,
    ))  # fmt: skip
    raw4 = example("ofcCompareRows")
    schema4 = schemas_for(find_game("ofc-pineapple"))["RowCompareRequest"]()
    c = fast_load(schema4, json.loads(raw4))
    compared = ofc.compare_rows(ofc.Row(c["row"]), c["a"], c["b"])
    cases.append(("rows/compare", raw4, schema4, lambda: ofc.compare_rows(ofc.Row(c["row"]), c["a"], c["b"]), None,
                  lambda: {"winner": compared[0], "a": api.row_value(compared[1]), "b": api.row_value(compared[2])},
                  4000))  # fmt: skip
    raw5 = example("ofcEvaluateRow")
    schema5 = schemas_for(find_game("ofc-pineapple"))["RowEvaluateRequest"]()
    e = fast_load(schema5, json.loads(raw5))
    evaluated = ofc.evaluate_row(ofc.Row(e["row"]), e["cards"])
    cases.append(("rows/evaluate", raw5, schema5, lambda: ofc.evaluate_row(ofc.Row(e["row"]), e["cards"]), None,
                  lambda: api.row_value(evaluated), 4000))  # fmt: skip
    app = create_app_quietly()
    gc.disable()
    try:
        with app.test_request_context():  # the answer's labels render in a request's language
            for name, raw, schema, rules, rules_before, shape, number in cases:
                data = json.loads(raw)
                shaped = shape()  # type: ignore[operator]
                figures = [
                    best(lambda: decode_json(raw), number),  # noqa: B023 - called at once
                    best(lambda: check_json_depth(raw, data), number),  # noqa: B023
                    best(lambda: fast_load(schema, data), number),  # noqa: B023
                    best(rules, number),
                    best(rules_before, number) if rules_before else None,
                    best(shape, number),
                    best(lambda: orjson.dumps(shaped, option=orjson.OPT_NON_STR_KEYS), number),  # noqa: B023
                ]
                rows.append([name, *("" if f is None else f"{f:,.1f}" for f in figures),
                             f"{figures[2] / figures[3]:.2f}"])  # type: ignore[operator]  # fmt: skip
    finally:
        gc.enable()
    heading(f"ofc-pineapple requests split in process, microseconds (best of {repeats})")
    say(table(["operation", "decode", "depth", "load", "rules", "rules before", "shape", "encode", "load/rules"],
              rows))  # fmt: skip


def create_app_quietly() -> object:
    import tempfile

    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="bench-ofc-"))
    from service.api import create_app

    return create_app()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common.add_inprocess_arguments(parser)
    common.add_http_arguments(parser)
    parser.add_argument("--split", action="store_true", help="only the in-process split of each request")
    args = parser.parse_args(argv)
    if args.split:
        request_split()
        return 0
    summary: dict[str, object] = {}
    if not args.skip_inprocess:
        summary |= inprocess(args)
    if not args.skip_http:
        summary |= http(args)
    heading("Summary")
    if "public_ratio" in summary and summary["public_ratio"] is not None:
        p, f = summary["public_ratio"], summary["fast_ratio"]
        say(
            f"rows from strings vs treys: public path {ratio_text(p)} -> {verdict(p >= 1)}; "  # type: ignore[operator]
            f"fast path {ratio_text(f)} -> {verdict(f >= 1)}"
        )  # type: ignore[operator]
    if summary.get("agreement"):
        say(f"WARNING: evaluators disagree: {summary['agreement']}")
    if "http_ratio" in summary:
        r, o = summary["http_ratio"], summary.get("http_overall")
        say(f"hands/score vs /healthz req/s: {'n/a' if r is None else f'{r:.0%}'} median of the rounds, "
            f"{'n/a' if o is None else f'{o:.0%}'} overall (target >= {HTTP_TARGET:.0%}) -> "
            f"{verdict(bool(summary.get('http_met')))}; {summary.get('server', '')}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
