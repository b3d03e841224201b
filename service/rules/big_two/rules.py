"""Taiwanese Big Two's scoring as one frozen data object (the house rules: ``TAIWAN``), passed explicitly
to ``score_game`` and ``validate_game`` as the OFC games pass ``OfcRules``: a variant is another instance,
not a new ``if``. The quotes are the rule book's (台灣大老二, 計分)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

DIGEST_LENGTH = 16  # hex digits of SHA-256, as OfcRules.digest


@dataclass(frozen=True, slots=True)
class CardsLeftTier:
    least: int  # the fewest cards left that reach the tier
    multiplier: int
    case: str  # the tier's name in the factor's text ("8-9")


@dataclass(frozen=True, slots=True)
class BigTwoRules:
    id: str
    cards_left_tiers: tuple[CardsLeftTier, ...]  # highest first: 「剩餘張數的級距只取一級」, the first one reached
    two_held: int  # per 2 a loser still holds (raised to their count)
    monster_held: int  # a loser who still holds a monster or a dragon
    grand_slam: int  # 大滿貫
    three_of_clubs_finish: int  # the last play holds the 3 of clubs
    two_finish: int  # per 2 in the last play (raised to their count)
    monster_finish: int  # finishing with a monster or a dragon
    green_dragon_finish: int  # 「以 ×20 取代怪物收尾的 ×2」
    digest: str = field(init=False)  # what GET /v1/games lists beside ``describe()``, as for OfcRules

    def __post_init__(self) -> None:
        canonical = json.dumps(self.describe(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        object.__setattr__(self, "digest", hashlib.sha256(canonical.encode()).hexdigest()[:DIGEST_LENGTH])

    def describe(self) -> dict[str, Any]:
        """Every parameter, as JSON: what ``GET /v1/games`` lists and what ``digest`` hashes."""
        return {
            "id": self.id,
            "loser_multipliers": {
                "cards_left": [{"at_least": t.least, "multiplier": t.multiplier} for t in self.cards_left_tiers],
                "per_two_held": self.two_held,
                "monster_held": self.monster_held,
            },
            "winner_multipliers": {
                "grand_slam": self.grand_slam,
                "three_of_clubs_finish": self.three_of_clubs_finish,
                "per_two_finish": self.two_finish,
                "monster_finish": self.monster_finish,
                "green_dragon_finish": self.green_dragon_finish,
            },
        }


TAIWAN = BigTwoRules(
    id="taiwan",
    cards_left_tiers=(
        CardsLeftTier(13, 4, "13"),
        CardsLeftTier(10, 3, "10-12"),
        CardsLeftTier(8, 2, "8-9"),
        CardsLeftTier(0, 1, "0-7"),
    ),
    two_held=2,
    monster_held=2,
    grand_slam=2,
    three_of_clubs_finish=2,
    two_finish=2,
    monster_finish=2,
    green_dragon_finish=20,
)
"""The house rules (台灣大老二): the only rule set, and every function's default."""
