#!/usr/bin/env python3
"""Build service/rules/thirteen/data/joker_thirteen_opponent.json: the simulated opponent of Joker Thirteen's
arrangements/suggest (service/rules/thirteen/suggest.py says how the objective uses it).

``--deals`` hands of 17 cards are drawn from the full 68-card deck by ``random.Random(--seed)``, each is
arranged by ``naive_arrangement`` (strongest tail, strongest middle, strongest legal head) and each dun's
strength is counted. The same arguments always write the same file (the deals are drawn in one process,
in order; workers only arrange them). Run: ``.venv/bin/python scripts/build_joker_thirteen_tables.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from service.rules import thirteen as j13  # noqa: E402
from service.rules.thirteen import suggest  # noqa: E402

DEFAULT_DEALS = 20_000
DEFAULT_SEED = 20261130


def strengths(hand: list[int]) -> tuple[tuple[int, ...], ...]:
    cards = [j13.GAME_DECK[i] for i in hand]
    head, middle, tail = suggest.naive_arrangement(cards)
    return tuple(suggest.strength(d) for d in (head, middle, tail))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=suggest.DATA)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deck = range(len(j13.GAME_DECK))
    hands = [rng.sample(deck, j13.HAND_SIZE) for _ in range(args.deals)]
    with Pool(args.workers) as pool:
        results = pool.map(strengths, hands, chunksize=200)
    counts = {d: Counter() for d in j13.DUNS}
    for arranged in results:
        for d, s in zip(j13.DUNS, arranged):
            counts[d][s] += 1
    data = {
        "description": "Joker Thirteen arrangements/suggest: per-dun strength counts of simulated naive opponents",
        "deals": args.deals,
        "seed": args.seed,
        "hand_size": j13.HAND_SIZE,
        "arranger": "naive_arrangement: strongest tail, then strongest middle, then strongest legal head",
        "duns": {d.value: [[list(s), n] for s, n in sorted(counts[d].items())] for d in j13.DUNS},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(
        f"{args.out}: {args.deals} deals, distinct strengths "
        + ", ".join(f"{d.value} {len(counts[d])}" for d in j13.DUNS)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
