#!/usr/bin/env python3
"""Build the simulated opponent of a Thirteen game's arrangements/suggest, one file per deck in
service/rules/thirteen/data/ (service/rules/thirteen/suggest.py says how the objective uses it):
``joker_thirteen_opponent.json`` (``--rule-set gscas``, Joker Thirteen's 68 cards, the default) and
``thirteen_opponent.json`` (``--rule-set ordinary``, ordinary 十三支's 52).

``--deals`` hands of the rule set's deal (17 cards, or 13) are drawn from its whole deck by
``random.Random(--seed)``, each is arranged by ``naive_arrangement`` (strongest tail, strongest middle,
strongest legal head) and each dun's strength is counted. The same arguments always write the same file (the
deals are drawn in one process, in order; workers only arrange them). The shipped files are the defaults:
``.venv/bin/python scripts/build_joker_thirteen_tables.py [--rule-set ordinary]``.
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

from service.rules import thirteen as j13
from service.rules.cards import Card
from service.rules.thirteen import suggest

DEFAULT_DEALS = 10_000
DEFAULT_SEED = 20261130
RULE_SETS = {rules.id: rules for rules in (j13.GSCAS, j13.ORDINARY)}
DESCRIPTION = {
    j13.GSCAS.id: "Joker Thirteen arrangements/suggest: per-dun strength counts of simulated naive opponents",
    j13.ORDINARY.id: "Thirteen (ordinary) arrangements/suggest: per-dun strength counts of simulated naive opponents",
}


def strengths(cards: list[Card]) -> tuple[tuple[int, ...], ...]:
    head, middle, tail = suggest.naive_arrangement(cards)
    return tuple(suggest.strength(d) for d in (head, middle, tail))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rule-set", choices=sorted(RULE_SETS), default=j13.GSCAS.id)
    parser.add_argument("--out", type=Path, help="default: the rule set's shipped file")
    args = parser.parse_args()
    deck = RULE_SETS[args.rule_set].deck
    out = args.out or suggest.DATA_DIR / deck.opponent
    rng = random.Random(args.seed)
    positions = range(len(deck.cards))
    hands = [[deck.cards[i] for i in rng.sample(positions, deck.hand_size)] for _ in range(args.deals)]
    with Pool(args.workers) as pool:
        results = pool.map(strengths, hands, chunksize=200)
    counts = {d: Counter() for d in j13.DUNS}
    for arranged in results:
        for d, s in zip(j13.DUNS, arranged):
            counts[d][s] += 1
    data = {
        "description": DESCRIPTION[args.rule_set],
        "deals": args.deals,
        "seed": args.seed,
        "hand_size": deck.hand_size,
        "arranger": "naive_arrangement: strongest tail, then strongest middle, then strongest legal head",
        "duns": {d.value: [[list(s), n] for s, n in sorted(counts[d].items())] for d in j13.DUNS},
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(
        f"{out}: {args.deals} deals, distinct strengths " + ", ".join(f"{d.value} {len(counts[d])}" for d in j13.DUNS)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
