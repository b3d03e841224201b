"""Loading a request: the fast path compiled from each schema (``service/api/loading.py``) against
marshmallow's ``Schema.load``, for every request body the contract documents, in process.

    .venv/bin/python bench/loading.py            # about 20 s
    .venv/bin/python bench/loading.py --number 500

Each body is loaded ``--number`` times per pass, best of ``--repeats`` passes, garbage collector off. The
fast path must answer every documented request (it returns the same as ``load``: tests/api/test_loading.py);
the ``speed-up`` column is ``load`` time over fast-path time. Figures are in bench/README.md.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

import yaml  # noqa: E402

from bench.common import heading, say, table  # noqa: E402
from service.api.loading import fast_load  # noqa: E402
from service.rules.games import GAMES  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def documented_requests() -> list[tuple[str, str, Any]]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    found = []
    for path, item in spec["paths"].items():
        content = item.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json")
        if content is None:
            continue
        body = content["example"] if "example" in content else next(iter(content["examples"].values()))["value"]
        found.append((path, content["schema"]["$ref"].rsplit("/", 1)[1], body))
    return found


def best_us(call: Any, number: int, repeats: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=repeats)) / number * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--number", type=int, default=300, help="loads per pass (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="passes, the best counts (default 5)")
    args = parser.parse_args()
    schemas = {
        s.__name__: s for game in GAMES for s in importlib.import_module(f"service.api.{game.module}").schemas_for(game)
    }
    rows, missed = [], []
    gc.disable()
    for path, name, body in documented_requests():
        schema = schemas[name]()
        if fast_load(schema, body) is None:
            missed.append(path)
        fast = best_us(lambda: fast_load(schema, body), args.number, args.repeats)  # noqa: B023 - called at once
        slow = best_us(lambda: schema.load(body), args.number, args.repeats)  # noqa: B023
        rows.append([path, f"{fast:,.1f}", f"{slow:,.1f}", f"{slow / fast:.1f}x"])
    gc.enable()
    heading(f"Loading each documented request body, microseconds (best of {args.repeats} x {args.number})")
    say(table(["operation", "fast path us", "Schema.load us", "speed-up"], rows))
    if missed:
        say("the fast path declined: " + ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
