"""The rules folder's tables of Thirteen scoring as the service's rules: the reference's dicts of the spec's
columns (tests/thirteen/table_reference.py) written as a request writes them, and the 1-6 and 2-4 scorings
(tables the spec gives "for a test", not rule sets the service serves) made that way once."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from service.rules.thirteen import DUNS, ORDINARY, Category, ThirteenRules
from service.rules.thirteen.rules import _DUN_CATEGORIES
from tests.thirteen import table_reference as tr

SCALARS = (
    "dun_points",
    "majority_points",
    "sweep",
    "sweep_points",
    "sweep_multiplier",
    "sweep_multiplies_bonuses",
    "home_run_points",
    "home_run_multiplier",
    "foul",
    "specials",
    "special_vs_special",
    "declare",
)
"""The reference's parameters besides its bonus table: each as ``GET /v1/games`` writes it."""


def rules_of(table: dict[str, Any], id: str = "ordinary") -> ThirteenRules:
    """The reference's table as the service's rules: ordinary 十三支 with every parameter written as a request
    writes it, and a bonus table for each dun (a category the dun cannot hold pays nothing at either)."""
    bonuses = {
        dun.value: {c: p for c, p in table["bonuses"].get(dun.value, {}).items() if Category(c) in _DUN_CATEGORIES[dun]}
        for dun in DUNS
    }
    rules = ORDINARY.with_description({name: table[name] for name in SCALARS}).with_bonuses(bonuses)
    return replace(rules, id=id)


ONE_SIX = rules_of(tr.ONE_SIX, "one-six")
TWO_FOUR = rules_of(tr.TWO_FOUR, "two-four")
