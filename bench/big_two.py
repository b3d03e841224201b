"""Taiwanese Big Two benchmark: ``POST plays/classify`` and a whole 52-card ``POST games/validate`` replay
next to ``GET /healthz`` on one gunicorn, in one run. Run: ``.venv/bin/python bench/big_two.py``.

No target is set for these operations: the script reports requests per second, p50/p99 latency and each
operation's requests/s as a ratio of /healthz's on the same server in the same run (the only figures
that mean anything on a shared machine). ``--skip-inprocess`` skips the short Flask-test-client part.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench import common
from bench.common import Endpoint, heading, rate, ratio_text, say, table
from service.rules.big_two import TAIWAN, BigTwoRules, validate_game
from tests.big_two.players import PlayedGame, deal, play_random_game

CLASSIFY_PATH = "/v1/big-two/plays/classify"
VALIDATE_PATH = "/v1/big-two/games/validate"
BASE = 10
# A straight flush: classification goes through the five-card path, the longest of the common plays.
CLASSIFY_BODY = {"cards": ["9h", "Th", "Jh", "Qh", "Kh"]}


def recorded_game(seed: int, candidates: int, rules: BigTwoRules = TAIWAN) -> PlayedGame:
    """The longest of ``candidates`` random legal games (fixed seed) at a table of ``rules``: a whole 52-card
    deal replayed to the end."""
    rng = random.Random(seed)
    games = [play_random_game(rng, deal(rng), rules=rules) for _ in range(candidates)]
    return max(games, key=lambda g: len(g.actions))


def validate_body(game: PlayedGame) -> dict[str, Any]:
    return {
        "base": BASE,
        "hands": [[str(c) for c in hand] for hand in game.hands],
        "actions": [{"seat": a.seat, "type": a.type.value, "cards": [str(c) for c in a.cards]} for a in game.actions],
    }


def endpoints(game: PlayedGame) -> list[Endpoint]:
    return [
        Endpoint("GET /healthz", "GET", "/healthz"),
        Endpoint.post_json(f"POST {CLASSIFY_PATH}", CLASSIFY_PATH, CLASSIFY_BODY, expect=(200,)),
        Endpoint.post_json(f"POST {VALIDATE_PATH}", VALIDATE_PATH, validate_body(game), expect=(200,)),
    ]


def checker(game: PlayedGame):
    """Pre-flight: the classification is a straight flush, the replay legal and finished with the core's points."""
    core = validate_game(BASE, game.hands, game.actions)

    def check(endpoint: Endpoint, status: int, body: bytes) -> str | None:
        if endpoint.path == CLASSIFY_PATH:
            answer = json.loads(body)
            return None if answer.get("combination") == "straight_flush" else f"unexpected classification {answer}"
        if endpoint.path != VALIDATE_PATH:
            return None
        try:
            answer = json.loads(body)
            score = answer["score"]
            points = {score["winner"]["seat"]: score["winner"]["points"]} | {
                lo["seat"]: lo["points"] for lo in score["losers"]
            }
        except (ValueError, KeyError, TypeError) as error:
            return f"unexpected body ({error}): {body[:300]!r}"
        if not (answer["legal"] and answer["finished"]) or tuple(points[s] for s in range(4)) != core.points:
            return f"legal {answer['legal']}, finished {answer['finished']}, points {points} (core: {core.points})"
        say(
            f"  games/validate: legal, finished, seat {score['winner']['seat']} wins; points by seat {list(core.points)}"
        )
        return None

    return check


def inprocess(game: PlayedGame, args: argparse.Namespace) -> None:
    heading("In process: the application's own cost per request (Flask test client, no sockets)")
    from service.api import create_app

    cases = common.wsgi_request_cases(create_app(), endpoints(game), args.requests)
    common.time_cases(cases, args.repeats)
    healthz = cases[0].per_second or 1.0
    rows = [[c.name, rate(c.per_second), f"{c.micros:.0f}", ratio_text((c.per_second or 0) / healthz)] for c in cases]
    say(f"{args.requests:,} requests per endpoint, best of {args.repeats} passes, round-robin, GC off while timing")
    say(table(["endpoint", "requests/s", "us/request", "vs healthz"], rows))


def http(game: PlayedGame, args: argparse.Namespace) -> None:
    results = common.http_benchmark(endpoints(game), args, check=checker(game))
    if results is None:
        say("NOT MEASURED: pre-flight failed")
        return
    healthz = results[0]
    say()
    say("requests/s as a share of GET /healthz's on the same server in the same run:")
    rows = []
    for r in results[1:]:
        ratio = r.per_second / healthz.per_second if healthz.per_second else None
        per_round = [b / a for a, b in zip(healthz.rounds, r.rounds) if a]
        spread = f"{min(per_round):.2f}-{max(per_round):.2f}" if per_round else "n/a"
        rows.append([r.label, rate(r.per_second), ratio_text(ratio), spread])
    say(table(["endpoint", "req/s", "vs healthz", "by round"], rows))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = parser.add_argument_group("the game record")
    group.add_argument(
        "--seed", type=int, default=20260922, help="seed of the random legal games (default %(default)s)"
    )
    group.add_argument("--candidates", type=int, default=20,
                       help="random games played; the longest is the replayed record (default %(default)s)")  # fmt: skip
    group = parser.add_argument_group("in-process")
    group.add_argument(
        "--requests", type=int, default=2000, help="requests per endpoint per pass (default %(default)s)"
    )
    group.add_argument("--repeats", type=int, default=5, help="timed passes; best counts (default %(default)s)")
    group.add_argument("--skip-inprocess", action="store_true", help="skip the in-process part")
    common.add_http_arguments(parser)
    args = parser.parse_args(argv)

    game = recorded_game(args.seed, args.candidates)
    plays = sum(1 for a in game.actions if a.type.value == "play")
    say(f"record: seed {args.seed}, longest of {args.candidates} random legal games: {len(game.actions)} actions "
        f"({plays} plays, {len(game.actions) - plays} passes), 52 cards dealt, seat {game.winner} wins; "
        f"request body {len(json.dumps(validate_body(game), separators=(',', ':'))):,} bytes")  # fmt: skip
    if not args.skip_inprocess:
        inprocess(game, args)
    if not args.skip_http:
        http(game, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
