"""Two choices the code's comments used to justify with figures, measured here instead (bench/README.md,
"`encoding.py`: answer encoding and HandValue"): answers encoded by orjson rather than the standard
``json`` module, and ``HandValue`` a NamedTuple rather than a frozen dataclass. In process, one run, best
of ``--repeats`` passes, ratios only. Run: ``.venv/bin/python bench/encoding.py`` (a few seconds).
"""

from __future__ import annotations

import argparse
import json
import sys
import timeit
from dataclasses import dataclass
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench.common import heading, say, table
from service.api import create_app
from service.rules.cards import Card, cards
from service.rules.hand_value import HandValue
from tests.ofc_pineapple.records import BING, JIA, YI


@dataclass(frozen=True, slots=True)
class HandValueDataclass:
    """``HandValue``'s fields as a frozen dataclass: the alternative the NamedTuple was chosen over."""

    category: str
    label: str
    strength: tuple[int, ...]
    cards: tuple[Card, ...]
    resolved: tuple[Card, ...] | None = None


def best_us(statement: object, number: int, repeats: int) -> float:
    """Microseconds per call, best of ``repeats`` passes of ``number`` calls."""
    return min(timeit.repeat(statement, number=number, repeat=repeats)) / number * 1e6  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=20_000, help="calls per pass")
    parser.add_argument("--repeats", type=int, default=7, help="passes; the best counts")
    args = parser.parse_args()

    client = create_app({"TESTING": True}).test_client()
    players = [{"board": board} for board in (JIA, YI, BING)]
    response = client.post("/v1/ofc-pineapple/hands/score", json={"players": players})
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()

    heading("Answer encoding: the hands/score answer of the rule book's three boards")
    option = orjson.OPT_NON_STR_KEYS
    fast = best_us(lambda: orjson.dumps(answer, option=option), args.number, args.repeats)
    slow = best_us(lambda: json.dumps(answer, separators=(",", ":")).encode(), args.number, args.repeats)
    say(table(["encoder", "us/answer", "vs orjson"], [
        ["orjson.dumps", f"{fast:.2f}", "1.00x"],
        ["json.dumps(...).encode()", f"{slow:.2f}", f"{slow / fast:.2f}x"],
    ]))  # fmt: skip

    heading("HandValue: built once per evaluated hand")
    five = tuple(cards("As Ks Qs Js Ts"))
    strength = (10, 14)
    tuple_us = best_us(lambda: HandValue("straight_flush", "Royal flush", strength, five), args.number, args.repeats)
    class_us = best_us(
        lambda: HandValueDataclass("straight_flush", "Royal flush", strength, five), args.number, args.repeats
    )
    say(table(["shape", "us/build", "vs NamedTuple"], [
        ["NamedTuple (HandValue)", f"{tuple_us:.3f}", "1.00x"],
        ["frozen dataclass, slots", f"{class_us:.3f}", f"{class_us / tuple_us:.2f}x"],
    ]))  # fmt: skip
    say(f"Python {sys.version.split()[0]}; best of {args.repeats} passes of {args.number:,} calls")


if __name__ == "__main__":
    main()
