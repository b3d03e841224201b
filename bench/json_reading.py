"""Reading a request's JSON, in process: the service's reader against the other ways to read the same
bodies, for every request body the contract documents and the 98-action Big Two record.

    .venv/bin/python bench/json_reading.py            # a few seconds
    .venv/bin/python bench/json_reading.py --number 2000

The readers (docs/rulings.md, "Parsing": a repeated key and NaN are refused):

* ``read_json``: the service's: jiter with ``catch_duplicate_keys`` and ``allow_inf_nan=False``;
* jiter without ``catch_duplicate_keys``: what refusing a repeated key costs jiter;
* ``decode_json``: the standard decoder with its ``object_pairs_hook`` refusing a repeated key (the
  service's reader of what jiter refuses);
* the standard decoder without a hook, and ``orjson.loads``: neither can refuse a repeated key (both keep
  the last), shown as floors.

Each body is read ``--number`` times per pass, best of ``--repeats`` passes, garbage collector off, in
microseconds. Time in a tight loop is not a request's cost: ``bench/instructions.py`` counts whole requests
(``--only games/validate`` and the like) for the figure to compare before and after a change.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

import jiter
import orjson

from bench.common import heading, say, table
from bench.loading import documented_requests
from service.api.common import decode_json, read_json

_STANDARD = json.JSONDecoder()

READERS: dict[str, Callable[[bytes], Any]] = {
    "read_json (jiter)": read_json,
    "jiter, repeats kept": lambda raw: jiter.from_json(raw, allow_inf_nan=False),
    "decode_json (hook)": decode_json,
    "json, repeats kept": lambda raw: _STANDARD.decode(raw.decode()),
    "orjson, repeats kept": orjson.loads,
}


def bodies() -> list[tuple[str, bytes]]:
    """(label, body as a client sends it: compact UTF-8) of every documented request, and the 98-action record."""
    from bench.floor import big_two_record

    found = [(path, json.dumps(body, separators=(",", ":")).encode()) for path, _, body in documented_requests()]
    return [*found, ("/v1/big-two/games/validate (98 actions)", big_two_record())]


def best_us(call: Callable[[], object], number: int, repeats: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=repeats)) / number * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--number", type=int, default=500, help="reads per pass (default 500)")
    parser.add_argument("--repeats", type=int, default=5, help="passes, the best counts (default 5)")
    args = parser.parse_args()
    rows, totals = [], dict.fromkeys(READERS, 0.0)
    gc.disable()
    for label, raw in bodies():
        expected = repr(decode_json(raw))
        row: list[object] = [label, f"{len(raw):,}", raw.count(b"{")]
        for name, read in READERS.items():
            assert repr(read(raw)) == expected, (name, label)  # the same value, types included
            us = best_us(lambda: read(raw), args.number, args.repeats)  # noqa: B023 - called at once
            totals[name] += us
            row.append(f"{us:,.1f}")
        rows.append(row)
    gc.enable()
    rows.append(["all of them", "", "", *(f"{us:,.1f}" for us in totals.values())])
    heading(f"Reading each request body's JSON, microseconds (best of {args.repeats} x {args.number})")
    say(table(["body", "bytes", "objects", *READERS], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
